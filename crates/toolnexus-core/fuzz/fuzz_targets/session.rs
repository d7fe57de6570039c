//! Arbitrary sequences of session operations, checked against a model of what the session
//! holds: each request resolves at most once; accepted form content always validates
//! against the form; a refused call changes nothing; the pending list is exactly the
//! requests begun and not yet resolved, expired, cancelled or withdrawn.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;
use toolnexus_core::content::ContentOptions;
use toolnexus_core::json::{Limits, parse_str};
use toolnexus_core::{
    Action, Answer, ElicitRequestParams, Modes, Reason, Session, SessionOptions, Value,
};
use toolnexus_core_fuzz::{GenContent, GenParams};

#[derive(Debug, Arbitrary)]
enum Op {
    Begin {
        params: GenParams,
        id: u8,
        now: u16,
    },
    Accept {
        id: u8,
        content: GenContent,
        now: u16,
    },
    Refuse {
        id: u8,
        declined: bool,
        now: u16,
    },
    Expire {
        now: u16,
    },
    CancelAll,
    Complete {
        elicitation: u8,
    },
    Withdraw {
        id: u8,
    },
}

#[derive(Debug, Arbitrary)]
struct Script {
    modes: u8,
    max_pending: u8,
    ttl: Option<u16>,
    apply_defaults: bool,
    allow_unknown: bool,
    reject_secrets: bool,
    ops: Vec<Op>,
}

fn snapshot(session: &Session) -> (Vec<String>, Vec<(String, String)>) {
    (
        session.pending().iter().map(|r| r.to_json()).collect(),
        session
            .awaiting_completion()
            .iter()
            .map(|a| {
                (
                    String::from(a.request_id()),
                    String::from(a.elicitation_id()),
                )
            })
            .collect(),
    )
}

fuzz_target!(|script: Script| {
    let modes = match script.modes % 3 {
        0 => Modes::ALL,
        1 => Modes::from_name("form").unwrap(),
        _ => Modes::from_name("url").unwrap(),
    };
    let content_options = ContentOptions::STRICT.allow_unknown(script.allow_unknown);
    let options = SessionOptions::DEFAULT
        .with_modes(modes)
        .with_max_pending(usize::from(script.max_pending % 8))
        .with_ttl_ms(script.ttl.map(u64::from))
        .with_apply_defaults(script.apply_defaults)
        .with_content_options(content_options)
        .with_reject_secrets(script.reject_secrets);
    let mut session = Session::new(options);
    // Requests begun and not yet finished, and every id ever resolved.
    let mut open: BTreeSet<String> = BTreeSet::new();
    let mut finished: BTreeSet<String> = BTreeSet::new();
    for op in script.ops.iter().take(64) {
        let before = snapshot(&session);
        let refused = match op {
            Op::Begin { params, id, now } => {
                let id = format!("r{}", id % 8);
                let bytes = params.to_bytes();
                match ElicitRequestParams::from_json(&bytes, &Limits::DEFAULT) {
                    Err(_) => false,
                    Ok(params) => match session.begin(&params, &id, u64::from(*now)) {
                        Ok(request) => {
                            assert_eq!(request.id(), id);
                            assert!(open.insert(id.clone()), "{id} began twice");
                            finished.remove(&id);
                            false
                        }
                        Err(_) => true,
                    },
                }
            }
            Op::Accept { id, content, now } => {
                let id = format!("r{}", id % 8);
                let form = session.form(&id).cloned();
                let names: Vec<&str> = form
                    .as_ref()
                    .map(|f| f.fields().iter().map(|f| f.name()).collect())
                    .unwrap_or_default();
                let Ok(Value::Object(data)) = parse_str(&content.to_json(&names), &Limits::DEFAULT)
                else {
                    continue;
                };
                let answer = Answer::accept(id.clone(), data).unwrap();
                match session.resolve(&answer, u64::from(*now)) {
                    Ok(result) => {
                        assert!(open.remove(&id), "{id} resolved but was not open");
                        finished.insert(id.clone());
                        if let (Action::Accept, Some(form), Some(content)) =
                            (result.action(), &form, result.content())
                        {
                            let value = Value::Object(content.as_map().clone());
                            let violations = form.validate(&value, &content_options);
                            assert!(violations.is_empty(), "accepted: {violations:?}");
                        }
                        false
                    }
                    Err(_) => true,
                }
            }
            Op::Refuse { id, declined, now } => {
                let id = format!("r{}", id % 8);
                let reason = if *declined {
                    Reason::Declined
                } else {
                    Reason::parse("cancelled")
                };
                let answer = Answer::refuse(id.clone(), reason).unwrap();
                match session.resolve(&answer, u64::from(*now)) {
                    Ok(result) => {
                        assert!(open.remove(&id), "{id} resolved but was not open");
                        assert_ne!(result.action(), Action::Accept);
                        finished.insert(id);
                        false
                    }
                    Err(_) => {
                        assert!(!open.contains(&id), "an open request refused its answer");
                        true
                    }
                }
            }
            Op::Expire { now } => {
                for (id, result) in session.expire(u64::from(*now)) {
                    assert!(open.remove(&id), "{id} expired but was not open");
                    assert_eq!(result.action(), Action::Cancel);
                    finished.insert(id);
                }
                false
            }
            Op::CancelAll => {
                for (id, result) in session.cancel_all() {
                    assert!(open.remove(&id), "{id} cancelled but was not open");
                    assert_eq!(result.action(), Action::Cancel);
                    finished.insert(id);
                }
                assert!(open.is_empty(), "cancel_all left {open:?}");
                false
            }
            Op::Complete { elicitation } => {
                // A URL request still pending completes too: it leaves the session.
                if let Some(id) = session.complete(&format!("e{}", elicitation % 4)) {
                    open.remove(&id);
                    finished.insert(id);
                }
                false
            }
            Op::Withdraw { id } => {
                let id = format!("r{}", id % 8);
                let was = open.contains(&id);
                assert_eq!(session.withdraw(&id), was, "withdraw {id}");
                open.remove(&id);
                !was
            }
        };
        if refused {
            assert_eq!(
                snapshot(&session),
                before,
                "a refused {op:?} changed the session"
            );
        }
        let pending: BTreeSet<String> = session
            .pending()
            .iter()
            .map(|r| String::from(r.id()))
            .collect();
        assert_eq!(pending, open, "after {op:?}");
        for id in &finished {
            let again = Answer::refuse(id.clone(), Reason::Declined).unwrap();
            let mut probe = session.clone();
            assert!(probe.resolve(&again, 0).is_err(), "{id} resolved twice");
        }
    }
});
