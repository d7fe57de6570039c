//! Every branch of the conversation against a scripted server: the eras and their detection,
//! version retries, rounds, the server's own requests, tools and their header annotations.

use std::time::Duration;

use toolnexus_core::{Limits, Map, Value, json};

use super::scripted::{Scripted, Sent};
use super::{Called, Conversation, Listing};
use crate::ask::{Asker, Nobody, Scripted as Answers};
use crate::report::Failure;

const DISCOVERED: &str = r#"{"jsonrpc":"2.0","id":$ID,"result":{"supportedVersions":["2026-07-28"],"capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"2"}}}}"#;
const NOT_FOUND: &str =
    r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32601,"message":"Method not found"}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","id":$ID,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"1"}}}"#;
const DONE: &str =
    r#"{"jsonrpc":"2.0","id":$ID,"result":{"content":[{"type":"text","text":"done"}]}}"#;
const FORM: &str = r#"{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}"#;

fn answers(text: &str) -> Answers {
    Answers::from_value(json::parse_str(text, &Limits::DEFAULT).unwrap()).unwrap()
}

/// Runs `call_tool("t", {})` against `script` (after `connect(pin)`), with `asker`: the
/// outcome and what the client sent, as text.
fn run(
    script: &[&str],
    pin: Option<&str>,
    asker: &mut dyn Asker,
    http: bool,
) -> (Result<Map, Failure>, Vec<String>, Sent) {
    let (transport, sent) = Scripted::new(script.iter().map(|s| s.as_bytes().to_vec()));
    let transport = if http {
        transport.over_http()
    } else {
        transport
    };
    let (outcome, texts) = converse(transport, &sent, pin, asker, false);
    (outcome, texts, sent)
}

/// Runs `call_tool("t", {})` against `script` answering in turn (see [`Scripted::paced`]),
/// with `--task` when `prefer_task`.
fn run_paced(
    script: &[&str],
    asker: &mut dyn Asker,
    prefer_task: bool,
) -> (Result<Map, Failure>, Vec<String>) {
    let (transport, sent) = Scripted::new(script.iter().map(|s| s.as_bytes().to_vec()));
    converse(transport.paced(), &sent, None, asker, prefer_task)
}

/// One conversation over `transport`: `connect(pin)`, then `call_tool("t", {})`; the outcome
/// and what the client sent, as text.
fn converse(
    transport: Scripted,
    sent: &Sent,
    pin: Option<&str>,
    asker: &mut dyn Asker,
    prefer_task: bool,
) -> (Result<Map, Failure>, Vec<String>) {
    let five = Duration::from_secs(5);
    converse_with(transport, sent, pin, asker, five, |c| {
        c.prefer_task(prefer_task);
    })
}

