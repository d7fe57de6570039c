//! The `terminal_text` and `terminal_json` operations: server text as it is safe to show on a
//! terminal, and JSON text made safe the same way while it stays the same JSON.

use toolnexus_core::terminal::{LineBreaks, terminal_json, terminal_text};
use toolnexus_core::{Error, ErrorKind, Map, Value};

/// Runs `terminal_text` on `{"text", "lineBreaks"}`: the text shown as a JSON string.
///
/// The members are read in that order; a missing one is `missing_field`, one of another type
/// `wrong_type` and a `lineBreaks` that is not a name of `LineBreaks` `invalid_value`, each at
/// its member.
pub(crate) fn text(value: &Value) -> Result<Result<String, Error>, String> {
    let input = match object(value, "terminal_text", &["text", "lineBreaks"])? {
        Ok(input) => input,
        Err(e) => return Ok(Err(e)),
    };
    let text = match string(input, "text") {
        Ok(text) => text,
        Err(e) => return Ok(Err(e)),
    };
    let breaks = match string(input, "lineBreaks") {
        Ok(name) => match LineBreaks::from_name(name) {
            Some(breaks) => breaks,
            None => {
                return Ok(Err(Error::new(
                    ErrorKind::InvalidValue,
                    "/lineBreaks",
                    format!("{name:?} is not a way to show line breaks (\"keep\" or \"show\")"),
                )));
            }
        },
        Err(e) => return Ok(Err(e)),
    };
    Ok(Ok(
        Value::from(terminal_text(text, breaks).as_ref()).to_json()
    ))
}

/// Runs `terminal_json` on `{"json"}`: the JSON text made safe, as a JSON string.
pub(crate) fn json(value: &Value) -> Result<Result<String, Error>, String> {
    let input = match object(value, "terminal_json", &["json"])? {
        Ok(input) => input,
        Err(e) => return Ok(Err(e)),
    };
    Ok(string(input, "json").map(|json| Value::from(terminal_json(json).as_ref()).to_json()))
}

/// The input object: the core's `wrong_type` for another value, the runner's error for a
/// member the operation does not know (a malformed case, not a refused input).
fn object<'a>(
    value: &'a Value,
    op: &str,
    known: &[&str],
) -> Result<Result<&'a Map, Error>, String> {
    let Some(input) = value.as_object() else {
        return Ok(Err(Error::new(
            ErrorKind::WrongType,
            "",
            format!("{op} takes a JSON object"),
        )));
    };
    if let Some(key) = input.keys().find(|key| !known.contains(key)) {
        return Err(format!("{op}: unknown input member `{key}`"));
    }
    Ok(Ok(input))
}

/// The string member `name`: `missing_field` when absent or `null`, `wrong_type` for another
/// type, both at `/name`.
fn string<'a>(input: &'a Map, name: &str) -> Result<&'a str, Error> {
    match input.get(name) {
        None | Some(Value::Null) => Err(Error::new(
            ErrorKind::MissingField,
            format!("/{name}"),
            format!("`{name}` is required"),
        )),
        Some(Value::String(text)) => Ok(text.as_str()),
        Some(_) => Err(Error::new(
            ErrorKind::WrongType,
            format!("/{name}"),
            format!("`{name}` must be a string"),
        )),
    }
}
