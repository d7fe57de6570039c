//! MCP authorization (`toolnexus_auth`) for a Python host that sends the requests itself:
//! `parse_challenge`, `Challenge`, `AuthConfig`, `AuthFlow`, the four things a flow asks for
//! next (`Fetch`, `Authorize`, `Poll` with its `DeviceCode` for the device grant, `Done`) and
//! the `Grant` it ends with, whose `proof` makes the `DPoP` header (RFC 9449) of each request
//! that carries a DPoP-bound token.
//!
//! Every decision is the auth crate's: this module reads the Python arguments (headers, body,
//! entropy, the time), hands them over and wraps what comes back. The flow does no I/O and
//! draws no randomness of its own: `entropy` defaults to `os.urandom(64)` (`os.urandom(32)`
//! for a refresh, and for a proof's `jti`) and `now_ms` to `time.time()`, both asked of the
//! interpreter. No `repr` shows a token, a code, a verifier, a secret or a proof: a `Fetch`
//! shows its body's length and hides its `authorization` and `dpop` headers, a `Grant` says
//! whether it holds a refresh token.

use std::hash::{Hash, Hasher};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyInt, PyMapping, PyString, PyTuple};
use toolnexus_auth::{
    AuthError, AuthErrorKind, AuthOption, Authorization, Challenge, ClientKey, Config, Decision,
    DeviceCode, DpopUse, Enterprise, Flow, Grant, GrantKind, GrantType, HttpRequest, HttpResponse,
    Next, Policy, Poll, Refusal, check_options,
};
use toolnexus_core::{Error, ErrorKind, Request, id};

use crate::contract::PyRequest;
use crate::errors::{OrRaise, named, to_py_err};
use crate::limits::PyLimits;
use crate::repr::Repr;
use crate::text::str_of;
use crate::wire::Shared;

/// How many random bytes a flow begins with (the PKCE verifier, the `state` and the DPoP key).
const ENTROPY_BYTES: usize = 64;

/// How many random bytes a refresh begins with (the `jti` of its DPoP proofs).
const REFRESH_ENTROPY_BYTES: usize = 32;

/// How many random bytes `Grant.proof` draws for a `jti` when none are given.
const JTI_BYTES: usize = 32;

/// What a resource server's 401 or 403 asked for, read from its `WWW-Authenticate` header:
/// plain data, equal and hashed by value.
#[pyclass(frozen, eq, hash, module = "toolnexus", name = "Challenge")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PyChallenge(Challenge);

impl Hash for PyChallenge {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let c = &self.0;
        (
            c.status,
            &c.scheme,
            &c.resource_metadata,
            &c.scope,
            &c.error,
        )
            .hash(state);
    }
}

#[pymethods]
impl PyChallenge {
    /// The response's status code.
    #[getter]
    fn status(&self) -> u16 {
        self.0.status
    }

    /// The scheme of the challenge read, as the server spelt it (`"Bearer"`); `""` when there
    /// was no readable challenge.
    #[getter]
    fn scheme(&self) -> &str {
        &self.0.scheme
    }

    /// `resource_metadata`: where the protected resource metadata is (RFC 9728 §5.1).
    #[getter]
    fn resource_metadata(&self) -> Option<&str> {
        self.0.resource_metadata.as_deref()
    }

    /// `scope`: the scopes the request needs, space-separated.
    #[getter]
    fn scope(&self) -> Option<&str> {
        self.0.scope.as_deref()
    }

    /// `error`: `"invalid_token"`, `"insufficient_scope"`, …
    #[getter]
    fn error(&self) -> Option<&str> {
        self.0.error.as_deref()
    }

    /// Whether this is a step-up challenge: a 403 with `error="insufficient_scope"`.
    #[getter]
    fn is_insufficient_scope(&self) -> bool {
        self.0.is_insufficient_scope()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("Challenge")
            .field("status", self.0.status, py)?
            .field("scheme", &self.0.scheme, py)?
            .field("resource_metadata", &self.0.resource_metadata, py)?
            .field("scope", &self.0.scope, py)?
            .field("error", &self.0.error, py)?
            .finish())
    }
}

/// Reads the challenge of a response of status `status` whose `WWW-Authenticate` header is
/// `www_authenticate` (its values joined with `", "` when there were several; `None` when it
/// had none). Nothing here fails: what cannot be read is left out.
#[pyfunction]
#[pyo3(signature = (status, www_authenticate))]
pub(crate) fn parse_challenge(status: u16, www_authenticate: Option<&str>) -> PyChallenge {
    PyChallenge(toolnexus_auth::parse_challenge(status, www_authenticate))
}

/// What a host configures for its authorizations: the client's identity (a pre-registered
/// `client_id` and secret, only at `client_issuer` when given; a client metadata document URL;
/// else dynamic registration as `client_name`), where the browser returns (`redirect_uri`),
/// the bounds on every document read (`limits`; default 256 KiB, 16 levels deep) and the
/// most authorizations one step-up chain may take (`max_authorizations`) and when token
/// requests are proved with DPoP (`dpop`: `"when-offered"`, `"always"`, `"never"`).
///
/// `grant` says how the token is obtained: `"authorization_code"` (a person signs in, the
/// default) or, unattended, `"client_credentials"` (the pre-registered client's secret, or
/// `client_key`: a P-256 private key in PEM that signs a `private_key_jwt` assertion),
/// `"jwt_bearer"` (a workload's JWT, `assertion`) or `"enterprise"` (the person's `id_token`
/// exchanged at `idp_token_endpoint`, as `idp_client_id` with `idp_client_secret`, then
/// presented by the pre-registered client); or `"device_code"`, the device authorization grant
/// (RFC 8628, beyond the MCP specification: the person signs in on another device with a code,
/// each step a `Poll`). An option of another grant, a grant missing its
/// options or an unusable key raise at once; the rest is checked when a flow starts
/// (`AuthError` of kind `invalid_config`).
#[pyclass(frozen, module = "toolnexus", name = "AuthConfig")]
pub(crate) struct PyAuthConfig(Config);