/// [`converse`] with `timeout` as the server's time, the conversation set up by `set_up`.
fn converse_with(
    transport: Scripted,
    sent: &Sent,
    pin: Option<&str>,
    asker: &mut dyn Asker,
    timeout: Duration,
    set_up: impl FnOnce(&mut Conversation<'_>),
) -> (Result<Map, Failure>, Vec<String>) {
    let mut conversation = Conversation::new(Box::new(transport), asker, timeout);
    set_up(&mut conversation);
    let outcome = conversation
        .connect(pin)
        .and_then(|()| conversation.call_tool("t", Map::new()).and_then(finished));
    conversation.close();
    drop(conversation);
    let texts = sent
        .borrow()
        .iter()
        .map(|m| String::from(m.text()))
        .collect();
    (outcome, texts)
}

fn method_of(text: &str) -> String {
    let value = json::parse_str(text, &Limits::DEFAULT).unwrap();
    value
        .get("method")
        .and_then(Value::as_str)
        .map_or_else(|| String::from("(response)"), String::from)
}

fn methods(sent: &[String]) -> Vec<String> {
    sent.iter().map(|t| method_of(t)).collect()
}

/// The result of a call that was not deferred (nothing here defers).
fn finished(called: Called) -> Result<Map, Failure> {
    match called {
        Called::Result(result) => Ok(result),
        Called::Deferred(deferral) => Err(Failure::server(format!(
            "deferred with {} requests",
            deferral.requests.len()
        ))),
    }
}

fn failed(outcome: Result<Map, Failure>) -> String {
    match outcome {
        Err(Failure::Server(message)) => message,
        other => panic!("expected a server failure, got {other:?}"),
    }
}

#[test]
fn a_discover_result_means_the_modern_era() {
    let (outcome, sent, _) = run(&[DISCOVERED, DONE], None, &mut answers("[]"), false);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(methods(&sent), ["server/discover", "tools/call"]);
    assert!(sent[1].contains("io.modelcontextprotocol/protocolVersion"));
}

#[test]
fn any_other_answer_falls_back_to_the_handshake_and_elicitations_are_answered() {
    let elicit =
        format!(r#"{{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{FORM}}}"#);
    let script = [NOT_FOUND, INITIALIZED, &elicit, DONE];
    let (outcome, sent, log) = run(
        &script,
        None,
        &mut answers(r#"[{"ok":true,"data":{"name":"Ada"}}]"#),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        methods(&sent),
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/call",
            "(response)"
        ]
    );
    assert_eq!(
        sent[4],
        r#"{"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{"name":"Ada"}}}"#
    );
    // After the handshake every message names the version agreed, for streamable HTTP.
    let log = log.borrow();
    assert!(log[1].headers().is_empty());
    assert_eq!(log[2].headers()[0].1, "2025-11-25");
    assert_eq!(log[4].headers()[0].1, "2025-11-25");
}

#[test]
fn minus_32022_leads_to_one_more_probe_in_a_mutual_version() {
    let unsupported = r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}"#;
    let (outcome, sent, _) = run(
        &[unsupported, DISCOVERED, DONE],
        None,
        &mut answers("[]"),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        methods(&sent),
        ["server/discover", "server/discover", "tools/call"]
    );
    // Twice refused: no mutual version, said with the server's list.
    let (outcome, _, _) = run(&[unsupported, unsupported], None, &mut answers("[]"), false);
    assert!(failed(outcome).contains("no mutual protocol version: the server serves 2026-07-28"));
}

#[test]
fn minus_32022_naming_a_handshake_version_leads_to_initialize() {
    let old = r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32022,"message":"m","data":{"supported":["2025-06-18"]}}}"#;
    let initialized = INITIALIZED.replace("2025-11-25", "2025-06-18");
    let (outcome, sent, _) = run(&[old, &initialized, DONE], None, &mut answers("[]"), false);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert!(
        sent[1].contains(r#""protocolVersion":"2025-06-18""#),
        "{}",
        sent[1]
    );
    let none = r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32022,"message":"m","data":{"supported":["2099-01-01"]}}}"#;
    let (outcome, _, _) = run(&[none], None, &mut answers("[]"), false);
    assert!(failed(outcome).contains("2099-01-01"));
}

#[test]
fn a_pinned_modern_call_refused_for_its_version_is_sent_once_more() {
    let refused = r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32022,"message":"m","data":{"supported":["2026-07-28"]}}}"#;
    let (outcome, sent, _) = run(
        &[refused, DONE],
        Some("2026-07-28"),
        &mut answers("[]"),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(methods(&sent), ["tools/call", "tools/call"]);
    assert_ne!(sent[0], sent[1], "a new id");
    let (outcome, sent, _) = run(
        &[refused, refused],
        Some("2026-07-28"),
        &mut answers("[]"),
        false,
    );
    assert!(failed(outcome).contains("error -32022"));
    assert_eq!(sent.len(), 2);
}

