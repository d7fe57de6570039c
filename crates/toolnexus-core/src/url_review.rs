//! `review_url`: what a client shows a person before opening a URL-mode elicitation.
//!
//! MCP forbids a client to fetch or open the URL of a URL-mode elicitation without the
//! person's explicit consent, asks it to show the full URL, and recommends highlighting the
//! domain and warning about internationalised or ambiguous hosts. [`review_url`] gathers what
//! such a consent screen needs: the URL exactly as it will be opened (the WHATWG-serialised
//! `href`), its scheme, its host both as a person reads it and in ASCII, its port, and
//! [findings](UrlFinding) that each carry a stable [code](FindingCode), a [severity](Severity)
//! and a message a person can read. The review opens nothing and resolves no name.
//!
//! ```
//! use toolnexus_core::url_review::{review_url, FindingCode, Verdict};
//!
//! let review = review_url("https://bank.example@evil.example/login");
//! assert_eq!(review.verdict(), Verdict::Reject);
//! assert_eq!(review.host(), Some("evil.example"));
//! let codes: Vec<FindingCode> = review.findings().iter().map(|f| f.code()).collect();
//! assert_eq!(codes, [FindingCode::Userinfo]);
//!
//! let review = review_url("https://bücher.example/kaufen?titel=faust#top");
//! assert_eq!(review.url(), "https://xn--bcher-kva.example/kaufen?titel=faust#top");
//! assert_eq!(review.host(), Some("bücher.example"));
//! assert_eq!(review.host_ascii(), Some("xn--bcher-kva.example"));
//! assert_eq!(review.port(), Some(443));
//! assert_eq!(review.verdict(), Verdict::Warn);
//! assert_eq!(
//!     review.to_value().to_json(),
//!     concat!(
//!         r#"{"url":"https://xn--bcher-kva.example/kaufen?titel=faust#top","scheme":"https","#,
//!         r#""host":"bücher.example","hostAscii":"xn--bcher-kva.example","port":443,"#,
//!         r#""verdict":"warn","findings":[{"code":"punycode_host","severity":"warn","#,
//!         r#""message":"the host xn--bcher-kva.example is an internationalised name, "#,
//!         r#"shown as bücher.example: check that it is the site you expect"}]}"#,
//!     )
//! );
//! ```
//!
//! | Code | Severity | Reported when |
//! |---|---|---|
//! | `invalid_url` | reject | the text is not an absolute URL, or holds an ASCII control character or a space anywhere |
//! | `scheme_not_allowed` | reject | the scheme is not `https` or `http` (`javascript:`, `data:`, `file:`, …) |
//! | `userinfo` | reject | a user name or password comes before an `@` in the authority |
//! | `not_https` | warn | the scheme is `http` and the host is not this computer |
//! | `ip_literal` | warn | the host is an IPv4 or IPv6 address rather than a name |
//! | `local_host` | warn | the host is this computer or its local network |
//! | `punycode_host` | warn | a label of the ASCII host starts with `xn--` |
//! | `mixed_script_host` | warn | a host label mixes scripts, or holds a symbol, beyond what UTS #39 allows |
//!
//! Findings come in the order of this table, each code at most once. The [verdict](Verdict)
//! is `reject` when any finding rejects, else `warn` when there is any finding, else `ok`.
//!
//! Decisions the table leaves implicit:
//!
//! - Every check runs on the URL as parsed, not on the text: `http://0x7f.1/` is the address
//!   `127.0.0.1`, and `HTTPS://Example.COM` is `https://example.com/`.
//! - A URL whose scheme is not allowed is not looked at further: it will not be opened, so
//!   its review holds only `url`, `scheme` and the one finding.
//! - `local_host` covers the names `localhost` and `*.localhost` (which browsers send to the
//!   loopback interface whatever DNS says), and addresses that are loopback, unspecified
//!   (`0.0.0.0` reaches this computer in most browsers), private (RFC 1918, IPv6 unique
//!   local) or link-local, including IPv4-mapped IPv6 forms of those. A remote server that
//!   sends such a link aims the person's browser at a device the server itself cannot reach.
//!   Other names are left alone: a name without a dot (`https://intranet/`) or under `.local`
//!   resolves however the person's network decides, which this review cannot know.
//! - `not_https` is not reported for a loopback host (`localhost`, `127.0.0.0/8`, `::1`, or
//!   the IPv4-mapped form of a loopback address): that traffic never leaves the computer,
//!   which is why browsers treat such origins as secure contexts.
//! - `mixed_script_host` applies UTS #39's "highly restrictive" level to each label of the
//!   host in Unicode: a label passes when its characters share one script (Common and
//!   Inherited characters, such as digits and the hyphen, fit any script, and Script
//!   Extensions are honoured), or when they all fit one of Latin + Han + Hiragana + Katakana,
//!   Latin + Han + Bopomofo, or Latin + Han + Hangul. So `pаypal` with a Cyrillic `а` is
//!   reported, while Japanese `東京タワー` and Korean `韓國한국` are not. That level also
//!   requires UTS #39's identifier profile; in its place, a label holding a non-ASCII
//!   character that belongs to no script (a symbol or punctuation such as U+2215 DIVISION
//!   SLASH, which makes `example.com∕evil.example` read as a path on `example.com`) is
//!   reported too. Scripts of different labels are not compared, and a label written wholly
//!   in another script (an all-Cyrillic look-alike of a Latin name) is left to
//!   `punycode_host`, which every non-ASCII host gets.
//! - The host is shown as UTS #46 maps it: `ＥＸＡＭＰＬＥ.com` and `pay\u{AD}pal.com` (with a soft
//!   hyphen) are `example.com` and `paypal.com`, which is where the link goes.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::{format, vec};
use core::fmt;
use core::net::{Ipv4Addr, Ipv6Addr};

