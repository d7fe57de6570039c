//! Snapshots of a round: what they hold, what a restore gives back, and every refusal.

use alloc::string::String;
use alloc::vec::Vec;

use super::*;
use crate::contract::{Answer, Request};
use crate::session::SessionOptions;

const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"}}}"#;

const RESULT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"region":{"method":"elicitation/create","params":{"message":"Region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]},"replicas":{"type":"integer","minimum":1}},"required":["region"]}}},"login":{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e-1"}},"model":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}},"requestState":"opaque \"state\" ☃"}}"#;

const KEY: &[u8] = b"k-2026: a seal key of 32 bytes or more";
const PREVIOUS: &[u8] = b"k-2025: a seal key of 32 bytes or more";
const NEXT: &[u8] = b"k-2027: a seal key of 32 bytes or more";

fn limits() -> Limits {
    Limits::DEFAULT
}

fn start(options: SessionOptions) -> (InputRound, Vec<(String, Request)>) {
    let call = ClientRequest::from_json(CALL.as_bytes(), &limits()).unwrap();
    let input = InputRequired::from_json(RESULT.as_bytes(), &limits()).unwrap();
    InputRound::start(call, input, options, 1_000).unwrap()
}

fn answer(json: &str) -> Answer {
    Answer::from_json(json.as_bytes(), &limits()).unwrap()
}

fn id_of(requests: &[(String, Request)], key: &str) -> String {
    let (_, request) = requests.iter().find(|(k, _)| k == key).unwrap();
    String::from(request.id())
}

/// The round and a copy of it through a snapshot, sealed or not.
fn through_snapshot(round: &InputRound, key: Option<&[u8]>) -> InputRound {
    let snapshot = round.snapshot(key).unwrap();
    let keys: Vec<&[u8]> = key.into_iter().collect();
    InputRound::restore(&snapshot, &keys, &limits(), 2_000).unwrap()
}

/// Whatever can be asked of a round, compared.
fn assert_same(a: &InputRound, b: &InputRound) {
    assert_eq!(a.pending(), b.pending());
    assert_eq!(a.missing(), b.missing());
    assert_eq!(a.unhandled(), b.unhandled());
    assert_eq!(a.request_state(), b.request_state());
    assert_eq!(a.answered_id(), b.answered_id());
    assert_eq!(
        a.input_responses(true).unwrap(),
        b.input_responses(true).unwrap()
    );
    assert_eq!(a.session().options(), b.session().options());
    assert_eq!(
        a.session().awaiting_completion(),
        b.session().awaiting_completion()
    );
    // Writing it down again gives the same bytes.
    assert_eq!(a.snapshot(None).unwrap(), b.snapshot(None).unwrap());
}

