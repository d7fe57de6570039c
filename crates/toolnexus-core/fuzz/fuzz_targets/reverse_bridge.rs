//! The 2025 wire's `ReverseBridge` fed any sequence of server messages (generated JSON-RPC or
//! raw bytes) and host answers: never a panic; every text it emits is a JSON-RPC 2.0
//! response; an answer for a request that is not pending is refused and changes nothing; a
//! request answered is no longer pending.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use toolnexus_core::json::{Limits, parse_str};
use toolnexus_core::wire::reverse::Incoming;
use toolnexus_core::{Answer, Modes, Reason, ReverseBridge, SessionOptions, Value};
use toolnexus_core_fuzz::{GenContent, GenParams, limits, must_read, quote};

#[derive(Debug, Arbitrary)]
enum Id {
    Int(u8),
    Text(u8),
    Null,
    Float,
    Missing,
}

impl Id {
    fn member(&self) -> String {
        match self {
            Id::Int(n) => format!("\"id\":{},", n % 6),
            Id::Text(n) => format!("\"id\":\"s{}\",", n % 6),
            Id::Null => String::from("\"id\":null,"),
            Id::Float => String::from("\"id\":1.5,"),
            Id::Missing => String::new(),
        }
    }
}

#[derive(Debug, Arbitrary)]
enum Message {
    Elicit {
        id: Id,
        params: GenParams,
        meta: bool,
    },
    Cancelled {
        request: Id,
        reason: bool,
    },
    Complete {
        elicitation: u8,
    },
    Ping {
        id: Id,
    },
    Other {
        id: Id,
        method: u8,
    },
    Response {
        id: Id,
        error: bool,
    },
    Raw(Vec<u8>),
}

impl Message {
    fn to_bytes(&self) -> Vec<u8> {
        let text = match self {
            Message::Elicit { id, params, meta } => {
                let mut params = String::from_utf8_lossy(&params.to_bytes()).into_owned();
                if *meta && params.starts_with('{') && params.len() > 1 {
                    params.insert_str(1, "\"_meta\":{\"progressToken\":1},");
                }
                format!(
                    "{{\"jsonrpc\":\"2.0\",{}\"method\":\"elicitation/create\",\"params\":{params}}}",
                    id.member()
                )
            }
            Message::Cancelled { request, reason } => {
                let id = request.member();
                let id = id
                    .trim_end_matches(',')
                    .replacen("\"id\"", "\"requestId\"", 1);
                let reason = if *reason { ",\"reason\":\"gone\"" } else { "" };
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{{{id}{reason}}}}}"
                )
            }
            Message::Complete { elicitation } => format!(
                "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/elicitation/complete\",\"params\":{{\"elicitationId\":\"e{}\"}}}}",
                elicitation % 4
            ),
            Message::Ping { id } => {
                format!("{{\"jsonrpc\":\"2.0\",{}\"method\":\"ping\"}}", id.member())
            }
            Message::Other { id, method } => format!(
                "{{\"jsonrpc\":\"2.0\",{}\"method\":{}}}",
                id.member(),
                quote(["roots/list", "sampling/createMessage", "x", ""][usize::from(method % 4)])
            ),
            Message::Response { id, error } => {
                if *error {
                    format!(
                        "{{\"jsonrpc\":\"2.0\",{}\"error\":{{\"code\":-32042,\"message\":\"m\",\"data\":{{\"elicitations\":[{{\"mode\":\"url\",\"message\":\"m\",\"url\":\"https://a.example\",\"elicitationId\":\"e1\"}}]}}}}}}",
                        id.member()
                    )
                } else {
                    format!("{{\"jsonrpc\":\"2.0\",{}\"result\":{{}}}}", id.member())
                }
            }
            Message::Raw(bytes) => return bytes.clone(),
        };
        text.into_bytes()
    }
}

#[derive(Debug, Arbitrary)]
enum Op {
    Receive {
        message: Message,
        now: u16,
        limits: u8,
    },
    Accept {
        pick: u8,
        content: GenContent,
        now: u16,
    },
    Refuse {
        pick: u8,
        declined: bool,
        now: u16,
    },
    Fail {
        pick: u8,
        message: String,
    },
    UrlRequired {
        message: Message,
        now: u16,
    },
    CancelAll,
    Expire {
        now: u16,
    },
}

