//! The authorization flow as a state machine: [`Flow`] says what to fetch next ([`Next`]), reads
//! each answer, and ends with a [`Grant`] or an [`AuthError`].
//!
//! The order (MCP authorization, 2025-11-25 and 2026-07-28): protected resource metadata (the
//! challenge's `resource_metadata`, else the path-based then the root well-known URL; none at
//! all is a 2025-03-26 server, whose own origin is its authorization server); its `resource`
//! checked against the server; the authorization server metadata of its first
//! `authorization_servers` entry (three or two well-known URLs), whose `issuer` must be that
//! entry exactly; a client identity for that issuer; the authorization request with PKCE
//! `S256`, `state` and `resource`; the redirect checked (`state`, then `iss` per RFC 9207,
//! then `error`); the token request.

use std::fmt;

use toolnexus_core::closed_set;
use toolnexus_core::json::Limits;
use url::Url;

use crate::challenge::Challenge;
use crate::client::{AuthMethod, Client, read_registration, registration_request};
use crate::client_key::{CLIENT_KEY_ALG, ClientKey};
use crate::document::Document;
use crate::dpop::{DPOP_ALG, DpopKey, check_nonce, derive, derived_jti};
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant::{Grant, TokenRequestContext, read_token_response};
use crate::grant_type::{GrantType, Obtained, exchange_request, read_exchange};
use crate::http::{HttpRequest, HttpResponse};
use crate::metadata::{
    ResourceMetadata, ServerMetadata, fallback_server, issuer_url, read_resource_metadata,
    read_server_metadata,
};
use crate::pkce::Pkce;
use crate::refusal::{printable, redirected};
use crate::scope;
use crate::urls::{
    endpoint, origin, parse_web_url, reachable, resource_covers, resource_metadata_candidates,
    secure, server_metadata_candidates,
};

/// What the caller configures: the client's identity and the bounds of the flow.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    /// A pre-registered `client_id`, used before any other identity (with
    /// [`client_issuer`](Config::client_issuer), only at that server).
    pub client_id: Option<String>,
    /// The secret of the pre-registered client, if it is confidential.
    pub client_secret: Option<String>,
    /// The issuer the pre-registered client belongs to. When set, the pre-registered
    /// credentials go to that authorization server only (its metadata `issuer`, compared
    /// exactly); when `None`, to whichever server the resource names.
    pub client_issuer: Option<String>,
    /// The URL of this client's Client ID Metadata Document (an `https` URL with a path), used
    /// as its `client_id` where the server says `client_id_metadata_document_supported`.
    pub client_metadata_url: Option<String>,
    /// The `client_name` of a dynamic registration.
    pub client_name: String,
    /// Where the browser returns: `http://127.0.0.1:PORT/callback` for a loopback listener.
    pub redirect_uri: String,
    /// Bounds on every JSON document read.
    pub limits: Limits,
    /// The most authorizations one step-up chain may take, the first included.
    pub max_authorizations: u32,
    /// When token requests are proved with DPoP (RFC 9449).
    pub dpop: DpopUse,
    /// How the token is obtained: by default the authorization code grant, a person signing
    /// in; or a grant for machines, which runs unattended.
    pub grant: GrantType,
    /// The pre-registered client's own key, for `private_key_jwt` authentication at the
    /// token endpoint (with [`client_id`](Config::client_id)).
    pub client_key: Option<ClientKey>,
}

closed_set! {
    /// When a flow proves its token requests with DPoP (RFC 9449), which binds the token to a
    /// key the flow makes from its entropy; named as a host's option spells it.
    #[derive(Default)]
    pub enum DpopUse {
        /// When the authorization server lists `ES256` in `dpop_signing_alg_values_supported`.
        #[default]
        WhenOffered => "when-offered",
        /// Always, whatever the server's metadata says.
        Always => "always",
        /// Never: tokens are asked for as `Bearer` tokens.
        Never => "never",
    }
}

impl Config {
    /// The default bounds on documents: 256 KiB, 16 levels deep, the core's member and item
    /// counts. Metadata and token responses are a few KiB.
    pub const DEFAULT_LIMITS: Limits = Limits::DEFAULT
        .with_max_input_bytes(256 * 1024)
        .with_max_depth(16);

    /// The default bound on a step-up chain: a first authorization and two step-ups.
    pub const DEFAULT_MAX_AUTHORIZATIONS: u32 = 3;

    /// A configuration for the client `client_name` redirected to `redirect_uri`, with no
    /// pre-registered identity, no client metadata document, [`Config::DEFAULT_LIMITS`] and
    /// [`Config::DEFAULT_MAX_AUTHORIZATIONS`].
    pub fn new(client_name: impl Into<String>, redirect_uri: impl Into<String>) -> Config {
        Config {
            client_id: None,
            client_secret: None,
            client_issuer: None,
            client_metadata_url: None,
            client_name: client_name.into(),
            redirect_uri: redirect_uri.into(),
            limits: Config::DEFAULT_LIMITS,
            max_authorizations: Config::DEFAULT_MAX_AUTHORIZATIONS,
            dpop: DpopUse::WhenOffered,
            grant: GrantType::AuthorizationCode,
            client_key: None,
        }
    }

