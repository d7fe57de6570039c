//! `toolnexus map`: `ElicitRequestParams` to a `Request`, with `--id` or a fresh id.

use toolnexus_core::{ElicitRequestParams, Limits, elicitation_to_request, id};

use crate::input::Source;
use crate::report::{Printed, done};

/// `toolnexus map [FILE] [--id ID]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The params: a file, or - for standard input (the default).
    file: Option<String>,
    /// The request's id (default: a fresh one).
    #[arg(long)]
    id: Option<String>,
}

/// Prints the request the params map to.
pub fn exec(args: Args) -> Printed {
    let limits = Limits::DEFAULT;
    let source = Source::parse(args.file.as_deref().unwrap_or("-"));
    let params = ElicitRequestParams::from_value(source.json(&limits)?)?;
    let request_id = args.id.map_or_else(id::next_id, String::from);
    done(elicitation_to_request(&params, &request_id)?.to_json())
}
