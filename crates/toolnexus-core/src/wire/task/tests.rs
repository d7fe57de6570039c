//! Tests of tasks: reading them in both spellings, the driver's schedule, shown and sent keys.

use alloc::string::String;
use alloc::vec::Vec;

use super::*;
use crate::contract::Answer;
use crate::json::Limits;
use crate::mcp::Modes;
use crate::session::SessionOptions;
use crate::wire::client::{Client, Era, Implementation};
use crate::wire::reverse::{Incoming, ReverseBridge};
use crate::wire::rpc::RpcId;

fn object(text: &str) -> Map {
    match crate::json::parse_str(text, &Limits::DEFAULT).unwrap() {
        Value::Object(map) => map,
        other => panic!("{other:?}"),
    }
}

fn form(key: &str) -> String {
    format!(
        r#""{key}":{{"method":"elicitation/create","params":{{"message":"{key}?","requestedSchema":{{"type":"object","properties":{{"v":{{"type":"string"}}}},"required":["v"]}}}}}}"#
    )
}

fn input_required(keys: &[&str]) -> Map {
    let entries: Vec<String> = keys.iter().map(|k| form(k)).collect();
    object(&format!(
        r#"{{"resultType":"complete","taskId":"t1","status":"input_required","pollIntervalMs":200,"inputRequests":{{{}}}}}"#,
        entries.join(",")
    ))
}

fn modern() -> TaskDriver {
    let created = object(
        r#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-12-04T10:00:00Z","lastUpdatedAt":"2026-12-04T10:00:00Z","ttlMs":60000,"pollIntervalMs":200}"#,
    );
    TaskDriver::start(&created, Era::Modern, SessionOptions::DEFAULT, 1_000)
        .unwrap()
        .unwrap()
}

fn accept(request: &crate::contract::Request, value: &str) -> Answer {
    Answer::from_json(
        format!(
            r#"{{"id":"{}","ok":true,"data":{{"v":"{value}"}}}}"#,
            request.id()
        )
        .as_bytes(),
        &Limits::DEFAULT,
    )
    .unwrap()
}

#[test]
fn tasks_are_read_in_both_spellings() {
    let flat = object(
        r#"{"resultType":"task","taskId":"a","status":"working","statusMessage":"busy","ttlMs":null,"pollIntervalMs":5000}"#,
    );
    let task = created_task(&flat).unwrap().unwrap();
    assert_eq!(task.task_id(), "a");
    assert_eq!(task.status(), TaskStatus::Working);
    assert_eq!(task.status_message(), Some("busy"));
    assert_eq!(task.ttl_ms(), None);
    assert_eq!(task.poll_interval_ms(), Some(5000));

    let nested = object(
        r#"{"task":{"taskId":"b","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":60000,"pollInterval":100}}"#,
    );
    let task = created_task(&nested).unwrap().unwrap();
    assert_eq!(
        (task.ttl_ms(), task.poll_interval_ms()),
        (Some(60000), Some(100))
    );
    assert_eq!(task.created_at(), Some("2025-11-25T10:30:00Z"));

    for plain in [
        r#"{"content":[]}"#,
        r#"{"resultType":"complete","content":[]}"#,
        r#"{"resultType":"input_required","inputRequests":{}}"#,
    ] {
        assert_eq!(created_task(&object(plain)).unwrap(), None, "{plain}");
    }
}

#[test]
fn bad_tasks_are_refused_where_they_are_wrong() {
    let cases = [
        (
            r#"{"resultType":"task","status":"working"}"#,
            "/taskId",
            ErrorKind::MissingField,
        ),
        (
            r#"{"resultType":"task","taskId":"","status":"working"}"#,
            "/taskId",
            ErrorKind::InvalidValue,
        ),
        (
            r#"{"resultType":"task","taskId":"a","status":"paused"}"#,
            "/status",
            ErrorKind::InvalidValue,
        ),
        (
            r#"{"resultType":"task","taskId":"a","status":"working","pollIntervalMs":-1}"#,
            "/pollIntervalMs",
            ErrorKind::WrongType,
        ),
        (
            r#"{"resultType":"task","taskId":"a","status":"working","ttlMs":"1h"}"#,
            "/ttlMs",
            ErrorKind::WrongType,
        ),
        (
            r#"{"task":{"taskId":7,"status":"working"}}"#,
            "/task/taskId",
            ErrorKind::WrongType,
        ),
    ];
    for (text, pointer, kind) in cases {
        let e = created_task(&object(text)).unwrap_err();
        assert_eq!((e.pointer(), e.kind()), (pointer, kind), "{text}: {e}");
    }
}

