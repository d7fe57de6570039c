//! Tasks followed in either era: a `tools/call` result read as a task (generated or raw),
//! then polls of any status (generated, or raw text) read by the driver, its questions
//! answered or not, and its updates written. Never a panic; a refused poll changes nothing;
//! every request written is JSON naming the task; no key is shown twice and no answer is
//! sent twice.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use toolnexus_core::wire::client::Era;
use toolnexus_core::wire::rpc::RpcId;
use toolnexus_core::wire::task::{TaskDriver, TaskEvent};
use toolnexus_core::{Answer, Reason, SessionOptions, Value};
use toolnexus_core_fuzz::{GenParams, GenText, limits, must_read, quote, take_bytes};

const STATUSES: [&str; 6] = [
    "working",
    "input_required",
    "completed",
    "failed",
    "cancelled",
    "paused",
];

#[derive(Debug, Arbitrary)]
enum Entry {
    Elicit(GenParams),
    Other,
    Raw(GenText),
}

#[derive(Debug, Arbitrary)]
struct Poll {
    other_task: bool,
    status: u8,
    message: Option<GenText>,
    interval: Option<u16>,
    entries: Vec<(u8, Entry)>,
    result: bool,
    wrapped: bool,
}

impl Poll {
    fn to_bytes(&self) -> Vec<u8> {
        let entries: Vec<String> = self
            .entries
            .iter()
            .take(5)
            .map(|(key, e)| {
                let body = match e {
                    Entry::Elicit(p) => format!(
                        "{{\"method\":\"elicitation/create\",\"params\":{}}}",
                        String::from_utf8_lossy(&p.to_bytes())
                    ),
                    Entry::Other => String::from("{\"method\":\"roots/list\"}"),
                    Entry::Raw(t) => quote(&t.0),
                };
                format!("\"k{}\":{body}", key % 6)
            })
            .collect();
        let mut result = format!(
            "{{\"taskId\":\"{}\",\"status\":\"{}\"",
            if self.other_task { "t2" } else { "t1" },
            STATUSES[usize::from(self.status) % STATUSES.len()]
        );
        if let Some(m) = &self.message {
            result.push_str(&format!(",\"statusMessage\":{}", quote(&m.0)));
        }
        if let Some(i) = self.interval {
            result.push_str(&format!(",\"pollIntervalMs\":{i}"));
        }
        result.push_str(&format!(",\"inputRequests\":{{{}}}", entries.join(",")));
        if self.result {
            result.push_str(",\"result\":{\"content\":[]},\"error\":{\"code\":-1}");
        }
        result.push('}');
        if self.wrapped {
            format!("{{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{result}}}").into_bytes()
        } else {
            result.into_bytes()
        }
    }
}

/// Checks a request the driver wrote: JSON, for the method, naming the task.
fn check_call(text: &str, method: &str) {
    let value = must_read(text, "TaskCall::to_request");
    assert_eq!(value.get("method").and_then(Value::as_str), Some(method));
    let params = value.get("params").expect("params");
    assert_eq!(params.get("taskId").and_then(Value::as_str), Some("t1"));
}

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    let Ok(choice) = u8::arbitrary(&mut u) else {
        return;
    };
    let limits = limits(choice);
    let era = if choice & 8 != 0 {
        Era::Handshake
    } else {
        Era::Modern
    };
    let created: Vec<u8> = if choice & 16 != 0 {
        take_bytes(&mut u).to_vec()
    } else if era == Era::Modern {
        br#"{"resultType":"task","taskId":"t1","status":"working","ttlMs":1000,"pollIntervalMs":10}"#
            .to_vec()
    } else {
        br#"{"task":{"taskId":"t1","status":"working","ttl":null,"pollInterval":10}}"#.to_vec()
    };
    let Ok(Some(mut driver)) =
        TaskDriver::start_json(&created, era, SessionOptions::DEFAULT, 0, &limits)
    else {
        return;
    };
    let mut shown: Vec<String> = Vec::new();
    let mut sent: Vec<String> = Vec::new();
    for now in 1..8u64 {
        let bytes = if bool::arbitrary(&mut u).unwrap_or(false) {
            take_bytes(&mut u).to_vec()
        } else {
            match Poll::arbitrary(&mut u) {
                Ok(p) => p.to_bytes(),
                Err(_) => break,
            }
        };
        let before = (driver.task().clone(), driver.next_poll_at(), driver.shown().len());
        let event = match driver.read_json(&bytes, now, &limits) {
            Ok(event) => event,
            Err(_) => {
                let after = (driver.task().clone(), driver.next_poll_at(), driver.shown().len());
                assert_eq!(before, after, "a refused poll changed the driver");
                continue;
            }
        };
        assert!(driver.next_poll_at() > now, "the next poll is not later");
        if let TaskEvent::InputRequired { requests } = &event {
            for (key, request) in requests {
                assert!(!shown.contains(key), "the key {key} was shown twice");
                shown.push(key.clone());
                let answer = match u8::arbitrary(&mut u).unwrap_or(0) % 3 {
                    0 => Answer::accept(request.id(), toolnexus_core::Map::new()),
                    1 => Answer::refuse(request.id(), Reason::Declined),
                    _ => continue,
                };
                if let Ok(answer) = answer {
                    let _ = driver.resolve(&answer, now);
                }
            }
        }
        let partial = bool::arbitrary(&mut u).unwrap_or(true);
        if let Ok(Some(update)) = driver.update(partial) {
            let text = update.to_request(&RpcId::from(9)).expect("a whole id");
            check_call(&text, "tasks/update");
            let responses = update
                .params()
                .get("inputResponses")
                .and_then(Value::as_object)
                .expect("inputResponses");
            for key in responses.keys() {
                assert!(!sent.iter().any(|k| k == key), "the answer {key} was sent twice");
                assert!(
                    driver.shown().iter().any(|k| k == key),
                    "{key} was sent, never shown"
                );
                sent.push(String::from(key));
            }
        }
        for (call, method) in [
            (driver.get(), "tasks/get"),
            (driver.cancel(), "tasks/cancel"),
            (driver.result(), "tasks/result"),
        ] {
            check_call(&call.to_request(&RpcId::from(1)).expect("a whole id"), method);
        }
        if driver.is_done() {
            break;
        }
    }
});
