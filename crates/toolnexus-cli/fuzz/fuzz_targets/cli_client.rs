//! The CLI's MCP client (`toolnexus call`) talking to a server that sends anything: a
//! scripted transport hands it generated JSON-RPC (discover and initialize results,
//! `elicitation/create`, cancellations, completions, input-required results, `-32042` errors)
//! or raw bytes, and a scripted asker answers. `$ID` in a message stands for the id of the
//! client's last request, so that the fuzzer reaches past the handshake. Never a panic, the
//! call always ends, and every message the client sends is a JSON-RPC 2.0 object.
#![no_main]

use std::time::Duration;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use toolnexus_cli::ask::{Ask, Asker, Reply};
use toolnexus_cli::call::Conversation;
use toolnexus_cli::call::scripted::Scripted;
use toolnexus_core::form::Form;
use toolnexus_core::{Error, Map, UrlReview, Value};
use toolnexus_core_fuzz::{GenContent, GenParams, GenText, must_read, quote};

#[derive(Debug, Arbitrary)]
enum Sent {
    Discover {
        versions: Vec<u8>,
    },
    UnsupportedVersion,
    Initialize {
        version: u8,
    },
    Complete,
    InputRequired {
        entries: Vec<(u8, GenParams)>,
        state: Option<GenText>,
    },
    Elicit {
        id: u8,
        params: GenParams,
    },
    Cancelled {
        id: u8,
    },
    ElicitationComplete {
        id: u8,
    },
    UrlRequired {
        ids: Vec<u8>,
        url: GenText,
    },
    Ping {
        id: u8,
    },
    ErrorResponse {
        code: i16,
    },
    Raw(Vec<u8>),
}

const VERSIONS: &[&str] = &["2026-07-28", "2025-11-25", "2025-06-18", "2024-11-05", "x"];

impl Sent {
    fn text(&self) -> Vec<u8> {
        let pick = |i: &u8| {
            VERSIONS
                .get(usize::from(*i) % VERSIONS.len())
                .copied()
                .unwrap_or("x")
        };
        let text = match self {
            Sent::Discover { versions } => {
                let list: Vec<String> = versions.iter().take(4).map(|v| quote(pick(v))).collect();
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{{\"supportedVersions\":[{}],\"serverInfo\":{{\"name\":\"s\",\"version\":\"1\"}},\"capabilities\":{{}}}}}}",
                    list.join(",")
                )
            }
            Sent::UnsupportedVersion => String::from(
                "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"error\":{\"code\":-32022,\"message\":\"m\",\"data\":{\"supported\":[\"2025-06-18\"]}}}",
            ),
            Sent::Initialize { version } => format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{{\"protocolVersion\":{},\"capabilities\":{{}},\"serverInfo\":{{\"name\":\"s\",\"version\":\"1\"}}}}}}",
                quote(pick(version))
            ),
            Sent::Complete => String::from(
                "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}",
            ),
            Sent::InputRequired { entries, state } => {
                let entries: Vec<String> = entries
                    .iter()
                    .take(4)
                    .map(|(k, p)| {
                        format!(
                            "\"k{}\":{{\"method\":\"elicitation/create\",\"params\":{}}}",
                            k % 4,
                            String::from_utf8_lossy(&p.to_bytes())
                        )
                    })
                    .collect();
                let state = state
                    .as_ref()
                    .map(|s| format!(",\"requestState\":{}", quote(&s.0)))
                    .unwrap_or_default();
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{{\"resultType\":\"input_required\",\"inputRequests\":{{{}}}{state}}}}}",
                    entries.join(",")
                )
            }
            Sent::Elicit { id, params } => format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"elicitation/create\",\"params\":{}}}",
                100 + u32::from(id % 4),
                String::from_utf8_lossy(&params.to_bytes())
            ),
            Sent::Cancelled { id } => format!(
                "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{{\"requestId\":{}}}}}",
                100 + u32::from(id % 4)
            ),
            Sent::ElicitationComplete { id } => format!(
                "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/elicitation/complete\",\"params\":{{\"elicitationId\":\"e{}\"}}}}",
                id % 4
            ),
            Sent::UrlRequired { ids, url } => {
                let items: Vec<String> = ids
                    .iter()
                    .take(3)
                    .map(|i| {
                        format!(
                            "{{\"mode\":\"url\",\"message\":\"m\",\"url\":{},\"elicitationId\":\"e{}\"}}",
                            quote(&url.0),
                            i % 4
                        )
                    })
                    .collect();
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":$ID,\"error\":{{\"code\":-32042,\"message\":\"m\",\"data\":{{\"elicitations\":[{}]}}}}}}",
                    items.join(",")
                )
            }
            Sent::Ping { id } => format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}}",
                200 + u32::from(*id)
            ),
            Sent::ErrorResponse { code } => format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":$ID,\"error\":{{\"code\":{code},\"message\":\"m\"}}}}"
            ),
            Sent::Raw(bytes) => return bytes.clone(),
        };
        text.into_bytes()
    }
}

