//! Snapshots of a session's pending request: written, read back, and every refusal.

use super::*;
use crate::contract::Answer;
use crate::json::Limits;

const KEY: &[u8] = b"the key: 32 bytes or more, random";
const NEW_KEY: &[u8] = b"the new key: 32 bytes or more too";

fn params(json: &str) -> ElicitRequestParams {
    ElicitRequestParams::from_json(json.as_bytes(), &Limits::DEFAULT).unwrap()
}

fn form_params() -> ElicitRequestParams {
    params(
        r#"{"message":"Age?","requestedSchema":{"type":"object","properties":{"age":{"type":"integer","minimum":18}},"required":["age"]}}"#,
    )
}

/// The options of a session whose requests can be written down: they expire.
fn ttl() -> SessionOptions {
    SessionOptions::DEFAULT.with_ttl_ms(Some(60_000))
}

fn answer(json: &str) -> Answer {
    Answer::from_json(json.as_bytes(), &Limits::DEFAULT).unwrap()
}

fn session_with_form(options: SessionOptions) -> (Session, Request) {
    let mut session = Session::new(options);
    let request = session.begin(&form_params(), "q1", 1_000).unwrap();
    (session, request)
}

#[test]
fn a_restored_session_answers_as_the_original() {
    let options = SessionOptions::DEFAULT
        .with_ttl_ms(Some(60_000))
        .with_apply_defaults(true);
    let (session, request) = session_with_form(options);
    for key in [None, Some(KEY)] {
        let snapshot = session.snapshot("q1", key).unwrap();
        let keys: &[&[u8]] = if key.is_some() { &[KEY] } else { &[] };
        let mut restored = Session::restore(&snapshot, keys, &Limits::DEFAULT, 2_000).unwrap();
        assert_eq!(restored.options(), session.options());
        assert_eq!(restored.pending(), [&request]);
        // The same refusal, then the same result.
        let young = answer(r#"{"id":"q1","ok":true,"data":{"age":17}}"#);
        let mut original = session.clone();
        let (a, b) = (
            original.resolve(&young, 3_000),
            restored.resolve(&young, 3_000),
        );
        assert_eq!(a.unwrap_err(), b.unwrap_err());
        let adult = answer(r#"{"id":"q1","ok":true,"data":{"age":18}}"#);
        assert_eq!(
            original.resolve(&adult, 3_000).unwrap(),
            restored.resolve(&adult, 3_000).unwrap()
        );
    }
}

#[test]
fn a_url_request_keeps_its_elicitation_id() {
    let mut session = Session::new(ttl());
    let url = params(
        r#"{"mode":"url","message":"Sign in","url":"https://example.com/a","elicitationId":"e-7"}"#,
    );
    let request = session.begin(&url, "u1", 0).unwrap();
    let snapshot = session.snapshot("u1", None).unwrap();
    let mut restored = Session::restore(&snapshot, &[], &Limits::DEFAULT, 0).unwrap();
    assert_eq!(restored.pending(), [&request]);
    assert!(restored.knows_elicitation("e-7"));
    restored
        .resolve(&answer(r#"{"id":"u1","ok":true}"#), 0)
        .unwrap();
    assert_eq!(restored.complete("e-7").as_deref(), Some("u1"));
}

#[test]
fn the_document_holds_what_was_asked_and_nothing_typed() {
    let (session, _) = session_with_form(ttl());
    let text = String::from_utf8(session.snapshot("q1", None).unwrap()).unwrap();
    assert_eq!(
        text,
        r#"{"snapshot":"pending-request","version":1,"options":{"modes":["form","url"],"maxPending":64,"ttlMs":60000,"applyDefaults":false,"allowUnknown":false,"rejectSecrets":false},"id":"q1","params":{"mode":"form","message":"Age?","requestedSchema":{"type":"object","properties":{"age":{"type":"integer","minimum":18}},"required":["age"]}},"expiresAtMs":61000}"#
    );
}

#[test]
fn only_a_pending_request_is_written() {
    let (session, _) = session_with_form(ttl());
    let error = session.snapshot("q2", None).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (ErrorKind::UnknownRequest, "/id")
    );
}

#[test]
fn a_restore_after_the_expiry_is_refused() {
    let (session, _) = session_with_form(SessionOptions::DEFAULT.with_ttl_ms(Some(500)));
    let snapshot = session.snapshot("q1", Some(KEY)).unwrap();
    assert!(Session::restore(&snapshot, &[KEY], &Limits::DEFAULT, 1_500).is_ok());
    let error = Session::restore(&snapshot, &[KEY], &Limits::DEFAULT, 1_501).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (ErrorKind::Expired, "/expiresAtMs")
    );
}

#[test]
fn seals_are_required_checked_and_rotated() {
    let (session, _) = session_with_form(ttl());
    let sealed = session.snapshot("q1", Some(KEY)).unwrap();
    let plain = session.snapshot("q1", None).unwrap();
    let limits = &Limits::DEFAULT;
    let refused = |snapshot: &[u8], keys: &[&[u8]]| {
        Session::restore(snapshot, keys, limits, 0)
            .unwrap_err()
            .kind()
    };
    assert_eq!(refused(&sealed, &[]), ErrorKind::InvalidSeal);
    assert_eq!(refused(&plain, &[KEY]), ErrorKind::InvalidSeal);
    assert_eq!(refused(&sealed, &[NEW_KEY]), ErrorKind::InvalidSeal);
    assert!(Session::restore(&sealed, &[NEW_KEY, KEY], limits, 0).is_ok());
    let mut changed = sealed.clone();
    let last = changed.len() - 1;
    changed[last] = if changed[last] == b'A' { b'B' } else { b'A' };
    assert_eq!(refused(&changed, &[KEY]), ErrorKind::InvalidSeal);
    // A seal made for a round does not open as a pending request.
    let text = String::from_utf8(plain).unwrap();
    let other = seal::seal(text.as_bytes(), b"input-round", KEY).unwrap();
    assert_eq!(refused(&other, &[KEY]), ErrorKind::InvalidSeal);
}

#[test]
fn a_bad_document_is_a_typed_error_at_its_member() {
    let cases: &[(&str, ErrorKind, &str)] = &[
        ("", ErrorKind::InvalidJson, ""),
        ("[]", ErrorKind::WrongType, ""),
        (
            r#"{"snapshot":"input-round","version":1}"#,
            ErrorKind::InvalidValue,
            "/snapshot",
        ),
        (
            r#"{"snapshot":"pending-request","version":2}"#,
            ErrorKind::InvalidValue,
            "/version",
        ),
        (
            r#"{"snapshot":"pending-request","version":"1"}"#,
            ErrorKind::WrongType,
            "/version",
        ),
        (
            r#"{"snapshot":"pending-request","version":1}"#,
            ErrorKind::MissingField,
            "/options",
        ),
        (
            r#"{"snapshot":"pending-request","version":1,"options":{"modes":["sms"],"maxPending":1,"applyDefaults":false,"allowUnknown":false,"rejectSecrets":false},"id":"a","params":{"mode":"url","message":"","url":"https://a.example"}}"#,
            ErrorKind::InvalidValue,
            "/options/modes/0",
        ),
        (
            r#"{"snapshot":"pending-request","version":1,"options":{"modes":["form"],"maxPending":1,"applyDefaults":false,"allowUnknown":false,"rejectSecrets":false},"id":"a","params":{"mode":"url","message":"","url":"https://a.example"}}"#,
            ErrorKind::ModeNotSupported,
            "/params/mode",
        ),
        (
            r#"{"snapshot":"pending-request","version":1,"options":{"modes":["form"],"maxPending":0,"applyDefaults":false,"allowUnknown":false,"rejectSecrets":false},"id":"a","params":{"message":"","requestedSchema":{"type":"object","properties":{}}}}"#,
            ErrorKind::TooManyPending,
            "/options/maxPending",
        ),
        (
            r#"{"snapshot":"pending-request","version":1,"options":{"modes":["form"],"maxPending":1,"applyDefaults":false,"allowUnknown":false,"rejectSecrets":false},"id":"","params":{}}"#,
            ErrorKind::InvalidValue,
            "/id",
        ),
        (
            r#"{"snapshot":"pending-request","version":1,"options":{"modes":["form"],"maxPending":1,"applyDefaults":false,"allowUnknown":false,"rejectSecrets":false},"id":"a","params":{"message":"","requestedSchema":{"type":"object","properties":{"x":{"type":"date"}}}},"extra":1}"#,
            ErrorKind::UnknownField,
            "/extra",
        ),
    ];
    for (text, kind, at) in cases {
        let error = Session::restore(text.as_bytes(), &[], &Limits::DEFAULT, 0).unwrap_err();
        assert_eq!((error.kind(), error.pointer()), (*kind, *at), "{text}");
    }
}

#[test]
fn a_snapshot_is_read_within_the_limits() {
    let (session, _) = session_with_form(ttl());
    let snapshot = session.snapshot("q1", None).unwrap();
    let small = Limits::DEFAULT.with_max_input_bytes(64);
    let error = Session::restore(&snapshot, &[], &small, 0).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooLarge);
}

/// The fields of the restored request `q1` that ask for a secret, and as what.
fn sensitive_of(session: &Session) -> Vec<(String, &'static str)> {
    session
        .form("q1")
        .unwrap()
        .sensitive_fields()
        .iter()
        .map(|f| (String::from(f.name()), f.kind().as_str()))
        .collect()
}

#[test]
fn the_fields_that_ask_for_a_secret_are_carried_not_found_again() {
    let mut session = Session::new(ttl());
    let signup = params(
        r#"{"message":"Sign up","requestedSchema":{"type":"object","properties":{"nickname":{"type":"string"},"pin":{"type":"string"}}}}"#,
    );
    session.begin(&signup, "q1", 1_000).unwrap();
    let written = String::from_utf8(session.snapshot("q1", None).unwrap()).unwrap();
    assert!(
        written.contains(r#","sensitive":{"pin":"pin"}"#),
        "{written}"
    );
    let restored = Session::restore(written.as_bytes(), &[], &Limits::DEFAULT, 2_000).unwrap();
    assert_eq!(sensitive_of(&restored), [(String::from("pin"), "pin")]);

    // What another build found is what the restored form warns of.
    let other = written.replace(r#"{"pin":"pin"}"#, r#"{"nickname":"secret"}"#);
    let restored = Session::restore(other.as_bytes(), &[], &Limits::DEFAULT, 2_000).unwrap();
    assert_eq!(
        sensitive_of(&restored),
        [(String::from("nickname"), "secret")]
    );

    for (sensitive, kind, at) in [
        (r#""pin""#, ErrorKind::WrongType, "/sensitive"),
        (r#"{"pin":true}"#, ErrorKind::WrongType, "/sensitive/pin"),
        (
            r#"{"pin":"pins"}"#,
            ErrorKind::InvalidValue,
            "/sensitive/pin",
        ),
        (
            r#"{"age":"pin"}"#,
            ErrorKind::UnknownField,
            "/sensitive/age",
        ),
    ] {
        let text = written.replace(r#"{"pin":"pin"}"#, sensitive);
        let error = Session::restore(text.as_bytes(), &[], &Limits::DEFAULT, 2_000).unwrap_err();
        assert_eq!((error.kind(), error.pointer()), (kind, at), "{sensitive}");
    }
}

#[test]
fn a_key_shorter_than_32_bytes_is_refused_to_seal_and_to_restore() {
    let (session, _) = session_with_form(ttl());
    let sealed = session.snapshot("q1", Some(KEY)).unwrap();
    for short in [&b""[..], b"the key", &KEY[..31]] {
        let error = session.snapshot("q1", Some(short)).unwrap_err();
        assert_eq!(
            (error.kind(), error.pointer()),
            (ErrorKind::InvalidValue, "/key")
        );
        let error = Session::restore(&sealed, &[short], &Limits::DEFAULT, 0).unwrap_err();
        assert_eq!(
            (error.kind(), error.pointer()),
            (ErrorKind::InvalidValue, "/keys/0")
        );
    }
    assert!(Session::restore(&sealed, &[KEY], &Limits::DEFAULT, 0).is_ok());
}

#[test]
fn the_snapshot_id_names_the_pending_request_s_document() {
    let (mut session, _) = session_with_form(SessionOptions::DEFAULT.with_ttl_ms(Some(60_000)));
    let id = session.snapshot_id("q1").unwrap();
    assert_eq!(id.len(), 43);
    let sealed = session.snapshot("q1", Some(KEY)).unwrap();
    let restored = Session::restore(&sealed, &[KEY], &Limits::DEFAULT, 2_000).unwrap();
    assert_eq!(restored.snapshot_id("q1").unwrap(), id);
    // Another request, or the same one begun at another time, is another snapshot.
    session.begin(&form_params(), "q2", 1_000).unwrap();
    assert_ne!(session.snapshot_id("q2").unwrap(), id);
    let (later, _) = {
        let mut later = Session::new(SessionOptions::DEFAULT.with_ttl_ms(Some(60_000)));
        let request = later.begin(&form_params(), "q1", 1_001).unwrap();
        (later, request)
    };
    assert_ne!(later.snapshot_id("q1").unwrap(), id);
    let error = session.snapshot_id("q9").unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (ErrorKind::UnknownRequest, "/id")
    );
}

#[test]
fn a_request_that_never_expires_is_not_written_down() {
    let (session, _) = session_with_form(SessionOptions::DEFAULT);
    for error in [
        session.snapshot("q1", None).unwrap_err(),
        session.snapshot("q1", Some(KEY)).unwrap_err(),
        session.snapshot_id("q1").unwrap_err(),
    ] {
        assert_eq!(
            (error.kind(), error.pointer()),
            (ErrorKind::InvalidValue, "/id")
        );
        assert!(error.message().contains("ttl_ms"), "{}", error.message());
    }
}
