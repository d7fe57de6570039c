//! What to do when an MCP server refuses a request: one decision for every host.
//!
//! A host sends its requests with the authorization it holds. When the server refuses one, the
//! host reads the refusal into a [`Refusal`] and asks its [`Policy`], which says what comes
//! next ([`Decision`]): send it again with the authorization held now (the request went with an
//! older one), again once with the server's DPoP nonce, refresh the grant held, run a flow (a
//! first authorization, or after a refresh failed), run one for more scope, or give up. All of
//! it is counted under one cap, the [`Config::max_authorizations`](crate::Config) of flows a
//! conversation may start. The host moves the bytes, runs the flows and keeps the grants.
//!
//! ```
//! use toolnexus_auth::{Decision, Policy, Refusal};
//!
//! let mut policy = Policy::new(3);
//! // The first request went without a token.
//! let refusal = Refusal::read(401, Some(r#"Bearer resource_metadata="https://mcp.example/prm""#), None);
//! assert!(matches!(policy.decide(&refusal, None, None, 0), Decision::Authorize(_)));
//! ```

use crate::challenge::{Challenge, parse_challenge};
use crate::dpop::check_nonce;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant::Grant;

/// A refused request, as the server answered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The challenge of the answer (its status, scheme, error, scope, resource metadata).
    pub challenge: Challenge,
    /// The server's `DPoP-Nonce`, when it is one a proof may carry.
    pub dpop_nonce: Option<String>,
}

impl Refusal {
    /// Reads an answer of `status` with the `WWW-Authenticate` header `www_authenticate` (its
    /// values joined with `, ` when there are several) and the `DPoP-Nonce` header
    /// `dpop_nonce`. A nonce a proof may not carry (empty, huge, not printable) is dropped.
    pub fn read(status: u16, www_authenticate: Option<&str>, dpop_nonce: Option<&str>) -> Refusal {
        Refusal {
            challenge: parse_challenge(status, www_authenticate),
            dpop_nonce: dpop_nonce
                .filter(|nonce| check_nonce(nonce).is_ok())
                .map(str::to_owned),
        }
    }

    /// Whether the server asks for its DPoP nonce in the proof (RFC 9449 §9: a `401` with
    /// `error="use_dpop_nonce"` in a `DPoP` challenge, and a usable `DPoP-Nonce`).
    pub fn asks_nonce(&self) -> Option<&str> {
        let asks = self.challenge.status == 401
            && self.challenge.scheme.eq_ignore_ascii_case("dpop")
            && self.challenge.error.as_deref() == Some("use_dpop_nonce");
        self.dpop_nonce.as_deref().filter(|_| asks)
    }

    /// The nonce to send a request again with, once: when the server asks for one
    /// ([`Refusal::asks_nonce`]) of a request that carried an authorization and was not sent
    /// again with a nonce already (`retried_with_nonce`). The rule [`Policy::decide_request`]
    /// starts with, for a transport that retries on its own before it asks the policy.
    pub fn nonce_retry(&self, authorized: bool, retried_with_nonce: bool) -> Option<&str> {
        self.asks_nonce()
            .filter(|_| authorized && !retried_with_nonce)
    }

    /// Whether the server wants authorization at all: a `401`, or a `403` with
    /// `insufficient_scope`.
    pub fn wants_authorization(&self) -> bool {
        self.challenge.status == 401 || self.challenge.is_insufficient_scope()
    }
}

/// What the host does next about a refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Send the request again with the authorization held now: it went with an older one.
    Resend,
    /// Send it again, once, with this nonce in a fresh DPoP proof.
    RetryWithNonce(String),
    /// Refresh the grant held, then send again; when the refresh fails, say so with
    /// [`Policy::refresh_failed`] and decide again.
    Refresh,
    /// Run a flow for this challenge: a first authorization, or again after the token was
    /// refused; the grant held, if any, is the flow's `previous`.
    Authorize(Challenge),
    /// Run a flow for this challenge, which asks for more scope; the grant held is the flow's
    /// `previous`, so that its scopes are kept.
    StepUp(Challenge),
    /// Stop: the error says why.
    GiveUp(AuthError),
}

/// The least time between two refreshes of the grants a flow began: a refreshed token that
/// expires sooner is not refreshed again (a flow comes instead).
pub const REFRESH_AGAIN_AFTER_MS: u64 = 60_000;

/// The decisions of one conversation with one MCP server, and what they have counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    max_authorizations: u32,
    /// Flows started so far.
    started: u32,
    /// Whether the grant held was refreshed (or a refresh of it failed) already.
    refreshed: bool,
    /// When the last refresh was decided, by the caller's clock.
    refreshed_at_ms: Option<u64>,
    /// The scope the last step-up was for, while no other authorization came since.
    stepped_up_for: Option<String>,
}

impl Policy {
    /// A policy that starts at most `max_authorizations` flows, step-ups included.
    pub fn new(max_authorizations: u32) -> Policy {
        Policy {
            max_authorizations,
            started: 0,
            refreshed: false,
            refreshed_at_ms: None,
            stepped_up_for: None,
        }
    }

