//! The JSON reader on any bytes, within the default and within small limits: it never
//! panics, and what it reads writes back as JSON that reads to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus_core::json::{Limits, parse};
use toolnexus_core_fuzz::{limits, must_read};

fuzz_target!(|input: &[u8]| {
    let (choice, bytes) = match input.split_first() {
        Some((c, rest)) => (*c, rest),
        None => (0, input),
    };
    let limits = limits(choice);
    if let Ok(value) = parse(bytes, &limits) {
        let text = value.to_json();
        assert_eq!(must_read(&text, "the writer"), value);
        // Compact output is never longer than the input: the limit on size still holds.
        assert!(text.len() <= bytes.len(), "{text} is longer than its input");
        assert_eq!(
            parse(text.as_bytes(), &Limits::DEFAULT)
                .ok()
                .map(|v| v.to_json()),
            Some(text)
        );
    }
});
