//! Drives [`Flow`] through the client authorization scenarios of the MCP conformance suite
//! (0.2.0-alpha.12) with canned responses modelled on HTTP traces of a client that passes them,
//! and through hostile servers, asserting every request exactly: URLs, query parameters,
//! bodies and `Authorization` headers. The flows every binding must follow alike are the cases
//! of `conformance/v1/auth/`; what stays here checks what only Rust sees: signatures, the
//! flow's accessors, the step-up chain held in memory, calls after the end, message wording.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use sha2::{Digest, Sha256};
use toolnexus_auth::{
    AuthError, AuthErrorKind, AuthMethod, CLIENT_ASSERTION_TYPE, ClientKey, Config, DpopUse,
    Enterprise, Flow, Grant, GrantType, HttpRequest, HttpResponse, Limits, Method, Next, ath,
    parse_challenge,
};
use toolnexus_core::json::{Value, parse_str};

/// The MCP server's origin and URL, the authorization server's origin, the redirect URI.
const M: &str = "http://localhost:39611";
const SERVER: &str = "http://localhost:39611/mcp";
const A: &str = "http://localhost:34235";
const REDIRECT: &str = "http://127.0.0.1:33418/callback";
const NOW: u64 = 1_796_495_437_000;

/// What the flow registers with, byte for byte.
const DCR_BODY: &str = r#"{"client_name":"toolnexus","redirect_uris":["http://127.0.0.1:33418/callback"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none","application_type":"native"}"#;
/// The mock's default registration answer.
const DCR_ANSWER: &str = r#"{"client_id":"test-client-id","client_secret":"test-client-secret","client_name":"toolnexus","redirect_uris":["http://127.0.0.1:33418/callback"]}"#;
const TOKEN: &str = r#"{"access_token":"test-token-1","token_type":"Bearer","expires_in":3600}"#;

/// Header or form pairs.
type Pairs = Vec<(String, String)>;

fn prm_url() -> String {
    format!("{M}/.well-known/oauth-protected-resource/mcp")
}

/// The SDK's 401 naming the metadata.
fn default_401() -> String {
    format!(
        r#"Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="{}""#,
        prm_url()
    )
}