    /// Refuses a configuration the flow cannot use ([`AuthErrorKind::InvalidConfig`] at the
    /// pointer of the member at fault, such as `/client_issuer`): every [`Flow::start`] runs
    /// it first, and a host may run it before it sends anything at all, naming its own option
    /// for the member.
    ///
    /// Confidential credentials (a client secret, a client key, a workload's JWT, an
    /// enterprise token exchange) need [`client_issuer`](Config::client_issuer): they go only
    /// to the authorization server the user bound them to, never to the one a server names.
    pub fn check(&self) -> Result<(), AuthError> {
        let invalid = |at: &str, message: String| {
            Err(AuthError::new(AuthErrorKind::InvalidConfig, at, message))
        };
        match Url::parse(&self.redirect_uri) {
            Ok(url) if url.fragment().is_none() => {}
            _ => {
                return invalid(
                    "/redirect_uri",
                    format!(
                        "the redirect URI {} is not an absolute URL without a fragment",
                        quote(&self.redirect_uri)
                    ),
                );
            }
        }
        if let Some(raw) = &self.client_metadata_url {
            let usable = parse_web_url(raw).is_some_and(|u| {
                u.scheme() == "https" && u.path() != "/" && u.fragment().is_none()
            });
            if !usable {
                return invalid(
                    "/client_metadata_url",
                    format!(
                        "the client metadata URL {} is not an https URL with a path",
                        quote(raw)
                    ),
                );
            }
        }
        if self.client_secret.is_some() && self.client_id.is_none() {
            return invalid(
                "/client_secret",
                "a client secret is configured without a client id".to_owned(),
            );
        }
        if self.client_key.is_some() && self.client_id.is_none() {
            return invalid(
                "/client_key",
                "a client key is configured without a client id".to_owned(),
            );
        }
        // Confidential credentials go only to the authorization server the user bound them
        // to: a server names any authorization server it likes.
        let confidential = if self.client_secret.is_some() {
            Some("a client secret")
        } else if self.client_key.is_some() {
            Some("a client key's assertion")
        } else {
            match &self.grant {
                GrantType::JwtBearer { .. } => Some("a workload's JWT"),
                GrantType::Enterprise(_) => Some("an enterprise token exchange"),
                GrantType::AuthorizationCode | GrantType::ClientCredentials => None,
            }
        };
        if let (Some(what), None) = (confidential, &self.client_issuer) {
            return invalid(
                "/client_issuer",
                format!(
                    "{what} is sent only to the authorization server it belongs to: name that \
                     server's issuer in client_issuer, or the MCP server could name its own"
                ),
            );
        }
        if let Some(issuer) = &self.client_issuer {
            issuer_url(issuer, "/client_issuer", "the configured client issuer").map_err(|e| {
                AuthError::new(AuthErrorKind::InvalidConfig, e.pointer(), e.message())
            })?;
        }
        match &self.grant {
            GrantType::AuthorizationCode => {}
            GrantType::ClientCredentials => {
                if self.client_id.is_none() {
                    return invalid(
                        "/client_id",
                        "the client credentials grant needs a pre-registered client id".to_owned(),
                    );
                }
            }
            GrantType::JwtBearer { assertion } => {
                if assertion.is_empty() {
                    return invalid(
                        "/grant/assertion",
                        "the JWT bearer grant's assertion is empty".to_owned(),
                    );
                }
            }
            GrantType::Enterprise(enterprise) => {
                if self.client_id.is_none() {
                    return invalid(
                        "/client_id",
                        "enterprise-managed authorization needs the client id pre-registered \
                         at the authorization server"
                            .to_owned(),
                    );
                }
                if enterprise.id_token.is_empty() {
                    return invalid(
                        "/grant/id_token",
                        "the ID token to exchange is empty".to_owned(),
                    );
                }
                if enterprise.client_secret.is_some() && enterprise.client_id.is_none() {
                    return invalid(
                        "/grant/client_secret",
                        "a secret at the identity provider is configured without a client id \
                         there"
                            .to_owned(),
                    );
                }
                endpoint(
                    &enterprise.token_endpoint,
                    "/grant/token_endpoint",
                    "the identity provider's token endpoint",
                    AuthErrorKind::InvalidConfig,
                )?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "…"))
            .field("client_issuer", &self.client_issuer)
            .field("client_metadata_url", &self.client_metadata_url)
            .field("client_name", &self.client_name)
            .field("redirect_uri", &self.redirect_uri)
            .field("limits", &self.limits)
            .field("max_authorizations", &self.max_authorizations)
            .field("dpop", &self.dpop)
            .field("grant", &self.grant)
            .field("client_key", &self.client_key)
            .finish()
    }
}

/// What a person opens to authorize: the authorization request URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorization {
    /// The authorization endpoint with the request's query.
    pub url: String,
    /// The `state` the redirect must carry back.
    pub state: String,
    /// The redirect URI the browser returns to, with the response in its query.
    pub redirect_uri: String,
}

/// What the caller does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Send this request, without following redirects, and hand the response to
    /// [`Flow::on_response`].
    Fetch(HttpRequest),
    /// Have a person open [`Authorization::url`] (or `GET` it without following the redirect),
    /// then hand the redirect's query to [`Flow::on_redirect`].
    Authorize(Authorization),
    /// The flow is done: use and store the grant.
    Done(Grant),
}

/// Where the flow stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    /// Fetching `candidates[at]`, a protected resource metadata URL; `hinted` when it is the
    /// one the challenge named.
    ResourceMetadata {
        candidates: Vec<String>,
        at: usize,
        hinted: bool,
    },
    /// Fetching `candidates[at]`, a metadata URL of the authorization server `issuer`;
    /// `legacy` for a 2025-03-26 server, whose origin stands in for it.
    ServerMetadata {
        candidates: Vec<String>,
        at: usize,
        issuer: String,
        legacy: bool,
    },
    /// Registering at `endpoint`.
    Registration { endpoint: String },
    /// Exchanging the ID token at the identity provider's token endpoint `endpoint`.
    Exchange { endpoint: String },
    /// Waiting for the redirect.
    Authorization,
    /// Waiting for the token response.
    Token,
    /// Ended with a grant.
    Done,
    /// Ended with an error.
    Failed,
}

impl Stage {
    fn name(&self) -> &'static str {
        match self {
            Stage::ResourceMetadata { .. } => "fetching the protected resource metadata",
            Stage::ServerMetadata { .. } => "fetching the authorization server metadata",
            Stage::Registration { .. } => "registering the client",
            Stage::Exchange { .. } => "exchanging the ID token at the identity provider",
            Stage::Authorization => "waiting for the authorization redirect",
            Stage::Token => "waiting for the token response",
            Stage::Done => "done",
            Stage::Failed => "failed",
        }
    }
}

/// Where a token request went, to read its answer against.
#[derive(Debug, Clone, PartialEq, Eq)]
struct TokenTarget {
    endpoint: String,
    issuer: String,
    resource: Option<String>,
}

