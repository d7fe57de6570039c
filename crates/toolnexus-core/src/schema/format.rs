//! The four string formats of an elicitation schema: `email`, `uri`, `date`, `date-time`.
//!
//! Each check is a pure function of the text: no lookups, no normalisation, nothing trimmed.
//!
//! | format | accepts | refuses |
//! |---|---|---|
//! | `email` | `local@domain` ([`is_email`]): a dot-atom local part of at most 64 octets, non-ASCII allowed (RFC 6531); a host name of dot-separated labels, IDN allowed, or an address literal `[192.0.2.1]` / `[IPv6:2001:db8::1]`; at most 254 octets | spaces, quoted local parts, a missing or second part, trailing dots, bare IP addresses |
//! | `uri` | an absolute URI, RFC 3986 `URI` ([`is_uri`]): `https://[::1]:80/p?q#f`, `urn:isbn:0451450523`, `mailto:a@b.c` | relative references (`//host`, `/path`), spaces, non-ASCII (that is an IRI), bad percent escapes |
//! | `date` | RFC 3339 `full-date` of a real calendar day ([`crate::rfc3339::is_full_date`]): `2024-02-29` | `2023-02-29`, `2024-04-31`, `2024-13-01` |
//! | `date-time` | RFC 3339 `date-time` with an offset ([`crate::rfc3339::is_date_time`]): `2016-12-31T23:59:60Z`, `1985-04-12t23:20:50.52-00:00` | no offset, a space for `T`, a leap second at any UTC minute but 23:59 |
//!
//! ```
//! use toolnexus_core::schema::format::{is_email, is_uri, matches};
//! use toolnexus_core::schema::StringFormat;
//!
//! assert!(is_email("ada@example.org"));
//! assert!(is_email("用户@例子.广告"));
//! assert!(!is_email("ada lovelace@example.org"));
//! assert!(is_uri("urn:isbn:0451450523"));
//! assert!(!is_uri("//example.org/path"));
//! assert!(matches(StringFormat::Date, "2024-02-29"));
//! assert!(!matches(StringFormat::DateTime, "2024-02-29T12:00:00"));
//! ```

use core::net::{Ipv4Addr, Ipv6Addr};

use crate::schema::StringFormat;

/// Whether `text` is in `format`.
pub fn matches(format: StringFormat, text: &str) -> bool {
    match format {
        StringFormat::Email => is_email(text),
        StringFormat::Uri => is_uri(text),
        StringFormat::Date => crate::rfc3339::is_full_date(text),
        StringFormat::DateTime => crate::rfc3339::is_date_time(text),
    }
}

/// Most octets in a whole address: a forward path holds 256, two of them the angle brackets
/// (RFC 5321 §4.5.3.1.3, RFC 3696 erratum 1690).
const MAX_ADDRESS: usize = 254;
/// Most octets in a local part (RFC 5321 §4.5.3.1.1).
const MAX_LOCAL_PART: usize = 64;
/// Most octets in one label of a host name (RFC 1035 §2.3.4).
const MAX_LABEL: usize = 63;