fn prm(resource: &str, issuer: &str, extra: &str) -> String {
    format!(r#"{{"resource":"{resource}","authorization_servers":["{issuer}"]{extra}}}"#)
}

/// The mock authorization server's metadata for `issuer` with endpoints under `base`, with
/// `changes` (a member set to JSON text, or removed with `None`).
fn as_doc(issuer: &str, base: &str, changes: &[(&str, Option<&str>)]) -> String {
    let text = format!(
        r#"{{"issuer":"{issuer}","authorization_endpoint":"{base}/authorize","token_endpoint":"{base}/token","registration_endpoint":"{base}/register","response_types_supported":["code"],"grant_types_supported":["authorization_code","refresh_token"],"code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true,"token_endpoint_auth_methods_supported":["none"]}}"#
    );
    let Value::Object(mut map) = parse_str(&text, &Limits::DEFAULT).unwrap() else {
        panic!("not an object");
    };
    for (key, value) in changes {
        match value {
            Some(json) => {
                map.insert(*key, parse_str(json, &Limits::DEFAULT).unwrap());
            }
            None => {
                map.remove(key);
            }
        }
    }
    map.to_json()
}

fn config() -> Config {
    Config::new("toolnexus", REDIRECT)
}

fn entropy() -> [u8; 64] {
    core::array::from_fn(|i| (i as u8).wrapping_mul(97).wrapping_add(13))
}

fn pairs(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect()
}

fn owned(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A flow under test, with what a mock authorization server would remember.
struct Run {
    flow: Flow,
    next: Next,
    /// The `code_challenge` of the last authorization request.
    challenge: Option<String>,
    /// The `state` of the last authorization request.
    state: Option<String>,
    /// How many authorization requests were made.
    authorizations: usize,
}

impl Run {
    fn start(server: &str, status: u16, header: Option<&str>, config: Config) -> Run {
        Run::after(server, status, header, config, None)
    }

    fn after(
        server: &str,
        status: u16,
        header: Option<&str>,
        config: Config,
        previous: Option<&Grant>,
    ) -> Run {
        Run::try_after(server, status, header, config, previous).unwrap()
    }

    fn try_after(
        server: &str,
        status: u16,
        header: Option<&str>,
        config: Config,
        previous: Option<&Grant>,
    ) -> Result<Run, AuthError> {
        let challenge = parse_challenge(status, header);
        let (flow, next) = Flow::start(server, &challenge, config, previous, entropy())?;
        Ok(Run {
            flow,
            next,
            challenge: None,
            state: None,
            authorizations: 0,
        })
    }

    fn fetch(&self) -> &HttpRequest {
        match &self.next {
            Next::Fetch(request) => request,
            other => panic!("expected a fetch, got {other:?}"),
        }
    }

    fn expect_get(&self, url: &str) {
        let request = self.fetch();
        assert_eq!(request.method, Method::Get, "{url}");
        assert_eq!(request.url, url);
        assert_eq!(
            request.headers,
            owned(&[("accept", "application/json")]),
            "{url}"
        );
        assert!(request.body.is_empty());
    }

    fn answer(
        &mut self,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<(), AuthError> {
        let headers = owned(headers);
        let response = HttpResponse {
            status,
            headers: &headers,
            body,
        };
        self.next = self.flow.on_response(response, NOW)?;
        Ok(())
    }

    /// Expects a GET of `url` and answers it.
    fn get(&mut self, url: &str, status: u16, body: &str) -> &mut Run {
        self.expect_get(url);
        let answered = self.answer(status, &[], body.as_bytes());
        if let Err(e) = answered {
            panic!("GET {url} answered {status}: {e}");
        }
        self
    }

    /// Expects a GET of `url` and answers it, which must fail.
    fn get_fails(&mut self, url: &str, status: u16, body: &str) -> AuthError {
        self.get_fails_with(url, status, &[], body.as_bytes())
    }

    fn get_fails_with(
        &mut self,
        url: &str,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> AuthError {
        self.expect_get(url);
        let e = self.answer(status, headers, body).unwrap_err();
        self.assert_over();
        e
    }

    /// The flow has ended: nothing more is asked, whatever is handed to it.
    fn assert_over(&mut self) {
        let headers = Vec::new();
        let response = HttpResponse {
            status: 200,
            headers: &headers,
            body: b"{}",
        };
        let e = self.flow.on_response(response, NOW).unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::OutOfOrder);
        let e = self.flow.on_redirect("code=x").unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::OutOfOrder);
    }

    /// Expects the registration request to `url` and answers it with `answer`.
    fn register(&mut self, url: &str, answer: &str) -> &mut Run {
        let request = self.fetch();
        assert_eq!(request.method, Method::Post);
        assert_eq!(request.url, url);
        assert_eq!(
            request.headers,
            owned(&[
                ("content-type", "application/json"),
                ("accept", "application/json")
            ])
        );
        assert_eq!(String::from_utf8(request.body.clone()).unwrap(), DCR_BODY);
        self.answer(201, &[], answer.as_bytes()).unwrap();
        self
    }

    /// Expects an authorization request at `endpoint` and returns its query parameters, the
    /// challenge and state replaced by `<challenge>` and `<state>` once checked.
    fn authorize(&mut self, endpoint: &str) -> Vec<(String, String)> {
        let Next::Authorize(authorization) = &self.next else {
            panic!("expected an authorization, got {:?}", self.next);
        };
        assert_eq!(authorization.redirect_uri, REDIRECT);
        let (base, query) = authorization.url.split_once('?').unwrap();
        assert_eq!(base, endpoint);
        assert!(!authorization.url.contains('#'));
        self.authorizations += 1;
        let mut params = pairs(query);
        for (name, value) in &mut params {
            match name.as_str() {
                "code_challenge" => {
                    assert_eq!(value.len(), 43);
                    self.challenge = Some(std::mem::replace(value, "<challenge>".into()));
                }
                "state" => {
                    assert_eq!(*value, authorization.state);
                    assert!(value.len() >= 22);
                    self.state = Some(std::mem::replace(value, "<state>".into()));
                }
                _ => {}
            }
        }
        params
    }

    /// The authorization request at `endpoint`, which must be the usual one for `client_id`
    /// with `scope` (if any) and `resource` (if any).
    fn authorize_as(
        &mut self,
        endpoint: &str,
        client_id: &str,
        scope: Option<&str>,
        resource: Option<&str>,
    ) -> &mut Run {
        let params = self.authorize(endpoint);
        let mut expected = vec![
            ("response_type", "code"),
            ("client_id", client_id),
            ("redirect_uri", REDIRECT),
            ("code_challenge", "<challenge>"),
            ("code_challenge_method", "S256"),
            ("state", "<state>"),
        ];
        expected.extend(scope.map(|s| ("scope", s)));
        expected.extend(resource.map(|r| ("resource", r)));
        assert_eq!(params, owned(&expected));
        self
    }

    fn redirect(&mut self, query: &str) -> Result<(), AuthError> {
        self.next = self.flow.on_redirect(query)?;
        Ok(())
    }

    /// The redirect the mock sends: the code, the state, and `iss` when given.
    fn redirect_query(&self, iss: Option<&str>) -> String {
        let mut query = form_urlencoded::Serializer::new(String::new());
        query.append_pair("code", "test-auth-code");
        query.append_pair("state", self.state.as_deref().unwrap());
        if let Some(iss) = iss {
            query.append_pair("iss", iss);
        }
        query.finish()
    }

    fn approve(&mut self, iss: Option<&str>) -> &mut Run {
        let query = self.redirect_query(iss);
        self.redirect(&query).unwrap();
        self
    }

    /// Expects a token request to `url`; returns its headers but `content-type` and `accept`,
    /// and its form, with the verifier replaced by `<verifier>` once checked against the
    /// challenge.
    fn token_request(&self, url: &str) -> (Pairs, Pairs) {
        let request = self.fetch();
        assert_eq!(request.method, Method::Post);
        assert_eq!(request.url, url);
        assert_eq!(
            request.headers[..2],
            owned(&[
                ("content-type", "application/x-www-form-urlencoded"),
                ("accept", "application/json")
            ])
        );
        let mut form = pairs(std::str::from_utf8(&request.body).unwrap());
        for (name, value) in &mut form {
            if name == "code_verifier" {
                assert!((43..=128).contains(&value.len()));
                let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(value.as_bytes()));
                assert_eq!(
                    Some(challenge),
                    self.challenge,
                    "S256(verifier) is the challenge"
                );
                *value = "<verifier>".into();
            }
        }
        (request.headers[2..].to_vec(), form)
    }

    /// Expects the usual token request for an authorization code to `url`, authenticated by
    /// `client` form fields (and no header).
    fn exchange(&self, url: &str, resource: Option<&str>, client: &[(&str, &str)]) -> &Run {
        let (headers, form) = self.token_request(url);
        assert_eq!(headers, []);
        let mut expected = vec![
            ("grant_type", "authorization_code"),
            ("code", "test-auth-code"),
            ("redirect_uri", REDIRECT),
            ("code_verifier", "<verifier>"),
        ];
        expected.extend(resource.map(|r| ("resource", r)));
        expected.extend_from_slice(client);
        assert_eq!(form, owned(&expected));
        self
    }

    /// Answers the token request with `body`; the flow must be done.
    fn grant(&mut self, body: &str) -> Grant {
        self.answer(200, &[], body.as_bytes()).unwrap();
        let Next::Done(grant) = self.next.clone() else {
            panic!("expected a grant, got {:?}", self.next);
        };
        self.assert_over();
        grant
    }
}

/// metadata-default, from the 401 to the grant, every request exact.
#[test]
fn metadata_default() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    let issuer_doc = as_doc(A, A, &[]);
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &issuer_doc,
        )
        .register(&format!("{A}/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{A}/authorize"),
            "test-client-id",
            None,
            Some(SERVER),
        )
        .approve(Some(A));
    assert_eq!(run.flow.issuer(), Some(A));
    assert_eq!(run.flow.resource(), Some(SERVER));
    run.exchange(
        &format!("{A}/token"),
        Some(SERVER),
        &[("client_id", "test-client-id")],
    );
    let grant = run.grant(TOKEN);
    assert_eq!(grant.access_token(), "test-token-1");
    assert_eq!(grant.authorization(), "Bearer test-token-1");
    assert_eq!(grant.expires_at_ms(), Some(NOW + 3_600_000));
    assert_eq!(grant.scope(), None);
    assert_eq!(grant.issuer(), A);
    assert_eq!(grant.resource(), Some(SERVER));
    assert_eq!(grant.token_endpoint(), format!("{A}/token"));
    assert_eq!(grant.client().client_id(), "test-client-id");
    assert_eq!(grant.client().client_secret(), Some("test-client-secret"));
    assert_eq!(grant.client().auth_method(), AuthMethod::None);
    assert_eq!(grant.obtained_by(), "authorization_code");
    assert_eq!(grant.client().issuer(), A);
    assert_eq!(grant.authorizations(), 1);
    assert_eq!(run.authorizations, 1);
}