use unicode_script::{Script, ScriptExtension, UnicodeScript};
use url::{Host, Url};

use crate::error::closed_set;
use crate::json::{Map, Number, Value};

/// The schemes a URL-mode link may use; anything else is `scheme_not_allowed`.
const ALLOWED_SCHEMES: [&str; 2] = ["https", "http"];

/// The script combinations UTS #39's "highly restrictive" level accepts within one label.
const ACCEPTED_SCRIPT_SETS: [&[Script]; 3] = [
    &[
        Script::Latin,
        Script::Han,
        Script::Hiragana,
        Script::Katakana,
    ],
    &[Script::Latin, Script::Han, Script::Bopomofo],
    &[Script::Latin, Script::Han, Script::Hangul],
];

closed_set! {
    /// The overall outcome of a review, from the mildest.
    pub enum Verdict {
    /// Nothing was found: show the URL and ask for consent as usual.
    Ok => "ok",
    /// Only warnings: show them with the URL before asking for consent.
    Warn => "warn",
    /// At least one finding rejects the URL: do not offer to open it.
    Reject => "reject",
    }
}

closed_set! {
    /// How serious one finding is, from the mildest.
    pub enum Severity {
    /// Show it to the person; they may still consent.
    Warn => "warn",
    /// The URL must not be opened.
    Reject => "reject",
    }
}

closed_set! {
    /// What a finding is about, as a stable machine-readable code.
    ///
    /// The snake_case name ([`FindingCode::as_str`]) never changes for an existing code. Findings
    /// of a review come in the declaration order of these codes.
    #[non_exhaustive]
    pub enum FindingCode {
    /// Not an absolute URL, or the text holds an ASCII control character or a space.
    InvalidUrl => "invalid_url",
    /// A scheme other than `https` or `http`.
    SchemeNotAllowed => "scheme_not_allowed",
    /// A user name or password before an `@`, which makes the text before it look like the host.
    Userinfo => "userinfo",
    /// Plain `http` to a host that is not this computer.
    NotHttps => "not_https",
    /// The host is an IPv4 or IPv6 address.
    IpLiteral => "ip_literal",
    /// The host is this computer or its local network.
    LocalHost => "local_host",
    /// The host has a punycode (`xn--`) label: an internationalised name.
    PunycodeHost => "punycode_host",
    /// A label of the host mixes scripts, or holds a symbol, as look-alike spoofs do.
    MixedScriptHost => "mixed_script_host",
    }
}

