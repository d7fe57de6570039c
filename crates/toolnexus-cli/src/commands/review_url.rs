//! `toolnexus review-url`: the review of a URL-mode link; refused when its verdict is
//! `reject`.

use toolnexus_core::review_url;
use toolnexus_core::url_review::Verdict;

use crate::printer::Output;
use crate::report::{Printed, verdict};

/// `toolnexus review-url URL`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The URL.
    url: String,
}

/// Prints the review.
pub fn exec(args: Args) -> Printed {
    let review = review_url(&args.url);
    let exit = verdict(review.verdict() != Verdict::Reject);
    Ok((Output::Json(review.to_json()), exit))
}
