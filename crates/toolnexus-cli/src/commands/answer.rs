//! `toolnexus answer`: an `Answer` to an `ElicitResult`.

use toolnexus_core::{Answer, Limits, answer_to_elicit_result};

use crate::input::Source;
use crate::report::{Printed, done};

/// `toolnexus answer [FILE]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The answer: a file, or - for standard input (the default).
    file: Option<String>,
}

/// Prints the result the answer maps to.
pub fn exec(args: Args) -> Printed {
    let limits = Limits::DEFAULT;
    let source = Source::parse(args.file.as_deref().unwrap_or("-"));
    let answer = Answer::from_value(source.json(&limits)?)?;
    done(answer_to_elicit_result(&answer)?.to_json())
}