impl FindingCode {
    /// How serious a finding of this code is; fixed per code.
    pub const fn severity(self) -> Severity {
        match self {
            FindingCode::InvalidUrl | FindingCode::SchemeNotAllowed | FindingCode::Userinfo => {
                Severity::Reject
            }
            FindingCode::NotHttps
            | FindingCode::IpLiteral
            | FindingCode::LocalHost
            | FindingCode::PunycodeHost
            | FindingCode::MixedScriptHost => Severity::Warn,
        }
    }
}

/// One thing a review found: a code, its severity and a message a person can read.
///
/// The message is wording for people and may change; match on [`code`](UrlFinding::code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlFinding {
    code: FindingCode,
    message: String,
}

impl UrlFinding {
    fn new(code: FindingCode, message: String) -> UrlFinding {
        UrlFinding { code, message }
    }

    /// What the finding is about.
    pub fn code(&self) -> FindingCode {
        self.code
    }

    /// How serious it is (the code's [`FindingCode::severity`]).
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// What was found, in words a person can read.
    pub fn message(&self) -> &str {
        &self.message
    }

    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("code", Value::from(self.code.as_str()));
        map.insert("severity", Value::from(self.severity().as_str()));
        map.insert("message", Value::from(self.message.as_str()));
        Value::Object(map)
    }
}

impl fmt::Display for UrlFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

/// What a client shows a person before they consent to open a URL; see [`review_url`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlReview {
    url: String,
    scheme: Option<String>,
    host: Option<String>,
    host_ascii: Option<String>,
    port: Option<u16>,
    findings: Vec<UrlFinding>,
}

impl UrlReview {
    /// The URL as it will be opened (the WHATWG-serialised `href`), or the text as given when
    /// it is not a valid URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The scheme, in lower case; absent for an invalid URL.
    pub fn scheme(&self) -> Option<&str> {
        self.scheme.as_deref()
    }

    /// The host as a person reads it: internationalised labels in Unicode, an IPv6 address in
    /// brackets. Absent for an invalid URL and for a scheme that is not allowed.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// The host as it goes on the wire, internationalised labels in punycode.
    pub fn host_ascii(&self) -> Option<&str> {
        self.host_ascii.as_deref()
    }

    /// The port the URL connects to: the one written, or the scheme's default.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// What the review found, in the order of [`FindingCode::ALL`].
    pub fn findings(&self) -> &[UrlFinding] {
        &self.findings
    }

    /// Whether a finding of `code` was reported.
    pub fn has(&self, code: FindingCode) -> bool {
        self.findings.iter().any(|f| f.code == code)
    }

    /// `reject` when any finding rejects, else `warn` when there is any finding, else `ok`.
    pub fn verdict(&self) -> Verdict {
        let mut severities = self.findings.iter().map(UrlFinding::severity);
        if severities.clone().any(|s| s == Severity::Reject) {
            Verdict::Reject
        } else if severities.next().is_some() {
            Verdict::Warn
        } else {
            Verdict::Ok
        }
    }

