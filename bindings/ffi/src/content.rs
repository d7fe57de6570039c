//! Content against its schema: `validate_content`, `apply_defaults`, `prepare_content` (each
//! for JSON text and for typed entries), and content as JSON text.
//!
//! Schemas come from servers and content from people: both are read within the limits, and
//! every verdict is the core's, in the core's order.

use toolnexus_core as core;
use toolnexus_core::form::Form as CoreForm;
use toolnexus_core::{Map, Value};

use crate::contract::{
    ContentEntry, ContentValue, entries_from_map, entries_to_map, entries_to_map_within,
};
use crate::error::{ToolnexusError, Violation};
use crate::json_text::{self, read_form};
use crate::limits::Limits;
use crate::shared::content_options;

/// Every way `content_json` breaks `schema_json` (a `requestedSchema`), in the core's fixed
/// order; empty when the content is valid. [`Form::validate`](crate::Form::validate) for a
/// schema read once.
///
/// Content that is not a JSON object is one `type` violation at `""`. Members the schema does
/// not declare are violations unless `allow_unknown` (each must still be a string, number,
/// boolean or list of strings). Text that is not JSON, or a schema the core cannot read, is
/// an error (a schema's errors point into the schema).
#[uniffi::export(default(allow_unknown = false, limits = None))]
pub fn validate_content(
    schema_json: String,
    content_json: String,
    allow_unknown: bool,
    limits: Option<Limits>,
) -> Result<Vec<Violation>, ToolnexusError> {
    validate_text(
        &read_form(&schema_json, limits)?,
        &content_json,
        allow_unknown,
        limits,
    )
}

/// [`validate_content`] for typed content, as a form screen holds it.
///
/// A number whose spelling is not JSON, or a name given twice, is an error at `/<name>`.
#[uniffi::export(default(allow_unknown = false, limits = None))]
pub fn validate_content_entries(
    schema_json: String,
    content: Vec<ContentEntry>,
    allow_unknown: bool,
    limits: Option<Limits>,
) -> Result<Vec<Violation>, ToolnexusError> {
    validate_typed(
        &read_form(&schema_json, limits)?,
        &content,
        allow_unknown,
        limits,
    )
}

/// `content_json` (a JSON object) with every absent property filled from its `default`, in
/// schema order after the members already there, as compact JSON. A present value is never
/// replaced; a member holding `null` counts as absent. Content that is not an object is a
/// `WrongType` error.
#[uniffi::export(default(limits = None))]
pub fn apply_defaults(
    schema_json: String,
    content_json: String,
    limits: Option<Limits>,
) -> Result<String, ToolnexusError> {
    fill_text(&read_form(&schema_json, limits)?, &content_json, limits)
}

/// [`apply_defaults`] for typed content: the entries given, then one for each default filled
/// in, in schema order.
#[uniffi::export(default(limits = None))]
pub fn apply_defaults_entries(
    schema_json: String,
    content: Vec<ContentEntry>,
    limits: Option<Limits>,
) -> Result<Vec<ContentEntry>, ToolnexusError> {
    fill_typed(&read_form(&schema_json, limits)?, &content)
}

/// What a host sends back on accept: `content_json` with defaults filled in, then validated.
///
/// Returns the completed content as compact JSON; when anything is violated, fails with
/// `InvalidContent` whose `violations` lists every way the completed content breaks the
/// schema.
#[uniffi::export(default(allow_unknown = false, limits = None))]
pub fn prepare_content(
    schema_json: String,
    content_json: String,
    allow_unknown: bool,
    limits: Option<Limits>,
) -> Result<String, ToolnexusError> {
    prepare_text(
        &read_form(&schema_json, limits)?,
        &content_json,
        allow_unknown,
        limits,
    )
}

/// [`prepare_content`] for typed content: the completed entries.
#[uniffi::export(default(allow_unknown = false, limits = None))]
pub fn prepare_content_entries(
    schema_json: String,
    content: Vec<ContentEntry>,
    allow_unknown: bool,
    limits: Option<Limits>,
) -> Result<Vec<ContentEntry>, ToolnexusError> {
    prepare_typed(
        &read_form(&schema_json, limits)?,
        &content,
        allow_unknown,
        limits,
    )
}

// What the free functions above and the `Form` object share: the core's form does the work.

pub(crate) fn validate_text(
    form: &CoreForm,
    content_json: &str,
    allow_unknown: bool,
    limits: Option<Limits>,
) -> Result<Vec<Violation>, ToolnexusError> {
    let content = json_text::parse(content_json, limits)?;
    Ok(violations(
        &form.validate(&content, &content_options(allow_unknown)),
    ))
}

