//! `toolnexus validate`: every violation of content against a `requestedSchema`,
//! `[{pointer, keyword, message}]`; refused when there is any.

use toolnexus_core::form::Form;
use toolnexus_core::{ContentOptions, Limits, Value};

use crate::input::Source;
use crate::printer::Output;
use crate::report::{Failure, Printed, verdict};

/// `toolnexus validate SCHEMA CONTENT [--allow-unknown]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The schema: a file, or - for standard input.
    schema: String,
    /// The content: a file, or - for standard input.
    content: String,
    /// Accept members the schema does not declare.
    #[arg(long)]
    allow_unknown: bool,
}

/// Prints the violations found.
pub fn exec(args: Args) -> Printed {
    let limits = Limits::DEFAULT;
    let (schema, content) = (Source::parse(&args.schema), Source::parse(&args.content));
    if schema == Source::Stdin && content == Source::Stdin {
        return Err(Failure::usage(
            "SCHEMA and CONTENT cannot both be standard input: give one of them as a file",
        ));
    }
    let form = Form::new(&schema.json(&limits)?)?;
    let options = ContentOptions::STRICT.allow_unknown(args.allow_unknown);
    let violations = form.validate(&content.json(&limits)?, &options);
    let exit = verdict(violations.is_empty());
    let list = Value::Array(violations.iter().map(|v| v.to_value()).collect());
    Ok((Output::Json(list.to_json()), exit))
}
