//! The multi round-trip client against the MCP 2026-07-28 specification itself: every official
//! example of the types it reads is accepted by the matching reader, and everything it emits
//! (the retry request, the `ElicitResult`s inside `inputResponses`, the client capabilities)
//! validates against the specification's `schema.json`.
//!
//! The schema and the examples are vendored, unchanged, under `mcp-schema/2026-07-28/` (see the
//! README there), so this runs offline.

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

use serde_json::{Value as Json, json};
use spec_schema::SpecSchema;
use toolnexus_core::wire::mrtr::{
    CLIENT_CAPABILITIES_KEY, ClientRequest, InputRequest, InputRequired, InputRound,
    with_client_capabilities,
};
use toolnexus_core::wire::rpc::RpcId;
use toolnexus_core::{
    Answer, ElicitRequestParams, ElicitResult, Limits, Modes, SessionOptions, Value,
    elicitation_to_request,
};

/// Every vendored example and how it is checked. The list must name exactly the files under
/// `examples/`, so that none is skipped silently.
const EXAMPLES: &[(&str, &str)] = &[
    ("CallToolRequest", "call-tool-request.json"),
    (
        "ClientCapabilities",
        "elicitation-form-and-url-mode-support.json",
    ),
    ("ClientCapabilities", "elicitation-form-only-implicit.json"),
    ("ClientCapabilities", "extensions-ui-mime-types.json"),
    ("ClientCapabilities", "roots-minimum-baseline-support.json"),
    (
        "ClientCapabilities",
        "sampling-context-inclusion-support-deprecated.json",
    ),
    (
        "ClientCapabilities",
        "sampling-minimum-baseline-support.json",
    ),
    ("ClientCapabilities", "sampling-tool-use-support.json"),
    ("ElicitRequest", "elicitation-request.json"),
    ("ElicitRequestFormParams", "elicit-multiple-fields.json"),
    ("ElicitRequestFormParams", "elicit-single-field.json"),
    ("ElicitRequestURLParams", "elicit-sensitive-data.json"),
    ("ElicitResult", "accept-url-mode-no-content.json"),
    ("ElicitResult", "input-multiple-fields.json"),
    ("ElicitResult", "input-single-field.json"),
    (
        "InputRequests",
        "elicitation-and-sampling-input-requests.json",
    ),
    (
        "InputRequiredResult",
        "input-required-result-with-elicitation-and-sampling-and-request-state.json",
    ),
    (
        "InputRequiredResult",
        "input-required-result-with-request-state-only.json",
    ),
    (
        "InputResponses",
        "elicitation-and-sampling-input-responses.json",
    ),
];

const CALL_TOOL_REQUEST: &str = "CallToolRequest/call-tool-request.json";
const INPUT_RESPONSES: &str = "InputResponses/elicitation-and-sampling-input-responses.json";

fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp-schema/2026-07-28")
}

fn example_text(path: &str) -> String {
    let file = spec_dir().join("examples").join(path);
    fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

fn example(path: &str) -> Json {
    serde_json::from_str(&example_text(path)).unwrap()
}

fn limits() -> Limits {
    Limits::DEFAULT
}

/// The specification's schema, asserting that instances are or are not one of its definitions.
struct Spec {
    schema: SpecSchema,
}

impl Spec {
    fn load() -> Spec {
        Spec {
            schema: SpecSchema::load(&spec_dir()),
        }
    }

    /// Panics with every error unless `instance` is a valid `definition`.
    fn assert_valid(&self, definition: &str, instance: &Json, what: &str) {
        let errors = self.schema.problems(definition, instance);
        assert!(
            errors.is_empty(),
            "{what} is not a valid {definition}:\n{}\n{instance}",
            errors.join("\n")
        );
    }

    fn assert_invalid(&self, definition: &str, instance: &Json, what: &str) {
        assert!(
            !self.schema.is_valid(definition, instance),
            "{what} should not be a valid {definition}: {instance}"
        );
    }
}

/// `text` read by the core, which keeps the order of members (serde_json sorts them).
fn core_json(text: &str) -> Value {
    toolnexus_core::json::parse_str(text, &limits()).unwrap()
}

/// The keys of the object `value`, in order.
fn keys_of(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::from).collect())
        .unwrap_or_default()
}