/// Whether `text` is an email address: an addr-spec `local@domain` as a person types it into a
/// form, with no spaces and no comments or display name.
///
/// - The text is split at its last `@`; both sides must be non-empty, and the whole address
///   at most 254 octets.
/// - The local part is an RFC 5322 dot-atom of at most 64 octets: runs of letters, digits and
///   ``!#$%&'*+-/=?^_`{|}~``, joined by single dots, with no dot first or last. Any non-ASCII
///   character other than white space and control characters also counts as a letter, as
///   RFC 6531 permits for internationalised addresses (`用户@例子.广告`).
/// - Quoted local parts (`"john smith"@example.org`) are refused. Their only use is to carry
///   spaces, `@`, doubled dots and other characters a dot-atom cannot, which a form asking
///   for an address never needs and which most mail systems refuse to deliver to
///   (RFC 5321 §4.1.2 already tells senders not to create them).
/// - The domain is either a host name or an address literal. A host name is labels joined by
///   single dots, each label 1–63 octets of ASCII letters, digits and
///   hyphens (no hyphen first or last) or non-ASCII characters for internationalised domain
///   names. A single label (`admin@localhost`) is accepted, as RFC 5321's grammar and HTML's
///   `type=email` accept it: dotless names are real on private networks. A trailing dot
///   (`a@example.org.`) is not: RFC 5321 domains have none. The last label may not be all
///   digits, as no top-level domain is (RFC 3696 §2), so an IP address has to be written as
///   an address literal. The limit on the whole address keeps a host name within the 253
///   octets DNS allows. Lengths are counted in UTF-8 octets, as written.
/// - An address literal is `[` an IPv4 address `]` in dotted-quad form without leading zeros
///   (`[192.0.2.1]`), or `[IPv6:` an IPv6 address in any RFC 4291 text form `]`
///   (`[IPv6:2001:db8::1]`, `[IPv6:::ffff:192.0.2.1]`); the tag's case does not matter.
///
/// Whether the domain exists or accepts mail is not checked, nor whether an internationalised
/// label is a valid IDNA2008 U-label.
///
/// ```
/// use toolnexus_core::schema::format::is_email;
///
/// assert!(is_email("first.last+tag@sub.example.org"));
/// assert!(is_email("ops@[IPv6:2001:db8::1]"));
/// assert!(!is_email("first..last@example.org"));
/// assert!(!is_email("a@b@example.org"));
/// ```
pub fn is_email(text: &str) -> bool {
    if text.len() > MAX_ADDRESS {
        return false;
    }
    ascii_email(text.as_bytes()).unwrap_or_else(|| is_email_by_parts(text))
}

/// [`is_email`] by its parts: the text split at its last `@`, each side checked.
pub(super) fn is_email_by_parts(text: &str) -> bool {
    // `@` is one byte in UTF-8, never part of another character.
    let Some(at) = text.bytes().rposition(|b| b == b'@') else {
        return false;
    };
    match (text.get(..at), text.get(at + 1..)) {
        (Some(local), Some(domain)) => is_dot_atom(local) && is_domain(domain),
        _ => false,
    }
}

/// [`is_email`] over the bytes of an ASCII address with a host name, which is what most
/// addresses are; `None` for any other (a byte beyond ASCII, an address literal), which
/// [`is_email_by_parts`] decides. A local part holds no `@`, so the first one splits; each
/// side is then one tight pass.
pub(super) fn ascii_email(bytes: &[u8]) -> Option<bool> {
    let Some(at) = bytes.iter().position(|&b| b == b'@') else {
        // No `@` at all: not an address, whatever the bytes are.
        return Some(false);
    };
    let (Some(local), Some(domain)) = (bytes.get(..at), bytes.get(at + 1..)) else {
        return Some(false);
    };
    if local.len() > MAX_LOCAL_PART {
        return Some(false);
    }
    // A dot-atom: atoms of atext joined by single dots. Before the first byte, as after a
    // dot, an atom must start.
    let mut after_dot = true;
    for &b in local {
        if ascii_class(b) & ATEXT != 0 {
            after_dot = false;
        } else if b == b'.' && !after_dot {
            after_dot = true;
        } else if b.is_ascii() {
            return Some(false);
        } else {
            return None;
        }
    }
    if after_dot {
        return Some(false);
    }
    if domain.first() == Some(&b'[') {
        return None;
    }
    // Labels of letters, digits and inner hyphens, joined by dots; the last not all digits.
    let (mut label, mut digits, mut last) = (0usize, true, b'.');
    for &b in domain {
        let class = ascii_class(b);
        if class & LABEL != 0 && (b != b'-' || label > 0) {
            label += 1;
            digits &= class & DIGIT != 0;
            last = b;
        } else if b == b'.' && label > 0 && label <= MAX_LABEL && last != b'-' {
            (label, digits, last) = (0, true, b);
        } else if b.is_ascii() {
            return Some(false);
        } else {
            return None;
        }
    }
    Some((1..=MAX_LABEL).contains(&label) && last != b'-' && !digits)
}

