//! One property: the elicitation shape its `type` gives it, then the checks of that shape, its
//! `default` and the validation keywords the shape does not have.

use alloc::format;
use alloc::string::String;

use super::SchemaProblemKind;
use super::defaults::check_default;
use super::keywords::check_keywords;
use super::number::check_number;
use super::problems::{Problems, child, member, quote};
use super::select::{check_multi_select, check_single_select};
use super::shape::{Shape, Shaped};
use super::text::check_text;
use crate::error::ErrorKind;
use crate::json::{Map, Value};
use crate::schema::{BooleanSchema, Property, PropertyKind};

/// Checks the property `name`; the property as read, if it has a shape.
pub(in crate::schema) fn check_property(
    name: &str,
    value: &Value,
    out: &mut Problems,
) -> Option<Property> {
    let at = child("/properties", name);
    let Value::Object(map) = value else {
        out.wrong_type(
            at,
            &format!("property {}", quote(name)),
            "a schema object such as {\"type\": \"string\"}",
            value,
        );
        return None;
    };
    let shape = read_shape(map, &at, out);
    let title = annotation(map, &at, "title", out);
    let description = annotation(map, &at, "description", out);
    let mut shaped = check_shape(shape, map, &at, out);
    check_default(map, &at, shape, shaped.as_mut(), out);
    check_keywords(map, &at, &shape.context(), out);
    Some(Property {
        name: String::from(name),
        title,
        description,
        kind: shaped?.kind,
    })
}

/// The annotation `key` (`title` or `description`), which must be a string.
fn annotation(map: &Map, at: &str, key: &str, out: &mut Problems) -> Option<String> {
    match member(map, key)? {
        Value::String(text) => Some(String::from(text.as_str())),
        other => {
            out.wrong_type(child(at, key), &format!("`{key}`"), "a string", other);
            None
        }
    }
}

/// Checks the keywords of the property's shape; the shape as read, if it has one.
pub(in crate::schema) fn check_shape(
    shape: Shape,
    map: &Map,
    at: &str,
    out: &mut Problems,
) -> Option<Shaped> {
    match shape {
        Shape::Text => Some(check_text(map, at, out)),
        Shape::Number => Some(check_number(map, at, false, out)),
        Shape::Integer => Some(check_number(map, at, true, out)),
        Shape::Boolean => {
            let kind = PropertyKind::Boolean(BooleanSchema { default: None });
            Some(Shaped {
                judge: Some(kind.clone()),
                kind,
            })
        }
        Shape::SingleSelect => check_single_select(map, at, out),
        Shape::MultiSelect => check_multi_select(map, at, out),
        Shape::Unknown => None,
    }
}

/// What every "no such shape" message says is allowed.
const SHAPES: &str = "an elicitation property is a string, number, integer, boolean or an \
                      array of enumerated strings";

/// The shape the property's `type` (and `enum`/`oneOf`) gives it; reports why there is none.
pub(in crate::schema) fn read_shape(map: &Map, at: &str, out: &mut Problems) -> Shape {
    let type_at = child(at, "type");
    let ty = match member(map, "type") {
        None => {
            out.block(
                SchemaProblemKind::MissingKeyword,
                type_at,
                format!("`type` is required: {SHAPES}"),
            );
            return Shape::Unknown;
        }
        Some(Value::String(ty)) => ty.as_str(),
        Some(Value::Array(_)) => {
            out.block_as(
                SchemaProblemKind::UnsupportedShape,
                ErrorKind::WrongType,
                type_at,
                format!(
                    "a property has exactly one `type`, not a list: {SHAPES}; to let a person \
                     leave the field empty, leave it out of `required` instead of adding \"null\""
                ),
            );
            return Shape::Unknown;
        }
        Some(other) => {
            out.wrong_type(
                type_at,
                "`type`",
                "a string naming the property's type",
                other,
            );
            return Shape::Unknown;
        }
    };
    match ty {
        "string" => match (member(map, "enum"), member(map, "oneOf")) {
            (None, None) => Shape::Text,
            (Some(_), Some(_)) => {
                out.block(
                    SchemaProblemKind::UnsupportedShape,
                    String::from(at),
                    String::from(
                        "a single-select lists its options in `enum` or in `oneOf`, not both: \
                         keep `oneOf: [{const, title}]` for options with titles, `enum` otherwise",
                    ),
                );
                Shape::Unknown
            }
            _ => Shape::SingleSelect,
        },
        "number" => Shape::Number,
        "integer" => Shape::Integer,
        "boolean" => Shape::Boolean,
        "array" => Shape::MultiSelect,
        "object" => {
            out.block(
                SchemaProblemKind::UnsupportedShape,
                type_at,
                format!(
                    "nested objects are not allowed: {SHAPES}; list the nested fields in the \
                     root `properties` instead"
                ),
            );
            Shape::Unknown
        }
        other => {
            out.block(
                SchemaProblemKind::UnsupportedShape,
                type_at,
                format!(
                    "unknown property type {}: {SHAPES} (type names are lower case)",
                    quote(other)
                ),
            );
            Shape::Unknown
        }
    }
}
