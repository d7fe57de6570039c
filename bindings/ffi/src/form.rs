//! The form model: `form_fields` turns a `requestedSchema` into fields a SwiftUI or Compose
//! screen renders, and `parse_field_input` turns what a person typed into content.
//!
//! A `FormField` is a plain record, so a screen can hold, copy and compare it. To parse input
//! or write JSON, a field is read back into the core's model from its own members: a property
//! of the widget's type with the field's label as `title`, its description, constraints,
//! options as `{const, title}` and default. That property means exactly what the original did
//! to every rule the core applies to a field, so the core decides as it would on the schema.

use toolnexus_core as core;
use toolnexus_core::form::{self, Widget as CoreWidget};
use toolnexus_core::json::pointer;
use toolnexus_core::schema::RequestedSchema;
use toolnexus_core::{Map, Number, Value};

use crate::contract::{ContentValue, Request};
use crate::error::ToolnexusError;
use crate::json_text::{json_number, read_record_field, read_schema};
use crate::limits::Limits;
use crate::mirror::mirror_enum;

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
}

/// The fields of the form `schema_json` (a `requestedSchema`) describes, in the order of its
/// properties. A schema the core cannot read fails, its error pointing into the schema (run
/// `check_schema` to list every problem).
#[uniffi::export(default(limits = None))]
pub fn form_fields(
    schema_json: String,
    limits: Option<Limits>,
) -> Result<Vec<FormField>, ToolnexusError> {
    Ok(fields_of(&read_schema(&schema_json, limits)?))
}

/// Turns what a person typed into `field` into the value content holds.
///
/// Returns the typed value, or `null` for blank text in a field that is optional or has a
/// default (leave it out of the content). Fails with `MissingField` for blank text in a
/// required field without a default, and `InvalidValue` for text the field refuses; the
/// error's `path` is the field's pointer (`/age`) and its `detail` is meant to be shown next
/// to the field.
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
#[uniffi::export]
pub fn parse_field_input(
    field: &FormField,
    text: String,
) -> Result<Option<ContentValue>, ToolnexusError> {
    let core_field = field.to_core()?;
    let value = form::parse_field_input(&core_field, &text)?;
    match value {
        None => Ok(None),
        Some(value) => Ok(Some(ContentValue::from_core(
            core::ContentValue::from_value(&value)?,
        ))),
    }
}

/// Fields as the core writes them: `[{"name", "label", "description"?, "required",
/// "widget", "options"?, "constraints"?, "default"?, "sensitive"}]`, compact; optional
/// members only when set (`options` for selects).
#[uniffi::export]
pub fn form_fields_to_json(fields: &[FormField]) -> Result<String, ToolnexusError> {
    let list = fields
        .iter()
        .map(|f| f.to_core().map(|core_field| core_field.to_value()))
        .collect::<Result<Vec<Value>, core::Error>>()?;
    Ok(Value::Array(list).to_json())
}

/// The stable name of `widget`: `text`, `email`, `uri`, `date`, `date-time`, `number`,
/// `integer`, `toggle`, `single-select` or `multi-select`.
#[uniffi::export]
pub fn widget_name(widget: Widget) -> String {
    widget.as_str().into()
}

#[uniffi::export]
impl Request {
    /// The form's `requestedSchema` as compact JSON text: `data.schema` of an `"input"`
    /// request, or `null` when `data` has no `schema` object. `data` that is not a JSON
    /// object fails.
    pub fn schema_json(&self) -> Result<Option<String>, ToolnexusError> {
        Ok(self.schema()?.map(|schema| schema.to_json()))
    }

    /// The fields of the form this request asks to fill in (see [`form_fields`]). A request
    /// without a schema fails with `MissingField` at `/data/schema`; a schema the core cannot
    /// read fails with its error under `/data/schema`.
    pub fn form_fields(&self) -> Result<Vec<FormField>, ToolnexusError> {
        let schema = self.schema()?.ok_or_else(|| {
            core::Error::new(
                core::ErrorKind::MissingField,
                "/data/schema",
                "the request carries no form: its `data` has no `schema` object",
            )
        })?;
        let schema = RequestedSchema::from_value(&schema).map_err(|e| e.within("/data/schema"))?;
        Ok(fields_of(&schema))
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

fn fields_of(schema: &RequestedSchema) -> Vec<FormField> {
    form::form_fields(schema)
        .iter()
        .map(FormField::from_core)
        .collect()
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
                .and_then(|v| core::ContentValue::from_value(v).ok())
                .map(ContentValue::from_core),
            sensitive: field.sensitive(),
        }
    }

