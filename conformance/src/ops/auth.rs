//! The `auth_flow` operation: one authorization flow of `toolnexus-auth`, from the MCP server's
//! challenge (or a stored grant to refresh) to its grant, its consent URL (with the consent
//! `Request` a host asks, but for its id) or its typed error, each request the flow makes
//! matched against the script and answered from it.
//!
//! A script that does not match (a request the case does not expect, a step the flow does not
//! reach) is a failure of the case, not an outcome: `Err(String)`. So is a secret found in an
//! error message or in a request's printed (`Debug`) form, and a message of 1,000 characters
//! or more.

use base64::Engine as _;
use toolnexus_auth::{
    AuthError, Challenge, ClientKey, Config, DpopUse, Enterprise, Flow, Grant, GrantType,
    HttpRequest, HttpResponse, Next, Poll, parse_challenge,
};
use toolnexus_core::Value;
use toolnexus_core::json::{self, Limits, Map};

use super::object;

/// What a flow came to: the output text, or the kind and pointer of its error.
pub(crate) type Outcome = Result<String, (String, String)>;

/// Form members whose values act for whoever holds them.
const SECRET_MEMBERS: [&str; 8] = [
    "code",
    "device_code",
    "code_verifier",
    "client_secret",
    "client_assertion",
    "assertion",
    "subject_token",
    "refresh_token",
];

/// An error's message has fewer characters than this, whatever the server sent.
const MAX_MESSAGE_CHARS: usize = 1_000;

/// Automatically collected secrets shorter than this are not looked for: a short one could
/// stand in a message by chance. Secrets the case lists are looked for whatever their length.
const MIN_AUTO_SECRET: usize = 8;

