//! No secret's text in any `Debug`, `Display` or error message: configurations, grants and
//! flows built with arbitrary secrets (client secrets, a workload's assertion, an ID token and
//! the identity provider's secret, an authorization code, access and refresh tokens, an
//! ID-JAG, a DPoP key), driven through every grant to a grant and to refusals whose servers
//! echo every secret back. Each `Debug` form along the way, each `Next`, each error's
//! `Display`, `Debug` and message is searched for every secret, and for the ones the flow
//! makes itself (the PKCE verifier, client assertions, DPoP proofs) as soon as they are sent.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::fmt::Debug;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use toolnexus_auth::{
    AuthError, ClientKey, Config, DpopKey, DpopUse, Enterprise, Flow, Grant, GrantType,
    HttpRequest, HttpResponse, JWT_BEARER, Limits, Next, Secret, parse_challenge,
};

const SERVER: &str = "http://localhost:5/mcp";
const A: &str = "http://localhost:9";
const IDP: &str = "http://localhost:11/token";
const REDIRECT: &str = "http://127.0.0.1:7/callback";

/// A P-256 key in PKCS#8 PEM (made for these tests with `openssl genpkey`).
const PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgonwAeLdCrIpcSy4R
g/VfNpdd61z5sCWDj1nEvXZVYRehRANCAAR/Mo/opqpum8FrPwClOYszWP1vOzab
e4YpwVR5FuPw0ICfZLuezVUyPsKngNuLKahQlDOVI9NTEBDzu0chvUQy
-----END PRIVATE KEY-----";

/// The secrets of one case: texts of 12 to 40 characters that no message would hold by
/// chance, so that finding one anywhere is a leak.
#[derive(Debug, Clone)]
struct Given {
    client_secret: String,
    assertion: String,
    id_token: String,
    idp_secret: String,
    code: String,
    access_token: String,
    refresh_token: String,
    id_jag: String,
    entropy: [u8; 64],
}

fn text() -> impl Strategy<Value = String> {
    "[A-Za-z0-9][A-Za-z0-9._~-]{11,39}"
}

fn given() -> impl Strategy<Value = Given> {
    (
        (text(), text(), text(), text()),
        (text(), text(), text(), text()),
        prop::collection::vec(any::<u8>(), 64),
    )
        .prop_map(
            |(
                (client_secret, assertion, id_token, idp_secret),
                (code, access_token, refresh_token, id_jag),
                entropy,
            )| Given {
                client_secret,
                assertion,
                id_token,
                idp_secret,
                code,
                access_token,
                refresh_token,
                id_jag,
                entropy: entropy.try_into().unwrap(),
            },
        )
}

/// Every secret known so far, and the checks that none is shown.
struct Watch {
    /// What no text may hold.
    secrets: Vec<String>,
    /// What the flow under watch holds or has sent: what its server may echo back.
    echoable: Vec<String>,
}

impl Watch {
    fn new(given: &Given) -> Watch {
        Watch {
            secrets: vec![
                given.client_secret.clone(),
                given.assertion.clone(),
                given.id_token.clone(),
                given.idp_secret.clone(),
                given.code.clone(),
                given.access_token.clone(),
                given.refresh_token.clone(),
                given.id_jag.clone(),
                // The PEM's private part: the key's base64 lines.
                PKCS8.lines().nth(1).unwrap().to_owned(),
            ],
            echoable: Vec::new(),
        }
    }

    fn add(&mut self, secret: &str) {
        if !secret.is_empty() {
            self.secrets.push(secret.to_owned());
        }
    }

    /// A new flow under watch, which holds the secrets of `config`.
    fn watch(&mut self, config: &Config) {
        self.echoable = Vec::new();
        self.echoable
            .extend(config.client_secret.as_ref().map(|s| s.expose().to_owned()));
        match &config.grant {
            GrantType::JwtBearer { assertion } => self.echoable.push(assertion.expose().into()),
            GrantType::Enterprise(enterprise) => {
                self.echoable.push(enterprise.id_token.expose().into());
                self.echoable.extend(
                    enterprise
                        .client_secret
                        .as_ref()
                        .map(|s| s.expose().to_owned()),
                );
            }
            GrantType::AuthorizationCode | GrantType::ClientCredentials | GrantType::DeviceCode => {
            }
        }
    }

