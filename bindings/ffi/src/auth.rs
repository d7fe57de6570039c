//! MCP authorization (`toolnexus_auth`) for a Kotlin or Swift app that moves the bytes itself:
//! `parse_challenge`, `AuthConfig`, `start_auth_flow` / `refresh_auth_flow` and the `AuthFlow`
//! they begin, the step it asks for next (`AuthStep`: a `Fetch` to send, an authorization to
//! consent to and open, or the `Grant`), and the `AuthPolicy` that decides about a refused
//! request.
//!
//! Every decision is the auth crate's: this module converts what the app hands over (the
//! responses its HTTP client got, the random bytes of its secure generator, the redirect its
//! sign-in surface caught) and wraps what comes back. Objects that hold secrets (`AuthConfig`,
//! `Fetch`, `Grant`) are objects, not records, and their `toString` / `description` is the auth
//! crate's `Debug` form, which shows no token, code, verifier, secret, key or proof.

use std::sync::Arc;

use toolnexus_auth as auth;
use toolnexus_auth::{
    AuthErrorKind as AuthCrateErrorKind, AuthOption, Challenge as AuthChallenge, ClientKey, Config,
    Decision, DpopUse as AuthDpopUse, Enterprise, Flow, GrantKind as AuthGrantKind, GrantType,
    HttpResponse, Next, Policy, Refusal, check_options,
};
use toolnexus_core as core;

use crate::contract::Request;
use crate::error::{ErrorKind, describe};
use crate::limits::Limits;
use crate::mirror::mirror_enum;
use crate::shared::{Shared, now_or_clock};

/// How many random bytes a flow begins with (the PKCE verifier, the `state` and the DPoP key).
const ENTROPY_BYTES: usize = 64;

/// How many random bytes a refresh begins with (the `jti` of its DPoP proofs).
const REFRESH_ENTROPY_BYTES: usize = 32;

mirror_enum! {
    /// What went wrong in an authorization, one case per kind the auth crate reports.
    pub enum AuthErrorKind mirrors AuthCrateErrorKind, newer
        /// A kind newer than this binding; the message says what went wrong.
        Other => "error"
    {
        /// The configuration is incomplete or contradicts itself.
        InvalidConfig,
        /// The server's answer asks for no authorization.
        NotChallenged,
        /// The `WWW-Authenticate` challenge cannot be used.
        InvalidChallenge,
        /// An endpoint is neither HTTPS nor on a loopback address.
        InsecureEndpoint,
        /// A server answered with a redirect, which the flow never follows.
        Redirected,
        /// A server answered with a status the step does not take.
        UnexpectedStatus,
        /// No metadata document was found where the specification puts it.
        MetadataNotFound,
        /// A metadata document is malformed or breaks a rule.
        InvalidMetadata,
        /// The protected resource metadata names another resource than the server.
        ResourceMismatch,
        /// The authorization server's metadata names another issuer than it was found as.
        IssuerMismatch,
        /// The authorization server does not offer PKCE with `S256`.
        PkceNotSupported,
        /// The authorization server does not offer the grant configured.
        GrantNotSupported,
        /// No way to identify the client at this authorization server.
        NoClientIdentity,
        /// Dynamic client registration was refused or answered badly.
        RegistrationFailed,
        /// A token or registration response is malformed.
        InvalidResponse,
        /// The token type is neither `Bearer` nor `DPoP`.
        UnsupportedTokenType,
        /// The redirect's query cannot be read.
        InvalidRedirect,
        /// The redirect's `state` is not the one sent.
        StateMismatch,
        /// The redirect's `iss` is not the issuer.
        IssMismatch,
        /// The redirect has no `iss` though the server said it sends one.
        IssMissing,
        /// The person or the authorization server refused the authorization.
        AuthorizationDenied,
        /// The device grant's code expired before the person signed in.
        DeviceCodeExpired,
        /// The token endpoint refused the request.
        TokenRefused,
        /// A refresh was asked of a grant without a refresh token.
        NoRefreshToken,
        /// More authorizations than allowed.
        TooManyAuthorizations,
        /// A document is not JSON.
        InvalidJson,
        /// A document is larger than the limits allow.
        TooLarge,
        /// A document nests deeper than the limits allow.
        TooDeep,
        /// A stored grant cannot be read.
        InvalidGrant,
        /// A call came in the wrong order, or after the flow ended.
        OutOfOrder,
        /// A DPoP key, nonce or proof is refused.
        InvalidDpop,
    }
}

