//! What a server's refusals say, made fit for a message: the OAuth error of an error answer
//! (RFC 6749 §5.2) and a redirect that is not followed, with every secret of the flow taken
//! out ([`redact`]) and only printable ASCII kept of what the server wrote.

use toolnexus_core::json::Limits;

use crate::document::Document;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::http::HttpResponse;

/// The error for an endpoint `url` that answered with a redirect.
pub(crate) fn redirected(url: &str, response: &HttpResponse<'_>) -> AuthError {
    let to = response
        .header("location")
        .map(|l| format!(" to {}", quote(l)))
        .unwrap_or_default();
    AuthError::new(
        AuthErrorKind::Redirected,
        "",
        format!(
            "{} answered {} (a redirect{to}), which is not followed",
            quote(url),
            response.status
        ),
    )
}

/// What a secret is replaced by in a message: printable ASCII, so that it survives what a
/// message keeps of a server's text.
pub(crate) const REDACTED: &str = "[redacted]";

/// `text` with every occurrence of each of `secrets` (of any length but empty) replaced by
/// [`REDACTED`], the longest secrets first so that one holding another is taken out whole. Run it on
/// what a server wrote before quoting or cutting it.
pub(crate) fn redact(text: &str, secrets: &[&str]) -> String {
    let mut secrets: Vec<&str> = secrets.iter().copied().filter(|s| !s.is_empty()).collect();
    secrets.sort_unstable_by_key(|s| std::cmp::Reverse(s.len()));
    let mut out = text.to_owned();
    for secret in secrets {
        if out.contains(secret) {
            out = out.replace(secret, REDACTED);
        }
    }
    out
}

/// The OAuth error of an error response (RFC 6749 §5.2), quoted for a message: `error` and,
/// when given, `error_description`, each kept to the characters RFC 6749 allows them. Every
/// one of `secrets` is taken out of the text as the server wrote it, before anything is
/// dropped, escaped or cut: a secret holding a quote or a backslash, or longer than a quote
/// keeps, is still found whole.
pub(crate) fn oauth_error(doc: &Document, secrets: &[&str]) -> Option<String> {
    let shown = |text: &str| quote(&printable(&redact(text, secrets)));
    let code = doc.string("error").ok().flatten()?;
    let mut text = shown(code);
    if let Some(description) = doc.string("error_description").ok().flatten() {
        text.push_str(&format!(" ({})", shown(description)));
    }
    Some(text)
}

/// The OAuth error of the error answer `response` (read as `what`), quoted for a message
/// with every one of `secrets` redacted; `None` when its body says none.
pub(crate) fn refusal(
    response: &HttpResponse<'_>,
    limits: &Limits,
    what: String,
    secrets: &[&str],
) -> Option<String> {
    Document::read(response.body, limits, what, AuthErrorKind::InvalidResponse)
        .ok()
        .and_then(|doc| oauth_error(&doc, secrets))
}

/// `text` with every character outside printable ASCII dropped.
pub(crate) fn printable(text: &str) -> String {
    text.chars().filter(|c| (' '..='~').contains(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_shows_no_secret_whatever_it_holds() {
        let long = "L".repeat(300);
        let quoted = r#"se"cr\et"#;
        for secret in [quoted, long.as_str(), "ab", "x\u{1}y"] {
            let body = toolnexus_core::Value::from(format!("echo {secret} and {secret}!"));
            let json = format!(
                r#"{{"error":"invalid_grant","error_description":{}}}"#,
                body.to_json()
            );
            let response = HttpResponse {
                status: 400,
                headers: &[],
                body: json.as_bytes(),
            };
            let shown = refusal(&response, &Limits::DEFAULT, String::from("t"), &[secret]).unwrap();
            assert_eq!(
                shown,
                "\"invalid_grant\" (\"echo [redacted] and [redacted]!\")"
            );
        }
    }

    #[test]
    fn redaction() {
        assert_eq!(
            redact("a secret b secret", &["secret", "x"]),
            "a [redacted] b [redacted]"
        );
        // The longest first: a secret inside another does not leave the rest of it.
        assert_eq!(redact("key-123456", &["123", "key-123456"]), "[redacted]");
    }
}
