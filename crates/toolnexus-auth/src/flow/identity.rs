//! The client's identity at the authorization server, for a person's grant: the
//! pre-registered client, the previous grant's, a Client ID Metadata Document, or a dynamic
//! registration (RFC 7591).

use crate::client::{AuthMethod, Client, read_registration, registration_request};
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant_type::GrantType;
use crate::http::HttpResponse;
use crate::metadata::ServerMetadata;
use crate::refusal::redirected;

use super::{Flow, Next, Stage};

impl Flow {
    /// With the authorization server known: a client identity for it, then the
    /// authorization request (or, for the device grant, the device authorization request).
    pub(super) fn with_server(&mut self, server: ServerMetadata) -> Result<Next, AuthError> {
        if !self.config.grant.has_person() {
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
                    self.config.grant == GrantType::DeviceCode,
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
    pub(super) fn configured_client(&self, server: &ServerMetadata) -> Option<Client> {
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

    pub(super) fn on_registration(
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
}
