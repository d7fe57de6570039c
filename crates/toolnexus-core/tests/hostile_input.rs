//! Untrusted input never panics the core — contract types, schemas, links and every wire
//! form — and the JSON reader agrees with serde_json.

// A failed check is meant to stop the test: its helpers, not only its `#[test]`s, may panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use toolnexus_core::wire::mrtr::ClientRequest;
use toolnexus_core::{
    Answer, ElicitRequestParams, ElicitResult, InputRequired, InputRound, Limits, Request,
    ReverseBridge, ServerResult, SessionOptions, answer_to_elicit_result, check_schema,
    elicitation_to_request, form_fields, json, review_url,
};

/// A client request for multi round-trip inputs to answer.
const CALL: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#;

/// Every entry point that takes untrusted bytes, run on `input`; returns whether any accepted.
fn feed_everything(input: &[u8]) -> bool {
    let limits = Limits::DEFAULT;
    let mut accepted = false;
    if let Ok(params) = ElicitRequestParams::from_json(input, &limits) {
        accepted = true;
        let _ = params.message();
        if let ElicitRequestParams::Form(form) = &params {
            let _ = form.schema();
        }
        let _ = elicitation_to_request(&params, "id").map(|r| r.to_json());
    }
    if let Ok(answer) = Answer::from_json(input, &limits) {
        accepted = true;
        let _ = answer_to_elicit_result(&answer).map(|r| r.to_json());
        let _ = answer.to_json();
    }
    if let Ok(request) = Request::from_json(input, &limits) {
        accepted = true;
        let _ = request.to_json();
    }
    if let Ok(result) = ElicitResult::from_json(input, &limits) {
        accepted = true;
        let _ = result.to_json();
    }
    if let Ok(value) = json::parse(input, &limits) {
        let _ = check_schema(&value);
        if let Ok(schema) = toolnexus_core::schema::RequestedSchema::from_value(&value) {
            let _ = form_fields(&schema);
        }
    }
    if let Ok(text) = core::str::from_utf8(input) {
        let _ = review_url(text).to_value().to_json();
    }
    // The wire: a server's message to the 2025 bridge, and a server's result to a round.
    let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
    let _ = bridge.receive(input, 0, &limits);
    let _ = bridge.url_required(input, 0, &limits);
    let _ = ServerResult::from_json(input, &limits);
    let _ = ClientRequest::from_json(input, &limits);
    if let (Ok(request), Ok(result)) = (
        ClientRequest::from_json(CALL, &limits),
        InputRequired::from_json(input, &limits),
    ) && let Ok((mut round, _)) = InputRound::start(request, result, SessionOptions::DEFAULT, 0)
    {
        let _ = round.retry(&toolnexus_core::RpcId::from("retry"), true);
    }
    accepted
}

/// serde_json refuses numbers beyond `f64`'s range; RFC 8259 and this crate, which keeps every
/// number as spelt, read them. That is the one place the two readers are meant to differ.
fn beyond_f64(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("number out of range")
}