fn emitted(text: &str) {
    let value = must_read(text, "the bridge");
    let Value::Object(map) = value else {
        panic!("{text} is not an object")
    };
    assert_eq!(
        map.get("jsonrpc").and_then(Value::as_str),
        Some("2.0"),
        "{text}"
    );
    assert!(
        map.contains_key("result") != map.contains_key("error"),
        "{text}"
    );
    if let Some(id) = map.get("id") {
        assert!(!id.is_null(), "{text} has a null id");
    }
}

fn pick(bridge: &ReverseBridge, pick: u8) -> String {
    let pending = bridge.session().pending();
    match pending.get(usize::from(pick) % (pending.len() + 1)) {
        Some(r) => String::from(r.id()),
        None => format!("unknown-{pick}"),
    }
}

fuzz_target!(|input: (u8, Vec<Op>)| {
    let (mode, ops) = input;
    let modes = match mode % 3 {
        0 => Modes::ALL,
        1 => Modes::from_name("form").unwrap(),
        _ => Modes::from_name("url").unwrap(),
    };
    let options = SessionOptions::DEFAULT
        .with_modes(modes)
        .with_max_pending(usize::from(mode >> 4))
        .with_ttl_ms(if mode & 4 != 0 { Some(100) } else { None });
    let mut bridge = ReverseBridge::new(options);
    for op in ops.iter().take(48) {
        match op {
            Op::Receive {
                message,
                now,
                limits: l,
            } => match bridge.receive(&message.to_bytes(), u64::from(*now), &limits(*l)) {
                Incoming::Elicit { request, .. } => {
                    assert!(bridge.session().is_pending(request.id()));
                    must_read(&request.to_json(), "Request::to_json");
                }
                Incoming::Reply(text) => emitted(&text),
                Incoming::Completed { reply, .. } => {
                    if let Some(text) = reply {
                        emitted(&text);
                    }
                }
                Incoming::Withdrawn { request_id } => {
                    assert!(!bridge.session().is_pending(&request_id));
                }
                Incoming::Ignored { .. } => {}
            },
            Op::Accept {
                pick: p,
                content,
                now,
            } => {
                let id = pick(&bridge, *p);
                let names: Vec<String> = bridge
                    .session()
                    .form(&id)
                    .map(|f| f.fields().iter().map(|f| String::from(f.name())).collect())
                    .unwrap_or_default();
                let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                let Ok(Value::Object(data)) = parse_str(&content.to_json(&refs), &Limits::DEFAULT)
                else {
                    continue;
                };
                let was = bridge.session().is_pending(&id);
                let answer = Answer::accept(id.clone(), data).unwrap();
                let pending_before = bridge.session().pending().len();
                match bridge.respond(&answer, u64::from(*now)) {
                    Ok(reply) => {
                        assert!(was, "answered {id}, which was not pending");
                        assert!(!bridge.session().is_pending(&id));
                        if let Some(text) = reply {
                            emitted(&text);
                        }
                    }
                    Err(_) => assert_eq!(bridge.session().pending().len(), pending_before),
                }
            }
            Op::Refuse {
                pick: p,
                declined,
                now,
            } => {
                let id = pick(&bridge, *p);
                let was = bridge.session().is_pending(&id);
                let reason = if *declined {
                    Reason::Declined
                } else {
                    Reason::Cancelled
                };
                let answer = Answer::refuse(id.clone(), reason).unwrap();
                match bridge.respond(&answer, u64::from(*now)) {
                    Ok(reply) => {
                        assert!(was);
                        assert!(!bridge.session().is_pending(&id));
                        if let Some(text) = reply {
                            emitted(&text);
                        }
                    }
                    Err(_) => assert!(!was, "a pending request refused a decline"),
                }
            }
            Op::Fail { pick: p, message } => {
                let id = pick(&bridge, *p);
                if let Ok(Some(text)) = bridge.fail(&id, message) {
                    emitted(&text);
                }
                assert!(!bridge.session().is_pending(&id));
            }
            Op::UrlRequired { message, now } => {
                let before = bridge.session().pending().len();
                match bridge.url_required(&message.to_bytes(), u64::from(*now), &Limits::DEFAULT) {
                    Ok(begun) => assert_eq!(bridge.session().pending().len(), before + begun.len()),
                    Err(_) => assert_eq!(bridge.session().pending().len(), before),
                }
            }
            Op::CancelAll => {
                for text in bridge.cancel_all() {
                    emitted(&text);
                }
                assert!(bridge.session().pending().is_empty());
            }
            Op::Expire { now } => {
                for text in bridge.expire(u64::from(*now)) {
                    emitted(&text);
                }
            }
        }
    }
});
