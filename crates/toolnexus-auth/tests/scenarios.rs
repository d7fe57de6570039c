//! Drives [`Flow`] through the client authorization scenarios of the MCP conformance suite
//! (0.2.0-alpha.12) with canned responses modelled on HTTP traces of a client that passes them,
//! and through hostile servers, asserting every request exactly: URLs, query parameters,
//! bodies and `Authorization` headers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use sha2::{Digest, Sha256};
use toolnexus_auth::{
    AuthError, AuthErrorKind, AuthMethod, CLIENT_ASSERTION_TYPE, ClientKey, Config, DpopUse,
    Enterprise, Flow, Grant, GrantType, HttpRequest, HttpResponse, ID_JAG_TYPE, ID_TOKEN_TYPE,
    JWT_BEARER, Limits, Method, Next, TOKEN_EXCHANGE, ath, parse_challenge,
};
use toolnexus_core::json::{Value, parse_str};

/// The MCP server's origin and URL, the authorization server's origin, the redirect URI.
const M: &str = "http://localhost:39611";
const SERVER: &str = "http://localhost:39611/mcp";
const A: &str = "http://localhost:34235";
const REDIRECT: &str = "http://127.0.0.1:33418/callback";
const NOW: u64 = 1_796_495_437_000;
const CIMD: &str = "https://conformance-test.local/client-metadata.json";

/// What the flow registers with, byte for byte.
const DCR_BODY: &str = r#"{"client_name":"toolnexus","redirect_uris":["http://127.0.0.1:33418/callback"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none","application_type":"native"}"#;
/// The mock's default registration answer.
const DCR_ANSWER: &str = r#"{"client_id":"test-client-id","client_secret":"test-client-secret","client_name":"toolnexus","redirect_uris":["http://127.0.0.1:33418/callback"]}"#;
const TOKEN: &str = r#"{"access_token":"test-token-1","token_type":"Bearer","expires_in":3600}"#;

/// Header or form pairs.
type Pairs = Vec<(String, String)>;

/// A hostile answer: status, headers, body, and the error kind and pointer it must give.
type Hostile<B> = (
    u16,
    Vec<(&'static str, &'static str)>,
    B,
    AuthErrorKind,
    &'static str,
);

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

/// The 401 of metadata-var1 and var2: no `resource_metadata`.
const BARE_401: &str =
    r#"Bearer error="invalid_token", error_description="Missing Authorization header""#;

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

/// metadata-var1: no `resource_metadata`; the OAuth document is missing, the OpenID one is
/// found.
#[test]
fn metadata_var1() {
    let mut run = Run::start(SERVER, 401, Some(BARE_401), config());
    let oidc = as_doc(
        A,
        A,
        &[
            ("jwks_uri", Some(&format!(r#""{A}/.well-known/jwks.json""#))),
            ("subject_types_supported", Some(r#"["public"]"#)),
            (
                "id_token_signing_alg_values_supported",
                Some(r#"["RS256"]"#),
            ),
        ],
    );
    let html_404 = "<!DOCTYPE html>\n<html><body><pre>Cannot GET</pre></body></html>\n";
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            404,
            html_404,
        )
        .get(&format!("{A}/.well-known/openid-configuration"), 200, &oidc)
        .register(&format!("{A}/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{A}/authorize"),
            "test-client-id",
            None,
            Some(SERVER),
        )
        .approve(Some(A))
        .exchange(
            &format!("{A}/token"),
            Some(SERVER),
            &[("client_id", "test-client-id")],
        );
    run.grant(TOKEN);
}

/// metadata-var2: the root resource metadata, a resource without a path (kept byte for byte,
/// no slash added), an issuer with a path (RFC 8414 path insertion, never the root document).
#[test]
fn metadata_var2() {
    let issuer = format!("{A}/tenant1");
    let mut run = Run::start(SERVER, 401, Some(BARE_401), config());
    run.get(&prm_url(), 404, "Cannot GET")
        .get(
            &format!("{M}/.well-known/oauth-protected-resource"),
            200,
            &prm(M, &issuer, ""),
        )
        .get(
            &format!("{A}/.well-known/oauth-authorization-server/tenant1"),
            200,
            &as_doc(&issuer, &issuer, &[]),
        )
        .register(&format!("{issuer}/register"), DCR_ANSWER);
    let Next::Authorize(authorization) = &run.next else {
        panic!("expected an authorization");
    };
    assert!(
        authorization
            .url
            .ends_with("&resource=http%3A%2F%2Flocalhost%3A39611"),
        "{}",
        authorization.url
    );
    run.authorize_as(
        &format!("{issuer}/authorize"),
        "test-client-id",
        None,
        Some(M),
    )
    .approve(Some(&issuer));
    let body = String::from_utf8(run.fetch().body.clone()).unwrap();
    assert!(
        body.contains("&resource=http%3A%2F%2Flocalhost%3A39611&"),
        "{body}"
    );
    run.exchange(
        &format!("{issuer}/token"),
        Some(M),
        &[("client_id", "test-client-id")],
    );
    assert_eq!(run.grant(TOKEN).resource(), Some(M));
}

/// metadata-var3: a custom resource metadata URL; the OpenID document with the path appended.
#[test]
fn metadata_var3() {
    let issuer = format!("{A}/tenant1");
    let custom = format!("{M}/custom/metadata/location.json");
    let header = format!(
        r#"Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="{custom}""#
    );
    let mut run = Run::start(SERVER, 401, Some(&header), config());
    run.get(&custom, 200, &prm(SERVER, &issuer, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server/tenant1"),
            404,
            "",
        )
        .get(
            &format!("{A}/.well-known/openid-configuration/tenant1"),
            404,
            "",
        )
        .get(
            &format!("{issuer}/.well-known/openid-configuration"),
            200,
            &as_doc(&issuer, &issuer, &[]),
        )
        .register(&format!("{issuer}/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{issuer}/authorize"),
            "test-client-id",
            None,
            Some(SERVER),
        )
        .approve(Some(&issuer))
        .exchange(
            &format!("{issuer}/token"),
            Some(SERVER),
            &[("client_id", "test-client-id")],
        );
    run.grant(TOKEN);
}

/// A resource metadata URL the challenge names is the only one tried.
#[test]
fn a_named_resource_metadata_that_is_missing_is_not_replaced() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    let e = run.get_fails(&prm_url(), 404, "");
    assert_eq!(e.kind(), AuthErrorKind::MetadataNotFound);
}

/// An authorization server whose every metadata URL is missing (and that is not a 2025-03-26
/// server) is refused.
#[test]
fn an_authorization_server_without_metadata_is_refused() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, "")).get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        404,
        "",
    );
    let e = run.get_fails(&format!("{A}/.well-known/openid-configuration"), 404, "");
    assert_eq!(e.kind(), AuthErrorKind::MetadataNotFound);
}

/// basic-cimd: the client metadata document URL is the client id; nothing is registered.
#[test]
fn basic_cimd() {
    let config = Config {
        client_metadata_url: Some(CIMD.into()),
        ..config()
    };
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config);
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &as_doc(
                A,
                A,
                &[("client_id_metadata_document_supported", Some("true"))],
            ),
        )
        .authorize_as(&format!("{A}/authorize"), CIMD, None, Some(SERVER))
        .approve(Some(A))
        .exchange(&format!("{A}/token"), Some(SERVER), &[("client_id", CIMD)]);
    let grant = run.grant(TOKEN);
    assert_eq!(grant.client().client_id(), CIMD);
    assert_eq!(grant.client().client_secret(), None);
}