fn pre_registered(issuer: Option<&str>) -> Config {
    Config {
        client_id: Some("pre-registered-client".into()),
        client_secret: Some("pre-registered-secret".into()),
        client_issuer: issuer.map(str::to_owned),
        ..config()
    }
}

fn pre_registration_metadata() -> String {
    as_doc(
        A,
        A,
        &[
            ("registration_endpoint", None),
            (
                "token_endpoint_auth_methods_supported",
                Some(r#"["client_secret_basic"]"#),
            ),
        ],
    )
}

fn step_up_403(scope: &str) -> String {
    format!(
        r#"Bearer scope="{scope}", resource_metadata="{}", error="insufficient_scope""#,
        prm_url()
    )
}

/// One authorization of the step-up scenarios' server, which names `decoy` as supported.
fn step_up_round(
    status: u16,
    header: &str,
    previous: Option<&Grant>,
    register: bool,
    scope: &str,
) -> Grant {
    let mut run = Run::after(SERVER, status, Some(header), config(), previous);
    run.get(
        &prm_url(),
        200,
        &prm(SERVER, A, r#","scopes_supported":["mcp:profile"]"#),
    )
    .get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &as_doc(A, A, &[]),
    );
    if register {
        run.register(&format!("{A}/register"), DCR_ANSWER);
    }
    run.authorize_as(
        &format!("{A}/authorize"),
        "test-client-id",
        Some(scope),
        Some(SERVER),
    )
    .approve(Some(A))
    .exchange(
        &format!("{A}/token"),
        Some(SERVER),
        &[("client_id", "test-client-id")],
    );
    run.grant(&format!(
        r#"{{"access_token":"test-token-s","token_type":"Bearer","expires_in":3600,"scope":"{scope}"}}"#
    ))
}

/// scope-step-up: the challenged scope (not the decoy), then on `insufficient_scope` the union
/// with what is held, with the same client and no second registration.
#[test]
fn scope_step_up() {
    let first_401 = format!(
        r#"Bearer scope="mcp:basic", resource_metadata="{}""#,
        prm_url()
    );
    let first = step_up_round(401, &first_401, None, true, "mcp:basic");
    assert_eq!(first.authorizations(), 1);
    let second = step_up_round(
        403,
        &step_up_403("mcp:write"),
        Some(&first),
        false,
        "mcp:basic mcp:write",
    );
    assert_eq!(second.scope(), Some("mcp:basic mcp:write"));
    assert_eq!(second.authorizations(), 2);
    // The stored grant, read back in another process, steps up the same way.
    let stored = Grant::from_json(first.to_json().as_bytes(), &Limits::DEFAULT).unwrap();
    let again = step_up_round(
        403,
        &step_up_403("mcp:write"),
        Some(&stored),
        false,
        "mcp:basic mcp:write",
    );
    assert_eq!(again.client().client_id(), "test-client-id");
}

/// scope-retry-limit: a server that never accepts the scope it asks for gets at most three
/// authorizations in all.
#[test]
fn scope_retry_limit() {
    let first_401 = format!(
        r#"Bearer scope="mcp:admin", resource_metadata="{}""#,
        prm_url()
    );
    let refused = format!(
        r#"Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="{}", error_description="Scope upgrade will never succeed""#,
        prm_url()
    );
    let mut grant = step_up_round(401, &first_401, None, true, "mcp:admin");
    let mut authorizations = 1;
    loop {
        let challenge = parse_challenge(403, Some(&refused));
        match Flow::start(SERVER, &challenge, config(), Some(&grant), entropy()) {
            Ok(_) => {
                grant = step_up_round(403, &refused, Some(&grant), false, "mcp:admin");
                authorizations += 1;
            }
            Err(e) => {
                assert_eq!(e.kind(), AuthErrorKind::TooManyAuthorizations);
                break;
            }
        }
        assert!(authorizations <= 3, "too many authorizations");
    }
    assert_eq!(authorizations, 3);
    // A lower bound is kept too.
    let config = Config {
        max_authorizations: 1,
        ..config()
    };
    let challenge = parse_challenge(403, Some(&refused));
    let e = Flow::start(SERVER, &challenge, config, Some(&grant), entropy()).unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::TooManyAuthorizations);
    // A 401 starts a new chain.
    let challenge = parse_challenge(401, Some(&first_401));
    assert!(
        Flow::start(
            SERVER,
            &challenge,
            Config::new("t", REDIRECT),
            Some(&grant),
            entropy()
        )
        .is_ok()
    );
}

/// Everything up to the redirect of metadata-default.
fn at_redirect() -> Run {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &as_doc(A, A, &[]),
        )
        .register(&format!("{A}/register"), DCR_ANSWER)
        .authorize(&format!("{A}/authorize"));
    run
}

/// A denial's message says what the server said (the refusals themselves are cases of
/// `conformance/v1/auth/code.json`).
#[test]
fn a_denial_says_what_the_server_said() {
    let state = at_redirect().state.unwrap();
    let iss = "iss=http%3A%2F%2Flocalhost%3A34235";
    let mut run = at_redirect();
    let e = run
        .redirect(&format!(
            "error=access_denied&error_description=No+thanks&state={state}&{iss}"
        ))
        .unwrap_err();
    assert!(e.message().contains("access_denied") && e.message().contains("No thanks"));
}

#[test]
fn calls_out_of_order_are_refused() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    let e = run.flow.on_redirect("code=x").unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::OutOfOrder);
    // The flow goes on as before.
    run.get(&prm_url(), 200, &prm(SERVER, A, ""));
    let mut run = at_redirect();
    let e = run.answer(200, &[], b"{}").unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::OutOfOrder);
    run.approve(Some(A));
    run.grant(TOKEN);
}

#[test]
fn registration_failures() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, "")).get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &as_doc(A, A, &[]),
    );
    let e = run
        .answer(400, &[], br#"{"error":"invalid_client_metadata"}"#)
        .unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::RegistrationFailed);
    assert!(e.message().contains("invalid_client_metadata"));
    run.assert_over();
}

#[test]
fn token_failures_never_show_secrets() {
    let mut run = at_redirect();
    run.approve(Some(A));
    let form = pairs(std::str::from_utf8(&run.fetch().body).unwrap());
    let verifier = form
        .iter()
        .find(|(k, _)| k == "code_verifier")
        .unwrap()
        .1
        .clone();
    let body = format!(
        r#"{{"error":"invalid_grant","error_description":"code test-auth-code with verifier {verifier} and secret test-client-secret"}}"#
    );
    let e = run.answer(400, &[], body.as_bytes()).unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::TokenRefused);
    for secret in ["test-auth-code", verifier.as_str(), "test-client-secret"] {
        assert!(!e.message().contains(secret), "{}", e.message());
        assert!(!e.to_string().contains(secret));
    }
    assert!(e.message().contains("invalid_grant"));
    run.assert_over();
}