/// A failure of an authorization call: the auth crate's error (its kind, a JSON pointer into
/// the document at fault, a message that holds no secret), or the core's for an argument it
/// refuses (entropy of the wrong length, a consent id).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum AuthError {
    /// The flow, the policy or a grant refused.
    #[error("{}", describe(kind.core_name(), pointer, detail))]
    Failed {
        /// What went wrong.
        kind: AuthErrorKind,
        /// Where: an RFC 6901 JSON pointer into the document at fault, `""` for none.
        pointer: String,
        /// What went wrong, in words (`detail`, since Kotlin exceptions own `message`).
        detail: String,
    },
    /// An argument was refused before anything was asked of the flow.
    #[error("{}", describe(kind.core_name(), pointer, detail))]
    Invalid {
        /// What went wrong.
        kind: ErrorKind,
        /// Where: `""`, the argument as a whole.
        pointer: String,
        /// What went wrong, in words.
        detail: String,
    },
}

impl From<auth::AuthError> for AuthError {
    fn from(error: auth::AuthError) -> AuthError {
        AuthError::Failed {
            kind: AuthErrorKind::from_core(error.kind()),
            pointer: error.pointer().into(),
            detail: error.message().into(),
        }
    }
}

impl From<core::Error> for AuthError {
    fn from(error: core::Error) -> AuthError {
        AuthError::Invalid {
            kind: ErrorKind::from_core(error.kind()),
            pointer: error.pointer().into(),
            detail: error.message().into(),
        }
    }
}

/// What a resource server's 401 or 403 asked for, read from its `WWW-Authenticate` header.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Challenge {
    /// The response's status code.
    pub status: u16,
    /// The scheme of the challenge read (`"Bearer"`, `"DPoP"`); `""` when none was readable.
    pub scheme: String,
    /// `resource_metadata`: where the protected resource metadata is (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the server asks for.
    pub scope: Option<String>,
    /// `error`: `invalid_token`, `insufficient_scope`, `use_dpop_nonce`, …
    pub error: Option<String>,
}

impl Challenge {
    fn from_auth(challenge: AuthChallenge) -> Challenge {
        Challenge {
            status: challenge.status,
            scheme: challenge.scheme,
            resource_metadata: challenge.resource_metadata,
            scope: challenge.scope,
            error: challenge.error,
        }
    }

    fn to_auth(&self) -> AuthChallenge {
        AuthChallenge {
            status: self.status,
            scheme: self.scheme.clone(),
            resource_metadata: self.resource_metadata.clone(),
            scope: self.scope.clone(),
            error: self.error.clone(),
        }
    }
}

/// Reads the challenge of an answer of `status` with the `WWW-Authenticate` header
/// `www_authenticate` (its values joined with `", "` when there are several). Never fails: a
/// header that cannot be read gives the scheme `""`.
#[uniffi::export(default(www_authenticate = None))]
pub fn parse_challenge(status: u16, www_authenticate: Option<String>) -> Challenge {
    Challenge::from_auth(auth::parse_challenge(status, www_authenticate.as_deref()))
}

/// When token requests carry a DPoP proof (RFC 9449).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum DpopUse {
    /// When the authorization server lists `ES256` in `dpop_signing_alg_values_supported`.
    WhenOffered,
    /// Always: a server that does not offer it is refused.
    Always,
    /// Never.
    Never,
}

impl DpopUse {
    fn to_auth(self) -> AuthDpopUse {
        match self {
            DpopUse::WhenOffered => AuthDpopUse::WhenOffered,
            DpopUse::Always => AuthDpopUse::Always,
            DpopUse::Never => AuthDpopUse::Never,
        }
    }
}

mirror_enum! {
    /// Which grant: the one an app asks for, and the one that obtained a token.
    pub enum GrantKind mirrors AuthGrantKind, else AuthorizationCode {
        /// The authorization code grant with PKCE: a person signs in.
        AuthorizationCode,
        /// The client credentials grant.
        ClientCredentials,
        /// The JWT bearer grant with a workload's JWT.
        JwtBearer,
        /// Enterprise-managed authorization.
        Enterprise,
        /// The device authorization grant (RFC 8628, beyond the MCP specification): a person
        /// signs in on any device with a code shown by the app.
        DeviceCode,
    }
}

/// How an app authorizes: its client (pre-registered with `client_id`, a client metadata
/// document at `client_metadata_url`, or dynamic registration as `client_name`), where the
/// browser comes back (`redirect_uri`), DPoP, and the grant. Checked when made, as the flow
/// checks it: an option of another grant, a grant without the options it needs, or a
/// confidential client without `client_issuer` fails with `InvalidConfig` at its pointer.
///
/// Its `toString` / `description` shows no secret.
#[derive(Debug, uniffi::Object)]
#[uniffi::export(Debug)]
pub struct AuthConfig(Config);