    fn text(&self, what: &str, shown: &str) {
        for secret in &self.secrets {
            assert!(
                !shown.contains(secret.as_str()),
                "{what} shows {secret:?}: {shown}"
            );
        }
    }

    fn debug(&self, what: &str, value: &impl Debug) {
        self.text(what, &format!("{value:?}"));
        self.text(what, &format!("{value:#?}"));
    }

    fn error(&self, error: &AuthError) {
        self.text("an error's message", error.message());
        self.text("an error's Display", &error.to_string());
        self.debug("an error", error);
    }

    /// Checks `result` and the flow, and learns the secrets a request carries: its
    /// `authorization` and `dpop` headers, and the values of its form.
    fn step(&mut self, flow: &Flow, result: &Result<Next, AuthError>) {
        self.debug("the flow", flow);
        match result {
            Ok(next) => self.debug("a step", next),
            Err(error) => self.error(error),
        }
        if let Ok(Next::Fetch(request)) = result {
            self.learn(request);
        }
    }

    fn learn(&mut self, request: &HttpRequest) {
        for (name, value) in &request.headers {
            if name == "authorization" {
                self.add(value);
            }
            if name == "dpop" {
                self.add(value);
                self.echoable.push(value.clone());
            }
        }
        for (name, value) in form_urlencoded::parse(&request.body) {
            if matches!(
                &*name,
                "code"
                    | "code_verifier"
                    | "client_assertion"
                    | "client_secret"
                    | "refresh_token"
                    | "assertion"
                    | "subject_token"
            ) {
                self.add(&value);
                self.echoable.push(value.into_owned());
            }
        }
    }
}