    /// The core's field for this one (see the module); a field no property can describe
    /// (a number bound or default that is not JSON, a default of another type) is an
    /// `InvalidValue` error at the field's pointer.
    fn to_core(&self) -> Result<form::FormField, core::Error> {
        let at = pointer::key(&self.name);
        let refuse = |message: &str| {
            core::Error::new(
                core::ErrorKind::InvalidValue,
                at.clone(),
                format!("the field {:?} cannot be read back: {message}", self.name),
            )
        };
        let property = self.property().map_err(|e| refuse(e.message()))?;
        let mut properties = Map::new();
        properties.insert(self.name.clone(), property);
        let mut schema = Map::new();
        schema.insert("type", Value::from("object"));
        schema.insert("properties", Value::Object(properties));
        if self.required {
            schema.insert(
                "required",
                Value::Array(vec![Value::from(self.name.as_str())]),
            );
        }
        let schema =
            RequestedSchema::from_value(&Value::Object(schema)).map_err(|e| refuse(e.message()))?;
        form::form_fields(&schema)
            .into_iter()
            .next()
            .ok_or_else(|| refuse("it makes no field"))
    }

    /// The property schema that means what this field does.
    fn property(&self) -> Result<Value, core::Error> {
        let mut p = Map::new();
        let (ty, format) = match self.widget {
            Widget::Text | Widget::SingleSelect => ("string", None),
            Widget::Email => ("string", Some("email")),
            Widget::Uri => ("string", Some("uri")),
            Widget::Date => ("string", Some("date")),
            Widget::DateTime => ("string", Some("date-time")),
            Widget::Number => ("number", None),
            Widget::Integer => ("integer", None),
            Widget::Toggle => ("boolean", None),
            Widget::MultiSelect => ("array", None),
        };
        p.insert("type", Value::from(ty));
        p.insert("title", Value::from(self.label.as_str()));
        if let Some(description) = &self.description {
            p.insert("description", Value::from(description.as_str()));
        }
        if let Some(format) = format {
            p.insert("format", Value::from(format));
        }
        self.insert_constraints(&mut p)?;
        let options = || {
            let list = self
                .options
                .iter()
                .map(|o| {
                    let mut option = Map::new();
                    option.insert("const", Value::from(o.value.as_str()));
                    option.insert("title", Value::from(o.label.as_str()));
                    Value::Object(option)
                })
                .collect();
            Value::Array(list)
        };
        match self.widget {
            Widget::SingleSelect => {
                p.insert("oneOf", options());
            }
            Widget::MultiSelect => {
                let mut items = Map::new();
                items.insert("anyOf", options());
                p.insert("items", Value::Object(items));
            }
            _ => {}
        }
        if let Some(default) = &self.default_value {
            p.insert("default", default.to_value()?);
        }
        Ok(Value::Object(p))
    }

    fn insert_constraints(&self, p: &mut Map) -> Result<(), core::Error> {
        let c = &self.constraints;
        let counts = [
            ("minLength", c.min_length),
            ("maxLength", c.max_length),
            ("minItems", c.min_items),
            ("maxItems", c.max_items),
        ];
        for (key, n) in counts {
            if let Some(n) = n {
                p.insert(key, Value::Number(Number::from(n)));
            }
        }
        for (key, spelling) in [("minimum", &c.minimum), ("maximum", &c.maximum)] {
            if let Some(spelling) = spelling {
                let n = json_number(spelling).map_err(|e| {
                    core::Error::new(e.kind(), "", format!("its {key} {}", e.message()))
                })?;
                p.insert(key, Value::Number(n));
            }
        }
        Ok(())
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
        }
    }

    #[test]
    fn fields_written_back_are_the_cores() {
        let schema = read_schema(SCHEMA, None).unwrap();
        let fields = fields_of(&schema);
        let core_json = Value::Array(
            form::form_fields(&schema)
                .iter()
                .map(|f| f.to_value())
                .collect(),
        )
        .to_json();
        assert_eq!(form_fields_to_json(&fields).unwrap(), core_json);
    }

    #[test]
    fn input_is_parsed_as_the_core_parses_it() {
        let schema = read_schema(SCHEMA, None).unwrap();
        let texts = [
            "",
            " ",
            "Ada",
            "x@example.com",
            "nope",
            "17",
            "42",
            "+7",
            "1e2",
            "yes",
            "maybe",
            "Large",
            "s",
            "a, b",
            "z",
            "2024-01-02T03:04:05Z",
            "0.5",
        ];
        for core_field in form::form_fields(&schema) {
            let field = FormField::from_core(&core_field);
            for text in texts {
                let mine = parse_field_input(&field, text.into());
                let theirs = form::parse_field_input(&core_field, text)
                    .map(|v| v.map(|v| v.to_json()))
                    .map_err(ToolnexusError::from);
                let mine = mine.map(|v| v.map(|v| v.to_value().unwrap().to_json()));
                assert_eq!(mine, theirs, "{} {text:?}", field.name);
            }
        }
    }

    #[test]
    fn request_gives_its_schema_and_fields() {
        let request = Request {
            id: "r".into(),
            kind: "input".into(),
            prompt: "?".into(),
            url: None,
            data: Some(format!(r#"{{"schema":{SCHEMA}}}"#)),
            expires_at: None,
        };
        assert_eq!(request.form_fields().unwrap().len(), 9);
        let bare = Request {
            data: None,
            ..request
        };
        assert_eq!(bare.schema_json().unwrap(), None);
        assert!(bare.form_fields().is_err());
    }
}