// The constructor's default is written out so that Python's signature shows it.
const _: () = assert!(Config::DEFAULT_MAX_AUTHORIZATIONS == 3);

#[pymethods]
impl PyAuthConfig {
    #[new]
    #[pyo3(signature = (
        client_name,
        redirect_uri,
        *,
        client_id = None,
        client_secret = None,
        client_issuer = None,
        client_metadata_url = None,
        limits = None,
        max_authorizations = 3,
        dpop = "when-offered",
        grant = "authorization_code",
        client_key = None,
        assertion = None,
        id_token = None,
        idp_token_endpoint = None,
        idp_client_id = None,
        idp_client_secret = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        client_name: String,
        redirect_uri: String,
        client_id: Option<String>,
        client_secret: Option<String>,
        client_issuer: Option<String>,
        client_metadata_url: Option<String>,
        limits: Option<&Bound<'_, PyLimits>>,
        max_authorizations: u32,
        dpop: &str,
        grant: &str,
        client_key: Option<&str>,
        assertion: Option<String>,
        id_token: Option<String>,
        idp_token_endpoint: Option<String>,
        idp_client_id: Option<String>,
        idp_client_secret: Option<String>,
    ) -> PyResult<PyAuthConfig> {
        let dpop = dpop_use(py, dpop)?;
        let given: Vec<AuthOption> = [
            (AuthOption::ClientId, client_id.is_some()),
            (AuthOption::ClientSecret, client_secret.is_some()),
            (AuthOption::ClientIssuer, client_issuer.is_some()),
            (AuthOption::ClientMetadataUrl, client_metadata_url.is_some()),
            (AuthOption::ClientKey, client_key.is_some()),
            // An empty text counts as not given, as the flow counts it.
            (
                AuthOption::Assertion,
                assertion.as_ref().is_some_and(|a| !a.is_empty()),
            ),
            (
                AuthOption::IdToken,
                id_token.as_ref().is_some_and(|t| !t.is_empty()),
            ),
            (
                AuthOption::IdpTokenEndpoint,
                idp_token_endpoint.as_ref().is_some_and(|e| !e.is_empty()),
            ),
            (AuthOption::IdpClientId, idp_client_id.is_some()),
            (AuthOption::IdpClientSecret, idp_client_secret.is_some()),
        ]
        .into_iter()
        .filter_map(|(option, set)| set.then_some(option))
        .collect();
        let grant = grant_type(
            py,
            grant,
            &given,
            assertion,
            Enterprise {
                token_endpoint: idp_token_endpoint.unwrap_or_default(),
                client_id: idp_client_id,
                client_secret: idp_client_secret.map(Into::into),
                id_token: id_token.unwrap_or_default().into(),
            },
        )?;
        let client_key = client_key
            .map(ClientKey::from_pem)
            .transpose()
            .or_raise(py)?;
        let mut config = Config::new(client_name, redirect_uri);
        config.client_id = client_id;
        config.client_secret = client_secret.map(Into::into);
        config.client_issuer = client_issuer;
        config.client_metadata_url = client_metadata_url;
        config.limits = limits.map_or(Config::DEFAULT_LIMITS, |l| l.get().0);
        config.max_authorizations = max_authorizations;
        config.dpop = dpop;
        config.grant = grant;
        config.client_key = client_key;
        Ok(PyAuthConfig(config))
    }

    /// The `client_name` of a dynamic registration.
    #[getter]
    fn client_name(&self) -> &str {
        &self.0.client_name
    }

    /// Where the browser returns, with the authorization response in its query.
    #[getter]
    fn redirect_uri(&self) -> &str {
        &self.0.redirect_uri
    }

    /// The pre-registered `client_id`, if any.
    #[getter]
    fn client_id(&self) -> Option<&str> {
        self.0.client_id.as_deref()
    }

    /// Whether a client secret is configured (the secret itself is not shown again).
    #[getter]
    fn has_client_secret(&self) -> bool {
        self.0.client_secret.is_some()
    }

    /// The issuer the pre-registered client belongs to; `None`: any.
    #[getter]
    fn client_issuer(&self) -> Option<&str> {
        self.0.client_issuer.as_deref()
    }

    /// The URL of this client's Client ID Metadata Document, if any.
    #[getter]
    fn client_metadata_url(&self) -> Option<&str> {
        self.0.client_metadata_url.as_deref()
    }

    /// The bounds on every document read.
    #[getter]
    fn limits(&self) -> PyLimits {
        PyLimits(self.0.limits)
    }

    /// The most authorizations one step-up chain may take, the first included.
    #[getter]
    fn max_authorizations(&self) -> u32 {
        self.0.max_authorizations
    }

    /// When token requests are proved with DPoP: `"when-offered"` (the authorization server
    /// lists `ES256` in `dpop_signing_alg_values_supported`), `"always"` or `"never"`.
    #[getter]
    fn dpop(&self) -> &'static str {
        dpop_name(self.0.dpop)
    }

    /// How the token is obtained: `"authorization_code"`, `"client_credentials"`,
    /// `"jwt_bearer"`, `"enterprise"` or `"device_code"`, the names `Grant.obtained_by` gives.
    #[getter]
    fn grant(&self) -> &'static str {
        self.0.grant.name()
    }

    /// Whether a client key is configured for `private_key_jwt` (the key is not shown).
    #[getter]
    fn has_client_key(&self) -> bool {
        self.0.client_key.is_some()
    }

    /// Why the kept `grant` may not serve requests to the MCP server at `resource_url` with
    /// this configuration, or `None` when it may: obtained by the grant asked for, for a grant
    /// for machines by the same client, from the authorization server `client_issuer` binds,
    /// for a resource that covers the server. The crate's one rule, as the command line uses
    /// it.
    fn reuses(&self, grant: &Bound<'_, PyGrant>, resource_url: &str) -> Option<String> {
        self.0
            .reuses(&grant.get().0, resource_url)
            .err()
            .map(|why| why.message(|kind| format!("grant=\"{kind}\"")))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr = Repr::new("AuthConfig")
            .field("client_name", &self.0.client_name, py)?
            .field("redirect_uri", &self.0.redirect_uri, py)?;
        if let Some(id) = &self.0.client_id {
            repr = repr.field("client_id", id, py)?;
        }
        if self.0.client_secret.is_some() {
            repr = repr.field("client_secret", "…", py)?;
        }
        if let Some(issuer) = &self.0.client_issuer {
            repr = repr.field("client_issuer", issuer, py)?;
        }
        if let Some(url) = &self.0.client_metadata_url {
            repr = repr.field("client_metadata_url", url, py)?;
        }
        Ok(repr
            .field("max_authorizations", self.0.max_authorizations, py)?
            .field("dpop", dpop_name(self.0.dpop), py)?
            .field("grant", self.0.grant.name(), py)?
            .finish())
    }
}

