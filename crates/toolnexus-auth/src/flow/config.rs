//! What the caller configures: [`Config`], the client's identity and the bounds of a flow,
//! and [`Config::check`], which refuses one the flow cannot use.

use toolnexus_core::json::Limits;
use url::Url;

use crate::client_key::ClientKey;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant::Grant;
use crate::grant_type::{GrantKind, GrantType};
use crate::metadata::issuer_url;
use crate::options::{AuthOption, check_options};
use crate::secret::Secret;
use crate::urls::{endpoint, parse_web_url, resource_covers};

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
        // Which options go with which grant: the rule every host shares.
        check_options(self.grant.kind(), &self.given()).map_err(|problem| {
            AuthError::new(
                AuthErrorKind::InvalidConfig,
                problem.option().pointer(),
                problem.message(|o| String::from(o.as_str()), |g| format!("grant {g}")),
            )
        })?;
        if let Some(issuer) = &self.client_issuer {
            issuer_url(issuer, "/client_issuer", "the configured client issuer").map_err(|e| {
                AuthError::new(AuthErrorKind::InvalidConfig, e.pointer(), e.message())
            })?;
        }
        if let GrantType::Enterprise(enterprise) = &self.grant {
            endpoint(
                &enterprise.token_endpoint,
                "/grant/token_endpoint",
                "the identity provider's token endpoint",
                AuthErrorKind::InvalidConfig,
            )?;
        }
        Ok(())
    }
}

impl Config {
    /// The options this configuration was given, as [`check_options`] names them: an empty
    /// text counts as not given.
    fn given(&self) -> Vec<AuthOption> {
        let mut given = Vec::new();
        let mut add = |option: AuthOption, set: bool| {
            if set {
                given.push(option);
            }
        };
        add(AuthOption::ClientId, self.client_id.is_some());
        add(AuthOption::ClientSecret, self.client_secret.is_some());
        add(AuthOption::ClientIssuer, self.client_issuer.is_some());
        add(
            AuthOption::ClientMetadataUrl,
            self.client_metadata_url.is_some(),
        );
        add(AuthOption::ClientKey, self.client_key.is_some());
        match &self.grant {
            GrantType::AuthorizationCode | GrantType::ClientCredentials | GrantType::DeviceCode => {
            }
            GrantType::JwtBearer { assertion } => {
                add(AuthOption::Assertion, !assertion.expose().is_empty())
            }
            GrantType::Enterprise(enterprise) => {
                add(
                    AuthOption::IdToken,
                    !enterprise.id_token.expose().is_empty(),
                );
                add(
                    AuthOption::IdpTokenEndpoint,
                    !enterprise.token_endpoint.is_empty(),
                );
                add(AuthOption::IdpClientId, enterprise.client_id.is_some());
                add(
                    AuthOption::IdpClientSecret,
                    enterprise.client_secret.is_some(),
                );
            }
        }
        given
    }
}

/// Why a kept grant may not serve a command made with a [`Config`] ([`Config::reuses`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotReused {
    /// It was obtained by another grant: a job never acts with a person's token, nor a
    /// person with a job's.
    OtherGrant {
        /// The grant that obtained it.
        kept: GrantKind,
        /// The grant the command asks for.
        asked: GrantKind,
    },
    /// It is another client's: a grant for machines acts only as the client that got it.
    OtherClient,
    /// It is from another authorization server than the one `client_issuer` binds.
    OtherIssuer,
    /// It is for a resource that does not cover the server.
    OtherResource,
}

impl NotReused {
    /// Why, in words, each grant spelled as the host spells it.
    pub fn message(&self, grant: impl Fn(GrantKind) -> String) -> String {
        match self {
            NotReused::OtherGrant { kept, asked } => format!(
                "the authorization kept for this server was obtained by {}, and this command \
                 asks for {}: it is not used",
                grant(*kept),
                grant(*asked)
            ),
            NotReused::OtherClient => String::from(
                "the authorization kept for this server is another client's: it is not used",
            ),
            NotReused::OtherIssuer => String::from(
                "the authorization kept for this server is from another authorization server \
                 than the one the client is bound to: it is not used",
            ),
            NotReused::OtherResource => String::from(
                "the authorization kept for this server is for another resource: it is not used",
            ),
        }
    }
}

