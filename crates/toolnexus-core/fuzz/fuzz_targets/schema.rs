//! The schema reader on any JSON value (generated schemas, or any bytes): never a panic;
//! `check_schema` lists exactly the problems `schema::read` finds; the model is refused
//! exactly when a problem blocks the form, with the first blocking problem as its error.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use toolnexus_core::json::{Limits, parse};
use toolnexus_core::schema::{self, RequestedSchema, check_schema};
use toolnexus_core_fuzz::schema_bytes;

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    let Some(bytes) = schema_bytes(&mut u, true) else {
        return;
    };
    let Ok(value) = parse(&bytes, &Limits::DEFAULT) else {
        return;
    };
    let problems = check_schema(&value);
    let read = schema::read(&value);
    let model = RequestedSchema::from_value(&value);
    let first_block = problems.iter().find_map(|p| p.to_error());
    match read {
        Ok((_, found)) => {
            assert_eq!(found, problems);
            assert!(
                first_block.is_none(),
                "read a model despite {first_block:?}"
            );
            assert!(model.is_ok());
        }
        Err(e) => {
            assert_eq!(model.err().as_ref(), Some(&e));
            assert_eq!(
                first_block.as_ref(),
                Some(&e),
                "refused without that blocking problem"
            );
        }
    }
});