/// What a flow has got: the token to send (`authorization` is the whole header value), when
/// it expires, and what a refresh needs. A DPoP-bound token (`is_dpop`) also needs a fresh
/// `proof` in the `DPoP` header of each request. `to_json` writes it down to store (as a
/// secret: it holds the tokens, any DPoP key and any client secret); `Grant.from_json` reads it
/// back. Its `repr` shows no token.
#[pyclass(frozen, eq, module = "toolnexus", name = "Grant")]
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct PyGrant(Grant);

#[pymethods]
impl PyGrant {
    /// The access token.
    #[getter]
    fn access_token(&self) -> &str {
        self.0.access_token()
    }

    /// The token type, as the server spelt it (`"Bearer"`, `"DPoP"`).
    #[getter]
    fn token_type(&self) -> &str {
        self.0.token_type()
    }

    /// The `Authorization` header value to send: `"Bearer <token>"`, or `"DPoP <token>"` for
    /// a DPoP-bound token.
    #[getter]
    fn authorization(&self) -> String {
        self.0.authorization()
    }

    /// Whether the token is bound to a DPoP key: each request that carries it needs a
    /// `DPoP` header made by `proof`.
    #[getter]
    fn is_dpop(&self) -> bool {
        self.0.is_dpop()
    }

    /// The `DPoP` header value for a `method` request to `url` that carries the token, made
    /// at `now_ms` (default: now), with `nonce` when the server asked for one (its
    /// `DPoP-Nonce` header): `None` for a Bearer token. `jti` is 16 to 64 random bytes, used
    /// once (default: `os.urandom(32)`). Raises `AuthError` (`invalid_dpop`): a method that is
    /// not in capitals, a URL that is not absolute, a `jti` of another length, a nonce that is
    /// empty, longer than 512 bytes or holds characters a nonce may not.
    #[pyo3(signature = (method, url, *, now_ms = None, nonce = None, jti = None))]
    fn proof(
        &self,
        py: Python<'_>,
        method: &str,
        url: &str,
        now_ms: Option<u64>,
        nonce: Option<&str>,
        jti: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<String>> {
        let jti = jti.map(|value| bytes_arg(value, "jti")).transpose()?;
        if !self.0.is_dpop() {
            return Ok(None);
        }
        let jti = match jti {
            Some(jti) => jti,
            None => urandom(py, JTI_BYTES)?,
        };
        let now_ms = now_or_clock(py, now_ms)?;
        self.0.proof(method, url, now_ms, &jti, nonce).or_raise(py)
    }

    /// The refresh token, if the server issued one.
    #[getter]
    fn refresh_token(&self) -> Option<&str> {
        self.0.refresh_token()
    }

    /// Whether the grant holds a refresh token (`AuthFlow.refresh` needs one).
    #[getter]
    fn has_refresh_token(&self) -> bool {
        self.0.refresh_token().is_some()
    }

    /// When the access token expires, in milliseconds since 1970, if the server said.
    #[getter]
    fn expires_at_ms(&self) -> Option<u64> {
        self.0.expires_at_ms()
    }

    /// The scopes granted, space-separated, if known.
    #[getter]
    fn scope(&self) -> Option<&str> {
        self.0.scope()
    }

    /// The issuer of the authorization server that issued it.
    #[getter]
    fn issuer(&self) -> &str {
        self.0.issuer()
    }

    /// The resource the token is for (`None` for a 2025-03-26 server).
    #[getter]
    fn resource(&self) -> Option<&str> {
        self.0.resource()
    }

    /// The token endpoint a refresh goes to.
    #[getter]
    fn token_endpoint(&self) -> &str {
        self.0.token_endpoint()
    }

    /// The `client_id` the grant was issued to.
    #[getter]
    fn client_id(&self) -> &str {
        self.0.client().client_id()
    }

    /// How the token was obtained: `"authorization_code"` (a person signed in),
    /// `"client_credentials"`, `"jwt_bearer"`, `"enterprise"` or `"device_code"`; a refresh
    /// keeps it. Reuse a
    /// kept grant only for the same kind of grant, so that a job running as a machine never
    /// acts with a person's token.
    #[getter]
    fn obtained_by(&self) -> &str {
        self.0.obtained_by()
    }

    /// How many authorizations its step-up chain took (1 for a grant read back).
    #[getter]
    fn authorizations(&self) -> u32 {
        self.0.authorizations()
    }

    /// Whether the access token has expired at `now_ms` (default: now).
    #[pyo3(signature = (now_ms = None))]
    fn is_expired(&self, py: Python<'_>, now_ms: Option<u64>) -> PyResult<bool> {
        Ok(self.0.is_expired(now_or_clock(py, now_ms)?))
    }

    /// The grant as compact JSON, to store as a secret.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// Reads a grant `to_json` wrote (`str` or `bytes`), within `limits` (default: 256 KiB,
    /// 16 levels deep). Raises `AuthError`: `invalid_json`, `too_large`, `too_deep`, or
    /// `invalid_grant` at the member at fault.
    #[staticmethod]
    #[pyo3(signature = (text, *, limits = None))]
    fn from_json(
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyGrant> {
        let bytes = text_bytes(text, "text")?;
        let limits = limits.map_or(Config::DEFAULT_LIMITS, |l| l.get().0);
        Grant::from_json(&bytes, &limits).map(PyGrant).or_raise(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("Grant")
            .field("token_type", self.0.token_type(), py)?
            .field("issuer", self.0.issuer(), py)?
            .field("resource", self.0.resource(), py)?
            .field("scope", self.0.scope(), py)?
            .field("expires_at_ms", self.0.expires_at_ms(), py)?
            .field("has_refresh_token", self.0.refresh_token().is_some(), py)?
            .finish())
    }
}

/// The flow asks for an HTTP request: send it **without following redirects** and hand the
/// response to `AuthFlow.on_response`. Header names are lowercase. The body may hold a code,
/// a verifier, a refresh token or a client secret, the `authorization` header a client's
/// credentials and the `dpop` header a proof: the `repr` shows none of them.
#[pyclass(frozen, eq, module = "toolnexus", name = "Fetch")]
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct PyFetch(HttpRequest);

#[pymethods]
impl PyFetch {
    /// `"GET"` or `"POST"`.
    #[getter]
    fn method(&self) -> &'static str {
        self.0.method.as_str()
    }

    /// The absolute URL to send it to.
    #[getter]
    fn url(&self) -> &str {
        &self.0.url
    }

    /// Header names (lowercase) and values, in order (a new list on each access).
    #[getter]
    fn headers(&self) -> Vec<(String, String)> {
        self.0.headers.clone()
    }

    /// The body: empty for `GET`, JSON or a form for `POST` (as `content-type` says).
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.0.body)
    }

    /// The value of the header `name` (lowercase), if it is set.
    fn header(&self, name: &str) -> Option<&str> {
        self.0.header(name)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let headers: Vec<(&str, &str)> = self
            .0
            .headers
            .iter()
            .map(|(n, v)| {
                let shown = if n == "authorization" || n == "dpop" {
                    "…"
                } else {
                    v.as_str()
                };
                (n.as_str(), shown)
            })
            .collect();
        Ok(Repr::new("Fetch")
            .field("method", self.0.method.as_str(), py)?
            .field("url", &self.0.url, py)?
            .field("headers", headers, py)?
            .field("body_bytes", self.0.body.len(), py)?
            .finish())
    }
}