/// One authorization of one MCP server, from its challenge to a [`Grant`].
///
/// The flow does no I/O, reads no clock and draws no randomness: the caller sends each
/// [`Next::Fetch`], shows each [`Next::Authorize`], and passes the time and the randomness in.
/// After an error the flow is over; every later call is [`AuthErrorKind::OutOfOrder`].
pub struct Flow {
    /// The MCP server's URL.
    server: Url,
    config: Config,
    stage: Stage,
    /// Scopes the challenge named.
    challenged: Vec<String>,
    /// Scopes already held, which a step-up keeps.
    held: Vec<String>,
    /// The client of the previous grant, reused at the same issuer only.
    previous_client: Option<Client>,
    /// Authorizations in this step-up chain, this one included.
    authorizations: u32,
    pkce: Option<Pkce>,
    resource: Option<ResourceMetadata>,
    metadata: Option<ServerMetadata>,
    client: Option<Client>,
    /// The scopes requested.
    scope: Option<String>,
    /// The authorization code, kept out of messages.
    code: Option<String>,
    /// The refresh token sent, for a refresh.
    refresh_token: Option<String>,
    token: Option<TokenTarget>,
    /// The DPoP key this flow would prove its token requests with, made from its entropy.
    dpop_candidate: Option<DpopKey>,
    /// The DPoP key the token requests are proved with, once chosen.
    dpop: Option<DpopKey>,
    /// The seed of the proofs' `jti`s, made from the flow's entropy.
    jti_seed: [u8; 32],
    /// Proofs made so far: each `jti` is made of the seed and this count.
    proofs: u64,
    /// Whether the token request was sent again with the server's `DPoP-Nonce` already.
    nonce_retried: bool,
    /// The form of the token request, before the client's authentication: built again (a
    /// fresh client assertion, a fresh proof) to send it again with a nonce.
    token_form: Vec<(&'static str, String)>,
    /// The ID-JAG the identity provider issued (enterprise-managed authorization), kept out
    /// of messages.
    exchanged: Option<String>,
    /// The grant the token is obtained by: the configured one, or for a refresh the
    /// refreshed grant's.
    obtained_by: Obtained,
    /// The latest time the caller gave, in milliseconds since the Unix epoch.
    now_ms: u64,
}

impl Flow {
    /// Begins authorizing the MCP server at `resource_url`, which answered 401 (or 403 with
    /// `insufficient_scope`) with `challenge`.
    ///
    /// `previous` is the grant stored for this server, if any: on a step-up its scopes are
    /// kept in the request and its chain of authorizations counted; its client is reused only
    /// at the same issuer. `entropy` is 64 random bytes: the PKCE verifier and the `state`.
    ///
    /// Refused at once: an unusable `resource_url` or configuration
    /// ([`AuthErrorKind::InvalidConfig`]); a response that asks for no authorization
    /// ([`AuthErrorKind::NotChallenged`]); a step-up beyond
    /// [`Config::max_authorizations`] ([`AuthErrorKind::TooManyAuthorizations`]); an unusable
    /// `resource_metadata` or `scope` in the challenge; a server or metadata URL of plain
    /// `http` on a host that is not loopback ([`AuthErrorKind::InsecureEndpoint`]).
    pub fn start(
        resource_url: &str,
        challenge: &Challenge,
        config: Config,
        previous: Option<&Grant>,
        entropy: [u8; 64],
    ) -> Result<(Flow, Next), AuthError> {
        let server = server_url(resource_url)?;
        config.check()?;
        let step_up = challenge.is_insufficient_scope();
        if challenge.status != 401 && !step_up {
            return Err(AuthError::new(
                AuthErrorKind::NotChallenged,
                "",
                format!(
                    "the server answered {}{}, which asks for no authorization (a 401, or a 403 \
                     with error=\"insufficient_scope\", does)",
                    challenge.status,
                    challenge
                        .error
                        .as_deref()
                        .map(|e| format!(" with error={}", quote(e)))
                        .unwrap_or_default()
                ),
            ));
        }
        let authorizations = match previous {
            Some(grant) if step_up => grant.authorizations.saturating_add(1),
            _ => 1,
        };
        if authorizations > config.max_authorizations {
            return Err(AuthError::new(
                AuthErrorKind::TooManyAuthorizations,
                "",
                format!(
                    "the server still asks for more scope after {} authorization(s), the most \
                     allowed is {}",
                    authorizations.saturating_sub(1),
                    config.max_authorizations
                ),
            ));
        }
        let challenged = match challenge.scope.as_deref() {
            None => Vec::new(),
            Some(list) => {
                let scopes = scope::split(list);
                if let Some(bad) = scopes.iter().find(|s| !scope::is_scope_token(s)) {
                    return Err(AuthError::new(
                        AuthErrorKind::InvalidChallenge,
                        "/scope",
                        format!("the challenge's scope {} is not a scope", quote(bad)),
                    ));
                }
                scopes
            }
        };
        let held = match previous.and_then(|g| g.scope.as_deref()) {
            Some(list) if step_up => scope::split(list),
            _ => Vec::new(),
        };
        // The token will go to the server itself: plain http only on loopback.
        secure(&server, "", "the server")?;
        let (candidates, hinted) = match challenge.resource_metadata.as_deref() {
            Some(raw) => {
                let url = server
                    .join(raw)
                    .ok()
                    .and_then(|u| parse_web_url(u.as_str()))
                    .ok_or_else(|| {
                        AuthError::new(
                            AuthErrorKind::InvalidChallenge,
                            "/resource_metadata",
                            format!(
                                "the challenge's resource_metadata {} is not an http(s) URL",
                                quote(raw)
                            ),
                        )
                    })?;
                secure(
                    &url,
                    "/resource_metadata",
                    "the challenge's resource_metadata",
                )?;
                (vec![url.to_string()], true)
            }
            None => (resource_metadata_candidates(&server), false),
        };
        let first = candidates.first().cloned().unwrap_or_default();
        let dpop_candidate = match config.dpop {
            DpopUse::Never => None,
            DpopUse::WhenOffered | DpopUse::Always => {
                Some(DpopKey::from_bytes(&derive(&entropy, "key"))?)
            }
        };
        let obtained_by = config.grant.obtained();
        let mut flow = Flow {
            server,
            config,
            stage: Stage::ResourceMetadata {
                candidates,
                at: 0,
                hinted,
            },
            challenged,
            held,
            previous_client: previous.map(|g| g.client.clone()),
            authorizations,
            pkce: Some(Pkce::from_entropy(&entropy)),
            resource: None,
            metadata: None,
            client: None,
            scope: None,
            code: None,
            refresh_token: None,
            token: None,
            dpop_candidate,
            dpop: None,
            jti_seed: derive(&entropy, "jti"),
            proofs: 0,
            nonce_retried: false,
            token_form: Vec::new(),
            exchanged: None,
            obtained_by,
            now_ms: 0,
        };
        let next = flow.guard(Next::Fetch(HttpRequest::get_json(first)))?;
        Ok((flow, next))
    }