#[test]
fn a_restored_round_behaves_as_the_original_at_every_step() {
    let options = SessionOptions::DEFAULT.with_ttl_ms(Some(600_000));
    let (mut round, requests) = start(options);
    let region = id_of(&requests, "region");
    let login = id_of(&requests, "login");
    for key in [None, Some(KEY)] {
        assert_same(&round, &through_snapshot(&round, key));
    }

    // A refused answer leaves the request pending, in both.
    let bad = answer(&format!(
        r#"{{"id":"{region}","ok":true,"data":{{"region":"eu","replicas":0}}}}"#
    ));
    let mut restored = through_snapshot(&round, Some(KEY));
    assert_eq!(
        round.resolve(&bad, 3_000).unwrap_err(),
        restored.resolve(&bad, 3_000).unwrap_err()
    );
    assert_same(&round, &restored);

    // The form answered, the URL consented to, the sampling supplied: step by step.
    let good = answer(&format!(
        r#"{{"id":"{region}","ok":true,"data":{{"region":"eu","replicas":2}}}}"#
    ));
    assert_eq!(
        round.resolve(&good, 3_000).unwrap(),
        restored.resolve(&good, 3_000).unwrap()
    );
    let mut restored = through_snapshot(&round, None);
    assert_same(&round, &restored);
    let consent = answer(&format!(r#"{{"id":"{login}","ok":true}}"#));
    assert_eq!(
        round.resolve(&consent, 3_000).unwrap(),
        restored.resolve(&consent, 3_000).unwrap()
    );
    let mut restored = through_snapshot(&round, Some(KEY));
    assert_same(&round, &restored);
    assert_eq!(restored.session().awaiting_completion().len(), 1);
    // An answer already given is refused the same way.
    assert_eq!(
        round.resolve(&good, 3_000).unwrap_err(),
        restored.resolve(&good, 3_000).unwrap_err()
    );
    assert_eq!(
        round.retry(&RpcId::from(2), false).unwrap_err(),
        restored.retry(&RpcId::from(2), false).unwrap_err()
    );
    let result = Value::from(Map::from_iter([(
        String::from("role"),
        Value::from("assistant"),
    )]));
    round.supply("model", result.clone()).unwrap();
    restored.supply("model", result).unwrap();
    let mut restored = through_snapshot(&restored, None);
    assert_same(&round, &restored);

    // The retry, byte for byte; then a used id is refused by both.
    let retry = round.retry(&RpcId::from(2), false).unwrap();
    assert_eq!(retry, restored.retry(&RpcId::from(2), false).unwrap());
    let restored = through_snapshot(&restored, Some(KEY));
    assert_same(&round, &restored);
    let mut again = restored.clone();
    assert_eq!(
        round.clone().retry(&RpcId::from(1), false).unwrap_err(),
        again.retry(&RpcId::from(1), false).unwrap_err()
    );
    // The next round follows on from either, with the same ids.
    let next = InputRequired::from_json(
        br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"ok":{"method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}}}}"#,
        &limits(),
    )
    .unwrap();
    let (a, a_requests) = round.next_round(next.clone(), 4_000).unwrap();
    let (b, b_requests) = restored.next_round(next, 4_000).unwrap();
    assert_eq!(a_requests, b_requests);
    assert_same(&a, &b);
}

#[test]
fn the_document_holds_what_was_asked_and_what_was_confirmed() {
    let (mut round, requests) = start(SessionOptions::DEFAULT);
    let region = id_of(&requests, "region");
    let typed = answer(&format!(
        r#"{{"id":"{region}","ok":true,"data":{{"region":"eu","replicas":0}}}}"#
    ));
    round.resolve(&typed, 1_000).unwrap_err();
    let text = String::from_utf8(round.snapshot(None).unwrap()).unwrap();
    assert!(
        !text.contains("replicas\":0"),
        "content not yet sent is never written: {text}"
    );
    assert_eq!(
        text,
        format!(
            r#"{{"snapshot":"input-round","version":1,"options":{{"modes":["form","url"],"maxPending":64,"applyDefaults":false,"allowUnknown":false,"rejectSecrets":false}},"beganAtMs":1000,"firstSequence":1,"request":{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"deploy","arguments":{{"env":"prod"}}}}}},"answeredId":1,"sentIds":[1],"input":{{"resultType":"input_required","inputRequests":{{"region":{{"method":"elicitation/create","params":{{"message":"Region?","requestedSchema":{{"type":"object","properties":{{"region":{{"type":"string","enum":["eu","us"]}},"replicas":{{"type":"integer","minimum":1}}}},"required":["region"]}}}}}},"login":{{"method":"elicitation/create","params":{{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e-1"}}}},"model":{{"method":"sampling/createMessage","params":{{"messages":[],"maxTokens":10}}}}}},"requestState":"opaque \"state\" ☃"}},"requestIds":{{"region":"{region}","login":"{}"}},"responses":{{}}}}"#,
            id_of(&requests, "login")
        )
    );
}

#[test]
fn a_round_of_a_result_alone_restores_without_a_request() {
    let input = InputRequired::from_json(RESULT.as_bytes(), &limits()).unwrap();
    let (round, _) = InputRound::for_result(input, SessionOptions::DEFAULT, 5).unwrap();
    let restored = through_snapshot(&round, None);
    assert_same(&round, &restored);
    assert_eq!(
        round.clone().retry(&RpcId::from(2), true).unwrap_err(),
        restored.clone().retry(&RpcId::from(2), true).unwrap_err()
    );
}

#[test]
fn a_round_says_until_when_its_snapshot_restores() {
    // No expiry of its own: a day after the round began, and not a moment longer.
    let (round, _) = start(SessionOptions::DEFAULT);
    let until = round.restorable_until_ms();
    assert_eq!(until, 1_000 + ROUND_LIFETIME_MS);
    let snapshot = round.snapshot(None).unwrap();
    assert!(InputRound::restore(&snapshot, &[], &limits(), until).is_ok());
    let late = InputRound::restore(&snapshot, &[], &limits(), until + 1).unwrap_err();
    assert_eq!(late.kind(), ErrorKind::Expired);
    // With a time to live: the earliest expiry of a pending request.
    let (round, _) = start(SessionOptions::DEFAULT.with_ttl_ms(Some(500)));
    let until = round.restorable_until_ms();
    assert_eq!(until, 1_500);
    let snapshot = round.snapshot(None).unwrap();
    assert!(InputRound::restore(&snapshot, &[], &limits(), until).is_ok());
    let late = InputRound::restore(&snapshot, &[], &limits(), until + 1).unwrap_err();
    assert_eq!(late.kind(), ErrorKind::Expired);
}

#[test]
fn a_restore_after_the_earliest_expiry_is_refused() {
    let (round, _) = start(SessionOptions::DEFAULT.with_ttl_ms(Some(500)));
    let snapshot = round.snapshot(Some(KEY)).unwrap();
    assert!(InputRound::restore(&snapshot, &[KEY], &limits(), 1_500).is_ok());
    let error = InputRound::restore(&snapshot, &[KEY], &limits(), 1_501).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (ErrorKind::Expired, "/expiresAtMs")
    );
    // With nothing pending, nothing can lapse.
    let (mut round, requests) = start(SessionOptions::DEFAULT.with_ttl_ms(Some(500)));
    round.cancel_pending();
    let _ = requests;
    let snapshot = round.snapshot(None).unwrap();
    assert!(InputRound::restore(&snapshot, &[], &limits(), 99_999).is_ok());
}

#[test]
fn seals_are_checked_and_keys_rotate() {
    let (round, _) = start(SessionOptions::DEFAULT);
    let sealed = round.snapshot(Some(KEY)).unwrap();
    let refused = |snapshot: &[u8], keys: &[&[u8]]| {
        InputRound::restore(snapshot, keys, &limits(), 0)
            .unwrap_err()
            .kind()
    };
    assert_eq!(refused(&sealed, &[]), ErrorKind::InvalidSeal);
    assert_eq!(
        refused(&round.snapshot(None).unwrap(), &[KEY]),
        ErrorKind::InvalidSeal
    );
    assert_eq!(refused(&sealed, &[PREVIOUS]), ErrorKind::InvalidSeal);
    assert!(InputRound::restore(&sealed, &[NEXT, KEY], &limits(), 0).is_ok());
    for cut in [1, sealed.len() / 2, sealed.len() - 1] {
        assert_eq!(refused(&sealed[..cut], &[KEY]), ErrorKind::InvalidSeal);
    }
}

/// The unsealed document of a fresh round, edited by `edit`.
fn edited(edit: impl FnOnce(&mut Map)) -> Vec<u8> {
    let (round, _) = start(SessionOptions::DEFAULT);
    let value = crate::json::parse(&round.snapshot(None).unwrap(), &limits()).unwrap();
    let Value::Object(mut map) = value else {
        panic!("an object")
    };
    edit(&mut map);
    Value::Object(map).to_json().into_bytes()
}

#[test]
fn a_bad_document_is_a_typed_error_at_its_member() {
    let cases: Vec<(Vec<u8>, ErrorKind, &str)> = alloc::vec![
        (b"{".to_vec(), ErrorKind::InvalidJson, ""),
        (
            edited(|m| {
                m.insert("snapshot", Value::from("pending-request"));
            }),
            ErrorKind::InvalidValue,
            "/snapshot"
        ),
        (
            edited(|m| {
                m.insert("version", Value::from(9u64));
            }),
            ErrorKind::InvalidValue,
            "/version"
        ),
        (
            edited(|m| {
                m.insert("beganAtMs", Value::from("now"));
            }),
            ErrorKind::WrongType,
            "/beganAtMs"
        ),
        (
            edited(|m| {
                m.remove("input");
            }),
            ErrorKind::MissingField,
            "/input"
        ),
        (
            edited(|m| {
                m.insert("input", Value::Object(Map::new()));
            }),
            ErrorKind::InvalidValue,
            "/input/resultType"
        ),
        (
            edited(|m| {
                m.insert("answeredId", Value::Bool(true));
            }),
            ErrorKind::WrongType,
            "/answeredId"
        ),
        (
            edited(|m| {
                m.insert("sentIds", Value::Array(alloc::vec![Value::Null]));
            }),
            ErrorKind::WrongType,
            "/sentIds/0"
        ),
        (
            edited(|m| {
                m.insert("firstSequence", Value::from(7u64));
            }),
            ErrorKind::InvalidValue,
            "/requestIds"
        ),
        (
            edited(|m| {
                m.insert("beganAtMs", Value::from(1_001u64));
            }),
            ErrorKind::InvalidValue,
            "/requestIds"
        ),
        (
            edited(|m| {
                m.insert(
                    "responses",
                    Value::Object(Map::from_iter([(
                        String::from("nope"),
                        Value::Object(Map::new()),
                    )])),
                );
            }),
            ErrorKind::UnknownField,
            "/responses/nope",
        ),
        (
            edited(|m| {
                m.insert(
                    "responses",
                    Value::Object(Map::from_iter([(String::from("model"), Value::from(3u64))])),
                );
            }),
            ErrorKind::WrongType,
            "/responses/model",
        ),
        (
            edited(|m| {
                m.insert(
                    "awaiting",
                    Value::Array(alloc::vec![Value::Object(Map::from_iter([
                        (String::from("requestId"), Value::from("x")),
                        (String::from("elicitationId"), Value::from("e"))
                    ]))]),
                );
            }),
            ErrorKind::UnknownRequest,
            "/awaiting/0/requestId",
        ),
        (
            edited(|m| {
                m.insert("extra", Value::Null);
            }),
            ErrorKind::UnknownField,
            "/extra"
        ),
        (
            edited(|m| {
                m.insert(
                    "request",
                    Value::Object(Map::from_iter([(
                        String::from("jsonrpc"),
                        Value::from("1.0"),
                    )])),
                );
            }),
            ErrorKind::InvalidValue,
            "/request/jsonrpc",
        ),
    ];
    for (text, kind, at) in cases {
        let error = InputRound::restore(&text, &[], &limits(), 0).unwrap_err();
        assert_eq!(
            (error.kind(), error.pointer()),
            (kind, at),
            "{}",
            String::from_utf8_lossy(&text)
        );
    }
}

/// A round whose form `signup` has a field the heuristic flags (`password`) and one it does
/// not (`nickname`), beside a URL request `login`.
const SECRET_RESULT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"signup":{"method":"elicitation/create","params":{"message":"Sign up","requestedSchema":{"type":"object","properties":{"nickname":{"type":"string"},"password":{"type":"string"}}}}},"login":{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e-1"}}},"requestState":"s"}}"#;

fn start_secret(options: SessionOptions) -> (InputRound, Vec<(String, Request)>) {
    let call = ClientRequest::from_json(CALL.as_bytes(), &limits()).unwrap();
    let input = InputRequired::from_json(SECRET_RESULT.as_bytes(), &limits()).unwrap();
    InputRound::start(call, input, options, 1_000).unwrap()
}

/// Which fields of the form `key` of `round` are sensitive, and as what.
fn sensitive_of(round: &InputRound, key: &str) -> Vec<(String, &'static str)> {
    let (_, id) = round.request_ids.iter().find(|(k, _)| k == key).unwrap();
    round
        .session()
        .form(id)
        .unwrap()
        .sensitive_fields()
        .iter()
        .map(|f| (String::from(f.name()), f.kind().as_str()))
        .collect()
}

/// The unsealed document of a fresh round of [`SECRET_RESULT`], its `sensitive` member
/// replaced by `sensitive` (removed for `None`).
fn with_sensitive(sensitive: Option<&str>) -> Vec<u8> {
    let (round, _) = start_secret(SessionOptions::DEFAULT);
    let value = crate::json::parse(&round.snapshot(None).unwrap(), &limits()).unwrap();
    let Value::Object(mut map) = value else {
        panic!("an object")
    };
    map.remove("sensitive");
    if let Some(text) = sensitive {
        map.insert(
            "sensitive",
            crate::json::parse(text.as_bytes(), &limits()).unwrap(),
        );
    }
    Value::Object(map).to_json().into_bytes()
}

#[test]
fn a_snapshot_carries_the_fields_that_ask_for_a_secret() {
    let (round, _) = start_secret(SessionOptions::DEFAULT);
    let written = String::from_utf8(round.snapshot(None).unwrap()).unwrap();
    assert!(
        written.contains(r#","sensitive":{"signup":{"password":"password"}},"#),
        "{written}"
    );
    for key in [None, Some(KEY)] {
        let restored = through_snapshot(&round, key);
        assert_same(&round, &restored);
        assert_eq!(
            sensitive_of(&restored, "signup"),
            [(String::from("password"), "password")]
        );
    }
    // A round with no such field writes no member.
    let (plain, _) = start(SessionOptions::DEFAULT);
    assert!(
        !String::from_utf8(plain.snapshot(None).unwrap())
            .unwrap()
            .contains("sensitive")
    );
}

#[test]
fn a_restore_takes_the_findings_written_not_the_heuristic_s() {
    // What a build with another heuristic wrote: the restored form warns as that one did.
    let carried = with_sensitive(Some(r#"{"signup":{"nickname":"token"}}"#));
    let restored = InputRound::restore(&carried, &[], &limits(), 2_000).unwrap();
    assert_eq!(
        sensitive_of(&restored, "signup"),
        [(String::from("nickname"), "token")]
    );
    let none = with_sensitive(None);
    let restored = InputRound::restore(&none, &[], &limits(), 2_000).unwrap();
    assert_eq!(sensitive_of(&restored, "signup"), []);
    // Written again, the findings are those carried.
    let again = InputRound::restore(&carried, &[], &limits(), 2_000)
        .unwrap()
        .snapshot(None)
        .unwrap();
    let again = String::from_utf8(again).unwrap();
    assert!(
        again.contains(r#","sensitive":{"signup":{"nickname":"token"}},"#),
        "{again}"
    );

    // The reject-secrets policy refuses a restored form by the findings carried.
    let (round, _) = start_secret(SessionOptions::DEFAULT);
    let mut text = String::from_utf8(round.snapshot(None).unwrap()).unwrap();
    text = text.replace(r#""rejectSecrets":false"#, r#""rejectSecrets":true"#);
    let error = InputRound::restore(text.as_bytes(), &[], &limits(), 2_000).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (
            ErrorKind::SensitiveField,
            "/input/inputRequests/signup/params/requestedSchema/properties/password"
        )
    );
}

#[test]
fn bad_findings_are_typed_errors_at_their_member() {
    let cases = [
        (r#"[]"#, ErrorKind::WrongType, "/sensitive"),
        (
            r#"{"signup":[]}"#,
            ErrorKind::WrongType,
            "/sensitive/signup",
        ),
        (
            r#"{"signup":{"password":1}}"#,
            ErrorKind::WrongType,
            "/sensitive/signup/password",
        ),
        (
            r#"{"signup":{"password":"passcode"}}"#,
            ErrorKind::InvalidValue,
            "/sensitive/signup/password",
        ),
        (
            r#"{"signup":{"pin":"pin"}}"#,
            ErrorKind::UnknownField,
            "/sensitive/signup/pin",
        ),
        (
            r#"{"login":{"password":"password"}}"#,
            ErrorKind::UnknownField,
            "/sensitive/login",
        ),
        (
            r#"{"nope":{"password":"password"}}"#,
            ErrorKind::UnknownField,
            "/sensitive/nope",
        ),
    ];
    for (sensitive, kind, at) in cases {
        let text = with_sensitive(Some(sensitive));
        let error = InputRound::restore(&text, &[], &limits(), 0).unwrap_err();
        assert_eq!((error.kind(), error.pointer()), (kind, at), "{sensitive}");
    }
}

#[test]
fn a_key_shorter_than_32_bytes_is_refused_to_seal_and_to_restore() {
    let (round, _) = start(SessionOptions::DEFAULT);
    let sealed = round.snapshot(Some(KEY)).unwrap();
    for short in [&b""[..], b"k-2026", &KEY[..31]] {
        let error = round.snapshot(Some(short)).unwrap_err();
        assert_eq!(
            (error.kind(), error.pointer()),
            (ErrorKind::InvalidValue, "/key")
        );
        let error = InputRound::restore(&sealed, &[KEY, short], &limits(), 0).unwrap_err();
        assert_eq!(
            (error.kind(), error.pointer()),
            (ErrorKind::InvalidValue, "/keys/1")
        );
    }
    assert!(InputRound::restore(&sealed, &[&KEY[..32]], &limits(), 0).is_err());
    assert!(InputRound::restore(&sealed, &[KEY], &limits(), 0).is_ok());
}

#[test]
fn the_snapshot_id_names_the_document_whatever_seals_it() {
    let (mut round, requests) = start(SessionOptions::DEFAULT);
    let id = round.snapshot_id();
    assert_eq!(id.len(), 43);
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    // The same id sealed or not, written again, and after a restore in another process.
    assert_eq!(round.snapshot_id(), id);
    assert_eq!(through_snapshot(&round, Some(KEY)).snapshot_id(), id);
    assert_eq!(through_snapshot(&round, None).snapshot_id(), id);
    // It is the SHA-256 of the unsealed document.
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(round.snapshot(None).unwrap());
    assert_eq!(
        base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, digest),
        id
    );
    // An answer recorded is a new state of the round, with a new id.
    let region = id_of(&requests, "region");
    round
        .resolve(
            &answer(&format!(
                r#"{{"id":"{region}","ok":true,"data":{{"region":"eu"}}}}"#
            )),
            3_000,
        )
        .unwrap();
    assert_ne!(round.snapshot_id(), id);
    // Another round begun from the same messages at another time is another snapshot.
    let call = ClientRequest::from_json(CALL.as_bytes(), &limits()).unwrap();
    let input = InputRequired::from_json(RESULT.as_bytes(), &limits()).unwrap();
    let (later, _) = InputRound::start(call, input, SessionOptions::DEFAULT, 1_001).unwrap();
    assert_ne!(later.snapshot_id(), id);
}

#[test]
fn a_round_with_no_expiry_of_its_own_lapses_a_day_after_it_began() {
    let day = ROUND_LIFETIME_MS;
    assert_eq!(day, 86_400_000);
    let (round, _) = start(SessionOptions::DEFAULT);
    let snapshot = round.snapshot(Some(KEY)).unwrap();
    assert!(InputRound::restore(&snapshot, &[KEY], &limits(), 1_000 + day).is_ok());
    let error = InputRound::restore(&snapshot, &[KEY], &limits(), 1_001 + day).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (ErrorKind::Expired, "/beganAtMs")
    );
    // A time to live the host chose governs, longer than a day too.
    let (round, _) = start(SessionOptions::DEFAULT.with_ttl_ms(Some(2 * day)));
    let snapshot = round.snapshot(None).unwrap();
    assert!(InputRound::restore(&snapshot, &[], &limits(), 1_000 + 2 * day).is_ok());
    let error = InputRound::restore(&snapshot, &[], &limits(), 1_001 + 2 * day).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (ErrorKind::Expired, "/expiresAtMs")
    );
}