/// The flow asks a person to authorize: have them open `url` (or `GET` it without following
/// the redirect), then hand the query of the request the browser makes to `redirect_uri` to
/// `AuthFlow.on_redirect`.
#[pyclass(frozen, eq, module = "toolnexus", name = "Authorize")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyAuthorize {
    authorization: Authorization,
    /// The consent to ask before the link is opened.
    consent: Request,
}

#[pymethods]
impl PyAuthorize {
    /// The authorization endpoint with the request's query.
    #[getter]
    fn url(&self) -> &str {
        &self.authorization.url
    }

    /// The `state` the redirect must carry back.
    #[getter]
    fn state(&self) -> &str {
        &self.authorization.state
    }

    /// Where the browser returns, with the response in its query.
    #[getter]
    fn redirect_uri(&self) -> &str {
        &self.authorization.redirect_uri
    }

    /// The person's consent to opening the link, as the contract asks any question: a
    /// `Request` of `kind` `"authorization"` whose `url` is the link. Ask it as any URL
    /// request (its `url_review` included) and open the link only on an accept.
    #[getter]
    fn request(&self) -> PyRequest {
        PyRequest::new(self.consent.clone())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("Authorize")
            .field("url", &self.authorization.url, py)?
            .field("redirect_uri", &self.authorization.redirect_uri, py)?
            .finish())
    }
}

/// What the person is shown in the device grant (RFC 8628, beyond the MCP specification):
/// where to sign in, on any device, and the code to enter there. All of it is the
/// authorization server's text: show it as untrusted text, and review the link (`request`'s
/// `url_review`) as any link.
#[pyclass(frozen, eq, module = "toolnexus", name = "DeviceCode")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyDeviceCode {
    code: DeviceCode,
    /// The consent asked of the person, with the link.
    consent: Request,
}

#[pymethods]
impl PyDeviceCode {
    /// The code to enter at `verification_uri`.
    #[getter]
    fn user_code(&self) -> &str {
        &self.code.user_code
    }

    /// Where to sign in (`https`, or `http` on loopback).
    #[getter]
    fn verification_uri(&self) -> &str {
        &self.code.verification_uri
    }

    /// The verification URI with the code in it, when the server gives one.
    #[getter]
    fn verification_uri_complete(&self) -> Option<&str> {
        self.code.verification_uri_complete.as_deref()
    }

