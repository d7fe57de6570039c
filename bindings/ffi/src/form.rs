//! The form: `Form` is a `requestedSchema` read once, and everything a SwiftUI or Compose
//! screen needs from it: the fields to render, the schema's problems, what typed text means,
//! and what content to send back.
//!
//! A `FormField` is a plain record, so a screen can hold, copy and compare it; it is written
//! from the core's field and never read back into one. Everything that needs the schema (parse
//! what was typed, validate, fill defaults) goes through the `Form` it came from, so the core
//! decides on the schema as the server wrote it.
//!
//! Which calls read a schema: `Form(schemaJson)` and the free functions (`formFields`,
//! `validateContent`, …) read theirs on every call; `request.form()` reads `data.schema` of
//! the request record on every call; `session.form(id)` reads nothing, and gives the form the
//! session prepared when the request began.

use std::sync::Arc;

use toolnexus_core as core;
use toolnexus_core::form::{self, Form as CoreForm, Widget as CoreWidget};
use toolnexus_core::{ContentValue as CoreValue, Value};

use crate::check::{SchemaProblem, problems};
use crate::content;
use crate::contract::{ContentEntry, ContentValue, Request};
use crate::error::{ToolnexusError, Violation};
use crate::json_text::{read_form, read_record_field};
use crate::limits::Limits;
use crate::mirror::mirror_enum;
use crate::secrets::{SecretKind, SensitiveField, sensitive};

mirror_enum! {
    /// The control a screen shows for a field.
    pub enum Widget mirrors CoreWidget, else Text {
        /// Free text.
        Text,
        /// An email address (`format: "email"`).
        Email,
        /// An absolute URI (`format: "uri"`).
        Uri,
        /// A calendar date (`format: "date"`).
        Date,
        /// A date and time with an offset (`format: "date-time"`).
        DateTime,
        /// A number (`type: "number"`).
        Number,
        /// A whole number (`type: "integer"`).
        Integer,
        /// Yes or no (`type: "boolean"`).
        Toggle,
        /// One of a list of options.
        SingleSelect,
        /// Any number of a list of options.
        MultiSelect,
    }
}

/// One choice of a select field.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct FieldOption {
    /// What content holds when this option is chosen.
    pub value: String,
    /// What to show: the option's title, or else its value.
    pub label: String,
}

/// The limits a field's value must keep, for a screen to show or enforce while typing. Only
/// those that apply to the field's widget are set.
#[derive(Debug, Clone, PartialEq, Eq, Default, uniffi::Record)]
pub struct Constraints {
    /// The fewest characters (Unicode code points) text may have.
    #[uniffi(default = None)]
    pub min_length: Option<u64>,
    /// The most characters (Unicode code points) text may have.
    #[uniffi(default = None)]
    pub max_length: Option<u64>,
    /// The smallest number allowed (inclusive), spelt exactly as in the schema.
    #[uniffi(default = None)]
    pub minimum: Option<String>,
    /// The largest number allowed (inclusive), spelt exactly as in the schema.
    #[uniffi(default = None)]
    pub maximum: Option<String>,
    /// The fewest options a multi-select needs.
    #[uniffi(default = None)]
    pub min_items: Option<u64>,
    /// The most options a multi-select allows.
    #[uniffi(default = None)]
    pub max_items: Option<u64>,
}

/// One field of a form, in the order of the schema's properties.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct FormField {
    /// The property's name: its key in content.
    pub name: String,
    /// What to show as the field's label: the `title`, or else the name.
    pub label: String,
    /// Longer help text, when the schema gives a `description`.
    #[uniffi(default = None)]
    pub description: Option<String>,
    /// Whether the schema's `required` lists the field.
    pub required: bool,
    /// The control to show.
    pub widget: Widget,
    /// The choices of a select, in schema order; empty for other widgets.
    pub options: Vec<FieldOption>,
    /// The limits the value must keep.
    pub constraints: Constraints,
    /// The value to start from, as content would hold it, when the schema gives a `default`.
    #[uniffi(default = None)]
    pub default_value: Option<ContentValue>,
    /// Whether the field seems to ask for a secret, which servers must not do in a form.
    pub sensitive: bool,
    /// What kind of secret it seems to ask for, when `sensitive`.
    #[uniffi(default = None)]
    pub secret_kind: Option<SecretKind>,
}

