//! Unit tests of the multi round-trip client.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::content::Content;
use crate::json;
use crate::json::Limits;
use crate::mcp::Modes;

const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"}}}"#;

const FORM: &str = r#"{"method":"elicitation/create","params":{"message":"Region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}}"#;

const URL: &str = r#"{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/login"}}"#;

const SAMPLING: &str =
    r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}"#;

fn limits() -> Limits {
    Limits::DEFAULT
}

fn call() -> ClientRequest {
    ClientRequest::from_json(CALL.as_bytes(), &limits()).unwrap()
}

/// A JSON-RPC response with id 1 holding an input-required result.
fn response(entries: &[(&str, &str)], state: Option<&str>) -> String {
    let mut result = String::from(r#"{"resultType":"input_required""#);
    if !entries.is_empty() {
        result.push_str(r#","inputRequests":{"#);
        let list: Vec<String> = entries
            .iter()
            .map(|(k, v)| format!("{}:{v}", Value::from(*k).to_json()))
            .collect();
        result.push_str(&list.join(","));
        result.push('}');
    }
    if let Some(state) = state {
        result.push_str(&format!(
            r#","requestState":{}"#,
            Value::from(state).to_json()
        ));
    }
    result.push('}');
    format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#)
}

fn input(text: &str) -> InputRequired {
    InputRequired::from_json(text.as_bytes(), &limits()).unwrap()
}

fn input_err(text: &str) -> (ErrorKind, String) {
    let e = InputRequired::from_json(text.as_bytes(), &limits()).unwrap_err();
    (e.kind(), String::from(e.pointer()))
}

fn start(text: &str) -> (InputRound, Vec<(String, Request)>) {
    InputRound::start(call(), input(text), SessionOptions::DEFAULT, 0).unwrap()
}

fn answer(json: &str) -> Answer {
    Answer::from_json(json.as_bytes(), &limits()).unwrap()
}

fn id(n: i64) -> RpcId {
    RpcId::from(n)
}

fn number(spelling: &str) -> RpcId {
    RpcId::Number(crate::json::Number::from_spelling(spelling).unwrap())
}

#[test]
fn reads_a_response_and_a_bare_result_alike() {
    let text = response(&[("b", FORM), ("a", SAMPLING)], Some("s"));
    let from_response = input(&text);
    assert_eq!(from_response.response_id(), Some(&id(1)));
    let bare = &text[text.find(r#"{"resultType"#).unwrap()..text.len() - 1];
    let from_result = input(bare);
    assert_eq!(from_result.response_id(), None);
    for read in [&from_response, &from_result] {
        let keys: Vec<&str> = read
            .input_requests()
            .iter()
            .map(InputRequest::key)
            .collect();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(read.request_state(), Some("s"));
        let sampling = read.input_requests().get(1).unwrap();
        assert_eq!(sampling.method(), "sampling/createMessage");
        assert!(sampling.elicitation().is_none());
        assert_eq!(
            Value::Object(sampling.params().unwrap().clone()).to_json(),
            r#"{"messages":[],"maxTokens":10}"#
        );
    }
}

#[test]
fn complete_and_unknown_results_ask_for_nothing() {
    let complete = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#;
    let legacy = r#"{"content":[]}"#;
    let other = r#"{"resultType":"task","taskId":"t"}"#;
    assert!(matches!(
        ServerResult::from_json(complete.as_bytes(), &limits()).unwrap(),
        ServerResult::Complete(m) if m.contains_key("content")
    ));
    assert!(matches!(
        ServerResult::from_json(legacy.as_bytes(), &limits()).unwrap(),
        ServerResult::Complete(_)
    ));
    assert!(matches!(
        ServerResult::from_json(other.as_bytes(), &limits()).unwrap(),
        ServerResult::Unknown { result_type, .. } if result_type == "task"
    ));
    let ask = response(&[], Some("s"));
    assert!(matches!(
        ServerResult::from_json(ask.as_bytes(), &limits()).unwrap(),
        ServerResult::InputRequired(i) if i.request_state() == Some("s")
    ));
    assert_eq!(
        input_err(complete),
        (ErrorKind::InvalidValue, "/result/resultType".into())
    );
    assert_eq!(
        input_err(legacy),
        (ErrorKind::InvalidValue, "/resultType".into())
    );
    assert_eq!(
        input_err(other),
        (ErrorKind::InvalidValue, "/resultType".into())
    );
}

#[test]
fn an_input_required_result_must_ask_something() {
    assert_eq!(
        input_err(r#"{"resultType":"input_required"}"#),
        (ErrorKind::MissingField, "".into())
    );
    assert_eq!(
        input_err(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":null}}"#
        ),
        (ErrorKind::MissingField, "/result".into())
    );
    // An empty map is present: the server asks nothing but may be retried at once.
    let empty = input(r#"{"resultType":"input_required","inputRequests":{}}"#);
    assert!(empty.input_requests().is_empty());
}

#[test]
fn malformed_results_are_located() {
    let cases: [(&str, ErrorKind, &str); 12] = [
        (r#"[]"#, ErrorKind::WrongType, ""),
        (r#"{"resultType":1}"#, ErrorKind::WrongType, "/resultType"),
        (
            r#"{"resultType":"input_required","requestState":7}"#,
            ErrorKind::WrongType,
            "/requestState",
        ),
        (
            r#"{"resultType":"input_required","inputRequests":[]}"#,
            ErrorKind::WrongType,
            "/inputRequests",
        ),
        (
            r#"{"resultType":"input_required","inputRequests":{"a/b":1}}"#,
            ErrorKind::WrongType,
            "/inputRequests/a~1b",
        ),
        (
            r#"{"resultType":"input_required","inputRequests":{"a":{}}}"#,
            ErrorKind::MissingField,
            "/inputRequests/a/method",
        ),
        (
            r#"{"resultType":"input_required","inputRequests":{"a":{"method":""}}}"#,
            ErrorKind::InvalidValue,
            "/inputRequests/a/method",
        ),
        (
            r#"{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list","params":[]}}}"#,
            ErrorKind::WrongType,
            "/inputRequests/a/params",
        ),
        (
            r#"{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create"}}}"#,
            ErrorKind::MissingField,
            "/inputRequests/a/params",
        ),
        (
            r#"{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"mode":"sms"}}}}"#,
            ErrorKind::InvalidValue,
            "/inputRequests/a/params/mode",
        ),
        (
            r#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
            ErrorKind::InvalidValue,
            "/jsonrpc",
        ),
        (
            r#"{"jsonrpc":"2.0","result":{"resultType":"input_required","requestState":"s"}}"#,
            ErrorKind::MissingField,
            "/id",
        ),
    ];
    for (text, kind, at) in cases {
        assert_eq!(input_err(text), (kind, String::from(at)), "{text}");
    }
    assert_eq!(
        input_err(r#"{"jsonrpc":"2.0","id":1,"result":[]}"#),
        (ErrorKind::WrongType, "/result".into())
    );
    assert_eq!(
        input_err(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"needs elicitation"}}"#
        ),
        (ErrorKind::InvalidValue, "/error".into())
    );
    assert_eq!(
        input_err(
            r#"{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"},"a":{"method":"roots/list"}}}"#
        ),
        (ErrorKind::DuplicateKey, "/inputRequests/a".into())
    );
}

#[test]
fn client_requests_are_checked() {
    let err = |text: &str| {
        let e = ClientRequest::from_json(text.as_bytes(), &limits()).unwrap_err();
        (e.kind(), String::from(e.pointer()))
    };
    assert_eq!(
        err(r#"{"id":1,"method":"m"}"#),
        (ErrorKind::MissingField, "/jsonrpc".into())
    );
    assert_eq!(
        err(r#"{"jsonrpc":"2.0","method":"m"}"#),
        (ErrorKind::MissingField, "/id".into())
    );
    assert_eq!(
        err(r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#),
        (ErrorKind::MissingField, "/id".into())
    );
    assert_eq!(
        err(r#"{"jsonrpc":"2.0","id":true,"method":"m"}"#),
        (ErrorKind::WrongType, "/id".into())
    );
    assert_eq!(
        err(r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#),
        (ErrorKind::InvalidValue, "/id".into())
    );
    assert_eq!(
        err(r#"{"jsonrpc":"2.0","id":1,"method":""}"#),
        (ErrorKind::InvalidValue, "/method".into())
    );
    assert_eq!(
        err(r#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#),
        (ErrorKind::WrongType, "/params".into())
    );
    assert_eq!(
        err(r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":1}}"#),
        (ErrorKind::WrongType, "/params/_meta".into())
    );
    assert_eq!(
        err(
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":[]}}}"#
        ),
        (
            ErrorKind::WrongType,
            "/params/_meta/io.modelcontextprotocol~1clientCapabilities".into()
        )
    );
    let ok = ClientRequest::from_json(br#"{"jsonrpc":"2.0","id":"1.0","method":"m"}"#, &limits())
        .unwrap();
    assert_eq!(ok.id(), &RpcId::from("1.0"));
    assert_eq!(ok.method(), "m");
    assert!(ok.params().is_none());
    let integral =
        ClientRequest::from_json(br#"{"jsonrpc":"2.0","id":1e3,"method":"m"}"#, &limits()).unwrap();
    assert_eq!(
        integral.to_json(),
        r#"{"jsonrpc":"2.0","id":1e3,"method":"m"}"#
    );
}

#[test]
fn stamping_sets_elicitation_and_keeps_the_rest() {
    let stamp = |text: &str, modes: Modes| {
        with_client_capabilities(text.as_bytes(), modes, &limits()).unwrap()
    };
    assert_eq!(
        stamp(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            Modes::ALL
        ),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}}}}"#
    );
    assert_eq!(
        stamp(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#,
            Modes::FORM
        ),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}},"name":"x"}}"#
    );
    assert_eq!(
        stamp(
            r#"{"params":{"name":"x","_meta":{"progressToken":7,"io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{"form":{},"extra":1},"roots":{}},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}},"method":"tools/call","id":"a","jsonrpc":"2.0"}"#,
            Modes::URL
        ),
        r#"{"params":{"name":"x","_meta":{"progressToken":7,"io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{"url":{}},"roots":{}},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}},"method":"tools/call","id":"a","jsonrpc":"2.0"}"#
    );
    assert_eq!(
        stamp(
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"roots":{}}}}}"#,
            Modes::new(false, false)
        ),
        r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}}"#
    );
    // `null` counts as absent and is replaced in its place.
    assert_eq!(
        stamp(
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":null,"x":0}"#,
            Modes::FORM
        ),
        r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}},"x":0}"#
    );
    assert_eq!(
        stamp(
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"_meta":null}}"#,
            Modes::FORM
        ),
        r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}},"a":1}}"#
    );
}