/// Without the server's support, a configured client metadata URL is not used: the client
/// registers.
#[test]
fn a_client_metadata_url_the_server_does_not_accept_is_not_used() {
    let config = Config {
        client_metadata_url: Some(CIMD.into()),
        ..config()
    };
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config);
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &as_doc(A, A, &[]),
        )
        .register(&format!("{A}/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{A}/authorize"),
            "test-client-id",
            None,
            Some(SERVER),
        );
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

/// pre-registration: the configured pair, HTTP Basic at the token endpoint.
#[test]
fn pre_registration() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), pre_registered(Some(A)));
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &pre_registration_metadata(),
        )
        .authorize_as(
            &format!("{A}/authorize"),
            "pre-registered-client",
            None,
            Some(SERVER),
        )
        .approve(Some(A));
    let (headers, form) = run.token_request(&format!("{A}/token"));
    assert_eq!(
        headers,
        owned(&[(
            "authorization",
            "Basic cHJlLXJlZ2lzdGVyZWQtY2xpZW50OnByZS1yZWdpc3RlcmVkLXNlY3JldA=="
        )])
    );
    assert_eq!(
        form,
        owned(&[
            ("grant_type", "authorization_code"),
            ("code", "test-auth-code"),
            ("redirect_uri", REDIRECT),
            ("code_verifier", "<verifier>"),
            ("resource", SERVER),
        ])
    );
    let grant = run
        .grant(r#"{"access_token":"test-token-prereg-1","token_type":"Bearer","expires_in":3600}"#);
    assert_eq!(grant.client().auth_method(), AuthMethod::ClientSecretBasic);
}

/// Pre-registered credentials bound to another issuer are not sent to this one.
#[test]
fn pre_registered_credentials_stay_with_their_issuer() {
    let mut run = Run::start(
        SERVER,
        401,
        Some(&default_401()),
        pre_registered(Some("https://other.example")),
    );
    run.get(&prm_url(), 200, &prm(SERVER, A, ""));
    let e = run.get_fails(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &pre_registration_metadata(),
    );
    assert_eq!(e.kind(), AuthErrorKind::NoClientIdentity);
    assert!(!e.message().contains("pre-registered-secret"));
}

/// scope-from-www-authenticate: the challenge's scope.
#[test]
fn scope_from_www_authenticate() {
    let header = format!(
        r#"Bearer error="invalid_token", error_description="Missing Authorization header", scope="mcp:basic", resource_metadata="{}""#,
        prm_url()
    );
    let mut run = Run::start(SERVER, 401, Some(&header), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &as_doc(A, A, &[]),
        )
        .register(&format!("{A}/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{A}/authorize"),
            "test-client-id",
            Some("mcp:basic"),
            Some(SERVER),
        )
        .approve(Some(A));
    let grant = run.grant(r#"{"access_token":"test-token-2","token_type":"Bearer","expires_in":3600,"scope":"mcp:basic"}"#);
    assert_eq!(grant.scope(), Some("mcp:basic"));
}

/// scope-from-scopes-supported: every scope the resource supports.
#[test]
fn scope_from_scopes_supported() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(
        &prm_url(),
        200,
        &prm(
            SERVER,
            A,
            r#","scopes_supported":["mcp:basic","mcp:read","mcp:write"]"#,
        ),
    )
    .get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &as_doc(A, A, &[]),
    )
    .register(&format!("{A}/register"), DCR_ANSWER);
    let Next::Authorize(authorization) = &run.next else {
        panic!("expected an authorization");
    };
    assert!(
        authorization
            .url
            .contains("&scope=mcp%3Abasic+mcp%3Aread+mcp%3Awrite&"),
        "{}",
        authorization.url
    );
    run.authorize_as(
        &format!("{A}/authorize"),
        "test-client-id",
        Some("mcp:basic mcp:read mcp:write"),
        Some(SERVER),
    )
    .approve(Some(A));
    // The token response names no scope: the grant holds the scopes requested.
    assert_eq!(
        run.grant(TOKEN).scope(),
        Some("mcp:basic mcp:read mcp:write")
    );
}