impl Config {
    /// Whether the kept `grant` may serve a command with this configuration at the MCP server
    /// `server`: obtained by the grant asked for; for a grant for machines, by the same
    /// client; from the authorization server `client_issuer` binds, when one does; for a
    /// resource that covers the server.
    pub fn reuses(&self, grant: &Grant, server: &str) -> Result<(), NotReused> {
        let asked = self.grant.kind();
        if grant.obtained_by != asked {
            return Err(NotReused::OtherGrant {
                kept: grant.obtained_by,
                asked,
            });
        }
        let client = self.client_id.as_deref().unwrap_or_default();
        let persons = matches!(asked, GrantKind::AuthorizationCode | GrantKind::DeviceCode);
        if !persons && grant.client.client_id != client {
            return Err(NotReused::OtherClient);
        }
        if self
            .client_issuer
            .as_deref()
            .is_some_and(|bound| bound != grant.issuer)
        {
            return Err(NotReused::OtherIssuer);
        }
        if let Some(resource) = &grant.resource {
            let covered = parse_web_url(resource)
                .zip(parse_web_url(server))
                .is_some_and(|(resource, server)| resource_covers(&resource, &server));
            if !covered {
                return Err(NotReused::OtherResource);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(obtained_by: &str, client: &str, issuer: &str, resource: &str) -> Grant {
        let by = match obtained_by {
            "authorization_code" => String::new(),
            name => format!(r#","obtained_by":"{name}""#),
        };
        let text = format!(
            r#"{{"version":1,"access_token":"t","token_type":"Bearer","issuer":"{issuer}","resource":"{resource}","token_endpoint":"{issuer}/token","client":{{"client_id":"{client}","auth_method":"none","issuer":"{issuer}"}}{by}}}"#
        );
        Grant::from_json(text.as_bytes(), &Config::DEFAULT_LIMITS).unwrap()
    }

    #[test]
    fn a_kept_grant_serves_its_grant_client_issuer_and_resource_alone() {
        let server = "https://mcp.example/mcp";
        let person = Config::new("t", "http://127.0.0.1/cb");
        let machine = Config {
            client_id: Some("job".into()),
            client_secret: Some("s".into()),
            client_issuer: Some("https://as.example".into()),
            grant: GrantType::ClientCredentials,
            ..Config::new("t", "http://127.0.0.1/cb")
        };
        let signed_in = kept("authorization_code", "c", "https://as.example", server);
        let job = kept("client_credentials", "job", "https://as.example", server);
        assert_eq!(person.reuses(&signed_in, server), Ok(()));
        assert_eq!(machine.reuses(&job, server), Ok(()));
        assert_eq!(
            machine.reuses(&signed_in, server),
            Err(NotReused::OtherGrant {
                kept: GrantKind::AuthorizationCode,
                asked: GrantKind::ClientCredentials
            })
        );
        let other_job = kept("client_credentials", "other", "https://as.example", server);
        assert_eq!(
            machine.reuses(&other_job, server),
            Err(NotReused::OtherClient)
        );
        let elsewhere = kept("client_credentials", "job", "https://evil.example", server);
        assert_eq!(
            machine.reuses(&elsewhere, server),
            Err(NotReused::OtherIssuer)
        );
        let other_resource = kept(
            "authorization_code",
            "c",
            "https://as.example",
            "https://mcp.example/other",
        );
        assert_eq!(
            person.reuses(&other_resource, server),
            Err(NotReused::OtherResource)
        );
        assert!(
            NotReused::OtherGrant {
                kept: GrantKind::AuthorizationCode,
                asked: GrantKind::JwtBearer
            }
            .message(|g| format!("grant={g}"))
            .contains(
                "obtained by grant=authorization_code, and this command asks for grant=jwt_bearer"
            )
        );
    }
}