#[test]
fn a_form_conversation_ends_in_the_exact_retry() {
    let (mut round, requests) = start(&response(&[("region", FORM)], Some("opaque")));
    assert_eq!(requests.len(), 1);
    let (key, request) = requests.first().unwrap();
    assert_eq!(key, "region");
    assert_eq!(request.id(), "elc-0-1");
    assert_eq!(request.kind(), "input");
    assert_eq!(round.missing(), ["region"]);
    assert_eq!(round.pending().len(), 1);

    let bad = answer(r#"{"id":"elc-0-1","ok":true,"data":{"region":"mars"}}"#);
    assert_eq!(
        round.resolve(&bad, 1).unwrap_err().kind(),
        ErrorKind::InvalidContent
    );
    assert_eq!(round.missing(), ["region"]);

    let good = answer(r#"{"id":"elc-0-1","ok":true,"data":{"region":"eu"}}"#);
    let (key, result) = round.resolve(&good, 2).unwrap();
    assert_eq!(key, "region");
    assert_eq!(
        result.to_json(),
        r#"{"action":"accept","content":{"region":"eu"}}"#
    );
    assert!(round.missing().is_empty());
    assert!(round.pending().is_empty());
    assert_eq!(
        round.retry(&id(2), false).unwrap(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},"name":"deploy","arguments":{"env":"prod"},"inputResponses":{"region":{"action":"accept","content":{"region":"eu"}}},"requestState":"opaque"}}"#
    );
}