fn to_json(text: &str) -> Json {
    serde_json::from_str(text).unwrap()
}

/// Runs a whole round: the official tools/call, the server's `input_required` text, each
/// elicitation answered with the content the official `InputResponses` example gives for its
/// key, and every other entry supplied with that example's result. Returns the retry text.
fn conversation(input_required: &str, modes: Modes) -> String {
    let call =
        ClientRequest::from_json(example_text(CALL_TOOL_REQUEST).as_bytes(), &limits()).unwrap();
    let input = InputRequired::from_json(input_required.as_bytes(), &limits()).unwrap();
    let options = SessionOptions::DEFAULT.with_modes(modes);
    let (mut round, requests) = InputRound::start(call, input, options, 0).unwrap();
    // Read by the core, which keeps member order and number spelling.
    let responses = core_json(&example_text(INPUT_RESPONSES));
    for (key, request) in &requests {
        let content = responses.get(key).and_then(|r| r.get("content")).unwrap();
        let answer = format!(
            r#"{{"id":{},"ok":true,"data":{}}}"#,
            json!(request.id()),
            content.to_json()
        );
        let answer = Answer::from_json(answer.as_bytes(), &limits()).unwrap();
        round.resolve(&answer, 0).unwrap();
    }
    let unhandled: Vec<String> = round
        .unhandled()
        .iter()
        .map(|r| r.key().to_owned())
        .collect();
    for key in unhandled {
        round
            .supply(&key, responses.get(&key).unwrap().clone())
            .unwrap();
    }
    assert!(round.missing().is_empty());
    round
        .retry(&RpcId::from("call-tool-example-retry"), false)
        .unwrap()
}

/// Checks a retry against the specification: the request as `CallToolRequest` and
/// `JSONRPCRequest`, its capabilities, its `inputResponses` and each `ElicitResult` in them.
fn check_retry(spec: &Spec, retry: &Json, elicitation_keys: &[&str], what: &str) {
    spec.assert_valid("CallToolRequest", retry, what);
    spec.assert_valid("JSONRPCRequest", retry, what);
    let params = &retry["params"];
    spec.assert_valid(
        "ClientCapabilities",
        &params["_meta"][CLIENT_CAPABILITIES_KEY],
        what,
    );
    if let Some(responses) = params.get("inputResponses") {
        spec.assert_valid("InputResponses", responses, what);
        for key in elicitation_keys {
            spec.assert_valid("ElicitResult", &responses[*key], what);
        }
    }
    assert_ne!(retry["id"], json!("call-tool-example"), "{what}: a new id");
}

fn check_call_tool_request(spec: &Spec, path: &str) {
    let text = example_text(path);
    let request = ClientRequest::from_json(text.as_bytes(), &limits()).unwrap();
    assert_eq!(request.method(), "tools/call");
    assert_eq!(request.id(), &RpcId::from("call-tool-example"));
    assert_eq!(to_json(&request.to_json()), to_json(&text));
    spec.assert_valid("CallToolRequest", &to_json(&text), path);
    for modes in [Modes::ALL, Modes::FORM, Modes::URL] {
        let stamped = with_client_capabilities(text.as_bytes(), modes, &limits()).unwrap();
        let stamped = to_json(&stamped);
        spec.assert_valid("CallToolRequest", &stamped, path);
        let caps = &stamped["params"]["_meta"][CLIENT_CAPABILITIES_KEY];
        assert_eq!(
            caps["elicitation"],
            to_json(&modes.to_value().unwrap().to_json())
        );
        // Every other `_meta` member is kept.
        let meta = stamped["params"]["_meta"].as_object().unwrap();
        let original = to_json(&text);
        for (key, value) in original["params"]["_meta"].as_object().unwrap() {
            if key != CLIENT_CAPABILITIES_KEY {
                assert_eq!(&meta[key], value, "{path}: _meta.{key}");
            }
        }
    }
}