#[test]
fn input_rounds_are_answered_and_retried_with_the_request_state() {
    let round = format!(
        r#"{{"jsonrpc":"2.0","id":$ID,"result":{{"resultType":"input_required","inputRequests":{{"who":{{"method":"elicitation/create","params":{FORM}}}}},"requestState":"s-1"}}}}"#
    );
    let (outcome, sent, log) = run(
        &[&round, DONE],
        Some("2026-07-28"),
        &mut answers(r#"[{"ok":true,"data":{"name":"Ada"}}]"#),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(methods(&sent), ["tools/call", "tools/call"]);
    assert!(sent[1].contains(r#""requestState":"s-1""#), "{}", sent[1]);
    assert!(
        sent[1]
            .contains(r#""inputResponses":{"who":{"action":"accept","content":{"name":"Ada"}}}"#)
    );
    let log = log.borrow();
    assert_eq!(
        log[0].headers(),
        log[1].headers(),
        "a retry keeps its headers"
    );
}

#[test]
fn rounds_end_at_an_unknown_result_a_method_not_served_or_too_many() {
    let unknown = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"later"}}"#;
    let (outcome, _, _) = run(&[unknown], Some("2026-07-28"), &mut answers("[]"), false);
    assert!(failed(outcome).contains("resultType \"later\""));
    let sampling = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"input_required","inputRequests":{"llm":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}},"requestState":"x"}}"#;
    let (outcome, _, _) = run(&[sampling], Some("2026-07-28"), &mut answers("[]"), false);
    assert!(failed(outcome).contains("sampling/createMessage"));
    // Each round moves on (its requestState changes), yet there is no end to them.
    let rounds = moving_rounds(20);
    let script: Vec<&str> = rounds.iter().map(String::as_str).collect();
    let (outcome, sent, _) = run(&script, Some("2026-07-28"), &mut answers(&many(20)), false);
    assert!(failed(outcome).contains("more than 16 times"));
    assert_eq!(sent.len(), 17);
}

/// `n` input_required rounds, each with a requestState of its own.
fn moving_rounds(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            format!(
                r#"{{"jsonrpc":"2.0","id":$ID,"result":{{"resultType":"input_required","inputRequests":{{"k":{{"method":"elicitation/create","params":{FORM}}}}},"requestState":"s-{i}"}}}}"#
            )
        })
        .collect()
}