    /// Begins refreshing `grant` for the MCP server at `resource_url` (its token expired or
    /// was refused): the token request to send, whose response goes to
    /// [`Flow::on_response`]. The grant's client authenticates as it did.
    ///
    /// Refused: a grant without a refresh token ([`AuthErrorKind::NoRefreshToken`]), one for
    /// another resource ([`AuthErrorKind::ResourceMismatch`]), a token endpoint that is not
    /// `https` or loopback `http`.
    ///
    /// A grant bound to a DPoP key needs a proof, and a `private_key_jwt` client a fresh
    /// client assertion, and so the time and fresh randomness: they are refreshed with
    /// [`Flow::refresh_at`] ([`AuthErrorKind::InvalidDpop`] and
    /// [`AuthErrorKind::InvalidConfig`] here).
    pub fn refresh(
        resource_url: &str,
        grant: &Grant,
        config: Config,
    ) -> Result<(Flow, Next), AuthError> {
        if grant.dpop_key.is_some() {
            return Err(AuthError::new(
                AuthErrorKind::InvalidDpop,
                "/dpop_key",
                "a DPoP grant is refreshed with a proof: use Flow::refresh_at",
            ));
        }
        // A client assertion needs the time (its `iat` and `exp`) and a fresh `jti`: signed
        // at time 0 from no entropy, every refresh would send the same one.
        if grant.client.auth_method == AuthMethod::PrivateKeyJwt {
            return Err(AuthError::new(
                AuthErrorKind::InvalidConfig,
                "/client/auth_method",
                "a private_key_jwt client signs a fresh assertion for each refresh: use \
                 Flow::refresh_at with the time and random bytes",
            ));
        }
        Flow::refresh_at(resource_url, grant, config, 0, [0; 32])
    }

    /// Begins refreshing `grant`, as [`Flow::refresh`] does, at `now_ms`: a grant bound to a
    /// DPoP key proves the refresh with that key, each proof's `jti` made from `entropy` (32
    /// random bytes).
    pub fn refresh_at(
        resource_url: &str,
        grant: &Grant,
        config: Config,
        now_ms: u64,
        entropy: [u8; 32],
    ) -> Result<(Flow, Next), AuthError> {
        let server = server_url(resource_url)?;
        secure(&server, "", "the server")?;
        let Some(refresh_token) = grant.refresh_token.clone() else {
            return Err(AuthError::new(
                AuthErrorKind::NoRefreshToken,
                "/refresh_token",
                "the grant holds no refresh token; authorize again",
            ));
        };
        if let Some(resource) = grant.resource.as_deref()
            && !parse_web_url(resource).is_some_and(|r| resource_covers(&r, &server))
        {
            return Err(AuthError::new(
                AuthErrorKind::ResourceMismatch,
                "/resource",
                format!(
                    "the grant is for {}, which does not cover {}",
                    quote(resource),
                    quote(server.as_str())
                ),
            ));
        }
        endpoint(
            &grant.token_endpoint,
            "/token_endpoint",
            "the grant",
            AuthErrorKind::InvalidGrant,
        )?;
        let mut form = vec![
            ("grant_type", "refresh_token".to_owned()),
            ("refresh_token", refresh_token.clone()),
        ];
        if let Some(resource) = &grant.resource {
            form.push(("resource", resource.clone()));
        }
        let mut flow = Flow {
            server,
            config,
            stage: Stage::Token,
            challenged: Vec::new(),
            held: Vec::new(),
            previous_client: None,
            authorizations: grant.authorizations,
            pkce: None,
            resource: None,
            metadata: None,
            client: Some(grant.client.clone()),
            scope: grant.scope.clone(),
            code: None,
            refresh_token: Some(refresh_token),
            token: Some(TokenTarget {
                endpoint: grant.token_endpoint.clone(),
                issuer: grant.issuer.clone(),
                resource: grant.resource.clone(),
            }),
            dpop_candidate: None,
            dpop: grant.dpop_key.clone(),
            jti_seed: derive(&entropy, "jti"),
            proofs: 0,
            nonce_retried: false,
            token_form: Vec::new(),
            exchanged: None,
            obtained_by: grant.obtained_by,
            now_ms,
        };
        flow.token_form = form;
        let request = flow.token_fetch(None)?;
        let next = flow.guard(Next::Fetch(request))?;
        Ok((flow, next))
    }

    /// `next`, when it sends no request where the server may not send the client
    /// ([`reachable`]); the flow fails otherwise. Every request leaves the flow through here.
    fn guard(&mut self, next: Next) -> Result<Next, AuthError> {
        if let Next::Fetch(request) = &next {
            let checked = parse_web_url(&request.url)
                .ok_or_else(|| {
                    AuthError::new(
                        AuthErrorKind::InsecureEndpoint,
                        "",
                        format!("{} is not an http(s) URL", quote(&request.url)),
                    )
                })
                .and_then(|target| reachable(&self.server, &target));
            if let Err(e) = checked {
                self.stage = Stage::Failed;
                return Err(e);
            }
        }
        Ok(next)
    }

    /// Reads the response to the last [`Next::Fetch`], received at `now_ms` (milliseconds since
    /// the Unix epoch), and says what comes next.
    pub fn on_response(
        &mut self,
        response: HttpResponse<'_>,
        now_ms: u64,
    ) -> Result<Next, AuthError> {
        if matches!(
            self.stage,
            Stage::Authorization | Stage::Done | Stage::Failed
        ) {
            return Err(self.out_of_order("an HTTP response"));
        }
        self.now_ms = self.now_ms.max(now_ms);
        let stage = std::mem::replace(&mut self.stage, Stage::Failed);
        let next = match stage {
            Stage::ResourceMetadata {
                candidates,
                at,
                hinted,
            } => self.on_resource_metadata(&response, candidates, at, hinted),
            Stage::ServerMetadata {
                candidates,
                at,
                issuer,
                legacy,
            } => self.on_server_metadata(&response, candidates, at, issuer, legacy),
            Stage::Registration { endpoint } => self.on_registration(&response, &endpoint),
            Stage::Exchange { endpoint } => self.on_exchange(&response, &endpoint),
            Stage::Token => self.on_token(&response, now_ms),
            Stage::Authorization | Stage::Done | Stage::Failed => {
                Err(self.out_of_order("an HTTP response"))
            }
        }?;
        self.guard(next)
    }

    /// Reads the redirect: `query` is the query string of the request the browser made to the
    /// redirect URI (with or without its leading `?`).
    ///
    /// Checked in order: no parameter twice ([`AuthErrorKind::InvalidRedirect`]); `state`
    /// ([`AuthErrorKind::StateMismatch`]); `iss`, which must equal the server's issuer exactly
    /// when present and be present when the server advertises it
    /// ([`AuthErrorKind::IssMismatch`], [`AuthErrorKind::IssMissing`]); `error`
    /// ([`AuthErrorKind::AuthorizationDenied`]); `code`. Then the token request.
    ///
    /// A token request proved with DPoP is dated with the latest time given to
    /// [`Flow::on_response`]: [`Flow::on_redirect_at`] dates it with the time of the redirect.
    pub fn on_redirect(&mut self, query: &str) -> Result<Next, AuthError> {
        self.on_redirect_at(query, self.now_ms)
    }