#[test]
fn the_schedule_follows_the_server_s_interval() {
    let mut driver = modern();
    assert_eq!(driver.next_poll_at(), 1_200);
    assert!(!driver.poll_due(1_199) && driver.poll_due(1_200));
    let working = object(r#"{"taskId":"t1","status":"working","pollIntervalMs":0}"#);
    assert_eq!(
        driver.read(&working, 1_300).unwrap(),
        TaskEvent::Working { changed: false }
    );
    assert_eq!(driver.next_poll_at(), 1_300 + MIN_POLL_INTERVAL_MS);
    let silent = object(r#"{"taskId":"t1","status":"working","statusMessage":"step 2"}"#);
    assert_eq!(
        driver.read(&silent, 2_000).unwrap(),
        TaskEvent::Working { changed: true }
    );
    assert_eq!(driver.changed_at(), 2_000);
    assert_eq!(driver.next_poll_at(), 2_000 + DEFAULT_POLL_INTERVAL_MS);
}

#[test]
fn a_huge_interval_is_held_to_the_longest_wait() {
    let mut driver = modern();
    let lazy = object(r#"{"taskId":"t1","status":"working","pollIntervalMs":9007199254740991}"#);
    driver.read(&lazy, 5_000).unwrap();
    assert_eq!(driver.poll_interval_ms(), MAX_POLL_INTERVAL_MS);
    assert_eq!(driver.next_poll_at(), 5_000 + MAX_POLL_INTERVAL_MS);
    // The task says what the server wrote; only the schedule is held.
    assert_eq!(
        driver.task().poll_interval_ms(),
        Some(9_007_199_254_740_991)
    );
}

#[test]
fn a_key_shown_again_as_another_request_is_refused() {
    let mut driver = modern();
    let TaskEvent::InputRequired { requests } =
        driver.read(&input_required(&["a"]), 1_500).unwrap()
    else {
        panic!()
    };
    driver.resolve(&accept(&requests[0].1, "x"), 1_600).unwrap();
    driver.update(false).unwrap().unwrap();
    // The same request listed again is not shown again.
    let TaskEvent::InputRequired { requests: none } =
        driver.read(&input_required(&["a"]), 1_700).unwrap()
    else {
        panic!()
    };
    assert!(none.is_empty());
    // The same key naming another question is refused, and nothing changes.
    let before = (
        driver.next_poll_at(),
        driver.task().clone(),
        driver.shown().to_vec(),
    );
    let other = object(
        r#"{"taskId":"t1","status":"input_required","inputRequests":{"a/b":{"method":"elicitation/create","params":{"message":"x","requestedSchema":{"type":"object","properties":{}}}},"a":{"method":"elicitation/create","params":{"message":"Your password?","requestedSchema":{"type":"object","properties":{"v":{"type":"string"}},"required":["v"]}}}}}"#,
    );
    let error = driver.read(&other, 1_800).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (ErrorKind::InvalidValue, "/inputRequests/a")
    );
    assert!(error.message().contains("shown already"), "{error}");
    assert_eq!(
        (
            driver.next_poll_at(),
            driver.task().clone(),
            driver.shown().to_vec()
        ),
        before
    );
    assert!(driver.pending().is_empty());
}

#[test]
fn requests_name_the_task_and_carry_the_meta() {
    let mut driver = modern();
    assert_eq!(driver.get().method(), TASKS_GET);
    assert_eq!(driver.cancel().params().to_json(), r#"{"taskId":"t1"}"#);
    assert_eq!(driver.result().method(), TASKS_RESULT);
    driver
        .set_meta(object(
            r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}"#,
        ))
        .unwrap();
    assert_eq!(
        driver.get().to_request(&RpcId::from(7)).unwrap(),
        r#"{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}},"taskId":"t1"}}"#
    );
    let bad = driver
        .set_meta(object(
            r#"{"io.modelcontextprotocol/clientCapabilities":[]}"#,
        ))
        .unwrap_err();
    assert_eq!(bad.kind(), ErrorKind::WrongType);
    let fraction = RpcId::Number(crate::json::Number::from_spelling("1.5").unwrap());
    assert_eq!(
        driver.get().to_request(&fraction).unwrap_err().kind(),
        ErrorKind::InvalidValue
    );
}

#[test]
fn a_modern_client_declares_the_extension_and_names_the_task_in_headers() {
    let mut client = Client::new(Implementation::new("t", "1"), Modes::ALL);
    client.follow_tasks(true);
    let driver = modern();
    let get = client.request(driver.get().method(), driver.get().into_params());
    assert!(
        get.text().contains(
            r#""io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#
        ),
        "{}",
        get.text()
    );
    let names: Vec<(&str, &str)> = get
        .headers()
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tasks/get"),
            ("Mcp-Name", "t1")
        ]
    );
    // The handshake never declares it.
    let init = client.initialize("2025-11-25");
    assert!(!init.text().contains("tasks"), "{}", init.text());
}