/// `n` answers that accept with a name.
fn many(n: usize) -> String {
    format!(
        "[{}]",
        vec![r#"{"ok":true,"data":{"name":"A"}}"#; n].join(",")
    )
}

/// Runs `call_tool("t", {})` pinned to 2026-07-28 against `script`, at most `max_rounds`.
fn run_rounds(script: &[String], max_rounds: usize) -> (Result<Map, Failure>, Vec<String>) {
    let (transport, sent) = Scripted::new(script.iter().map(|s| s.as_bytes().to_vec()));
    let mut asker = answers(&many(script.len()));
    let five = Duration::from_secs(5);
    converse_with(
        transport,
        &sent,
        Some("2026-07-28"),
        &mut asker,
        five,
        |c| {
            c.max_rounds(max_rounds);
        },
    )
}

#[test]
fn max_rounds_sets_the_cap() {
    let mut script = moving_rounds(3);
    script.push(String::from(DONE));
    let (outcome, sent) = run_rounds(&script, 2);
    assert!(failed(outcome).contains("more than 2 times"));
    assert_eq!(sent.len(), 3);
    let (outcome, sent) = run_rounds(&script, 3);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(sent.len(), 4);
}

#[test]
fn a_round_that_does_not_advance_ends_the_call() {
    let same = moving_rounds(1).remove(0);
    let (outcome, sent) = run_rounds(&[same.clone(), same.clone(), same], 16);
    let message = failed(outcome);
    assert!(message.contains("does not advance"), "{message}");
    // The first round was answered and retried once; the same round again is not answered.
    assert_eq!(sent.len(), 2);
    // The same questions with a new requestState, or a new question, are rounds that move.
    let other_question = moving_rounds(1)
        .remove(0)
        .replace(r#""inputRequests":{"k":"#, r#""inputRequests":{"k2":"#);
    let mut script = moving_rounds(2);
    script.push(other_question);
    script.push(String::from(DONE));
    let (outcome, sent) = run_rounds(&script, 16);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(sent.len(), 4);
}

#[test]
fn the_server_s_own_requests_get_answers() {
    let ping = r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#;
    let roots = r#"{"jsonrpc":"2.0","id":"r","method":"roots/list"}"#;
    let stray = r#"{"jsonrpc":"2.0","id":999,"result":{}}"#;
    let (outcome, sent, _) = run(
        &[INITIALIZED, ping, roots, stray, "not json", DONE],
        Some("2025-11-25"),
        &mut answers("[]"),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(sent[3], r#"{"jsonrpc":"2.0","id":"p","result":{}}"#);
    assert!(sent[4].contains(r#""code":-32601"#), "{}", sent[4]);
    assert_eq!(sent.len(), 5, "a stray response and garbage get nothing");
}

#[test]
fn a_question_withdrawn_before_it_is_answered_gets_nothing() {
    let elicit =
        format!(r#"{{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{FORM}}}"#);
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#;
    // The cancellation is already there when the answer is about to be sent.
    let (outcome, sent, _) = run(
        &[INITIALIZED, &elicit, cancel, DONE],
        Some("2025-11-25"),
        &mut answers(r#"[{"ok":true,"data":{"name":"Ada"}}]"#),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        methods(&sent),
        ["initialize", "notifications/initialized", "tools/call"]
    );
}

#[test]
fn url_elicitation_required_is_consented_completed_and_retried() {
    let required = r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32042,"message":"m","data":{"elicitations":[{"mode":"url","message":"Sign in","url":"https://auth.example.com/x","elicitationId":"e1"}]}}}"#;
    let complete = r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e1"}}"#;
    let (outcome, sent, _) = run(
        &[INITIALIZED, required, complete, DONE],
        Some("2025-11-25"),
        &mut answers(r#"[{"ok":true}]"#),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        methods(&sent),
        [
            "initialize",
            "notifications/initialized",
            "tools/call",
            "tools/call"
        ]
    );
    let (outcome, _, _) = run(
        &[INITIALIZED, required],
        Some("2025-11-25"),
        &mut answers(r#"[{"ok":false,"reason":"declined"}]"#),
        false,
    );
    assert!(failed(outcome).contains("not consented to"));
}

#[test]
fn a_server_that_goes_silent_or_away_ends_the_call() {
    let (outcome, _, _) = run(&[DISCOVERED], None, &mut answers("[]"), false);
    assert!(failed(outcome).contains("the script ended"));
    let error = r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32603,"message":"boom"}}"#;
    let (outcome, _, _) = run(&[error], Some("2026-07-28"), &mut answers("[]"), false);
    assert_eq!(
        failed(outcome),
        "the server answered tools/call with error -32603: boom"
    );
}

#[test]
fn nobody_to_ask_cancels_the_question_and_says_so() {
    let elicit =
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{FORM}}}"#);
    let mut nobody = Nobody::default();
    let (outcome, sent, _) = run(
        &[INITIALIZED, &elicit, DONE],
        Some("2025-11-25"),
        &mut nobody,
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        sent[3],
        r#"{"jsonrpc":"2.0","id":1,"result":{"action":"cancel"}}"#
    );
    assert!(nobody.unasked());
    // A call that asks nothing needs nobody.
    let mut quiet = Nobody::default();
    let (outcome, _, _) = run(&[DISCOVERED, DONE], None, &mut quiet, false);
    assert!(outcome.is_ok());
    assert!(!quiet.unasked());
}

const TOOLS: &str = r#"{"jsonrpc":"2.0","id":$ID,"result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},{"name":"bad","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}}]}}"#;

/// `connect(None)` then `call_tool("t", {})` against `script`, whose server is silent for the
/// probe's whole wait, over HTTP or stdio, with 300 ms of server time.
fn after_a_silent_probe(script: &[&str], http: bool) -> (Result<Map, Failure>, Vec<String>) {
    let (transport, sent) = Scripted::new(script.iter().map(|s| s.as_bytes().to_vec()));
    let transport = transport.silent_first();
    let transport = if http {
        transport.over_http()
    } else {
        transport
    };
    let mut asker = answers("[]");
    let timeout = Duration::from_millis(300);
    converse_with(transport, &sent, None, &mut asker, timeout, |_| {})
}

#[test]
fn silence_to_the_probe_is_the_handshake_era_over_stdio_and_a_timeout_over_http() {
    // Over stdio a handshake-era server may ignore a method it does not know.
    let (outcome, sent) = after_a_silent_probe(&[INITIALIZED, DONE], false);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        methods(&sent),
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/call"
        ]
    );
    // Over HTTP every request is answered: silence is a slow server, not an older one.
    let (outcome, sent) = after_a_silent_probe(&[INITIALIZED, DONE], true);
    let failure = failed(outcome);
    assert!(
        failure.contains("did not answer server/discover"),
        "{failure}"
    );
    assert_eq!(methods(&sent), ["server/discover"]);
}

#[test]
fn over_http_a_modern_call_reads_its_tool_s_annotations_first() {
    let (outcome, sent, log) = run(&[TOOLS, DONE], Some("2026-07-28"), &mut answers("[]"), true);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(methods(&sent), ["tools/list", "tools/call"]);
    let log = log.borrow();
    let names: Vec<&str> = log[1].headers().iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"]);
    // Over stdio the annotations do not matter: no listing first.
    let (outcome, sent, _) = run(&[DONE], Some("2026-07-28"), &mut answers("[]"), false);
    assert!(outcome.is_ok());
    assert_eq!(methods(&sent), ["tools/call"]);
}

#[test]
fn a_tool_with_invalid_annotations_is_listed_out_and_never_called() {
    let (transport, sent) = Scripted::new([TOOLS, TOOLS].map(|s| s.as_bytes().to_vec()));
    let mut asker = answers("[]");
    let mut conversation = Conversation::new(
        Box::new(transport.over_http()),
        &mut asker,
        Duration::from_secs(5),
    );
    conversation.connect(Some("2026-07-28")).unwrap();
    let Listing { tools, excluded } = conversation.list_tools().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(excluded[0].0, "bad");
    assert_eq!(
        excluded[0].1.pointer(),
        "/inputSchema/properties/n/x-mcp-header"
    );
    let refused = conversation.call_tool("bad", Map::new()).and_then(finished);
    assert!(failed(refused).contains("must not call it"));
    assert_eq!(sent.borrow().len(), 1, "only the listing was sent");
}

#[test]
fn a_header_mismatch_lists_the_tools_again_and_sends_once_more() {
    let mismatch =
        r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32020,"message":"Header mismatch"}}"#;
    let (outcome, sent, _) = run(
        &[TOOLS, mismatch, TOOLS, DONE],
        Some("2026-07-28"),
        &mut answers("[]"),
        true,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        methods(&sent),
        ["tools/list", "tools/call", "tools/list", "tools/call"]
    );
}

