//! The device authorization grant (RFC 8628), beyond the MCP specification: the device
//! authorization request, the code a person is shown, and the token requests paced by the
//! server's `interval` until the person authorizes, denies, or the code expires.

use toolnexus_core::{Error as CoreError, Request};

use crate::document::Document;
use crate::dpop::check_nonce;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant_type::DEVICE_CODE;
use crate::http::{HttpRequest, HttpResponse};
use crate::refusal::{oauth_error, redirected, refusal};
use crate::secret::Secret;
use crate::urls::endpoint;

use super::token::token_request;
use super::{Flow, Next, Stage};

/// The interval between token requests when the server names none (RFC 8628 §3.2).
pub(super) const DEFAULT_INTERVAL_MS: u64 = 5_000;
/// The shortest interval the flow keeps, whatever the server says: it is never asked to
/// poll in a loop.
pub(super) const MIN_INTERVAL_MS: u64 = 1_000;
/// What a `slow_down` adds to the interval (RFC 8628 §3.5).
pub(super) const SLOW_DOWN_MS: u64 = 5_000;

/// What the person is shown in the device grant: where to go, and the code to enter there.
/// Everything in it is the authorization server's text: a host shows it as untrusted text,
/// and reviews the links as it reviews any link before a person opens one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceCode {
    /// The code the person enters at [`DeviceCode::verification_uri`].
    pub user_code: String,
    /// Where the person goes, on any device (`https`, or `http` on loopback).
    pub verification_uri: String,
    /// The verification URI with the code in it, when the server gives one: opening it
    /// spares typing the code.
    pub verification_uri_complete: Option<String>,
    /// When the code expires, in milliseconds since the Unix epoch: the flow stops then.
    pub expires_at_ms: u64,
}

impl DeviceCode {
    /// The link to show: the complete verification URI when there is one, else the
    /// verification URI.
    pub fn link(&self) -> &str {
        self.verification_uri_complete
            .as_deref()
            .unwrap_or(&self.verification_uri)
    }

    /// The person's consent to signing in, as the contract asks any question: a `Request` of
    /// `kind: "authorization"` whose `url` is [`DeviceCode::link`], with the id `id`, saying
    /// that `client_name` wants to use the MCP server at `server` and which code to enter. A
    /// host shows it as it shows a URL-mode elicitation, the core's review of the link
    /// included.
    ///
    /// Refused as [`Request::new`] refuses an id (empty or too long).
    pub fn consent_request(
        &self,
        id: impl Into<String>,
        client_name: &str,
        server: &str,
    ) -> Result<Request, CoreError> {
        let prompt = format!(
            "Sign in at the authorization server's page, on any device, and enter the code {} \
             to let {client_name} use {server}.",
            quote(&self.user_code)
        );
        Ok(Request::new(id, Request::KIND_AUTHORIZATION, prompt)?.with_url(self.link()))
    }
}

/// One token request of the device grant: send [`Poll::request`] at [`Poll::at_ms`] or later
/// (the flow never sleeps), without following redirects, and hand the response to
/// [`Flow::on_response`]. Show [`Poll::code`] to the person on the first poll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Poll {
    /// What the person is shown: the same on every poll of one flow.
    pub code: DeviceCode,
    /// When to send the request, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// Which poll this is, from 1: the first is when to show the code.
    pub attempt: u32,
    /// The token request.
    pub request: HttpRequest,
}

/// What the flow keeps of a device authorization.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DeviceState {
    /// The device code, presented at each poll, kept out of messages.
    pub(super) device_code: Secret,
    pub(super) code: DeviceCode,
    /// The interval between polls, grown by each `slow_down`.
    pub(super) interval_ms: u64,
    /// Polls so far.
    pub(super) attempt: u32,
}