/// Runs the script `input` (JSON text).
pub(crate) fn run(input: &[u8]) -> Result<Outcome, String> {
    let script = json::parse(input, &Limits::DEFAULT).map_err(|e| format!("the script: {e}"))?;
    let script = script.as_object().ok_or("the script is not an object")?;
    only(
        script,
        &[
            "server",
            "challenge",
            "previous",
            "refresh",
            "config",
            "entropy",
            "now",
            "secrets",
            "steps",
        ],
        "the script",
    )?;
    let server = string(script, "server")?.ok_or("`server` is required")?;
    let now = number(script, "now")?.unwrap_or(0);
    let mut secrets: Vec<String> = match script.get("secrets") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|s| {
                s.as_str()
                    .map(String::from)
                    .ok_or("`secrets` holds strings")
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("`secrets` is a list of strings".into()),
    };
    let config = match config(
        script
            .get("config")
            .and_then(Value::as_object)
            .ok_or("`config` is required")?,
        &mut secrets,
    )? {
        Ok(config) => config,
        Err(e) => return finish(Err(e), &secrets),
    };
    let client_name = config.client_name.clone();
    let steps = match script.get("steps") {
        None => &[][..],
        Some(Value::Array(steps)) => &steps[..],
        Some(_) => return Err("`steps` is a list".into()),
    };
    let begun = match (script.get("challenge"), script.get("refresh")) {
        (Some(challenge), None) => {
            let challenge = read_challenge(challenge)?;
            let previous = match script.get("previous") {
                None => None,
                Some(stored) => Some(stored_grant(stored)?),
            };
            let entropy = hex::<64>(script.get("entropy"))?;
            Flow::start(server, &challenge, config, previous.as_ref(), entropy)
        }
        (None, Some(Value::Object(refresh))) => {
            only(refresh, &["grant", "untimed", "entropy"], "`refresh`")?;
            if script.contains_key("entropy") || script.contains_key("previous") {
                return Err("a refresh takes its entropy in `refresh`, and no `previous`".into());
            }
            let grant = stored_grant(refresh.get("grant").ok_or("`refresh.grant` is required")?)?;
            for secret in [Some(grant.access_token()), grant.refresh_token()]
                .into_iter()
                .flatten()
                .filter(|s| s.len() >= MIN_AUTO_SECRET)
            {
                secrets.push(secret.to_owned());
            }
            if refresh.get("untimed").and_then(Value::as_bool) == Some(true) {
                Flow::refresh(server, &grant, config)
            } else {
                Flow::refresh_at(
                    server,
                    &grant,
                    config,
                    now,
                    hex::<32>(refresh.get("entropy"))?,
                )
            }
        }
        _ => return Err("give exactly one of `challenge` and `refresh`".into()),
    };
    let (mut flow, mut next) = match begun {
        Ok(begun) => begun,
        Err(e) if steps.is_empty() => return finish(Err(e), &secrets),
        Err(e) => return Err(format!("the flow failed to start, steps remain: {e}")),
    };
    for (i, step) in steps.iter().enumerate() {
        let step = step
            .as_object()
            .ok_or_else(|| format!("step {i} is not an object"))?;
        let at = number(step, "now")?.unwrap_or(now);
        let result = if let Some(expected) = step.get("request") {
            only(
                step,
                &["poll", "request", "response", "now"],
                "a request step",
            )?;
            let request = match (&next, step.get("poll")) {
                (Next::Fetch(request), None) => request,
                (Next::Poll(poll), Some(want)) => {
                    fits_poll(poll, want).map_err(|e| format!("step {i}: the poll: {e}"))?;
                    &poll.request
                }
                _ => return Err(format!("step {i}: the flow gives {}", describe(&next))),
            };
            fits_request(request, expected).map_err(|e| format!("step {i}: {e}"))?;
            hidden_in_print(request, &secrets).map_err(|e| format!("step {i}: {e}"))?;
            let (status, headers, body) = response(step.get("response"))
                .map_err(|e| format!("step {i}: the response: {e}"))?;
            for (name, value) in form_pairs(request).unwrap_or_default() {
                // The secrets the flow sent are also kept out of the messages that follow.
                if SECRET_MEMBERS.contains(&name.as_str()) && value.len() >= MIN_AUTO_SECRET {
                    secrets.push(value);
                }
            }
            issued_tokens(&body, &mut secrets);
            flow.on_response(
                HttpResponse {
                    status,
                    headers: &headers,
                    body: &body,
                },
                at,
            )
        } else if let Some(query) = step.get("redirect") {
            only(step, &["authorize", "redirect", "now"], "a redirect step")?;
            let Next::Authorize(authorization) = &next else {
                return Err(format!("step {i}: the flow gives {}", describe(&next)));
            };
            if let Some(expected) = step.get("authorize") {
                fits_authorize(&authorization.url, expected)
                    .map_err(|e| format!("step {i}: the authorization URL: {e}"))?;
            }
            let query = query
                .as_str()
                .ok_or_else(|| format!("step {i}: `redirect` is a query string"))?
                .replace("{state}", &authorization.state);
            for (name, value) in form_urlencoded::parse(query.as_bytes()) {
                if name == "code" && value.len() >= MIN_AUTO_SECRET {
                    secrets.push(value.into_owned());
                }
            }
            flow.on_redirect_at(&query, at)
        } else {
            return Err(format!("step {i} has neither `request` nor `redirect`"));
        };
        match result {
            Ok(n) => next = n,
            Err(e) if i + 1 == steps.len() => return finish(Err(e), &secrets),
            Err(e) => return Err(format!("step {i}: the flow failed, steps remain: {e}")),
        }
    }
    match next {
        Next::Done(grant) => finish(Ok(format!("{{\"grant\":{}}}", grant.to_json())), &secrets),
        Next::Authorize(a) => {
            // The consent's id is the host's own: every member but it is pinned.
            let consent = a
                .consent_request("consent", &client_name, server)
                .map_err(|e| format!("the consent request: {e}"))?;
            let consent = object([
                ("kind", Value::from(consent.kind())),
                ("prompt", Value::from(consent.prompt())),
                ("url", Value::from(consent.url().unwrap_or_default())),
            ]);
            finish(
                Ok(object([(
                    "authorize",
                    object([
                        ("url", Value::from(a.url.as_str())),
                        ("state", Value::from(a.state.as_str())),
                        ("redirectUri", Value::from(a.redirect_uri.as_str())),
                        ("consent", consent),
                    ]),
                )])
                .to_json()),
                &secrets,
            )
        }
        Next::Fetch(request) | Next::Poll(Poll { request, .. }) => Err(format!(
            "the flow asks for {} {} after the last step",
            request.method, request.url
        )),
    }
}