/// scope-omitted-when-undefined: no scope anywhere, none sent (not even offline_access).
#[test]
fn scope_omitted_when_undefined() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &as_doc(A, A, &[("scopes_supported", Some(r#"["offline_access"]"#))]),
        )
        .register(&format!("{A}/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{A}/authorize"),
            "test-client-id",
            None,
            Some(SERVER),
        );
    assert_eq!(run.flow.scope(), None);
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

/// The token-endpoint-auth scenarios: one registration answer each, and the authentication
/// that follows.
fn token_endpoint_auth(method: &str, answer: &str) -> (Pairs, Pairs) {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &as_doc(
                A,
                A,
                &[(
                    "token_endpoint_auth_methods_supported",
                    Some(&format!(r#"["{method}"]"#)),
                )],
            ),
        )
        .register(&format!("{A}/register"), answer)
        .authorize_as(
            &format!("{A}/authorize"),
            "test-client-1796",
            None,
            Some(SERVER),
        )
        .approve(Some(A));
    let request = run.token_request(&format!("{A}/token"));
    run.grant(TOKEN);
    request
}

fn code_form(client: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", "test-auth-code"),
        ("redirect_uri", REDIRECT),
        ("code_verifier", "<verifier>"),
        ("resource", SERVER),
    ];
    form.extend_from_slice(client);
    owned(&form)
}

#[test]
fn token_endpoint_auth_basic() {
    let (headers, form) = token_endpoint_auth(
        "client_secret_basic",
        r#"{"client_id":"test-client-1796","client_secret":"test-secret-1796","client_name":"toolnexus","redirect_uris":["http://127.0.0.1:33418/callback"],"token_endpoint_auth_method":"client_secret_basic"}"#,
    );
    let basic = format!(
        "Basic {}",
        STANDARD.encode("test-client-1796:test-secret-1796")
    );
    assert_eq!(headers, owned(&[("authorization", &basic)]));
    assert_eq!(form, code_form(&[]));
}

#[test]
fn token_endpoint_auth_post() {
    let (headers, form) = token_endpoint_auth(
        "client_secret_post",
        r#"{"client_id":"test-client-1796","client_secret":"test-secret-1796","token_endpoint_auth_method":"client_secret_post"}"#,
    );
    assert_eq!(headers, []);
    assert_eq!(
        form,
        code_form(&[
            ("client_id", "test-client-1796"),
            ("client_secret", "test-secret-1796")
        ])
    );
}

#[test]
fn token_endpoint_auth_none() {
    let (headers, form) = token_endpoint_auth(
        "none",
        r#"{"client_id":"test-client-1796","client_name":"toolnexus","token_endpoint_auth_method":"none"}"#,
    );
    assert_eq!(headers, []);
    assert_eq!(form, code_form(&[("client_id", "test-client-1796")]));
}

/// resource-mismatch: the metadata speaks for another resource; nothing more is fetched.
#[test]
fn resource_mismatch() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    let e = run.get_fails(&prm_url(), 200, &prm("https://evil.example.com/mcp", A, ""));
    assert_eq!(e.kind(), AuthErrorKind::ResourceMismatch);
    assert_eq!(e.pointer(), "/resource");
}

/// A resource that is only a prefix of the server's URL, in metadata made for the server's
/// own path, would widen the token to every server under it (RFC 9728 §3.3).
#[test]
fn a_resource_only_prefixing_the_server_is_refused() {
    for prefix in [M.to_owned(), format!("{M}/"), format!("{M}/mc")] {
        let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
        let e = run.get_fails(&prm_url(), 200, &prm(&prefix, A, ""));
        assert_eq!(
            (e.kind(), e.pointer()),
            (AuthErrorKind::ResourceMismatch, "/resource"),
            "{prefix}"
        );
    }
}

/// A remote server cannot send the client at the machine's own network: not with the
/// challenge's resource_metadata, nor with the authorization server its metadata names.
#[test]
fn a_remote_server_cannot_steer_the_client_inward() {
    let remote = "https://mcp.example.com/mcp";
    for inward in [
        "http://127.0.0.1:8080/admin?delete=1",
        "https://169.254.169.254/latest/meta-data",
        "https://localhost/x",
    ] {
        let header = format!(r#"Bearer resource_metadata="{inward}""#);
        let challenge = parse_challenge(401, Some(&header));
        let e = Flow::start(remote, &challenge, config(), None, entropy()).unwrap_err();
        assert!(
            matches!(
                e.kind(),
                AuthErrorKind::InsecureEndpoint | AuthErrorKind::InvalidChallenge
            ),
            "{inward}: {e}"
        );
    }
    let challenge = parse_challenge(401, Some("Bearer"));
    let (mut flow, next) = Flow::start(remote, &challenge, config(), None, entropy()).unwrap();
    let Next::Fetch(request) = next else {
        panic!("discovery fetches");
    };
    assert_eq!(
        request.url,
        "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    );
    let body = prm(remote, "https://10.0.0.7", "");
    let no_headers = Vec::new();
    let e = flow
        .on_response(
            HttpResponse {
                status: 200,
                headers: &no_headers,
                body: body.as_bytes(),
            },
            NOW,
        )
        .unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::InsecureEndpoint, "{e}");
}

/// offline-access-scope: offline_access added where the server offers it; the client metadata
/// document wins over registration.
#[test]
fn offline_access_scope() {
    let config = Config {
        client_metadata_url: Some(CIMD.into()),
        ..config()
    };
    let metadata = as_doc(
        A,
        A,
        &[
            (
                "scopes_supported",
                Some(r#"["mcp:basic","offline_access"]"#),
            ),
            ("client_id_metadata_document_supported", Some("true")),
        ],
    );
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config);
    run.get(
        &prm_url(),
        200,
        &prm(SERVER, A, r#","scopes_supported":["mcp:basic"]"#),
    )
    .get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &metadata,
    )
    .authorize_as(
        &format!("{A}/authorize"),
        CIMD,
        Some("mcp:basic offline_access"),
        Some(SERVER),
    )
    .approve(Some(A))
    .exchange(&format!("{A}/token"), Some(SERVER), &[("client_id", CIMD)]);
    run.grant(TOKEN);

    // Registered instead, the client asks for refresh tokens.
    let mut run = Run::start(
        SERVER,
        401,
        Some(&default_401()),
        Config::new("toolnexus", REDIRECT),
    );
    run.get(
        &prm_url(),
        200,
        &prm(SERVER, A, r#","scopes_supported":["mcp:basic"]"#),
    )
    .get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &metadata,
    );
    assert!(
        String::from_utf8(run.fetch().body.clone())
            .unwrap()
            .contains(r#""grant_types":["authorization_code","refresh_token"]"#)
    );
    run.register(
        &format!("{A}/register"),
        r#"{"client_id":"test-client-1","token_endpoint_auth_method":"none"}"#,
    )
    .authorize_as(
        &format!("{A}/authorize"),
        "test-client-1",
        Some("mcp:basic offline_access"),
        Some(SERVER),
    );
}

/// offline-access-not-supported: not offered, not asked.
#[test]
fn offline_access_not_supported() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(
        &prm_url(),
        200,
        &prm(SERVER, A, r#","scopes_supported":["mcp:basic","mcp:read"]"#),
    )
    .get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &as_doc(
            A,
            A,
            &[("scopes_supported", Some(r#"["mcp:basic","mcp:read"]"#))],
        ),
    )
    .register(&format!("{A}/register"), DCR_ANSWER)
    .authorize_as(
        &format!("{A}/authorize"),
        "test-client-id",
        Some("mcp:basic mcp:read"),
        Some(SERVER),
    );
}

/// authorization-server-migration: after the resource moves to another authorization server,
/// the client registers there and nothing of the first server's registration is sent.
#[test]
fn authorization_server_migration() {
    const A2: &str = "http://localhost:42023";
    let challenge = format!(
        r#"Bearer scope="mcp:basic", resource_metadata="{}""#,
        prm_url()
    );
    let mut run = Run::start(SERVER, 401, Some(&challenge), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &as_doc(A, A, &[]),
        )
        .register(
            &format!("{A}/register"),
            r#"{"client_id":"as1-client-id-LEAKED-IF-SEEN-AT-AS2","client_secret":"as1-client-secret"}"#,
        )
        .authorize_as(
            &format!("{A}/authorize"),
            "as1-client-id-LEAKED-IF-SEEN-AT-AS2",
            Some("mcp:basic"),
            Some(SERVER),
        )
        .approve(Some(A))
        .exchange(
            &format!("{A}/token"),
            Some(SERVER),
            &[("client_id", "as1-client-id-LEAKED-IF-SEEN-AT-AS2")],
        );
    let first = run.grant(TOKEN);

    // The first token is refused: the resource now names the second server.
    let mut run = Run::after(SERVER, 401, Some(&challenge), config(), Some(&first));
    let mut seen = Vec::new();
    run.get(&prm_url(), 200, &prm(SERVER, A2, ""));
    seen.push(run.fetch().clone());
    run.get(
        &format!("{A2}/.well-known/oauth-authorization-server"),
        200,
        &as_doc(A2, A2, &[]),
    );
    seen.push(run.fetch().clone());
    run.register(
        &format!("{A2}/register"),
        r#"{"client_id":"as2-client-id","client_secret":"as2-client-secret"}"#,
    );
    let Next::Authorize(authorization) = &run.next else {
        panic!("expected an authorization");
    };
    let authorization_url = authorization.url.clone();
    run.authorize_as(
        &format!("{A2}/authorize"),
        "as2-client-id",
        Some("mcp:basic"),
        Some(SERVER),
    )
    .approve(Some(A2));
    seen.push(run.fetch().clone());
    run.exchange(
        &format!("{A2}/token"),
        Some(SERVER),
        &[("client_id", "as2-client-id")],
    );
    let second = run.grant(r#"{"access_token":"test-token-as2-1","token_type":"Bearer"}"#);
    assert_eq!(second.issuer(), A2);
    assert_eq!(second.client().client_id(), "as2-client-id");
    assert!(!authorization_url.contains("as1-"));
    for request in seen {
        let text = format!(
            "{} {:?} {}",
            request.url,
            request.headers,
            String::from_utf8_lossy(&request.body)
        );
        assert!(!text.contains("as1-"), "{text}");
        if let Some(basic) = request.header("authorization") {
            let decoded = STANDARD.decode(basic.trim_start_matches("Basic ")).unwrap();
            assert!(!String::from_utf8_lossy(&decoded).contains("as1-"));
        }
    }
}

/// Runs an iss scenario to the redirect: `advertised` is the metadata member, `iss` the one
/// the redirect carries.
fn iss_run(advertised: Option<bool>) -> Run {
    let change = advertised.map(|b| if b { "true" } else { "false" });
    let metadata = as_doc(
        A,
        A,
        &[("authorization_response_iss_parameter_supported", change)],
    );
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, ""))
        .get(
            &format!("{A}/.well-known/oauth-authorization-server"),
            200,
            &metadata,
        )
        .register(&format!("{A}/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{A}/authorize"),
            "test-client-id",
            None,
            Some(SERVER),
        );
    run
}

fn iss_refused(advertised: Option<bool>, iss: Option<&str>) -> AuthError {
    let mut run = iss_run(advertised);
    let query = run.redirect_query(iss);
    let e = run.redirect(&query).unwrap_err();
    // No token request follows.
    run.assert_over();
    e
}

#[test]
fn iss_supported() {
    let mut run = iss_run(Some(true));
    run.approve(Some(A)).exchange(
        &format!("{A}/token"),
        Some(SERVER),
        &[("client_id", "test-client-id")],
    );
    run.grant(TOKEN);
}

#[test]
fn iss_not_advertised() {
    let mut run = iss_run(None);
    run.approve(None);
    run.grant(TOKEN);
    let mut run = iss_run(Some(false));
    run.approve(None);
    run.grant(TOKEN);
}

#[test]
fn iss_supported_missing() {
    let e = iss_refused(Some(true), None);
    assert_eq!((e.kind(), e.pointer()), (AuthErrorKind::IssMissing, "/iss"));
}

#[test]
fn iss_wrong_issuer() {
    let e = iss_refused(Some(true), Some("https://evil.example.com"));
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::IssMismatch, "/iss")
    );
}

#[test]
fn iss_unexpected() {
    let e = iss_refused(None, Some("https://evil.example.com"));
    assert_eq!(e.kind(), AuthErrorKind::IssMismatch);
}

#[test]
fn iss_normalized() {
    let e = iss_refused(Some(true), Some(&format!("{A}/")));
    assert_eq!(e.kind(), AuthErrorKind::IssMismatch);
}

/// The iss is compared after percent-decoding, as the redirect carries it.
#[test]
fn iss_is_percent_decoded() {
    let mut run = iss_run(Some(true));
    let query = format!(
        "code=test-auth-code&state={}&iss=http%3A%2F%2Flocalhost%3A34235",
        run.state.clone().unwrap()
    );
    run.redirect(&format!("?{query}")).unwrap();
    run.grant(TOKEN);
}

/// metadata-issuer-mismatch: the document names another issuer; none of its endpoints is used.
#[test]
fn metadata_issuer_mismatch() {
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, ""));
    let e = run.get_fails(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &as_doc(
            "https://attacker.example.com",
            &format!("{A}/mismatched-as"),
            &[],
        ),
    );
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::IssuerMismatch, "/issuer")
    );
}

