//! `ElicitRequestParams` read from any bytes (or generated), then mapped to a `Request` and
//! prepared as a form: never a panic; the Request carries the schema verbatim; a form's
//! content that prepares is content the form validates.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use toolnexus_core::content::ContentOptions;
use toolnexus_core::json::{Limits, parse_str};
use toolnexus_core::{ElicitRequestParams, Value, elicitation_to_request};
use toolnexus_core_fuzz::{GenContent, GenParams, limits, must_read};

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    let Ok(choice) = u8::arbitrary(&mut u) else {
        return;
    };
    let Ok(params) = GenParams::arbitrary(&mut u) else {
        return;
    };
    let bytes = params.to_bytes();
    let Ok(params) = ElicitRequestParams::from_json(&bytes, &limits(choice)) else {
        return;
    };
    let request = match elicitation_to_request(&params, "req-1") {
        Ok(r) => r,
        Err(_) => return,
    };
    let text = request.to_json();
    must_read(&text, "Request::to_json");
    if let ElicitRequestParams::Form(form) = &params {
        assert_eq!(request.schema(), Some(form.requested_schema()));
        if let Ok(prepared) = form.form() {
            let Ok(content) = GenContent::arbitrary(&mut u) else {
                return;
            };
            let names: Vec<&str> = prepared.fields().iter().map(|f| f.name()).collect();
            let text = content.to_json(&names);
            let Ok(content) = parse_str(&text, &Limits::DEFAULT) else {
                return;
            };
            let options = ContentOptions::STRICT.allow_unknown(choice & 8 != 0);
            if let Ok(ready) = prepared.prepare(&content, &options) {
                let value = Value::Object(ready);
                assert!(prepared.validate(&value, &options).is_empty(), "{text}");
            }
        }
    }
});