#[test]
fn what_a_server_says_before_the_probe_s_answer_is_handled_after_it() {
    // A log line and a ping before the answer to server/discover: the probe still ends, and
    // the ping is answered once the handshake is done.
    let log = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}"#;
    let ping = r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#;
    let (outcome, sent, _) = run(
        &[log, ping, NOT_FOUND, INITIALIZED, DONE],
        None,
        &mut answers("[]"),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert!(
        sent.contains(&String::from(r#"{"jsonrpc":"2.0","id":"p","result":{}}"#)),
        "{sent:?}"
    );
}

const TASK: &str = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"task","taskId":"t1","status":"working","ttlMs":60000,"pollIntervalMs":0}}"#;
const ACK: &str = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"complete"}}"#;

fn two_questions() -> String {
    let entry = |key: &str| {
        format!(
            r#""{key}":{{"method":"elicitation/create","params":{{"message":"{key}?","requestedSchema":{{"type":"object","properties":{{"v":{{"type":"string"}}}},"required":["v"]}}}}}}"#
        )
    };
    format!(
        r#"{{"jsonrpc":"2.0","id":$ID,"result":{{"resultType":"complete","taskId":"t1","status":"input_required","pollIntervalMs":0,"inputRequests":{{{},{}}}}}}}"#,
        entry("a"),
        entry("b")
    )
}