/// Whether `text` is an absolute URI: RFC 3986's `URI` production,
/// `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
///
/// A scheme is required, so relative references (`//example.org`, `/path`, `page.html`) are
/// refused. Only the characters RFC 3986 allows may appear, anything else percent-encoded
/// with two hex digits: no spaces, no non-ASCII (text with it is an IRI, not a URI). An IPv6
/// host must be a valid address. Beyond the grammar nothing is checked: the scheme need not
/// be registered, and a host name need not resolve.
///
/// ```
/// use toolnexus_core::schema::format::is_uri;
///
/// assert!(is_uri("https://[::1]:80/p?q#f"));
/// assert!(is_uri("mailto:a@b.c"));
/// assert!(!is_uri("/path"));
/// assert!(!is_uri("http://example.com/ä"));
/// ```
pub fn is_uri(text: &str) -> bool {
    fluent_uri::Uri::parse(text).is_ok()
}

/// Whether `local` is a dot-atom of at most [`MAX_LOCAL_PART`] octets.
fn is_dot_atom(local: &str) -> bool {
    if local.len() > MAX_LOCAL_PART {
        return false;
    }
    if local.is_ascii() {
        is_ascii_dot_atom(local.as_bytes())
    } else {
        is_dot_atom_by_chars(local)
    }
}

/// [`is_dot_atom`] for any text, a character at a time.
pub(super) fn is_dot_atom_by_chars(local: &str) -> bool {
    local
        .split('.')
        .all(|atom| !atom.is_empty() && atom.chars().all(is_atext))
}

/// [`is_dot_atom`] for ASCII, in one pass over the bytes: what most addresses are.
pub(super) fn is_ascii_dot_atom(local: &[u8]) -> bool {
    let mut atom = 0usize;
    for &b in local {
        if b == b'.' {
            if atom == 0 {
                return false;
            }
            atom = 0;
        } else if is_ascii_atext(b) {
            atom += 1;
        } else {
            return false;
        }
    }
    atom > 0
}

/// What each ASCII byte may be in an address: bits of [`ATEXT`], [`LABEL`] and [`DIGIT`].
static ASCII_CLASSES: [u8; 128] = ascii_classes();
/// RFC 5322 `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
const ATEXT: u8 = 1;
/// A byte of a host name's label: a letter, a digit or `-`.
const LABEL: u8 = 2;
/// A decimal digit.
const DIGIT: u8 = 4;

// Run by the compiler alone: an index out of bounds would fail the build, not a caller.
#[allow(clippy::indexing_slicing)]
const fn ascii_classes() -> [u8; 128] {
    let mut classes = [0u8; 128];
    let mut i = 0;
    while i < classes.len() {
        let b = i as u8;
        let mut class = 0;
        if b.is_ascii_alphanumeric() {
            class |= ATEXT | LABEL;
        }
        if b.is_ascii_digit() {
            class |= DIGIT;
        }
        if b == b'-' {
            class |= LABEL;
        }
        let mut j = 0;
        let specials = b"!#$%&'*+-/=?^_`{|}~";
        while j < specials.len() {
            if specials[j] == b {
                class |= ATEXT;
            }
            j += 1;
        }
        classes[i] = class;
        i += 1;
    }
    classes
}

/// The classes of a byte: none for a byte beyond ASCII.
fn ascii_class(b: u8) -> u8 {
    ASCII_CLASSES.get(usize::from(b)).copied().unwrap_or(0)
}

