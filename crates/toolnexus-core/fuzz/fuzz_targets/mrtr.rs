//! The 2026-07-28 multi round-trip readers and rounds: `ClientRequest`, `InputRequired` and
//! `ServerResult` read from generated or raw text, a round started, its elicitations
//! answered, other entries supplied, then the retry (and the next round). Never a panic;
//! every retry is JSON carrying the request's method, a new id, the exact `requestState`
//! and a response for every entry answered.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use toolnexus_core::json::Limits;
use toolnexus_core::wire::mrtr::ClientRequest;
use toolnexus_core::wire::rpc::RpcId;
use toolnexus_core::{
    Answer, InputRequired, InputRound, Reason, ServerResult, SessionOptions, Value,
};
use toolnexus_core_fuzz::{GenParams, GenText, limits, must_read, quote, take_bytes};

#[derive(Debug, Arbitrary)]
enum Entry {
    Elicit(GenParams),
    Other { method: u8 },
    Raw(GenText),
}

#[derive(Debug, Arbitrary)]
struct Response {
    id: Option<u8>,
    wrapped: bool,
    entries: Vec<(u8, Entry)>,
    state: Option<GenText>,
    result_type: u8,
}

impl Response {
    fn to_bytes(&self) -> Vec<u8> {
        let entries: Vec<String> = self
            .entries
            .iter()
            .take(6)
            .map(|(key, e)| {
                let body = match e {
                    Entry::Elicit(p) => format!(
                        "{{\"method\":\"elicitation/create\",\"params\":{}}}",
                        String::from_utf8_lossy(&p.to_bytes())
                    ),
                    Entry::Other { method } => format!(
                        "{{\"method\":{},\"params\":{{}}}}",
                        quote(
                            ["roots/list", "sampling/createMessage", ""][usize::from(method % 3)]
                        )
                    ),
                    Entry::Raw(t) => quote(&t.0),
                };
                format!("\"k{}\":{body}", key % 8)
            })
            .collect();
        let result_type =
            ["input_required", "complete", "other"][usize::from(self.result_type % 3)];
        let state = self
            .state
            .as_ref()
            .map(|s| format!(",\"requestState\":{}", quote(&s.0)))
            .unwrap_or_default();
        let result = format!(
            "{{\"resultType\":\"{result_type}\",\"inputRequests\":{{{}}}{state}}}",
            entries.join(",")
        );
        if self.wrapped {
            let id = self
                .id
                .map(|i| format!("\"id\":{},", i % 3))
                .unwrap_or_default();
            format!("{{\"jsonrpc\":\"2.0\",{id}\"result\":{result}}}").into_bytes()
        } else {
            result.into_bytes()
        }
    }
}

/// The retry is the request again, with the exact state and a response for every entry
/// answered (none at all when nothing was).
fn check_retry(text: &str, method: &str, round: &InputRound) {
    let value = must_read(text, "InputRound::retry");
    let params = value
        .get("params")
        .and_then(Value::as_object)
        .expect("params");
    assert_eq!(value.get("method").and_then(Value::as_str), Some(method));
    let state = round.input_required().request_state();
    assert_eq!(
        params.get("requestState").and_then(Value::as_str),
        state,
        "{text}"
    );
    let missing = round.missing();
    let answered: Vec<&str> = round
        .input_required()
        .input_requests()
        .iter()
        .map(|r| r.key())
        .filter(|k| !missing.contains(k))
        .collect();
    let sent: Vec<&str> = match params.get("inputResponses") {
        Some(Value::Object(map)) => map.keys().collect(),
        Some(other) => panic!("inputResponses is {other:?}"),
        None => Vec::new(),
    };
    assert_eq!(sent, answered, "{text}");
}

fn answer_all(
    round: &mut InputRound,
    requests: &[(String, toolnexus_core::Request)],
    u: &mut Unstructured,
) {
    for (key, request) in requests {
        let answer = match u8::arbitrary(u).unwrap_or(0) % 3 {
            0 => Answer::accept(request.id(), toolnexus_core::Map::new()).unwrap(),
            1 => Answer::refuse(request.id(), Reason::Declined).unwrap(),
            _ => continue,
        };
        if let Ok((k, _)) = round.resolve(&answer, 0) {
            assert_eq!(&k, key);
            assert!(round.resolve(&answer, 0).is_err(), "{key} resolved twice");
        }
    }
    let others: Vec<String> = round
        .unhandled()
        .iter()
        .map(|r| String::from(r.key()))
        .collect();
    for key in others {
        if bool::arbitrary(u).unwrap_or(false) {
            round
                .supply(&key, Value::Object(toolnexus_core::Map::new()))
                .unwrap();
        }
    }
}

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    let Ok(choice) = u8::arbitrary(&mut u) else {
        return;
    };
    let limits = limits(choice);
    let request_text = if choice & 16 != 0 {
        take_bytes(&mut u).to_vec()
    } else {
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}"#
            .to_vec()
    };
    let response = if choice & 32 != 0 {
        take_bytes(&mut u).to_vec()
    } else {
        match Response::arbitrary(&mut u) {
            Ok(r) => r.to_bytes(),
            Err(_) => return,
        }
    };
    let _ = ServerResult::from_json(&response, &limits);
    let Ok(input_required) = InputRequired::from_json(&response, &limits) else {
        return;
    };
    let partial = bool::arbitrary(&mut u).unwrap_or(true);

    if let Ok((mut round, requests)) =
        InputRound::for_result(input_required.clone(), SessionOptions::DEFAULT, 0)
    {
        answer_all(&mut round, &requests, &mut u);
        if let Ok(added) = round.input_responses(partial) {
            must_read(
                &Value::Object(added).to_json(),
                "InputRound::input_responses",
            );
        }
    }
    let Ok(request) = ClientRequest::from_json(&request_text, &limits) else {
        return;
    };
    let method = String::from(request.method());
    let Ok((mut round, requests)) =
        InputRound::start(request, input_required, SessionOptions::DEFAULT, 0)
    else {
        return;
    };
    answer_all(&mut round, &requests, &mut u);
    let id = RpcId::from(i64::from(u8::arbitrary(&mut u).unwrap_or(2)));
    let Ok(text) = round.retry(&id, partial) else {
        return;
    };
    check_retry(&text, &method, &round);
    assert!(round.retry(&id, true).is_err(), "an id was sent twice");

    // The server asks again.
    let Ok(next) = Response::arbitrary(&mut u) else {
        return;
    };
    let Ok(again) = InputRequired::from_json(&next.to_bytes(), &Limits::DEFAULT) else {
        return;
    };
    if let Ok((mut next_round, requests)) = round.next_round(again, 0) {
        answer_all(&mut next_round, &requests, &mut u);
        assert!(
            next_round.retry(&id, true).is_err(),
            "the next round reused an id"
        );
        let fresh = RpcId::from(1000);
        if let Ok(text) = next_round.retry(&fresh, true) {
            check_retry(&text, &method, &next_round);
        }
    }
});