    /// The review as JSON: `{"url", "scheme"?, "host"?, "hostAscii"?, "port"?, "verdict",
    /// "findings": [{"code", "severity", "message"}]}`, members in that order.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("url", Value::from(self.url.as_str()));
        let optional = [
            ("scheme", &self.scheme),
            ("host", &self.host),
            ("hostAscii", &self.host_ascii),
        ];
        for (key, value) in optional {
            if let Some(text) = value {
                map.insert(key, Value::from(text.as_str()));
            }
        }
        if let Some(port) = self.port {
            map.insert("port", Value::Number(Number::from(u64::from(port))));
        }
        map.insert("verdict", Value::from(self.verdict().as_str()));
        let findings = self.findings.iter().map(UrlFinding::to_value).collect();
        map.insert("findings", Value::Array(findings));
        Value::Object(map)
    }

    /// [`to_value`](UrlReview::to_value) written as compact JSON.
    pub fn to_json(&self) -> String {
        self.to_value().to_json()
    }

    fn invalid(text: &str, message: String) -> UrlReview {
        UrlReview {
            url: text.to_string(),
            scheme: None,
            host: None,
            host_ascii: None,
            port: None,
            findings: vec![UrlFinding::new(FindingCode::InvalidUrl, message)],
        }
    }
}

/// Reviews `url` before consent: what to show and what to warn about. Never fails and never
/// panics; an unusable URL is a review with an `invalid_url` finding.
pub fn review_url(url: &str) -> UrlReview {
    if let Some(problem) = stray_character(url) {
        return UrlReview::invalid(url, problem);
    }
    match Url::parse(url) {
        Ok(parsed) => review_parsed(&parsed),
        Err(_) if url.is_empty() => UrlReview::invalid(url, "the URL is empty".to_string()),
        Err(error) => UrlReview::invalid(url, format!("not a valid absolute URL: {error}")),
    }
}

/// Why `text` cannot be shown faithfully, if it holds an ASCII control character or a space.
///
/// A WHATWG parser silently strips leading and trailing controls and spaces, deletes every
/// tab and newline, and percent-encodes or refuses the rest, so the URL a browser opens would
/// not be the text the server sent. A person must consent to the text that will be opened.
fn stray_character(text: &str) -> Option<String> {
    let (at, c) = text
        .char_indices()
        .find(|&(_, c)| c.is_ascii_control() || c == ' ')?;
    let what = if c == ' ' {
        "a space".to_string()
    } else {
        format!("the control character U+{:04X}", u32::from(c))
    };
    Some(format!(
        "the URL holds {what} at byte {at}: a browser would drop or re-encode it, so the link \
         opened would not be the text that was sent"
    ))
}

fn review_parsed(url: &Url) -> UrlReview {
    let scheme = url.scheme();
    if !ALLOWED_SCHEMES.contains(&scheme) {
        return UrlReview {
            url: url.as_str().to_string(),
            scheme: Some(scheme.to_string()),
            host: None,
            host_ascii: None,
            port: None,
            findings: vec![UrlFinding::new(
                FindingCode::SchemeNotAllowed,
                format!(
                    "the scheme `{scheme}` is not allowed: only https and http links are opened"
                ),
            )],
        };
    }
    let host = url.host();
    let host_ascii = url.host_str().map(ToString::to_string);
    let host_unicode = match &host {
        Some(Host::Domain(ascii)) => Some(domain_to_unicode(ascii)),
        _ => host_ascii.clone(),
    };
    let mut findings = Vec::new();
    if !url.username().is_empty() || url.password().is_some() {
        findings.push(userinfo_finding(host_unicode.as_deref().unwrap_or("")));
    }
    if scheme == "http" && !host.as_ref().is_some_and(is_loopback) {
        findings.push(UrlFinding::new(
            FindingCode::NotHttps,
            "the link uses plain http: the page travels unencrypted and can be read or changed \
             on the way"
                .to_string(),
        ));
    }
    if let Some(host) = &host {
        findings.extend(host_findings(host, host_unicode.as_deref().unwrap_or("")));
    }
    UrlReview {
        url: url.as_str().to_string(),
        scheme: Some(scheme.to_string()),
        host: host_unicode,
        host_ascii,
        port: url.port_or_known_default(),
        findings,
    }
}

