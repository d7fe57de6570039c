//! Drives [`Flow`] through the device authorization grant (RFC 8628) with canned responses:
//! discovery, the client's registration, the device authorization request, the code shown,
//! the polls paced by `interval` and `slow_down`, and each way it ends.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use toolnexus_auth::{
    AuthError, AuthErrorKind, Config, DEVICE_CODE, Flow, GrantType, HttpRequest, HttpResponse,
    Method, Next, Poll, parse_challenge,
};

const SERVER: &str = "http://localhost:4001/mcp";
const PRM: &str = "http://localhost:4001/.well-known/oauth-protected-resource/mcp";
const A: &str = "http://localhost:4002";
const NOW: u64 = 1_796_495_437_000;
const DEVICE_SECRET: &str = "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS";

fn metadata(device: bool) -> String {
    let endpoint = if device {
        format!(r#""device_authorization_endpoint":"{A}/device/auth","#)
    } else {
        String::new()
    };
    format!(
        r#"{{"issuer":"{A}","authorization_endpoint":"{A}/auth","token_endpoint":"{A}/token","registration_endpoint":"{A}/reg",{endpoint}"grant_types_supported":["authorization_code","refresh_token","{DEVICE_CODE}"],"scopes_supported":["openid","mcp"],"token_endpoint_auth_methods_supported":["none"]}}"#
    )
}

fn device_answer(extra: &str) -> String {
    format!(
        r#"{{"device_code":"{DEVICE_SECRET}","user_code":"WDJB-MJHT","verification_uri":"{A}/device","expires_in":60{extra}}}"#
    )
}

fn config(client_id: Option<&str>) -> Config {
    Config {
        grant: GrantType::DeviceCode,
        client_id: client_id.map(str::to_owned),
        ..Config::new("toolnexus", "http://127.0.0.1/callback")
    }
}

fn answer(flow: &mut Flow, status: u16, body: &str, at: u64) -> Result<Next, AuthError> {
    let headers = vec![(
        String::from("content-type"),
        String::from("application/json"),
    )];
    flow.on_response(
        HttpResponse {
            status,
            headers: &headers,
            body: body.as_bytes(),
        },
        at,
    )
}

fn fetched(next: &Next) -> &HttpRequest {
    match next {
        Next::Fetch(request) => request,
        other => panic!("expected a fetch, got {other:?}"),
    }
}

fn polled(next: Next) -> Poll {
    match next {
        Next::Poll(poll) => poll,
        other => panic!("expected a poll, got {other:?}"),
    }
}

fn form(request: &HttpRequest) -> Vec<(String, String)> {
    form_urlencoded::parse(&request.body).into_owned().collect()
}

/// A flow at its first poll: discovery and, without `client_id`, a registration, then the
/// device authorization answered with `device`.
fn to_first_poll(client_id: Option<&str>, device: &str) -> Result<(Flow, Next), AuthError> {
    let header = format!(r#"Bearer resource_metadata="{PRM}""#);
    let (mut flow, next) = Flow::start(
        SERVER,
        &parse_challenge(401, Some(&header)),
        config(client_id),
        None,
        [7; 64],
    )?;
    assert_eq!(fetched(&next).url, PRM);
    let prm = format!(
        r#"{{"resource":"{SERVER}","authorization_servers":["{A}"],"scopes_supported":["mcp"]}}"#
    );
    let next = answer(&mut flow, 200, &prm, NOW)?;
    assert_eq!(
        fetched(&next).url,
        format!("{A}/.well-known/oauth-authorization-server")
    );
    let mut next = answer(&mut flow, 200, &metadata(true), NOW)?;
    if client_id.is_none() {
        let request = fetched(&next);
        assert_eq!(request.url, format!("{A}/reg"));
        let body = String::from_utf8(request.body.clone()).unwrap();
        assert!(body.contains(DEVICE_CODE) && body.contains(r#""redirect_uris":[]"#));
        next = answer(&mut flow, 201, r#"{"client_id":"registered"}"#, NOW)?;
    }
    let request = fetched(&next);
    assert_eq!(request.url, format!("{A}/device/auth"));
    assert_eq!(request.method, Method::Post);
    assert_eq!(
        form(request),
        [
            ("scope", "mcp"),
            ("resource", SERVER),
            ("client_id", client_id.unwrap_or("registered")),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    let next = answer(&mut flow, 200, device, NOW)?;
    Ok((flow, next))
}

#[test]
fn the_code_is_shown_then_polled_at_the_interval_slowed_down_and_granted() {
    let (mut flow, next) = to_first_poll(None, &device_answer(r#","interval":2"#)).unwrap();
    let poll = polled(next);
    assert_eq!(poll.attempt, 1);
    assert_eq!(poll.at_ms, NOW + 2_000);
    assert_eq!(poll.code.user_code, "WDJB-MJHT");
    assert_eq!(poll.code.verification_uri, format!("{A}/device"));
    assert_eq!(poll.code.link(), format!("{A}/device"));
    assert_eq!(poll.code.expires_at_ms, NOW + 60_000);
    assert_eq!(poll.request.url, format!("{A}/token"));
    assert_eq!(
        form(&poll.request),
        [
            ("grant_type", DEVICE_CODE),
            ("device_code", DEVICE_SECRET),
            ("resource", SERVER),
            ("client_id", "registered"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    // The device code is a secret: no Debug form shows it.
    for shown in [format!("{flow:?}"), format!("{poll:?}")] {
        assert!(!shown.contains(DEVICE_SECRET), "{shown}");
    }
    let pending = r#"{"error":"authorization_pending"}"#;
    let poll = polled(answer(&mut flow, 400, pending, NOW + 2_100).unwrap());
    assert_eq!((poll.attempt, poll.at_ms), (2, NOW + 4_100));
    let slow = r#"{"error":"slow_down"}"#;
    let poll = polled(answer(&mut flow, 400, slow, NOW + 4_200).unwrap());
    assert_eq!((poll.attempt, poll.at_ms), (3, NOW + 11_200));
    // The interval stays longer after a slow_down.
    let poll = polled(answer(&mut flow, 400, pending, NOW + 11_300).unwrap());
    assert_eq!((poll.attempt, poll.at_ms), (4, NOW + 18_300));
    let token =
        r#"{"access_token":"at-1","token_type":"Bearer","expires_in":600,"refresh_token":"rt-1"}"#;
    let Next::Done(grant) = answer(&mut flow, 200, token, NOW + 18_400).unwrap() else {
        panic!("not done");
    };
    assert_eq!(grant.authorization(), "Bearer at-1");
    assert_eq!(grant.obtained_by(), "device_code");
    assert_eq!(grant.resource(), Some(SERVER));
    assert_eq!(grant.client().client_id(), "registered");
    // After the end, nothing more.
    assert_eq!(
        answer(&mut flow, 200, token, NOW).unwrap_err().kind(),
        AuthErrorKind::OutOfOrder
    );
}

#[test]
fn a_pre_registered_client_and_the_default_interval_and_the_complete_uri() {
    let complete = format!(r#","verification_uri_complete":"{A}/device?user_code=WDJB-MJHT""#);
    let (_, next) = to_first_poll(Some("cli"), &device_answer(&complete)).unwrap();
    let poll = polled(next);
    assert_eq!(poll.at_ms, NOW + 5_000);
    assert_eq!(poll.code.link(), format!("{A}/device?user_code=WDJB-MJHT"));
    // An interval of 0 is kept to a second: the flow never asks for a tight loop.
    let (_, next) = to_first_poll(Some("cli"), &device_answer(r#","interval":0"#)).unwrap();
    assert_eq!(polled(next).at_ms, NOW + 1_000);
}

#[test]
fn a_denial_an_expired_code_and_a_code_out_of_time_end_the_flow() {
    let cases = [
        (
            r#"{"error":"access_denied","error_description":"the end-user denied it"}"#,
            AuthErrorKind::AuthorizationDenied,
        ),
        (
            r#"{"error":"expired_token"}"#,
            AuthErrorKind::DeviceCodeExpired,
        ),
        (
            r#"{"error":"invalid_grant","error_description":"GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS"}"#,
            AuthErrorKind::TokenRefused,
        ),
    ];
    for (body, kind) in cases {
        let (mut flow, _) = to_first_poll(Some("cli"), &device_answer("")).unwrap();
        let error = answer(&mut flow, 400, body, NOW + 5_000).unwrap_err();
        assert_eq!(error.kind(), kind, "{error}");
        assert!(!error.message().contains(DEVICE_SECRET), "{error}");
    }
    let (mut flow, _) = to_first_poll(Some("cli"), &device_answer("")).unwrap();
    let denied = answer(
        &mut flow,
        400,
        r#"{"error":"access_denied","error_description":"the end-user denied it"}"#,
        NOW + 5_000,
    )
    .unwrap_err();
    assert!(
        denied.message().contains("the end-user denied it"),
        "{denied}"
    );
    // The code expires at NOW + 60 s: no poll is asked for at or after it.
    let (mut flow, _) = to_first_poll(Some("cli"), &device_answer("")).unwrap();
    let pending = r#"{"error":"authorization_pending"}"#;
    let next = answer(&mut flow, 400, pending, NOW + 54_000).unwrap();
    assert_eq!(polled(next).at_ms, NOW + 59_000);
    let expired = answer(&mut flow, 400, pending, NOW + 59_000).unwrap_err();
    assert_eq!(expired.kind(), AuthErrorKind::DeviceCodeExpired);
    assert!(expired.message().contains("WDJB-MJHT"), "{expired}");
}

#[test]
fn the_device_authorization_answer_is_checked() {
    let cases: [(&str, AuthErrorKind, &str); 6] = [
        (
            r#"{"device_code":"d","verification_uri":"http://localhost:4002/device","expires_in":60}"#,
            AuthErrorKind::InvalidResponse,
            "/user_code",
        ),
        (
            r#"{"device_code":"","user_code":"U","verification_uri":"http://localhost:4002/device","expires_in":60}"#,
            AuthErrorKind::InvalidResponse,
            "/device_code",
        ),
        (
            r#"{"device_code":"d","user_code":"U","verification_uri":"http://evil.example/device","expires_in":60}"#,
            AuthErrorKind::InsecureEndpoint,
            "/verification_uri",
        ),
        (
            r#"{"device_code":"d","user_code":"U","verification_uri":"javascript:alert(1)","expires_in":60}"#,
            AuthErrorKind::InvalidResponse,
            "/verification_uri",
        ),
        (
            r#"{"device_code":"d","user_code":"U","verification_uri":"https://as.example/d","verification_uri_complete":"http://evil.example/d","expires_in":60}"#,
            AuthErrorKind::InsecureEndpoint,
            "/verification_uri_complete",
        ),
        (
            r#"{"device_code":"d","user_code":"U","verification_uri":"https://as.example/d"}"#,
            AuthErrorKind::InvalidResponse,
            "/expires_in",
        ),
    ];
    for (body, kind, pointer) in cases {
        let error = to_first_poll(Some("cli"), body).unwrap_err();
        assert_eq!((error.kind(), error.pointer()), (kind, pointer), "{error}");
    }
}

#[test]
fn a_refused_device_authorization_and_a_server_without_the_grant() {
    let error = to_first_poll(
        Some("cli"),
        r#"{"error":"invalid_client","error_description":"no such client"}"#,
    );
    // A 200 without the members is an invalid answer; a 400 is a refusal.
    assert_eq!(error.unwrap_err().kind(), AuthErrorKind::InvalidResponse);
    let header = format!(r#"Bearer resource_metadata="{PRM}""#);
    let (mut flow, _) = Flow::start(
        SERVER,
        &parse_challenge(401, Some(&header)),
        config(Some("cli")),
        None,
        [7; 64],
    )
    .unwrap();
    let prm = format!(
        r#"{{"resource":"{SERVER}","authorization_servers":["{A}"],"scopes_supported":["mcp"]}}"#
    );
    answer(&mut flow, 200, &prm, NOW).unwrap();
    let next = answer(&mut flow, 200, &metadata(true), NOW).unwrap();
    assert_eq!(fetched(&next).url, format!("{A}/device/auth"));
    let refused = answer(&mut flow, 401, r#"{"error":"invalid_client"}"#, NOW).unwrap_err();
    assert_eq!(refused.kind(), AuthErrorKind::TokenRefused);
    assert!(refused.message().contains("invalid_client"), "{refused}");

    let (mut flow, _) = Flow::start(
        SERVER,
        &parse_challenge(401, Some(&header)),
        config(Some("cli")),
        None,
        [7; 64],
    )
    .unwrap();
    answer(&mut flow, 200, &prm, NOW).unwrap();
    let error = answer(&mut flow, 200, &metadata(false), NOW).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (
            AuthErrorKind::GrantNotSupported,
            "/device_authorization_endpoint"
        )
    );
    assert!(
        error.message().contains("does not offer the device"),
        "{error}"
    );
}
