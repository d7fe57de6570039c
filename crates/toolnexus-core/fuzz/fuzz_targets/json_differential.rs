//! The JSON reader against serde_json: on every input both read, they read the same value;
//! where only one reads it, the reason is one of the documented differences.
//!
//! The differences (conformance/README.md, byte rules 6, 7 and 10):
//! - toolnexus refuses duplicate keys (serde_json keeps the last);
//! - toolnexus refuses what is over its limits (depth 64 by default; serde_json stops at 128);
//! - toolnexus keeps numbers as spelt, so it reads numbers beyond a double's range, which
//!   serde_json refuses (`number out of range`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus_core::ErrorKind;
use toolnexus_core::json::{Limits, parse};

fn same(ours: &toolnexus_core::Value, theirs: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    use toolnexus_core::Value as T;
    match (ours, theirs) {
        (T::Null, J::Null) => true,
        (T::Bool(a), J::Bool(b)) => a == b,
        (T::String(a), J::String(b)) => a == b,
        (T::Number(a), J::Number(b)) => {
            // The same number: serde_json's reading of our spelling is its own.
            serde_json::from_str::<serde_json::Number>(a.as_str())
                .ok()
                .as_ref()
                == Some(b)
        }
        (T::Array(a), J::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (T::Object(a), J::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| same(v, w)))
        }
        _ => false,
    }
}

fuzz_target!(|input: &[u8]| {
    let limits = Limits::DEFAULT.with_max_depth(Limits::DEPTH_CEILING);
    let ours = parse(input, &limits);
    let theirs = serde_json::from_slice::<serde_json::Value>(input);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert!(same(a, b), "read differently: {a:?} / {b:?}"),
        (Err(e), Ok(_)) => assert!(
            matches!(
                e.kind(),
                ErrorKind::DuplicateKey
                    | ErrorKind::TooDeep
                    | ErrorKind::TooManyMembers
                    | ErrorKind::TooManyItems
                    | ErrorKind::TooLarge
            ),
            "only serde_json reads {:?}: {e}",
            String::from_utf8_lossy(input)
        ),
        (Ok(_), Err(e)) => {
            let why = e.to_string();
            assert!(
                why.contains("number out of range") || why.contains("recursion limit"),
                "only toolnexus reads {:?}: serde_json says {why}",
                String::from_utf8_lossy(input)
            );
        }
        (Err(_), Err(_)) => {}
    }
});