#[test]
fn keys_are_shown_once_and_answers_sent_once() {
    let mut driver = modern();
    let TaskEvent::InputRequired { requests } =
        driver.read(&input_required(&["a", "b"]), 1_500).unwrap()
    else {
        panic!()
    };
    assert_eq!(
        requests.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert_eq!(requests[0].1.id(), "elc-5dc-1");
    assert_eq!(requests[1].1.id(), "elc-5dc-2");
    // Nothing answered: nothing to send, and a whole update is refused.
    assert_eq!(driver.update(true).unwrap(), None);
    assert_eq!(
        driver.update(false).unwrap_err().kind(),
        ErrorKind::MissingResponses
    );
    // A partial answer.
    driver.resolve(&accept(&requests[0].1, "x"), 1_600).unwrap();
    let update = driver.update(true).unwrap().unwrap();
    assert_eq!(
        update.params().to_json(),
        r#"{"taskId":"t1","inputResponses":{"a":{"action":"accept","content":{"v":"x"}}}}"#
    );
    assert_eq!(driver.pending().len(), 1);
    // The server still lists both, then a new one: only the new one is shown.
    let TaskEvent::InputRequired { requests: again } = driver
        .read(&input_required(&["a", "b", "c"]), 1_700)
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].0, "c");
    assert_eq!(again[0].1.id(), "elc-6a4-3");
    assert_eq!(driver.shown(), ["a", "b", "c"]);
    driver.resolve(&accept(&again[0].1, "z"), 1_800).unwrap();
    driver.resolve(&accept(&requests[1].1, "y"), 1_900).unwrap();
    let rest = driver.update(false).unwrap().unwrap();
    assert_eq!(
        rest.params().to_json(),
        r#"{"taskId":"t1","inputResponses":{"b":{"action":"accept","content":{"v":"y"}},"c":{"action":"accept","content":{"v":"z"}}}}"#
    );
    assert_eq!(driver.sent(), ["a", "b", "c"]);
    assert_eq!(driver.update(true).unwrap(), None);
    // An answered id is unknown now.
    assert_eq!(
        driver
            .resolve(&accept(&requests[0].1, "again"), 2_000)
            .unwrap_err()
            .kind(),
        ErrorKind::UnknownRequest
    );
}