fn check_client_capabilities(spec: &Spec, path: &str) {
    let caps = example(path);
    spec.assert_valid("ClientCapabilities", &caps, path);
    let modes = match caps.get("elicitation") {
        Some(elicitation) => {
            let modes = Modes::from_value(&Value::from(elicitation.clone())).unwrap();
            let expected = if elicitation.as_object().is_some_and(|m| m.is_empty()) {
                // An empty elicitation capability means form mode only.
                Modes::FORM
            } else {
                Modes::new(
                    elicitation.get("form").is_some(),
                    elicitation.get("url").is_some(),
                )
            };
            assert_eq!(modes, expected, "{path}");
            modes
        }
        None => Modes::ALL,
    };
    // Stamped onto a request that already declares them, the capabilities keep every other
    // member and say the same about elicitation.
    let mut request = example(CALL_TOOL_REQUEST);
    request["params"]["_meta"][CLIENT_CAPABILITIES_KEY] = caps.clone();
    let stamped =
        with_client_capabilities(request.to_string().as_bytes(), modes, &limits()).unwrap();
    let stamped = to_json(&stamped);
    spec.assert_valid("CallToolRequest", &stamped, path);
    let out = &stamped["params"]["_meta"][CLIENT_CAPABILITIES_KEY];
    spec.assert_valid("ClientCapabilities", out, path);
    for (key, value) in caps.as_object().unwrap() {
        if key != "elicitation" {
            assert_eq!(&out[key], value, "{path}: capability {key}");
        }
    }
    let stamped_modes = Modes::from_value(&Value::from(out["elicitation"].clone())).unwrap();
    assert_eq!(stamped_modes, modes, "{path}");
}

fn check_elicit_request(spec: &Spec, path: &str) {
    let request = example(path);
    spec.assert_valid("ElicitRequest", &request, path);
    assert_eq!(request["method"], "elicitation/create");
    let params = ElicitRequestParams::from_value(Value::from(request["params"].clone())).unwrap();
    let mapped = elicitation_to_request(&params, "q").unwrap();
    assert_eq!(mapped.prompt(), request["params"]["message"]);
    // As an entry of inputRequests, it is one the bridge handles.
    let entries = InputRequest::read_all(Value::from(json!({ "k": request }))).unwrap();
    assert_eq!(entries.first().unwrap().elicitation(), Some(&params));
}

fn check_form_params(spec: &Spec, path: &str) {
    let text = example_text(path);
    spec.assert_valid("ElicitRequestFormParams", &to_json(&text), path);
    let params = ElicitRequestParams::from_json(text.as_bytes(), &limits()).unwrap();
    let ElicitRequestParams::Form(form) = &params else {
        panic!("{path} should read as form mode");
    };
    form.schema().unwrap();
    let request = to_json(&elicitation_to_request(&params, "q").unwrap().to_json());
    assert_eq!(request["kind"], "input");
    assert_eq!(request["data"]["schema"], to_json(&text)["requestedSchema"]);
}

fn check_url_params(spec: &Spec, path: &str) {
    let text = example_text(path);
    spec.assert_valid("ElicitRequestURLParams", &to_json(&text), path);
    let params = ElicitRequestParams::from_json(text.as_bytes(), &limits()).unwrap();
    let ElicitRequestParams::Url(url) = &params else {
        panic!("{path} should read as URL mode");
    };
    assert_eq!(url.url(), to_json(&text)["url"]);
    assert_eq!(url.elicitation_id(), None);
    let request = elicitation_to_request(&params, "q").unwrap();
    assert_eq!(request.kind(), "authorization");
}