#[test]
fn a_modern_task_is_polled_its_questions_asked_once_and_each_answer_sent_at_once() {
    let working = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"complete","taskId":"t1","status":"working","statusMessage":"step 1","pollIntervalMs":0}}"#;
    let questions = two_questions();
    let done = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"complete","taskId":"t1","status":"completed","result":{"content":[{"type":"text","text":"done"}]}}}"#;
    let script = [
        DISCOVERED, TASK, working, &questions, ACK, ACK, &questions, done,
    ];
    let (outcome, sent) = run_paced(
        &script,
        &mut answers(r#"[{"ok":true,"data":{"v":"x"}},{"ok":false,"reason":"declined"}]"#),
        false,
    );
    let result = outcome.unwrap_or_else(|e| panic!("{e:?}: {sent:#?}"));
    assert_eq!(
        result.to_json(),
        r#"{"content":[{"type":"text","text":"done"}]}"#
    );
    assert_eq!(
        methods(&sent),
        [
            "server/discover",
            "tools/call",
            "tasks/get",
            "tasks/get",
            "tasks/update",
            "tasks/update",
            "tasks/get",
            "tasks/get"
        ]
    );
    // Every modern request declares the extension.
    assert!(sent[1].contains(r#""extensions":{"io.modelcontextprotocol/tasks":{}}"#));
    assert!(sent[2].ends_with(r#""taskId":"t1"}}"#), "{}", sent[2]);
    assert!(
        sent[4].ends_with(
            r#""taskId":"t1","inputResponses":{"a":{"action":"accept","content":{"v":"x"}}}}}"#
        ),
        "{}",
        sent[4]
    );
    assert!(
        sent[5].ends_with(r#""taskId":"t1","inputResponses":{"b":{"action":"decline"}}}}"#),
        "{}",
        sent[5]
    );
}

#[test]
fn a_failed_task_ends_the_call_without_a_cancel() {
    let failed = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"complete","taskId":"t1","status":"failed","error":{"code":-32603,"message":"boom"}}}"#;
    let (outcome, sent) = run_paced(&[DISCOVERED, TASK, failed], &mut answers("[]"), false);
    assert_eq!(
        failed_message(outcome),
        "the task t1 failed with error -32603: boom"
    );
    assert_eq!(
        methods(&sent),
        ["server/discover", "tools/call", "tasks/get"]
    );
}

#[test]
fn a_task_the_client_cannot_follow_is_cancelled() {
    let gone = r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32602,"message":"Task not found"}}"#;
    let (outcome, sent) = run_paced(&[DISCOVERED, TASK, gone, ACK], &mut answers("[]"), false);
    assert!(failed_message(outcome).contains("Task not found"));
    assert_eq!(
        methods(&sent),
        ["server/discover", "tools/call", "tasks/get", "tasks/cancel"]
    );
}

#[test]
fn a_handshake_task_asks_through_tasks_result_and_echoes_the_related_task() {
    let initialized = r#"{"jsonrpc":"2.0","id":$ID,"result":{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"old","version":"1"}}}"#;
    let tools = r#"{"jsonrpc":"2.0","id":$ID,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}]}}"#;
    let created = r#"{"jsonrpc":"2.0","id":$ID,"result":{"task":{"taskId":"h1","status":"working","pollInterval":0}}}"#;
    let input = r#"{"jsonrpc":"2.0","id":$ID,"result":{"taskId":"h1","status":"input_required","pollInterval":0}}"#;
    let elicit = r#"{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"h1"}},"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}"#;
    // tasks/result is request 6 (the initialize is 2, tools/list 3, the call 4, the poll 5):
    // it ends with the tool's result once the question is answered.
    let result = r#"{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"hi Ada"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"h1"}}}}"#;
    let script = [
        NOT_FOUND,
        initialized,
        tools,
        created,
        input,
        elicit,
        result,
    ];
    let (outcome, sent) = run_paced(
        &script,
        &mut answers(r#"[{"ok":true,"data":{"name":"Ada"}}]"#),
        true,
    );
    let result = outcome.unwrap_or_else(|e| panic!("{e:?}: {sent:#?}"));
    assert!(
        result.to_json().contains("hi Ada"),
        "{}: {sent:#?}",
        result.to_json()
    );
    assert_eq!(
        methods(&sent),
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/list",
            "tools/call",
            "tasks/get",
            "tasks/result",
            "(response)"
        ]
    );
    assert!(sent[1].contains(r#""capabilities":{"elicitation""#));
    assert!(!sent[1].contains("tasks"), "{}", sent[1]);
    assert!(sent[4].ends_with(r#""task":{}}}"#), "{}", sent[4]);
    assert_eq!(
        sent[7],
        r#"{"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{"name":"Ada"},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"h1"}}}}"#
    );
}

#[test]
fn an_optional_task_is_asked_for_only_with_task() {
    let initialized = r#"{"jsonrpc":"2.0","id":$ID,"result":{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"old","version":"1"}}}"#;
    let tools = r#"{"jsonrpc":"2.0","id":$ID,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}]}}"#;
    let (outcome, sent) = run_paced(
        &[NOT_FOUND, initialized, tools, DONE],
        &mut answers("[]"),
        false,
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(methods(&sent)[4], "tools/call");
    assert!(!sent[4].contains(r#""task""#), "{}", sent[4]);
}

fn failed_message(outcome: Result<Map, Failure>) -> String {
    failed(outcome)
}

#[test]
fn a_task_may_come_after_an_input_required_round() {
    let round = format!(
        r#"{{"jsonrpc":"2.0","id":$ID,"result":{{"resultType":"input_required","inputRequests":{{"go":{{"method":"elicitation/create","params":{FORM}}}}},"requestState":"s1"}}}}"#
    );
    let done = r#"{"jsonrpc":"2.0","id":$ID,"result":{"taskId":"t1","status":"completed","result":{"content":[]}}}"#;
    let (outcome, sent) = run_paced(
        &[DISCOVERED, &round, TASK, done],
        &mut answers(r#"[{"ok":true,"data":{"name":"Ada"}}]"#),
        false,
    );
    assert_eq!(outcome.unwrap().to_json(), r#"{"content":[]}"#);
    assert_eq!(
        methods(&sent),
        ["server/discover", "tools/call", "tools/call", "tasks/get"]
    );
    assert!(sent[2].contains(r#""requestState":"s1""#), "{}", sent[2]);
}

/// [`run_paced`] with `timeout` as the server's time.
fn run_paced_within(script: &[&str], timeout: Duration) -> (Result<Map, Failure>, Vec<String>) {
    let (transport, sent) = Scripted::new(script.iter().map(|s| s.as_bytes().to_vec()));
    let mut asker = answers("[]");
    converse_with(transport.paced(), &sent, None, &mut asker, timeout, |_| {})
}

#[test]
fn a_huge_poll_interval_waits_no_longer_than_the_timeout() {
    let lazy = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":9007199254740991}}"#;
    let done = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"complete","taskId":"t1","status":"completed","result":{"content":[]}}}"#;
    let started = std::time::Instant::now();
    let (outcome, sent) = run_paced_within(&[DISCOVERED, lazy, done], Duration::from_millis(400));
    let took = started.elapsed();
    assert_eq!(outcome.unwrap().to_json(), r#"{"content":[]}"#);
    assert_eq!(
        methods(&sent),
        ["server/discover", "tools/call", "tasks/get"]
    );
    assert!(
        took >= Duration::from_millis(350) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[test]
fn a_task_past_its_ttl_is_given_up_and_cancelled() {
    let short = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"task","taskId":"t1","status":"working","ttlMs":300,"pollIntervalMs":100}}"#;
    let working = r#"{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"complete","taskId":"t1","status":"working","ttlMs":300,"pollIntervalMs":9007199254740991}}"#;
    let started = std::time::Instant::now();
    let (outcome, sent) =
        run_paced_within(&[DISCOVERED, short, working, ACK], Duration::from_secs(10));
    let took = started.elapsed();
    let message = failed(outcome);
    assert!(message.contains("ttl of 300 ms"), "{message}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert_eq!(
        methods(&sent),
        ["server/discover", "tools/call", "tasks/get", "tasks/cancel"]
    );
}

#[test]
fn a_task_key_relisted_as_another_question_ends_the_call() {
    let ask = |message: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":$ID,"result":{{"resultType":"complete","taskId":"t1","status":"input_required","pollIntervalMs":0,"inputRequests":{{"a":{{"method":"elicitation/create","params":{{"message":"{message}","requestedSchema":{{"type":"object","properties":{{"v":{{"type":"string"}}}},"required":["v"]}}}}}}}}}}}}"#
        )
    };
    let (first, same, other) = (ask("Colour?"), ask("Colour?"), ask("Password?"));
    let script = [DISCOVERED, TASK, &first, ACK, &same, &other, ACK];
    let (outcome, sent) = run_paced(
        &script,
        &mut answers(r#"[{"ok":true,"data":{"v":"red"}},{"ok":true,"data":{"v":"x"}}]"#),
        false,
    );
    let Err(Failure::Refused(error)) = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(error.pointer(), "/inputRequests/a");
    assert!(error.message().contains("shown already"), "{error}");
    // Answered once, the same question listed again is not asked again; the other one ends
    // the call, and the task is cancelled.
    assert_eq!(
        methods(&sent),
        [
            "server/discover",
            "tools/call",
            "tasks/get",
            "tasks/update",
            "tasks/get",
            "tasks/get",
            "tasks/cancel"
        ]
    );
    assert_eq!(sent.iter().filter(|t| t.contains("\"x\"")).count(), 0);
}
