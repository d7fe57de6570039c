//! The grants for machines: client credentials, the JWT bearer grant and enterprise-managed
//! authorization (the token exchange at the identity provider first), unattended.

use crate::client::{AuthMethod, Client};
use crate::client_key::CLIENT_KEY_ALG;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant_type::{GrantType, exchange_request, read_exchange};
use crate::http::HttpResponse;
use crate::metadata::ServerMetadata;
use crate::secret::Secret;

use super::{Flow, Next, Stage};

impl Flow {
    /// With the authorization server known, a grant for machines: the pre-registered client
    /// (the JWT bearer grant may go without one), the scopes, then the token request; for
    /// enterprise-managed authorization, the token exchange at the identity provider first.
    pub(super) fn unattended(&mut self, server: ServerMetadata) -> Result<Next, AuthError> {
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
            GrantType::AuthorizationCode | GrantType::DeviceCode => self.authorize(),
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
    pub(super) fn on_exchange(
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
    pub(super) fn machine_token(&mut self, assertion: Option<Secret>) -> Result<Next, AuthError> {
        let mut form = vec![("grant_type", Secret::from(self.config.grant.as_str()))];
        form.extend(assertion.map(|a| ("assertion", a)));
        form.extend(self.scope.as_deref().map(|s| ("scope", Secret::from(s))));
        self.send_token(form)
    }
}