    /// Decides about `refusal` of a request sent with the authorization header `sent` (none
    /// when it went without), while the host holds `held` (the grant it has, kept or got, if
    /// any) at `now_ms`. A request already sent again with a nonce is decided as if the
    /// server had asked for none.
    ///
    /// In order: a refusal that wants no authorization gives up; a nonce asked for, once per
    /// request (`retried_with_nonce`); a request sent with another header than the one of the
    /// unexpired grant held is sent again with it; a `401` while a grant with a refresh token
    /// is held is refreshed, once per grant a flow got, and again only once the refreshed
    /// token has expired, at least [`REFRESH_AGAIN_AFTER_MS`] after the last refresh (a
    /// refreshed token refused before its time leads to a flow, which the cap counts, so
    /// refreshes never go on for ever); a step-up to the scope the last step-up was for
    /// gives up (it would not help); past the cap gives up; else a flow, for more scope or not.
    pub fn decide(
        &mut self,
        refusal: &Refusal,
        sent: Option<&str>,
        held: Option<&Grant>,
        now_ms: u64,
    ) -> Decision {
        self.decide_request(refusal, sent, held, now_ms, false)
    }

    /// [`Policy::decide`] for a request that was (`retried_with_nonce`) or was not sent again
    /// with the server's nonce already.
    pub fn decide_request(
        &mut self,
        refusal: &Refusal,
        sent: Option<&str>,
        held: Option<&Grant>,
        now_ms: u64,
        retried_with_nonce: bool,
    ) -> Decision {
        let challenge = &refusal.challenge;
        if !refusal.wants_authorization() {
            return Decision::GiveUp(AuthError::new(
                AuthErrorKind::NotChallenged,
                "",
                format!(
                    "the server answered {}, which asks for no authorization",
                    challenge.status
                ),
            ));
        }
        if let Some(nonce) = refusal.nonce_retry(sent.is_some(), retried_with_nonce) {
            return Decision::RetryWithNonce(nonce.to_owned());
        }
        let held_header = held
            .filter(|g| !g.is_expired(now_ms))
            .map(Grant::authorization);
        if held_header.is_some() && sent != held_header.as_deref() {
            return Decision::Resend;
        }
        let step_up = challenge.is_insufficient_scope();
        let lived = held.is_some_and(|g| g.is_expired(now_ms))
            && self
                .refreshed_at_ms
                .is_none_or(|at| now_ms >= at.saturating_add(REFRESH_AGAIN_AFTER_MS));
        if challenge.status == 401
            && (!self.refreshed || lived)
            && held.is_some_and(|g| g.refresh_token().is_some())
        {
            self.refreshed = true;
            self.refreshed_at_ms = Some(now_ms);
            return Decision::Refresh;
        }
        if step_up && self.stepped_up_for.is_some() && self.stepped_up_for == challenge.scope {
            return Decision::GiveUp(AuthError::new(
                AuthErrorKind::TooManyAuthorizations,
                "",
                format!(
                    "the server still answers 403 (insufficient_scope) for the scope {}, which \
                     the last authorization asked for: authorizing again would not help",
                    quote(challenge.scope.as_deref().unwrap_or_default())
                ),
            ));
        }
        if self.started >= self.max_authorizations {
            return Decision::GiveUp(AuthError::new(
                AuthErrorKind::TooManyAuthorizations,
                "",
                format!(
                    "the server still refuses after {} authorization(s) (HTTP {})",
                    self.started, challenge.status
                ),
            ));
        }
        self.started = self.started.saturating_add(1);
        self.stepped_up_for = if step_up {
            challenge.scope.clone()
        } else {
            None
        };
        if step_up {
            Decision::StepUp(challenge.clone())
        } else {
            Decision::Authorize(challenge.clone())
        }
    }

    /// The refresh [`Decision::Refresh`] asked for failed: the next decision runs a flow.
    pub fn refresh_failed(&mut self) {
        self.refreshed = true;
    }

    /// A flow got a new grant, now held: it may be refreshed once in turn. A grant a refresh
    /// got is not new in this sense (do not call this for it): a server that refuses the
    /// refreshed token before its time gets a flow, which [`Policy::new`]'s cap counts, so
    /// refreshes cannot go on for ever.
    pub fn holds_new_grant(&mut self) {
        self.refreshed = false;
    }