impl Flow {
    /// The device authorization request (RFC 8628 §3.1), with the scopes chosen and the
    /// `resource`, authenticated as the client.
    pub(super) fn device_authorize(&mut self) -> Result<Next, AuthError> {
        let (Some(metadata), Some(client)) = (&self.metadata, &self.client) else {
            return Err(self.out_of_order("a device authorization"));
        };
        let Some(at) = metadata.device_authorization_endpoint.clone() else {
            return Err(AuthError::new(
                AuthErrorKind::GrantNotSupported,
                "/device_authorization_endpoint",
                format!(
                    "{} does not offer the device authorization grant: its metadata has no \
                     device_authorization_endpoint",
                    quote(&metadata.issuer)
                ),
            ));
        };
        let scope = self.chosen_scope(&metadata.scopes_supported);
        let issuer = metadata.issuer.clone();
        let client = client.clone();
        let mut form = Vec::new();
        form.extend(scope.as_deref().map(|s| ("scope", Secret::from(s))));
        form.extend(
            self.resource
                .as_ref()
                .map(|r| ("resource", Secret::from(r.resource.as_str()))),
        );
        let assertion = self.client_assertion(&client, &issuer)?;
        self.presented = assertion.iter().cloned().collect();
        let request = token_request(&at, form, &client, assertion);
        self.scope = scope;
        self.stage = Stage::DeviceAuthorization { endpoint: at };
        Ok(Next::Fetch(request))
    }

    /// Reads the device authorization response (RFC 8628 §3.2) of `at`, received at
    /// `now_ms`: the code to show, then the first poll.
    ///
    /// Refused: a redirect ([`AuthErrorKind::Redirected`]); an error status
    /// ([`AuthErrorKind::TokenRefused`], with the OAuth error); no `device_code`, `user_code`,
    /// `verification_uri` or `expires_in`, or a verification URI that is not an `https` (or
    /// loopback `http`) URL ([`AuthErrorKind::InvalidResponse`],
    /// [`AuthErrorKind::InsecureEndpoint`]).
    pub(super) fn on_device_authorization(
        &mut self,
        response: &HttpResponse<'_>,
        at: &str,
        now_ms: u64,
    ) -> Result<Next, AuthError> {
        if (300..400).contains(&response.status) {
            return Err(redirected(at, response));
        }
        let what = format!("the device authorization response of {}", quote(at));
        let secrets: Vec<&str> = self.presented.iter().map(Secret::expose).collect();
        if !(200..300).contains(&response.status) {
            let code = refusal(response, &self.config.limits, what, &secrets);
            return Err(AuthError::new(
                AuthErrorKind::TokenRefused,
                "",
                format!(
                    "the device authorization endpoint {} answered {}{}",
                    quote(at),
                    response.status,
                    code.map(|c| format!(" with {c}")).unwrap_or_default()
                ),
            ));
        }
        let doc = Document::read(
            response.body,
            &self.config.limits,
            what,
            AuthErrorKind::InvalidResponse,
        )?;
        let nonempty = |key: &str| -> Result<String, AuthError> {
            let value = doc.required_string(key)?;
            if value.is_empty() {
                return Err(doc.error(key, "is empty"));
            }
            Ok(value.to_owned())
        };
        let device_code = Secret::from(nonempty("device_code")?);
        let user_code = nonempty("user_code")?;
        let link = |key: &str, raw: &str| -> Result<String, AuthError> {
            endpoint(
                raw,
                &format!("/{key}"),
                doc.what(),
                AuthErrorKind::InvalidResponse,
            )?;
            Ok(raw.to_owned())
        };
        let verification_uri = link("verification_uri", &nonempty("verification_uri")?)?;
        let verification_uri_complete = match doc.string("verification_uri_complete")? {
            None => None,
            Some(raw) => Some(link("verification_uri_complete", raw)?),
        };
        let Some(expires_in) = doc.count("expires_in")? else {
            return Err(doc.error("expires_in", "is missing"));
        };
        let interval_ms = doc
            .count("interval")?
            .map_or(DEFAULT_INTERVAL_MS, |s| s.saturating_mul(1000))
            .max(MIN_INTERVAL_MS);
        let code = DeviceCode {
            user_code,
            verification_uri,
            verification_uri_complete,
            expires_at_ms: now_ms.saturating_add(expires_in.saturating_mul(1000)),
        };
        self.device = Some(DeviceState {
            device_code: device_code.clone(),
            code,
            interval_ms,
            attempt: 0,
        });
        let form = vec![
            ("grant_type", Secret::from(DEVICE_CODE)),
            ("device_code", device_code),
        ];
        let Next::Fetch(request) = self.send_token(form)? else {
            return Err(self.out_of_order("a device authorization response"));
        };
        self.poll(request, now_ms)
    }