#[uniffi::export]
impl AuthConfig {
    /// A configuration; everything but the client's name and the redirect URI is optional.
    ///
    /// - `client_id`, `client_secret`, `client_issuer`: a pre-registered client, at the
    ///   issuer it is registered with (a secret makes it confidential, and needs the issuer).
    /// - `client_metadata_url`: a client metadata document (its URL is the `client_id`).
    /// - `max_authorizations`: how many flows one conversation may run (default 3).
    /// - `dpop`: when token requests carry a DPoP proof (default `WhenOffered`).
    /// - `grant`: which grant (default `AuthorizationCode`); the machine grants take
    ///   `client_key_pem` (a PKCS#8 P-256 key: a JWT instead of a client secret),
    ///   `assertion` (`JwtBearer`), or `id_token`, `idp_token_endpoint`, `idp_client_id`,
    ///   `idp_client_secret` (`Enterprise`).
    #[uniffi::constructor(default(
        client_id = None,
        client_secret = None,
        client_issuer = None,
        client_metadata_url = None,
        limits = None,
        max_authorizations = 3,
        dpop = None,
        grant = None,
        client_key_pem = None,
        assertion = None,
        id_token = None,
        idp_token_endpoint = None,
        idp_client_id = None,
        idp_client_secret = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        client_name: String,
        redirect_uri: String,
        client_id: Option<String>,
        client_secret: Option<String>,
        client_issuer: Option<String>,
        client_metadata_url: Option<String>,
        limits: Option<Limits>,
        max_authorizations: u32,
        dpop: Option<DpopUse>,
        grant: Option<GrantKind>,
        client_key_pem: Option<String>,
        assertion: Option<String>,
        id_token: Option<String>,
        idp_token_endpoint: Option<String>,
        idp_client_id: Option<String>,
        idp_client_secret: Option<String>,
    ) -> Result<Arc<AuthConfig>, AuthError> {
        let kind = grant.unwrap_or(GrantKind::AuthorizationCode).to_core();
        let given: Vec<AuthOption> = [
            (AuthOption::ClientId, client_id.is_some()),
            (AuthOption::ClientSecret, client_secret.is_some()),
            (AuthOption::ClientIssuer, client_issuer.is_some()),
            (AuthOption::ClientMetadataUrl, client_metadata_url.is_some()),
            (AuthOption::ClientKey, client_key_pem.is_some()),
            // An empty text counts as not given, as the flow counts it.
            (AuthOption::Assertion, is_given(assertion.as_deref())),
            (AuthOption::IdToken, is_given(id_token.as_deref())),
            (
                AuthOption::IdpTokenEndpoint,
                is_given(idp_token_endpoint.as_deref()),
            ),
            (AuthOption::IdpClientId, idp_client_id.is_some()),
            (AuthOption::IdpClientSecret, idp_client_secret.is_some()),
        ]
        .into_iter()
        .filter_map(|(option, set)| set.then_some(option))
        .collect();
        check_options(kind, &given).map_err(|problem| {
            let message = problem.message(argument_name, |grant| {
                format!("the grant {}", grant.as_str())
            });
            auth::AuthError::new(
                AuthCrateErrorKind::InvalidConfig,
                problem.option().pointer(),
                message,
            )
        })?;
        let grant = match kind {
            AuthGrantKind::AuthorizationCode => GrantType::AuthorizationCode,
            AuthGrantKind::ClientCredentials => GrantType::ClientCredentials,
            AuthGrantKind::JwtBearer => GrantType::JwtBearer {
                assertion: assertion.unwrap_or_default().into(),
            },
            AuthGrantKind::Enterprise => GrantType::Enterprise(Enterprise {
                token_endpoint: idp_token_endpoint.unwrap_or_default(),
                client_id: idp_client_id,
                client_secret: idp_client_secret.map(Into::into),
                id_token: id_token.unwrap_or_default().into(),
            }),
            AuthGrantKind::DeviceCode => GrantType::DeviceCode,
        };
        let mut config = Config::new(client_name, redirect_uri);
        config.client_id = client_id;
        config.client_secret = client_secret.map(Into::into);
        config.client_issuer = client_issuer;
        config.client_metadata_url = client_metadata_url;
        config.limits = limits.map_or(Config::DEFAULT_LIMITS, Limits::to_core);
        config.max_authorizations = max_authorizations;
        config.dpop = dpop.unwrap_or(DpopUse::WhenOffered).to_auth();
        config.grant = grant;
        config.client_key = client_key_pem
            .as_deref()
            .map(ClientKey::from_pem)
            .transpose()?;
        Ok(Arc::new(AuthConfig(config)))
    }

    /// The `client_name` of a dynamic registration.
    pub fn client_name(&self) -> String {
        self.0.client_name.clone()
    }

    /// Where the browser comes back with the authorization's answer.
    pub fn redirect_uri(&self) -> String {
        self.0.redirect_uri.clone()
    }

    /// How many flows one conversation may run.
    pub fn max_authorizations(&self) -> u32 {
        self.0.max_authorizations
    }

    /// Why `grant`, stored for the MCP server at `resource_url`, may not be used with this
    /// configuration (another grant, client or issuer than the configuration asks for), or
    /// `None` when it may.
    pub fn reuses(&self, grant: Arc<Grant>, resource_url: String) -> Option<String> {
        self.0
            .reuses(&grant.0, &resource_url)
            .err()
            .map(|reason| reason.message(|kind| String::from(kind.as_str())))
    }
}

