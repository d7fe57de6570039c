//! What an authorization yields: a [`Grant`] (the token, what it is for, and the client that
//! obtained it), read from a token response (RFC 6749 §5.1) and written down for storage.

use toolnexus_core::json::{Limits, Map, Value};

use crate::client::Client;
use crate::document::{Document, only_members};
use crate::dpop::DpopKey;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant_type::GrantKind;
use crate::http::HttpResponse;
use crate::refusal::{redirected, refusal};
use crate::secret::Secret;

/// The version of the stored form [`Grant::to_json`] writes.
const STORED_VERSION: u64 = 1;

/// An access token for one protected resource, with what is needed to use it, refresh it and
/// authorize again: its scopes, its authorization server and the client registered there.
///
/// The `Debug` form shows neither token nor secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub(crate) access_token: Secret,
    pub(crate) token_type: String,
    pub(crate) refresh_token: Option<Secret>,
    pub(crate) expires_at_ms: Option<u64>,
    pub(crate) scope: Option<String>,
    pub(crate) issuer: String,
    pub(crate) resource: Option<String>,
    pub(crate) token_endpoint: String,
    pub(crate) client: Client,
    /// The key a `DPoP` token is bound to (RFC 9449); `None` for a `Bearer` token.
    pub(crate) dpop_key: Option<DpopKey>,
    /// Authorizations in the step-up chain that led here (1 for a first authorization); held
    /// in memory only.
    pub(crate) authorizations: u32,
    /// The grant that obtained it; a refresh keeps it.
    pub(crate) obtained_by: GrantKind,
}

impl Grant {
    /// The access token.
    pub fn access_token(&self) -> &str {
        self.access_token.expose()
    }

    /// The token type as the server wrote it (`Bearer` or `DPoP`, in any case).
    pub fn token_type(&self) -> &str {
        &self.token_type
    }

    /// The value of the `Authorization` header that carries the token: `Bearer <token>`, or
    /// `DPoP <token>` for a token bound to a DPoP key.
    pub fn authorization(&self) -> String {
        if self.dpop_key.is_some() {
            format!("DPoP {}", self.access_token.expose())
        } else {
            format!("Bearer {}", self.access_token.expose())
        }
    }

    /// The DPoP key the token is bound to, for a `DPoP` token.
    pub fn dpop_key(&self) -> Option<&DpopKey> {
        self.dpop_key.as_ref()
    }

    /// Whether the token is a `DPoP` token: each request carrying it needs a fresh
    /// [`proof`](Grant::proof).
    pub fn is_dpop(&self) -> bool {
        self.dpop_key.is_some()
    }

    /// The value of the `DPoP` header for a `method` request to `url` that carries the
    /// token, at `now_ms`, its `jti` made of `jti_bytes` (16 to 64 fresh random bytes), with
    /// the `nonce` the server last asked for: `None` for a `Bearer` token.
    ///
    /// Refused ([`AuthErrorKind::InvalidDpop`]): what [`DpopKey::proof`] refuses, a nonce
    /// that is huge or not printable among them.
    pub fn proof(
        &self,
        method: &str,
        url: &str,
        now_ms: u64,
        jti_bytes: &[u8],
        nonce: Option<&str>,
    ) -> Result<Option<String>, AuthError> {
        self.dpop_key
            .as_ref()
            .map(|key| {
                key.proof(
                    method,
                    url,
                    now_ms,
                    jti_bytes,
                    Some(self.access_token.expose()),
                    nonce,
                )
            })
            .transpose()
    }

    /// The refresh token, if one was issued.
    pub fn refresh_token(&self) -> Option<&str> {
        self.refresh_token.as_ref().map(Secret::expose)
    }

    /// When the access token expires, in milliseconds since the Unix epoch (from
    /// `expires_in` and the time the response was read), if the server said.
    pub fn expires_at_ms(&self) -> Option<u64> {
        self.expires_at_ms
    }

