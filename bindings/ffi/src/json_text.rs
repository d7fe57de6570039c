//! JSON text across the boundary: reading it within the limits, and `compact_json`.
//!
//! Free-form JSON crosses as text so that member order and number spelling survive; every
//! text is read by the core, so its faults are the core's typed errors with their pointers.

use toolnexus_core as core;
use toolnexus_core::schema::RequestedSchema;
use toolnexus_core::{Map, Value};

use crate::error::ToolnexusError;
use crate::limits::Limits;

/// Reads one JSON value from `text` within `limits` (`None`: the defaults).
pub(crate) fn parse(text: &str, limits: Option<Limits>) -> Result<Value, core::Error> {
    core::json::parse_str(text, &Limits::or_default(limits))
}

/// Reads a `requestedSchema`; errors point into the schema.
pub(crate) fn read_schema(
    text: &str,
    limits: Option<Limits>,
) -> Result<RequestedSchema, core::Error> {
    RequestedSchema::from_value(&parse(text, limits)?)
}

/// Reads JSON text that must hold an object; `what` names it in the error.
pub(crate) fn read_object(
    text: &str,
    limits: Option<Limits>,
    what: &str,
) -> Result<Map, core::Error> {
    match parse(text, limits)? {
        Value::Object(map) => Ok(map),
        other => Err(not_an_object(what, &other)),
    }
}

/// A `wrong_type` error at `""`: `what` is not an object.
pub(crate) fn not_an_object(what: &str, found: &Value) -> core::Error {
    core::Error::new(
        core::ErrorKind::WrongType,
        "",
        format!("{what} must be a JSON object, not {}", found.type_name()),
    )
}

/// Reads any JSON text within `limits` and writes it back compact: members in their order,
/// numbers spelt as written, strings escaped as everywhere in toolnexus. Faults of the text
/// (syntax, duplicate keys, limits) are errors with a pointer into it.
#[uniffi::export(default(limits = None))]
pub fn compact_json(json: String, limits: Option<Limits>) -> Result<String, ToolnexusError> {
    Ok(parse(&json, limits)?.to_json())
}

/// [`compact_json`] for bytes (UTF-8 required).
#[uniffi::export(default(limits = None))]
pub fn compact_json_bytes(json: Vec<u8>, limits: Option<Limits>) -> Result<String, ToolnexusError> {
    Ok(core::json::parse(&json, &Limits::or_default(limits))?.to_json())
}