/// JSON text of nested values with keys unique per object, as serde_json would read it.
fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        any::<bool>().prop_map(|b| b.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{1,12})?([eE][+-]?[0-9]{1,3})?",
        any::<String>().prop_map(|s| serde_json::to_string(&s).unwrap()),
        // Escapes of every kind, pairs included.
        "(\\\\[\"\\\\/bfnrt]|\\\\u00[0-1][0-9a-fA-F]|\\\\ud83d\\\\ude00|[a-z ])*"
            .prop_map(|s| format!("\"{s}\"")),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8)
                .prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::btree_map("[a-zA-Z0-9_/~]{0,6}", inner, 0..8).prop_map(|members| {
                let body: Vec<String> = members
                    .into_iter()
                    .map(|(k, v)| format!("{}:{v}", serde_json::to_string(&k).unwrap()))
                    .collect();
                format!("{{ {} }}", body.join(" , "))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(input in prop::collection::vec(any::<u8>(), 0..256)) {
        feed_everything(&input);
    }

    #[test]
    fn arbitrary_text_never_panics(input in "[\\[\\]{}\":,\\\\a-z0-9 .eE+\\-]{0,128}") {
        feed_everything(input.as_bytes());
    }

    #[test]
    fn reader_agrees_with_serde_json(text in json_text()) {
        let ours = json::parse_str(&text, &Limits::DEFAULT);
        let theirs: Result<serde_json::Value, _> = serde_json::from_str(&text);
        match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => {
                // Same meaning: our compact output reads back, in serde_json, as its own reading.
                let back: serde_json::Value = serde_json::from_str(&ours.to_json()).unwrap();
                prop_assert_eq!(back, theirs);
                // And writing is stable: reading our output again gives the same bytes.
                let again = json::parse_str(&ours.to_json(), &Limits::DEFAULT).unwrap();
                prop_assert_eq!(again.to_json(), ours.to_json());
            }
            (Err(e), Ok(_)) => prop_assert!(false, "refused what serde_json reads: {e}"),
            (Ok(_), Err(e)) if beyond_f64(&e) => {}
            (Ok(v), Err(e)) => prop_assert!(false, "accepted {v} which serde_json refuses: {e}"),
            (Err(_), Err(_)) => {}
        }
    }

    #[test]
    fn mutated_json_never_panics_and_accepts_only_json(
        text in json_text(),
        cut in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = text.into_bytes();
        if !bytes.is_empty() {
            let at = cut.index(bytes.len());
            bytes[at] = byte;
        }
        feed_everything(&bytes);
        if json::parse(&bytes, &Limits::DEFAULT).is_ok()
            && let Err(e) = serde_json::from_slice::<serde_json::Value>(&bytes) {
                prop_assert!(beyond_f64(&e), "accepted what serde_json refuses: {e}");
            }
    }
}

#[test]
fn deep_and_huge_inputs_are_refused_not_crashed() {
    let deep_arrays = "[".repeat(100_000) + &"]".repeat(100_000);
    assert!(!feed_everything(deep_arrays.as_bytes()));
    let deep_objects = r#"{"a":"#.repeat(100_000) + "1" + &"}".repeat(100_000);
    assert!(!feed_everything(deep_objects.as_bytes()));
    let huge = format!(r#"{{"id":"{}","ok":true}}"#, "a".repeat(50 * 1024 * 1024));
    assert!(!feed_everything(huge.as_bytes()));
    // At the depth ceiling, reading, writing and dropping stay within a bounded stack: under
    // 256 KiB in a release build; an unoptimised test build needs some 2 MiB.
    let limits = Limits::DEFAULT.with_max_depth(usize::MAX);
    assert_eq!(limits.max_depth(), Limits::DEPTH_CEILING);
    let handle = std::thread::Builder::new()
        .stack_size(4 * 1024 * 1024)
        .spawn(move || {
            let deepest = "[".repeat(Limits::DEPTH_CEILING) + &"]".repeat(Limits::DEPTH_CEILING);
            let value = json::parse_str(&deepest, &limits).unwrap();
            assert_eq!(value.to_json(), deepest);
            let deeper =
                "[".repeat(Limits::DEPTH_CEILING + 1) + &"]".repeat(Limits::DEPTH_CEILING + 1);
            assert!(json::parse_str(&deeper, &limits).is_err());
        })
        .unwrap();
    handle.join().unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_wire_messages_never_panic(
        seed in prop::sample::select(WIRE_SEEDS.to_vec()),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = seed.as_bytes().to_vec();
        for (at, byte) in edits {
            let at = at.index(bytes.len());
            bytes[at] = byte;
        }
        feed_everything(&bytes);
    }
}

/// Well-formed messages of every wire form, for mutations to start from.
const WIRE_SEEDS: [&str; 5] = [
    r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string","minLength":1}},"required":["n"]}}}"#,
    r#"{"jsonrpc":"2.0","id":"u","method":"elicitation/create","params":{"mode":"url","message":"Log in","url":"https://example.com/","elicitationId":"e1"}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e1"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"URL required","data":{"elicitations":[{"mode":"url","message":"Log in","url":"https://example.com/","elicitationId":"e2"}]}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"Age?","requestedSchema":{"type":"object","properties":{"age":{"type":"integer"}}}}},"b":{"method":"roots/list"}},"requestState":"s"}}"#,
];