    /// The link to show: `verification_uri_complete` when there is one, else
    /// `verification_uri`.
    #[getter]
    fn link(&self) -> &str {
        self.code.link()
    }

    /// When the code expires, in milliseconds since 1970: the flow stops then.
    #[getter]
    fn expires_at_ms(&self) -> u64 {
        self.code.expires_at_ms
    }

    /// The person's consent, as the contract asks any question: a `Request` of `kind`
    /// `"authorization"` whose `url` is `link` and whose prompt names the code. Ask it as any
    /// URL request (its `url_review` included).
    #[getter]
    fn request(&self) -> PyRequest {
        PyRequest::new(self.consent.clone())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("DeviceCode")
            .field("user_code", &self.code.user_code, py)?
            .field("link", self.code.link(), py)?
            .field("expires_at_ms", self.code.expires_at_ms, py)?
            .finish())
    }
}

/// The device grant waits for the person: show `code` on the first poll (`attempt == 1`),
/// send `request` (a `Fetch`) at `at_ms` or later, and hand its response to
/// `AuthFlow.on_response`. The flow never sleeps: the host does.
#[pyclass(frozen, get_all, module = "toolnexus", name = "Poll")]
pub(crate) struct PyPoll {
    /// What the person is shown: the same on every poll of one flow.
    code: Py<PyDeviceCode>,
    /// When to send the request, in milliseconds since 1970.
    at_ms: u64,
    /// Which poll this is, from 1.
    attempt: u32,
    /// The token request.
    request: Py<PyFetch>,
}

#[pymethods]
impl PyPoll {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("Poll")
            .field("at_ms", self.at_ms, py)?
            .field("attempt", self.attempt, py)?
            .field("code", &self.code, py)?
            .field("request", &self.request, py)?
            .finish())
    }
}

/// The flow is over: use `grant` (send `grant.authorization`) and store it.
#[pyclass(frozen, get_all, module = "toolnexus", name = "Done")]
pub(crate) struct PyDone {
    /// What the flow got.
    grant: Py<PyGrant>,
}

#[pymethods]
impl PyDone {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("Done").field("grant", &self.grant, py)?.finish())
    }
}

/// What the caller does next, as the Python object of its kind; an authorization comes with
/// the consent `client_name` asks before opening the link for `server`.
fn next_object<'py>(
    py: Python<'py>,
    next: Next,
    client_name: &str,
    server: &str,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(match next {
        Next::Fetch(request) => Bound::new(py, PyFetch(request))?.into_any(),
        Next::Authorize(authorization) => {
            let consent = authorization
                .consent_request(id::next_id(), client_name, server)
                .or_raise(py)?;
            Bound::new(
                py,
                PyAuthorize {
                    authorization,
                    consent,
                },
            )?
            .into_any()
        }
        Next::Poll(Poll {
            code,
            at_ms,
            attempt,
            request,
        }) => {
            let consent = code
                .consent_request(id::next_id(), client_name, server)
                .or_raise(py)?;
            let code = Py::new(py, PyDeviceCode { code, consent })?;
            let request = Py::new(py, PyFetch(request))?;
            Bound::new(
                py,
                PyPoll {
                    code,
                    at_ms,
                    attempt,
                    request,
                },
            )?
            .into_any()
        }
        Next::Done(grant) => {
            let grant = Py::new(py, PyGrant(grant))?;
            Bound::new(py, PyDone { grant })?.into_any()
        }
    })
}

/// One authorization of one MCP server, from its challenge to a `Grant`, driven by the
/// host's HTTP client: begin with `AuthFlow.start` (or `AuthFlow.refresh`), then answer each
/// `Fetch` with `on_response`, each `Authorize` with `on_redirect` and each `Poll` (the device
/// grant) with `on_response` to its `request`, sent at its `at_ms`, until `Done`. After an
/// `AuthError` the flow is over; every later call raises `out_of_order`. Safe to share between
/// threads, as a `Session` is.
#[pyclass(frozen, module = "toolnexus", name = "AuthFlow")]
pub(crate) struct PyAuthFlow {
    inner: Shared<Flow>,
    /// The client's name and the server, for the consent to a sign-in.
    client_name: String,
    server: String,
}

impl PyAuthFlow {
    /// The flow for `server` under `config` and its first step, as a `(AuthFlow, Next)` tuple.
    fn begun<'py>(
        py: Python<'py>,
        (flow, next): (Flow, Next),
        config: &Config,
        server: &str,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let flow = PyAuthFlow {
            inner: Shared::new(flow),
            client_name: config.client_name.clone(),
            server: server.to_owned(),
        };
        let next = flow.step(py, next)?;
        PyTuple::new(py, [Bound::new(py, flow)?.into_any(), next])
    }

    fn step<'py>(&self, py: Python<'py>, next: Next) -> PyResult<Bound<'py, PyAny>> {
        next_object(py, next, &self.client_name, &self.server)
    }
}