fn is_given(text: Option<&str>) -> bool {
    text.is_some_and(|t| !t.is_empty())
}

/// An option as Kotlin and Swift spell the argument: `client_id` as `clientId`, the client's
/// key as `clientKeyPem`.
fn argument_name(option: AuthOption) -> String {
    if option == AuthOption::ClientKey {
        return String::from("clientKeyPem");
    }
    let mut out = String::new();
    let mut upper = false;
    for c in option.as_str().chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// An HTTP header: its name (lowercase in what the flow writes; any case in what it reads)
/// and value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct HttpHeader {
    /// The name.
    pub name: String,
    /// The value.
    pub value: String,
}

/// A request the flow asks the app to send, **without following redirects**, then hand its
/// response to [`AuthFlow::on_response`]. Its body may hold an authorization code, a verifier
/// or a client secret, and its `authorization` header a client's credentials: its
/// `toString` / `description` shows the body's length and hides those headers.
#[derive(Debug, uniffi::Object)]
#[uniffi::export(Debug)]
pub struct Fetch(auth::HttpRequest);

#[uniffi::export]
impl Fetch {
    /// `GET` or `POST`.
    pub fn method(&self) -> String {
        self.0.method.as_str().into()
    }

    /// The absolute URL to send it to.
    pub fn url(&self) -> String {
        self.0.url.clone()
    }

    /// The headers to send, names lowercase, in order.
    pub fn headers(&self) -> Vec<HttpHeader> {
        self.0
            .headers
            .iter()
            .map(|(name, value)| HttpHeader {
                name: name.clone(),
                value: value.clone(),
            })
            .collect()
    }

    /// The value of the header `name` (lowercase), if it is set.
    pub fn header(&self, name: String) -> Option<String> {
        self.0.header(&name).map(str::to_owned)
    }

    /// The body to send: empty for `GET`, JSON or a form for `POST` (as `content-type` says).
    pub fn body(&self) -> Vec<u8> {
        self.0.body.clone()
    }
}

/// What a person opens to authorize, and the consent to ask before opening it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Authorize {
    /// The person's consent to opening the link, as the contract asks any question: a
    /// `Request` of `kind: "authorization"` whose `url` is the authorization URL. Show it as a
    /// URL-mode request (with `reviewUrl`), and open the link only on an accept.
    pub request: Request,
    /// The authorization endpoint with the request's query: what the sign-in surface opens
    /// (Custom Tabs, `ASWebAuthenticationSession`).
    pub url: String,
    /// The `state` the redirect must carry back.
    pub state: String,
    /// The redirect URI the browser returns to, with the answer in its query.
    pub redirect_uri: String,
}

/// What the person is shown in the device grant (RFC 8628, beyond the MCP specification):
/// where to sign in, on any device, and the code to enter there. All of it is the
/// authorization server's text: show it as untrusted text, the link reviewed (`reviewUrl`).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct DeviceCode {
    /// The person's consent, as the contract asks any question: a `Request` of
    /// `kind: "authorization"` whose `url` is `link` and whose prompt names the code.
    pub request: Request,
    /// The code to enter at `verification_uri`.
    pub user_code: String,
    /// Where to sign in (`https`, or `http` on loopback).
    pub verification_uri: String,
    /// The verification URI with the code in it, when the server gives one.
    pub verification_uri_complete: Option<String>,
    /// The link to show: `verification_uri_complete` when there is one, else
    /// `verification_uri`.
    pub link: String,
    /// When the code expires, in milliseconds since 1970: the flow stops then.
    pub expires_at_ms: u64,
}

/// What the app does next.
// One step per HTTP exchange, moved across the boundary at once: its size does not matter, and
// UniFFI takes a record in an enum's variant as it is, not boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, uniffi::Enum)]
pub enum AuthStep {
    /// Send this request and hand its response to [`AuthFlow::on_response`].
    Fetch {
        /// The request.
        request: Arc<Fetch>,
    },
    /// Ask the person's consent to `authorization.request`; on an accept, open
    /// `authorization.url` and hand the redirect's query to [`AuthFlow::on_redirect`].
    Authorize {
        /// The link and the consent to ask.
        authorization: Authorize,
    },
    /// The device grant waits for the person: show `code` on the first poll (`attempt` 1),
    /// send `request` at `at_ms` or later and hand its response to [`AuthFlow::on_response`].
    /// The flow never sleeps: the app does.
    Poll {
        /// What the person is shown: the same on every poll of one flow.
        code: DeviceCode,
        /// When to send the request, in milliseconds since 1970.
        at_ms: u64,
        /// Which poll this is, from 1.
        attempt: u32,
        /// The token request.
        request: Arc<Fetch>,
    },
    /// Done: use the grant, and keep `grant.toJson()` in the secret store.
    Done {
        /// The grant.
        grant: Arc<Grant>,
    },
}

