//! Tests of the string formats: which addresses, URIs, dates and times each format admits.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::schema::StringFormat;
use crate::schema::format::*;

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