/// RFC 5322 `atext` among ASCII bytes.
fn is_ascii_atext(b: u8) -> bool {
    ascii_class(b) & ATEXT != 0
}

/// RFC 5322 `atext`, widened by RFC 6531 to every non-ASCII character that can be typed as
/// part of a word.
fn is_atext(c: char) -> bool {
    if c.is_ascii() {
        u8::try_from(c).is_ok_and(is_ascii_atext)
    } else {
        is_non_ascii_text(c)
    }
}

/// A non-ASCII character that may stand in a word: not white space (such as U+00A0 or
/// U+3000) and not a control character.
fn is_non_ascii_text(c: char) -> bool {
    !c.is_ascii() && !c.is_whitespace() && !c.is_control()
}

/// Whether `domain` is an address literal in brackets or a host name.
fn is_domain(domain: &str) -> bool {
    match domain
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        Some(literal) => is_address_literal(literal),
        None => is_host_name(domain),
    }
}

/// Whether the text between the brackets is an IPv4 address or `IPv6:` and an IPv6 address.
/// RFC 5321's general literals (`tag:content`) are refused: no other tag is registered.
fn is_address_literal(literal: &str) -> bool {
    const IPV6_TAG: &str = "IPv6:";
    match literal.split_at_checked(IPV6_TAG.len()) {
        Some((tag, address)) if tag.eq_ignore_ascii_case(IPV6_TAG) => {
            address.parse::<Ipv6Addr>().is_ok()
        }
        // core's IPv4 reader takes exactly four decimal parts of 0–255 and refuses leading
        // zeros, which some readers would take for octal.
        _ => literal.parse::<Ipv4Addr>().is_ok(),
    }
}

/// Whether `domain` is a host name: labels joined by single dots, no trailing dot, the last
/// label not all digits. Its length needs no check of its own: the 254-octet limit on the
/// whole address keeps it within 252 octets, inside the 253 of RFC 1035 §2.3.4.
fn is_host_name(domain: &str) -> bool {
    if domain.is_ascii() {
        is_ascii_host_name(domain.as_bytes())
    } else {
        is_host_name_by_chars(domain)
    }
}

/// [`is_host_name`] for any text, a label and a character at a time.
pub(super) fn is_host_name_by_chars(domain: &str) -> bool {
    let last_is_numeric = domain
        .rsplit('.')
        .next()
        .is_some_and(|label| label.bytes().all(|b| b.is_ascii_digit()));
    !last_is_numeric && domain.split('.').all(is_label)
}

/// [`is_host_name`] for ASCII, in one pass over the bytes: what most domains are.
pub(super) fn is_ascii_host_name(domain: &[u8]) -> bool {
    // The current label's length, whether it is all digits so far, and its last byte.
    let (mut length, mut digits, mut last) = (0usize, true, b'.');
    for &b in domain {
        if b == b'.' {
            if length == 0 || length > MAX_LABEL || last == b'-' {
                return false;
            }
            (length, digits) = (0, true);
        } else if ascii_class(b) & LABEL != 0 && (b != b'-' || length > 0) {
            length += 1;
            digits &= ascii_class(b) & DIGIT != 0;
        } else {
            return false;
        }
        last = b;
    }
    (1..=MAX_LABEL).contains(&length) && last != b'-' && !digits
}

/// Whether `label` is one label of a host name: 1–63 octets of letters, digits and inner
/// hyphens, non-ASCII letters included.
fn is_label(label: &str) -> bool {
    (1..=MAX_LABEL).contains(&label.len())
        && !label.starts_with('-')
        && !label.ends_with('-')
        && label.chars().all(is_label_char)
}

fn is_label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || (is_non_ascii_text(c) && !is_idna_full_stop(c))
}

/// The full stops IDNA reads as label separators (UTS #46 maps them to `.`): in a label they
/// would make the name mean a different domain from the one it appears to be.
fn is_idna_full_stop(c: char) -> bool {
    matches!(c, '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}