    /// Reads the redirect as [`Flow::on_redirect`] does, received at `now_ms` (milliseconds
    /// since the Unix epoch): the time a DPoP proof of the token request carries.
    pub fn on_redirect_at(&mut self, query: &str, now_ms: u64) -> Result<Next, AuthError> {
        let next = self.redirected(query, now_ms)?;
        self.guard(next)
    }

    fn redirected(&mut self, query: &str, now_ms: u64) -> Result<Next, AuthError> {
        self.now_ms = self.now_ms.max(now_ms);
        if self.stage != Stage::Authorization {
            return Err(self.out_of_order("the redirect"));
        }
        self.stage = Stage::Failed;
        let query = query.strip_prefix('?').unwrap_or(query);
        let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        let param = |name: &str| -> Result<Option<&str>, AuthError> {
            let mut values = pairs.iter().filter(|(n, _)| n == name).map(|(_, v)| v);
            let first = values.next();
            if values.next().is_some() {
                return Err(AuthError::new(
                    AuthErrorKind::InvalidRedirect,
                    format!("/{name}"),
                    format!("the redirect gives `{name}` more than once"),
                ));
            }
            Ok(first.map(String::as_str))
        };
        for name in ["state", "iss", "error", "error_description", "code"] {
            param(name)?;
        }
        let (Some(pkce), Some(metadata)) = (&self.pkce, &self.metadata) else {
            return Err(self.out_of_order("the redirect"));
        };
        if param("state")? != Some(pkce.state.as_str()) {
            return Err(AuthError::new(
                AuthErrorKind::StateMismatch,
                "/state",
                "the redirect's state is not the one this authorization sent: it answers \
                 another request",
            ));
        }
        match param("iss")? {
            Some(iss) if iss != metadata.issuer => {
                return Err(AuthError::new(
                    AuthErrorKind::IssMismatch,
                    "/iss",
                    format!(
                        "the redirect comes from the issuer {}, not {}, the server asked",
                        quote(iss),
                        quote(&metadata.issuer)
                    ),
                ));
            }
            None if metadata.iss_supported => {
                return Err(AuthError::new(
                    AuthErrorKind::IssMissing,
                    "/iss",
                    format!(
                        "the redirect has no iss, though {} says it sends one",
                        quote(&metadata.issuer)
                    ),
                ));
            }
            _ => {}
        }
        if let Some(error) = param("error")? {
            let description = param("error_description")?
                .map(|d| format!(" ({})", quote(&printable(d))))
                .unwrap_or_default();
            return Err(AuthError::new(
                AuthErrorKind::AuthorizationDenied,
                "/error",
                format!(
                    "the authorization server answered {}{description}",
                    quote(&printable(error))
                ),
            ));
        }
        let code = match param("code")? {
            Some(code) if !code.is_empty() => code.to_owned(),
            _ => {
                return Err(AuthError::new(
                    AuthErrorKind::InvalidRedirect,
                    "/code",
                    "the redirect carries no authorization code",
                ));
            }
        };
        let form = vec![
            (
                "grant_type",
                GrantType::AuthorizationCode.as_str().to_owned(),
            ),
            ("code", code.clone()),
            ("redirect_uri", self.config.redirect_uri.clone()),
            ("code_verifier", pkce.verifier.clone()),
        ];
        self.code = Some(code);
        self.send_token(form)
    }