#[derive(Debug, Arbitrary)]
enum Choice {
    Defaults,
    Content(GenContent),
    Decline,
    Cancel,
}

/// Answers from the script, then none.
struct Answers(std::vec::IntoIter<Choice>);

impl Asker for Answers {
    fn form(&mut self, _ask: &Ask<'_>, form: &Form, _refused: Option<&Error>) -> Option<Reply> {
        Some(match self.0.next()? {
            Choice::Defaults => Reply::accept(Some(form.defaults())),
            Choice::Content(c) => {
                let names: Vec<&str> = form.fields().iter().map(|f| f.name()).collect();
                let data = match toolnexus_core::json::parse_str(
                    &c.to_json(&names),
                    &Default::default(),
                ) {
                    Ok(Value::Object(map)) => map,
                    _ => Map::new(),
                };
                Reply::accept(Some(data))
            }
            Choice::Decline => Reply::decline(),
            Choice::Cancel => Reply::cancel("cancelled"),
        })
    }

    fn url(
        &mut self,
        _ask: &Ask<'_>,
        _review: &UrlReview,
        _refused: Option<&Error>,
    ) -> Option<Reply> {
        Some(match self.0.next()? {
            Choice::Defaults | Choice::Content(_) => Reply::accept(None),
            Choice::Decline => Reply::decline(),
            Choice::Cancel => Reply::cancel("cancelled"),
        })
    }
}

fuzz_target!(|input: (u8, Vec<Sent>, Vec<Choice>)| {
    let (pin, sent, choices) = input;
    let (transport, log) = Scripted::new(sent.iter().take(24).map(Sent::text));
    let transport = if pin >= 128 { transport.over_http() } else { transport };
    let mut asker = Answers(choices.into_iter().take(16).collect::<Vec<_>>().into_iter());
    let mut conversation =
        Conversation::new(Box::new(transport), &mut asker, Duration::from_secs(30));
    let pin = match pin % 4 {
        0 => None,
        1 => Some("2026-07-28"),
        2 => Some("2025-06-18"),
        _ => Some("2025-11-25"),
    };
    if conversation.connect(pin).is_ok() {
        let mut arguments = Map::new();
        arguments.insert("x", Value::from("y"));
        let _ = conversation.call_tool("t", arguments);
    }
    conversation.close();
    drop(conversation);
    for message in log.borrow().iter() {
        let value = must_read(message.text(), "the client");
        assert_eq!(
            value.get("jsonrpc").and_then(Value::as_str),
            Some("2.0"),
            "{}",
            message.text()
        );
        if value.get("method").is_none() {
            assert!(
                value.get("result").is_some() != value.get("error").is_some(),
                "{}",
                message.text()
            );
        }
    }
});
