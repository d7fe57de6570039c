//! Fuzz target: the authorization flow driven by a server, metadata documents and a browser
//! redirect that say anything.
//!
//! The input is text in parts separated by a line `~~`: the challenge (`STATUS` then the
//! `WWW-Authenticate` value), the server's URL, the client (`id|secret|metadata URL|grant|
//! grant text`, empty for none: the grant is `client-credentials`, `jwt-bearer` with the
//! text as its assertion, or `enterprise` with the text as the identity provider's token
//! endpoint), then one part per step: an HTTP response (`STATUS`, header lines, a blank line,
//! the body) or, starting with `?`, the query the browser brings back (`{state}` in it stands
//! for the state the flow sent). Each part feeds the flow whatever it asked for next.
//!
//! Properties: nothing panics; every URL the flow asks to fetch or to open is `https`, or
//! `http` on a loopback host; a finished grant written down reads back the same; the request's
//! `Debug` never shows a token; no error message repeats an access token the server sent, nor
//! a grant's assertion or ID token.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus_auth::{
    Config, Enterprise, Flow, Grant, GrantType, HttpResponse, Limits, Next, parse_challenge,
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

/// The access tokens a token response part would hand out, to look for in error messages.
fn tokens_in(body: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(body);
    text.split("\"access_token\"")
        .skip(1)
        .filter_map(|rest| {
            let rest = rest.trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
            let token = rest.split('"').next()?;
            (token.len() >= 8).then(|| String::from(token))
        })
        .collect()
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
    let pick = |i: usize| client.get(i).filter(|s| !s.is_empty()).map(|s| String::from(*s));
    let mut config = Config::new("toolnexus", "http://127.0.0.1:33333/callback");
    config.client_id = pick(0);
    config.client_secret = pick(1);
    config.client_metadata_url = pick(2);
    let text = pick(4).unwrap_or_default();
    config.grant = match client.get(3).copied().unwrap_or_default() {
        "client-credentials" => GrantType::ClientCredentials,
        "jwt-bearer" => GrantType::JwtBearer {
            assertion: text.clone(),
        },
        "enterprise" => GrantType::Enterprise(Enterprise {
            token_endpoint: text.clone(),
            client_id: Some(String::from("idp-client")),
            client_secret: None,
            id_token: String::from(ID_TOKEN),
        }),
        _ => GrantType::AuthorizationCode,
    };
    let mut grant_secrets = vec![String::from(ID_TOKEN)];
    if let GrantType::JwtBearer { assertion } = &config.grant
        && assertion.len() >= 8
    {
        grant_secrets.push(assertion.clone());
    }
    config.limits = Limits::DEFAULT
        .with_max_input_bytes(64 * 1024)
        .with_max_depth(16);
    let Ok((mut flow, mut next)) = Flow::start(server, &challenge, config, None, [7; 64]) else {
        return;
    };
    let mut secrets: Vec<String> = Vec::new();
    for (now, part) in parts.enumerate() {
        let result = match &next {
            Next::Fetch(request) => {
                assert!(acceptable(&request.url), "fetches {:?}", request.url);
                let shown = format!("{request:?}");
                for secret in &secrets {
                    assert!(!shown.contains(secret.as_str()), "a request shows a token");
                }
                if let Some(query) = part.strip_prefix('?') {
                    // A redirect while the flow waits for a response: refused, never a panic.
                    flow.on_redirect(query)
                } else {
                    let (status, headers, body) = response(part);
                    secrets.extend(tokens_in(&body));
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
                flow.on_redirect(&query.replace("{state}", &authorization.state))
            }
            Next::Done(grant) => {
                reads_back(grant);
                return;
            }
        };
        match result {
            Ok(step) => next = step,
            Err(error) => {
                for secret in secrets.iter().chain(&grant_secrets) {
                    assert!(
                        !error.message().contains(secret.as_str()),
                        "an error message repeats a token"
                    );
                }
                return;
            }
        }
    }
    if let Next::Done(grant) = &next {
        reads_back(grant);
    }
});

/// A grant written down reads back, and writes the same document again.
fn reads_back(grant: &Grant) {
    let written = grant.to_json();
    let read = Grant::from_json(written.as_bytes(), &Limits::DEFAULT)
        .expect("a grant written down reads back");
    assert_eq!(read.to_json(), written, "a grant reads back as written");
}