#[test]
fn responses_keep_the_order_of_input_requests() {
    let (mut round, requests) = start(&response(
        &[("first", FORM), ("ai", SAMPLING), ("login", URL)],
        None,
    ));
    let keys: Vec<&str> = requests.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["first", "login"]);
    assert_eq!(requests.get(1).unwrap().1.id(), "elc-0-2");
    let unhandled: Vec<(&str, &str)> = round
        .unhandled()
        .iter()
        .map(|r| (r.key(), r.method()))
        .collect();
    assert_eq!(unhandled, [("ai", "sampling/createMessage")]);

    round
        .resolve(&answer(r#"{"id":"elc-0-2","ok":true}"#), 0)
        .unwrap();
    round
        .supply(
            "ai",
            json::parse_str(
                r#"{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}"#,
                &limits(),
            )
            .unwrap(),
        )
        .unwrap();
    round
        .resolve(
            &answer(r#"{"id":"elc-0-1","ok":false,"reason":"declined"}"#),
            0,
        )
        .unwrap();
    let text = round.retry(&RpcId::from("r2"), false).unwrap();
    assert!(text.contains(r#""inputResponses":{"first":{"action":"decline"},"ai":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"},"login":{"action":"accept"}}}}"#), "{text}");
    assert!(!text.contains("requestState"));
}

#[test]
fn missing_responses_are_named_unless_partial() {
    let (mut round, _) = start(&response(&[("a", FORM), ("b", SAMPLING)], Some("s")));
    let err = round.retry(&id(2), false).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingResponses);
    assert!(err.message().contains(r#""a", "b""#), "{}", err.message());
    round
        .resolve(
            &answer(r#"{"id":"elc-0-1","ok":true,"data":{"region":"us"}}"#),
            0,
        )
        .unwrap();
    assert_eq!(round.missing(), ["b"]);
    assert_eq!(
        round.retry(&id(2), false).unwrap_err().kind(),
        ErrorKind::MissingResponses
    );
    let text = round.retry(&id(2), true).unwrap();
    assert!(text.ends_with(r#""inputResponses":{"a":{"action":"accept","content":{"region":"us"}}},"requestState":"s"}}"#), "{text}");

    let (mut nothing, _) = start(&response(&[("a", FORM)], None));
    assert_eq!(
        nothing.retry(&id(2), true).unwrap(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},"name":"deploy","arguments":{"env":"prod"}}}"#
    );
}

#[test]
fn request_state_alone_allows_an_immediate_retry() {
    let state = "\u{0}\"\\/\u{2028}é\u{1F600} \t~";
    let (mut round, requests) = start(&response(&[], Some(state)));
    assert!(requests.is_empty());
    assert!(round.missing().is_empty());
    assert_eq!(round.request_state(), Some(state));
    let text = round.retry(&id(2), false).unwrap();
    let back = json::parse_str(&text, &limits()).unwrap();
    let params = back.get("params").unwrap();
    assert_eq!(
        params.get("requestState").and_then(Value::as_str),
        Some(state)
    );
    assert!(params.get("inputResponses").is_none());
}

#[test]
fn retry_ids_must_be_new() {
    let (mut round, _) = start(&response(&[], Some("s")));
    for used in [id(1), number("1.0"), number("10e-1")] {
        let err = round.retry(&used, false).unwrap_err();
        assert_eq!((err.kind(), err.pointer()), (ErrorKind::InvalidValue, ""));
    }
    // The variant is open to construction, so a fraction can still arrive.
    assert_eq!(
        round.retry(&number("2.5"), false).unwrap_err().kind(),
        ErrorKind::InvalidValue
    );
    // A string is never the number it spells.
    assert!(round.retry(&RpcId::from("1"), false).is_ok());
    assert_eq!(
        round.retry(&RpcId::from("1"), false).unwrap_err().kind(),
        ErrorKind::InvalidValue
    );
    assert!(
        round
            .retry(&number("2.0"), false)
            .unwrap()
            .contains(r#""id":2.0,"#)
    );
}

#[test]
fn a_response_to_another_request_is_refused() {
    let text = response(&[], Some("s")).replace(r#""id":1"#, r#""id":"other""#);
    let err = InputRound::start(call(), input(&text), SessionOptions::DEFAULT, 0).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidValue, "/id")
    );
    let same = response(&[], Some("s")).replace(r#""id":1"#, r#""id":1.0"#);
    assert!(InputRound::start(call(), input(&same), SessionOptions::DEFAULT, 0).is_ok());
}

#[test]
fn the_session_refuses_modes_the_host_lacks() {
    let err = InputRound::start(
        call(),
        input(&response(&[("ok", FORM), ("login", URL)], None)),
        SessionOptions::DEFAULT.with_modes(Modes::FORM),
        0,
    )
    .unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (
            ErrorKind::ModeNotSupported,
            "/result/inputRequests/login/params/mode"
        )
    );
    let err = InputRound::start(
        call(),
        input(&response(&[("a", FORM), ("b", FORM)], None)),
        SessionOptions::DEFAULT.with_max_pending(1),
        0,
    )
    .unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::TooManyPending, "/result/inputRequests/b/params")
    );
}

#[test]
fn the_retry_declares_the_session_modes() {
    let (mut round, _) = InputRound::start(
        call(),
        input(&response(&[], Some("s"))),
        SessionOptions::DEFAULT.with_modes(Modes::FORM),
        0,
    )
    .unwrap();
    assert!(
        round.retry(&id(2), false).unwrap().contains(
            r#""io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}"#
        )
    );
}

#[test]
fn supply_is_for_unhandled_keys_only() {
    let (mut round, _) = start(&response(
        &[("a", FORM), ("roots", r#"{"method":"roots/list"}"#)],
        None,
    ));
    let obj = json::parse_str(r#"{"roots":[]}"#, &limits()).unwrap();
    assert_eq!(
        round.supply("zz", obj.clone()).unwrap_err().kind(),
        ErrorKind::UnknownRequest
    );
    assert_eq!(
        round.supply("a", obj.clone()).unwrap_err().kind(),
        ErrorKind::InvalidValue
    );
    assert_eq!(
        round.supply("roots", Value::from(1u64)).unwrap_err().kind(),
        ErrorKind::WrongType
    );
    round.supply("roots", Value::Object(Map::new())).unwrap();
    round.supply("roots", obj).unwrap();
    assert_eq!(round.missing(), ["a"]);
    assert!(round.unhandled().first().unwrap().params().is_none());
    let text = round.retry(&id(5), true).unwrap();
    assert!(
        text.contains(r#""inputResponses":{"roots":{"roots":[]}}"#),
        "{text}"
    );
}

#[test]
fn expiry_and_dismissal_answer_cancel() {
    let options = SessionOptions::DEFAULT.with_ttl_ms(Some(100));
    let (mut round, requests) = InputRound::start(
        call(),
        input(&response(&[("a", FORM), ("b", URL), ("c", FORM)], None)),
        options,
        1000,
    )
    .unwrap();
    assert_eq!(
        requests.first().unwrap().1.expires_at(),
        Some("1970-01-01T00:00:01.100Z")
    );
    round
        .resolve(&answer(r#"{"id":"elc-3e8-2","ok":true}"#), 1050)
        .unwrap();
    let lapsed = round.expire(1101);
    let keys: Vec<&str> = lapsed.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["a", "c"]);
    assert!(
        lapsed
            .iter()
            .all(|(_, r)| r.action() == crate::Action::Cancel)
    );
    assert!(round.missing().is_empty());
    assert!(round.cancel_pending().is_empty());

    let (mut round, _) = start(&response(&[("x", FORM), ("y", FORM)], None));
    let cancelled = round.cancel_pending();
    assert_eq!(cancelled.len(), 2);
    assert!(
        round
            .retry(&id(2), false)
            .unwrap()
            .contains(r#""inputResponses":{"x":{"action":"cancel"},"y":{"action":"cancel"}}"#)
    );
}

#[test]
fn a_second_round_follows_the_retry() {
    let (mut first, _) = start(&response(&[("a", FORM)], Some("one")));
    assert!(
        first
            .next_round(input(&response(&[], Some("s"))), 0)
            .is_err()
    );
    first
        .resolve(
            &answer(r#"{"id":"elc-0-1","ok":true,"data":{"region":"eu"}}"#),
            0,
        )
        .unwrap();
    first.retry(&id(2), false).unwrap();

    // The server's answer to the retry must carry the retry's id.
    let stale = input(&response(&[("b", FORM)], None));
    let err = first.next_round(stale, 0).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidValue, "/id")
    );

    let again = input(&response(&[("b", FORM)], None).replace(r#""id":1"#, r#""id":2"#));
    let (mut second, requests) = first.next_round(again, 0).unwrap();
    assert_eq!(requests.first().unwrap().1.id(), "elc-0-2");
    assert_eq!(second.answered_id(), &id(2));
    second
        .resolve(
            &answer(r#"{"id":"elc-0-2","ok":true,"data":{"region":"us"}}"#),
            0,
        )
        .unwrap();
    assert_eq!(
        second.retry(&id(1), false).unwrap_err().kind(),
        ErrorKind::InvalidValue
    );
    assert_eq!(
        second.retry(&id(2), false).unwrap_err().kind(),
        ErrorKind::InvalidValue
    );
    // The first round's responses and state are not carried over.
    assert_eq!(
        second.retry(&id(3), false).unwrap(),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},"name":"deploy","arguments":{"env":"prod"},"inputResponses":{"b":{"action":"accept","content":{"region":"us"}}}}}"#
    );
}

#[test]
fn stale_responses_in_the_given_request_are_dropped() {
    let retried = ClientRequest::from_json(
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","inputResponses":{"old":{"action":"cancel"}},"requestState":"old"}}"#,
        &limits(),
    )
    .unwrap();
    let reply = input(&response(&[], Some("new")).replace(r#""id":1"#, r#""id":2"#));
    let (mut round, _) = InputRound::start(retried, reply, SessionOptions::DEFAULT, 0).unwrap();
    assert_eq!(
        round.retry(&id(3), false).unwrap(),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},"name":"x","requestState":"new"}}"#
    );
}

#[test]
fn result_values_write_as_the_result_does() {
    let mut content = Map::new();
    content.insert("n", number("1.50").to_value());
    let mut meta = Map::new();
    meta.insert("k", Value::from("v"));
    for result in [
        ElicitResult::accept(Some(Content::from_map(content).unwrap())).with_meta(meta),
        ElicitResult::accept(None),
        ElicitResult::decline(),
        ElicitResult::cancel(),
    ] {
        assert_eq!(elicit_result_value(&result).to_json(), result.to_json());
    }
}

proptest! {
    #[test]
    fn never_panics_on_any_text(text in "\\PC{0,200}") {
        let _ = ServerResult::from_json(text.as_bytes(), &limits());
        let _ = with_client_capabilities(text.as_bytes(), Modes::ALL, &limits());
    }

    #[test]
    fn never_panics_on_any_entry(entry in "[{}\\[\\]\":,a-z0-9/ ]{0,80}", state in "\\PC{0,20}") {
        let text = response(&[("k", &entry)], Some(&state));
        if let Ok(reply) = InputRequired::from_json(text.as_bytes(), &limits())
            && let Ok((mut round, _)) = InputRound::start(call(), reply, SessionOptions::DEFAULT, 0) {
                let _ = round.retry(&id(2), true).map(|t| t.to_string());
            }
    }
}

#[test]
fn a_round_from_a_result_alone_gives_its_input_responses() {
    let input = InputRequired::from_json(
        response(&[("region", FORM), ("llm", SAMPLING)], Some("opaque=1")).as_bytes(),
        &limits(),
    )
    .unwrap();
    let (mut round, requests) = InputRound::for_result(input, SessionOptions::DEFAULT, 0).unwrap();
    assert_eq!(requests.len(), 1);
    let id = requests[0].1.id().to_string();
    // Nothing answered yet: refused unless partial.
    assert_eq!(
        round.input_responses(false).unwrap_err().kind(),
        ErrorKind::MissingResponses
    );
    let answer = Answer::from_json(
        format!(r#"{{"id":"{id}","ok":true,"data":{{"region":"eu"}}}}"#).as_bytes(),
        &limits(),
    )
    .unwrap();
    round.resolve(&answer, 0).unwrap();
    round
        .supply(
            "llm",
            json::parse_str(r#"{"role":"assistant"}"#, &limits()).unwrap(),
        )
        .unwrap();
    assert_eq!(
        Value::Object(round.input_responses(false).unwrap()).to_json(),
        r#"{"inputResponses":{"region":{"action":"accept","content":{"region":"eu"}},"llm":{"role":"assistant"}},"requestState":"opaque=1"}"#
    );
    // It holds no request, so it writes no retry.
    assert_eq!(
        round.retry(&RpcId::from(2), false).unwrap_err().kind(),
        ErrorKind::InvalidValue
    );
}