#[pymethods]
impl PyAuthFlow {
    /// Begins authorizing the MCP server at `resource_url`, which answered with `challenge`
    /// (a 401, or a 403 with `insufficient_scope`): the flow and the first `Fetch`.
    ///
    /// `previous` is the grant stored for this server, if any (a step-up keeps its scopes and
    /// counts its chain; its client is reused at the same issuer only). `entropy` is 64 random
    /// bytes (default: `os.urandom(64)`). Raises `AuthError` (`invalid_config`,
    /// `not_challenged`, `too_many_authorizations`, `invalid_challenge`, `insecure_endpoint`)
    /// and `InvalidValueError` for entropy that is not 64 bytes.
    #[staticmethod]
    #[pyo3(signature = (resource_url, challenge, config, *, previous = None, entropy = None))]
    fn start<'py>(
        py: Python<'py>,
        resource_url: &str,
        challenge: &Bound<'py, PyChallenge>,
        config: &Bound<'py, PyAuthConfig>,
        previous: Option<&Bound<'py, PyGrant>>,
        entropy: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let entropy = read_entropy::<ENTROPY_BYTES>(py, entropy)?;
        let config = &config.get().0;
        let previous = previous.map(|g| &g.get().0);
        let begun = Flow::start(
            resource_url,
            &challenge.get().0,
            config.clone(),
            previous,
            entropy,
        )
        .or_raise(py)?;
        PyAuthFlow::begun(py, begun, config, resource_url)
    }

    /// Begins refreshing `grant` for the MCP server at `resource_url`: the flow and the token
    /// request to send. A DPoP-bound grant proves the request with its key, at `now_ms`
    /// (default: now), the proofs' `jti` made from `entropy` (32 random bytes; default:
    /// `os.urandom(32)`). Raises `AuthError` (`no_refresh_token`, `resource_mismatch`,
    /// `invalid_grant`, `insecure_endpoint`, `invalid_dpop`) and `InvalidValueError` for
    /// entropy that is not 32 bytes.
    #[staticmethod]
    #[pyo3(signature = (resource_url, grant, config, *, now_ms = None, entropy = None))]
    fn refresh<'py>(
        py: Python<'py>,
        resource_url: &str,
        grant: &Bound<'py, PyGrant>,
        config: &Bound<'py, PyAuthConfig>,
        now_ms: Option<u64>,
        entropy: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let entropy = read_entropy::<REFRESH_ENTROPY_BYTES>(py, entropy)?;
        let now_ms = now_or_clock(py, now_ms)?;
        let config = &config.get().0;
        let begun = Flow::refresh_at(
            resource_url,
            &grant.get().0,
            config.clone(),
            now_ms,
            entropy,
        )
        .or_raise(py)?;
        PyAuthFlow::begun(py, begun, config, resource_url)
    }

    /// Begins refreshing `grant` without the time and random bytes, as `refresh` does
    /// otherwise: for a `Bearer` grant whose client signs nothing. A DPoP-bound grant
    /// (`invalid_dpop`) and a `private_key_jwt` client (`invalid_config`) need both: refresh
    /// those with `refresh`.
    #[staticmethod]
    fn refresh_untimed<'py>(
        py: Python<'py>,
        resource_url: &str,
        grant: &Bound<'py, PyGrant>,
        config: &Bound<'py, PyAuthConfig>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let config = &config.get().0;
        let begun = Flow::refresh(resource_url, &grant.get().0, config.clone()).or_raise(py)?;
        PyAuthFlow::begun(py, begun, config, resource_url)
    }

    /// Reads the response to the last `Fetch` (its status, its headers as a mapping or as
    /// `(name, value)` pairs, names in any case, its body as `bytes`), received at `now_ms`
    /// (default: now): the next step. Raises `AuthError` for a response the flow refuses.
    #[pyo3(signature = (status, headers, body, *, now_ms = None))]
    fn on_response<'py>(
        &self,
        py: Python<'py>,
        status: u16,
        headers: &Bound<'py, PyAny>,
        body: &Bound<'py, PyAny>,
        now_ms: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let headers = read_headers(headers)?;
        let body = body_bytes(body)?;
        let now_ms = now_or_clock(py, now_ms)?;
        let response = HttpResponse {
            status,
            headers: &headers,
            body: &body,
        };
        let next = self
            .inner
            .with(py, |flow| flow.on_response(response, now_ms))
            .or_raise(py)?;
        self.step(py, next)
    }

    /// Reads the redirect: `query` is the query string of the request the browser made to
    /// the redirect URI (with or without its `?`), received at `now_ms` (default: now), the
    /// time a DPoP proof of the token request carries. The next step: the token request.
    /// Raises `AuthError`: `invalid_redirect`, `state_mismatch`, `iss_mismatch`,
    /// `iss_missing`, `authorization_denied`.
    #[pyo3(signature = (query, *, now_ms = None))]
    fn on_redirect<'py>(
        &self,
        py: Python<'py>,
        query: &str,
        now_ms: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let now_ms = now_or_clock(py, now_ms)?;
        let next = self
            .inner
            .with(py, |flow| flow.on_redirect_at(query, now_ms))
            .or_raise(py)?;
        self.step(py, next)
    }

    /// The authorization server's issuer, once known.
    #[getter]
    fn issuer(&self, py: Python<'_>) -> Option<String> {
        self.inner.with(py, |flow| flow.issuer().map(str::to_owned))
    }

    /// The resource the token is asked for, once known.
    #[getter]
    fn resource(&self, py: Python<'_>) -> Option<String> {
        self.inner
            .with(py, |flow| flow.resource().map(str::to_owned))
    }

    /// The `client_id` in use, once chosen.
    #[getter]
    fn client_id(&self, py: Python<'_>) -> Option<String> {
        self.inner
            .with(py, |flow| flow.client().map(|c| c.client_id().to_owned()))
    }

    /// The scopes requested, once chosen.
    #[getter]
    fn scope(&self, py: Python<'_>) -> Option<String> {
        self.inner.with(py, |flow| flow.scope().map(str::to_owned))
    }

    /// The authorizations in this step-up chain, this one included.
    #[getter]
    fn authorizations(&self, py: Python<'_>) -> u32 {
        self.inner.with(py, |flow| flow.authorizations())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let (issuer, authorizations) = self.inner.with(py, |flow| {
            (flow.issuer().map(str::to_owned), flow.authorizations())
        });
        Ok(Repr::new("AuthFlow")
            .field("issuer", issuer, py)?
            .field("authorizations", authorizations, py)?
            .finish())
    }
}