    /// Whether the access token has expired at `now_ms`. A token of unknown lifetime never
    /// has: the server says so with a 401.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        self.expires_at_ms.is_some_and(|at| now_ms >= at)
    }

    /// The scopes granted, space-separated: the token response's `scope`, else the scopes
    /// requested (RFC 6749 §5.1: the same as requested when omitted).
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// The issuer of the authorization server that granted it.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The `resource` (RFC 8707) it was requested for, exactly as the protected resource
    /// metadata wrote it; `None` for a server without that metadata (MCP 2025-03-26).
    pub fn resource(&self) -> Option<&str> {
        self.resource.as_deref()
    }

    /// The token endpoint that issued it, where a refresh goes.
    pub fn token_endpoint(&self) -> &str {
        &self.token_endpoint
    }

    /// The client that obtained it, registered at [`issuer`](Grant::issuer).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// How the token was obtained: `authorization_code` (a person signed in),
    /// `client_credentials`, `jwt_bearer` or `enterprise`
    /// ([`GrantType::name`](crate::GrantType::name)); a refresh keeps it. A host reuses a kept
    /// grant only for the same kind of grant, so that a job that runs as a machine never acts
    /// with a person's token, nor the other way round.
    pub fn obtained_by(&self) -> &str {
        self.obtained_by.as_str()
    }

    /// How many authorizations the step-up chain that led to this grant took (1 for a first
    /// authorization). A grant read back with [`Grant::from_json`] starts a new chain.
    pub fn authorizations(&self) -> u32 {
        self.authorizations
    }

    /// The grant as compact JSON, to store (it holds the tokens, the client secret and the
    /// private DPoP key: store it as a secret). [`Grant::from_json`] reads it back.
    pub fn to_json(&self) -> String {
        let mut map = Map::new();
        map.insert("version", Value::from(STORED_VERSION));
        map.insert("access_token", Value::from(self.access_token.expose()));
        map.insert("token_type", Value::from(self.token_type.as_str()));
        if let Some(refresh) = &self.refresh_token {
            map.insert("refresh_token", Value::from(refresh.expose()));
        }
        if let Some(at) = self.expires_at_ms {
            map.insert("expires_at_ms", Value::from(at));
        }
        if let Some(scope) = &self.scope {
            map.insert("scope", Value::from(scope.as_str()));
        }
        map.insert("issuer", Value::from(self.issuer.as_str()));
        if let Some(resource) = &self.resource {
            map.insert("resource", Value::from(resource.as_str()));
        }
        map.insert("token_endpoint", Value::from(self.token_endpoint.as_str()));
        map.insert("client", Value::Object(self.client.to_map()));
        if let Some(key) = &self.dpop_key {
            map.insert("dpop_key", Value::from(key.to_secret()));
        }
        // The person's grant is the default: grants kept before this member was written read
        // back as what they are.
        if self.obtained_by != GrantKind::AuthorizationCode {
            map.insert("obtained_by", Value::from(self.obtained_by.as_str()));
        }
        map.to_json()
    }

    /// Reads a grant [`Grant::to_json`] wrote, within `limits`.
    ///
    /// Refused: text that is not JSON ([`AuthErrorKind::InvalidJson`], or `TooLarge`,
    /// `TooDeep`); another `version`, a member missing, of the wrong type or unknown
    /// ([`AuthErrorKind::InvalidGrant`], at its pointer).
    pub fn from_json(json: &[u8], limits: &Limits) -> Result<Grant, AuthError> {
        let doc = Document::read(
            json,
            limits,
            "the stored grant".to_owned(),
            AuthErrorKind::InvalidGrant,
        )?;
        only_members(
            &doc,
            &[
                "version",
                "access_token",
                "token_type",
                "refresh_token",
                "expires_at_ms",
                "scope",
                "issuer",
                "resource",
                "token_endpoint",
                "client",
                "dpop_key",
                "obtained_by",
            ],
        )?;
        let obtained_by = match doc.string("obtained_by")? {
            None => GrantKind::AuthorizationCode,
            Some(name) => GrantKind::from_name(name).ok_or_else(|| {
                doc.error(
                    "obtained_by",
                    format_args!("is {}, not a grant this crate knows", quote(name)),
                )
            })?,
        };
        match doc.count("version")? {
            Some(STORED_VERSION) => {}
            _ => {
                return Err(doc.error(
                    "version",
                    format_args!("is not {STORED_VERSION}, the version this build reads"),
                ));
            }
        }
        let client = doc
            .within("client")?
            .ok_or_else(|| doc.error("client", "is missing"))?;
        let client = Client::from_document(&client).map_err(|e| {
            AuthError::new(e.kind(), format!("/client{}", e.pointer()), e.message())
        })?;
        let token_type = doc.required_string("token_type")?;
        let dpop_key = match doc.string("dpop_key")? {
            None => None,
            Some(secret) => Some(DpopKey::from_secret(secret).map_err(|e| {
                AuthError::new(AuthErrorKind::InvalidGrant, "/dpop_key", e.message())
            })?),
        };
        if dpop_key.is_some() != token_type.eq_ignore_ascii_case("dpop") {
            return Err(doc.error(
                "dpop_key",
                "must be present for a DPoP token and only for one",
            ));
        }
        Ok(Grant {
            access_token: Secret::from(doc.required_string("access_token")?),
            token_type: token_type.to_owned(),
            refresh_token: doc.string("refresh_token")?.map(Secret::from),
            expires_at_ms: doc.count("expires_at_ms")?,
            scope: doc.string("scope")?.map(str::to_owned),
            issuer: doc.required_string("issuer")?.to_owned(),
            resource: doc.string("resource")?.map(str::to_owned),
            token_endpoint: doc.required_string("token_endpoint")?.to_owned(),
            client,
            dpop_key,
            authorizations: 1,
            obtained_by,
        })
    }
}

