//! JSON text across the boundary: reading it, and `compact_json`.
//!
//! Free-form JSON crosses as text so that member order and number spelling survive; every
//! text is read by the core, so its faults are the core's typed errors with their pointers.
//! Text passed as an argument is read within the caller's limits; text held in a record's
//! field is read back within [`RECORD_FIELD_LIMITS`].

use toolnexus_core as core;
use toolnexus_core::form::Form as CoreForm;
use toolnexus_core::json::pointer;
use toolnexus_core::{Map, Number, Value};

use crate::error::ToolnexusError;
use crate::limits::Limits;

/// The bounds a record's JSON field is read back within: the widest the core allows. The
/// text was written by the core, from input read within whatever limits its caller chose, or
/// by the host itself, so a `Request` begun within wide limits must still read back.
const RECORD_FIELD_LIMITS: core::Limits = core::Limits::DEFAULT
    .with_max_input_bytes(usize::MAX)
    .with_max_depth(core::Limits::DEPTH_CEILING)
    .with_max_object_members(usize::MAX)
    .with_max_array_items(usize::MAX);

/// Reads one JSON value from `text` within `limits` (`None`: the defaults).
pub(crate) fn parse(text: &str, limits: Option<Limits>) -> Result<Value, core::Error> {
    core::json::parse_str(text, &Limits::or_default(limits))
}

/// Reads a `requestedSchema` and prepares its form; errors point into the schema.
pub(crate) fn read_form(text: &str, limits: Option<Limits>) -> Result<CoreForm, core::Error> {
    CoreForm::new(&parse(text, limits)?)
}

/// Reads JSON text passed as an argument that must hold an object; `what` names it in the
/// error.
pub(crate) fn read_object(
    text: &str,
    limits: Option<Limits>,
    what: &str,
) -> Result<Map, core::Error> {
    read_object_within(text, &Limits::or_default(limits), "", what)
}

/// Reads the JSON text of a record's field `name` (`data`, `_meta`), which must hold an
/// object; errors are located under `/<name>`.
pub(crate) fn read_record_field(text: &str, name: &str) -> Result<Map, core::Error> {
    let at = pointer::key(name);
    read_object_within(text, &RECORD_FIELD_LIMITS, &at, &format!("`{name}`"))
}

/// Reads an object from `text` within `limits`, errors located under `at`.
fn read_object_within(
    text: &str,
    limits: &core::Limits,
    at: &str,
    what: &str,
) -> Result<Map, core::Error> {
    match core::json::parse_str(text, limits).map_err(|e| e.within(at))? {
        Value::Object(map) => Ok(map),
        other => Err(core::Error::new(
            core::ErrorKind::WrongType,
            at,
            format!("{what} must be a JSON object, not {}", other.type_name()),
        )),
    }
}

/// An array of one object per item, each holding the string members `members` gives, in
/// their order: how the core writes its lists of violations, problems and findings.
pub(crate) fn string_objects<T, const N: usize>(
    items: &[T],
    members: impl Fn(&T) -> [(&'static str, &str); N],
) -> Value {
    let objects = items.iter().map(|item| {
        let map = members(item)
            .into_iter()
            .map(|(key, text)| (String::from(key), Value::from(text)))
            .collect();
        Value::Object(map)
    });
    Value::Array(objects.collect())
}

/// The number `spelling` spells; a spelling that is not a JSON number is an `InvalidValue`
/// error at `""`.
pub(crate) fn json_number(spelling: &str) -> Result<Number, core::Error> {
    Number::from_spelling(spelling).ok_or_else(|| {
        core::Error::new(
            core::ErrorKind::InvalidValue,
            "",
            format!("{spelling:?} is not a JSON number"),
        )
    })
}

/// Reads any JSON text within `limits` and writes it back compact: members in their order,
/// numbers spelt as written, strings escaped as everywhere in toolnexus. Faults of the text
/// (syntax, duplicate keys, limits) are errors with a pointer into it.
#[uniffi::export(default(limits = None))]
pub fn compact_json(json: String, limits: Option<Limits>) -> Result<String, ToolnexusError> {
    compact_json_bytes(json.into_bytes(), limits)
}

/// [`compact_json`] for bytes (UTF-8 required).
#[uniffi::export(default(limits = None))]
pub fn compact_json_bytes(json: Vec<u8>, limits: Option<Limits>) -> Result<String, ToolnexusError> {
    Ok(core::json::parse(&json, &Limits::or_default(limits))?.to_json())
}
