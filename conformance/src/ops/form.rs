//! The `form` operation: a [`Form`] prepared once from a schema, then a list of calls on it,
//! each with its outcome. Every binding's `Form` object runs the same calls.

use toolnexus_core::form::Form;
use toolnexus_core::{ContentOptions, Error, Map, Value};

use super::content::{fields_value, prepare_value, sensitive_value};
use super::session::{ok, outcome_value};
use super::{object, violations_value};

/// Prepares the form of `input.schema`, then runs each of `input.calls` on it: the outcomes,
/// in order, or the error preparing the form gave.
pub(crate) fn run(input: &Value) -> Result<Result<String, Error>, String> {
    let input = input
        .as_object()
        .ok_or("form: the input must be an object")?;
    let schema = input.get("schema").ok_or("form: `schema` is required")?;
    let calls = input
        .get("calls")
        .and_then(Value::as_array)
        .ok_or("form: `calls` must be an array")?;
    let form = match Form::new(schema) {
        Ok(form) => form,
        Err(e) => return Ok(Err(e)),
    };
    let mut outcomes = Vec::with_capacity(calls.len());
    for call in calls {
        outcomes.push(call_value(&form, call)?);
    }
    Ok(Ok(Value::Array(outcomes).to_json()))
}

/// One call on the form: `{"fields": true}`, `{"problems": true}`, `{"validate": content,
/// "allowUnknown"?}`, `{"prepare": content, "allowUnknown"?}`, `{"applyDefaults": content}`,
/// `{"defaults": true}`, `{"parse": {"field", "text"}}`, `{"sensitiveFields": true}` or
/// `{"rejectSecrets": true}`.
fn call_value(form: &Form, call: &Value) -> Result<Value, String> {
    let call = call.as_object().ok_or("form: each call is an object")?;
    let allow_unknown = matches!(call.get("allowUnknown"), Some(Value::Bool(true)));
    let options = ContentOptions::STRICT.allow_unknown(allow_unknown);
    let (name, arg) = call
        .iter()
        .find(|(k, _)| *k != "allowUnknown")
        .ok_or("form: a call names what it does")?;
    Ok(match name {
        "fields" => ok(fields_value(form.fields())),
        "problems" => ok(problems_value(form)),
        "validate" => ok(violations_value(&form.validate(arg, &options))),
        "prepare" => ok(prepare_value(form.prepare(arg, &options))),
        "applyDefaults" => {
            let content = arg
                .as_object()
                .ok_or("form: applyDefaults takes an object")?;
            ok(Value::Object(form.apply_defaults(content)))
        }
        "defaults" => ok(Value::Object(form.defaults())),
        "parse" => {
            let field = text_member(arg, "field")?;
            let text = text_member(arg, "text")?;
            outcome_value(form.parse(field, text).map(|v| v.unwrap_or(Value::Null)))
        }
        "sensitiveFields" => ok(sensitive_value(&form.sensitive_fields())),
        "rejectSecrets" => outcome_value(form.reject_secrets().map(|()| Value::Null)),
        other => return Err(format!("form: unknown call `{other}`")),
    })
}

/// The form's problems as `[{"kind", "pointer"}]`, as `check_schema` writes them.
fn problems_value(form: &Form) -> Value {
    Value::Array(
        form.problems()
            .iter()
            .map(|p| {
                object([
                    ("kind", Value::from(p.kind().as_str())),
                    ("pointer", Value::from(p.pointer())),
                ])
            })
            .collect(),
    )
}

fn text_member<'a>(arg: &'a Value, key: &str) -> Result<&'a str, String> {
    arg.as_object()
        .and_then(|m: &Map| m.get(key))
        .and_then(Value::as_str)
        .ok_or_else(|| format!("form: parse needs a string `{key}`"))
}