/// A flow and its first step.
#[derive(Debug, uniffi::Record)]
pub struct AuthBegun {
    /// The flow, for the responses and the redirect to come.
    pub flow: Arc<AuthFlow>,
    /// What to do first.
    pub next: AuthStep,
}

/// One authorization of one MCP server, from its challenge to a [`Grant`], driven by the app's
/// HTTP client: begun with [`start_auth_flow`] (or [`refresh_auth_flow`]), then each `Fetch`
/// answered with `on_response`, each `Authorize` with `on_redirect` and each `Poll` (the device
/// grant) with `on_response` to its `request`, sent at its `at_ms`, until `Done`. After an
/// error the flow is over; every later call fails with `OutOfOrder`. Safe to call from any
/// thread.
#[derive(uniffi::Object)]
pub struct AuthFlow {
    inner: Shared<Flow>,
    /// The client's name and the server, for the consent request.
    client_name: String,
    server: String,
}

impl std::fmt::Debug for AuthFlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (issuer, authorizations) = self
            .inner
            .with(|flow| (flow.issuer().map(str::to_owned), flow.authorizations()));
        f.debug_struct("AuthFlow")
            .field("server", &self.server)
            .field("issuer", &issuer)
            .field("authorizations", &authorizations)
            .finish()
    }
}

/// Begins authorizing the MCP server at `resource_url`, which answered with `challenge` (a
/// 401, or a 403 with `insufficient_scope`): the flow and its first step.
///
/// `previous` is the grant stored for this server, if any (a step-up keeps its scopes and
/// counts its chain; its client is reused at the same issuer only). `entropy` is 64 bytes of
/// the platform's secure random generator (`SecureRandom`, `SecRandomCopyBytes`). Fails with
/// `InvalidConfig`, `NotChallenged`, `TooManyAuthorizations`, `InvalidChallenge`,
/// `InsecureEndpoint`, or `InvalidValue` for entropy that is not 64 bytes.
#[uniffi::export(default(previous = None))]
pub fn start_auth_flow(
    resource_url: String,
    challenge: Challenge,
    config: Arc<AuthConfig>,
    entropy: Vec<u8>,
    previous: Option<Arc<Grant>>,
) -> Result<AuthBegun, AuthError> {
    let entropy = entropy_of::<ENTROPY_BYTES>(&entropy)?;
    let previous = previous.as_ref().map(|g| &g.0);
    let begun = Flow::start(
        &resource_url,
        &challenge.to_auth(),
        config.0.clone(),
        previous,
        entropy,
    )?;
    AuthFlow::begun(begun, &config, resource_url)
}

/// Begins refreshing `grant` for the MCP server at `resource_url`: the flow and the token
/// request to send. A DPoP-bound grant proves the request with its key at `now_ms` (default:
/// the system clock), the proofs' `jti` made from `entropy` (32 random bytes). Fails with
/// `NoRefreshToken`, `ResourceMismatch`, `InvalidGrant`, `InsecureEndpoint`, `InvalidDpop`,
/// or `InvalidValue` for entropy that is not 32 bytes.
#[uniffi::export(default(now_ms = None))]
pub fn refresh_auth_flow(
    resource_url: String,
    grant: Arc<Grant>,
    config: Arc<AuthConfig>,
    entropy: Vec<u8>,
    now_ms: Option<u64>,
) -> Result<AuthBegun, AuthError> {
    let entropy = entropy_of::<REFRESH_ENTROPY_BYTES>(&entropy)?;
    let begun = Flow::refresh_at(
        &resource_url,
        &grant.0,
        config.0.clone(),
        now_or_clock(now_ms),
        entropy,
    )?;
    AuthFlow::begun(begun, &config, resource_url)
}

/// Begins refreshing `grant` as [`refresh_auth_flow`] does, without the time and random
/// bytes: for a `Bearer` grant whose client signs nothing. A DPoP-bound grant (`InvalidDpop`)
/// and a `private_key_jwt` client (`InvalidConfig`) need both: refresh those with
/// [`refresh_auth_flow`].
#[uniffi::export]
pub fn refresh_auth_flow_untimed(
    resource_url: String,
    grant: Arc<Grant>,
    config: Arc<AuthConfig>,
) -> Result<AuthBegun, AuthError> {
    let begun = Flow::refresh(&resource_url, &grant.0, config.0.clone())?;
    AuthFlow::begun(begun, &config, resource_url)
}