fn refreshable() -> Grant {
    let mut run = at_redirect();
    run.approve(Some(A));
    run.grant(r#"{"access_token":"at-1","token_type":"Bearer","expires_in":60,"refresh_token":"rt-1","scope":"mcp:basic"}"#)
}

#[test]
fn refresh() {
    let grant = refreshable();
    let stored = Grant::from_json(grant.to_json().as_bytes(), &Limits::DEFAULT).unwrap();
    let (mut flow, next) = Flow::refresh(SERVER, &stored, config()).unwrap();
    let Next::Fetch(request) = next else { panic!() };
    assert_eq!(request.method, Method::Post);
    assert_eq!(request.url, format!("{A}/token"));
    assert_eq!(
        request.headers,
        owned(&[
            ("content-type", "application/x-www-form-urlencoded"),
            ("accept", "application/json")
        ])
    );
    assert_eq!(
        pairs(std::str::from_utf8(&request.body).unwrap()),
        owned(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", "rt-1"),
            ("resource", SERVER),
            ("client_id", "test-client-id"),
        ])
    );
    assert_eq!(flow.issuer(), Some(A));
    let headers = Vec::new();
    let next = flow
        .on_response(
            HttpResponse {
                status: 200,
                headers: &headers,
                body: br#"{"access_token":"at-2","token_type":"Bearer","expires_in":60}"#,
            },
            NOW + 120_000,
        )
        .unwrap();
    let Next::Done(refreshed) = next else {
        panic!()
    };
    assert_eq!(refreshed.access_token(), "at-2");
    assert_eq!(refreshed.refresh_token(), Some("rt-1"));
    assert_eq!(refreshed.scope(), Some("mcp:basic"));
    assert_eq!(refreshed.expires_at_ms(), Some(NOW + 180_000));
    assert_eq!(refreshed.client(), grant.client());
    assert!(grant.is_expired(NOW + 60_000));

    // A confidential client authenticates as it did.
    let mut run = Run::start(SERVER, 401, Some(&default_401()), pre_registered(Some(A)));
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &pre_registration_metadata(),
        )
        .authorize(&format!("{A}/authorize"));
    run.approve(Some(A));
    let grant = run.grant(r#"{"access_token":"at","token_type":"Bearer","refresh_token":"rt"}"#);
    let (_, next) = Flow::refresh(SERVER, &grant, config()).unwrap();
    let Next::Fetch(request) = next else { panic!() };
    assert_eq!(
        request.header("authorization"),
        Some("Basic cHJlLXJlZ2lzdGVyZWQtY2xpZW50OnByZS1yZWdpc3RlcmVkLXNlY3JldA==")
    );
}

/// Different entropy gives a different verifier and state; the same gives the same requests.
#[test]
fn randomness_comes_from_the_caller() {
    let start = |entropy: [u8; 64]| {
        let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
        let (flow, next) = Flow::start(
            SERVER,
            &parse_challenge(401, Some(&default_401())),
            config(),
            None,
            entropy,
        )
        .unwrap();
        run.flow = flow;
        run.next = next;
        run.get(&prm_url(), 200, &prm(SERVER, A, ""))
            .get(
                &format!("{A}/.well-known/oauth-authorization-server"),
                200,
                &as_doc(A, A, &[]),
            )
            .register(&format!("{A}/register"), DCR_ANSWER);
        let Next::Authorize(authorization) = run.next.clone() else {
            panic!()
        };
        authorization
    };
    assert_eq!(start([1; 64]), start([1; 64]));
    let (a, b) = (start([1; 64]), start([2; 64]));
    assert_ne!(a.state, b.state);
    assert_ne!(a.url, b.url);
}

// ---- DPoP (RFC 9449): auth/dpop and auth/dpop-nonce --------------------------------------