fn userinfo_finding(host: &str) -> UrlFinding {
    UrlFinding::new(
        FindingCode::Userinfo,
        format!(
            "the URL carries a user name or password before `@`: the site it opens is {host}, \
             not the text before the `@`"
        ),
    )
}

/// The findings about the host itself, in code order.
fn host_findings(host: &Host<&str>, unicode: &str) -> Vec<UrlFinding> {
    let mut findings = Vec::new();
    if matches!(host, Host::Ipv4(_) | Host::Ipv6(_)) {
        findings.push(UrlFinding::new(
            FindingCode::IpLiteral,
            format!(
                "the host {unicode} is an IP address, not a name: it says nothing about who runs \
                 the site"
            ),
        ));
    }
    if let Some(place) = local_place(host) {
        findings.push(UrlFinding::new(
            FindingCode::LocalHost,
            format!("the host {unicode} is {place}, which a remote server cannot reach itself"),
        ));
    }
    if let Host::Domain(ascii) = host {
        if ascii.split('.').any(is_punycode_label) {
            findings.push(UrlFinding::new(
                FindingCode::PunycodeHost,
                format!(
                    "the host {ascii} is an internationalised name, shown as {unicode}: check \
                     that it is the site you expect"
                ),
            ));
        }
        if let Some(finding) = mixed_script_finding(unicode) {
            findings.push(finding);
        }
    }
    findings
}

/// The host as a person reads it. `url` has already validated it through UTS #46 ToASCII, so
/// ToUnicode does not fail; if it ever did, the ASCII form is the honest one to show.
fn domain_to_unicode(ascii: &str) -> String {
    match idna::domain_to_unicode(ascii) {
        (unicode, Ok(())) => unicode,
        (_, Err(_)) => ascii.to_string(),
    }
}

fn is_punycode_label(label: &str) -> bool {
    label
        .get(..4)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case("xn--"))
}

/// Whether the host is this computer, where plain http never leaves the machine.
fn is_loopback(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(name) => is_localhost_name(name),
        Host::Ipv4(ip) => ip.is_loopback(),
        Host::Ipv6(ip) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// `localhost` and names under `.localhost` (RFC 6761), with or without the root dot.
fn is_localhost_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    name == "localhost" || name.ends_with(".localhost")
}

/// Where a local host is, in words, or `None` for a host out on the internet.
fn local_place(host: &Host<&str>) -> Option<&'static str> {
    match host {
        Host::Domain(name) => is_localhost_name(name).then_some(THIS_COMPUTER),
        Host::Ipv4(ip) => ipv4_place(*ip),
        Host::Ipv6(ip) => match ip.to_ipv4_mapped() {
            Some(v4) => ipv4_place(v4),
            None => ipv6_place(*ip),
        },
    }
}

const THIS_COMPUTER: &str = "this computer";
const LOCAL_NETWORK: &str = "on the local network";

fn ipv4_place(ip: Ipv4Addr) -> Option<&'static str> {
    let this_network = ip.octets().first() == Some(&0);
    if ip.is_loopback() || this_network {
        Some(THIS_COMPUTER)
    } else if ip.is_private() || ip.is_link_local() {
        Some(LOCAL_NETWORK)
    } else {
        None
    }
}

fn ipv6_place(ip: Ipv6Addr) -> Option<&'static str> {
    if ip.is_loopback() || ip.is_unspecified() {
        Some(THIS_COMPUTER)
    } else if ip.is_unique_local() || ip.is_unicast_link_local() {
        Some(LOCAL_NETWORK)
    } else {
        None
    }
}

/// A `mixed_script_host` finding naming every label that could imitate another, if any does.
fn mixed_script_finding(unicode_host: &str) -> Option<UrlFinding> {
    let problems: Vec<String> = unicode_host.split('.').filter_map(label_problem).collect();
    if problems.is_empty() {
        return None;
    }
    Some(UrlFinding::new(
        FindingCode::MixedScriptHost,
        format!(
            "the host {unicode_host} can imitate another name: {}",
            problems.join("; ")
        ),
    ))
}