/// The fields of the form `schema_json` (a `requestedSchema`) describes, in the order of its
/// properties: [`Form::fields`] for a schema read once. A schema the core cannot read fails,
/// its error pointing into the schema (run `check_schema` to list every problem).
#[uniffi::export(default(limits = None))]
pub fn form_fields(
    schema_json: String,
    limits: Option<Limits>,
) -> Result<Vec<FormField>, ToolnexusError> {
    Ok(fields_of(&read_form(&schema_json, limits)?))
}

/// A form prepared once from a `requestedSchema`: its fields, its problems, and every
/// operation on what a person enters, without reading the schema again. Immutable; may be
/// shared by any number of threads.
///
/// Make one from schema text (`Form(schemaJson)`), from a request (`request.form()`), or take
/// the one a session prepared (`session.form(requestId)`).
#[derive(uniffi::Object)]
pub struct Form {
    inner: CoreForm,
    fields: Vec<FormField>,
}

impl Form {
    /// The object for the core's form, its field records written once.
    pub(crate) fn from_core(inner: CoreForm) -> Arc<Form> {
        let fields = fields_of(&inner);
        Arc::new(Form { inner, fields })
    }

    /// The core's form.
    pub(crate) fn core(&self) -> &CoreForm {
        &self.inner
    }
}

#[uniffi::export]
impl Form {
    /// Reads the `requestedSchema` `schema_json` within `limits` and prepares its form.
    ///
    /// Fails, the error's pointer into the schema, when the text is not JSON or the schema
    /// cannot be shown as a form at all (not an object, a property without a usable `type`,
    /// …). Problems that leave a usable form are kept in [`Form::problems`].
    #[uniffi::constructor(default(limits = None))]
    pub fn new(schema_json: String, limits: Option<Limits>) -> Result<Arc<Form>, ToolnexusError> {
        Ok(Form::from_core(read_form(&schema_json, limits)?))
    }

    /// The fields to render, in the order of the schema's properties.
    pub fn fields(&self) -> Vec<FormField> {
        self.fields.clone()
    }

    /// The field `name`, or `null` when the form has none.
    pub fn field(&self, name: &str) -> Option<FormField> {
        self.fields.iter().find(|f| f.name == name).cloned()
    }

    /// The fields as the core writes them: `[{"name", "label", "description"?, "required",
    /// "widget", "options"?, "constraints"?, "default"?, "sensitive"}]`, compact; optional
    /// members only when set (`options` for selects).
    pub fn fields_json(&self) -> String {
        Value::Array(
            self.inner
                .fields()
                .iter()
                .map(form::FormField::to_value)
                .collect(),
        )
        .to_json()
    }

    /// The schema's problems, in `check_schema`'s order; none of them blocks the form (else
    /// it could not be made). Empty for a well-formed schema: a host may warn about or refuse
    /// a form that has any.
    pub fn problems(&self) -> Vec<SchemaProblem> {
        problems(self.inner.problems())
    }

    /// Every way `content_json` breaks the form, as [`validate_content`](crate::validate_content)
    /// finds them; empty when the content is valid.
    #[uniffi::method(default(allow_unknown = false, limits = None))]
    pub fn validate(
        &self,
        content_json: String,
        allow_unknown: bool,
        limits: Option<Limits>,
    ) -> Result<Vec<Violation>, ToolnexusError> {
        content::validate_text(&self.inner, &content_json, allow_unknown, limits)
    }

    /// [`Form::validate`] for typed content, as a screen holds it. A number whose spelling is
    /// not JSON, or a name given twice, is an error at `/<name>`.
    #[uniffi::method(default(allow_unknown = false))]
    pub fn validate_entries(
        &self,
        content: Vec<ContentEntry>,
        allow_unknown: bool,
    ) -> Result<Vec<Violation>, ToolnexusError> {
        content::validate_typed(&self.inner, &content, allow_unknown, None)
    }

    /// `content_json` (a JSON object) with every absent property filled from its `default`,
    /// as [`apply_defaults`](crate::apply_defaults) does, as compact JSON.
    #[uniffi::method(default(limits = None))]
    pub fn apply_defaults(
        &self,
        content_json: String,
        limits: Option<Limits>,
    ) -> Result<String, ToolnexusError> {
        content::fill_text(&self.inner, &content_json, limits)
    }

    /// [`Form::apply_defaults`] for typed content: the entries given, then one for each
    /// default filled in, in schema order.
    pub fn apply_defaults_entries(
        &self,
        content: Vec<ContentEntry>,
    ) -> Result<Vec<ContentEntry>, ToolnexusError> {
        content::fill_typed(&self.inner, &content)
    }

