//! The content and form operations: validation, defaults, the form model, typed input and
//! secret review.

use toolnexus_core::content::{ContentOptions, apply_defaults, prepare_content, validate_content};
use toolnexus_core::form::secrets::{SensitiveField, reject_secrets, sensitive_fields};
use toolnexus_core::form::{FormField, form_fields, parse_field_input};
use toolnexus_core::schema::RequestedSchema;
use toolnexus_core::{Error, Map, Value, Violation};

use super::{object, violations_value};
use crate::{Case, Op};

/// Runs the case's operation on `value`, its input.
pub(crate) fn run(case: &Case, value: &Value) -> Result<Result<String, Error>, String> {
    let options = ContentOptions::STRICT.allow_unknown(case.args.allow_unknown.unwrap_or(false));
    Ok(match case.op {
        Op::ValidateContent => {
            let (schema, content) = schema_and_content(value)?;
            RequestedSchema::from_value(schema)
                .map(|s| violations_value(&validate_content(&s, content, &options)).to_json())
        }
        Op::ApplyDefaults => {
            let (schema, content) = schema_and_content(value)?;
            let content = content
                .as_object()
                .ok_or("apply_defaults: `content` must be an object")?;
            RequestedSchema::from_value(schema)
                .map(|s| Value::Object(apply_defaults(&s, content)).to_json())
        }
        Op::PrepareContent => {
            let (schema, content) = schema_and_content(value)?;
            RequestedSchema::from_value(schema)
                .map(|s| prepare_value(prepare_content(&s, content, &options)).to_json())
        }
        Op::FormFields => {
            RequestedSchema::from_value(value).map(|s| fields_value(&form_fields(&s)).to_json())
        }
        Op::ParseFieldInput => {
            let name = case.args.field.as_deref().ok_or("args.field is required")?;
            let text = case.args.text.as_deref().ok_or("args.text is required")?;
            match RequestedSchema::from_value(value) {
                Err(e) => Err(e),
                Ok(schema) => {
                    let fields = form_fields(&schema);
                    let field = fields
                        .iter()
                        .find(|f| f.name() == name)
                        .ok_or_else(|| format!("the schema has no field {name:?}"))?;
                    parse_field_input(field, text).map(|v| v.unwrap_or(Value::Null).to_json())
                }
            }
        }
        Op::SensitiveFields => RequestedSchema::from_value(value)
            .map(|s| sensitive_value(&sensitive_fields(&s)).to_json()),
        Op::RejectSecrets => RequestedSchema::from_value(value)
            .and_then(|s| reject_secrets(&s))
            .map(|()| String::from("null")),
        other => return Err(format!("{other:?} is not a content operation")),
    })
}

/// The `schema` and `content` members of the input object.
fn schema_and_content(input: &Value) -> Result<(&Value, &Value), String> {
    let schema = input
        .get("schema")
        .ok_or("the input needs a `schema` member")?;
    let content = input
        .get("content")
        .ok_or("the input needs a `content` member")?;
    Ok((schema, content))
}

/// The outcome of preparing content: `{"content", "violations"}`, `content` being `null` when
/// anything is violated.
pub(crate) fn prepare_value(prepared: Result<Map, Vec<Violation>>) -> Value {
    let (content, violations) = match prepared {
        Ok(filled) => (Value::Object(filled), Vec::new()),
        Err(violations) => (Value::Null, violations),
    };
    object([
        ("content", content),
        ("violations", violations_value(&violations)),
    ])
}

/// The form fields as the `form_fields` operation writes them.
pub(crate) fn fields_value(fields: &[FormField]) -> Value {
    Value::Array(fields.iter().map(FormField::to_value).collect())
}

/// The fields that seem to ask for a secret, as `[{"name", "kind"}]`.
pub(crate) fn sensitive_value(found: &[SensitiveField]) -> Value {
    Value::Array(
        found
            .iter()
            .map(|f| {
                object([
                    ("name", Value::from(f.name())),
                    ("kind", Value::from(f.kind().as_str())),
                ])
            })
            .collect(),
    )
}
