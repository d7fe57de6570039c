//! Fuzz target: the authorization flow driven by a server, metadata documents and a browser
//! redirect that say anything.
//!
//! The input is text in parts separated by a line `~~`: the challenge (`STATUS` then the
//! `WWW-Authenticate` value), the server's URL, the client (`id|secret|metadata URL|grant|
//! grant text|issuer`, empty for none: the grant is `client-credentials`, `jwt-bearer` with
//! the text as its assertion, or `enterprise` with the text as the identity provider's token
//! endpoint; the issuer is the one the client's credentials are bound to), then one part per
//! step: an HTTP response (`STATUS`, header lines, a blank line, the body) or, starting with
//! `?`, the query the browser brings back (`{state}` in it stands for the state the flow
//! sent). Each part feeds the flow whatever it asked for next.
//!
//! Properties: nothing panics; every URL the flow asks to fetch or to open is `https`, or
//! `http` on a loopback host; a finished grant written down reads back the same; no secret
//! (the client secret, a grant's assertion or ID token, an authorization code the browser
//! brought, an access or refresh token the server sent, the PKCE verifier, a client assertion
//! or DPoP proof the flow sent) shows in the `Debug` form of the configuration, the flow, a
//! step or a grant, nor in an error's `Display`, `Debug` or message.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus_auth::{
    AuthError, Config, Enterprise, Flow, Grant, GrantType, HttpRequest, HttpResponse, Limits, Next,
    parse_challenge,
};

/// The ID token an `enterprise` input exchanges.
const ID_TOKEN: &str = "fuzz-id-token-5d1c";

const SEPARATOR: &str = "\n~~\n";

/// Whether `url` may be fetched or opened: https, or http on a loopback host.
fn acceptable(url: &str) -> bool {
    let Ok(url) = url::Url::parse(url) else {
        return false;
    };
    match url.scheme() {
        "https" => true,
        "http" => match url.host() {
            Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        },
        _ => false,
    }
}

/// The status, headers (lowercase names) and body of one response part.
fn response(part: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let (head, body) = part.split_once("\n\n").unwrap_or((part, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(200);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), String::from(v.trim())))
        .collect();
    (status, headers, body.as_bytes().to_vec())
}

