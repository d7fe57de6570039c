//! The examples of the specification's two seed documents, written against the Rust API.

use toolnexus_core::{
    Action, Answer, ElicitRequestParams, ElicitResult, Limits, Map, Reason, Request, Value,
    answer_to_elicit_result, elicitation_to_request, id,
};

fn object(members: &[(&str, Value)]) -> Map {
    members.iter().cloned().collect()
}

/// Seed 1, example 1: form mode maps to `kind:"input"` with the schema.
#[test]
fn form_mode_maps_to_input_with_the_schema() {
    let schema = object(&[
        ("type", "object".into()),
        (
            "properties",
            object(&[("name", object(&[("type", "string".into())]).into())]).into(),
        ),
        ("required", Value::Array(vec!["name".into()])),
    ]);
    let params = ElicitRequestParams::form("Your name?", schema.clone());

    let req = elicitation_to_request(&params, &id::next_id()).unwrap();

    assert_eq!(req.kind(), "input");
    assert_eq!(req.prompt(), "Your name?");
    assert_eq!(req.url(), None, "form mode carries no url");
    assert_eq!(req.schema(), Some(&schema), "schema not carried through");
    assert!(req.id().starts_with("elc-"));
    println!("ok: {} — {}", req.kind(), req.prompt());
}

/// Seed 1, example 2: URL mode maps to `kind:"authorization"` with the URL.
#[test]
fn url_mode_maps_to_authorization_with_the_url() {
    let params =
        ElicitRequestParams::url("Log in to continue", "https://example.com/auth").unwrap();

    let req = elicitation_to_request(&params, &id::next_id()).unwrap();

    assert_eq!(req.kind(), "authorization");
    assert_eq!(req.url(), Some("https://example.com/auth"));
    assert_eq!(req.data(), None, "url mode carries no schema");
    println!("ok: {} -> {}", req.kind(), req.url().unwrap_or_default());
}

/// Seed 1, example 3: an answer round-trips to accept / decline / cancel.
#[test]
fn answers_round_trip_to_accept_decline_cancel() {
    let accept =
        answer_to_elicit_result(&Answer::accept("1", object(&[("name", "Ada".into())])).unwrap())
            .unwrap();
    assert_eq!(accept.action(), Action::Accept);
    let name = accept.content().and_then(|c| c.as_map().get("name"));
    assert_eq!(
        name.and_then(Value::as_str),
        Some("Ada"),
        "content not carried through"
    );

    let declined =
        answer_to_elicit_result(&Answer::refuse("1", Reason::Declined).unwrap()).unwrap();
    assert_eq!(declined.action(), Action::Decline);

    // Anything that isn't an explicit "declined" reason — including no reason at all — is a cancel.
    let expired = answer_to_elicit_result(&Answer::refuse("1", Reason::Expired).unwrap()).unwrap();
    let no_reason = answer_to_elicit_result(&Answer::new("1", false).unwrap()).unwrap();
    assert_eq!(
        (expired.action(), no_reason.action()),
        (Action::Cancel, Action::Cancel)
    );

    println!(
        "ok: {} / {} / {}",
        accept.action().as_str(),
        declined.action().as_str(),
        expired.action().as_str()
    );
}

/// Seed 2: the two ElicitResult examples, read and written back; content only on accept.
#[test]
fn elicit_result_examples_and_content_only_on_accept() {
    let accepted = ElicitResult::from_json(
        br#"{ "action": "accept", "content": { "confirm": true } }"#,
        &Limits::DEFAULT,
    )
    .unwrap();
    assert_eq!(accepted.action(), Action::Accept);
    assert_eq!(
        accepted.to_json(),
        r#"{"action":"accept","content":{"confirm":true}}"#
    );

    let cancelled =
        ElicitResult::from_json(br#"{ "action": "cancel" }"#, &Limits::DEFAULT).unwrap();
    assert_eq!(cancelled.content(), None, "cancel carries no content");
    assert_eq!(cancelled.to_json(), r#"{"action":"cancel"}"#);

    // Content is omitted, not null, on decline and cancel even when the answer had data.
    let answer = Answer::new("1", false)
        .unwrap()
        .with_data(object(&[("confirm", true.into())]));
    assert_eq!(
        answer_to_elicit_result(&answer).unwrap().to_json(),
        r#"{"action":"cancel"}"#
    );
}

/// The Request keeps its pinned key order however it is built.
#[test]
fn request_keys_are_pinned() {
    let req = Request::new("r", "approval", "Approve the trade?")
        .unwrap()
        .with_expires_at("2026-12-01T00:00:00Z")
        .unwrap()
        .with_data(object(&[("amount", Value::from(250u64))]))
        .with_url("https://example.com/approve");
    assert_eq!(
        req.to_json(),
        r#"{"id":"r","kind":"approval","prompt":"Approve the trade?","url":"https://example.com/approve","data":{"amount":250},"expiresAt":"2026-12-01T00:00:00Z"}"#
    );
}