/// The 401 of the DPoP scenarios: the scheme is `DPoP`.
fn dpop_401() -> String {
    format!(r#"DPoP resource_metadata="{}""#, prm_url())
}

/// The authorization server of the DPoP scenarios: the default, offering ES256.
fn dpop_as_doc() -> String {
    as_doc(
        A,
        A,
        &[("dpop_signing_alg_values_supported", Some(r#"["ES256"]"#))],
    )
}

const DPOP_TOKEN: &str = r#"{"access_token":"dpop-token-1","token_type":"DPoP","expires_in":3600,"refresh_token":"rt-d"}"#;

/// What a proof says, once its header and signature are checked as a server checks them
/// (with the key its `jwk` header carries).
#[derive(Debug)]
struct Proof {
    /// The public JWK of the header, as JSON.
    jwk: String,
    /// The claims, as JSON, with the `jti` replaced by `<jti>`.
    claims: String,
    jti: String,
}

fn decode(part: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD.decode(part).unwrap()
}

/// Reads `proof`: the header must be exactly `typ`, `alg` and an EC P-256 `jwk` without `d`,
/// and the signature must verify with that key.
fn read_proof(proof: &str) -> Proof {
    let parts: Vec<&str> = proof.split('.').collect();
    assert_eq!(parts.len(), 3, "{proof}");
    let header = parse_str(
        std::str::from_utf8(&decode(parts[0])).unwrap(),
        &Limits::DEFAULT,
    )
    .unwrap();
    let Value::Object(header) = header else {
        panic!()
    };
    let keys: Vec<&str> = header.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["typ", "alg", "jwk"]);
    assert_eq!(header.get("typ").and_then(Value::as_str), Some("dpop+jwt"));
    assert_eq!(header.get("alg").and_then(Value::as_str), Some("ES256"));
    let Some(Value::Object(jwk)) = header.get("jwk") else {
        panic!()
    };
    let members: Vec<&str> = jwk.iter().map(|(k, _)| k).collect();
    assert_eq!(members, ["crv", "kty", "x", "y"], "no private `d`");
    assert_eq!(jwk.get("crv").and_then(Value::as_str), Some("P-256"));
    assert_eq!(jwk.get("kty").and_then(Value::as_str), Some("EC"));
    let coordinate = |name: &str| -> [u8; 32] {
        decode(jwk.get(name).and_then(Value::as_str).unwrap())
            .try_into()
            .unwrap()
    };
    let point = p256::EncodedPoint::from_affine_coordinates(
        &coordinate("x").into(),
        &coordinate("y").into(),
        false,
    );
    let key = VerifyingKey::from_encoded_point(&point).unwrap();
    let signature = Signature::from_slice(&decode(parts[2])).unwrap();
    key.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
        .expect("the proof's signature verifies with its jwk");
    let claims = String::from_utf8(decode(parts[1])).unwrap();
    let Value::Object(map) = parse_str(&claims, &Limits::DEFAULT).unwrap() else {
        panic!()
    };
    let jti = map.get("jti").and_then(Value::as_str).unwrap().to_owned();
    assert!(jti.len() >= 22, "a jti of 16 bytes at least: {jti}");
    Proof {
        jwk: Value::Object(jwk.clone()).to_json(),
        claims: claims.replacen(&jti, "<jti>", 1),
        jti,
    }
}

/// The claims a proof must carry, byte for byte, the `jti` aside.
fn claims(htm: &str, htu: &str, iat_ms: u64, token: Option<&str>, nonce: Option<&str>) -> String {
    let mut text = format!(
        r#"{{"jti":"<jti>","htm":"{htm}","htu":"{htu}","iat":{}"#,
        iat_ms / 1000
    );
    if let Some(token) = token {
        text.push_str(&format!(r#","ath":"{}""#, ath(token)));
    }
    if let Some(nonce) = nonce {
        text.push_str(&format!(r#","nonce":"{nonce}""#));
    }
    text.push('}');
    text
}

/// A DPoP scenario up to the token request: the 401 with the `DPoP` scheme, the metadata
/// offering ES256, registration, authorization, the redirect.
fn dpop_run(config: Config, as_doc: &str) -> Run {
    let challenge = parse_challenge(401, Some(&dpop_401()));
    assert_eq!(challenge.scheme, "DPoP");
    assert_eq!(
        challenge.resource_metadata.as_deref(),
        Some(prm_url().as_str())
    );
    let mut run = Run::start(SERVER, 401, Some(&dpop_401()), config);
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            as_doc,
        )
        .register(&format!("{A}/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{A}/authorize"),
            "test-client-id",
            None,
            Some(SERVER),
        )
        .approve(Some(A));
    run
}

/// The token request of a DPoP scenario: the usual form, and one `dpop` header, whose proof
/// is read.
fn dpop_token_request(run: &Run) -> Proof {
    let (headers, form) = run.token_request(&format!("{A}/token"));
    assert_eq!(
        form,
        owned(&[
            ("grant_type", "authorization_code"),
            ("code", "test-auth-code"),
            ("redirect_uri", REDIRECT),
            ("code_verifier", "<verifier>"),
            ("resource", SERVER),
            ("client_id", "test-client-id"),
        ])
    );
    assert_eq!(headers.len(), 1, "{headers:?}");
    assert_eq!(headers[0].0, "dpop");
    assert!(!headers[0].1.contains(','), "one proof");
    read_proof(&headers[0].1)
}

/// auth/dpop: the token request is proved, the DPoP token is kept with its key, and every MCP
/// request is proved with that key, `ath` binding the token.
#[test]
fn dpop() {
    let mut run = dpop_run(config(), &dpop_as_doc());
    let token_proof = dpop_token_request(&run);
    assert_eq!(
        token_proof.claims,
        claims("POST", &format!("{A}/token"), NOW, None, None)
    );
    let grant = run.grant(DPOP_TOKEN);
    assert_eq!(grant.token_type(), "DPoP");
    assert!(grant.is_dpop());
    assert_eq!(grant.authorization(), "DPoP dpop-token-1");

    // Each MCP request: POST, GET, DELETE, with a fresh jti each time.
    let mut jtis = vec![token_proof.jti.clone()];
    for (i, method) in ["POST", "GET", "DELETE"].into_iter().enumerate() {
        let jti = [i as u8 + 1; 16];
        let proof = grant
            .proof(method, SERVER, NOW + 1_000, &jti, None)
            .unwrap()
            .unwrap();
        let proof = read_proof(&proof);
        assert_eq!(proof.jwk, token_proof.jwk, "the key the token is bound to");
        assert_eq!(
            proof.claims,
            claims(method, SERVER, NOW + 1_000, Some("dpop-token-1"), None)
        );
        assert_eq!(proof.jti, URL_SAFE_NO_PAD.encode(jti));
        jtis.push(proof.jti);
    }
    jtis.sort();
    jtis.dedup();
    assert_eq!(jtis.len(), 4, "no jti twice");

    // htu leaves the query and fragment out.
    let proof = grant
        .proof("POST", &format!("{SERVER}?a=1#f"), NOW, &[7; 16], None)
        .unwrap()
        .unwrap();
    assert_eq!(
        read_proof(&proof).claims,
        claims("POST", SERVER, NOW, Some("dpop-token-1"), None)
    );

    // Stored and read back, the grant keeps its key (as a secret: Debug does not show it).
    let json = grant.to_json();
    assert!(json.contains(r#""token_type":"DPoP""#));
    assert!(json.contains(r#""dpop_key":""#));
    let secret = grant.dpop_key().unwrap().to_secret();
    assert!(!format!("{grant:?}").contains(&secret));
    let back = Grant::from_json(json.as_bytes(), &Limits::DEFAULT).unwrap();
    assert_eq!(back.authorization(), "DPoP dpop-token-1");
    let proof = back
        .proof("POST", SERVER, NOW, &[8; 16], Some("n"))
        .unwrap()
        .unwrap();
    let proof = read_proof(&proof);
    assert_eq!(proof.jwk, token_proof.jwk);
    assert_eq!(
        proof.claims,
        claims("POST", SERVER, NOW, Some("dpop-token-1"), Some("n"))
    );
    let thumbprint = URL_SAFE_NO_PAD.encode(Sha256::digest(token_proof.jwk.as_bytes()));
    assert_eq!(back.dpop_key().unwrap().thumbprint(), thumbprint);
}

/// auth/dpop-nonce at the authorization server: a 400 `use_dpop_nonce` with a `DPoP-Nonce`
/// is answered once, with a new proof (a new jti) carrying the nonce.
#[test]
fn dpop_nonce() {
    let mut run = dpop_run(config(), &dpop_as_doc());
    let first = dpop_token_request(&run);
    assert_eq!(
        first.claims,
        claims("POST", &format!("{A}/token"), NOW, None, None)
    );
    run.answer(
        400,
        &[("DPoP-Nonce", "conformance-as-dpop-nonce")],
        br#"{"error":"use_dpop_nonce","error_description":"Authorization server requires a DPoP nonce"}"#,
    )
    .unwrap();
    let second = dpop_token_request(&run);
    assert_eq!(
        second.claims,
        claims(
            "POST",
            &format!("{A}/token"),
            NOW,
            None,
            Some("conformance-as-dpop-nonce")
        )
    );
    assert_ne!(second.jti, first.jti);
    assert_eq!(second.jwk, first.jwk);
    let grant = run.grant(DPOP_TOKEN);
    assert_eq!(grant.authorization(), "DPoP dpop-token-1");

    // The resource server's nonce goes into the proofs of MCP requests.
    let proof = grant
        .proof(
            "POST",
            SERVER,
            NOW,
            &[5; 16],
            Some("conformance-rs-dpop-nonce"),
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        read_proof(&proof).claims,
        claims(
            "POST",
            SERVER,
            NOW,
            Some("dpop-token-1"),
            Some("conformance-rs-dpop-nonce")
        )
    );

    // Asked a second time, the flow does not go round again.
    let mut run = dpop_run(config(), &dpop_as_doc());
    let nonce_400 = br#"{"error":"use_dpop_nonce"}"#;
    run.answer(400, &[("dpop-nonce", "n1")], nonce_400).unwrap();
    let e = run
        .answer(400, &[("dpop-nonce", "n2")], nonce_400)
        .unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::TokenRefused);
    assert!(e.message().contains("use_dpop_nonce"), "{}", e.message());

    // Without the nonce header, or with another error, it is an ordinary refusal.
    let mut run = dpop_run(config(), &dpop_as_doc());
    let e = run.answer(400, &[], nonce_400).unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::TokenRefused);
    let mut run = dpop_run(config(), &dpop_as_doc());
    let e = run
        .answer(
            400,
            &[("dpop-nonce", "n1")],
            br#"{"error":"invalid_grant"}"#,
        )
        .unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::TokenRefused);
}

/// A nonce that is huge or not printable is refused for an MCP request (at the token
/// endpoint, a case of `conformance/v1/auth/dpop.json`), and so is a proof of a lowercase
/// method, a relative URL or too few jti bytes.
#[test]
fn dpop_hostile_nonces() {
    let huge = "n".repeat(100_000);
    let hostile = [
        huge.as_str(),
        "",
        "two words",
        "quote\"d",
        "back\\slash",
        "line\nbreak",
        "nul\0",
        "ünïcode",
    ];
    let mut run = dpop_run(config(), &dpop_as_doc());
    let grant = run.grant(DPOP_TOKEN);
    for nonce in hostile {
        let e = grant
            .proof("POST", SERVER, NOW, &[1; 16], Some(nonce))
            .unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::InvalidDpop, "{nonce:?}");
    }
    // Too few jti bytes, a lowercase method, a URL that is not absolute.
    for (method, url, jti) in [
        ("POST", SERVER, &[1_u8; 8][..]),
        ("post", SERVER, &[1; 16][..]),
        ("POST", "/mcp", &[1; 16][..]),
    ] {
        let e = grant.proof(method, url, NOW, jti, None).unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::InvalidDpop);
    }
}

/// DPoP asked for by the configuration, though not offered: the proof checks out, and a
/// Bearer answer makes a Bearer grant (when DPoP is used or not is a case of
/// `conformance/v1/auth/dpop.json`).
#[test]
fn dpop_is_used_when_offered_or_asked() {
    // Asked for by the configuration, though not offered.
    let always = Config {
        dpop: DpopUse::Always,
        ..config()
    };
    let mut run = dpop_run(always, &as_doc(A, A, &[]));
    dpop_token_request(&run);
    // A Bearer token to a proved request is a Bearer grant.
    let grant = run.grant(TOKEN);
    assert!(!grant.is_dpop());
    assert_eq!(grant.authorization(), "Bearer test-token-1");
    assert_eq!(
        grant.proof("POST", SERVER, NOW, &[1; 16], None).unwrap(),
        None
    );
    assert!(!grant.to_json().contains("dpop_key"));
}

/// A DPoP grant is refreshed with a proof made with its own key.
#[test]
fn dpop_refresh() {
    let mut run = dpop_run(config(), &dpop_as_doc());
    let token_proof = dpop_token_request(&run);
    let grant = run.grant(DPOP_TOKEN);
    let e = Flow::refresh(SERVER, &grant, config()).unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::InvalidDpop);
    let later = NOW + 7_200_000;
    let (mut flow, next) = Flow::refresh_at(SERVER, &grant, config(), later, [4; 32]).unwrap();
    let Next::Fetch(request) = next else { panic!() };
    assert_eq!(
        pairs(std::str::from_utf8(&request.body).unwrap()),
        owned(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", "rt-d"),
            ("resource", SERVER),
            ("client_id", "test-client-id"),
        ])
    );
    let proof = read_proof(request.header("dpop").unwrap());
    assert_eq!(proof.jwk, token_proof.jwk);
    assert_eq!(
        proof.claims,
        claims("POST", &format!("{A}/token"), later, None, None)
    );
    let headers = Vec::new();
    let next = flow
        .on_response(
            HttpResponse {
                status: 200,
                headers: &headers,
                body: br#"{"access_token":"dpop-token-2","token_type":"DPoP"}"#,
            },
            later,
        )
        .unwrap();
    let Next::Done(refreshed) = next else {
        panic!()
    };
    assert_eq!(refreshed.authorization(), "DPoP dpop-token-2");
    assert_eq!(refreshed.dpop_key(), grant.dpop_key());
}

/// A stored DPoP grant must hold its key, and a usable one.
#[test]
fn stored_dpop_grants_are_checked() {
    let mut run = dpop_run(config(), &dpop_as_doc());
    let json = run.grant(DPOP_TOKEN).to_json();
    let Value::Object(mut map) = parse_str(&json, &Limits::DEFAULT).unwrap() else {
        panic!()
    };
    let mut without = map.clone();
    without.remove("dpop_key");
    let e = Grant::from_json(without.to_json().as_bytes(), &Limits::DEFAULT).unwrap_err();
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidGrant, "/dpop_key")
    );
    for bad in ["", "not-a-key", "AAAA", &"A".repeat(43)] {
        map.insert("dpop_key", Value::from(bad));
        let e = Grant::from_json(map.to_json().as_bytes(), &Limits::DEFAULT).unwrap_err();
        assert_eq!(
            (e.kind(), e.pointer()),
            (AuthErrorKind::InvalidGrant, "/dpop_key"),
            "{bad}"
        );
    }
    // A key on a Bearer grant is refused too.
    let mut bearer = parse_str(&json, &Limits::DEFAULT).unwrap();
    if let Value::Object(m) = &mut bearer {
        m.insert("token_type", Value::from("Bearer"));
    }
    let e = Grant::from_json(bearer.to_json().as_bytes(), &Limits::DEFAULT).unwrap_err();
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidGrant, "/dpop_key")
    );
}