    /// The token request of `form` to the authorization server's token endpoint, with the
    /// `resource` added, authenticated as the client and proved with DPoP when the flow proves
    /// its token requests.
    fn send_token(&mut self, mut form: Vec<(&'static str, String)>) -> Result<Next, AuthError> {
        let Some(metadata) = &self.metadata else {
            return Err(self.out_of_order("a token request"));
        };
        let resource = self.resource.as_ref().map(|r| r.resource.clone());
        if let Some(resource) = &resource {
            form.push(("resource", resource.clone()));
        }
        let offered = metadata.dpop_algs.iter().any(|alg| alg == DPOP_ALG);
        self.token = Some(TokenTarget {
            endpoint: metadata.token_endpoint.clone(),
            issuer: metadata.issuer.clone(),
            resource,
        });
        self.token_form = form;
        self.dpop = match self.config.dpop {
            DpopUse::Always => self.dpop_candidate.take(),
            DpopUse::WhenOffered if offered => self.dpop_candidate.take(),
            DpopUse::WhenOffered | DpopUse::Never => None,
        };
        let request = self.token_fetch(None)?;
        self.stage = Stage::Token;
        Ok(Next::Fetch(request))
    }

    /// The token request of the form kept, to the token endpoint, authenticated as the client
    /// (with a fresh assertion, for `private_key_jwt`) and proved with DPoP when the flow
    /// proves its token requests (with `nonce`, when the server asked for one).
    fn token_fetch(&mut self, nonce: Option<&str>) -> Result<HttpRequest, AuthError> {
        let (Some(target), Some(client)) = (self.token.clone(), self.client.clone()) else {
            return Err(self.out_of_order("a token request"));
        };
        let assertion = self.client_assertion(&client, &target.issuer)?;
        let request = token_request(
            &target.endpoint,
            self.token_form.clone(),
            &client,
            assertion,
        );
        self.prove(request, nonce)
    }

    /// The client assertion `client` authenticates with at the authorization server
    /// `audience` (its issuer), when its method is `private_key_jwt`: signed with the
    /// configured [`ClientKey`] at the latest time given, its `jti` fresh.
    fn client_assertion(
        &mut self,
        client: &Client,
        audience: &str,
    ) -> Result<Option<String>, AuthError> {
        if client.auth_method != AuthMethod::PrivateKeyJwt {
            return Ok(None);
        }
        let Some(key) = &self.config.client_key else {
            return Err(AuthError::new(
                AuthErrorKind::InvalidConfig,
                "/client_key",
                format!(
                    "the client {} authenticates with private_key_jwt, and no client key is \
                     configured",
                    quote(&client.client_id)
                ),
            ));
        };
        let jti = derived_jti(&self.jti_seed, self.proofs);
        self.proofs = self.proofs.saturating_add(1);
        Ok(Some(key.assertion(
            &client.client_id,
            audience,
            self.now_ms,
            &jti,
        )))
    }

    /// The issuer of the authorization server, once its metadata is read (or, for a refresh,
    /// the grant's).
    pub fn issuer(&self) -> Option<&str> {
        match (&self.metadata, &self.token) {
            (Some(m), _) => Some(&m.issuer),
            (None, Some(t)) => Some(&t.issuer),
            (None, None) => None,
        }
    }

    /// The `resource` of the protected resource metadata, exactly as written, once read.
    pub fn resource(&self) -> Option<&str> {
        self.resource.as_ref().map(|r| r.resource.as_str())
    }

    /// The client identity in use, once chosen.
    pub fn client(&self) -> Option<&Client> {
        self.client.as_ref()
    }

    /// The scopes requested, once the authorization request is built.
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// Authorizations in this step-up chain, this one included.
    pub fn authorizations(&self) -> u32 {
        self.authorizations
    }

    fn out_of_order(&self, what: &str) -> AuthError {
        AuthError::new(
            AuthErrorKind::OutOfOrder,
            "",
            format!("{what} was given while the flow is {}", self.stage.name()),
        )
    }

    fn on_resource_metadata(
        &mut self,
        response: &HttpResponse<'_>,
        candidates: Vec<String>,
        at: usize,
        hinted: bool,
    ) -> Result<Next, AuthError> {
        let url = candidates.get(at).cloned().unwrap_or_default();
        match response.status {
            200..=299 => {
                let found =
                    read_resource_metadata(response.body, &self.config.limits, &url, &self.server)?;
                let candidates = server_metadata_candidates(&found.issuer_url);
                let issuer = found.issuer.clone();
                self.resource = Some(found);
                self.fetch_server_metadata(candidates, issuer, false)
            }
            300..=399 => Err(redirected(&url, response)),
            400..=499 => {
                if let Some(next) = candidates.get(at + 1).cloned() {
                    self.stage = Stage::ResourceMetadata {
                        candidates,
                        at: at + 1,
                        hinted,
                    };
                    return Ok(Next::Fetch(HttpRequest::get_json(next)));
                }
                if hinted {
                    return Err(AuthError::new(
                        AuthErrorKind::MetadataNotFound,
                        "",
                        format!(
                            "the protected resource metadata the server names, {}, answered {}",
                            quote(&url),
                            response.status
                        ),
                    ));
                }
                // No protected resource metadata: a 2025-03-26 server, its origin its own
                // authorization server.
                let issuer = origin(&self.server);
                let candidates = Url::parse(&issuer)
                    .map(|u| server_metadata_candidates(&u))
                    .unwrap_or_default();
                self.fetch_server_metadata(candidates, issuer, true)
            }
            status => Err(unexpected(&url, status)),
        }
    }

    fn fetch_server_metadata(
        &mut self,
        candidates: Vec<String>,
        issuer: String,
        legacy: bool,
    ) -> Result<Next, AuthError> {
        let first = candidates.first().cloned().unwrap_or_default();
        self.stage = Stage::ServerMetadata {
            candidates,
            at: 0,
            issuer,
            legacy,
        };
        Ok(Next::Fetch(HttpRequest::get_json(first)))
    }

    fn on_server_metadata(
        &mut self,
        response: &HttpResponse<'_>,
        candidates: Vec<String>,
        at: usize,
        issuer: String,
        legacy: bool,
    ) -> Result<Next, AuthError> {
        let url = candidates.get(at).cloned().unwrap_or_default();
        match response.status {
            200..=299 => {
                let found = read_server_metadata(
                    response.body,
                    &self.config.limits,
                    &url,
                    &issuer,
                    &self.config.grant,
                )?;
                self.with_server(found)
            }
            300..=399 => Err(redirected(&url, response)),
            400..=499 => {
                if let Some(next) = candidates.get(at + 1).cloned() {
                    self.stage = Stage::ServerMetadata {
                        candidates,
                        at: at + 1,
                        issuer,
                        legacy,
                    };
                    return Ok(Next::Fetch(HttpRequest::get_json(next)));
                }
                if legacy {
                    return self.with_server(fallback_server(&issuer));
                }
                Err(AuthError::new(
                    AuthErrorKind::MetadataNotFound,
                    "",
                    format!(
                        "the authorization server {} publishes no metadata at {}",
                        quote(&issuer),
                        candidates
                            .iter()
                            .map(|c| quote(c))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ))
            }
            status => Err(unexpected(&url, status)),
        }
    }

    /// With the authorization server known: a client identity for it, then the
    /// authorization request.
    fn with_server(&mut self, server: ServerMetadata) -> Result<Next, AuthError> {
        if !self.config.grant.is_interactive() {
            return self.unattended(server);
        }
        let issuer = server.issuer.clone();
        let client = if let Some(configured) = self.configured_client(&server) {
            Some(configured)
        } else if let Some(previous) = self.previous_client.take().filter(|c| c.issuer == issuer) {
            Some(previous)
        } else {
            self.config
                .client_metadata_url
                .clone()
                .filter(|_| server.client_metadata_supported)
                .map(|url| Client {
                    client_id: url,
                    client_secret: None,
                    auth_method: AuthMethod::None,
                    issuer,
                })
        };
        let registration = server.registration_endpoint.clone();
        self.metadata = Some(server);
        match (client, registration) {
            (Some(client), _) => {
                self.client = Some(client);
                self.authorize()
            }
            (None, Some(endpoint)) => {
                let request = registration_request(
                    &endpoint,
                    &self.config.client_name,
                    &self.config.redirect_uri,
                );
                self.stage = Stage::Registration { endpoint };
                Ok(Next::Fetch(request))
            }
            (None, None) => Err(AuthError::new(
                AuthErrorKind::NoClientIdentity,
                "",
                format!(
                    "no client identity for {}: none is configured for it, it accepts no \
                     client metadata document{}, and it offers no registration",
                    quote(self.issuer().unwrap_or_default()),
                    if self.config.client_metadata_url.is_none() {
                        " (none is configured)"
                    } else {
                        ""
                    }
                ),
            )),
        }
    }

    /// The pre-registered client, when one is configured for `server` (for any server, or
    /// bound to its issuer by [`Config::client_issuer`]): its method chosen from what it holds
    /// and what the server lists.
    fn configured_client(&self, server: &ServerMetadata) -> Option<Client> {
        let client_id = self.config.client_id.as_ref()?;
        if self
            .config
            .client_issuer
            .as_ref()
            .is_some_and(|bound| *bound != server.issuer)
        {
            return None;
        }
        let secret = self.config.client_secret.clone();
        Some(Client {
            client_id: client_id.clone(),
            auth_method: AuthMethod::choose(
                None,
                secret.is_some(),
                self.config.client_key.is_some(),
                server.auth_methods.as_deref(),
            ),
            client_secret: secret,
            issuer: server.issuer.clone(),
        })
    }

    /// With the authorization server known, a grant for machines: the pre-registered client
    /// (the JWT bearer grant may go without one), the scopes, then the token request; for
    /// enterprise-managed authorization, the token exchange at the identity provider first.
    fn unattended(&mut self, server: ServerMetadata) -> Result<Next, AuthError> {
        let issuer = server.issuer.clone();
        // What a grant for machines presents (a workload's JWT, an ID-JAG for this server)
        // goes to the bound authorization server alone; `check` made sure one is bound.
        let bound = self.config.client_issuer.as_deref();
        if bound.is_some_and(|bound| bound != issuer)
            && matches!(
                self.config.grant,
                GrantType::JwtBearer { .. } | GrantType::Enterprise(_)
            )
        {
            return Err(AuthError::new(
                AuthErrorKind::InvalidConfig,
                "/client_issuer",
                format!(
                    "the server's authorization server is {}, and client_issuer binds the {} \
                     grant to {}: nothing is sent to it",
                    quote(&issuer),
                    self.config.grant.as_str(),
                    quote(bound.unwrap_or_default())
                ),
            ));
        }
        let client = match self.configured_client(&server) {
            Some(client) => client,
            None if matches!(self.config.grant, GrantType::JwtBearer { .. }) => Client {
                client_id: String::new(),
                client_secret: None,
                auth_method: AuthMethod::None,
                issuer: issuer.clone(),
            },
            None => {
                return Err(AuthError::new(
                    AuthErrorKind::NoClientIdentity,
                    "",
                    format!(
                        "the {} grant needs a client pre-registered at {}, and the client id \
                         configured is for {}",
                        self.config.grant.as_str(),
                        quote(&issuer),
                        quote(self.config.client_issuer.as_deref().unwrap_or_default())
                    ),
                ));
            }
        };
        if client.auth_method == AuthMethod::PrivateKeyJwt
            && let Some(algs) = &server.signing_algs
            && !algs.is_empty()
            && !algs.iter().any(|alg| alg == CLIENT_KEY_ALG)
        {
            return Err(AuthError::new(
                AuthErrorKind::InvalidConfig,
                "/client_key",
                format!(
                    "{} accepts client assertions signed with {}, not with {CLIENT_KEY_ALG}, \
                     the one algorithm a client key signs with",
                    quote(&issuer),
                    algs.iter().map(|a| quote(a)).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        let scope = self.chosen_scope(&server.scopes_supported);
        self.metadata = Some(server);
        self.client = Some(client);
        self.scope = scope;
        match &self.config.grant {
            GrantType::AuthorizationCode => self.authorize(),
            GrantType::ClientCredentials => self.machine_token(None),
            GrantType::JwtBearer { assertion } => {
                let assertion = assertion.clone();
                self.machine_token(Some(assertion))
            }
            GrantType::Enterprise(enterprise) => {
                let resource = self.resource.as_ref().map(|r| r.resource.as_str());
                let request =
                    exchange_request(enterprise, &issuer, resource, self.scope.as_deref());
                self.stage = Stage::Exchange {
                    endpoint: enterprise.token_endpoint.clone(),
                };
                Ok(Next::Fetch(request))
            }
        }
    }

    /// Reads the identity provider's answer to the token exchange, then presents the ID-JAG
    /// it issued to the authorization server with the JWT bearer grant.
    fn on_exchange(
        &mut self,
        response: &HttpResponse<'_>,
        endpoint: &str,
    ) -> Result<Next, AuthError> {
        let jag = read_exchange(
            response,
            &self.config.limits,
            endpoint,
            &self.config.grant.secrets(),
        )?;
        self.exchanged = Some(jag.clone());
        self.machine_token(Some(jag))
    }

    /// The token request of a grant for machines: its `grant_type`, the `assertion` it
    /// presents (for a JWT bearer grant) and the scopes chosen.
    fn machine_token(&mut self, assertion: Option<String>) -> Result<Next, AuthError> {
        let mut form = vec![("grant_type", self.config.grant.as_str().to_owned())];
        form.extend(assertion.map(|a| ("assertion", a)));
        form.extend(self.scope.clone().map(|s| ("scope", s)));
        self.send_token(form)
    }

    fn on_registration(
        &mut self,
        response: &HttpResponse<'_>,
        endpoint: &str,
    ) -> Result<Next, AuthError> {
        if (300..400).contains(&response.status) {
            return Err(redirected(endpoint, response));
        }
        let Some(metadata) = &self.metadata else {
            return Err(self.out_of_order("a registration response"));
        };
        let client = read_registration(
            response,
            &self.config.limits,
            endpoint,
            &metadata.issuer,
            metadata.auth_methods.as_deref(),
        )?;
        self.client = Some(client);
        self.authorize()
    }

    /// The scopes to ask for: the challenge's, else the resource's, else the authorization
    /// server's (`server_scopes`), with those held kept (see [`scope::choose`]).
    fn chosen_scope(&self, server_scopes: &[String]) -> Option<String> {
        let supported = self
            .resource
            .as_ref()
            .map(|r| r.scopes_supported.as_slice())
            .unwrap_or_default();
        scope::choose(&self.challenged, supported, &self.held, server_scopes)
    }

    /// The authorization request, with the scopes chosen.
    fn authorize(&mut self) -> Result<Next, AuthError> {
        let (Some(metadata), Some(client), Some(pkce)) = (&self.metadata, &self.client, &self.pkce)
        else {
            return Err(self.out_of_order("an authorization"));
        };
        let scope = self.chosen_scope(&metadata.scopes_supported);
        let mut query = form_urlencoded::Serializer::new(String::new());
        query
            .append_pair("response_type", "code")
            .append_pair("client_id", &client.client_id)
            .append_pair("redirect_uri", &self.config.redirect_uri)
            .append_pair("code_challenge", &pkce.challenge())
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", &pkce.state);
        if let Some(scope) = &scope {
            query.append_pair("scope", scope);
        }
        if let Some(resource) = &self.resource {
            query.append_pair("resource", &resource.resource);
        }
        let authorization = Authorization {
            url: with_query(&metadata.authorization_endpoint, &query.finish()),
            state: pkce.state.clone(),
            redirect_uri: self.config.redirect_uri.clone(),
        };
        self.scope = scope;
        self.stage = Stage::Authorization;
        Ok(Next::Authorize(authorization))
    }

    /// `request` with a fresh DPoP proof (and `nonce`, when the server asked for one), when
    /// the flow proves its token requests.
    fn prove(
        &mut self,
        mut request: HttpRequest,
        nonce: Option<&str>,
    ) -> Result<HttpRequest, AuthError> {
        if let Some(key) = &self.dpop {
            let jti = derived_jti(&self.jti_seed, self.proofs);
            self.proofs = self.proofs.saturating_add(1);
            let proof = key.proof(
                request.method.as_str(),
                &request.url,
                self.now_ms,
                &jti,
                None,
                nonce,
            )?;
            request.headers.push(("dpop".into(), proof));
        }
        Ok(request)
    }

    /// The `DPoP-Nonce` a `400` with `error=use_dpop_nonce` asks for (RFC 9449 §8), when the
    /// token request was proved and not yet sent again with one.
    fn asked_nonce(&self, response: &HttpResponse<'_>) -> Result<Option<String>, AuthError> {
        if self.dpop.is_none() || self.nonce_retried || response.status != 400 {
            return Ok(None);
        }
        let Some(nonce) = response.header("dpop-nonce") else {
            return Ok(None);
        };
        let asked = Document::read(
            response.body,
            &self.config.limits,
            String::from("the token error response"),
            AuthErrorKind::InvalidResponse,
        )
        .ok()
        .is_some_and(|doc| doc.string("error").ok().flatten() == Some("use_dpop_nonce"));
        if !asked {
            return Ok(None);
        }
        check_nonce(nonce)?;
        Ok(Some(nonce.to_owned()))
    }

    fn on_token(&mut self, response: &HttpResponse<'_>, now_ms: u64) -> Result<Next, AuthError> {
        if let Some(nonce) = self.asked_nonce(response)? {
            self.nonce_retried = true;
            let request = self.token_fetch(Some(&nonce))?;
            self.stage = Stage::Token;
            return Ok(Next::Fetch(request));
        }
        let (Some(target), Some(client)) = (&self.token, &self.client) else {
            return Err(self.out_of_order("a token response"));
        };
        let mut secrets: Vec<&str> = Vec::new();
        secrets.extend(self.code.as_deref());
        secrets.extend(self.pkce.as_ref().map(|p| p.verifier.as_str()));
        secrets.extend(client.client_secret.as_deref());
        secrets.extend(self.refresh_token.as_deref());
        secrets.extend(self.config.grant.secrets());
        secrets.extend(self.exchanged.as_deref());
        let context = TokenRequestContext {
            token_endpoint: &target.endpoint,
            issuer: &target.issuer,
            resource: target.resource.as_deref(),
            client,
            scope: self.scope.as_deref(),
            refresh_token: self.refresh_token.as_deref(),
            authorizations: self.authorizations,
            secrets: &secrets,
            dpop_key: self.dpop.as_ref(),
            obtained_by: self.obtained_by,
        };
        let grant = read_token_response(response, &self.config.limits, now_ms, &context)?;
        self.stage = Stage::Done;
        Ok(Next::Done(grant))
    }
}

impl fmt::Debug for Flow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Flow")
            .field("server", &self.server.as_str())
            .field("stage", &self.stage.name())
            .field("issuer", &self.issuer())
            .field("authorizations", &self.authorizations)
            .finish_non_exhaustive()
    }
}

/// `resource_url` as the MCP server's URL.
fn server_url(resource_url: &str) -> Result<Url, AuthError> {
    parse_web_url(resource_url).ok_or_else(|| {
        AuthError::new(
            AuthErrorKind::InvalidConfig,
            "",
            format!(
                "the server URL {} is not an absolute http(s) URL",
                quote(resource_url)
            ),
        )
    })
}

/// `endpoint` with `query` added to the query it may have already (RFC 6749 §3.1: the
/// endpoint's own query is kept).
fn with_query(endpoint: &str, query: &str) -> String {
    let separator = match endpoint.split_once('?') {
        None => "?",
        Some((_, "")) => "",
        Some((_, own)) if own.ends_with('&') => "",
        Some(_) => "&",
    };
    format!("{endpoint}{separator}{query}")
}

/// A token request to `endpoint` of `form`, authenticated as `client` (with `assertion`, for
/// `private_key_jwt`).
fn token_request(
    endpoint: &str,
    mut form: Vec<(&'static str, String)>,
    client: &Client,
    assertion: Option<String>,
) -> HttpRequest {
    let mut headers = Vec::new();
    client.authenticate(&mut form, &mut headers, assertion);
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form.iter().map(|(k, v)| (*k, v.as_str())))
        .finish();
    let mut request = HttpRequest::post(
        endpoint.to_owned(),
        "application/x-www-form-urlencoded",
        body.into_bytes(),
    );
    request.headers.extend(headers);
    request
}

/// The error for a metadata URL that answered `status`, neither success, redirect nor client
/// error.
fn unexpected(url: &str, status: u16) -> AuthError {
    AuthError::new(
        AuthErrorKind::UnexpectedStatus,
        "",
        format!("{} answered {status}", quote(url)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenge::parse_challenge;

    #[test]
    fn queries_are_added_to_the_endpoints_own() {
        assert_eq!(
            with_query("https://a/authorize", "x=1"),
            "https://a/authorize?x=1"
        );
        assert_eq!(
            with_query("https://a/authorize?t=2", "x=1"),
            "https://a/authorize?t=2&x=1"
        );
        assert_eq!(
            with_query("https://a/authorize?", "x=1"),
            "https://a/authorize?x=1"
        );
        assert_eq!(
            with_query("https://a/authorize?t=2&", "x=1"),
            "https://a/authorize?t=2&x=1"
        );
    }

    #[test]
    fn debug_forms_hide_secrets() {
        let config = Config {
            client_id: Some("id".into()),
            client_secret: Some("hunter2".into()),
            client_issuer: Some("http://localhost:2".into()),
            ..Config::new("t", "http://127.0.0.1:1/cb")
        };
        let shown = format!("{config:?}");
        assert!(
            shown.contains("\"id\"") && !shown.contains("hunter2"),
            "{shown}"
        );
        let (flow, _) = Flow::start(
            "http://localhost:1/mcp",
            &parse_challenge(401, None),
            config,
            None,
            [3; 64],
        )
        .unwrap();
        let shown = format!("{flow:?}");
        assert!(
            shown.contains("fetching the protected resource metadata"),
            "{shown}"
        );
        assert!(!shown.contains("hunter2"));
        assert_eq!(flow.authorizations(), 1);
        assert_eq!(
            (flow.issuer(), flow.resource(), flow.client(), flow.scope()),
            (None, None, None, None)
        );
    }

    #[test]
    fn the_defaults() {
        let config = Config::new("t", "http://127.0.0.1:1/cb");
        assert_eq!(config.max_authorizations, 3);
        assert_eq!(config.limits.max_input_bytes(), 256 * 1024);
        assert_eq!(config.limits.max_depth(), 16);
        assert!(config.check().is_ok());
        assert_eq!(config.dpop, DpopUse::default());
        for dpop in DpopUse::ALL {
            assert_eq!(DpopUse::from_name(dpop.as_str()), Some(dpop));
        }
        assert_eq!(DpopUse::from_name("when_offered"), None);
        for stage in [
            Stage::Authorization,
            Stage::Token,
            Stage::Done,
            Stage::Failed,
        ] {
            assert!(!stage.name().is_empty());
        }
    }
}
