//! `toolnexus check-schema`: every problem with a `requestedSchema`, `[{kind, pointer,
//! message}]`; refused when there is any.

use toolnexus_core::{Limits, Value, check_schema};

use crate::input::Source;
use crate::printer::Output;
use crate::report::{Printed, verdict};

/// `toolnexus check-schema SCHEMA`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The schema: a file, or - for standard input.
    schema: String,
}

/// Prints the problems found.
pub fn exec(args: Args) -> Printed {
    let limits = Limits::DEFAULT;
    let problems = check_schema(&Source::parse(&args.schema).json(&limits)?);
    let exit = verdict(problems.is_empty());
    let list = Value::Array(problems.iter().map(|p| p.to_value()).collect());
    Ok((Output::Json(list.to_json()), exit))
}
