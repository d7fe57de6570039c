//! Arbitrary input at every entry point: challenges, metadata documents member by member,
//! registration and token responses, redirects and stored grants, and for the grants for
//! machines the server metadata, the identity provider's token exchange answer and the token
//! answer. Nothing panics, every refusal is typed and located, and no message shows the PKCE
//! verifier, a workload's assertion or an ID token.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use toolnexus_auth::{
    AuthError, Config, Enterprise, Flow, Grant, GrantType, HttpResponse, JWT_BEARER, Limits, Next,
    parse_challenge,
};

/// The secrets of the grants for machines, which no message may show.
const ASSERTION: &str = "workload.assertion.jwt-4f1e";
const ID_TOKEN: &str = "person.id-token.jwt-9b2c";

const SERVER: &str = "http://localhost:5/mcp";
const A: &str = "http://localhost:9";
const REDIRECT: &str = "http://127.0.0.1:7/callback";
const ENTROPY: [u8; 64] = [42; 64];

fn config() -> Config {
    Config {
        client_metadata_url: Some("https://client.example/meta.json".into()),
        ..Config::new("t", REDIRECT)
    }
}

const GOOD_PRM: &[(&str, &str)] = &[
    ("resource", r#""http://localhost:5/mcp""#),
    ("authorization_servers", r#"["http://localhost:9"]"#),
    ("scopes_supported", r#"["a","b"]"#),
];

const GOOD_AS: &[(&str, &str)] = &[
    ("issuer", r#""http://localhost:9""#),
    (
        "authorization_endpoint",
        r#""http://localhost:9/authorize""#,
    ),
    ("token_endpoint", r#""http://localhost:9/token""#),
    ("registration_endpoint", r#""http://localhost:9/register""#),
    ("response_types_supported", r#"["code"]"#),
    ("grant_types_supported", r#"["authorization_code"]"#),
    ("code_challenge_methods_supported", r#"["S256"]"#),
    ("authorization_response_iss_parameter_supported", "true"),
    ("token_endpoint_auth_methods_supported", r#"["none"]"#),
    ("scopes_supported", r#"["a","offline_access"]"#),
    ("client_id_metadata_document_supported", "false"),
];

/// Any JSON text, with a bias towards values these documents hold.
fn json() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        any::<bool>().prop_map(|b| b.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        Just("1.5e3".to_owned()),
        "[a-zA-Z0-9:/._ -]{0,16}".prop_map(|s| format!("\"{s}\"")),
        prop::sample::select(vec![
            r#""http://localhost:9""#,
            r#""http://localhost:9/""#,
            r#""https://as.example""#,
            r#""http://as.example/x""#,
            r#""http://localhost:5""#,
            r#""S256""#,
            r#""code""#,
            r#""none""#,
            r#""client_secret_basic""#,
            r#""""#,
            r#""\u0000""#,
        ])
        .prop_map(str::to_owned),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::btree_map("[a-z_]{1,6}", inner, 0..4).prop_map(|m| {
                let members: Vec<String> =
                    m.into_iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

/// A document of `good` members, each kept, dropped or replaced by any JSON.
fn document(good: &'static [(&'static str, &'static str)]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            3 => Just(None),
            1 => Just(Some(None)),
            2 => json().prop_map(|v| Some(Some(v))),
        ],
        good.len(),
    )
    .prop_map(move |changes| {
        let members: Vec<String> = good
            .iter()
            .zip(changes)
            .filter_map(|((key, value), change)| match change {
                None => Some(format!("\"{key}\":{value}")),
                Some(None) => None,
                Some(Some(other)) => Some(format!("\"{key}\":{other}")),
            })
            .collect();
        format!("{{{}}}", members.join(","))
    })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        json().prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>(), 0..64),
    ]
}

fn status() -> impl Strategy<Value = u16> {
    prop_oneof![
        prop::sample::select(vec![200u16, 201, 204, 301, 302, 400, 401, 404, 500]),
        0u16..1000,
    ]
}

fn respond(flow: &mut Flow, status: u16, body: &[u8]) -> Result<Next, AuthError> {
    let headers = vec![("location".to_owned(), "https://elsewhere".to_owned())];
    flow.on_response(
        HttpResponse {
            status,
            headers: &headers,
            body,
        },
        1_000,
    )
}

/// The verifier the flow made from [`ENTROPY`]: base64url of 32 bytes of 42.
fn verifier() -> String {
    "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio".to_owned()
}

fn check(result: &Result<Next, AuthError>) {
    match result {
        Ok(Next::Fetch(request) | Next::Poll(toolnexus_auth::Poll { request, .. })) => {
            assert!(request.url.starts_with("http"), "{}", request.url);
        }
        Ok(Next::Authorize(authorization)) => {
            assert!(authorization.url.starts_with("http"));
            assert!(!authorization.url.contains(&verifier()));
        }
        Ok(Next::Done(_)) => {}
        Err(e) => {
            assert!(e.pointer().is_empty() || e.pointer().starts_with('/'));
            assert!(!e.message().contains(&verifier()), "{}", e.message());
            assert!(!e.message().is_empty());
        }
    }
}

/// A flow past the protected resource metadata, fetching the server metadata.
fn at_server_metadata() -> Flow {
    let challenge = parse_challenge(401, None);
    let (mut flow, _) = Flow::start(SERVER, &challenge, config(), None, ENTROPY).unwrap();
    let prm = format!(r#"{{"resource":"{SERVER}","authorization_servers":["{A}"]}}"#);
    respond(&mut flow, 200, prm.as_bytes()).unwrap();
    flow
}

fn good_as() -> String {
    let members: Vec<String> = GOOD_AS
        .iter()
        .map(|(k, v)| format!("\"{k}\":{v}"))
        .collect();
    format!("{{{}}}", members.join(","))
}

/// A flow waiting for the redirect.
fn at_redirect() -> Flow {
    let mut flow = at_server_metadata();
    respond(&mut flow, 200, good_as().as_bytes()).unwrap();
    respond(&mut flow, 201, br#"{"client_id":"c"}"#).unwrap();
    flow
}

/// The state the flow made from [`ENTROPY`], read from its authorization URL.
fn state() -> String {
    let challenge = parse_challenge(401, None);
    let (mut flow, _) = Flow::start(SERVER, &challenge, config(), None, ENTROPY).unwrap();
    let prm = format!(r#"{{"resource":"{SERVER}","authorization_servers":["{A}"]}}"#);
    respond(&mut flow, 200, prm.as_bytes()).unwrap();
    respond(&mut flow, 200, good_as().as_bytes()).unwrap();
    match respond(&mut flow, 201, br#"{"client_id":"c"}"#).unwrap() {
        Next::Authorize(authorization) => authorization.state,
        other => panic!("expected an authorization, got {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_header_is_read_without_panic(header in any::<String>()) {
        let c = parse_challenge(401, Some(&header));
        prop_assert_eq!(c.status, 401);
    }

    #[test]
    fn any_header_of_challenge_words_is_read(words in prop::collection::vec(
        prop::sample::select(vec!["Bearer", "DPoP", "Basic", "scope", "resource_metadata",
            "error", "=", "\"", ",", " ", "\\", "x y", "é", "\t"]), 0..24)) {
        let header = words.concat();
        let c = parse_challenge(403, Some(&header));
        if let Some(scope) = &c.scope {
            prop_assert!(header.contains(scope.as_str()) || scope.is_empty() || header.contains('\\'));
        }
        // Whatever it says, starting a flow from it is a result, not a panic.
        let _ = Flow::start(SERVER, &c, config(), None, ENTROPY);
    }

    #[test]
    fn any_resource_metadata(doc in document(GOOD_PRM), status in status()) {
        let (mut flow, _) = Flow::start(SERVER, &parse_challenge(401, None), config(), None, ENTROPY).unwrap();
        let result = respond(&mut flow, status, doc.as_bytes());
        check(&result);
    }

    #[test]
    fn any_server_metadata(doc in document(GOOD_AS)) {
        let mut flow = at_server_metadata();
        let result = respond(&mut flow, 200, doc.as_bytes());
        check(&result);
        if let Ok(Next::Fetch(_)) = result {
            // The registration: any answer.
            check(&respond(&mut flow, 201, br#"{"client_id":"c","client_secret":"s"}"#));
        }
    }

    #[test]
    fn any_registration_answer(status in status(), body in body()) {
        let mut flow = at_server_metadata();
        respond(&mut flow, 200, good_as().as_bytes()).unwrap();
        check(&respond(&mut flow, status, &body));
    }

    #[test]
    fn any_redirect(query in any::<String>()) {
        let mut flow = at_redirect();
        let result = flow.on_redirect(&query);
        prop_assert!(result.is_err() || query.contains("state="));
        check(&result);
    }

    #[test]
    fn any_redirect_of_redirect_words(words in prop::collection::vec(
        prop::sample::select(vec!["code=", "state=", "iss=", "error=", "&", "x", "%",
            "http%3A%2F%2Flocalhost%3A9", "STATE"]), 0..12)) {
        let mut flow = at_redirect();
        check(&flow.on_redirect(&words.concat().replace("STATE", &state())));
    }

    #[test]
    fn any_token_answer(status in status(), body in body()) {
        let mut flow = at_redirect();
        flow.on_redirect(&format!("code=the-code&state={}&iss=http%3A%2F%2Flocalhost%3A9", state())).unwrap();
        let result = respond(&mut flow, status, &body);
        check(&result);
        if let Err(e) = &result {
            prop_assert!(!e.message().contains("the-code"), "{}", e.message());
        }
    }

    #[test]
    fn any_stored_grant(bytes in body()) {
        if let Ok(grant) = Grant::from_json(&bytes, &Limits::DEFAULT) {
            let again = Grant::from_json(grant.to_json().as_bytes(), &Limits::DEFAULT).unwrap();
            prop_assert_eq!(again, grant);
        }
    }

    #[test]
    fn a_stored_grant_with_any_member(doc in document(&[
        ("version", "1"),
        ("access_token", r#""at""#),
        ("token_type", r#""Bearer""#),
        ("refresh_token", r#""rt""#),
        ("expires_at_ms", "5"),
        ("scope", r#""a""#),
        ("issuer", r#""http://localhost:9""#),
        ("resource", r#""http://localhost:5/mcp""#),
        ("token_endpoint", r#""http://localhost:9/token""#),
        ("client", r#"{"client_id":"c","auth_method":"none","issuer":"http://localhost:9"}"#),
    ])) {
        match Grant::from_json(doc.as_bytes(), &Limits::DEFAULT) {
            Ok(grant) => {
                // A refresh of it is a result, not a panic.
                let _ = Flow::refresh(SERVER, &grant, config());
            }
            Err(e) => prop_assert!(e.pointer().is_empty() || e.pointer().starts_with('/')),
        }
    }
}

/// A flow of `grant` past the protected resource metadata, fetching the server metadata.
fn machine_at_server_metadata(grant: GrantType) -> Flow {
    let config = Config {
        client_id: Some("machine".into()),
        client_secret: Some("machine-secret".into()),
        client_issuer: Some(A.into()),
        grant,
        ..config()
    };
    let challenge = parse_challenge(401, None);
    let (mut flow, _) = Flow::start(SERVER, &challenge, config, None, ENTROPY).unwrap();
    let prm = format!(r#"{{"resource":"{SERVER}","authorization_servers":["{A}"]}}"#);
    respond(&mut flow, 200, prm.as_bytes()).unwrap();
    flow
}

fn enterprise() -> GrantType {
    GrantType::Enterprise(Enterprise {
        token_endpoint: "http://localhost:11/token".into(),
        client_id: Some("idp-client".into()),
        client_secret: None,
        id_token: ID_TOKEN.into(),
    })
}

fn bearer() -> GrantType {
    GrantType::JwtBearer {
        assertion: ASSERTION.into(),
    }
}

/// The server metadata of a server that offers every grant for machines.
fn machine_as() -> String {
    format!(
        r#"{{"issuer":"{A}","token_endpoint":"{A}/token","grant_types_supported":["client_credentials","{JWT_BEARER}"]}}"#
    )
}

/// `check`, and no message shows a grant's secret.
fn check_machine(result: &Result<Next, AuthError>) {
    check(result);
    if let Err(e) = result {
        assert!(!e.message().contains(ASSERTION), "{}", e.message());
        assert!(!e.message().contains(ID_TOKEN), "{}", e.message());
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_server_metadata_of_a_grant_for_machines(
        doc in document(&[
            ("issuer", r#""http://localhost:9""#),
            ("token_endpoint", r#""http://localhost:9/token""#),
            ("grant_types_supported", r#"["client_credentials","urn:ietf:params:oauth:grant-type:jwt-bearer"]"#),
            ("token_endpoint_auth_methods_supported", r#"["private_key_jwt","client_secret_basic"]"#),
            ("token_endpoint_auth_signing_alg_values_supported", r#"["ES256"]"#),
        ]),
        which in 0..3_usize,
    ) {
        let grant = [GrantType::ClientCredentials, bearer(), enterprise()][which].clone();
        let mut flow = machine_at_server_metadata(grant);
        check_machine(&respond(&mut flow, 200, doc.as_bytes()));
    }

    #[test]
    fn any_token_exchange_answer(status in status(), body in body()) {
        let mut flow = machine_at_server_metadata(enterprise());
        respond(&mut flow, 200, machine_as().as_bytes()).unwrap();
        let result = respond(&mut flow, status, &body);
        check_machine(&result);
        if let Ok(Next::Fetch(request)) = &result {
            // The ID-JAG goes to the authorization server alone.
            prop_assert_eq!(request.url.as_str(), "http://localhost:9/token");
        }
    }

    #[test]
    fn any_token_answer_of_a_jwt_bearer_grant(status in status(), body in body()) {
        let mut flow = machine_at_server_metadata(bearer());
        respond(&mut flow, 200, machine_as().as_bytes()).unwrap();
        let result = respond(&mut flow, status, &body);
        check_machine(&result);
        if !(200..300).contains(&status) {
            // A refusal is final: nothing is asked again.
            prop_assert!(result.is_err() || matches!(result, Ok(Next::Done(_))));
        }
    }
}

#[test]
fn the_verifier_of_the_fixed_entropy_is_known() {
    // The properties above look for this verifier in messages; make sure it is the real one.
    let mut flow = at_redirect();
    let next = flow
        .on_redirect(&format!(
            "code=c&state={}&iss=http%3A%2F%2Flocalhost%3A9",
            state()
        ))
        .unwrap();
    let Next::Fetch(request) = next else {
        panic!("expected the token request")
    };
    let body = String::from_utf8(request.body).unwrap();
    assert!(
        body.contains(&format!("code_verifier={}", verifier())),
        "{body}"
    );
}