    /// What a host sends back on accept: `content_json` with defaults filled in, then
    /// validated, as compact JSON; `InvalidContent` with every violation otherwise (see
    /// [`prepare_content`](crate::prepare_content)).
    #[uniffi::method(default(allow_unknown = false, limits = None))]
    pub fn prepare(
        &self,
        content_json: String,
        allow_unknown: bool,
        limits: Option<Limits>,
    ) -> Result<String, ToolnexusError> {
        content::prepare_text(&self.inner, &content_json, allow_unknown, limits)
    }

    /// [`Form::prepare`] for typed content: the completed entries.
    #[uniffi::method(default(allow_unknown = false))]
    pub fn prepare_entries(
        &self,
        content: Vec<ContentEntry>,
        allow_unknown: bool,
    ) -> Result<Vec<ContentEntry>, ToolnexusError> {
        content::prepare_typed(&self.inner, &content, allow_unknown, None)
    }

    /// The `default` of every property that has one, in property order: the content a
    /// screen starts from.
    pub fn defaults(&self) -> Vec<ContentEntry> {
        self.inner
            .defaults()
            .iter()
            .filter_map(|(name, value)| {
                Some(ContentEntry {
                    name: name.to_owned(),
                    value: ContentValue::from_core(CoreValue::from_value(value).ok()?),
                })
            })
            .collect()
    }

    /// Turns what a person typed into the field `field_name` into the value content holds.
    ///
    /// Returns the typed value, or `null` for blank text in a field that is optional or has a
    /// default (leave it out of the content). Fails with `UnknownField` for a name the form
    /// does not have, `MissingField` for blank text in a required field without a default,
    /// and `InvalidValue` for text the field refuses; the error's `pointer` is the field's
    /// (`/age`) and its `detail` is meant to be shown next to the field.
    ///
    /// | widget | accepted text |
    /// |---|---|
    /// | text | kept exactly as typed |
    /// | email, uri, date, date-time | trimmed, then checked against the format |
    /// | number | trimmed; a JSON number, with an optional leading `+` |
    /// | integer | trimmed; digits with an optional sign |
    /// | toggle | trimmed, any case: `true`/`false`, `yes`/`no`, `y`/`n`, `on`/`off`, `1`/`0` |
    /// | single-select | an option's value, else its label, else either ignoring case when that picks one |
    /// | multi-select | a comma-separated list, each item as for a single-select |
    pub fn parse(
        &self,
        field_name: &str,
        text: &str,
    ) -> Result<Option<ContentValue>, ToolnexusError> {
        match self.inner.parse(field_name, text)? {
            None => Ok(None),
            Some(value) => Ok(Some(ContentValue::from_core(CoreValue::from_value(
                &value,
            )?))),
        }
    }

    /// Every field that seems to ask for a secret, which servers must not do in a form, in
    /// field order.
    pub fn sensitive_fields(&self) -> Vec<SensitiveField> {
        sensitive(&self.inner)
    }

    /// The reject-secrets policy: returns when no field seems to ask for a secret, else fails
    /// with `SensitiveField` at the first such property (`/properties/<name>`).
    pub fn reject_secrets(&self) -> Result<(), ToolnexusError> {
        Ok(self.inner.reject_secrets()?)
    }
}

#[uniffi::export]
impl Request {
    /// The form's `requestedSchema` as compact JSON text: `data.schema` of an `"input"`
    /// request, or `null` when `data` has no `schema` object. `data` that is not a JSON
    /// object fails.
    pub fn schema_json(&self) -> Result<Option<String>, ToolnexusError> {
        Ok(self.schema()?.map(|schema| schema.to_json()))
    }

    /// The form this request asks to fill in, read from `data.schema` on every call (a
    /// request a [`Session`](crate::Session) began has it prepared already:
    /// `session.form(request.id)`). A request without a schema fails with `MissingField` at
    /// `/data/schema`; a schema the core cannot read fails with its error under
    /// `/data/schema`.
    pub fn form(&self) -> Result<Arc<Form>, ToolnexusError> {
        let schema = self.schema()?.ok_or_else(|| {
            core::Error::new(
                core::ErrorKind::MissingField,
                "/data/schema",
                "the request carries no form: its `data` has no `schema` object",
            )
        })?;
        let form = CoreForm::new(&schema).map_err(|e| e.within("/data/schema"))?;
        Ok(Form::from_core(form))
    }