/// The `entropy` argument as `N` bytes, or `N` bytes of `os.urandom`.
fn read_entropy<const N: usize>(
    py: Python<'_>,
    entropy: Option<&Bound<'_, PyAny>>,
) -> PyResult<[u8; N]> {
    let bytes = match entropy {
        Some(value) => bytes_arg(value, "entropy")?,
        None => urandom(py, N)?,
    };
    <[u8; N]>::try_from(bytes.as_slice()).map_err(|_| {
        let message = format!("entropy must be {N} random bytes, not {}", bytes.len());
        to_py_err(py, &Error::new(ErrorKind::InvalidValue, "", message))
    })
}

/// `count` bytes of the interpreter's `os.urandom`.
fn urandom(py: Python<'_>, count: usize) -> PyResult<Vec<u8>> {
    Ok(py
        .import("os")?
        .getattr("urandom")?
        .call1((count,))?
        .cast_into::<PyBytes>()?
        .as_bytes()
        .to_vec())
}

/// The argument `what` as `bytes` or `bytearray` (copied); a `TypeError` for anything else.
fn bytes_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    body_bytes(value).map_err(|_| {
        let type_name = value
            .get_type()
            .name()
            .map_or_else(|_| "?".to_owned(), |n| n.to_string());
        PyTypeError::new_err(format!("{what} must be bytes, not {type_name}"))
    })
}

/// The DPoP use named `name`: `"when-offered"`, `"always"` or `"never"`.
fn dpop_use(py: Python<'_>, name: &str) -> PyResult<DpopUse> {
    let from_name = |name: &str| match name {
        "when-offered" => Some(DpopUse::WhenOffered),
        "always" => Some(DpopUse::Always),
        "never" => Some(DpopUse::Never),
        _ => None,
    };
    named(
        py,
        name,
        from_name,
        "a DPoP use (\"when-offered\", \"always\" or \"never\")",
    )
}

/// The grant named `name` (one of the crate's grant names, as `Grant.obtained_by` gives
/// them) with its options, once the flow's rule ([`check_options`]) holds for the keywords
/// `given`: an option of another grant, a grant without the options it needs, an option
/// without the one it needs, or a confidential one without `client_issuer` raises `AuthError`
/// (`invalid_config` at the option's pointer, as the flow itself would), worded with the
/// keywords.
fn grant_type(
    py: Python<'_>,
    name: &str,
    given: &[AuthOption],
    assertion: Option<String>,
    enterprise: Enterprise,
) -> PyResult<GrantType> {
    let kind = named(
        py,
        name,
        GrantKind::from_name,
        "a grant (\"authorization_code\", \"client_credentials\", \"jwt_bearer\", \
         \"enterprise\" or \"device_code\")",
    )?;
    check_options(kind, given).map_err(|problem| {
        let message = problem.message(
            |option| String::from(option.as_str()),
            |grant| format!("grant=\"{grant}\""),
        );
        let error = AuthError::new(
            AuthErrorKind::InvalidConfig,
            problem.option().pointer(),
            message,
        );
        crate::errors::auth_py_err(py, &error)
    })?;
    Ok(match kind {
        GrantKind::AuthorizationCode => GrantType::AuthorizationCode,
        GrantKind::ClientCredentials => GrantType::ClientCredentials,
        GrantKind::JwtBearer => GrantType::JwtBearer {
            assertion: assertion.unwrap_or_default().into(),
        },
        GrantKind::Enterprise => GrantType::Enterprise(enterprise),
        GrantKind::DeviceCode => GrantType::DeviceCode,
    })
}

/// The name of `dpop`, as `dpop_use` reads it.
fn dpop_name(dpop: DpopUse) -> &'static str {
    match dpop {
        DpopUse::WhenOffered => "when-offered",
        DpopUse::Always => "always",
        DpopUse::Never => "never",
    }
}

/// A response body: `bytes` or `bytearray` (copied, as it can change).
fn body_bytes(body: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = body.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(bytes) = body.cast::<PyByteArray>() {
        return Ok(bytes.to_vec());
    }
    Err(PyTypeError::new_err(format!(
        "body must be bytes, not {}",
        body.get_type().name()?
    )))
}

/// Stored grant text: `str` (its UTF-8), `bytes` or `bytearray`.
fn text_bytes(text: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(text) = text.cast::<PyString>() {
        return Ok(str_of(text.as_any(), what)
            .or_raise(text.py())?
            .as_bytes()
            .to_vec());
    }
    body_bytes(text).map_err(|_| match text.get_type().name() {
        Ok(name) => PyTypeError::new_err(format!("{what} must be str or bytes, not {name}")),
        Err(error) => error,
    })
}

/// Response headers: a mapping (its `items()`) or an iterable of `(str, str)` pairs; names
/// lowercased.
fn read_headers(headers: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let py = headers.py();
    let not_headers = || -> PyResult<PyErr> {
        Ok(PyTypeError::new_err(format!(
            "headers must be a mapping of str to str or an iterable of (str, str) pairs, not {}",
            headers.get_type().name()?
        )))
    };
    if headers.is_instance_of::<PyString>()
        || headers.is_instance_of::<PyBytes>()
        || headers.is_instance_of::<PyByteArray>()
    {
        return Err(not_headers()?);
    }
    let items = match headers.cast::<PyMapping>() {
        Ok(mapping) => mapping.items()?.into_any(),
        Err(_) => headers.clone(),
    };
    let Ok(iterator) = items.try_iter() else {
        return Err(not_headers()?);
    };
    let mut read = Vec::new();
    for item in iterator {
        let item = item?;
        let pair = match item.cast::<PyTuple>() {
            Ok(pair) if pair.len() == 2 => pair,
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "each header must be a (str, str) pair, not {}",
                    item.get_type().name()?
                )));
            }
        };
        let name = pair.get_item(0)?;
        let value = pair.get_item(1)?;
        let name = str_of(&name, "a header name").or_raise(py)?;
        let value = str_of(&value, "a header value").or_raise(py)?;
        read.push((name.to_ascii_lowercase(), value.to_owned()));
    }
    Ok(read)
}