/// What makes `label` fail UTS #39's "highly restrictive" level, in words.
///
/// UTS #39 first requires every character to be in its identifier profile. Without that
/// table, a non-ASCII character whose Script_Extensions is just Common stands in for the
/// characters outside it: symbols and punctuation such as U+2215 DIVISION SLASH, which can
/// make `example.com∕evil.example` read as a path under `example.com`.
fn label_problem(label: &str) -> Option<String> {
    if let Some(symbol) = label
        .chars()
        .find(|c| !c.is_ascii() && c.script_extension().is_common())
    {
        let code = u32::from(symbol);
        return Some(format!(
            "`{label}` holds U+{code:04X}, a symbol that belongs to no script"
        ));
    }
    is_mixed_script(label).then(|| format!("`{label}` mixes {}", script_names(label)))
}

/// Whether `label` fails UTS #39's "highly restrictive" level.
fn is_mixed_script(label: &str) -> bool {
    let single_script = !ScriptExtension::for_str(label).is_empty();
    !single_script && !ACCEPTED_SCRIPT_SETS.iter().any(|set| covers(set, label))
}

/// Whether every character of `label` belongs to one of `scripts`; a Common or Inherited
/// character belongs to all of them.
fn covers(scripts: &[Script], label: &str) -> bool {
    label.chars().all(|c| {
        let extension = c.script_extension();
        scripts.iter().any(|&s| extension.contains_script(s))
    })
}