    /// The next poll of `request`, an interval after `now_ms`; the flow fails with
    /// [`AuthErrorKind::DeviceCodeExpired`] when the code expires before then.
    fn poll(&mut self, request: HttpRequest, now_ms: u64) -> Result<Next, AuthError> {
        let Some(device) = &mut self.device else {
            return Err(self.out_of_order("a poll"));
        };
        let at_ms = now_ms.saturating_add(device.interval_ms);
        if at_ms >= device.code.expires_at_ms {
            return Err(AuthError::new(
                AuthErrorKind::DeviceCodeExpired,
                "",
                format!(
                    "the code {} expired before the sign-in was finished: authorize again",
                    quote(&device.code.user_code)
                ),
            ));
        }
        device.attempt = device.attempt.saturating_add(1);
        let poll = super::Poll {
            code: device.code.clone(),
            at_ms,
            attempt: device.attempt,
            request,
        };
        self.stage = Stage::Token;
        Ok(Next::Poll(poll))
    }

    /// For the device grant, the token endpoint's answer while the person has not finished
    /// (RFC 8628 §3.5): `authorization_pending` is polled again after the interval,
    /// `slow_down` after an interval 5 seconds longer; `access_denied` is
    /// [`AuthErrorKind::AuthorizationDenied`] and `expired_token`
    /// [`AuthErrorKind::DeviceCodeExpired`]. `None` for any other answer, read as a token
    /// response.
    pub(super) fn device_pending(
        &mut self,
        response: &HttpResponse<'_>,
        now_ms: u64,
    ) -> Result<Option<Next>, AuthError> {
        if self.device.is_none() || !(400..500).contains(&response.status) {
            return Ok(None);
        }
        let Ok(doc) = Document::read(
            response.body,
            &self.config.limits,
            String::from("the token error response"),
            AuthErrorKind::InvalidResponse,
        ) else {
            return Ok(None);
        };
        let secrets: Vec<&str> = self
            .device
            .iter()
            .map(|d| d.device_code.expose())
            .chain(self.presented.iter().map(Secret::expose))
            .collect();
        let issuer = self.issuer().unwrap_or_default().to_owned();
        match doc.string("error").ok().flatten() {
            Some("authorization_pending") => {}
            Some("slow_down") => {
                if let Some(device) = &mut self.device {
                    device.interval_ms = device.interval_ms.saturating_add(SLOW_DOWN_MS);
                }
            }
            Some("access_denied") => {
                let said = oauth_error(&doc, &secrets).unwrap_or_default();
                return Err(AuthError::new(
                    AuthErrorKind::AuthorizationDenied,
                    "/error",
                    format!(
                        "the sign-in was denied at {}: the token endpoint answered {said}",
                        quote(&issuer)
                    ),
                ));
            }
            Some("expired_token") => {
                return Err(AuthError::new(
                    AuthErrorKind::DeviceCodeExpired,
                    "/error",
                    format!(
                        "the code expired at {} before the sign-in was finished: authorize \
                         again",
                        quote(&issuer)
                    ),
                ));
            }
            _ => return Ok(None),
        }
        // A server that proves with DPoP may name a fresh nonce with each answer.
        let nonce = self
            .dpop
            .as_ref()
            .and(response.header("dpop-nonce"))
            .filter(|n| check_nonce(n).is_ok())
            .map(str::to_owned);
        let request = self.token_fetch(nonce.as_deref())?;
        self.poll(request, now_ms).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(complete: Option<&str>) -> DeviceCode {
        DeviceCode {
            user_code: String::from("WDJB-MJHT"),
            verification_uri: String::from("https://as.example/device"),
            verification_uri_complete: complete.map(str::to_owned),
            expires_at_ms: 1,
        }
    }

    #[test]
    fn the_link_prefers_the_complete_uri() {
        assert_eq!(code(None).link(), "https://as.example/device");
        let complete = "https://as.example/device?user_code=WDJB-MJHT";
        assert_eq!(code(Some(complete)).link(), complete);
        let request = code(Some(complete))
            .consent_request("r1", "toolnexus", "https://mcp.example/mcp")
            .unwrap();
        assert_eq!(request.url(), Some(complete));
        assert!(request.prompt().contains("\"WDJB-MJHT\""));
        assert!(request.prompt().contains("https://mcp.example/mcp"));
        assert!(code(None).consent_request("", "t", "s").is_err());
    }
}