fn check_elicit_result(spec: &Spec, path: &str) {
    let text = example_text(path);
    let result = ElicitResult::from_json(text.as_bytes(), &limits()).unwrap();
    let written = to_json(&result.to_json());
    assert_eq!(written, to_json(&text), "{path} comes back out unchanged");
    spec.assert_valid("ElicitResult", &written, path);
}

fn check_input_requests(spec: &Spec, path: &str) {
    let text = example_text(path);
    let map = to_json(&text);
    spec.assert_valid("InputRequests", &map, path);
    let entries = InputRequest::read_all(core_json(&text)).unwrap();
    let keys: Vec<&str> = entries.iter().map(InputRequest::key).collect();
    assert_eq!(
        keys,
        keys_of(Some(&core_json(&text))),
        "{path}: keys in order"
    );
    for entry in &entries {
        let method = map[entry.key()]["method"].as_str().unwrap();
        assert_eq!(entry.method(), method);
        assert_eq!(
            entry.elicitation().is_some(),
            method == "elicitation/create"
        );
    }
}

fn check_input_required(spec: &Spec, path: &str) {
    let text = example_text(path);
    let result = to_json(&text);
    spec.assert_valid("InputRequiredResult", &result, path);
    let read = InputRequired::from_json(text.as_bytes(), &limits()).unwrap();
    assert_eq!(read.request_state(), result["requestState"].as_str());
    let elicitation_keys: Vec<&str> = read
        .input_requests()
        .iter()
        .filter(|r| r.elicitation().is_some())
        .map(InputRequest::key)
        .collect();
    let asked = keys_of(core_json(&text).get("inputRequests"));
    for modes in [Modes::ALL, Modes::FORM] {
        let retry_text = conversation(&text, modes);
        let retry = to_json(&retry_text);
        check_retry(spec, &retry, &elicitation_keys, path);
        assert_eq!(
            retry["params"].get("requestState"),
            result.get("requestState")
        );
        let answered = keys_of(
            core_json(&retry_text)
                .get("params")
                .and_then(|p| p.get("inputResponses")),
        );
        assert_eq!(
            answered, asked,
            "{path}: a response for each request, in order"
        );
    }
}

fn check_input_responses(spec: &Spec, path: &str) {
    let responses = example(path);
    spec.assert_valid("InputResponses", &responses, path);
    for (key, response) in responses.as_object().unwrap() {
        if response.get("action").is_some() {
            let result =
                ElicitResult::from_json(response.to_string().as_bytes(), &limits()).unwrap();
            assert_eq!(&to_json(&result.to_json()), response, "{path}: {key}");
        }
    }
    // The official InputRequiredResult, answered as this example answers it, gives this
    // example back as the retry's inputResponses.
    let input = example_text(
        "InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state.json",
    );
    let retry = to_json(&conversation(&input, Modes::ALL));
    assert_eq!(retry["params"]["inputResponses"], responses, "{path}");
}

#[test]
fn every_official_example_is_read_and_what_is_emitted_validates() {
    let spec = Spec::load();
    let mut checked = Vec::new();
    for (kind, name) in EXAMPLES {
        let path = format!("{kind}/{name}");
        match *kind {
            "CallToolRequest" => check_call_tool_request(&spec, &path),
            "ClientCapabilities" => check_client_capabilities(&spec, &path),
            "ElicitRequest" => check_elicit_request(&spec, &path),
            "ElicitRequestFormParams" => check_form_params(&spec, &path),
            "ElicitRequestURLParams" => check_url_params(&spec, &path),
            "ElicitResult" => check_elicit_result(&spec, &path),
            "InputRequests" => check_input_requests(&spec, &path),
            "InputRequiredResult" => check_input_required(&spec, &path),
            "InputResponses" => check_input_responses(&spec, &path),
            other => panic!("no check for examples of {other}"),
        }
        checked.push(path);
    }
    println!("checked {} official examples:", checked.len());
    for path in &checked {
        println!("  {path}");
    }
}

