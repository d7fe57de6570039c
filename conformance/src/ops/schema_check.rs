//! The `check_schema` operation: every problem with a `requestedSchema`, each as
//! `{"kind", "pointer"}` (messages are for people and are not pinned).

use toolnexus_core::check::check_schema;
use toolnexus_core::{Error, Limits, Map, Value};

use crate::Case;

/// Reads `input` as any JSON value and lists the problems `check_schema` finds in it, in its
/// order; `[]` for a well-formed schema. Input that is not JSON is the reader's error.
pub(crate) fn run(
    _case: &Case,
    input: &[u8],
    limits: &Limits,
) -> Result<Result<String, Error>, String> {
    let schema = match toolnexus_core::json::parse(input, limits) {
        Ok(schema) => schema,
        Err(e) => return Ok(Err(e)),
    };
    let problems = check_schema(&schema)
        .iter()
        .map(|p| {
            let mut found = Map::new();
            found.insert("kind", Value::from(p.kind().as_str()));
            found.insert("pointer", Value::from(p.pointer()));
            Value::Object(found)
        })
        .collect();
    Ok(Ok(Value::Array(problems).to_json()))
}
