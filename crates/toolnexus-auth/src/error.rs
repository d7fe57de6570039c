//! The one error type of the crate: [`AuthError`], with its [`AuthErrorKind`], a JSON pointer
//! into the document at fault and a message that never holds a token, code, secret or verifier.

use std::fmt;

use toolnexus_core::closed_set;

closed_set! {
    /// What went wrong in an authorization flow, as a stable machine-readable kind.
    pub enum AuthErrorKind {
        /// The caller's configuration or resource URL cannot be used: a URL that does not
        /// parse, a `redirect_uri` with a fragment, a client metadata URL that is not `https`.
        InvalidConfig => "invalid_config",
        /// The response that led to [`Flow::start`](crate::Flow::start) asks for no
        /// authorization: its status is neither 401 nor 403 with `insufficient_scope`.
        NotChallenged => "not_challenged",
        /// The `WWW-Authenticate` challenge holds an unusable value (a `resource_metadata`
        /// that is not an `http(s)` URL, a `scope` with characters no scope may hold).
        InvalidChallenge => "invalid_challenge",
        /// An endpoint or metadata URL uses plain `http` on a host that is not loopback.
        InsecureEndpoint => "insecure_endpoint",
        /// A metadata, registration or token endpoint answered with a redirect; it is never
        /// followed.
        Redirected => "redirected",
        /// A metadata endpoint answered with a status that is neither success nor a client
        /// error (a server error, say).
        UnexpectedStatus => "unexpected_status",
        /// No metadata document was found where the specification says to look.
        MetadataNotFound => "metadata_not_found",
        /// A protected resource or authorization server metadata document has a member that
        /// is missing, of the wrong type or of an unusable value.
        InvalidMetadata => "invalid_metadata",
        /// The protected resource metadata names a `resource` that is not the server asked.
        ResourceMismatch => "resource_mismatch",
        /// The authorization server metadata names an `issuer` other than the one the
        /// resource named (RFC 8414 §3.3).
        IssuerMismatch => "issuer_mismatch",
        /// The authorization server does not advertise PKCE with `S256`.
        PkceNotSupported => "pkce_not_supported",
        /// The authorization server does not offer the grant asked for (the authorization code
        /// grant, a grant for machines, or the device grant without a
        /// `device_authorization_endpoint`).
        GrantNotSupported => "grant_not_supported",
        /// No client identity applies: nothing pre-registered for this server, no client
        /// metadata document it accepts and no registration endpoint.
        NoClientIdentity => "no_client_identity",
        /// Dynamic client registration was refused.
        RegistrationFailed => "registration_failed",
        /// A registration or token response has a member that is missing, of the wrong type
        /// or of an unusable value.
        InvalidResponse => "invalid_response",
        /// The token response issued a token type other than `Bearer` (or `DPoP`, to a
        /// request proved with DPoP).
        UnsupportedTokenType => "unsupported_token_type",
        /// The redirect's query cannot be read: no `code`, or a parameter given twice.
        InvalidRedirect => "invalid_redirect",
        /// The redirect's `state` is not the one sent.
        StateMismatch => "state_mismatch",
        /// The redirect's `iss` is not the authorization server's issuer (RFC 9207).
        IssMismatch => "iss_mismatch",
        /// The redirect has no `iss` though the authorization server says it sends one.
        IssMissing => "iss_missing",
        /// The authorization server answered the redirect with an `error`, or, in the device
        /// grant, the person denied the authorization (`access_denied`).
        AuthorizationDenied => "authorization_denied",
        /// The device grant's code expired before the person authorized it: the token
        /// endpoint answered `expired_token`, or the code's `expires_in` passed.
        DeviceCodeExpired => "device_code_expired",
        /// The token endpoint (or, in the device grant, the device authorization endpoint)
        /// refused the request.
        TokenRefused => "token_refused",
        /// A refresh was asked of a grant that holds no refresh token.
        NoRefreshToken => "no_refresh_token",
        /// One more authorization would exceed [`Config::max_authorizations`](crate::Config).
        TooManyAuthorizations => "too_many_authorizations",
        /// A document is not JSON, or not UTF-8, or names a key twice.
        InvalidJson => "invalid_json",
        /// A document is larger than the limits allow (bytes, members or items).
        TooLarge => "too_large",
        /// A document nests deeper than the limits allow.
        TooDeep => "too_deep",
        /// A stored grant cannot be read back.
        InvalidGrant => "invalid_grant",
        /// The flow was called in a way its state does not expect: a response while it waits
        /// for the redirect, or anything after it ended.
        OutOfOrder => "out_of_order",
        /// A DPoP (RFC 9449) key, proof input or server nonce cannot be used: bytes that are
        /// not a P-256 key, a nonce that is huge or not printable.
        InvalidDpop => "invalid_dpop",
    }
}

/// A typed error: its [`kind`](AuthError::kind), an RFC 6901 JSON pointer into the document
/// at fault (`""` for the whole document, or when there is none), and a message a person can
/// read.
///
/// Messages may quote what a server sent (a URL, an `error` code) but never a token, an
/// authorization code, a client secret or a PKCE verifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthError {
    kind: AuthErrorKind,
    pointer: String,
    message: String,
}

impl AuthError {
    /// An error of `kind` at `pointer`.
    pub fn new(
        kind: AuthErrorKind,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> AuthError {
        AuthError {
            kind,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> AuthErrorKind {
        self.kind
    }

    /// Where: an RFC 6901 JSON pointer into the document at fault (`""` is the whole of it).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// What went wrong, in words.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// An error of the JSON reader, for the document `what`, in this crate's kinds.
    pub(crate) fn from_json(error: &toolnexus_core::Error, what: &str) -> AuthError {
        use toolnexus_core::ErrorKind as K;
        let kind = match error.kind() {
            K::TooLarge | K::TooManyMembers | K::TooManyItems => AuthErrorKind::TooLarge,
            K::TooDeep => AuthErrorKind::TooDeep,
            _ => AuthErrorKind::InvalidJson,
        };
        AuthError::new(
            kind,
            error.pointer(),
            format!("{what}: {}", error.message()),
        )
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.kind, self.message)
        } else {
            write!(f, "{} at {}: {}", self.kind, self.pointer, self.message)
        }
    }
}

impl std::error::Error for AuthError {}

/// `text` quoted for a message, cut short when long and with control characters escaped:
/// servers send anything.
pub(crate) fn quote(text: &str) -> String {
    const MAX_CHARS: usize = 120;
    match text.char_indices().nth(MAX_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}…", text.get(..cut).unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        let mut names: Vec<&str> = AuthErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        for kind in AuthErrorKind::ALL {
            assert_eq!(AuthErrorKind::from_name(kind.as_str()), Some(kind));
            assert!(
                kind.as_str()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_')
            );
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), AuthErrorKind::ALL.len());
        assert_eq!(AuthErrorKind::from_name("nope"), None);
    }

    #[test]
    fn display_shows_kind_pointer_and_message() {
        let e = AuthError::new(AuthErrorKind::InvalidMetadata, "/issuer", "not a string");
        assert_eq!(e.to_string(), "invalid_metadata at /issuer: not a string");
        let e = AuthError::new(AuthErrorKind::StateMismatch, "", "no");
        assert_eq!(e.to_string(), "state_mismatch: no");
    }

    #[test]
    fn quote_cuts_long_text() {
        assert_eq!(quote("a\nb"), "\"a\\nb\"");
        let long = "x".repeat(500);
        assert!(quote(&long).ends_with('…'));
        assert!(quote(&long).len() < 200);
    }
}