// The grants for machines: client credentials (auth/client-credentials-basic and -jwt), the
// JWT bearer grant of workload identity federation (auth/wif-jwt-bearer) and
// enterprise-managed authorization (auth/enterprise-managed-authorization).

/// The identity provider of enterprise-managed authorization.
const IDP: &str = "http://localhost:41005";

/// A P-256 client key in PKCS#8 PEM, made for these tests.
const CLIENT_KEY_PEM: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgonwAeLdCrIpcSy4R
g/VfNpdd61z5sCWDj1nEvXZVYRehRANCAAR/Mo/opqpum8FrPwClOYszWP1vOzab
e4YpwVR5FuPw0ICfZLuezVUyPsKngNuLKahQlDOVI9NTEBDzu0chvUQy
-----END PRIVATE KEY-----";

/// A configuration of the pre-registered client `id` (with `secret`) and `grant`.
fn machine_config(id: Option<&str>, secret: Option<&str>, grant: GrantType) -> Config {
    Config {
        client_id: id.map(str::to_owned),
        client_secret: secret.map(Into::into),
        client_issuer: Some(A.to_owned()),
        grant,
        ..config()
    }
}

/// A mock authorization server's metadata for a grant for machines: `grant_types` and
/// `methods` as JSON lists.
fn machine_as_doc(grant_types: &str, methods: &str, extra: &[(&str, Option<&str>)]) -> String {
    let mut changes = vec![
        ("grant_types_supported", Some(grant_types)),
        ("token_endpoint_auth_methods_supported", Some(methods)),
    ];
    changes.extend_from_slice(extra);
    as_doc(A, A, &changes)
}