/// Checks a poll of the device grant against the step's `poll`: `at`, `attempt`, and the code
/// shown (`userCode`, `verificationUri`, `verificationUriComplete`, `expiresAt`), every member
/// required and compared exactly.
fn fits_poll(poll: &Poll, want: &Value) -> Result<(), String> {
    let want = want.as_object().ok_or("`poll` is an object")?;
    let members = [
        "at",
        "attempt",
        "userCode",
        "verificationUri",
        "verificationUriComplete",
        "expiresAt",
    ];
    only(want, &members, "`poll`")?;
    let code = &poll.code;
    let got = object([
        ("at", Value::from(poll.at_ms)),
        ("attempt", Value::from(u64::from(poll.attempt))),
        ("userCode", Value::from(code.user_code.as_str())),
        (
            "verificationUri",
            Value::from(code.verification_uri.as_str()),
        ),
        (
            "verificationUriComplete",
            code.verification_uri_complete
                .as_deref()
                .map_or(Value::Null, Value::from),
        ),
        ("expiresAt", Value::from(code.expires_at_ms)),
    ]);
    let got = got.as_object().ok_or("the poll is an object")?;
    for member in members {
        let (expected, actual) = (want.get(member), got.get(member));
        if expected != actual {
            return Err(format!(
                "`{member}` is {}, not {}",
                actual.map(Value::to_json).unwrap_or_default(),
                expected.map_or_else(|| String::from("missing"), Value::to_json)
            ));
        }
    }
    Ok(())
}

/// The outcome, once the error's message is found to hold none of `secrets`.
fn finish(result: Result<String, AuthError>, secrets: &[String]) -> Result<Outcome, String> {
    match result {
        Ok(text) => Ok(Ok(text)),
        Err(e) => {
            // A message quotes what a server sent, cut short: never a whole document.
            if e.message().chars().count() >= MAX_MESSAGE_CHARS {
                return Err(format!("the error's message is long: {}", e.message()));
            }
            if let Some(secret) = secrets.iter().find(|s| e.message().contains(s.as_str())) {
                return Err(format!(
                    "the error's message shows the secret {secret:?}: {}",
                    e.message()
                ));
            }
            Ok(Err((e.kind().as_str().to_owned(), e.pointer().to_owned())))
        }
    }
}

fn describe(next: &Next) -> String {
    match next {
        Next::Fetch(r) => format!("a request, {} {}", r.method, r.url),
        Next::Authorize(a) => format!("an authorization, {}", a.url),
        Next::Poll(p) => format!("a poll, {} {}", p.request.method, p.request.url),
        Next::Done(_) => "its grant".into(),
    }
}

/// Refuses members of `map` other than `known`.
fn only(map: &Map, known: &[&str], what: &str) -> Result<(), String> {
    match map.keys().find(|k| !known.contains(k)) {
        Some(k) => Err(format!("{what} has an unknown member `{k}`")),
        None => Ok(()),
    }
}

fn string<'a>(map: &'a Map, key: &str) -> Result<Option<&'a str>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(Some)
            .ok_or_else(|| format!("`{key}` is a string")),
    }
}

fn number(map: &Map, key: &str) -> Result<Option<u64>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("`{key}` is a whole number")),
    }
}

