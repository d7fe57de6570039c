//! The authorization code grant: the authorization request with PKCE, and the redirect
//! checked (`state`, `iss`, `error`) before its code is exchanged.

use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant_type::GrantType;
use crate::refusal::printable;
use crate::secret::Secret;

use super::{Authorization, Flow, Next, Stage};

impl Flow {
    /// The authorization request, with the scopes chosen (for the device grant, the device
    /// authorization request).
    pub(super) fn authorize(&mut self) -> Result<Next, AuthError> {
        if self.config.grant == GrantType::DeviceCode {
            return self.device_authorize();
        }
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

    pub(super) fn redirected(&mut self, query: &str, now_ms: u64) -> Result<Next, AuthError> {
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
            Some(code) if !code.is_empty() => Secret::from(code),
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
                Secret::from(GrantType::AuthorizationCode.as_str()),
            ),
            ("code", code.clone()),
            (
                "redirect_uri",
                Secret::from(self.config.redirect_uri.as_str()),
            ),
            ("code_verifier", pkce.verifier.clone()),
        ];
        self.code = Some(code);
        self.send_token(form)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