/// `now_ms`, or the interpreter's `time.time()` in whole milliseconds.
fn now_or_clock(py: Python<'_>, now_ms: Option<u64>) -> PyResult<u64> {
    if let Some(now) = now_ms {
        return Ok(now);
    }
    let seconds = py.import("time")?.getattr("time")?.call0()?;
    let millis = seconds.mul(1000)?;
    py.get_type::<PyInt>().call1((millis,))?.extract()
}

/// What to do when an MCP server refuses a request: the policy the command line follows,
/// for a host that moves the bytes. Give it each refusal (`decide`); it says what comes next
/// as an `AuthDecision` (`"resend"`, `"retry_with_nonce"`, `"refresh"`, `"authorize"`,
/// `"step_up"`), or raises `AuthError` (`too_many_authorizations`, `not_challenged`) when the
/// host should give up. Every flow it asks for counts under `max_authorizations`. Safe to share
/// between threads.
#[pyclass(frozen, module = "toolnexus", name = "AuthPolicy")]
pub(crate) struct PyAuthPolicy {
    inner: Shared<Policy>,
}

/// What a host does next about a refused request: `action`, with the `challenge` a flow is
/// started with (`"authorize"`, `"step_up"`) or the `nonce` a fresh DPoP proof carries
/// (`"retry_with_nonce"`).
#[pyclass(frozen, get_all, module = "toolnexus", name = "AuthDecision")]
pub(crate) struct PyAuthDecision {
    action: &'static str,
    challenge: Option<Py<PyChallenge>>,
    nonce: Option<String>,
}

#[pymethods]
impl PyAuthDecision {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Repr::new("AuthDecision")
            .field("action", self.action, py)?
            .field("nonce", &self.nonce, py)
            .map(Repr::finish)
    }
}

#[pymethods]
impl PyAuthPolicy {
    #[new]
    #[pyo3(signature = (max_authorizations = 3))]
    fn new(max_authorizations: u32) -> PyAuthPolicy {
        PyAuthPolicy {
            inner: Shared::new(Policy::new(max_authorizations)),
        }
    }

    /// Decides about a request refused with `status`, `www_authenticate` (its values joined
    /// with `", "`) and `dpop_nonce` (the `DPoP-Nonce` header), which was sent with the
    /// `Authorization` header `sent` (`None` without one), while the host holds `held` at
    /// `now_ms` (default: now). `retried_with_nonce`: the request was sent again with the
    /// server's nonce already.
    #[pyo3(signature = (status, www_authenticate = None, *, dpop_nonce = None, sent = None, held = None, now_ms = None, retried_with_nonce = false))]
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &self,
        py: Python<'_>,
        status: u16,
        www_authenticate: Option<&str>,
        dpop_nonce: Option<&str>,
        sent: Option<&str>,
        held: Option<&Bound<'_, PyGrant>>,
        now_ms: Option<u64>,
        retried_with_nonce: bool,
    ) -> PyResult<PyAuthDecision> {
        let now_ms = now_or_clock(py, now_ms)?;
        let refusal = Refusal::read(status, www_authenticate, dpop_nonce);
        let held = held.map(|g| g.get().0.clone());
        let decision = self.inner.with(py, |policy| {
            policy.decide_request(&refusal, sent, held.as_ref(), now_ms, retried_with_nonce)
        });
        let with = |action, challenge: Option<Challenge>, nonce| -> PyResult<PyAuthDecision> {
            let challenge = challenge.map(|c| Py::new(py, PyChallenge(c))).transpose()?;
            Ok(PyAuthDecision {
                action,
                challenge,
                nonce,
            })
        };
        match decision {
            Decision::Resend => with("resend", None, None),
            Decision::RetryWithNonce(nonce) => with("retry_with_nonce", None, Some(nonce)),
            Decision::Refresh => with("refresh", None, None),
            Decision::Authorize(challenge) => with("authorize", Some(challenge), None),
            Decision::StepUp(challenge) => with("step_up", Some(challenge), None),
            Decision::GiveUp(error) => Err(crate::errors::auth_py_err(py, &error)),
        }
    }

    /// The refresh a `"refresh"` decision asked for failed: the next decision runs a flow.
    fn refresh_failed(&self, py: Python<'_>) {
        self.inner.with(py, Policy::refresh_failed);
    }

    /// A flow got a new grant, now held: it may be refreshed once in turn. Not for a grant a
    /// refresh got: a refreshed token refused before its time leads to a flow, which the cap
    /// counts, so refreshes never go on for ever.
    fn holds_new_grant(&self, py: Python<'_>) {
        self.inner.with(py, Policy::holds_new_grant);
    }

    /// How many flows the policy asked for so far.
    #[getter]
    fn authorizations(&self, py: Python<'_>) -> u32 {
        self.inner.with(py, |policy| policy.authorizations())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let count = self.inner.with(py, |policy| policy.authorizations());
        Repr::new("AuthPolicy")
            .field("authorizations", count, py)
            .map(Repr::finish)
    }
}

impl<T> OrRaise<T> for Result<T, AuthError> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|error| crate::errors::auth_py_err(py, &error))
    }
}
