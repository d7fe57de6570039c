//! Checks the 2025 elicitation wire against the MCP 2025-11-25 specification kept under
//! `mcp-schema/2025-11-25/`: every JSON-RPC response the `reverse_request` cases emit is valid
//! in its `schema.json`, the capabilities are a valid `ClientCapabilities`, every example of
//! its elicitation page is read and answered as the page shows, and every request the `task`
//! cases of that era emit is valid.

// A failed check is meant to stop the test: its helpers, not only its `#[test]`s, may panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

mod spec_schema;

use serde_json::Value as Json;
use spec_schema::SpecSchema;
use toolnexus_conformance::{Case, load_suite, run_op, suite_dir};
use toolnexus_core::wire::reverse::{Incoming, ReverseBridge};
use toolnexus_core::{Answer, ElicitResult, Limits, Modes, SessionOptions, Value};

fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp-schema/2025-11-25")
}

fn spec() -> SpecSchema {
    SpecSchema::load(&spec_dir())
}

/// Every JSON-RPC message a `reverse_request` case emits, with the case id: each string in a
/// case's output that is a JSON object with a `jsonrpc` member.
fn emitted_messages() -> Vec<(u64, Json)> {
    emitted_by("wire/reverse_request.json", |_| true)
}

/// Every JSON-RPC message emitted by the cases of the file `path` that `keep` selects.
fn emitted_by(path: &str, keep: impl Fn(&Case) -> bool) -> Vec<(u64, Json)> {
    let mut messages = Vec::new();
    let files = load_suite(&suite_dir()).unwrap();
    let file = files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("the cases of {path}"));
    for case in file.file.cases.iter().filter(|c| keep(c)) {
        let input = case.input_bytes().unwrap();
        let output = match run_op(case, &input) {
            Ok(Ok(output)) => output,
            other => panic!("#{}: {other:?}", case.id),
        };
        let output: Json = serde_json::from_str(&output).unwrap();
        collect_messages(&output, &mut |m| messages.push((case.id, m)));
    }
    messages
}

fn collect_messages(value: &Json, found: &mut impl FnMut(Json)) {
    match value {
        Json::String(text) => {
            if let Ok(message @ Json::Object(_)) = serde_json::from_str::<Json>(text)
                && message.get("jsonrpc").is_some()
            {
                found(message);
            }
        }
        Json::Array(items) => items.iter().for_each(|v| collect_messages(v, found)),
        Json::Object(map) => map.values().for_each(|v| collect_messages(v, found)),
        _ => {}
    }
}

