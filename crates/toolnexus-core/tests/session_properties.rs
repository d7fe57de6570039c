//! Property tests for the session: any sequence of calls keeps its invariants — bounded,
//! each request resolved at most once, nothing half-valid sent, failures change nothing.

// A failed check is meant to stop the test: its helpers, not only its `#[test]`s, may panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use toolnexus_core::content::{ContentOptions, validate_content};
use toolnexus_core::session::{Session, SessionOptions};
use toolnexus_core::{
    Action, Answer, ElicitRequestParams, ErrorKind, Limits, Map, Mode, Modes, Reason, Value, json,
};

const FORM: &str = r#"{"message":"Age?","requestedSchema":{"type":"object","properties":{"age":{"type":"integer","minimum":18},"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"maxItems":1}},"required":["age"]}}"#;
const URL: &str =
    r#"{"mode":"url","message":"Log in","url":"https://example.com/","elicitationId":"e"}"#;

#[derive(Debug, Clone)]
enum Step {
    Begin {
        url: bool,
        id: u8,
        now: u64,
    },
    Accept {
        id: u8,
        age: i64,
        tags: u8,
        now: u64,
    },
    Refuse {
        id: u8,
        declined: bool,
        now: u64,
    },
    Complete,
    Expire {
        now: u64,
    },
    CancelAll,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (any::<bool>(), 0u8..6, 0u64..3000).prop_map(|(url, id, now)| Step::Begin { url, id, now }),
        4 => (0u8..6, 10i64..30, 0u8..3, 0u64..3000).prop_map(|(id, age, tags, now)| Step::Accept { id, age, tags, now }),
        2 => (0u8..6, any::<bool>(), 0u64..3000).prop_map(|(id, declined, now)| Step::Refuse { id, declined, now }),
        1 => Just(Step::Complete),
        1 => (0u64..3000).prop_map(|now| Step::Expire { now }),
        1 => Just(Step::CancelAll),
    ]
}

fn params(url: bool) -> ElicitRequestParams {
    ElicitRequestParams::from_json(if url { URL } else { FORM }.as_bytes(), &Limits::DEFAULT)
        .unwrap()
}

fn schema() -> toolnexus_core::schema::RequestedSchema {
    match params(false) {
        ElicitRequestParams::Form(form) => form.schema().unwrap(),
        _ => unreachable!(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn any_sequence_keeps_the_session_invariants(
        steps in prop::collection::vec(step(), 1..40),
        max in 1usize..5,
        ttl in prop::option::of(0u64..2000),
        modes in prop::sample::select(vec![Modes::ALL, Modes::FORM, Modes::URL]),
    ) {
        let options = SessionOptions::DEFAULT
            .with_max_pending(max)
            .with_ttl_ms(ttl)
            .with_modes(modes);
        let mut session = Session::new(options);
        let schema = schema();
        for step in steps {
            let before = session.pending().len();
            match step {
                Step::Begin { url, id, now } => {
                    let id = format!("r{id}");
                    let was_pending = session.is_pending(&id);
                    match session.begin(&params(url), &id, now) {
                        Ok(request) => {
                            prop_assert_eq!(request.id(), id.as_str());
                            prop_assert_eq!(request.expires_at().is_some(), ttl.is_some());
                            prop_assert_eq!(session.pending().len(), before + 1);
                        }
                        Err(e) => {
                            let load = before + session.awaiting_completion().len();
                            let awaiting = session.awaiting_completion().iter().any(|a| a.request_id() == id);
                            match e.kind() {
                                ErrorKind::ModeNotSupported => {
                                    let mode = if url { Mode::Url } else { Mode::Form };
                                    prop_assert!(!modes.supports(mode));
                                }
                                ErrorKind::DuplicateRequest => prop_assert!(was_pending || awaiting),
                                ErrorKind::TooManyPending => prop_assert!(load >= max),
                                other => prop_assert!(false, "begin failed with {other}"),
                            }
                            prop_assert_eq!(session.pending().len(), before);
                        }
                    }
                }
                Step::Accept { id, age, tags, now } => {
                    let id = format!("r{id}");
                    let mut data = Map::new();
                    data.insert("age", Value::from(age));
                    let chosen: Vec<Value> = ["a", "b", "c"].iter().take(tags as usize).map(|t| Value::from(*t)).collect();
                    data.insert("tags", Value::Array(chosen));
                    let is_form = session.get(&id).map(|r| r.kind() == "input");
                    let answer = Answer::accept(id.clone(), data.clone()).unwrap();
                    match session.resolve(&answer, now) {
                        Ok(result) => {
                            prop_assert!(!session.is_pending(&id));
                            if result.action() == Action::Accept {
                                match is_form {
                                    Some(true) => {
                                        // Only valid content ever leaves the session.
                                        let content = Value::Object(result.content().unwrap().as_map().clone());
                                        prop_assert!(validate_content(&schema, &content, &ContentOptions::STRICT).is_empty());
                                    }
                                    _ => prop_assert!(result.content().is_none()),
                                }
                            } else {
                                prop_assert_eq!(result.action(), Action::Cancel);
                                prop_assert!(result.content().is_none());
                            }
                        }
                        Err(e) if e.kind() == ErrorKind::InvalidContent => {
                            prop_assert!(!e.violations().is_empty());
                            prop_assert!(session.is_pending(&id));
                            prop_assert_eq!(session.pending().len(), before);
                        }
                        Err(e) => {
                            prop_assert_eq!(e.kind(), ErrorKind::UnknownRequest);
                            prop_assert_eq!(session.pending().len(), before);
                        }
                    }
                }
                Step::Refuse { id, declined, now } => {
                    let id = format!("r{id}");
                    let reason = if declined { Reason::Declined } else { Reason::Cancelled };
                    let answer = Answer::refuse(id.clone(), reason).unwrap();
                    match session.resolve(&answer, now) {
                        Ok(result) => {
                            prop_assert!(result.content().is_none());
                            prop_assert_ne!(result.action(), Action::Accept);
                            prop_assert!(!session.is_pending(&id));
                        }
                        Err(e) => prop_assert_eq!(e.kind(), ErrorKind::UnknownRequest),
                    }
                }
                Step::Complete => {
                    let _ = session.complete("e");
                }
                Step::Expire { now } => {
                    for (id, result) in session.expire(now) {
                        prop_assert_eq!(result.action(), Action::Cancel);
                        prop_assert!(!session.is_pending(&id));
                    }
                }
                Step::CancelAll => {
                    let all = session.cancel_all();
                    prop_assert_eq!(all.len(), before);
                    prop_assert!(session.pending().is_empty());
                    prop_assert!(session.awaiting_completion().is_empty());
                }
            }
            prop_assert!(session.pending().len() + session.awaiting_completion().len() <= max);
        }
    }
}

#[test]
fn a_parsed_answer_and_a_built_one_resolve_alike() {
    let mut a = Session::new(SessionOptions::DEFAULT);
    let mut b = Session::new(SessionOptions::DEFAULT);
    a.begin(&params(false), "q", 0).unwrap();
    b.begin(&params(false), "q", 0).unwrap();
    let parsed = Answer::from_value(
        json::parse_str(
            r#"{"id":"q","ok":true,"data":{"age":20}}"#,
            &Limits::DEFAULT,
        )
        .unwrap(),
    )
    .unwrap();
    let mut data = Map::new();
    data.insert("age", Value::from(20i64));
    let built = Answer::accept("q", data).unwrap();
    assert_eq!(
        a.resolve(&parsed, 1).unwrap().to_json(),
        b.resolve(&built, 1).unwrap().to_json()
    );
}
