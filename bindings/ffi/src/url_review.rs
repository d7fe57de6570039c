//! URL mode: `review_url` says what to show a person before they consent to open a link.

use toolnexus_core::url_review::{
    self, FindingCode as CoreCode, Severity as CoreSeverity, Verdict as CoreVerdict,
};
use toolnexus_core::{Map, Number, Value};

use crate::json_text::string_objects;
use crate::mirror::mirror_enum;

mirror_enum! {
    /// The overall outcome of a review.
    pub enum Verdict mirrors CoreVerdict, else Reject {
        /// Nothing was found: show the URL and ask for consent as usual.
        Ok,
        /// Only warnings: show them with the URL before asking for consent.
        Warn,
        /// At least one finding rejects the URL: do not offer to open it.
        Reject,
    }
}

mirror_enum! {
    /// How serious one finding is.
    pub enum Severity mirrors CoreSeverity, else Reject {
        /// Show it to the person; they may still consent.
        Warn,
        /// The URL must not be opened.
        Reject,
    }
}

mirror_enum! {
    /// What a finding is about.
    pub enum FindingCode mirrors CoreCode, else InvalidUrl {
        /// Not an absolute URL, or the text holds an ASCII control character or a space.
        InvalidUrl,
        /// A scheme other than `https` or `http`.
        SchemeNotAllowed,
        /// A user name or password before an `@`, which makes the text before it look like
        /// the host.
        Userinfo,
        /// Plain `http` to a host that is not this computer.
        NotHttps,
        /// The host is an IPv4 or IPv6 address.
        IpLiteral,
        /// The host is this computer or its local network.
        LocalHost,
        /// The host has a punycode (`xn--`) label: an internationalised name.
        PunycodeHost,
        /// A label of the host mixes scripts, or holds a symbol, as look-alike spoofs do.
        MixedScriptHost,
    }
}

/// One thing a review found. Match on `code`; the message is wording for people.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct UrlFinding {
    /// What the finding is about.
    pub code: FindingCode,
    /// How serious it is (fixed per code).
    pub severity: Severity,
    /// What was found, in words a person can read.
    pub message: String,
}

/// What to show before a person consents to open a URL.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct UrlReview {
    /// The URL as given.
    pub url: String,
    /// The scheme, in lower case; absent for an invalid URL.
    pub scheme: Option<String>,
    /// The host as a person reads it: internationalised labels in Unicode, an IPv6 address
    /// in brackets. Absent for an invalid URL and for a scheme that is not allowed.
    pub host: Option<String>,
    /// The host as it goes on the wire, internationalised labels in punycode.
    pub host_ascii: Option<String>,
    /// The port the URL connects to: the one written, or the scheme's default.
    pub port: Option<u16>,
    /// The overall outcome.
    pub verdict: Verdict,
    /// Everything found, in the order of the codes.
    pub findings: Vec<UrlFinding>,
}

/// Reviews `url` before consent: what to show and what to warn about. Never fails: an
/// unusable URL is a review with an `InvalidUrl` finding and the verdict `Reject`.
#[uniffi::export]
pub fn review_url(url: String) -> UrlReview {
    let review = url_review::review_url(&url);
    UrlReview {
        url: review.url().into(),
        scheme: review.scheme().map(Into::into),
        host: review.host().map(Into::into),
        host_ascii: review.host_ascii().map(Into::into),
        port: review.port(),
        verdict: Verdict::from_core(review.verdict()),
        findings: review
            .findings()
            .iter()
            .map(|f| UrlFinding {
                code: FindingCode::from_core(f.code()),
                severity: Severity::from_core(f.severity()),
                message: f.message().into(),
            })
            .collect(),
    }
}

/// The review as the core writes it: `{"url", "scheme"?, "host"?, "hostAscii"?, "port"?,
/// "verdict", "findings": [{"code", "severity", "message"}]}`, compact.
#[uniffi::export]
pub fn url_review_to_json(review: &UrlReview) -> String {
    let mut map = Map::new();
    map.insert("url", Value::from(review.url.as_str()));
    let optional = [
        ("scheme", &review.scheme),
        ("host", &review.host),
        ("hostAscii", &review.host_ascii),
    ];
    for (key, value) in optional {
        if let Some(text) = value {
            map.insert(key, Value::from(text.as_str()));
        }
    }
    if let Some(port) = review.port {
        map.insert("port", Value::Number(Number::from(u64::from(port))));
    }
    map.insert("verdict", Value::from(review.verdict.core_name()));
    let findings = string_objects(&review.findings, |f| {
        [
            ("code", f.code.core_name()),
            ("severity", f.severity.core_name()),
            ("message", f.message.as_str()),
        ]
    });
    map.insert("findings", findings);
    Value::Object(map).to_json()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_case_has_its_own() {
        for code in CoreCode::ALL {
            assert_eq!(FindingCode::from_core(code).to_core(), code);
        }
        for verdict in CoreVerdict::ALL {
            assert_eq!(Verdict::from_core(verdict).to_core(), verdict);
        }
        for severity in CoreSeverity::ALL {
            assert_eq!(Severity::from_core(severity).to_core(), severity);
        }
    }

    #[test]
    fn json_is_the_cores() {
        for url in [
            "https://example.com:8443/a",
            "http://user@xn--80ak6aa92e.com/",
            "nope",
        ] {
            let review = review_url(url.into());
            assert_eq!(
                url_review_to_json(&review),
                url_review::review_url(url).to_json()
            );
        }
    }
}
