//! A property's `default`: of the type the property accepts, and accepted by the property's
//! well-formed keywords.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::SchemaProblemKind;
use super::problems::{Problems, child, item, member};
use super::shape::{Shape, Shaped};
use crate::json::{Map, Value};
use crate::schema::{Property, PropertyKind};

/// Checks the `default` against the property's shape, then against the well-formed copy of
/// the property; a default of the right type goes into the property as read.
pub(in crate::schema) fn check_default(
    map: &Map,
    at: &str,
    shape: Shape,
    shaped: Option<&mut Shaped>,
    out: &mut Problems,
) {
    let Some(default) = member(map, "default") else {
        return;
    };
    let default_at = child(at, "default");
    if let Some((at, problem)) = default_type_problem(shape, default, &default_at) {
        // Content for this property could not hold it: the form cannot start from it.
        out.block(SchemaProblemKind::InvalidDefault, at, problem);
        return;
    }
    let Some(shaped) = shaped else {
        return;
    };
    set_default(&mut shaped.kind, default);
    let Some(judge) = shaped.judge.clone() else {
        return;
    };
    // Validation messages name the field by its label: here the field is the default itself.
    let property = Property {
        name: String::new(),
        title: Some(String::from("the `default`")),
        description: None,
        kind: judge,
    };
    let mut violations = Vec::new();
    property.violations(default, &default_at, &mut violations);
    for violation in violations {
        out.add(
            SchemaProblemKind::InvalidDefault,
            default_at.clone(),
            String::from(violation.message()),
        );
    }
}

/// Puts `default`, already known to have the right JSON type, into `kind`.
fn set_default(kind: &mut PropertyKind, default: &Value) {
    match (kind, default) {
        (PropertyKind::String(s), Value::String(d)) => s.default = Some(String::from(d.as_str())),
        (PropertyKind::SingleSelect(s), Value::String(d)) => {
            s.default = Some(String::from(d.as_str()))
        }
        (PropertyKind::Number(n), Value::Number(d)) => n.default = Some(d.clone()),
        (PropertyKind::Boolean(b), Value::Bool(d)) => b.default = Some(*d),
        (PropertyKind::MultiSelect(m), Value::Array(items)) => {
            m.default = Some(
                items
                    .iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect(),
            );
        }
        _ => {}
    }
}

/// Where and why `default`, at `at`, has the wrong JSON type for `shape`, if it has.
fn default_type_problem(shape: Shape, default: &Value, at: &str) -> Option<(String, String)> {
    let expected = match shape {
        Shape::Text | Shape::SingleSelect if !default.is_string() => "a string",
        Shape::Number if !default.is_number() => "a number",
        Shape::Integer if !default.is_number() => "an integer",
        Shape::Boolean if !default.is_boolean() => "a boolean",
        Shape::MultiSelect => {
            let Value::Array(values) = default else {
                return Some((
                    String::from(at),
                    format!(
                        "`default` must be an array of option values, not {}",
                        default.type_name()
                    ),
                ));
            };
            let (i, bad) = values.iter().enumerate().find(|(_, v)| !v.is_string())?;
            return Some((
                item(at, i),
                format!(
                    "`default` must list option values, which are strings, but item {i} is {}",
                    bad.type_name()
                ),
            ));
        }
        _ => return None,
    };
    Some((
        String::from(at),
        format!(
            "`default` must be {expected}, like the values this property accepts, not {}",
            default.type_name()
        ),
    ))
}