/// A run through discovery to the first request after the metadata.
fn machine_run(config: Config, as_doc: &str) -> Run {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config);
    run.get(&prm_url(), 200, &prm(SERVER, A, "")).get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        as_doc,
    );
    run
}

/// The parts of a client assertion: its header and claims as JSON, verified with `key`.
fn read_assertion(assertion: &str, key: &ClientKey) -> (String, String) {
    let parts: Vec<&str> = assertion.split('.').collect();
    assert_eq!(parts.len(), 3, "{assertion}");
    let verifying = VerifyingKey::from_sec1_bytes(&key.public_key_sec1()).unwrap();
    let signature = Signature::from_slice(&decode(parts[2])).unwrap();
    let input = format!("{}.{}", parts[0], parts[1]);
    assert!(verifying.verify(input.as_bytes(), &signature).is_ok());
    (
        String::from_utf8(decode(parts[0])).unwrap(),
        String::from_utf8(decode(parts[1])).unwrap(),
    )
}

/// auth/client-credentials-jwt: the client authenticates with a JWT signed with its own key
/// (private_key_jwt), audience the issuer.
#[test]
fn client_credentials_jwt() {
    let key = ClientKey::from_pem(CLIENT_KEY_PEM).unwrap();
    let config = Config {
        client_key: Some(key.clone()),
        ..machine_config(
            Some("conformance-test-client"),
            None,
            GrantType::ClientCredentials,
        )
    };
    let doc = machine_as_doc(
        r#"["client_credentials"]"#,
        r#"["private_key_jwt"]"#,
        &[(
            "token_endpoint_auth_signing_alg_values_supported",
            Some(r#"["ES256"]"#),
        )],
    );
    let mut run = machine_run(config.clone(), &doc);
    let (headers, form) = run.token_request(&format!("{A}/token"));
    assert_eq!(headers, []);
    let names: Vec<&str> = form.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "grant_type",
            "resource",
            "client_id",
            "client_assertion_type",
            "client_assertion"
        ]
    );
    assert_eq!(form[0].1, "client_credentials");
    assert_eq!(form[2].1, "conformance-test-client");
    assert_eq!(form[3].1, CLIENT_ASSERTION_TYPE);
    let (header, claims) = read_assertion(&form[4].1, &key);
    assert_eq!(header, r#"{"alg":"ES256","typ":"JWT"}"#);
    let Value::Object(claims) = parse_str(&claims, &Limits::DEFAULT).unwrap() else {
        panic!("claims are an object");
    };
    let now = NOW / 1000;
    assert_eq!(
        claims.get("iss").and_then(Value::as_str),
        Some("conformance-test-client")
    );
    assert_eq!(
        claims.get("sub").and_then(Value::as_str),
        Some("conformance-test-client")
    );
    assert_eq!(claims.get("aud").and_then(Value::as_str), Some(A));
    assert_eq!(claims.get("iat").map(Value::to_json), Some(now.to_string()));
    assert_eq!(
        claims.get("exp").map(Value::to_json),
        Some((now + 60).to_string())
    );
    let first_jti = claims.get("jti").map(Value::to_json);
    assert!(first_jti.as_ref().is_some_and(|j| j.len() >= 22));
    let body = r#"{"access_token":"cc-token-1","token_type":"Bearer","expires_in":3600,"refresh_token":"r-1"}"#;
    let grant = run.grant(body);
    assert_eq!(grant.client().auth_method(), AuthMethod::PrivateKeyJwt);
    let stored = Grant::from_json(grant.to_json().as_bytes(), &Limits::DEFAULT).unwrap();
    assert_eq!(stored.obtained_by(), "client_credentials");
    assert_eq!(grant.client().client_secret(), None);

    // A refresh authenticates the same way, with a fresh assertion.
    let (mut refreshing, Next::Fetch(refresh)) =
        Flow::refresh_at(SERVER, &grant, config.clone(), NOW + 5_000, [9; 32]).unwrap()
    else {
        panic!("a refresh fetches");
    };
    let no_headers = Vec::new();
    let refreshed = refreshing
        .on_response(
            HttpResponse {
                status: 200,
                headers: &no_headers,
                body: TOKEN.as_bytes(),
            },
            NOW + 5_000,
        )
        .unwrap();
    let Next::Done(refreshed) = refreshed else {
        panic!("a refresh ends with a grant");
    };
    assert_eq!(
        refreshed.obtained_by(),
        "client_credentials",
        "a refresh keeps it"
    );
    let form = pairs(std::str::from_utf8(&refresh.body).unwrap());
    let assertion = &form
        .iter()
        .find(|(k, _)| k == "client_assertion")
        .unwrap()
        .1;
    let (_, claims) = read_assertion(assertion, &key);
    assert!(
        claims.contains(&format!(r#""iat":{}"#, now + 5)),
        "{claims}"
    );
    assert!(
        !claims.contains(first_jti.as_deref().unwrap()),
        "a fresh jti"
    );
    // Refreshed again later with other random bytes: another time, another jti.
    let (_, Next::Fetch(again)) =
        Flow::refresh_at(SERVER, &grant, config.clone(), NOW + 9_000, [7; 32]).unwrap()
    else {
        panic!("a refresh fetches");
    };
    let form = pairs(std::str::from_utf8(&again.body).unwrap());
    let (_, later) = read_assertion(
        &form
            .iter()
            .find(|(k, _)| k == "client_assertion")
            .unwrap()
            .1,
        &key,
    );
    assert!(later.contains(&format!(r#""iat":{}"#, now + 9)), "{later}");
    let jti = |claims: &str| claims.split("\"jti\":").nth(1).map(str::to_owned);
    assert_ne!(jti(&later), jti(&claims));
    // Without the time and random bytes, no assertion is signed at all.
    let e = Flow::refresh(SERVER, &grant, config.clone()).unwrap_err();
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidConfig, "/client/auth_method")
    );
    // Without the key, a private_key_jwt grant cannot be refreshed.
    let keyless = Config {
        client_key: None,
        ..config
    };
    let e = Flow::refresh_at(SERVER, &grant, keyless, NOW, [9; 32]).unwrap_err();
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidConfig, "/client_key")
    );
}

/// A server that takes no ES256 client assertion is refused before anything is signed.
#[test]
fn a_client_key_the_server_cannot_verify() {
    let config = Config {
        client_key: Some(ClientKey::from_pem(CLIENT_KEY_PEM).unwrap()),
        ..machine_config(Some("c"), None, GrantType::ClientCredentials)
    };
    let doc = machine_as_doc(
        r#"["client_credentials"]"#,
        r#"["private_key_jwt"]"#,
        &[(
            "token_endpoint_auth_signing_alg_values_supported",
            Some(r#"["RS256"]"#),
        )],
    );
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config);
    run.get(&prm_url(), 200, &prm(SERVER, A, ""));
    let e = run.get_fails(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &doc,
    );
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidConfig, "/client_key")
    );
    assert!(e.message().contains("RS256"), "{e}");
}