/// `N` bytes from hex text; absent: the bytes 0, 1, 2… in order.
fn hex<const N: usize>(value: Option<&Value>) -> Result<[u8; N], String> {
    let mut out: [u8; N] = core::array::from_fn(|i| u8::try_from(i).unwrap_or(0));
    let Some(value) = value else {
        return Ok(out);
    };
    let text = value.as_str().ok_or("entropy is hex text")?;
    if text.len() != 2 * N {
        return Err(format!("entropy is {N} bytes, {} hex digits", 2 * N));
    }
    for (i, byte) in out.iter_mut().enumerate() {
        let pair = text.get(2 * i..2 * i + 2).ok_or("entropy is hex text")?;
        *byte = u8::from_str_radix(pair, 16).map_err(|_| "entropy is hex text")?;
    }
    Ok(out)
}

fn read_challenge(value: &Value) -> Result<Challenge, String> {
    let map = value.as_object().ok_or("`challenge` is an object")?;
    only(map, &["status", "wwwAuthenticate"], "`challenge`")?;
    let status = number(map, "status")?.ok_or("`challenge.status` is required")?;
    let status = u16::try_from(status).map_err(|_| "`challenge.status` is a status")?;
    Ok(parse_challenge(status, string(map, "wwwAuthenticate")?))
}

fn stored_grant(value: &Value) -> Result<Grant, String> {
    Grant::from_json(value.to_json().as_bytes(), &Limits::DEFAULT)
        .map_err(|e| format!("a stored grant of the script: {e}"))
}

/// The configuration the script gives, each secret in it added to `secrets`; the error
/// reading the client key is an outcome.
fn config(map: &Map, secrets: &mut Vec<String>) -> Result<Result<Config, AuthError>, String> {
    only(
        map,
        &[
            "clientName",
            "redirectUri",
            "clientId",
            "clientSecret",
            "clientIssuer",
            "clientMetadataUrl",
            "maxAuthorizations",
            "dpop",
            "grant",
            "clientKey",
            "assertion",
            "idToken",
            "idpTokenEndpoint",
            "idpClientId",
            "idpClientSecret",
        ],
        "`config`",
    )?;
    let owned = |key: &str| string(map, key).map(|s| s.map(String::from));
    let mut config = Config::new(
        string(map, "clientName")?.unwrap_or("toolnexus"),
        string(map, "redirectUri")?.ok_or("`config.redirectUri` is required")?,
    );
    config.client_id = owned("clientId")?;
    let client_secret = owned("clientSecret")?;
    config.client_issuer = owned("clientIssuer")?;
    config.client_metadata_url = owned("clientMetadataUrl")?;
    if let Some(n) = number(map, "maxAuthorizations")? {
        config.max_authorizations = u32::try_from(n).map_err(|_| "maxAuthorizations is a u32")?;
    }
    config.dpop = match string(map, "dpop")? {
        None | Some("when-offered") => DpopUse::WhenOffered,
        Some("always") => DpopUse::Always,
        Some("never") => DpopUse::Never,
        Some(other) => return Err(format!("dpop {other:?} is none of the uses")),
    };
    let assertion = owned("assertion")?;
    let id_token = owned("idToken")?;
    let idp = (
        owned("idpTokenEndpoint")?,
        owned("idpClientId")?,
        owned("idpClientSecret")?,
    );
    secrets.extend(
        [&client_secret, &assertion, &id_token, &idp.2]
            .into_iter()
            .flatten()
            .filter(|s| s.len() >= MIN_AUTO_SECRET)
            .cloned(),
    );
    config.client_secret = client_secret.map(Into::into);
    let only_for = |grant: &str, given: bool| {
        if given {
            Err(format!(
                "a member of `config` is for the {grant} grant only"
            ))
        } else {
            Ok(())
        }
    };
    config.grant = match string(map, "grant")? {
        None | Some("authorization_code") | Some("client_credentials") | Some("device_code") => {
            only_for(
                "jwt_bearer or enterprise",
                assertion.is_some() || id_token.is_some(),
            )?;
            only_for(
                "enterprise",
                idp.0.is_some() || idp.1.is_some() || idp.2.is_some(),
            )?;
            match string(map, "grant")? {
                Some("client_credentials") => GrantType::ClientCredentials,
                Some("device_code") => GrantType::DeviceCode,
                _ => GrantType::AuthorizationCode,
            }
        }
        Some("jwt_bearer") => {
            only_for("enterprise", id_token.is_some() || idp.0.is_some())?;
            GrantType::JwtBearer {
                assertion: assertion
                    .ok_or("the jwt_bearer grant needs `assertion`")?
                    .into(),
            }
        }
        Some("enterprise") => {
            only_for("jwt_bearer", assertion.is_some())?;
            GrantType::Enterprise(Enterprise {
                token_endpoint: idp
                    .0
                    .ok_or("the enterprise grant needs `idpTokenEndpoint`")?,
                client_id: idp.1,
                client_secret: idp.2.map(Into::into),
                id_token: id_token
                    .ok_or("the enterprise grant needs `idToken`")?
                    .into(),
            })
        }
        Some(other) => return Err(format!("grant {other:?} is none of the grants")),
    };
    if let Some(pem) = string(map, "clientKey")? {
        match ClientKey::from_pem(pem) {
            Ok(key) => config.client_key = Some(key),
            Err(e) => return Ok(Err(e)),
        }
    }
    Ok(Ok(config))
}

