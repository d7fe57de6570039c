//! A `Session`, a `ReverseBridge` and an `InputRound` each shared by 16 threads (behind a
//! mutex, as a host shares them): the counts of requests begun, resolved, refused and left
//! pending add up exactly. The same scenario runs in every binding.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::{Arc, Barrier, Mutex};
use std::thread;

use toolnexus_core::json::{Limits, parse_str};
use toolnexus_core::wire::mrtr::ClientRequest;
use toolnexus_core::wire::reverse::Incoming;
use toolnexus_core::{
    Answer, ElicitRequestParams, Error, InputRequired, InputRound, Map, Reason, ReverseBridge,
    Session, SessionOptions, Value,
};

const THREADS: usize = 16;
const EACH: usize = 40;
const TOTAL: usize = THREADS * EACH;
const PARAMS: &str = r#"{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}"#;

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    begun: usize,
    resolved: usize,
    resolved_twice: usize,
    refused: usize,
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts {
            begun: self.begun + o.begun,
            resolved: self.resolved + o.resolved,
            resolved_twice: self.resolved_twice + o.resolved_twice,
            refused: self.refused + o.refused,
        }
    }
}

/// Runs `work(t)` on 16 threads started together; the sum of their counts.
fn run_threads(work: impl Fn(usize) -> Counts + Send + Sync + 'static) -> Counts {
    let work = Arc::new(work);
    let start = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (work, start) = (Arc::clone(&work), Arc::clone(&start));
            thread::spawn(move || {
                start.wait();
                work(t)
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().unwrap())
        .fold(Counts::default(), |a, b| a + b)
}

/// What the n-th request gets: accept, decline, invalid content (refused), or nothing.
fn answer_for(n: usize, id: &str) -> Option<Answer> {
    let mut data = Map::new();
    data.insert("a", Value::from("x"));
    match n % 4 {
        0 => Some(Answer::accept(id, data).unwrap()),
        1 => Some(Answer::refuse(id, Reason::Declined).unwrap()),
        2 => Some(Answer::accept(id, Map::new()).unwrap()),
        _ => None,
    }
}

/// Answers the n-th request, then answers it again; counts what each answer got.
fn settle<R>(
    counts: &mut Counts,
    n: usize,
    id: &str,
    mut resolve: impl FnMut(&Answer) -> Result<R, Error>,
) {
    let Some(answer) = answer_for(n, id) else {
        return;
    };
    match resolve(&answer) {
        Ok(_) => {
            counts.resolved += 1;
            match resolve(&answer) {
                Ok(_) => counts.resolved_twice += 1,
                Err(_) => counts.refused += 1,
            }
        }
        Err(_) => counts.refused += 1,
    }
}

fn params() -> ElicitRequestParams {
    ElicitRequestParams::from_json(PARAMS.as_bytes(), &Limits::DEFAULT).unwrap()
}

fn options() -> SessionOptions {
    SessionOptions::DEFAULT.with_max_pending(TOTAL)
}

#[test]
fn a_session_shared_by_16_threads() {
    let session = Arc::new(Mutex::new(Session::new(options())));
    let shared = Arc::clone(&session);
    let counts = run_threads(move |t| {
        let params = params();
        let mut counts = Counts::default();
        for n in 0..EACH {
            let id = format!("t{t}-{n}");
            shared.lock().unwrap().begin(&params, &id, 0).unwrap();
            counts.begun += 1;
            if shared.lock().unwrap().begin(&params, &id, 0).is_err() {
                counts.refused += 1;
            }
            settle(&mut counts, n, &id, |a| {
                shared.lock().unwrap().resolve(a, 0)
            });
        }
        counts
    });
    assert_eq!(counts.begun, TOTAL);
    assert_eq!(counts.resolved, TOTAL / 2);
    assert_eq!(counts.resolved_twice, 0);
    assert_eq!(counts.refused, TOTAL + TOTAL / 2 + TOTAL / 4);
    assert_eq!(
        session.lock().unwrap().pending().len(),
        TOTAL - counts.resolved
    );
}

#[test]
fn a_reverse_bridge_shared_by_16_threads() {
    let bridge = Arc::new(Mutex::new(ReverseBridge::new(options())));
    let shared = Arc::clone(&bridge);
    let counts = run_threads(move |t| {
        let mut counts = Counts::default();
        for n in 0..EACH {
            let message = format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"elicitation/create","params":{PARAMS}}}"#,
                t * 1000 + n
            );
            let incoming = shared
                .lock()
                .unwrap()
                .receive(message.as_bytes(), 0, &Limits::DEFAULT);
            let Incoming::Elicit { request, .. } = incoming else {
                panic!("not an elicitation: {incoming:?}")
            };
            counts.begun += 1;
            settle(&mut counts, n, request.id(), |a| {
                shared.lock().unwrap().respond(a, 0)
            });
        }
        counts
    });
    assert_eq!(counts.begun, TOTAL);
    assert_eq!(counts.resolved, TOTAL / 2);
    assert_eq!(counts.resolved_twice, 0);
    assert_eq!(counts.refused, TOTAL / 2 + TOTAL / 4);
    assert_eq!(
        bridge.lock().unwrap().session().pending().len(),
        TOTAL - counts.resolved
    );
}

#[test]
fn an_input_round_shared_by_16_threads() {
    let entries: Vec<String> = (0..THREADS)
        .flat_map(|t| {
            (0..EACH).map(move |n| {
                format!(r#""k{t}-{n}":{{"method":"elicitation/create","params":{PARAMS}}}"#)
            })
        })
        .collect();
    let result = format!(
        r#"{{"resultType":"input_required","inputRequests":{{{}}},"requestState":"s"}}"#,
        entries.join(",")
    );
    let request = ClientRequest::from_json(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
        &Limits::DEFAULT,
    )
    .unwrap();
    let input = InputRequired::from_json(result.as_bytes(), &Limits::DEFAULT).unwrap();
    let (round, requests) = InputRound::start(request, input, options(), 0).unwrap();
    assert_eq!(requests.len(), TOTAL);
    let ids: Arc<Vec<(String, String)>> = Arc::new(
        requests
            .iter()
            .map(|(k, r)| (k.clone(), String::from(r.id())))
            .collect(),
    );
    let round = Arc::new(Mutex::new(round));
    let shared = Arc::clone(&round);
    let counts = run_threads(move |t| {
        let mut counts = Counts::default();
        for n in 0..EACH {
            let key = format!("k{t}-{n}");
            let id = &ids.iter().find(|(k, _)| *k == key).unwrap().1;
            counts.begun += 1;
            settle(&mut counts, n, id, |a| shared.lock().unwrap().resolve(a, 0));
        }
        counts
    });
    assert_eq!(counts.begun, TOTAL);
    assert_eq!(counts.resolved, TOTAL / 2);
    assert_eq!(counts.resolved_twice, 0);
    assert_eq!(counts.refused, TOTAL / 2 + TOTAL / 4);
    let round = round.lock().unwrap();
    assert_eq!(round.missing().len(), TOTAL - counts.resolved);
    assert_eq!(round.pending().len(), TOTAL - counts.resolved);
    // What is answered goes out in the retry, in order; parse it to be sure.
    let added = round.input_responses(true).unwrap();
    let responses = added
        .get("inputResponses")
        .and_then(Value::as_object)
        .unwrap();
    assert_eq!(responses.len(), counts.resolved);
    parse_str(&Value::Object(added.clone()).to_json(), &Limits::DEFAULT).unwrap();
}