pub(crate) fn validate_typed(
    form: &CoreForm,
    content: &[ContentEntry],
    allow_unknown: bool,
    limits: Option<Limits>,
) -> Result<Vec<Violation>, ToolnexusError> {
    let content = Value::Object(entries_to_map_within(content, &Limits::or_default(limits))?);
    Ok(violations(
        &form.validate(&content, &content_options(allow_unknown)),
    ))
}

pub(crate) fn fill_text(
    form: &CoreForm,
    content_json: &str,
    limits: Option<Limits>,
) -> Result<String, ToolnexusError> {
    let content = json_text::read_object(content_json, limits, "the content")?;
    Ok(form.apply_defaults(&content).to_json())
}

pub(crate) fn fill_typed(
    form: &CoreForm,
    content: &[ContentEntry],
) -> Result<Vec<ContentEntry>, ToolnexusError> {
    Ok(entries_from_map(
        form.apply_defaults(&entries_to_map(content)?),
    )?)
}

pub(crate) fn prepare_text(
    form: &CoreForm,
    content_json: &str,
    allow_unknown: bool,
    limits: Option<Limits>,
) -> Result<String, ToolnexusError> {
    let content = json_text::parse(content_json, limits)?;
    Ok(prepare(form, &content, allow_unknown)?.to_json())
}

pub(crate) fn prepare_typed(
    form: &CoreForm,
    content: &[ContentEntry],
    allow_unknown: bool,
    limits: Option<Limits>,
) -> Result<Vec<ContentEntry>, ToolnexusError> {
    let content = Value::Object(entries_to_map_within(content, &Limits::or_default(limits))?);
    Ok(entries_from_map(prepare(form, &content, allow_unknown)?)?)
}

fn prepare(form: &CoreForm, content: &Value, allow_unknown: bool) -> Result<Map, core::Error> {
    form.prepare(content, &content_options(allow_unknown))
        .map_err(|found| core::Error::invalid_content("", found))
}

fn violations(found: &[core::Violation]) -> Vec<Violation> {
    found.iter().map(Violation::from_core).collect()
}

/// Violations as the core writes them: `[{"pointer", "keyword", "message"}]`, compact.
#[uniffi::export]
pub fn violations_to_json(violations: &[Violation]) -> String {
    json_text::string_objects(violations, |v| {
        [
            ("pointer", v.pointer.as_str()),
            ("keyword", v.keyword.as_str()),
            ("message", v.message.as_str()),
        ]
    })
    .to_json()
}

/// Content as the compact JSON object `content` is on the wire, entries in their order.
/// A number whose spelling is not JSON, or a name given twice, is an error at `/<name>`.
#[uniffi::export]
pub fn content_to_json(content: &[ContentEntry]) -> Result<String, ToolnexusError> {
    Ok(entries_to_map(content)?.to_json())
}

/// Reads content from JSON text: an object whose values are strings, numbers, booleans or
/// lists of strings (anything else is a `WrongType` error at the value).
#[uniffi::export(default(limits = None))]
pub fn content_from_json(
    json: String,
    limits: Option<Limits>,
) -> Result<Vec<ContentEntry>, ToolnexusError> {
    let map = json_text::read_object(&json, limits, "the content")?;
    Ok(entries_from_map(map)?)
}

/// One content value as compact JSON (`"text"`, `42`, `true`, `["a","b"]`); a number whose
/// spelling is not JSON is an `InvalidValue` error.
#[uniffi::export]
pub fn content_value_to_json(value: &ContentValue) -> Result<String, ToolnexusError> {
    Ok(value.to_value()?.to_json())
}

/// Reads one content value from JSON text; anything but a string, number, boolean or list of
/// strings is a `WrongType` error.
#[uniffi::export(default(limits = None))]
pub fn content_value_from_json(
    json: String,
    limits: Option<Limits>,
) -> Result<ContentValue, ToolnexusError> {
    let value = json_text::parse(&json, limits)?;
    Ok(ContentValue::from_core(core::ContentValue::from_value(
        &value,
    )?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records' JSON is the core's for the same violations.
    #[test]
    fn violations_are_written_as_the_core_writes_them() {
        let schema = r#"{"type":"object","properties":{"n":{"type":"integer","minimum":5},"s":{"type":"string","format":"email"}},"required":["r"]}"#;
        let form = read_form(schema, None).unwrap();
        let content = json_text::parse(r#"{"n":1,"s":"x","z":true}"#, None).unwrap();
        let found = form.validate(&content, &content_options(false));
        assert_eq!(found.len(), 4);
        let core_json = Value::Array(found.iter().map(core::Violation::to_value).collect());
        assert_eq!(violations_to_json(&violations(&found)), core_json.to_json());
    }
}