    /// The fields of [`Request::form`]: `request.form().fields()`.
    pub fn form_fields(&self) -> Result<Vec<FormField>, ToolnexusError> {
        Ok(self.form()?.fields())
    }
}

impl Request {
    /// `data.schema`, when it is an object.
    fn schema(&self) -> Result<Option<Value>, core::Error> {
        let Some(data) = &self.data else {
            return Ok(None);
        };
        let mut data = read_record_field(data, "data")?;
        Ok(data.remove("schema").filter(Value::is_object))
    }
}

fn fields_of(form: &CoreForm) -> Vec<FormField> {
    form.fields().iter().map(FormField::from_core).collect()
}

impl FormField {
    fn from_core(field: &form::FormField) -> FormField {
        let c = field.constraints();
        FormField {
            name: field.name().into(),
            label: field.label().into(),
            description: field.description().map(Into::into),
            required: field.required(),
            widget: Widget::from_core(field.widget()),
            options: field
                .options()
                .iter()
                .map(|o| FieldOption {
                    value: o.value().into(),
                    label: o.label().into(),
                })
                .collect(),
            constraints: Constraints {
                min_length: c.min_length(),
                max_length: c.max_length(),
                minimum: c.minimum().map(|n| n.as_str().into()),
                maximum: c.maximum().map(|n| n.as_str().into()),
                min_items: c.min_items(),
                max_items: c.max_items(),
            },
            default_value: field
                .default_value()
                .as_ref()
                .and_then(|v| CoreValue::from_value(v).ok())
                .map(ContentValue::from_core),
            sensitive: field.sensitive(),
            secret_kind: field.secret_kind().map(SecretKind::from_core),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &str = r#"{"type":"object","properties":{
        "name":{"type":"string","minLength":1,"maxLength":20,"default":"Ada"},
        "email":{"type":"string","format":"email","description":"Work address"},
        "age":{"type":"integer","title":"Age","minimum":18,"maximum":1.2e2},
        "ratio":{"type":"number","default":0.50},
        "ok":{"type":"boolean","default":true},
        "size":{"type":"string","enum":["s","l"],"enumNames":["Small","Large"]},
        "tags":{"type":"array","items":{"type":"string","enum":["a","b,c"]},"minItems":1,"default":["a"]},
        "pin":{"type":"string","title":"PIN"},
        "when":{"type":"string","format":"date-time"}},
        "required":["email","age","size"]}"#;

    #[test]
    fn every_core_widget_has_its_case() {
        for widget in CoreWidget::ALL {
            assert_eq!(Widget::from_core(widget).to_core(), widget);
            assert_eq!(Widget::from_core(widget).as_str(), widget.as_str());
        }
    }

    #[test]
    fn input_is_parsed_as_the_core_parses_it() {
        let core_form = read_form(SCHEMA, None).unwrap();
        let form = Form::new(SCHEMA.into(), None).unwrap();
        let texts = [
            "",
            " ",
            "Ada",
            "x@example.com",
            "nope",
            "17",
            "+7",
            "1e2",
            "yes",
            "Large",
            "a, b",
            "0.5",
        ];
        for field in form.fields() {
            for text in texts {
                let mine = form
                    .parse(&field.name, text)
                    .map(|v| v.map(|v| v.to_value().unwrap().to_json()));
                let theirs = core_form
                    .parse(&field.name, text)
                    .map(|v| v.map(|v| v.to_json()))
                    .map_err(ToolnexusError::from);
                assert_eq!(mine, theirs, "{} {text:?}", field.name);
            }
        }
        let Err(ToolnexusError::Failed { kind, pointer, .. }) = form.parse("nope", "1") else {
            panic!("a field the form lacks was parsed");
        };
        assert_eq!(
            (kind, pointer.as_str()),
            (crate::ErrorKind::UnknownField, "/nope")
        );
    }

    #[test]
    fn request_gives_its_schema_and_form() {
        let request = Request {
            id: "r".into(),
            kind: "input".into(),
            prompt: "?".into(),
            url: None,
            data: Some(format!(r#"{{"schema":{SCHEMA}}}"#)),
            expires_at: None,
        };
        assert_eq!(request.form_fields().unwrap().len(), 9);
        assert_eq!(
            request.form().unwrap().fields_json(),
            Form::new(SCHEMA.into(), None).unwrap().fields_json()
        );
        let bare = Request {
            data: None,
            ..request
        };
        assert_eq!(bare.schema_json().unwrap(), None);
        assert!(bare.form().is_err());
    }
}
