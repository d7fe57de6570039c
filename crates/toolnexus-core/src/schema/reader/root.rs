//! The root of a schema: `$schema`, `type`, `properties`, `required` and
//! `additionalProperties`, then each property.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::SchemaProblemKind;
use super::keywords::{ROOT, check_keywords};
use super::problems::{Problems, item, member, quote};
use super::property::check_property;
use crate::error::ErrorKind;
use crate::json::pointer;
use crate::json::{Map, Value};
use crate::schema::RequestedSchema;

/// Checks the root and each property; the schema as far as it could be read.
pub(in crate::schema) fn check_root(root: &Map, out: &mut Problems) -> RequestedSchema {
    let schema_uri = match member(root, "$schema") {
        None => None,
        Some(Value::String(uri)) => Some(String::from(uri.as_str())),
        Some(other) => {
            out.wrong_type(
                pointer::key("$schema"),
                "`$schema`",
                "a string (the URI of the JSON Schema dialect)",
                other,
            );
            None
        }
    };

    match member(root, "type") {
        None => out.block(
            SchemaProblemKind::MissingKeyword,
            pointer::key("type"),
            String::from("`type` is required on the root and must be \"object\""),
        ),
        Some(Value::String(ty)) if ty == "object" => {}
        Some(Value::String(ty)) => out.block(
            SchemaProblemKind::InvalidValue,
            pointer::key("type"),
            format!(
                "the root `type` must be \"object\", not {}: a form is an object of fields",
                quote(ty)
            ),
        ),
        Some(Value::Array(_)) => out.block_as(
            SchemaProblemKind::InvalidValue,
            ErrorKind::WrongType,
            pointer::key("type"),
            String::from(
                "the root `type` must be the single type \"object\", not a list: a form is an \
                 object of fields",
            ),
        ),
        Some(other) => out.wrong_type(pointer::key("type"), "`type`", "\"object\"", other),
    }

    let properties = match member(root, "properties") {
        None => {
            out.block(
                SchemaProblemKind::MissingKeyword,
                pointer::key("properties"),
                String::from(
                    "`properties` is required: an object of fields, or {} for a form that only \
                     asks for confirmation",
                ),
            );
            None
        }
        Some(Value::Object(map)) => Some(map),
        Some(other) => {
            out.wrong_type(
                pointer::key("properties"),
                "`properties`",
                "an object mapping each field name to its schema",
                other,
            );
            None
        }
    };

    let required = match member(root, "required") {
        Some(required) => check_required(required, properties, out),
        None => Vec::new(),
    };

    if let Some(extra) = member(root, "additionalProperties")
        && !extra.is_boolean()
    {
        out.add(
            SchemaProblemKind::UnsupportedKeyword,
            pointer::key("additionalProperties"),
            format!(
                "`additionalProperties` must be true or false on the root, not {}: \
                     members the form does not ask for are either accepted or refused",
                extra.type_name()
            ),
        );
    }

    check_keywords(root, "", &ROOT, out);

    let properties = properties
        .into_iter()
        .flat_map(Map::iter)
        .filter_map(|(name, value)| check_property(name, value, out))
        .collect();
    RequestedSchema::new(schema_uri, properties, required)
}

/// Checks `required`; the names it lists, as written.
fn check_required(required: &Value, properties: Option<&Map>, out: &mut Problems) -> Vec<String> {
    let at = pointer::key("required");
    let Value::Array(names) = required else {
        out.wrong_type(at, "`required`", "an array of property names", required);
        return Vec::new();
    };
    let mut listed = Vec::with_capacity(names.len());
    let defined: Option<BTreeSet<&str>> = properties.map(|p| p.keys().collect());
    let mut seen = BTreeSet::new();
    for (i, name) in names.iter().enumerate() {
        let Value::String(name) = name else {
            out.wrong_type(
                item(&at, i),
                &format!("`required` item {i}"),
                "a property name (a string)",
                name,
            );
            continue;
        };
        listed.push(String::from(name.as_str()));
        if !seen.insert(name.as_str()) {
            out.add(
                SchemaProblemKind::DuplicateValue,
                item(&at, i),
                format!(
                    "`required` names {} twice; list each property once",
                    quote(name)
                ),
            );
        } else if defined.as_ref().is_some_and(|d| !d.contains(name.as_str())) {
            out.add(
                SchemaProblemKind::UnknownRequired,
                item(&at, i),
                format!(
                    "`required` names {}, which `properties` does not define; define it or \
                     remove it from `required`",
                    quote(name)
                ),
            );
        }
    }
    listed
}