/// What a token response is read against: the request it answers.
pub(crate) struct TokenRequestContext<'a> {
    /// The token endpoint asked.
    pub(crate) token_endpoint: &'a str,
    /// The issuer of its server.
    pub(crate) issuer: &'a str,
    /// The `resource` sent, if any.
    pub(crate) resource: Option<&'a str>,
    /// The client that asked.
    pub(crate) client: &'a Client,
    /// The scopes requested (or, for a refresh, held).
    pub(crate) scope: Option<&'a str>,
    /// For a refresh, the refresh token sent, kept when no new one is issued.
    pub(crate) refresh_token: Option<&'a str>,
    /// The step-up chain's authorizations.
    pub(crate) authorizations: u32,
    /// Values no message may show (the code, the verifier, the secret, the refresh token).
    pub(crate) secrets: &'a [&'a str],
    /// The DPoP key the request was proved with, if it was: a `DPoP` token is accepted then
    /// only, and bound to it.
    pub(crate) dpop_key: Option<&'a DpopKey>,
    /// The grant that obtains the token.
    pub(crate) obtained_by: GrantKind,
}

/// Reads the token endpoint's answer at `now_ms` into a [`Grant`].
///
/// Refused: a redirect ([`AuthErrorKind::Redirected`]); any status but 2xx
/// ([`AuthErrorKind::TokenRefused`], with the OAuth `error` in the message); a body without
/// `access_token` or `token_type`, or with a member of the wrong type
/// ([`AuthErrorKind::InvalidResponse`]); a token type other than `Bearer`
/// ([`AuthErrorKind::UnsupportedTokenType`]).
pub(crate) fn read_token_response(
    response: &HttpResponse<'_>,
    limits: &Limits,
    now_ms: u64,
    request: &TokenRequestContext<'_>,
) -> Result<Grant, AuthError> {
    let what = format!("the token response of {}", quote(request.token_endpoint));
    if (300..400).contains(&response.status) {
        return Err(redirected(request.token_endpoint, response));
    }
    if !(200..300).contains(&response.status) {
        let code = refusal(response, limits, what, request.secrets)
            .map(|text| format!(" with {text}"))
            .unwrap_or_default();
        return Err(AuthError::new(
            AuthErrorKind::TokenRefused,
            "",
            format!(
                "the token endpoint {} answered {}{code}",
                quote(request.token_endpoint),
                response.status
            ),
        ));
    }
    let doc = Document::read(response.body, limits, what, AuthErrorKind::InvalidResponse)?;
    let access_token = doc.required_string("access_token")?;
    let token_type = doc.required_string("token_type")?;
    let dpop_key = match request.dpop_key {
        Some(key) if token_type.eq_ignore_ascii_case("dpop") => Some(key.clone()),
        _ if token_type.eq_ignore_ascii_case("bearer") => None,
        _ => {
            return Err(doc.error_of(
                AuthErrorKind::UnsupportedTokenType,
                "token_type",
                format_args!(
                    "is {}; only Bearer tokens (and DPoP tokens, to a request proved with \
                     DPoP) are supported",
                    quote(token_type)
                ),
            ));
        }
    };
    let expires_at_ms = doc
        .count("expires_in")?
        .map(|seconds| now_ms.saturating_add(seconds.saturating_mul(1000)));
    let refresh_token = doc
        .string("refresh_token")?
        .filter(|t| !t.is_empty())
        .or(request.refresh_token);
    let scope = doc
        .string("scope")?
        .filter(|s| !s.trim().is_empty())
        .or(request.scope);
    Ok(Grant {
        access_token: Secret::from(access_token),
        token_type: token_type.to_owned(),
        refresh_token: refresh_token.map(Secret::from),
        expires_at_ms,
        scope: scope.map(str::to_owned),
        issuer: request.issuer.to_owned(),
        resource: request.resource.map(str::to_owned),
        token_endpoint: request.token_endpoint.to_owned(),
        client: request.client.clone(),
        dpop_key,
        authorizations: request.authorizations,
        obtained_by: request.obtained_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::AuthMethod;

    fn client() -> Client {
        Client {
            client_id: "cid".into(),
            client_secret: Some("csecret".into()),
            auth_method: AuthMethod::ClientSecretBasic,
            issuer: "https://as.example".into(),
        }
    }

    fn read(status: u16, body: &str, refresh: Option<&str>) -> Result<Grant, AuthError> {
        let c = client();
        let context = TokenRequestContext {
            token_endpoint: "https://as.example/token",
            issuer: "https://as.example",
            resource: Some("https://mcp.example"),
            client: &c,
            scope: Some("a b"),
            refresh_token: refresh,
            authorizations: 2,
            secrets: &["the-code-123", "csecret"],
            dpop_key: None,
            obtained_by: GrantKind::AuthorizationCode,
        };
        let headers = vec![("location".to_owned(), "https://elsewhere".to_owned())];
        let response = HttpResponse {
            status,
            headers: &headers,
            body: body.as_bytes(),
        };
        read_token_response(&response, &Limits::DEFAULT, 1_000, &context)
    }

    #[test]
    fn a_token_response_becomes_a_grant() {
        let g = read(
            200,
            r#"{"access_token":"at","token_type":"bearer","expires_in":60,"refresh_token":"rt","scope":"a"}"#,
            None,
        )
        .unwrap();
        assert_eq!(g.access_token(), "at");
        assert_eq!(g.authorization(), "Bearer at");
        assert_eq!(g.expires_at_ms(), Some(61_000));
        assert!(!g.is_expired(60_999));
        assert!(g.is_expired(61_000));
        assert_eq!(g.refresh_token(), Some("rt"));
        assert_eq!(g.scope(), Some("a"));
        assert_eq!(g.resource(), Some("https://mcp.example"));
        assert_eq!(g.token_endpoint(), "https://as.example/token");
        assert_eq!(g.authorizations(), 2);
        let shown = format!("{g:?}");
        assert!(
            !shown.contains("\"at\"") && !shown.contains("rt") && !shown.contains("csecret"),
            "{shown}"
        );
    }

    #[test]
    fn omitted_members_keep_what_was_asked_or_held() {
        let g = read(
            200,
            r#"{"access_token":"at","token_type":"Bearer"}"#,
            Some("old"),
        )
        .unwrap();
        assert_eq!(g.scope(), Some("a b"));
        assert_eq!(g.refresh_token(), Some("old"));
        assert_eq!(g.expires_at_ms(), None);
        assert!(!g.is_expired(u64::MAX));
    }

    #[test]
    fn bad_token_responses() {
        use AuthErrorKind::*;
        let cases = [
            (
                200,
                r#"{"token_type":"Bearer"}"#,
                InvalidResponse,
                "/access_token",
            ),
            (
                200,
                r#"{"access_token":"at"}"#,
                InvalidResponse,
                "/token_type",
            ),
            (
                200,
                r#"{"access_token":"at","token_type":"DPoP"}"#,
                UnsupportedTokenType,
                "/token_type",
            ),
            (
                200,
                r#"{"access_token":"at","token_type":"Bearer","expires_in":"3600"}"#,
                InvalidResponse,
                "/expires_in",
            ),
            (
                200,
                r#"{"access_token":"at","token_type":"Bearer","expires_in":-5}"#,
                InvalidResponse,
                "/expires_in",
            ),
            (
                200,
                r#"{"access_token":"at","token_type":"Bearer","scope":["a"]}"#,
                InvalidResponse,
                "/scope",
            ),
            (200, "not json", InvalidJson, ""),
            (302, "", Redirected, ""),
            (
                400,
                r#"{"error":"invalid_grant","error_description":"code the-code-123 is used; csecret"}"#,
                TokenRefused,
                "",
            ),
            (500, "<html>", TokenRefused, ""),
        ];
        for (status, body, kind, at) in cases {
            let e = read(status, body, None).unwrap_err();
            assert_eq!((e.kind(), e.pointer()), (kind, at), "{body}");
            assert!(!e.message().contains("the-code-123"), "{}", e.message());
            assert!(!e.message().contains("csecret"), "{}", e.message());
        }
        let e = read(400, r#"{"error":"invalid_grant"}"#, None).unwrap_err();
        assert!(e.message().contains("invalid_grant"), "{}", e.message());
        let e = read(302, "", None).unwrap_err();
        assert!(e.message().contains("https://elsewhere"), "{}", e.message());
    }

    #[test]
    fn a_grant_round_trips_through_json() {
        let g = read(
            200,
            r#"{"access_token":"at","token_type":"Bearer","expires_in":60,"refresh_token":"rt","scope":"a"}"#,
            None,
        )
        .unwrap();
        let json = g.to_json();
        assert_eq!(
            json,
            r#"{"version":1,"access_token":"at","token_type":"Bearer","refresh_token":"rt","expires_at_ms":61000,"scope":"a","issuer":"https://as.example","resource":"https://mcp.example","token_endpoint":"https://as.example/token","client":{"client_id":"cid","client_secret":"csecret","auth_method":"client_secret_basic","issuer":"https://as.example"}}"#
        );
        let back = Grant::from_json(json.as_bytes(), &Limits::DEFAULT).unwrap();
        assert_eq!(back.authorizations(), 1);
        assert_eq!(
            Grant {
                authorizations: 2,
                ..back
            },
            g
        );
    }

    #[test]
    fn how_a_grant_was_obtained_is_kept() {
        let person = r#"{"version":1,"access_token":"at","token_type":"Bearer","issuer":"i","token_endpoint":"t","client":{"client_id":"c","auth_method":"none","issuer":"i"}}"#;
        let g = Grant::from_json(person.as_bytes(), &Limits::DEFAULT).unwrap();
        assert_eq!(g.obtained_by(), "authorization_code");
        assert_eq!(g.to_json(), person, "a person's grant is written as before");
        for name in crate::grant_type::GRANT_NAMES.into_iter().skip(1) {
            let machine = person.replace(
                r#","client""#,
                &format!(r#","client":{{"client_id":"c","auth_method":"none","issuer":"i"}},"obtained_by":"{name}","x""#),
            );
            let machine = machine.replace(
                r#","x":{"client_id":"c","auth_method":"none","issuer":"i"}"#,
                "",
            );
            let g = Grant::from_json(machine.as_bytes(), &Limits::DEFAULT).unwrap();
            assert_eq!(g.obtained_by(), name);
            assert_eq!(g.to_json(), machine);
        }
    }

    #[test]
    fn stored_grants_are_checked() {
        use AuthErrorKind::*;
        let good = r#"{"version":1,"access_token":"at","token_type":"Bearer","issuer":"i","token_endpoint":"t","client":{"client_id":"c","auth_method":"none","issuer":"i"}}"#;
        let g = Grant::from_json(good.as_bytes(), &Limits::DEFAULT).unwrap();
        assert_eq!(
            (
                g.client().client_id(),
                g.client().client_secret(),
                g.refresh_token()
            ),
            ("c", None, None)
        );
        let cases = [
            (
                good.replace(r#""version":1"#, r#""version":2"#),
                InvalidGrant,
                "/version",
            ),
            (
                good.replace(r#""version":1,"#, ""),
                InvalidGrant,
                "/version",
            ),
            (
                good.replace(r#""access_token":"at""#, r#""access_token":1"#),
                InvalidGrant,
                "/access_token",
            ),
            (
                good.replace(r#""issuer":"i","token"#, r#""token"#),
                InvalidGrant,
                "/issuer",
            ),
            (
                good.replace(
                    r#""auth_method":"none""#,
                    r#""auth_method":"tls_client_auth""#,
                ),
                InvalidGrant,
                "/client/auth_method",
            ),
            (
                good.replace(r#""client_id":"c","#, ""),
                InvalidGrant,
                "/client/client_id",
            ),
            (
                good.replace(r#""version":1"#, r#""version":1,"extra":true"#),
                InvalidGrant,
                "/extra",
            ),
            (
                good.replace(
                    r#","client":{"client_id":"c","auth_method":"none","issuer":"i"}"#,
                    "",
                ),
                InvalidGrant,
                "/client",
            ),
            (
                good.replace(r#""version":1"#, r#""version":1,"obtained_by":"password""#),
                InvalidGrant,
                "/obtained_by",
            ),
            (
                good.replace(r#""version":1"#, r#""version":1,"obtained_by":7"#),
                InvalidGrant,
                "/obtained_by",
            ),
            ("nope".to_owned(), InvalidJson, ""),
        ];
        for (text, kind, at) in cases {
            let e = Grant::from_json(text.as_bytes(), &Limits::DEFAULT).unwrap_err();
            assert_eq!((e.kind(), e.pointer()), (kind, at), "{text}");
        }
        let e = Grant::from_json(good.as_bytes(), &Limits::DEFAULT.with_max_input_bytes(10))
            .unwrap_err();
        assert_eq!(e.kind(), TooLarge);
    }
}
