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
//!
//! Beyond the MCP specification, the device authorization grant (RFC 8628) takes the same
//! discovery and client identity, then asks the `device_authorization_endpoint` for a code,
//! which the person enters at the verification URI on any device ([`DeviceCode`]), while the
//! caller polls the token endpoint when each [`Next::Poll`] says.
//!
//! This module holds the flow's state and its entry points; each step is a file of its own:
//! `discovery` (the metadata), `identity` (the client, for a person's grant), `code` (the
//! authorization request and the redirect), `device` (the device grant's code and its
//! polls), `machine` (the grants for machines), `token` (the
//! token requests and their answers) and `dpop` (when and how they are proved), with `config`
//! (what the caller configures, checked before anything is sent).

use toolnexus_core::{Error as CoreError, Request};
use url::Url;

use crate::challenge::Challenge;
use crate::client::{AuthMethod, Client};
use crate::dpop::{DpopKey, derive};
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant::Grant;
use crate::grant_type::GrantKind;
use crate::http::{HttpRequest, HttpResponse};
use crate::metadata::{ResourceMetadata, ServerMetadata};
use crate::pkce::Pkce;
use crate::scope;
use crate::secret::Secret;
use crate::urls::{
    endpoint, parse_web_url, reachable, resource_covers, resource_metadata_candidates, secure,
};

mod code;
mod config;
mod device;
mod discovery;
mod dpop;
mod identity;
mod machine;
mod token;

pub use config::{Config, NotReused};
pub use device::{DeviceCode, Poll};
pub use dpop::DpopUse;

use device::DeviceState;

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

impl Authorization {
    /// The person's consent to opening the link, as the contract asks any question: a
    /// `Request` of `kind: "authorization"` whose `url` is [`Authorization::url`], with the id
    /// `id`, saying that `client_name` wants to use the MCP server at `server`. A host shows it
    /// as it shows a URL-mode elicitation, the core's review of the link included, and opens
    /// the link only on an accept.
    ///
    /// Refused as [`Request::new`] refuses an id (empty or too long).
    pub fn consent_request(
        &self,
        id: impl Into<String>,
        client_name: &str,
        server: &str,
    ) -> Result<Request, CoreError> {
        let prompt = format!(
            "Sign in at the authorization server's page to let {client_name} use {server}; the \
             browser then comes back to {}.",
            self.redirect_uri
        );
        Ok(Request::new(id, Request::KIND_AUTHORIZATION, prompt)?.with_url(self.url.as_str()))
    }
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
    /// The device grant (RFC 8628) waits for the person: show [`Poll::code`] on the first
    /// poll, send [`Poll::request`] at [`Poll::at_ms`] or later, without following
    /// redirects, and hand the response to [`Flow::on_response`].
    Poll(Poll),
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
    /// Asking the device authorization endpoint `endpoint` for a code.
    DeviceAuthorization { endpoint: String },
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
            Stage::DeviceAuthorization { .. } => "asking for a device code",
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
/// [`Next::Fetch`], shows each [`Next::Authorize`], sends each [`Next::Poll`] when it says, and
/// passes the time and the randomness in.
/// After an error the flow is over; every later call is [`AuthErrorKind::OutOfOrder`]. Its
/// `Debug` form shows no secret.
#[derive(Debug)]
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
    code: Option<Secret>,
    /// The refresh token sent, for a refresh.
    refresh_token: Option<Secret>,
    token: Option<TokenTarget>,
    /// The DPoP key this flow would prove its token requests with, made from its entropy.
    dpop_candidate: Option<DpopKey>,
    /// The DPoP key the token requests are proved with, once chosen.
    dpop: Option<DpopKey>,
    /// The seed of the proofs' `jti`s, made from the flow's entropy.
    jti_seed: Secret<[u8; 32]>,
    /// Proofs made so far: each `jti` is made of the seed and this count.
    proofs: u64,
    /// Whether the token request was sent again with the server's `DPoP-Nonce` already.
    nonce_retried: bool,
    /// The form of the token request, before the client's authentication: built again (a
    /// fresh client assertion, a fresh proof) to send it again with a nonce.
    token_form: Vec<(&'static str, Secret)>,
    /// The ID-JAG the identity provider issued (enterprise-managed authorization), kept out
    /// of messages.
    exchanged: Option<Secret>,
    /// The client assertion and the DPoP proof of the token request last sent: a server that
    /// echoes one in its refusal sees it redacted.
    presented: Vec<Secret>,
    /// The grant the token is obtained by: the configured one, or for a refresh the
    /// refreshed grant's.
    obtained_by: GrantKind,
    /// The latest time the caller gave, in milliseconds since the Unix epoch.
    now_ms: u64,
    /// The device grant's code and its polls, once the code is issued.
    device: Option<DeviceState>,
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
        let obtained_by = config.grant.kind();
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
            jti_seed: Secret::new(derive(&entropy, "jti")),
            proofs: 0,
            nonce_retried: false,
            token_form: Vec::new(),
            exchanged: None,
            presented: Vec::new(),
            obtained_by,
            now_ms: 0,
            device: None,
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
                "a DPoP grant is refreshed with a proof, which needs the time and random bytes: \
                 refresh it with them",
            ));
        }
        // A client assertion needs the time (its `iat` and `exp`) and a fresh `jti`: signed
        // at time 0 from no entropy, every refresh would send the same one.
        if grant.client.auth_method == AuthMethod::PrivateKeyJwt {
            return Err(AuthError::new(
                AuthErrorKind::InvalidConfig,
                "/client/auth_method",
                "a private_key_jwt client signs a fresh assertion for each refresh, which needs \
                 the time and random bytes: refresh it with them",
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
            ("grant_type", Secret::from("refresh_token")),
            ("refresh_token", refresh_token.clone()),
        ];
        if let Some(resource) = &grant.resource {
            form.push(("resource", Secret::from(resource.as_str())));
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
            jti_seed: Secret::new(derive(&entropy, "jti")),
            proofs: 0,
            nonce_retried: false,
            token_form: Vec::new(),
            exchanged: None,
            presented: Vec::new(),
            obtained_by: grant.obtained_by,
            now_ms,
            device: None,
        };
        flow.token_form = form;
        let request = flow.token_fetch(None)?;
        let next = flow.guard(Next::Fetch(request))?;
        Ok((flow, next))
    }

    /// `next`, when it sends no request where the server may not send the client
    /// ([`reachable`]); the flow fails otherwise. Every request leaves the flow through here.
    fn guard(&mut self, next: Next) -> Result<Next, AuthError> {
        let request = match &next {
            Next::Fetch(request) => Some(request),
            Next::Poll(poll) => Some(&poll.request),
            Next::Authorize(_) | Next::Done(_) => None,
        };
        if let Some(request) = request {
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

    /// Reads the response to the last [`Next::Fetch`] (or [`Next::Poll`]), received at `now_ms` (milliseconds since
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
            Stage::DeviceAuthorization { endpoint } => {
                self.on_device_authorization(&response, &endpoint, now_ms)
            }
            Stage::Token => self.on_token(&response, now_ms),
            Stage::Authorization | Stage::Done | Stage::Failed => {
                Err(self.out_of_order("an HTTP response"))
            }
        }?;
        self.guard(next)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenge::parse_challenge;

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
        assert!(shown.contains("ResourceMetadata"), "{shown}");
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
            Stage::DeviceAuthorization {
                endpoint: String::new(),
            },
            Stage::Authorization,
            Stage::Token,
            Stage::Done,
            Stage::Failed,
        ] {
            assert!(!stage.name().is_empty());
        }
    }
}