/// The scripts of `label`'s letters, in order of first appearance: "Latin and Cyrillic".
fn script_names(label: &str) -> String {
    let mut scripts: Vec<Script> = Vec::new();
    for script in label.chars().map(|c| c.script()) {
        let neutral = matches!(script, Script::Common | Script::Inherited | Script::Unknown);
        if !neutral && !scripts.contains(&script) {
            scripts.push(script);
        }
    }
    let names: Vec<&str> = scripts.iter().map(|s| s.full_name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(url: &str) -> Vec<&'static str> {
        review_url(url)
            .findings()
            .iter()
            .map(|f| f.code().as_str())
            .collect()
    }

    #[test]
    fn a_plain_https_url_is_ok() {
        let review = review_url("https://example.com/path?q=1#frag");
        assert_eq!(review.verdict(), Verdict::Ok);
        assert_eq!(review.url(), "https://example.com/path?q=1#frag");
        assert_eq!(review.scheme(), Some("https"));
        assert_eq!(review.host(), Some("example.com"));
        assert_eq!(review.host_ascii(), Some("example.com"));
        assert_eq!(review.port(), Some(443));
        assert!(review.findings().is_empty());
        assert_eq!(
            review.to_json(),
            r#"{"url":"https://example.com/path?q=1#frag","scheme":"https","host":"example.com","hostAscii":"example.com","port":443,"verdict":"ok","findings":[]}"#
        );
    }

    #[test]
    fn case_and_default_port_are_normalised() {
        let review = review_url("HTTPS://Example.COM:443");
        assert_eq!(review.url(), "https://example.com/");
        assert_eq!(review.port(), Some(443));
        let review = review_url("https://example.com:8443/");
        assert_eq!(review.url(), "https://example.com:8443/");
        assert_eq!(review.port(), Some(8443));
        assert_eq!(review.verdict(), Verdict::Ok);
    }

    #[test]
    fn invalid_inputs_keep_the_text_and_only_the_finding() {
        for text in [
            "",
            "/relative",
            "example.com",
            "https://",
            "http://exa mple.com",
            "::",
        ] {
            let review = review_url(text);
            assert_eq!(review.url(), text);
            assert_eq!(review.verdict(), Verdict::Reject, "{text:?}");
            assert_eq!(codes(text), ["invalid_url"], "{text:?}");
            assert_eq!(review.scheme(), None);
            assert_eq!(review.host(), None);
            assert_eq!(review.port(), None);
        }
        assert_eq!(
            review_url("nope").to_json(),
            r#"{"url":"nope","verdict":"reject","findings":[{"code":"invalid_url","severity":"reject","message":"not a valid absolute URL: relative URL without a base"}]}"#
        );
    }

    #[test]
    fn whitespace_and_controls_are_rejected_wherever_they_are() {
        for text in [
            " https://example.com/",
            "https://example.com/ ",
            "https://example.com/\n",
            "https://exa\tmple.com/",
            "https://example.com/a\u{0}b",
            "https://example.com/\u{7f}",
        ] {
            assert_eq!(codes(text), ["invalid_url"], "{text:?}");
        }
        let review = review_url("https://exa\tmple.com/");
        let message = review.findings().first().map(UrlFinding::message);
        assert!(message.is_some_and(|m| m.contains("U+0009 at byte 11")));
    }

    #[test]
    fn schemes_other_than_http_and_https_are_not_looked_at_further() {
        for text in [
            "javascript:alert(1)",
            "data:text/html,hi",
            "file:///etc/passwd",
            "ftp://user@1.2.3.4/",
            "mailto:a@example.com",
            "wss://example.com/",
        ] {
            let review = review_url(text);
            assert_eq!(codes(text), ["scheme_not_allowed"], "{text:?}");
            assert!(review.scheme().is_some());
            assert_eq!(review.host(), None);
            assert_eq!(review.port(), None);
        }
    }

    #[test]
    fn userinfo_is_rejected_and_the_real_host_named() {
        let review = review_url("https://bank.example@evil.example/");
        assert_eq!(codes("https://bank.example@evil.example/"), ["userinfo"]);
        assert_eq!(review.host(), Some("evil.example"));
        let message = review.findings().first().map(UrlFinding::message);
        assert!(message.is_some_and(|m| m.contains("evil.example")));
        assert_eq!(codes("https://:secret@example.com/"), ["userinfo"]);
        // An empty user info is dropped by the parser and shown without the `@`.
        assert_eq!(
            review_url("https://@example.com/").url(),
            "https://example.com/"
        );
        assert!(codes("https://@example.com/").is_empty());
    }

    #[test]
    fn ip_hosts_are_reported_on_the_parsed_address() {
        assert_eq!(codes("https://93.184.216.34/"), ["ip_literal"]);
        let review = review_url("http://0x7f.1/");
        assert_eq!(review.host(), Some("127.0.0.1"));
        assert_eq!(codes("http://0x7f.1/"), ["ip_literal", "local_host"]);
        assert_eq!(
            codes("http://192.168.1.1/"),
            ["not_https", "ip_literal", "local_host"]
        );
        assert_eq!(codes("https://[::1]:8080/"), ["ip_literal", "local_host"]);
        assert_eq!(review_url("https://[::1]:8080/").host(), Some("[::1]"));
        assert_eq!(codes("https://[2001:db8::1]/"), ["ip_literal"]);
        assert_eq!(
            codes("https://[::ffff:10.0.0.1]/"),
            ["ip_literal", "local_host"]
        );
        assert_eq!(codes("https://[fe80::1]/"), ["ip_literal", "local_host"]);
        assert_eq!(codes("https://[fd00::1]/"), ["ip_literal", "local_host"]);
        assert_eq!(codes("https://0.0.0.0/"), ["ip_literal", "local_host"]);
        assert_eq!(
            codes("https://169.254.169.254/"),
            ["ip_literal", "local_host"]
        );
    }

    #[test]
    fn localhost_names_are_local_and_need_no_https() {
        assert_eq!(codes("http://localhost:3000/cb"), ["local_host"]);
        assert_eq!(codes("http://app.localhost/"), ["local_host"]);
        assert_eq!(codes("http://localhost./"), ["local_host"]);
        assert_eq!(codes("http://notlocalhost/"), ["not_https"]);
        assert!(codes("https://intranet/").is_empty());
    }

    #[test]
    fn internationalised_hosts_are_reported_however_they_are_typed() {
        for text in ["https://bücher.example/", "https://xn--bcher-kva.example/"] {
            let review = review_url(text);
            assert_eq!(review.host(), Some("bücher.example"));
            assert_eq!(review.host_ascii(), Some("xn--bcher-kva.example"));
            assert_eq!(codes(text), ["punycode_host"]);
        }
    }

    #[test]
    fn mixed_scripts_follow_the_highly_restrictive_level() {
        assert!(is_mixed_script("pаypal"));
        assert!(is_mixed_script("αpple"));
        assert!(is_mixed_script("한국ひらがな"));
        assert!(is_mixed_script("中文д"));
        assert!(!is_mixed_script("東京タワー"));
        assert!(!is_mixed_script("ひらがな漢字カタカナ"));
        assert!(!is_mixed_script("韓國한국"));
        assert!(!is_mixed_script("abc中文"));
        assert!(!is_mixed_script("ㄅㄆ中文"));
        assert!(!is_mixed_script("пример-123"));
        assert!(!is_mixed_script("bücher"));
        assert!(!is_mixed_script(""));
        assert_eq!(script_names("pаypal"), "Latin and Cyrillic");
        assert_eq!(script_names("aб中"), "Latin, Cyrillic and Han");
        assert_eq!(
            codes("https://pаypal.com/"),
            ["punycode_host", "mixed_script_host"]
        );
    }

    #[test]
    fn symbols_outside_every_script_are_reported_as_look_alikes() {
        let text = "https://example.com\u{2215}evil.example/";
        assert_eq!(codes(text), ["punycode_host", "mixed_script_host"]);
        let review = review_url(text);
        let message = review.findings().last().map(UrlFinding::message);
        assert!(message.is_some_and(|m| m.contains("`com\u{2215}evil` holds U+2215")));
        // The prolonged sound mark is Common but belongs to Hiragana and Katakana.
        assert_eq!(
            codes("https://\u{30bf}\u{30ef}\u{30fc}.jp/"),
            ["punycode_host"]
        );
    }

    #[test]
    fn every_code_round_trips_through_its_name() {
        for code in FindingCode::ALL {
            assert_eq!(FindingCode::from_name(code.as_str()), Some(code));
        }
        assert_eq!(FindingCode::from_name("nope"), None);
    }

    fn assert_consistent(text: &str) {
        let review = review_url(text);
        let ranks: Vec<usize> = review
            .findings()
            .iter()
            .filter_map(|f| FindingCode::ALL.iter().position(|&c| c == f.code()))
            .collect();
        assert_eq!(ranks.len(), review.findings().len());
        assert!(ranks.is_sorted_by(|a, b| a < b), "{text:?}: {ranks:?}");
        let expected = if review
            .findings()
            .iter()
            .any(|f| f.severity() == Severity::Reject)
        {
            Verdict::Reject
        } else if review.findings().is_empty() {
            Verdict::Ok
        } else {
            Verdict::Warn
        };
        assert_eq!(review.verdict(), expected);
        if review.has(FindingCode::InvalidUrl) {
            assert_eq!(review.url(), text);
            assert_eq!(review.findings().len(), 1);
        }
        let json = review.to_json();
        assert!(crate::json::parse_str(&json, &crate::Limits::DEFAULT).is_ok());
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_text(text in "\\PC*") {
            assert_consistent(&text);
        }

        #[test]
        fn never_panics_on_url_like_text(
            text in "(https?|HTTP|ftp|javascript):(//)?([a-zA-Z0-9.:@\\[\\]%-]|[^\\x00-\\x7f]){0,30}(/[ -~]{0,10})?"
        ) {
            assert_consistent(&text);
        }
    }
}