impl AuthFlow {
    fn begun(
        (flow, next): (Flow, Next),
        config: &AuthConfig,
        server: String,
    ) -> Result<AuthBegun, AuthError> {
        let flow = Arc::new(AuthFlow {
            inner: Shared::new(flow),
            client_name: config.0.client_name.clone(),
            server,
        });
        let next = flow.step(next)?;
        Ok(AuthBegun { flow, next })
    }

    /// The flow's `Next` as the step the app takes.
    fn step(&self, next: Next) -> Result<AuthStep, AuthError> {
        Ok(match next {
            Next::Fetch(request) => AuthStep::Fetch {
                request: Arc::new(Fetch(request)),
            },
            Next::Authorize(authorization) => {
                let request = authorization.consent_request(
                    core::id::next_id(),
                    &self.client_name,
                    &self.server,
                )?;
                AuthStep::Authorize {
                    authorization: Authorize {
                        request: Request::from_core(&request),
                        url: authorization.url,
                        state: authorization.state,
                        redirect_uri: authorization.redirect_uri,
                    },
                }
            }
            Next::Poll(poll) => {
                let request = poll.code.consent_request(
                    core::id::next_id(),
                    &self.client_name,
                    &self.server,
                )?;
                AuthStep::Poll {
                    code: DeviceCode {
                        request: Request::from_core(&request),
                        link: poll.code.link().to_owned(),
                        user_code: poll.code.user_code,
                        verification_uri: poll.code.verification_uri,
                        verification_uri_complete: poll.code.verification_uri_complete,
                        expires_at_ms: poll.code.expires_at_ms,
                    },
                    at_ms: poll.at_ms,
                    attempt: poll.attempt,
                    request: Arc::new(Fetch(poll.request)),
                }
            }
            Next::Done(grant) => AuthStep::Done {
                grant: Arc::new(Grant(grant)),
            },
        })
    }
}

#[uniffi::export]
impl AuthFlow {
    /// Reads the response to the last `Fetch` (its status, its headers, names in any case,
    /// its body as received), received at `now_ms` (default: the system clock): the next
    /// step. Fails for a response the flow refuses.
    #[uniffi::method(default(now_ms = None))]
    pub fn on_response(
        &self,
        status: u16,
        headers: Vec<HttpHeader>,
        body: Vec<u8>,
        now_ms: Option<u64>,
    ) -> Result<AuthStep, AuthError> {
        let headers: Vec<(String, String)> = headers
            .into_iter()
            .map(|h| (h.name.to_ascii_lowercase(), h.value))
            .collect();
        let response = HttpResponse {
            status,
            headers: &headers,
            body: &body,
        };
        let now_ms = now_or_clock(now_ms);
        let next = self.inner.with(|flow| flow.on_response(response, now_ms))?;
        self.step(next)
    }

    /// Reads the redirect: `query` is the query string of the URL the browser came back to
    /// (with or without its `?`), received at `now_ms` (default: the system clock). The next
    /// step: the token request. Fails with `InvalidRedirect`, `StateMismatch`,
    /// `IssMismatch`, `IssMissing`, `AuthorizationDenied`.
    #[uniffi::method(default(now_ms = None))]
    pub fn on_redirect(&self, query: String, now_ms: Option<u64>) -> Result<AuthStep, AuthError> {
        let now_ms = now_or_clock(now_ms);
        let next = self
            .inner
            .with(|flow| flow.on_redirect_at(&query, now_ms))?;
        self.step(next)
    }

    /// The authorization server's issuer, once known.
    pub fn issuer(&self) -> Option<String> {
        self.inner.with(|flow| flow.issuer().map(str::to_owned))
    }

    /// The resource the token is asked for, once known.
    pub fn resource(&self) -> Option<String> {
        self.inner.with(|flow| flow.resource().map(str::to_owned))
    }

    /// The `client_id` in use, once chosen.
    pub fn client_id(&self) -> Option<String> {
        self.inner
            .with(|flow| flow.client().map(|c| c.client_id().to_owned()))
    }

    /// The scopes requested, once chosen.
    pub fn scope(&self) -> Option<String> {
        self.inner.with(|flow| flow.scope().map(str::to_owned))
    }

    /// The authorizations in this step-up chain, this one included.
    pub fn authorizations(&self) -> u32 {
        self.inner.with(|flow| flow.authorizations())
    }
}

/// What an authorization yields: the token (`DPoP`-bound or `Bearer`), its refresh token,
/// and what it was obtained from. Kept as one value, `toJson()`, whose form is versioned (its
/// `version` member; `fromJson` refuses another) and holds every secret: store it in the
/// platform's secret store (Keystore-backed storage, the Keychain), never in plain files.
/// Its `toString` / `description` shows no secret.
#[derive(Debug, uniffi::Object)]
#[uniffi::export(Debug)]
pub struct Grant(auth::Grant);

