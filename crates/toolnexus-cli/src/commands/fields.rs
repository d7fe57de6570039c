//! `toolnexus fields`: the form model of a `requestedSchema`, as the fields a UI renders.

use toolnexus_core::form::Form;
use toolnexus_core::{Limits, Value};

use crate::input::Source;
use crate::report::{Printed, done};

/// `toolnexus fields SCHEMA`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The schema: a file, or - for standard input.
    schema: String,
}

/// Prints the fields.
pub fn exec(args: Args) -> Printed {
    let limits = Limits::DEFAULT;
    let form = Form::new(&Source::parse(&args.schema).json(&limits)?)?;
    done(Value::Array(form.fields().iter().map(|f| f.to_value()).collect()).to_json())
}