/// The tokens a token response part would hand out, to look for everywhere.
fn tokens_in(body: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(body);
    ["\"access_token\"", "\"refresh_token\""]
        .into_iter()
        .flat_map(|member| {
            text.split(member)
                .skip(1)
                .filter_map(|rest| {
                    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
                    let token = rest.strip_prefix('"')?.split('"').next()?;
                    Some(String::from(token))
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The secrets to look for, and the checks that none is shown.
struct Watch<'a> {
    /// The whole input: a text is looked for only where it cannot be shown for another reason.
    input: &'a str,
    secrets: Vec<String>,
    /// What the flow shows of its own making and is no secret (the authorization URL, with the
    /// state and the code challenge).
    public: Vec<String>,
}

impl Watch<'_> {
    /// `secret` is looked for when it looks like one (12 characters or more, no space, `/` or
    /// `:`, a letter and a digit: no fixed text of a message nor a piece of a URL) and the
    /// input holds it once only (where it is given as this secret, not also as a URL, a scope
    /// or a server's word).
    fn add(&mut self, secret: &str) {
        let looks_secret = secret.len() >= 12
            && !secret.contains(|c: char| c.is_whitespace() || c == '/' || c == ':')
            && secret.contains(|c: char| c.is_ascii_digit())
            && secret.contains(|c: char| c.is_ascii_alphabetic());
        if looks_secret && self.input.matches(secret).count() <= 1 {
            self.secrets.push(String::from(secret));
        }
    }

    /// Secrets the flow made and sent: the verifier, a client assertion, a DPoP proof; and
    /// those it was given, sent again (the client secret in a form).
    fn learn(&mut self, request: &HttpRequest) {
        if let Some(proof) = request.header("dpop") {
            self.add(proof);
        }
        for (name, value) in form_urlencoded::parse(&request.body) {
            if matches!(
                &*name,
                "code_verifier" | "client_assertion" | "client_secret"
            ) {
                self.add(&value);
            }
        }
    }

    fn text(&self, what: &str, shown: &str) {
        for secret in &self.secrets {
            if self.public.iter().any(|p| p.contains(secret.as_str())) {
                continue;
            }
            assert!(!shown.contains(secret.as_str()), "{what} shows a secret");
        }
    }

    fn debug(&self, what: &str, value: &impl std::fmt::Debug) {
        self.text(what, &format!("{value:?}"));
    }

    fn error(&self, error: &AuthError) {
        self.text("an error's message", error.message());
        self.text("an error's Display", &error.to_string());
        self.debug("an error", error);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.split(SEPARATOR);
    let head = parts.next().unwrap_or_default();
    let (status, header) = head.split_once(' ').unwrap_or((head, ""));
    let challenge = parse_challenge(
        status.trim().parse().unwrap_or(401),
        (!header.is_empty()).then_some(header),
    );
    let server = parts.next().unwrap_or("http://localhost:3000/mcp");
    let client: Vec<&str> = parts.next().unwrap_or_default().split('|').collect();
    let pick = |i: usize| {
        client
            .get(i)
            .filter(|s| !s.is_empty())
            .map(|s| String::from(*s))
    };
    let mut watch = Watch {
        input: text,
        secrets: vec![String::from(ID_TOKEN)],
        public: Vec::new(),
    };
    let mut config = Config::new("toolnexus", "http://127.0.0.1:33333/callback");
    config.client_id = pick(0);
    config.client_secret = pick(1).map(Into::into);
    config.client_metadata_url = pick(2);
    config.client_issuer = pick(5);
    let grant_text = pick(4).unwrap_or_default();
    config.grant = match client.get(3).copied().unwrap_or_default() {
        "client-credentials" => GrantType::ClientCredentials,
        "jwt-bearer" => {
            watch.add(&grant_text);
            GrantType::JwtBearer {
                assertion: grant_text.into(),
            }
        }
        "enterprise" => GrantType::Enterprise(Enterprise {
            token_endpoint: grant_text,
            client_id: Some(String::from("idp-client")),
            client_secret: None,
            id_token: ID_TOKEN.into(),
        }),
        _ => GrantType::AuthorizationCode,
    };
    if let Some(secret) = &config.client_secret {
        watch.add(secret.expose());
    }
    config.limits = Limits::DEFAULT
        .with_max_input_bytes(64 * 1024)
        .with_max_depth(16);
    watch.debug("the configuration", &config);
    let (mut flow, mut next) = match Flow::start(server, &challenge, config, None, [7; 64]) {
        Ok(started) => started,
        Err(error) => {
            watch.error(&error);
            return;
        }
    };
    for (now, part) in parts.enumerate() {
        if let Next::Authorize(authorization) = &next {
            watch.public.push(authorization.url.clone());
        }
        watch.debug("the flow", &flow);
        watch.debug("a step", &next);
        let result = match &next {
            Next::Fetch(request) | Next::Poll(toolnexus_auth::Poll { request, .. }) => {
                assert!(acceptable(&request.url), "fetches {:?}", request.url);
                watch.learn(request);
                watch.debug("a request", request);
                if let Some(query) = part.strip_prefix('?') {
                    // A redirect while the flow waits for a response: refused, never a panic.
                    flow.on_redirect(query)
                } else {
                    let (status, headers, body) = response(part);
                    for token in tokens_in(&body) {
                        watch.add(&token);
                    }
                    flow.on_response(
                        HttpResponse {
                            status,
                            headers: &headers,
                            body: &body,
                        },
                        now as u64 * 1000,
                    )
                }
            }
            Next::Authorize(authorization) => {
                assert!(
                    acceptable(&authorization.url),
                    "opens {:?}",
                    authorization.url
                );
                // `{state}` stands for the state the flow sent, which no input could guess.
                let query = part.strip_prefix('?').unwrap_or(part);
                for (name, value) in form_urlencoded::parse(query.as_bytes()) {
                    if name == "code" {
                        watch.add(&value);
                    }
                }
                flow.on_redirect(&query.replace("{state}", &authorization.state))
            }
            Next::Done(grant) => {
                reads_back(grant, &watch);
                return;
            }
        };
        match result {
            Ok(step) => next = step,
            Err(error) => {
                watch.error(&error);
                watch.debug("the flow", &flow);
                return;
            }
        }
    }
    if let Next::Authorize(authorization) = &next {
        watch.public.push(authorization.url.clone());
    }
    watch.debug("the flow", &flow);
    watch.debug("a step", &next);
    if let Next::Done(grant) = &next {
        reads_back(grant, &watch);
    }
});

/// A grant written down reads back, and writes the same document again; neither shows a
/// secret in its `Debug` form.
fn reads_back(grant: &Grant, watch: &Watch<'_>) {
    watch.debug("a grant", grant);
    let written = grant.to_json();
    let read = Grant::from_json(written.as_bytes(), &Limits::DEFAULT)
        .expect("a grant written down reads back");
    assert_eq!(read.to_json(), written, "a grant reads back as written");
    watch.debug("a grant read back", &read);
}