/// 2025-03-26-oauth-metadata-backcompat: no resource metadata; the server's origin is its
/// authorization server; no `resource` parameter.
#[test]
fn backcompat_2025_03_26_metadata() {
    let mut run = Run::start(SERVER, 401, Some(BARE_401), config());
    run.get(&prm_url(), 404, "")
        .get(
            &format!("{M}/.well-known/oauth-protected-resource"),
            404,
            "",
        )
        .get(
            &format!("{M}/.well-known/oauth-authorization-server"),
            200,
            &as_doc(M, &format!("{M}/oauth"), &[]),
        )
        .register(&format!("{M}/oauth/register"), DCR_ANSWER)
        .authorize_as(
            &format!("{M}/oauth/authorize"),
            "test-client-id",
            None,
            None,
        )
        .approve(Some(M))
        .exchange(
            &format!("{M}/oauth/token"),
            None,
            &[("client_id", "test-client-id")],
        );
    let grant = run.grant(TOKEN);
    assert_eq!(grant.resource(), None);
    assert_eq!(grant.issuer(), M);
}

/// 2025-03-26-oauth-endpoint-fallback: no metadata at all; `/register`, `/authorize` and
/// `/token` at the server's origin; no `iss` expected.
#[test]
fn backcompat_2025_03_26_endpoints() {
    let mut run = Run::start(SERVER, 401, None, config());
    run.get(&prm_url(), 404, "")
        .get(
            &format!("{M}/.well-known/oauth-protected-resource"),
            404,
            "",
        )
        .get(
            &format!("{M}/.well-known/oauth-authorization-server"),
            404,
            "",
        )
        .get(&format!("{M}/.well-known/openid-configuration"), 404, "")
        .register(&format!("{M}/register"), DCR_ANSWER)
        .authorize_as(&format!("{M}/authorize"), "test-client-id", None, None)
        .approve(None);
    // No methods listed: the secret goes by HTTP Basic (RFC 8414's default).
    let (headers, form) = run.token_request(&format!("{M}/token"));
    let basic = format!(
        "Basic {}",
        STANDARD.encode("test-client-id:test-client-secret")
    );
    assert_eq!(headers, owned(&[("authorization", &basic)]));
    assert_eq!(
        form,
        owned(&[
            ("grant_type", "authorization_code"),
            ("code", "test-auth-code"),
            ("redirect_uri", REDIRECT),
            ("code_verifier", "<verifier>"),
        ])
    );
    let grant =
        run.grant(r#"{"access_token":"test-token","token_type":"Bearer","expires_in":3600}"#);
    assert_eq!(grant.token_endpoint(), format!("{M}/token"));
}

/// Hostile metadata: each is refused with its kind and pointer, and the flow stops there.
#[test]
fn hostile_resource_metadata() {
    let cases: Vec<Hostile<Vec<u8>>> = vec![
        (
            302,
            vec![("location", "https://evil.example/prm")],
            Vec::new(),
            AuthErrorKind::Redirected,
            "",
        ),
        (
            200,
            vec![],
            format!(r#"{{"resource":"{SERVER}","authorization_servers":["http://as.example"]}}"#)
                .into_bytes(),
            AuthErrorKind::InsecureEndpoint,
            "/authorization_servers/0",
        ),
        (
            200,
            vec![],
            prm(
                SERVER,
                A,
                &format!(r#","padding":"{}""#, "x".repeat(300 * 1024)),
            )
            .into_bytes(),
            AuthErrorKind::TooLarge,
            "",
        ),
        (
            200,
            vec![],
            prm(
                SERVER,
                A,
                &format!(r#","deep":{}1{}"#, "[".repeat(40), "]".repeat(40)),
            )
            .into_bytes(),
            AuthErrorKind::TooDeep,
            "/deep/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0",
        ),
        (
            200,
            vec![],
            b"<html>".to_vec(),
            AuthErrorKind::InvalidJson,
            "",
        ),
        (
            200,
            vec![],
            br#"{"resource":"a","resource":"b"}"#.to_vec(),
            AuthErrorKind::InvalidJson,
            "/resource",
        ),
        (500, vec![], Vec::new(), AuthErrorKind::UnexpectedStatus, ""),
    ];
    for (status, headers, body, kind, at) in cases {
        let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
        let e = run.get_fails_with(&prm_url(), status, &headers, &body);
        assert_eq!((e.kind(), e.pointer()), (kind, at), "{status} {e}");
        assert!(e.message().len() < 1_000, "{}", e.message());
    }
}

#[test]
fn hostile_server_metadata() {
    let deep = format!(
        r#"{{"issuer":"{A}","x":{}{}}}"#,
        "{\"a\":".repeat(20),
        "1".to_owned() + &"}".repeat(20)
    );
    let cases: Vec<Hostile<String>> = vec![
        (
            301,
            vec![("location", "https://evil.example/metadata")],
            String::new(),
            AuthErrorKind::Redirected,
            "",
        ),
        (
            200,
            vec![],
            as_doc(
                A,
                A,
                &[("token_endpoint", Some(r#""http://as.example/token""#))],
            ),
            AuthErrorKind::InsecureEndpoint,
            "/token_endpoint",
        ),
        (
            200,
            vec![],
            as_doc(
                A,
                A,
                &[(
                    "authorization_endpoint",
                    Some(r#""http://192.168.1.1/authorize""#),
                )],
            ),
            AuthErrorKind::InsecureEndpoint,
            "/authorization_endpoint",
        ),
        (
            200,
            vec![],
            as_doc(
                A,
                A,
                &[(
                    "registration_endpoint",
                    Some(r#""http://as.example/register""#),
                )],
            ),
            AuthErrorKind::InsecureEndpoint,
            "/registration_endpoint",
        ),
        (
            200,
            vec![],
            as_doc(A, A, &[("code_challenge_methods_supported", None)]),
            AuthErrorKind::PkceNotSupported,
            "/code_challenge_methods_supported",
        ),
        (
            200,
            vec![],
            as_doc(&format!("{A}/"), A, &[]),
            AuthErrorKind::IssuerMismatch,
            "/issuer",
        ),
        (
            200,
            vec![],
            as_doc(A, A, &[("issuer", Some("7"))]),
            AuthErrorKind::InvalidMetadata,
            "/issuer",
        ),
        (
            200,
            vec![],
            deep,
            AuthErrorKind::TooDeep,
            "/x/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a",
        ),
        (
            200,
            vec![],
            as_doc(
                A,
                A,
                &[("big", Some(&format!("\"{}\"", "y".repeat(257 * 1024))))],
            ),
            AuthErrorKind::TooLarge,
            "",
        ),
    ];
    for (status, headers, body, kind, at) in cases {
        let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
        run.get(&prm_url(), 200, &prm(SERVER, A, ""));
        let e = run.get_fails_with(
            &format!("{A}/.well-known/oauth-authorization-server"),
            status,
            &headers,
            body.as_bytes(),
        );
        assert_eq!((e.kind(), e.pointer()), (kind, at), "{status} {e}");
    }
}

/// A challenge that points at plain http elsewhere, or at nothing usable, is refused before
/// anything is fetched; so is a plain-http server that is not loopback.
#[test]
fn hostile_challenges() {
    let start = |server: &str, header: &str| {
        let challenge = parse_challenge(401, Some(header));
        Flow::start(server, &challenge, config(), None, entropy()).unwrap_err()
    };
    let e = start(
        SERVER,
        r#"Bearer resource_metadata="http://evil.example/prm""#,
    );
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InsecureEndpoint, "/resource_metadata")
    );
    let e = start(SERVER, r#"Bearer resource_metadata="ftp://x/prm""#);
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidChallenge, "/resource_metadata")
    );
    let e = start(SERVER, "Bearer scope=\"a\u{7}b\"");
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidChallenge, "/scope")
    );
    let e = start("http://mcp.example/mcp", "Bearer");
    assert_eq!(e.kind(), AuthErrorKind::InsecureEndpoint);
    let e = start(
        "http://mcp.example/mcp",
        r#"Bearer resource_metadata="https://mcp.example/prm""#,
    );
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InsecureEndpoint, "")
    );
    let e = start("not a url", "Bearer");
    assert_eq!(e.kind(), AuthErrorKind::InvalidConfig);
    // A relative resource_metadata is resolved against the server.
    let challenge = parse_challenge(401, Some(r#"Bearer resource_metadata="/prm.json""#));
    let (_, next) = Flow::start(SERVER, &challenge, config(), None, entropy()).unwrap();
    let Next::Fetch(request) = next else { panic!() };
    assert_eq!(request.url, format!("{M}/prm.json"));
    // An https server is fine anywhere.
    let challenge = parse_challenge(401, None);
    let (_, next) = Flow::start(
        "https://mcp.example.com/a/",
        &challenge,
        config(),
        None,
        entropy(),
    )
    .unwrap();
    let Next::Fetch(request) = next else { panic!() };
    assert_eq!(
        request.url,
        "https://mcp.example.com/.well-known/oauth-protected-resource/a"
    );
}

#[test]
fn only_challenges_start_a_flow() {
    for (status, header) in [
        (403, Some(r#"Bearer error="invalid_token""#)),
        (403, None),
        (200, None),
        (500, Some("Bearer")),
    ] {
        let challenge = parse_challenge(status, header);
        let e = Flow::start(SERVER, &challenge, config(), None, entropy()).unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::NotChallenged, "{status}");
    }
}

#[test]
fn configurations_are_checked() {
    let challenge = parse_challenge(401, None);
    for (config, at) in [
        (Config::new("t", "not a uri"), "/redirect_uri"),
        (
            Config::new("t", "http://127.0.0.1:1/cb#frag"),
            "/redirect_uri",
        ),
        (
            Config {
                client_metadata_url: Some("http://x.example/meta.json".into()),
                ..config()
            },
            "/client_metadata_url",
        ),
        (
            Config {
                client_metadata_url: Some("https://x.example/".into()),
                ..config()
            },
            "/client_metadata_url",
        ),
        (
            Config {
                client_secret: Some("s".into()),
                ..config()
            },
            "/client_secret",
        ),
    ] {
        let e = Flow::start(SERVER, &challenge, config, None, entropy()).unwrap_err();
        assert_eq!((e.kind(), e.pointer()), (AuthErrorKind::InvalidConfig, at));
    }
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

#[test]
fn redirects_are_checked() {
    let state = at_redirect().state.unwrap();
    let iss = "iss=http%3A%2F%2Flocalhost%3A34235";
    let cases = [
        (
            format!("code=c&state=wrong&{iss}"),
            AuthErrorKind::StateMismatch,
            "/state",
        ),
        (
            format!("code=c&{iss}"),
            AuthErrorKind::StateMismatch,
            "/state",
        ),
        (
            format!("error=access_denied&error_description=No+thanks&state={state}&{iss}"),
            AuthErrorKind::AuthorizationDenied,
            "/error",
        ),
        (
            format!("state={state}&{iss}"),
            AuthErrorKind::InvalidRedirect,
            "/code",
        ),
        (
            format!("code=&state={state}&{iss}"),
            AuthErrorKind::InvalidRedirect,
            "/code",
        ),
        (
            format!("code=a&code=b&state={state}&{iss}"),
            AuthErrorKind::InvalidRedirect,
            "/code",
        ),
        (
            format!("code=a&state={state}&state={state}&{iss}"),
            AuthErrorKind::InvalidRedirect,
            "/state",
        ),
        (
            format!("error=access_denied&state={state}"),
            AuthErrorKind::IssMissing,
            "/iss",
        ),
    ];
    for (query, kind, at) in cases {
        let mut run = at_redirect();
        let e = run.redirect(&query).unwrap_err();
        assert_eq!((e.kind(), e.pointer()), (kind, at), "{query}");
        run.assert_over();
    }
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

    let mut run = Run::start(SERVER, 401, Some(&default_401()), config());
    run.get(&prm_url(), 200, &prm(SERVER, A, "")).get(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &as_doc(A, A, &[]),
    );
    let e = run
        .answer(307, &[("location", "https://evil.example/register")], b"")
        .unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::Redirected);
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

    let mut run = at_redirect();
    run.approve(Some(A));
    let e = run
        .answer(200, &[], br#"{"access_token":"t","token_type":"DPoP"}"#)
        .unwrap_err();
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::UnsupportedTokenType, "/token_type")
    );
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

#[test]
fn refresh_failures() {
    let grant = refreshable();
    let (mut flow, _) = Flow::refresh(SERVER, &grant, config()).unwrap();
    let headers = Vec::new();
    let e = flow
        .on_response(
            HttpResponse {
                status: 400,
                headers: &headers,
                body: br#"{"error":"invalid_grant","error_description":"rt-1 expired"}"#,
            },
            NOW,
        )
        .unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::TokenRefused);
    assert!(!e.message().contains("rt-1"), "{}", e.message());

    let e = Flow::refresh("http://localhost:1/other", &grant, config()).unwrap_err();
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::ResourceMismatch, "/resource")
    );

    let mut run = at_redirect();
    run.approve(Some(A));
    let no_refresh = run.grant(TOKEN);
    let e = Flow::refresh(SERVER, &no_refresh, config()).unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::NoRefreshToken);
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

/// A nonce that is huge or not printable is refused, at the token endpoint and for an MCP
/// request alike, and never shown.
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
    let nonce_400 = br#"{"error":"use_dpop_nonce"}"#;
    for nonce in hostile {
        let mut run = dpop_run(config(), &dpop_as_doc());
        let e = run
            .answer(400, &[("dpop-nonce", nonce)], nonce_400)
            .unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::InvalidDpop, "{nonce:?}");
        if nonce.len() > 3 {
            assert!(!e.message().contains(nonce), "{}", e.message());
        }
        run.assert_over();
    }
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

/// DPoP is used when the server offers ES256 or the configuration asks for it, and never
/// when the configuration refuses it; a DPoP token to a request not proved is refused.
#[test]
fn dpop_is_used_when_offered_or_asked() {
    // Not offered (or only another algorithm): a Bearer flow, as before.
    for doc in [
        as_doc(A, A, &[]),
        as_doc(
            A,
            A,
            &[("dpop_signing_alg_values_supported", Some(r#"["RS256"]"#))],
        ),
    ] {
        let mut run = dpop_run(config(), &doc);
        let (headers, _) = run.token_request(&format!("{A}/token"));
        assert_eq!(headers, []);
        let e = run.answer(200, &[], DPOP_TOKEN.as_bytes()).unwrap_err();
        assert_eq!(
            (e.kind(), e.pointer()),
            (AuthErrorKind::UnsupportedTokenType, "/token_type")
        );
    }
    // Refused by the configuration.
    let never = Config {
        dpop: DpopUse::Never,
        ..config()
    };
    let run = dpop_run(never, &dpop_as_doc());
    let (headers, _) = run.token_request(&format!("{A}/token"));
    assert_eq!(headers, []);
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

fn basic(id: &str, secret: &str) -> (String, String) {
    (
        "authorization".to_owned(),
        format!("Basic {}", STANDARD.encode(format!("{id}:{secret}"))),
    )
}

/// auth/client-credentials-basic: no browser, the client's secret with HTTP Basic.
#[test]
fn client_credentials_basic() {
    let config = machine_config(
        Some("conformance-test-client"),
        Some("conformance-test-secret"),
        GrantType::ClientCredentials,
    );
    let doc = machine_as_doc(
        r#"["client_credentials"]"#,
        r#"["client_secret_basic"]"#,
        &[],
    );
    let mut run = machine_run(config, &doc);
    let (headers, form) = run.token_request(&format!("{A}/token"));
    assert_eq!(
        headers,
        [basic("conformance-test-client", "conformance-test-secret")]
    );
    assert_eq!(
        form,
        owned(&[("grant_type", "client_credentials"), ("resource", SERVER)])
    );
    let grant = run.grant(TOKEN);
    assert_eq!(grant.authorization(), "Bearer test-token-1");
    assert_eq!(grant.obtained_by(), "client_credentials");
    assert_eq!(grant.client().auth_method(), AuthMethod::ClientSecretBasic);
    assert_eq!(
        run.flow.client().map(|c| c.client_id()),
        Some("conformance-test-client")
    );
    assert_eq!(run.authorizations, 0, "no person was asked");
}

/// A server that does not offer the grant asked for is refused before any token request.
#[test]
fn a_machine_grant_the_server_does_not_offer() {
    let config = machine_config(Some("c"), Some("s"), GrantType::ClientCredentials);
    let mut run = Run::start(SERVER, 401, Some(&default_401()), config);
    run.get(&prm_url(), 200, &prm(SERVER, A, ""));
    let e = run.get_fails(
        &format!("{A}/.well-known/oauth-authorization-server"),
        200,
        &as_doc(A, A, &[]),
    );
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::GrantNotSupported, "/grant_types_supported")
    );
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
    let doc = machine_as_doc(&format!(r#"["{JWT_BEARER}"]"#), r#"["none"]"#, &[]);
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

/// auth/wif-jwt-bearer: the workload's JWT is the grant; a refusal is final, and the
/// assertion appears in no message.
#[test]
fn workload_identity_jwt_bearer() {
    const WORKLOAD_JWT: &str = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnbmF0dXJl";
    let grant_type = GrantType::JwtBearer {
        assertion: WORKLOAD_JWT.into(),
    };
    let doc = machine_as_doc(
        &format!(r#"["{JWT_BEARER}"]"#),
        r#"["none"]"#,
        &[("registration_endpoint", None)],
    );
    let config = machine_config(Some("conformance-wif-workload"), None, grant_type.clone());
    let mut run = machine_run(config, &doc);
    let (headers, form) = run.token_request(&format!("{A}/token"));
    assert_eq!(headers, []);
    assert_eq!(
        form,
        owned(&[
            ("grant_type", JWT_BEARER),
            ("assertion", WORKLOAD_JWT),
            ("resource", SERVER),
            ("client_id", "conformance-wif-workload"),
        ])
    );
    let grant = run.grant(TOKEN);
    assert_eq!(grant.authorization(), "Bearer test-token-1");
    assert_eq!(grant.obtained_by(), "jwt_bearer");

    // With no client id, the request carries no client authentication (RFC 7523 §3.1); a
    // refusal ends the flow.
    let mut run = machine_run(machine_config(None, None, grant_type), &doc);
    let (_, form) = run.token_request(&format!("{A}/token"));
    assert_eq!(
        form,
        owned(&[
            ("grant_type", JWT_BEARER),
            ("assertion", WORKLOAD_JWT),
            ("resource", SERVER),
        ])
    );
    let refusal = format!(
        r#"{{"error":"invalid_grant","error_description":"bad assertion {WORKLOAD_JWT}"}}"#
    );
    let e = run.answer(400, &[], refusal.as_bytes()).unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::TokenRefused);
    assert!(e.message().contains("invalid_grant"), "{e}");
    assert!(!e.message().contains(WORKLOAD_JWT), "{e}");
    run.assert_over();
}

fn enterprise(secret: Option<&str>) -> GrantType {
    GrantType::Enterprise(Enterprise {
        token_endpoint: format!("{IDP}/token"),
        client_id: Some("conformance-test-idp-client".to_owned()),
        client_secret: secret.map(Into::into),
        id_token: "idp.id.token".into(),
    })
}

/// A run of enterprise-managed authorization up to the token exchange request.
fn enterprise_run(grant_type: GrantType) -> Run {
    let config = machine_config(
        Some("conformance-test-xaa-client"),
        Some("conformance-test-xaa-secret"),
        grant_type,
    );
    let doc = machine_as_doc(
        &format!(r#"["{JWT_BEARER}"]"#),
        r#"["client_secret_basic"]"#,
        &[],
    );
    machine_run(config, &doc)
}

/// auth/enterprise-managed-authorization: the ID token exchanged at the identity provider
/// for an ID-JAG (RFC 8693), then the ID-JAG presented with the JWT bearer grant.
#[test]
fn enterprise_managed_authorization() {
    let mut run = enterprise_run(enterprise(None));
    let (headers, form) = run.token_request(&format!("{IDP}/token"));
    assert_eq!(headers, []);
    assert_eq!(
        form,
        owned(&[
            ("grant_type", TOKEN_EXCHANGE),
            ("requested_token_type", ID_JAG_TYPE),
            ("audience", A),
            ("resource", SERVER),
            ("subject_token", "idp.id.token"),
            ("subject_token_type", ID_TOKEN_TYPE),
            ("client_id", "conformance-test-idp-client"),
        ])
    );
    let exchanged = format!(
        r#"{{"access_token":"id.jag.jwt","issued_token_type":"{ID_JAG_TYPE}","token_type":"N_A"}}"#
    );
    run.answer(200, &[], exchanged.as_bytes()).unwrap();
    let (headers, form) = run.token_request(&format!("{A}/token"));
    assert_eq!(
        headers,
        [basic(
            "conformance-test-xaa-client",
            "conformance-test-xaa-secret"
        )]
    );
    assert_eq!(
        form,
        owned(&[
            ("grant_type", JWT_BEARER),
            ("assertion", "id.jag.jwt"),
            ("resource", SERVER),
        ])
    );
    let grant = run.grant(TOKEN);
    assert_eq!(grant.issuer(), A);
    assert_eq!(grant.obtained_by(), "enterprise");
    assert_eq!(grant.client().client_id(), "conformance-test-xaa-client");

    // A secret at the identity provider goes with HTTP Basic.
    let run = enterprise_run(enterprise(Some("idp secret")));
    let (headers, form) = run.token_request(&format!("{IDP}/token"));
    assert_eq!(
        headers,
        [basic("conformance-test-idp-client", "idp+secret")]
    );
    assert!(form.iter().all(|(k, _)| k != "client_id"));
}

/// What the identity provider may answer wrongly, each refused with its kind and pointer, and
/// with no token in the message.
#[test]
fn enterprise_exchange_refusals() {
    let cases: [(u16, String, AuthErrorKind, &str); 4] = [
        (
            400,
            r#"{"error":"invalid_grant","error_description":"idp.id.token expired"}"#.into(),
            AuthErrorKind::TokenRefused,
            "",
        ),
        (
            200,
            r#"{"access_token":"id.jag.jwt","issued_token_type":"urn:ietf:params:oauth:token-type:access_token"}"#.into(),
            AuthErrorKind::InvalidResponse,
            "/issued_token_type",
        ),
        (
            200,
            format!(r#"{{"issued_token_type":"{ID_JAG_TYPE}"}}"#),
            AuthErrorKind::InvalidResponse,
            "/access_token",
        ),
        (200, "[]".into(), AuthErrorKind::InvalidResponse, ""),
    ];
    for (status, body, kind, pointer) in cases {
        let mut run = enterprise_run(enterprise(None));
        let e = run.answer(status, &[], body.as_bytes()).unwrap_err();
        assert_eq!((e.kind(), e.pointer()), (kind, pointer), "{body}");
        assert!(!e.message().contains("idp.id.token"), "{e}");
        run.assert_over();
    }
    let mut run = enterprise_run(enterprise(None));
    let e = run
        .answer(302, &[("location", "https://elsewhere.example/")], b"")
        .unwrap_err();
    assert_eq!(e.kind(), AuthErrorKind::Redirected);
}

/// What a configuration of a grant for machines must hold, refused before any request.
#[test]
fn machine_grant_configurations() {
    let refused = |config: Config| {
        let challenge = parse_challenge(401, Some(&default_401()));
        Flow::start(SERVER, &challenge, config, None, entropy())
            .map(|_| ())
            .unwrap_err()
    };
    let e = refused(machine_config(None, None, GrantType::ClientCredentials));
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidConfig, "/client_id")
    );
    let e = refused(machine_config(
        None,
        None,
        GrantType::JwtBearer {
            assertion: String::new().into(),
        },
    ));
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidConfig, "/grant/assertion")
    );
    let insecure = GrantType::Enterprise(Enterprise {
        token_endpoint: "http://idp.example/token".into(),
        client_id: None,
        client_secret: None,
        id_token: "t".into(),
    });
    let e = refused(machine_config(Some("c"), None, insecure));
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InsecureEndpoint, "/grant/token_endpoint")
    );
    let e = refused(machine_config(None, None, enterprise(None)));
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidConfig, "/client_id")
    );
    let e = refused(Config {
        client_key: Some(ClientKey::from_pem(CLIENT_KEY_PEM).unwrap()),
        ..config()
    });
    assert_eq!(
        (e.kind(), e.pointer()),
        (AuthErrorKind::InvalidConfig, "/client_key")
    );
    // The Debug form of a configuration shows no secret of a grant.
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
