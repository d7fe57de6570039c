//! A property's `default`: of the type the property accepts, and accepted by the property's
//! well-formed keywords.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::SchemaProblemKind;
use super::problems::{Problems, child, member};
use super::property::Shape;
use crate::content;
use crate::json::{Map, Value};
use crate::schema::Property;

/// Checks the `default` against the property's shape, then against the well-formed copy of
/// the property in `reference`.
pub(super) fn check_default(
    name: &str,
    map: &Map,
    at: &str,
    shape: Shape,
    reference: Option<Map>,
    out: &mut Problems,
) {
    let Some(default) = member(map, "default") else {
        return;
    };
    let default_at = child(at, "default");
    if let Some(problem) = default_type_problem(shape, default) {
        out.add(SchemaProblemKind::InvalidDefault, default_at, problem);
        return;
    }
    let Some(mut reference) = reference else {
        return;
    };
    // Validation messages name the field by its label: here the field is the default itself.
    reference.insert("title", Value::from("the `default`"));
    let Ok(property) = Property::read(name, &Value::Object(reference)) else {
        return;
    };
    let mut violations = Vec::new();
    content::property_violations(&property, default, &default_at, &mut violations);
    for violation in violations {
        out.add(
            SchemaProblemKind::InvalidDefault,
            default_at.clone(),
            String::from(violation.message()),
        );
    }
}

/// Why `default` has the wrong JSON type for `shape`, if it has.
fn default_type_problem(shape: Shape, default: &Value) -> Option<String> {
    let expected = match shape {
        Shape::Text | Shape::SingleSelect if !default.is_string() => "a string",
        Shape::Number if !default.is_number() => "a number",
        Shape::Integer if !default.is_number() => "an integer",
        Shape::Boolean if !default.is_boolean() => "a boolean",
        Shape::MultiSelect => {
            let Value::Array(values) = default else {
                return Some(format!(
                    "`default` must be an array of option values, not {}",
                    default.type_name()
                ));
            };
            let (i, bad) = values.iter().enumerate().find(|(_, v)| !v.is_string())?;
            return Some(format!(
                "`default` must list option values, which are strings, but item {i} is {}",
                bad.type_name()
            ));
        }
        _ => return None,
    };
    Some(format!(
        "`default` must be {expected}, like the values this property accepts, not {}",
        default.type_name()
    ))
}
