//! `review_url`: what a client shows a person before opening a URL-mode elicitation.
//!
//! (Skeleton: signatures only; filled in by the URL review work.)

/// What a review found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlReview {}

/// Reviews `url` before consent.
pub fn review_url(url: &str) -> UrlReview {
    let _ = url;
    UrlReview {}
}