fn respond(
    flow: &mut Flow,
    status: u16,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<Next, AuthError> {
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect();
    flow.on_response(
        HttpResponse {
            status,
            headers: &headers,
            body: body.as_bytes(),
        },
        1_700_000_000_000,
    )
}

/// An OAuth error answer whose description echoes one of the secrets the flow under watch
/// holds or sent (one at a time: a message keeps the start of a long text only), `which`.
fn echo(watch: &Watch, which: usize) -> String {
    let secret = &watch.echoable[which % watch.echoable.len()];
    format!(r#"{{"error":"invalid_grant","error_description":"{secret} was refused"}}"#)
}

/// The configuration of `grant`: a confidential client pre-registered at `A` (with a secret,
/// or with `PKCS8` when `keyed`), DPoP always.
fn config(given: &Given, grant: GrantType, keyed: bool) -> Config {
    Config {
        client_id: Some("client-1".into()),
        client_secret: (!keyed).then(|| given.client_secret.clone().into()),
        client_key: keyed.then(|| ClientKey::from_pem(PKCS8).unwrap()),
        client_issuer: Some(A.into()),
        dpop: DpopUse::Always,
        grant,
        ..Config::new("t", REDIRECT)
    }
}

fn grants(given: &Given) -> [GrantType; 4] {
    [
        GrantType::AuthorizationCode,
        GrantType::ClientCredentials,
        GrantType::JwtBearer {
            assertion: given.assertion.clone().into(),
        },
        GrantType::Enterprise(Enterprise {
            token_endpoint: IDP.into(),
            client_id: Some("idp-client".into()),
            client_secret: Some(given.idp_secret.clone().into()),
            id_token: given.id_token.clone().into(),
        }),
    ]
}

fn server_metadata(keyed: bool) -> String {
    let method = if keyed {
        "private_key_jwt"
    } else {
        "client_secret_basic"
    };
    format!(
        r#"{{"issuer":"{A}","authorization_endpoint":"{A}/authorize","token_endpoint":"{A}/token","response_types_supported":["code"],"code_challenge_methods_supported":["S256"],"grant_types_supported":["authorization_code","client_credentials","refresh_token","{JWT_BEARER}"],"token_endpoint_auth_methods_supported":["{method}"],"dpop_signing_alg_values_supported":["ES256"]}}"#
    )
}

/// Drives a flow of `grant` to its token request (through the redirect or the token
/// exchange), checking every step; `None` when it stopped before.
fn to_token_request(given: &Given, watch: &mut Watch, config: Config) -> Option<Flow> {
    let interactive = config.grant.is_interactive();
    let exchanges = matches!(config.grant, GrantType::Enterprise(_));
    let keyed = config.client_key.is_some();
    watch.debug("a configuration", &config);
    watch.debug("a grant type", &config.grant);
    watch.watch(&config);
    let started = Flow::start(
        SERVER,
        &parse_challenge(401, None),
        config,
        None,
        given.entropy,
    );
    let (mut flow, next) = match started {
        Ok(started) => started,
        Err(error) => {
            watch.error(&error);
            return None;
        }
    };
    watch.step(&flow, &Ok(next));
    let prm = format!(r#"{{"resource":"{SERVER}","authorization_servers":["{A}"]}}"#);
    let result = respond(&mut flow, 200, &[], &prm);
    watch.step(&flow, &result);
    let result = respond(&mut flow, 200, &[], &server_metadata(keyed));
    watch.step(&flow, &result);
    let next = result.ok()?;
    let result = match next {
        Next::Authorize(authorization) if interactive => flow.on_redirect(&format!(
            "code={}&state={}",
            given.code, authorization.state
        )),
        Next::Fetch(_) if exchanges => respond(
            &mut flow,
            200,
            &[],
            &format!(
                r#"{{"access_token":"{}","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}}"#,
                given.id_jag
            ),
        ),
        other => Ok(other),
    };
    watch.step(&flow, &result);
    matches!(result, Ok(Next::Fetch(_))).then_some(flow)
}

/// A grant obtained by `grant` with the case's tokens, bound to the flow's DPoP key.
fn obtain(given: &Given, watch: &mut Watch, config: Config) -> Option<Grant> {
    let mut flow = to_token_request(given, watch, config)?;
    let body = format!(
        r#"{{"access_token":"{}","token_type":"DPoP","refresh_token":"{}","expires_in":60}}"#,
        given.access_token, given.refresh_token
    );
    let result = respond(&mut flow, 200, &[], &body);
    watch.step(&flow, &result);
    match result {
        Ok(Next::Done(grant)) => Some(grant),
        other => panic!("expected a grant, got {other:?}"),
    }
}

/// The checks on a grant: its `Debug` forms and its client's, a proof made with it, its
/// stored form read back broken, and a refresh that the server refuses echoing a secret.
fn check_grant(given: &Given, watch: &mut Watch, grant: &Grant, config: Config, which: usize) {
    let key = grant.dpop_key().expect("a DPoP grant");
    watch.add(&key.to_secret());
    watch.debug("a grant", grant);
    watch.debug("a grant's client", grant.client());
    watch.debug("a DPoP key", key);
    let proof = grant
        .proof("GET", SERVER, 1_700_000_000_000, &[5; 16], None)
        .unwrap()
        .unwrap();
    watch.add(&proof);
    watch.debug("a grant", grant);

    // A stored grant that is not right: refused without a word of its secrets.
    let stored = grant.to_json();
    for broken in [
        stored.replace(r#""version":1"#, r#""version":2"#),
        stored.replace(r#""version":1"#, r#""version":1,"x":1"#),
        stored.replace(r#""token_type":"DPoP""#, r#""token_type":"Bearer""#),
        stored.replace(&key.to_secret(), &given.access_token),
        stored.replace(r#""dpop_key":""#, r#""dpop_key":7,"y":""#),
    ] {
        let error = Grant::from_json(broken.as_bytes(), &Limits::DEFAULT).unwrap_err();
        watch.error(&error);
    }
    let error = DpopKey::from_secret(&given.access_token).unwrap_err();
    watch.error(&error);

    // A refresh, refused with a description that echoes a secret, then a nonce asked for.
    watch.watch(&config);
    let refreshed = Flow::refresh_at(SERVER, grant, config.clone(), 1_700_000_000_000, [9; 32]);
    let (mut flow, next) = refreshed.unwrap();
    let next = Ok(next);
    watch.step(&flow, &next);
    let result = respond(
        &mut flow,
        400,
        &[("dpop-nonce", "n-1")],
        r#"{"error":"use_dpop_nonce"}"#,
    );
    watch.step(&flow, &result);
    let result = respond(&mut flow, 400, &[], &echo(watch, which));
    watch.step(&flow, &result);
    assert!(result.is_err());
    let error = Flow::refresh(SERVER, grant, config).unwrap_err();
    watch.error(&error);
}

proptest! {
    // Each case drives two dozen flows and signs with P-256 at every token request: a few
    // cases cover much.
    #![proptest_config(ProptestConfig {
        cases: 8,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every grant, with a client secret or a client key, refused at the token endpoint by a
    /// server that echoes one of the secrets; then obtained, used and refreshed.
    #[test]
    fn no_secret_is_ever_shown(given in given(), which in any::<usize>()) {
        for keyed in [false, true] {
            for grant in grants(&given) {
                let mut watch = Watch::new(&given);
                let config = config(&given, grant.clone(), keyed);
                let flow = to_token_request(&given, &mut watch, config.clone());
                prop_assert!(flow.is_some(), "{} reaches its token request", grant.name());
                if let Some(mut flow) = flow {
                    let result = respond(&mut flow, 400, &[], &echo(&watch, which));
                    watch.step(&flow, &result);
                    prop_assert!(result.is_err());
                    // After the refusal, every call is out of order, and says so plainly.
                    let result = flow.on_redirect(&format!("code={}", given.code));
                    watch.step(&flow, &result);
                }
                let mut watch = Watch::new(&given);
                let grant = obtain(&given, &mut watch, config.clone());
                prop_assert!(grant.is_some());
                if let Some(grant) = grant {
                    check_grant(&given, &mut watch, &grant, config, which);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Configurations the flow refuses: each refusal names the option, never its secret.
    #[test]
    fn refused_configurations_show_no_secret(given in given()) {
        let watch = Watch::new(&given);
        let mut unbound = config(&given, GrantType::ClientCredentials, false);
        unbound.client_issuer = None;
        let mut no_id = config(&given, GrantType::ClientCredentials, true);
        no_id.client_id = None;
        let mut no_idp_id = config(&given, grants(&given)[3].clone(), false);
        if let GrantType::Enterprise(enterprise) = &mut no_idp_id.grant {
            enterprise.client_id = None;
        }
        let mut bad_idp = config(&given, grants(&given)[3].clone(), false);
        if let GrantType::Enterprise(enterprise) = &mut bad_idp.grant {
            enterprise.token_endpoint = format!("http://example.com/{}", given.idp_secret.len());
        }
        for config in [unbound, no_id, no_idp_id, bad_idp] {
            watch.debug("a configuration", &config);
            let error = config.check().unwrap_err();
            watch.error(&error);
            let error = Flow::start(SERVER, &parse_challenge(401, None), config, None, given.entropy)
                .unwrap_err();
            watch.error(&error);
        }
    }

    /// A secret's `Debug` form is fixed, whatever it holds.
    #[test]
    fn a_secret_shows_nothing_of_itself(text in any::<String>()) {
        let secret = Secret::from(text.clone());
        prop_assert_eq!(format!("{secret:?}"), "Secret(…)");
        prop_assert_eq!(secret.expose(), text.as_str());
    }
}

#[test]
fn the_watch_finds_what_it_looks_for() {
    // The properties above pass only if a shown secret would be found: the watch learns the
    // secrets the flow makes (the verifier, the client assertion, the DPoP proof) and catches
    // one in a text, and the flow redacts each of them from a refusal.
    let given = given()
        .new_tree(&mut proptest::test_runner::TestRunner::deterministic())
        .unwrap()
        .current();
    let mut watch = Watch::new(&given);
    let config = config(&given, GrantType::AuthorizationCode, true);
    assert!(to_token_request(&given, &mut watch, config.clone()).is_some());
    // The proof, the code, the verifier and the assertion.
    assert_eq!(watch.echoable.len(), 4, "{:?}", watch.echoable);
    assert!(watch.echoable.contains(&given.code));
    for which in 0..watch.echoable.len() {
        let shown = format!("x {} y", watch.echoable[which]);
        let caught = std::panic::catch_unwind(|| watch.text("a text", &shown));
        assert!(
            caught.is_err(),
            "the watch misses {}",
            watch.echoable[which]
        );
        let mut flow = to_token_request(&given, &mut Watch::new(&given), config.clone()).unwrap();
        let error = respond(&mut flow, 400, &[], &echo(&watch, which)).unwrap_err();
        assert!(
            error.message().contains("[redacted]"),
            "{}",
            error.message()
        );
    }
}
