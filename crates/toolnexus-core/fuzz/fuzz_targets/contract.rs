//! `Request`, `Answer` and `ElicitResult` read from any bytes: never a panic, and a contract
//! read writes back to text that reads to the same contract and writes the same again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus_core::json::Limits;
use toolnexus_core::{Answer, ElicitResult, Request, answer_to_elicit_result};
use toolnexus_core_fuzz::{limits, must_read};

fuzz_target!(|input: &[u8]| {
    let Some((choice, bytes)) = input.split_first() else {
        return;
    };
    let limits = limits(*choice >> 2);
    let wide = Limits::DEFAULT.with_max_input_bytes(usize::MAX);
    match choice % 3 {
        0 => {
            if let Ok(request) = Request::from_json(bytes, &limits) {
                let text = request.to_json();
                must_read(&text, "Request::to_json");
                let again = Request::from_json(text.as_bytes(), &wide).unwrap();
                assert_eq!(again.to_json(), text);
            }
        }
        1 => {
            if let Ok(answer) = Answer::from_json(bytes, &limits) {
                let text = answer.to_json();
                must_read(&text, "Answer::to_json");
                let again = Answer::from_json(text.as_bytes(), &wide).unwrap();
                assert_eq!(again.to_json(), text);
                if let Ok(result) = answer_to_elicit_result(&answer) {
                    let text = result.to_json();
                    must_read(&text, "ElicitResult::to_json");
                    ElicitResult::from_json(text.as_bytes(), &wide).unwrap();
                }
            }
        }
        _ => {
            if let Ok(result) = ElicitResult::from_json(bytes, &limits) {
                let text = result.to_json();
                must_read(&text, "ElicitResult::to_json");
                let again = ElicitResult::from_json(text.as_bytes(), &wide).unwrap();
                assert_eq!(again.to_json(), text);
            }
        }
    }
});