    /// How many flows were started so far.
    pub fn authorizations(&self) -> u32 {
        self.started
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolnexus_core::json::Limits;

    fn grant(refreshable: bool) -> Grant {
        let refresh = if refreshable {
            r#","refresh_token":"rt""#
        } else {
            ""
        };
        let text = format!(
            r#"{{"version":1,"access_token":"at","token_type":"Bearer"{refresh},"issuer":"https://as.example","token_endpoint":"https://as.example/token","client":{{"client_id":"c","auth_method":"none","issuer":"https://as.example"}}}}"#
        );
        Grant::from_json(text.as_bytes(), &Limits::DEFAULT).unwrap()
    }

    /// A refreshable grant whose token expires at `at_ms`.
    fn expiring(at_ms: u64) -> Grant {
        let text = format!(
            r#"{{"version":1,"access_token":"at-{at_ms}","token_type":"Bearer","refresh_token":"rt","expires_at_ms":{at_ms},"issuer":"https://as.example","token_endpoint":"https://as.example/token","client":{{"client_id":"c","auth_method":"none","issuer":"https://as.example"}}}}"#
        );
        Grant::from_json(text.as_bytes(), &Limits::DEFAULT).unwrap()
    }

    #[test]
    fn a_refreshed_token_is_refreshed_again_only_once_it_has_lived() {
        let unauthorized = Refusal::read(401, Some("Bearer"), None);
        let mut policy = Policy::new(3);
        let first = expiring(3_600_000);
        let sent = first.authorization();
        assert_eq!(
            policy.decide(&unauthorized, Some(&sent), Some(&first), 0),
            Decision::Refresh
        );
        // The refreshed token, refused before its time: a flow, not another refresh.
        let refreshed = expiring(3_600_000);
        let sent = refreshed.authorization();
        assert!(matches!(
            policy.decide(&unauthorized, Some(&sent), Some(&refreshed), 1_000),
            Decision::Authorize(_)
        ));
        // A token refreshed, used an hour, then expired: refreshed again.
        let mut policy = Policy::new(3);
        assert_eq!(
            policy.decide(&unauthorized, Some(&sent), Some(&first), 0),
            Decision::Refresh
        );
        let lived = expiring(3_600_000);
        let sent = lived.authorization();
        assert_eq!(
            policy.decide(&unauthorized, Some(&sent), Some(&lived), 3_600_500),
            Decision::Refresh
        );
        // One that expires at once, refused soon after its refresh: a flow.
        let brief = expiring(3_600_600);
        let sent = brief.authorization();
        assert!(matches!(
            policy.decide(&unauthorized, Some(&sent), Some(&brief), 3_601_000),
            Decision::Authorize(_)
        ));
        assert_eq!(REFRESH_AGAIN_AFTER_MS, 60_000);
    }

    #[test]
    fn each_decision_in_its_order() {
        let held = grant(true);
        let header = held.authorization();
        let unauthorized = Refusal::read(401, Some("Bearer"), None);
        let mut policy = Policy::new(3);
        // Sent with an older header: again with the one held.
        assert_eq!(
            policy.decide(&unauthorized, Some("Bearer old"), Some(&held), 0),
            Decision::Resend
        );
        // Refused with the one held: a refresh, once.
        assert_eq!(
            policy.decide(&unauthorized, Some(&header), Some(&held), 0),
            Decision::Refresh
        );
        assert!(matches!(
            policy.decide(&unauthorized, Some(&header), Some(&held), 0),
            Decision::Authorize(_)
        ));
        policy.holds_new_grant();
        assert_eq!(
            policy.decide(&unauthorized, Some(&header), Some(&held), 0),
            Decision::Refresh
        );
        policy.refresh_failed();
        // A nonce asked for is tried once per request.
        let nonce = Refusal::read(401, Some(r#"DPoP error="use_dpop_nonce""#), Some("n-1"));
        assert_eq!(
            policy.decide(&nonce, Some(&header), Some(&held), 0),
            Decision::RetryWithNonce("n-1".into())
        );
        // Step-ups, and the same one twice gives up.
        let more = Refusal::read(
            403,
            Some(r#"Bearer error="insufficient_scope", scope="b""#),
            None,
        );
        assert!(matches!(
            policy.decide(&more, Some(&header), Some(&held), 0),
            Decision::StepUp(_)
        ));
        assert!(matches!(
            policy.decide(&more, Some(&header), Some(&held), 0),
            Decision::GiveUp(e) if e.kind() == AuthErrorKind::TooManyAuthorizations
        ));
        // The cap: three flows in all.
        assert!(matches!(
            policy.decide(&unauthorized, Some(&header), Some(&held), 0),
            Decision::Authorize(_)
        ));
        assert!(matches!(
            policy.decide(&unauthorized, Some(&header), Some(&held), 0),
            Decision::GiveUp(e) if e.kind() == AuthErrorKind::TooManyAuthorizations
        ));
        assert_eq!(policy.authorizations(), 3);
        // A refusal that wants no authorization.
        let forbidden = Refusal::read(403, Some("Bearer"), None);
        assert!(matches!(
            Policy::new(3).decide(&forbidden, None, None, 0),
            Decision::GiveUp(e) if e.kind() == AuthErrorKind::NotChallenged
        ));
        // A nonce that is not one is dropped.
        assert_eq!(
            Refusal::read(401, Some("DPoP"), Some("bad nonce\n")).dpop_nonce,
            None
        );
    }
}
