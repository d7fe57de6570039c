//! The token requests (the client authenticated, the request proved when the flow proves
//! them) and their answers read into a [`Grant`](crate::Grant).

use crate::client::{AuthMethod, Client};
use crate::dpop::{DPOP_ALG, derived_jti};
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant::{TokenRequestContext, read_token_response};
use crate::http::{HttpRequest, HttpResponse};
use crate::secret::Secret;

use super::dpop::DpopUse;
use super::{Flow, Next, Stage, TokenTarget};

impl Flow {
    /// The token request of `form` to the authorization server's token endpoint, with the
    /// `resource` added, authenticated as the client and proved with DPoP when the flow proves
    /// its token requests.
    pub(super) fn send_token(
        &mut self,
        mut form: Vec<(&'static str, Secret)>,
    ) -> Result<Next, AuthError> {
        let Some(metadata) = &self.metadata else {
            return Err(self.out_of_order("a token request"));
        };
        let resource = self.resource.as_ref().map(|r| r.resource.clone());
        if let Some(resource) = &resource {
            form.push(("resource", Secret::from(resource.as_str())));
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
    pub(super) fn token_fetch(&mut self, nonce: Option<&str>) -> Result<HttpRequest, AuthError> {
        let (Some(target), Some(client)) = (self.token.clone(), self.client.clone()) else {
            return Err(self.out_of_order("a token request"));
        };
        let assertion = self.client_assertion(&client, &target.issuer)?;
        self.presented = assertion.iter().cloned().collect();
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
    pub(super) fn client_assertion(
        &mut self,
        client: &Client,
        audience: &str,
    ) -> Result<Option<Secret>, AuthError> {
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
        let jti = derived_jti(self.jti_seed.expose_bytes(), self.proofs);
        self.proofs = self.proofs.saturating_add(1);
        Ok(Some(Secret::from(key.assertion(
            &client.client_id,
            audience,
            self.now_ms,
            &jti,
        ))))
    }

    pub(super) fn on_token(
        &mut self,
        response: &HttpResponse<'_>,
        now_ms: u64,
    ) -> Result<Next, AuthError> {
        if let Some(nonce) = self.asked_nonce(response)? {
            self.nonce_retried = true;
            let request = self.token_fetch(Some(&nonce))?;
            self.stage = Stage::Token;
            return Ok(Next::Fetch(request));
        }
        if let Some(next) = self.device_pending(response, now_ms)? {
            return Ok(next);
        }
        let (Some(target), Some(client)) = (&self.token, &self.client) else {
            return Err(self.out_of_order("a token response"));
        };
        let mut secrets: Vec<&str> = Vec::new();
        secrets.extend(self.code.as_ref().map(Secret::expose));
        secrets.extend(self.pkce.as_ref().map(|p| p.verifier.expose()));
        secrets.extend(client.client_secret.as_ref().map(Secret::expose));
        secrets.extend(self.refresh_token.as_ref().map(Secret::expose));
        secrets.extend(self.config.grant.secrets());
        secrets.extend(self.exchanged.as_ref().map(Secret::expose));
        secrets.extend(self.device.as_ref().map(|d| d.device_code.expose()));
        secrets.extend(self.presented.iter().map(Secret::expose));
        let context = TokenRequestContext {
            token_endpoint: &target.endpoint,
            issuer: &target.issuer,
            resource: target.resource.as_deref(),
            client,
            scope: self.scope.as_deref(),
            refresh_token: self.refresh_token.as_ref().map(Secret::expose),
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

/// A token request to `endpoint` of `form`, authenticated as `client` (with `assertion`, for
/// `private_key_jwt`).
pub(super) fn token_request(
    endpoint: &str,
    mut form: Vec<(&'static str, Secret)>,
    client: &Client,
    assertion: Option<Secret>,
) -> HttpRequest {
    let mut headers = Vec::new();
    client.authenticate(&mut form, &mut headers, assertion);
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form.iter().map(|(k, v)| (*k, v.expose())))
        .finish();
    let mut request = HttpRequest::post(
        endpoint.to_owned(),
        "application/x-www-form-urlencoded",
        body.into_bytes(),
    );
    request.headers.extend(headers);
    request
}