#[uniffi::export]
impl Grant {
    /// Reads a grant `toJson` wrote, within `limits` (the defaults when absent). Fails with
    /// `InvalidJson` (`TooLarge`, `TooDeep`) for text that is not JSON, `InvalidGrant` at its
    /// pointer for another version or a member missing, mistyped or unknown.
    #[uniffi::constructor(default(limits = None))]
    pub fn from_json(json: String, limits: Option<Limits>) -> Result<Arc<Grant>, AuthError> {
        let limits = limits.map_or(Config::DEFAULT_LIMITS, Limits::to_core);
        Ok(Arc::new(Grant(auth::Grant::from_json(
            json.as_bytes(),
            &limits,
        )?)))
    }

    /// The grant as compact JSON, to keep in the secret store: it holds the tokens, the
    /// client's secret and the private DPoP key.
    pub fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// The value of the `Authorization` header of a request to the MCP server:
    /// `Bearer <token>` or `DPoP <token>`.
    pub fn authorization(&self) -> String {
        self.0.authorization()
    }

    /// The access token.
    pub fn access_token(&self) -> String {
        self.0.access_token().into()
    }

    /// `Bearer` or `DPoP`.
    pub fn token_type(&self) -> String {
        self.0.token_type().into()
    }

    /// Whether the token is DPoP-bound: each request then carries [`Grant::proof`].
    pub fn is_dpop(&self) -> bool {
        self.0.is_dpop()
    }

    /// The `DPoP` header of a request `method` to `url` at `now_ms` (default: the system
    /// clock), its `jti` made of `jti_entropy` (32 random bytes), with the server's `nonce` when
    /// it asked for one: `None` for a `Bearer` token. Fails with `InvalidDpop`.
    #[uniffi::method(default(now_ms = None, nonce = None))]
    pub fn proof(
        &self,
        method: String,
        url: String,
        jti_entropy: Vec<u8>,
        now_ms: Option<u64>,
        nonce: Option<String>,
    ) -> Result<Option<String>, AuthError> {
        Ok(self.0.proof(
            &method,
            &url,
            now_or_clock(now_ms),
            &jti_entropy,
            nonce.as_deref(),
        )?)
    }

    /// Whether a refresh token was issued.
    pub fn has_refresh_token(&self) -> bool {
        self.0.refresh_token().is_some()
    }

    /// When the access token expires (milliseconds since 1970), if the server said.
    pub fn expires_at_ms(&self) -> Option<u64> {
        self.0.expires_at_ms()
    }

    /// Whether the access token has expired at `now_ms` (default: the system clock).
    #[uniffi::method(default(now_ms = None))]
    pub fn is_expired(&self, now_ms: Option<u64>) -> bool {
        self.0.is_expired(now_or_clock(now_ms))
    }

    /// The scopes granted.
    pub fn scope(&self) -> Option<String> {
        self.0.scope().map(str::to_owned)
    }

    /// The authorization server's issuer.
    pub fn issuer(&self) -> String {
        self.0.issuer().into()
    }

    /// The resource the token is for.
    pub fn resource(&self) -> Option<String> {
        self.0.resource().map(str::to_owned)
    }

    /// The `client_id` the token was issued to.
    pub fn client_id(&self) -> String {
        self.0.client().client_id().into()
    }

    /// The grant that obtained the token.
    pub fn obtained_by(&self) -> GrantKind {
        AuthGrantKind::from_name(self.0.obtained_by())
            .map_or(GrantKind::AuthorizationCode, GrantKind::from_core)
    }

    /// The authorizations in the step-up chain that obtained it.
    pub fn authorizations(&self) -> u32 {
        self.0.authorizations()
    }
}

/// What the app does next about a refused request.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum AuthDecision {
    /// Send the request again with the authorization held now: it went with an older one.
    Resend,
    /// Send it again, once, with this nonce in a fresh DPoP proof.
    RetryWithNonce {
        /// The server's nonce.
        nonce: String,
    },
    /// Refresh the grant held, then send again; when the refresh fails, call
    /// `refreshFailed()` and decide again.
    Refresh,
    /// Run a flow for this challenge (a first authorization, or again after the token was
    /// refused), with the grant held as its `previous`.
    Authorize {
        /// The challenge to start it with.
        challenge: Challenge,
    },
    /// Run a flow for this challenge, which asks for more scope, with the grant held as its
    /// `previous`, so that its scopes are kept.
    StepUp {
        /// The challenge to start it with.
        challenge: Challenge,
    },
}

/// What to do when an MCP server refuses a request: the one policy every toolnexus host
/// follows, for an app that moves the bytes. Give it each refusal (`decide`); it says what
/// comes next, or fails (`TooManyAuthorizations`, `NotChallenged`) when the app should give
/// up. Every flow it asks for counts under `max_authorizations`. Safe to call from any thread.
#[derive(uniffi::Object)]
pub struct AuthPolicy(Shared<Policy>);