#[test]
fn the_list_names_every_vendored_example() {
    let root = spec_dir().join("examples");
    let mut on_disk = BTreeSet::new();
    for kind in fs::read_dir(&root).unwrap() {
        let kind = kind.unwrap().path();
        for file in fs::read_dir(&kind).unwrap() {
            let file = file.unwrap().path();
            on_disk.insert(format!(
                "{}/{}",
                kind.file_name().unwrap().to_string_lossy(),
                file.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    let listed: BTreeSet<String> = EXAMPLES.iter().map(|(k, n)| format!("{k}/{n}")).collect();
    assert_eq!(listed, on_disk);
}

#[test]
fn retries_from_session_answers_validate() {
    let spec = Spec::load();
    let input = json!({
        "resultType": "input_required",
        "inputRequests": {
            "form": {"method": "elicitation/create", "params": {
                "message": "Your details",
                "requestedSchema": {"type": "object", "properties": {
                    "name": {"type": "string"},
                    "age": {"type": "integer", "minimum": 0},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
                    "ok": {"type": "boolean"}
                }, "required": ["name"]}}},
            "declined": {"method": "elicitation/create", "params": {
                "message": "More?", "requestedSchema": {"type": "object", "properties": {}}}},
            "link": {"method": "elicitation/create", "params": {
                "mode": "url", "message": "Open", "url": "https://example.com/x"}},
            "dismissed": {"method": "elicitation/create", "params": {
                "mode": "url", "message": "Open", "url": "https://example.com/y"}},
            "roots": {"method": "roots/list"}
        },
        "requestState": "state\u{0}with \"odd\" characters"
    });
    let call =
        ClientRequest::from_json(example_text(CALL_TOOL_REQUEST).as_bytes(), &limits()).unwrap();
    let input = InputRequired::from_json(input.to_string().as_bytes(), &limits()).unwrap();
    let (mut round, requests) = InputRound::start(call, input, SessionOptions::DEFAULT, 0).unwrap();
    // serde_json sorts keys, so each answer is found by its key rather than its place.
    let answers = json!({
        "form": {"ok": true, "data": {"name": "Ada", "age": 36, "tags": ["a"], "ok": true}},
        "declined": {"ok": false, "reason": "declined"},
        "link": {"ok": true},
        "dismissed": {"ok": false}
    });
    for (key, request) in &requests {
        let mut answer = answers[key.as_str()].clone();
        answer["id"] = json!(request.id());
        let answer = Answer::from_json(answer.to_string().as_bytes(), &limits()).unwrap();
        round.resolve(&answer, 0).unwrap();
    }
    round
        .supply(
            "roots",
            Value::from(json!({"roots": [{"uri": "file:///repo"}]})),
        )
        .unwrap();
    let retry = to_json(&round.retry(&RpcId::from(2), false).unwrap());
    check_retry(
        &spec,
        &retry,
        &["form", "declined", "link", "dismissed"],
        "a retry",
    );
    assert_eq!(
        retry["params"]["requestState"],
        "state\u{0}with \"odd\" characters"
    );
    // The validator is not lenient: a broken ElicitResult is refused.
    spec.assert_invalid(
        "ElicitResult",
        &json!({"action": "maybe"}),
        "a made-up action",
    );
    let mut broken = retry.clone();
    broken["params"]["inputResponses"]["form"] = json!({"action": "maybe"});
    spec.assert_invalid("CallToolRequest", &broken, "a retry with a made-up action");
    let mut broken = retry.clone();
    broken["params"]["requestState"] = json!(7);
    spec.assert_invalid(
        "CallToolRequest",
        &broken,
        "a retry with a numeric requestState",
    );
}
