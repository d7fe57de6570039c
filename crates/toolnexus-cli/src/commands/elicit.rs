//! `toolnexus elicit`: one elicitation answered in the terminal (or from `--answers`), the
//! reply printed; with no input, the sample: a form with every kind of field, then a URL.

use std::io::IsTerminal;

use toolnexus_core::Limits;

use super::shared::asker;
use crate::elicit;
use crate::input::{Elicitation, Source};
use crate::printer::Output;
use crate::report::{Exit, Failure, Printed};
use crate::sample;

/// `toolnexus elicit [FILE] [--answers FILE|-] [--server NAME]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The elicitation: a file, or - for standard input.
    file: Option<String>,
    /// Answer from a JSON array of answers ({"ok":true,"data":{…}}, {"ok":false,
    /// "reason":"declined"}, {"ok":false}) instead of asking: a file, or - for standard
    /// input.
    #[arg(long, value_name = "FILE|-")]
    answers: Option<String>,
    /// Name the server that asks, to show above each form.
    #[arg(long, value_name = "NAME")]
    server: Option<String>,
}

/// Answers the elicitation and prints the reply.
pub fn exec(args: Args) -> Printed {
    let Args {
        file,
        answers,
        server,
    } = args;
    let server = server.as_deref();
    let limits = &Limits::DEFAULT;
    if file.as_deref() == Some("-") && answers.as_deref() == Some("-") {
        return Err(Failure::usage(
            "the elicitation and --answers cannot both be standard input",
        ));
    }
    let mut asker = asker(answers.as_deref(), limits, true)?;
    // No file and nothing piped in: the sample, a form and then a URL request.
    let sample = file.is_none() && std::io::stdin().is_terminal();
    if sample {
        let mut replies = Vec::new();
        let mut exit = Exit::Done;
        for text in [sample::FORM, sample::URL] {
            let elicitation = Elicitation::read(text.as_bytes(), limits)?;
            let finished = elicit::run(elicitation, asker.as_mut(), server)?;
            replies.push(finished.reply);
            if finished.exit != Exit::Done {
                exit = finished.exit;
            }
        }
        return Ok((Output::Json(replies.join("\n")), exit));
    }
    let bytes = Source::parse(file.as_deref().unwrap_or("-")).read(limits)?;
    let elicitation = Elicitation::read(&bytes, limits)?;
    let finished = elicit::run(elicitation, asker.as_mut(), server)?;
    Ok((Output::Json(finished.reply), finished.exit))
}
