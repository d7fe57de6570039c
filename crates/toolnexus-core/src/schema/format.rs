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
fn is_email_by_parts(text: &str) -> bool {
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
fn ascii_email(bytes: &[u8]) -> Option<bool> {
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
fn is_dot_atom_by_chars(local: &str) -> bool {
    local
        .split('.')
        .all(|atom| !atom.is_empty() && atom.chars().all(is_atext))
}

/// [`is_dot_atom`] for ASCII, in one pass over the bytes: what most addresses are.
fn is_ascii_dot_atom(local: &[u8]) -> bool {
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
fn is_host_name_by_chars(domain: &str) -> bool {
    let last_is_numeric = domain
        .rsplit('.')
        .next()
        .is_some_and(|label| label.bytes().all(|b| b.is_ascii_digit()));
    !last_is_numeric && domain.split('.').all(is_label)
}

/// [`is_host_name`] for ASCII, in one pass over the bytes: what most domains are.
fn is_ascii_host_name(domain: &[u8]) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn assert_emails(valid: bool, samples: &[&str]) {
        for sample in samples {
            assert_eq!(is_email(sample), valid, "is_email({sample:?})");
            assert_eq!(matches(StringFormat::Email, sample), valid, "{sample:?}");
        }
    }

    fn assert_uris(valid: bool, samples: &[&str]) {
        for sample in samples {
            assert_eq!(is_uri(sample), valid, "is_uri({sample:?})");
            assert_eq!(matches(StringFormat::Uri, sample), valid, "{sample:?}");
        }
    }

    /// Every text of up to `length` characters drawn from `alphabet`.
    fn every_text(alphabet: &[char], length: usize) -> Vec<String> {
        let mut all = alloc::vec![String::new()];
        let mut last = all.clone();
        for _ in 0..length {
            last = last
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn the_one_pass_over_an_address_agrees_with_its_parts() {
        let mut texts = every_text(&['a', '1', '-', '.', '@', '!', ' ', '['], 6);
        for n in [62, 63, 64, 65] {
            texts.push(format!("{}@b.c", "a".repeat(n)));
            texts.push(format!("a@{}.c", "b".repeat(n)));
            texts.push(format!("a@c.{}", "1".repeat(n)));
        }
        texts.extend(["é@a.b", "a@é.b", "a@[1.2.3.4]", "a@[IPv6:::1]", "x@@y.z"].map(String::from));
        for text in &texts {
            let one_pass = ascii_email(text.as_bytes()).unwrap_or_else(|| is_email_by_parts(text));
            assert_eq!(one_pass, is_email_by_parts(text), "{text:?}");
        }
    }

    #[test]
    fn ascii_passes_agree_with_the_character_passes() {
        // Short texts of the bytes that matter, and long ones around the label limit.
        let mut texts = every_text(&['a', '1', '-', '.', '!', '_', ' ', '@'], 5);
        for n in [62, 63, 64] {
            texts.push(format!("{}.b", "a".repeat(n)));
            texts.push(format!("b.{}", "a".repeat(n)));
            texts.push(format!("b.{}", "1".repeat(n)));
        }
        for text in &texts {
            assert_eq!(
                is_ascii_dot_atom(text.as_bytes()),
                is_dot_atom_by_chars(text),
                "dot-atom {text:?}"
            );
            assert_eq!(
                is_ascii_host_name(text.as_bytes()),
                is_host_name_by_chars(text),
                "host name {text:?}"
            );
        }
    }

    #[test]
    fn email_dot_atoms() {
        assert_emails(
            true,
            &[
                "joe.bloggs@example.com",
                "te~st@example.com",
                "~test@example.com",
                "test~@example.com",
                "te.s.t@example.com",
                "a@b.co",
                "first.last+tag@sub.example.org",
                "!#$%&'*+-/=?^_`{|}~@example.org",
                "UPPER.case@EXAMPLE.ORG",
                "1234@example.org",
                "a@b-c.d-e.example",
                "a@xn--bcher-kva.example",
                "a@1.example.org",
                "a@123.example",
                "a@example.o1",
                // The last `@` splits, and a local part cannot hold another.
                "x@y.z",
            ],
        );
        assert_emails(
            false,
            &[
                "",
                "2962",
                "@",
                "@example.org",
                "user@",
                ".test@example.com",
                "test.@example.com",
                "te..st@example.com",
                "a@b@example.org",
                "a@@example.org",
                "a(comment)@example.org",
                "a,b@example.org",
                "a;b@example.org",
                "a:b@example.org",
                "a<b>@example.org",
                "a[b]@example.org",
                "a\\b@example.org",
                "a\"b@example.org",
                "joe.bloggs@invalid=domain.com",
                "user1@oceania.org, user2@oceania.org",
                "\"Winston Smith\" <winston.smith@recdep.minitrue> (Records Department)",
                "<a@example.org>",
                "a@example.org>",
            ],
        );
    }

    #[test]
    fn email_quoted_local_parts_are_refused() {
        // JSON Schema's test suite accepts these as RFC 5321 addresses; this format does not.
        assert_emails(
            false,
            &[
                "\"joe bloggs\"@example.com",
                "\"joe..bloggs\"@example.com",
                "\"joe@bloggs\"@example.com",
                "\"joe\"@example.com",
            ],
        );
    }

    #[test]
    fn email_spaces_and_controls() {
        assert_emails(
            false,
            &[
                "a b@example.org",
                " a@example.org",
                "a@example.org ",
                "a@exa mple.org",
                "a\t@example.org",
                "a\n@example.org",
                "a@example.org\n",
                "a\u{00A0}b@example.org",
                "a\u{3000}b@example.org",
                "a@exa\u{2003}mple.org",
                "a\u{0085}@example.org",
                "a\u{0000}@example.org",
            ],
        );
    }

    #[test]
    fn email_internationalised() {
        assert_emails(
            true,
            &[
                "实例@实例.测试",
                "用户@例子.广告",
                "josé@example.org",
                "θσερ@εχαμπλε.ψομ",
                "user@bücher.example",
                "пользователь@пример.рф",
                "अजय@डाटा.भारत",
                "ü@ü",
            ],
        );
        assert_emails(
            false,
            &[
                "user@例子\u{3002}广告",
                "user@例子\u{FF0E}广告",
                "user@例子\u{FF61}广告",
                "用户@-例子.广告",
            ],
        );
    }

    #[test]
    fn email_host_names() {
        assert_emails(true, &["admin@localhost", "a@example", "a@a-b", "a@x1"]);
        assert_emails(
            false,
            &[
                "a@example.org.",
                "a@.example.org",
                "a@example..org",
                "a@-example.org",
                "a@example-.org",
                "a@example.-org",
                "a@exa_mple.org",
                "a@example.org:25",
                "a@example.org/path",
                "a@127.0.0.1",
                "a@example.123",
                "a@123",
                "a@.",
                "a@[]",
                "a@[example.org]",
            ],
        );
    }

    #[test]
    fn email_address_literals() {
        assert_emails(
            true,
            &[
                "joe.bloggs@[127.0.0.1]",
                "a@[192.0.2.1]",
                "a@[0.0.0.0]",
                "a@[255.255.255.255]",
                "joe.bloggs@[IPv6:::1]",
                "a@[IPv6:2001:db8::1]",
                "a@[ipv6:2001:DB8::1]",
                "a@[IPv6:2001:db8:0:0:0:0:0:1]",
                "a@[IPv6:::ffff:192.0.2.1]",
                "a@[IPv6:fe80::]",
            ],
        );
        assert_emails(
            false,
            &[
                "joe.bloggs@[127.0.0.300]",
                "a@[192.0.2]",
                "a@[192.0.2.1.5]",
                "a@[192.0.2.01]",
                "a@[192.0.2.-1]",
                "a@[ 192.0.2.1]",
                "a@[192.0.2.1",
                "a@192.0.2.1]",
                "a@[2001:db8::1]",
                "a@[IPv6:2001:db8::g]",
                "a@[IPv6:2001:db8:::1]",
                "a@[IPv6:1:2:3:4:5:6:7:8:9]",
                "a@[IPv6:fe80::1%eth0]",
                "a@[IPv6:192.0.2.1]",
                "a@[IPv4:192.0.2.1]",
                "a@[x-tag:content]",
                "a@[IPv6:]",
                "a@[IPv6]",
            ],
        );
    }

    #[test]
    fn email_lengths_count_octets() {
        let domain = "@example.org";
        let local_64 = "a".repeat(64);
        let local_65 = "a".repeat(65);
        assert!(is_email(&format!("{local_64}{domain}")));
        assert!(!is_email(&format!("{local_65}{domain}")));
        // 32 two-octet characters are 64 octets; 33 are too many.
        assert!(is_email(&format!("{}{domain}", "é".repeat(32))));
        assert!(!is_email(&format!("{}{domain}", "é".repeat(33))));

        let label_63 = "b".repeat(63);
        let label_64 = "b".repeat(64);
        assert!(is_email(&format!("a@{label_63}.org")));
        assert!(!is_email(&format!("a@{label_64}.org")));
        assert!(!is_email(&format!("a@{}.org", "é".repeat(32))));

        // Host names of 252 and 253 octets (three labels of 63, then the rest): after `a@`,
        // only the first keeps the address within 254 octets.
        let host = |len: usize| -> String {
            let labels = [label_63.as_str(); 3].join(".");
            format!("{labels}.{}", "c".repeat(len - labels.len() - 1))
        };
        let (host_252, host_253) = (host(252), host(253));
        assert_eq!((host_252.len(), host_253.len()), (252, 253));
        assert!(is_email(&format!("a@{host_252}")));
        assert!(!is_email(&format!("a@{host_253}")));

        // 64 + 1 + 189 = 254 octets in all, and one more.
        let host_of = |len: usize| format!("{label_63}.{label_63}.{}", "d".repeat(len - 128));
        assert!(is_email(&format!("{local_64}@{}", host_of(189))));
        assert!(!is_email(&format!("{local_64}@{}", host_of(190))));
    }

    #[test]
    fn uri_valid() {
        assert_uris(
            true,
            &[
                "urn:isbn:0451450523",
                "mailto:a@b.c",
                "https://[::1]:80/p?q#f",
                "http://foo.bar/?baz=qux#quux",
                "http://foo.com/blah_(wikipedia)_blah#cite-1",
                "http://foo.bar/?q=Test%20URL-encoded%20stuff",
                "http://xn--nw2a.xn--j6w193g/",
                "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
                "http://223.255.255.254",
                "ftp://ftp.is.co.za/rfc/rfc1808.txt",
                "http://www.ietf.org/rfc/rfc2396.txt",
                "ldap://[2001:db8::7]/c=GB?objectClass?one",
                "mailto:John.Doe@example.com",
                "news:comp.infosystems.www.servers.unix",
                "tel:+1-816-555-1212",
                "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
                "file:///etc/hosts",
                "http://example.com:",
                "http://[v7.fe80::a+en1]/",
                "http://[::ffff:192.0.2.1]/",
                "HTTPS://EXAMPLE.COM/",
                "a+b-c.d:x",
                "data:text/plain;charset=utf-8,hi%21",
                "x:",
                "https://example.org/a#b?c/d",
            ],
        );
    }

    #[test]
    fn uri_invalid() {
        assert_uris(
            false,
            &[
                "",
                "//foo.bar/?baz=qux#quux",
                "//example.com",
                "/abc",
                "/path",
                "abc",
                "page.html",
                "?query",
                "#fragment",
                ":no-scheme",
                "\\\\WINDOWS\\fileshare",
                "http:// shouldfail.com",
                ":// should fail",
                "bar,baz:foo",
                "1http://example.com",
                "-x:y",
                "http://exa mple.com",
                "http://example.com/a b",
                " http://example.com",
                "http://example.com ",
                "http://example.com/ä",
                "http://ƒøø.ßår/?∂éœ=πîx#πîüx",
                "https://example.org/foobar\\.txt",
                "https://example.org/foobar<>.txt",
                "https://example.org/foobar{}.txt",
                "https://example.org/foobar^.txt",
                "https://example.org/foobar`.txt",
                "https://example.org/foobar|.txt",
                "https://example.org/foobar\".txt",
                "https://[@example.org/test.txt",
                "http://[::1",
                "http://[::1]x",
                "http://[2001:db8:::1]/",
                "http://[192.0.2.1]/",
                "http://example.com:8o/",
                "http://example.com/%zz",
                "http://example.com/%4",
                "http://example.com/#a#b",
                "http://a@b@example.com/",
            ],
        );
    }

    #[test]
    fn dates_delegate_to_rfc3339() {
        for (text, valid) in [
            ("2024-02-29", true),
            ("2000-02-29", true),
            ("2023-02-29", false),
            ("1900-02-29", false),
            ("2024-04-31", false),
            ("2024-13-01", false),
            ("2024-01-00", false),
        ] {
            assert_eq!(matches(StringFormat::Date, text), valid, "{text}");
        }
        for (text, valid) in [
            ("2016-12-31T23:59:60Z", true),
            ("2017-01-01T00:59:60+01:00", true),
            ("2016-12-31T22:59:60Z", false),
            ("1985-04-12t23:20:50.52z", true),
            ("1985-04-12T23:20:50", false),
            ("1985-04-12T23:20:50.123456789-00:00", true),
            ("2024-02-29", false),
        ] {
            assert_eq!(matches(StringFormat::DateTime, text), valid, "{text}");
        }
    }

    #[test]
    fn every_format_refuses_empty_text() {
        for format in StringFormat::ALL {
            assert!(!matches(format, ""), "{format:?}");
        }
    }
}