#[test]
fn every_emitted_response_is_valid_mcp_2025_11_25() {
    let spec = spec();
    let messages = emitted_messages();
    let mut codes = BTreeSet::new();
    let mut results = 0;
    let mut failures = Vec::new();
    for (id, message) in &messages {
        let mut bad = if let Some(result) = message.get("result") {
            results += 1;
            let mut p = spec.problems("JSONRPCResultResponse", message);
            p.extend(spec.problems("ElicitResult", result));
            p
        } else if let Some(error) = message.get("error") {
            codes.insert(error["code"].as_i64().unwrap_or(0));
            spec.problems("JSONRPCErrorResponse", message)
        } else {
            vec![String::from("neither a result nor an error response")]
        };
        if !bad.is_empty() {
            bad.insert(0, format!("#{id}: {message}"));
            failures.push(bad.join("\n    "));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        results >= 25,
        "only {results} result responses were emitted"
    );
    assert_eq!(
        codes,
        BTreeSet::from([-32700, -32603, -32602, -32601, -32600]),
        "the error codes emitted"
    );
}

#[test]
fn every_task_request_of_the_handshake_era_is_valid_mcp_2025_11_25() {
    let spec = spec();
    let handshake = |case: &Case| case.flags.iter().any(|f| f == "handshake");
    let mut methods = BTreeSet::new();
    for (id, message) in emitted_by("wire/task.json", handshake) {
        let method = message["method"].as_str().unwrap_or_default().to_owned();
        let definition = match method.as_str() {
            "tasks/get" => "GetTaskRequest",
            "tasks/cancel" => "CancelTaskRequest",
            "tasks/result" => "GetTaskPayloadRequest",
            other => panic!("#{id}: {other:?} is no task request of 2025-11-25: {message}"),
        };
        let mut problems = spec.problems("JSONRPCRequest", &message);
        problems.extend(spec.problems(definition, &message));
        assert_eq!(problems, Vec::<String>::new(), "#{id}: {message}");
        methods.insert(method);
    }
    let all = ["tasks/cancel", "tasks/get", "tasks/result"].map(String::from);
    assert_eq!(methods, BTreeSet::from(all), "the task requests emitted");
}

#[test]
fn an_unknown_id_is_left_out_because_null_is_not_valid() {
    let spec = spec();
    let error = r#""error":{"code":-32700,"message":"m"}"#;
    let omitted: Json = serde_json::from_str(&format!(r#"{{"jsonrpc":"2.0",{error}}}"#)).unwrap();
    let null: Json =
        serde_json::from_str(&format!(r#"{{"jsonrpc":"2.0","id":null,{error}}}"#)).unwrap();
    assert!(spec.is_valid("JSONRPCErrorResponse", &omitted));
    assert!(!spec.is_valid("JSONRPCErrorResponse", &null));
}

#[test]
fn capabilities_are_valid_client_capabilities() {
    let spec = spec();
    for modes in [Modes::ALL, Modes::FORM, Modes::URL] {
        let bridge = ReverseBridge::new(SessionOptions::DEFAULT.with_modes(modes));
        let value: Json =
            serde_json::from_str(&Value::Object(bridge.capabilities()).to_json()).unwrap();
        assert_eq!(
            spec.problems("ClientCapabilities", &value),
            Vec::<String>::new(),
            "{value}"
        );
    }
}

/// The JSON examples of the specification's elicitation page, one file each under
/// `examples/`, in page order.
fn spec_examples() -> Vec<(String, Json)> {
    let mut paths: Vec<_> = fs::read_dir(spec_dir().join("examples"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path).unwrap();
            let value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (text, value)
        })
        .collect()
}

fn content_answer(request_id: &str, result: &Json) -> Answer {
    let action = result["action"].as_str().unwrap();
    match action {
        "accept" => {
            let data = result
                .get("content")
                .map(|c| Value::from(c.clone()).as_object().cloned().unwrap())
                .unwrap_or_default();
            Answer::accept(request_id, data).unwrap()
        }
        "decline" => Answer::refuse(request_id, toolnexus_core::Reason::Declined).unwrap(),
        _ => Answer::new(request_id, false).unwrap(),
    }
}

#[test]
fn every_spec_example_is_read_and_answered_as_shown() {
    let examples = spec_examples();
    let spec = spec();
    let requests: Vec<&(String, Json)> = examples
        .iter()
        .filter(|(_, v)| v["method"] == "elicitation/create")
        .collect();
    let results: Vec<&Json> = examples
        .iter()
        .map(|(_, v)| v)
        .filter(|v| v.get("result").is_some_and(|r| r.get("action").is_some()))
        .collect();
    assert_eq!(requests.len(), 3, "elicitation/create examples on the page");
    assert_eq!(results.len(), 4, "ElicitResult examples on the page");

    for result in &results {
        let parsed =
            ElicitResult::from_json(result["result"].to_string().as_bytes(), &Limits::DEFAULT)
                .unwrap_or_else(|e| panic!("{result}: {e}"));
        let back: Json = serde_json::from_str(&parsed.to_json()).unwrap();
        assert_eq!(back, result["result"], "the result keeps its meaning");
    }

    let mut answered = 0;
    for (text, request) in &requests {
        assert_eq!(
            spec.problems("ElicitRequest", request),
            Vec::<String>::new()
        );
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
        let incoming = bridge.receive(text.as_bytes(), 0, &Limits::DEFAULT);
        let Incoming::Elicit {
            rpc_id,
            request: elicited,
        } = incoming
        else {
            panic!("{text}: {incoming:?}");
        };
        assert_eq!(rpc_id.to_json(), request["id"].to_string());
        assert_eq!(elicited.prompt(), request["params"]["message"]);
        if let Some(url) = request["params"].get("url") {
            assert_eq!(elicited.url(), url.as_str());
        }
        // The page's response to this request is the first result example with its id.
        let Some(shown) = results.iter().find(|r| r["id"] == request["id"]) else {
            continue;
        };
        let sent = bridge
            .respond(&content_answer(elicited.id(), &shown["result"]), 0)
            .unwrap()
            .unwrap();
        assert_eq!(
            serde_json::from_str::<Json>(&sent).unwrap(),
            **shown,
            "{text}"
        );
        answered += 1;

        if request["params"]["mode"] == "url" {
            let (note, _) = examples
                .iter()
                .find(|(_, v)| v["method"] == "notifications/elicitation/complete")
                .expect("the completion notification example");
            assert_eq!(
                bridge.receive(note.as_bytes(), 1, &Limits::DEFAULT),
                Incoming::Completed {
                    request_id: elicited.id().to_string(),
                    reply: None
                }
            );
        }
    }
    assert_eq!(answered, 3, "request examples answered as the page shows");

    let (error, value) = examples
        .iter()
        .find(|(_, v)| v["error"]["code"] == -32042)
        .expect("the URLElicitationRequiredError example");
    assert_eq!(
        spec.problems("URLElicitationRequiredError", value),
        Vec::<String>::new()
    );
    let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
    let begun = bridge
        .url_required(error.as_bytes(), 0, &Limits::DEFAULT)
        .unwrap();
    let carried = value["error"]["data"]["elicitations"].as_array().unwrap();
    assert_eq!(begun.len(), carried.len());
    for (request, params) in begun.iter().zip(carried) {
        assert_eq!(request.url(), params["url"].as_str());
        assert_eq!(request.prompt(), params["message"]);
    }
}