/// Confidential credentials go only to the authorization server the user bound them to:
/// without a binding nothing is sent at all, and a server naming another authorization
/// server gets no workload JWT, no ID-JAG exchange and no client secret.
#[test]
fn confidential_credentials_go_to_the_bound_server_alone() {
    const WORKLOAD_JWT: &str = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3In0.c2ln";
    let jwt = GrantType::JwtBearer {
        assertion: WORKLOAD_JWT.into(),
    };
    let unbound = [
        machine_config(Some("c"), Some("s3cret"), GrantType::ClientCredentials),
        machine_config(Some("c"), None, jwt.clone()),
        machine_config(Some("c"), Some("s3cret"), GrantType::AuthorizationCode),
        Config {
            client_key: Some(ClientKey::from_pem(CLIENT_KEY_PEM).unwrap()),
            ..machine_config(Some("c"), None, GrantType::ClientCredentials)
        },
    ];
    for config in unbound {
        let config = Config {
            client_issuer: None,
            ..config
        };
        let challenge = parse_challenge(401, Some(&default_401()));
        let e = Flow::start(SERVER, &challenge, config, None, entropy()).unwrap_err();
        assert_eq!(
            (e.kind(), e.pointer()),
            (AuthErrorKind::InvalidConfig, "/client_issuer"),
            "{e}"
        );
        assert!(e.message().contains("client_issuer"), "{e}");
    }
    // Bound elsewhere: the server's authorization server gets nothing.
    let doc = machine_as_doc(
        &format!(r#"["{}"]"#, toolnexus_auth::JWT_BEARER),
        r#"["none"]"#,
        &[],
    );
    let config = Config {
        client_issuer: Some("https://as.example".into()),
        ..machine_config(Some("c"), None, jwt)
    };
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config);
    run.get(&prm_url(), 200, &prm(SERVER, A, ""));
    let e = run.get_fails(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &doc,
    );
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidConfig, "/client_issuer"),
        "{e}"
    );
    assert!(!e.message().contains(WORKLOAD_JWT));
}

fn enterprise(secret: Option<&str>) -> GrantType {
    GrantType::Enterprise(Enterprise {
        token_endpoint: format!("{IDP}/token"),
        client_id: Some("conformance-test-idp-client".to_owned()),
        client_secret: secret.map(Into::into),
        id_token: "idp.id.token".into(),
    })
}

/// The Debug form of a configuration of a grant for machines shows none of its secrets (what
/// such a configuration must hold is a case of `conformance/v1/auth/machine.json`).
#[test]
fn a_machine_configuration_s_debug_form_shows_no_secret() {
    let shown = format!(
        "{:?}",
        machine_config(Some("c"), Some("top"), enterprise(Some("idp-pass")))
    );
    for secret in ["top", "idp-pass", "idp.id.token"] {
        assert!(!shown.contains(secret), "{shown}");
    }
}

/// A token request sent again for a DPoP nonce carries a new client assertion, not the one
/// the server has seen: each assertion's `jti` is used once (RFC 7523 §3).
#[test]
fn a_nonce_retry_signs_a_new_client_assertion() {
    let key = ClientKey::from_pem(CLIENT_KEY_PEM).unwrap();
    let config = Config {
        client_key: Some(key.clone()),
        ..machine_config(Some("machine"), None, GrantType::ClientCredentials)
    };
    let doc = machine_as_doc(
        r#"["client_credentials"]"#,
        r#"["private_key_jwt"]"#,
        &[("dpop_signing_alg_values_supported", Some(r#"["ES256"]"#))],
    );
    let mut run = machine_run(config, &doc);
    let assertion_jti = |run: &Run| {
        let (headers, form) = run.token_request(&format!("{A}/token"));
        assert_eq!(headers.len(), 1, "one DPoP proof: {headers:?}");
        assert_eq!(headers[0].0, "dpop");
        let assertion = &form
            .iter()
            .find(|(k, _)| k == "client_assertion")
            .unwrap()
            .1;
        let (_, claims) = read_assertion(assertion, &key);
        let Value::Object(claims) = parse_str(&claims, &Limits::DEFAULT).unwrap() else {
            panic!("claims are an object");
        };
        (
            claims.get("jti").map(Value::to_json).unwrap(),
            read_proof(&headers[0].1).claims,
        )
    };
    let (first, first_proof) = assertion_jti(&run);
    run.answer(
        400,
        &[("DPoP-Nonce", "as-nonce-1")],
        br#"{"error":"use_dpop_nonce"}"#,
    )
    .unwrap();
    let (second, second_proof) = assertion_jti(&run);
    assert_ne!(first, second, "a fresh client assertion");
    assert!(!first_proof.contains("as-nonce-1"));
    assert!(
        second_proof.contains(r#""nonce":"as-nonce-1""#),
        "{second_proof}"
    );
    let grant = run.grant(DPOP_TOKEN);
    assert!(grant.is_dpop());
}
