//! What the caller configures: [`Config`], the client's identity and the bounds of a flow,
//! and [`Config::check`], which refuses one the flow cannot use.

use toolnexus_core::json::Limits;
use url::Url;

use crate::client_key::ClientKey;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant_type::GrantType;
use crate::metadata::issuer_url;
use crate::secret::Secret;
use crate::urls::{endpoint, parse_web_url};

use super::dpop::DpopUse;

/// What the caller configures: the client's identity and the bounds of the flow. Its `Debug`
/// form shows no secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// A pre-registered `client_id`, used before any other identity (with
    /// [`client_issuer`](Config::client_issuer), only at that server).
    pub client_id: Option<String>,
    /// The secret of the pre-registered client, if it is confidential.
    pub client_secret: Option<Secret>,
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
    /// pointer of the member at fault, such as `/client_issuer`): every [`Flow::start`](super::Flow::start) runs
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
                if assertion.expose().is_empty() {
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
                if enterprise.id_token.expose().is_empty() {
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
