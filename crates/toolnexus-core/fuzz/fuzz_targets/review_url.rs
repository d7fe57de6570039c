//! `review_url` on any text: never a panic; the same text always gets the same review; a URL
//! that is not rejected has an `http` or `https` scheme and a host, and its serialised form
//! holds no space or control character; reviewing that form again finds it well-formed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus_core::{FindingCode, Verdict, review_url};

fuzz_target!(|url: &str| {
    let review = review_url(url);
    assert_eq!(review, review_url(url));
    if review.verdict() != Verdict::Reject {
        assert!(
            matches!(review.scheme(), Some("http" | "https")),
            "{url:?}: {review:?}"
        );
        assert!(
            review.host().is_some(),
            "{url:?} is let through without a host"
        );
        let href = review.url();
        assert!(
            !href.chars().any(|c| c.is_ascii_control() || c == ' '),
            "{href:?}"
        );
        let again = review_url(href);
        assert!(
            !again.has(FindingCode::InvalidUrl),
            "{href:?} from {url:?}: {again:?}"
        );
        assert_eq!(again.url(), href, "serialising {url:?} is not stable");
    }
});