/// A response's status, headers and body bytes.
type Response = (u16, Vec<(String, String)>, Vec<u8>);

/// The response a step gives: its status (200 when absent), headers and body bytes.
fn response(value: Option<&Value>) -> Result<Response, String> {
    let map = value
        .and_then(Value::as_object)
        .ok_or("a request step needs its `response` object")?;
    only(map, &["status", "headers", "body", "text"], "the response")?;
    let status = number(map, "status")?.unwrap_or(200);
    let status = u16::try_from(status).map_err(|_| "`status` is a status")?;
    let headers = match map.get("headers") {
        None => Vec::new(),
        Some(Value::Object(headers)) => headers
            .iter()
            .map(|(n, v)| {
                v.as_str()
                    .map(|v| (n.to_owned(), v.to_owned()))
                    .ok_or("a header's value is a string")
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("`headers` is an object".into()),
    };
    let body = match (map.get("body"), map.get("text")) {
        (Some(body), None) => body.to_json().into_bytes(),
        (None, Some(text)) => text
            .as_str()
            .ok_or("`text` is a string")?
            .as_bytes()
            .to_vec(),
        (None, None) => Vec::new(),
        (Some(_), Some(_)) => return Err("give `body` or `text`, not both".into()),
    };
    Ok((status, headers, body))
}

/// The `access_token`, `refresh_token`, `id_token` and `client_secret` a response body
/// issues, kept out of messages from then on.
fn issued_tokens(body: &[u8], secrets: &mut Vec<String>) {
    if let Ok(Value::Object(map)) = json::parse(body, &Limits::DEFAULT) {
        for key in ["access_token", "refresh_token", "id_token", "client_secret"] {
            if let Some(token) = map.get(key).and_then(Value::as_str)
                && token.len() >= MIN_AUTO_SECRET
            {
                secrets.push(token.to_owned());
            }
        }
    }
}

/// The request's printed form holds no secret: neither one of `secrets` nor a value of its
/// own `authorization` or `dpop` header or of a secret form member.
fn hidden_in_print(request: &HttpRequest, secrets: &[String]) -> Result<(), String> {
    let printed = format!("{request:?}");
    let mut own: Vec<String> = request
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("authorization") || n.eq_ignore_ascii_case("dpop"))
        .map(|(_, v)| v.clone())
        .collect();
    own.extend(
        form_pairs(request)
            .unwrap_or_default()
            .into_iter()
            .filter(|(n, _)| SECRET_MEMBERS.contains(&n.as_str()))
            .map(|(_, v)| v),
    );
    let found = own
        .iter()
        .filter(|s| s.len() >= MIN_AUTO_SECRET)
        .chain(secrets.iter())
        .find(|s| printed.contains(s.as_str()));
    match found {
        Some(secret) => Err(format!(
            "the request's printed form shows the secret {secret:?}: {printed}"
        )),
        None => Ok(()),
    }
}

/// The request's form members, when its body is a form.
fn form_pairs(request: &HttpRequest) -> Option<Vec<(String, String)>> {
    let form = request
        .header("content-type")
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    form.then(|| form_urlencoded::parse(&request.body).into_owned().collect())
}

/// Checks `request` against what the step expects of it: `method` and `url` exactly, and the
/// `headers`, `form` and `json` members it lists.
fn fits_request(request: &HttpRequest, expected: &Value) -> Result<(), String> {
    let map = expected.as_object().ok_or("`request` is an object")?;
    only(
        map,
        &["method", "url", "headers", "form", "json", "body"],
        "`request`",
    )?;
    let shown = format!("{} {}", request.method, request.url);
    if let Some(method) = string(map, "method")?
        && method != request.method.as_str()
    {
        return Err(format!(
            "expected a {method} request, the flow asks for {shown}"
        ));
    }
    let url = string(map, "url")?.ok_or("`request.url` is required")?;
    if url != request.url {
        return Err(format!(
            "expected a request to {url}, the flow asks for {shown}"
        ));
    }
    if let Some(Value::Array(pairs)) = map.get("headers") {
        let got: Vec<(&str, &str)> = request
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        fits_pairs(pairs, &got).map_err(|e| format!("{shown}: the headers: {e}"))?;
    } else if let Some(headers) = map.get("headers") {
        let headers = headers
            .as_object()
            .ok_or("`headers` is an object or a list")?;
        for (name, want) in headers.iter() {
            let got: Vec<&str> = request
                .headers
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
                .collect();
            fits_member(want, &got).map_err(|e| format!("{shown}: header {name}: {e}"))?;
        }
    }
    if let Some(form) = map.get("form") {
        let pairs =
            form_pairs(request).ok_or_else(|| format!("{shown}: the body is not a form"))?;
        if let Value::Array(want) = form {
            let got: Vec<(&str, &str)> = pairs
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            fits_pairs(want, &got).map_err(|e| format!("{shown}: the form: {e}"))?;
        }
        let empty = Map::new();
        let form = match form {
            Value::Array(_) => &empty,
            other => other.as_object().ok_or("`form` is an object or a list")?,
        };
        for (name, want) in form.iter() {
            let got: Vec<&str> = pairs
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .collect();
            fits_member(want, &got).map_err(|e| format!("{shown}: form member {name}: {e}"))?;
        }
    }
    if let Some(want) = string(map, "body")?
        && want.as_bytes() != request.body.as_slice()
    {
        return Err(format!(
            "{shown}: expected the body {want:?}, got {:?}",
            String::from_utf8_lossy(&request.body)
        ));
    }
    if let Some(want) = map.get("json") {
        let body = json::parse(&request.body, &Limits::DEFAULT)
            .map_err(|e| format!("{shown}: the body is not JSON: {e}"))?;
        fits(want, Some(&body), "").map_err(|e| format!("{shown}: the JSON body: {e}"))?;
    }
    Ok(())
}

/// Checks the authorization URL: `url` exactly, or the `query` members it lists.
fn fits_authorize(url: &str, expected: &Value) -> Result<(), String> {
    let map = expected.as_object().ok_or("`authorize` is an object")?;
    only(map, &["url", "endpoint", "query"], "`authorize`")?;
    if let Some(want) = string(map, "url")?
        && want != url
    {
        return Err(format!("expected {want}, got {url}"));
    }
    let (endpoint, query) = url.split_once('?').unwrap_or((url, ""));
    if let Some(want) = string(map, "endpoint")?
        && want != endpoint
    {
        return Err(format!("expected the endpoint {want}, got {url}"));
    }
    if let Some(members) = map.get("query") {
        let members = members.as_object().ok_or("`query` is an object")?;
        let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        for (name, want) in members.iter() {
            let got: Vec<&str> = pairs
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .collect();
            fits_member(want, &got).map_err(|e| format!("query member {name}: {e}"))?;
        }
    }
    Ok(())
}

/// Every pair, in order and nothing else: each `[name, value]`, the value as
/// [`fits_member`] reads it.
fn fits_pairs(want: &[Value], got: &[(&str, &str)]) -> Result<(), String> {
    if want.len() != got.len() {
        return Err(format!("expected {} pairs, got {got:?}", want.len()));
    }
    for (want, (name, value)) in want.iter().zip(got) {
        let (Some(Value::String(n)), Some(v), None) = (
            want.as_array().and_then(|p| p.first()),
            want.as_array().and_then(|p| p.get(1)),
            want.as_array().and_then(|p| p.get(2)),
        ) else {
            return Err("each pair is [name, value]".into());
        };
        if n.as_str() != *name {
            return Err(format!(
                "expected {:?}, got {name:?} in {got:?}",
                n.as_str()
            ));
        }
        fits_member(v, &[value]).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// A header, form or query member: `null` for absent, a string for that one value, or
/// `{"jwt": {"header"?, "claims"?}}` for one JWT whose decoded parts hold those members.
fn fits_member(want: &Value, got: &[&str]) -> Result<(), String> {
    match (want, got) {
        (Value::Null, []) => Ok(()),
        (Value::Null, _) => Err(format!("expected none, got {got:?}")),
        (_, [one]) => match want {
            Value::String(text) if text.as_str() == *one => Ok(()),
            Value::String(text) => Err(format!("expected {:?}, got {one:?}", text.as_str())),
            Value::Object(map) if map.len() == 1 && map.contains_key("jwt") => {
                fits_jwt(map.get("jwt").unwrap_or(&Value::Null), one)
            }
            _ => Err("a member is expected as null, a string or {\"jwt\": ...}".into()),
        },
        _ => Err(format!("expected one value, got {got:?}")),
    }
}

fn fits_jwt(want: &Value, jwt: &str) -> Result<(), String> {
    let map = want.as_object().ok_or("`jwt` is an object")?;
    only(map, &["header", "claims"], "`jwt`")?;
    let mut parts = jwt.split('.');
    let (Some(header), Some(claims), Some(_), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!("{jwt:?} is not a JWT"));
    };
    for (name, part) in [("header", header), ("claims", claims)] {
        if let Some(want) = map.get(name) {
            let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(part)
                .map_err(|e| format!("the JWT's {name}: {e}"))?;
            let got = json::parse(&bytes, &Limits::DEFAULT)
                .map_err(|e| format!("the JWT's {name}: {e}"))?;
            fits(want, Some(&got), "").map_err(|e| format!("the JWT's {name}: {e}"))?;
        }
    }
    Ok(())
}

/// `got` holds what `want` says: objects hold the members listed (`null`: absent), arrays
/// and scalars are equal (numbers by value).
fn fits(want: &Value, got: Option<&Value>, at: &str) -> Result<(), String> {
    let shown = || got.map_or_else(|| "nothing".to_owned(), Value::to_json);
    match (want, got) {
        (Value::Null, None) => Ok(()),
        (Value::Object(members), Some(Value::Object(have))) => {
            for (key, want) in members.iter() {
                fits(want, have.get(key), &format!("{at}/{key}"))?;
            }
            Ok(())
        }
        (Value::Array(items), Some(Value::Array(have))) if items.len() == have.len() => {
            for (i, (want, have)) in items.iter().zip(have).enumerate() {
                fits(want, Some(have), &format!("{at}/{i}"))?;
            }
            Ok(())
        }
        (Value::Number(a), Some(Value::Number(b)))
            if a.as_str() == b.as_str() || (a.as_f64().is_some() && a.as_f64() == b.as_f64()) =>
        {
            Ok(())
        }
        (Value::String(a), Some(Value::String(b))) if a == b => Ok(()),
        (Value::Bool(a), Some(Value::Bool(b))) if a == b => Ok(()),
        _ => Err(format!(
            "at {at:?} expected {}, got {}",
            want.to_json(),
            shown()
        )),
    }
}
