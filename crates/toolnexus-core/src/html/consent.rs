//! The URL consent: the address in full, its host both ways, what the review found, and a link
//! only when the review lets the person follow it.

use alloc::string::String;
use alloc::vec::Vec;

use super::HtmlOptions;
use super::out::{ElementId, Out};
use crate::error::Error;
use crate::url_review::{Severity, Verdict, review_url};

/// Writes the consent for `url` (see [`consent_html`](super::consent_html)).
pub(super) fn write(
    url: &str,
    message: &str,
    options: &HtmlOptions,
    error: Option<&Error>,
    request_id: Option<&str>,
) -> String {
    let review = review_url(url);
    let rejected = review.verdict() == Verdict::Reject;
    let mut out = Out {
        html: String::with_capacity(1024 + url.len() * 3),
        prefix: options.class_prefix(),
    };
    out.open(options, "consent", message, request_id);
    let entries: Vec<(Option<ElementId>, &str)> =
        error.iter().map(|e| (None, e.message())).collect();
    out.summary(&entries);
    out.raw("<dl");
    out.class(&["url"]);
    out.raw(">\n<dt>Address</dt>\n<dd><bdi dir=\"ltr\">");
    out.text(&shown(url));
    out.raw("</bdi></dd>\n");
    if let Some(host) = review.host() {
        out.raw("<dt>Site</dt>\n<dd><bdi dir=\"ltr\">");
        out.text(&shown(host));
        out.raw("</bdi></dd>\n");
        if let Some(ascii) = review.host_ascii().filter(|ascii| *ascii != host) {
            out.raw("<dt>Site, spelt in ASCII</dt>\n<dd><bdi dir=\"ltr\">");
            out.text(ascii);
            out.raw("</bdi></dd>\n");
        }
    }
    out.raw("</dl>\n");
    if !review.findings().is_empty() {
        out.raw("<ul");
        out.class(&["findings"]);
        out.raw(">\n");
        for finding in review.findings() {
            out.raw("<li");
            match finding.severity() {
                Severity::Reject => out.class(&["finding", "finding-reject"]),
                Severity::Warn => out.class(&["finding", "finding-warn"]),
            }
            out.raw(">");
            out.raw(match finding.severity() {
                Severity::Reject => "Refused: ",
                Severity::Warn => "Warning: ",
            });
            out.text(finding.message());
            out.raw("</li>\n");
        }
        out.raw("</ul>\n");
    }
    out.raw("<p");
    out.class(&["note"]);
    out.raw(">");
    if rejected {
        out.raw("This address cannot be opened from here.");
    } else {
        out.raw("<a href=\"");
        out.attr(&shown(url));
        out.raw("\" target=\"_blank\" rel=\"noopener noreferrer\">Open <bdi dir=\"ltr\">");
        out.text(&shown(review.host().unwrap_or(url)));
        out.raw("</bdi> in a new tab</a>. Accepting opens nothing by itself.");
    }
    out.raw("</p>\n");
    out.buttons(!rejected);
    out.html
}

/// `text` as a person should read an address: a character that reorders text around it (an
/// override, an embedding, an isolate, a mark) is written as its percent escapes, which is
/// what a URL means by it, so that an address cannot look like another.
fn shown(text: &str) -> String {
    let reorders = |c: char| matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    if !text.contains(reorders) {
        return String::from(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if reorders(c) {
            let mut bytes = [0u8; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                out.push_str(&alloc::format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}