#[uniffi::export]
impl AuthPolicy {
    /// A policy that asks for at most `max_authorizations` flows, step-ups included.
    #[uniffi::constructor(default(max_authorizations = 3))]
    pub fn new(max_authorizations: u32) -> Arc<AuthPolicy> {
        Arc::new(AuthPolicy(Shared::new(Policy::new(max_authorizations))))
    }

    /// Decides about a request refused with `status`, `www_authenticate` (its values joined
    /// with `", "`) and `dpop_nonce` (the `DPoP-Nonce` header), which was sent with the
    /// `Authorization` header `sent` (`None` without one), while the app holds `held` at
    /// `now_ms` (default: the system clock). `retried_with_nonce`: the request was sent again
    /// with the server's nonce already.
    #[uniffi::method(default(
        www_authenticate = None,
        dpop_nonce = None,
        sent = None,
        held = None,
        now_ms = None,
        retried_with_nonce = false
    ))]
    #[allow(clippy::too_many_arguments)]
    pub fn decide(
        &self,
        status: u16,
        www_authenticate: Option<String>,
        dpop_nonce: Option<String>,
        sent: Option<String>,
        held: Option<Arc<Grant>>,
        now_ms: Option<u64>,
        retried_with_nonce: bool,
    ) -> Result<AuthDecision, AuthError> {
        let refusal = Refusal::read(status, www_authenticate.as_deref(), dpop_nonce.as_deref());
        let now_ms = now_or_clock(now_ms);
        let decision = self.0.with(|policy| {
            policy.decide_request(
                &refusal,
                sent.as_deref(),
                held.as_ref().map(|g| &g.0),
                now_ms,
                retried_with_nonce,
            )
        });
        Ok(match decision {
            Decision::Resend => AuthDecision::Resend,
            Decision::RetryWithNonce(nonce) => AuthDecision::RetryWithNonce { nonce },
            Decision::Refresh => AuthDecision::Refresh,
            Decision::Authorize(challenge) => AuthDecision::Authorize {
                challenge: Challenge::from_auth(challenge),
            },
            Decision::StepUp(challenge) => AuthDecision::StepUp {
                challenge: Challenge::from_auth(challenge),
            },
            Decision::GiveUp(error) => return Err(error.into()),
        })
    }

    /// The refresh a `Refresh` decision asked for failed: the next decision runs a flow.
    pub fn refresh_failed(&self) {
        self.0.with(Policy::refresh_failed);
    }

    /// A flow got a new grant, now held: it may be refreshed once in turn. Not for a grant a
    /// refresh got: a refreshed token refused before its time leads to a flow, which the cap
    /// counts, so refreshes never go on for ever.
    pub fn holds_new_grant(&self) {
        self.0.with(Policy::holds_new_grant);
    }

    /// How many flows the policy asked for so far.
    pub fn authorizations(&self) -> u32 {
        self.0.with(|policy| policy.authorizations())
    }
}

/// `entropy` as `N` bytes, or `InvalidValue`.
fn entropy_of<const N: usize>(entropy: &[u8]) -> Result<[u8; N], AuthError> {
    <[u8; N]>::try_from(entropy).map_err(|_| {
        core::Error::new(
            core::ErrorKind::InvalidValue,
            "",
            format!("entropy must be {N} random bytes, not {}", entropy.len()),
        )
        .into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of the auth crate has a case of its own, and its name survives the trip.
    #[test]
    fn every_auth_kind_is_named() {
        for kind in AuthCrateErrorKind::ALL {
            let mine = AuthErrorKind::from_core(kind);
            assert_ne!(mine, AuthErrorKind::Other, "{kind:?}");
            assert_eq!(mine.as_str(), kind.as_str());
        }
    }

    /// Every grant of the auth crate has a case of its own.
    #[test]
    fn every_grant_is_named() {
        for kind in AuthGrantKind::ALL {
            assert_eq!(GrantKind::from_core(kind).to_core(), kind);
        }
    }

    /// The options' names in a refusal are the arguments Kotlin and Swift write.
    #[test]
    fn option_names_are_spelt_as_the_languages_spell_them() {
        assert_eq!(
            argument_name(AuthOption::IdpClientSecret),
            "idpClientSecret"
        );
        assert_eq!(argument_name(AuthOption::ClientKey), "clientKeyPem");
        assert_eq!(argument_name(AuthOption::ClientId), "clientId");
    }

    #[test]
    fn entropy_of_another_length_is_an_invalid_value() {
        let error = entropy_of::<64>(&[0; 63]).unwrap_err();
        assert!(matches!(
            error,
            AuthError::Invalid {
                kind: ErrorKind::InvalidValue,
                ..
            }
        ));
    }
}