#[test]
fn declines_cancels_and_invalid_content_travel_as_the_session_says() {
    let mut driver = modern();
    let TaskEvent::InputRequired { requests } =
        driver.read(&input_required(&["a", "b"]), 1_500).unwrap()
    else {
        panic!()
    };
    let bad = Answer::from_json(
        format!(
            r#"{{"id":"{}","ok":true,"data":{{"v":3}}}}"#,
            requests[0].1.id()
        )
        .as_bytes(),
        &Limits::DEFAULT,
    )
    .unwrap();
    assert_eq!(
        driver.resolve(&bad, 1_600).unwrap_err().kind(),
        ErrorKind::InvalidContent
    );
    let decline = Answer::from_json(
        format!(
            r#"{{"id":"{}","ok":false,"reason":"declined"}}"#,
            requests[0].1.id()
        )
        .as_bytes(),
        &Limits::DEFAULT,
    )
    .unwrap();
    driver.resolve(&decline, 1_700).unwrap();
    assert_eq!(driver.cancel_pending().len(), 1);
    assert_eq!(
        driver.update(false).unwrap().unwrap().params().to_json(),
        r#"{"taskId":"t1","inputResponses":{"a":{"action":"decline"},"b":{"action":"cancel"}}}"#
    );
}

#[test]
fn the_end_of_a_task_is_read() {
    let mut driver = modern();
    let done = object(
        r#"{"resultType":"complete","taskId":"t1","status":"completed","result":{"content":[],"isError":true}}"#,
    );
    let TaskEvent::Completed {
        result: Some(result),
    } = driver.read(&done, 2_000).unwrap()
    else {
        panic!()
    };
    assert_eq!(result.to_json(), r#"{"content":[],"isError":true}"#);
    assert!(driver.is_done());

    let mut failed = modern();
    // The examples write `resultType: "task"` here; the status is what counts.
    let text = object(
        r#"{"resultType":"task","taskId":"t1","status":"failed","statusMessage":"rate limit","error":{"code":-32603,"message":"API rate limit exceeded"}}"#,
    );
    let TaskEvent::Failed { error: Some(error) } = failed.read(&text, 2_000).unwrap() else {
        panic!()
    };
    assert_eq!(error.get("code").and_then(Value::as_i64), Some(-32603));

    let mut cancelled = modern();
    assert_eq!(
        cancelled
            .read(&object(r#"{"taskId":"t1","status":"cancelled"}"#), 2_000)
            .unwrap(),
        TaskEvent::Cancelled
    );
}

#[test]
fn refused_replies_change_nothing() {
    let mut driver = modern();
    let before = (driver.next_poll_at(), driver.task().clone());
    let cases = [
        (r#"{"taskId":"t2","status":"working"}"#, "/taskId"),
        (r#"{"taskId":"t1","status":"completed"}"#, "/result"),
        (
            r#"{"taskId":"t1","status":"input_required","inputRequests":[]}"#,
            "/inputRequests",
        ),
        (
            r#"{"taskId":"t1","status":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"telepathy","message":"m"}}}}"#,
            "/inputRequests/k/params/mode",
        ),
        (
            r#"{"taskId":"t1","status":"failed","error":"boom"}"#,
            "/error",
        ),
    ];
    for (text, pointer) in cases {
        let e = driver.read(&object(text), 5_000).unwrap_err();
        assert_eq!(e.pointer(), pointer, "{text}: {e}");
        assert_eq!((driver.next_poll_at(), driver.task().clone()), before);
        assert!(driver.shown().is_empty());
    }
    let e = driver
        .read_json(
            br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Task not found"}}"#,
            5_000,
            &Limits::DEFAULT,
        )
        .unwrap_err();
    assert_eq!(e.pointer(), "/error");
    let e = driver
        .read_json(
            br#"{"jsonrpc":"2.0","id":3,"result":{"taskId":"t1","status":7}}"#,
            5_000,
            &Limits::DEFAULT,
        )
        .unwrap_err();
    assert_eq!(e.pointer(), "/result/status");
}

#[test]
fn other_input_requests_are_left_to_the_host() {
    let mut driver = modern();
    let text = object(
        r#"{"taskId":"t1","status":"input_required","inputRequests":{"llm":{"method":"sampling/createMessage","params":{"messages":[]}}}}"#,
    );
    let TaskEvent::InputRequired { requests } = driver.read(&text, 1_500).unwrap() else {
        panic!()
    };
    assert!(requests.is_empty());
    assert_eq!(driver.unhandled().len(), 1);
    driver
        .supply("llm", Value::Object(object(r#"{"role":"assistant"}"#)))
        .unwrap();
    assert!(driver.unhandled().is_empty());
    assert_eq!(
        driver.supply("nope", Value::Null).unwrap_err().kind(),
        ErrorKind::UnknownRequest
    );
    assert_eq!(
        driver.update(false).unwrap().unwrap().params().to_json(),
        r#"{"taskId":"t1","inputResponses":{"llm":{"role":"assistant"}}}"#
    );
}

#[test]
fn the_handshake_era_fetches_input_and_results_through_tasks_result() {
    let created = object(r#"{"task":{"taskId":"h1","status":"working","pollInterval":100}}"#);
    let mut driver = TaskDriver::start(&created, Era::Handshake, SessionOptions::DEFAULT, 0)
        .unwrap()
        .unwrap();
    let input = object(r#"{"taskId":"h1","status":"input_required","pollInterval":100}"#);
    assert_eq!(
        driver.read(&input, 100).unwrap(),
        TaskEvent::InputRequired {
            requests: Vec::new()
        }
    );
    let done = object(r#"{"taskId":"h1","status":"completed"}"#);
    assert_eq!(
        driver.read(&done, 200).unwrap(),
        TaskEvent::Completed { result: None }
    );
    assert_eq!(driver.result().params().to_json(), r#"{"taskId":"h1"}"#);
    // A handshake-era driver declares no extension in a `_meta` it is given.
    driver.set_meta(Map::new()).unwrap();
    assert_eq!(
        driver.get().params().to_json(),
        r#"{"_meta":{},"taskId":"h1"}"#
    );
}

#[test]
fn a_task_s_elicitation_echoes_its_related_task() {
    let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
    let incoming = bridge.receive(
        br#"{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"h1"}},"task":{"ttl":1000},"message":"Name?","requestedSchema":{"type":"object","properties":{"v":{"type":"string"}}}}}"#,
        1_000,
        &Limits::DEFAULT,
    );
    let Incoming::Elicit { request, .. } = incoming else {
        panic!("{incoming:?}")
    };
    let reply = bridge.respond(&accept(&request, "x"), 2_000).unwrap();
    assert_eq!(
        reply.as_deref(),
        Some(
            r#"{"jsonrpc":"2.0","id":4,"result":{"action":"accept","content":{"v":"x"},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"h1"}}}}"#
        )
    );
    // Cancelled ones echo it too.
    let incoming = bridge.receive(
        br#"{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"h1"}},"message":"Name?","requestedSchema":{"type":"object","properties":{}}}}"#,
        3_000,
        &Limits::DEFAULT,
    );
    assert!(matches!(incoming, Incoming::Elicit { .. }));
    assert_eq!(
        bridge.cancel_all(),
        [
            r#"{"jsonrpc":"2.0","id":5,"result":{"action":"cancel","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"h1"}}}}"#
        ]
    );
}

#[test]
fn tools_say_whether_they_run_as_tasks() {
    let tool = |text: &str| crate::json::parse_str(text, &Limits::DEFAULT).unwrap();
    assert_eq!(
        TaskSupport::of_tool(&tool(
            r#"{"name":"a","execution":{"taskSupport":"required"}}"#
        )),
        TaskSupport::Required
    );
    assert_eq!(
        TaskSupport::of_tool(&tool(
            r#"{"name":"a","execution":{"taskSupport":"sometimes"}}"#
        )),
        TaskSupport::Forbidden
    );
    assert_eq!(
        TaskSupport::of_tool(&tool(r#"{"name":"a"}"#)),
        TaskSupport::Forbidden
    );
    assert!(server_runs_tool_tasks(&object(
        r#"{"capabilities":{"tasks":{"requests":{"tools":{"call":{}}}}}}"#
    )));
    assert!(!server_runs_tool_tasks(&object(
        r#"{"capabilities":{"tasks":{}}}"#
    )));
    assert_eq!(task_request(Some(60_000)).to_json(), r#"{"ttl":60000}"#);
    assert_eq!(task_request(None).to_json(), "{}");
}
