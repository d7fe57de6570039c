//! The `items` of a multi-select: strings listed in `enum` or as titled options in `anyOf`.

use alloc::format;
use alloc::string::String;

use super::SchemaProblemKind;
use super::keywords::{ITEMS, check_keywords};
use super::options::{OptionList, check_enum, check_titled};
use super::problems::{Problems, child, member, quote};
use crate::error::ErrorKind;
use crate::json::{Map, Value};
use crate::schema::EnumShape;

/// Checks the `items` of a multi-select; how its options are spelled and the options, if they
/// could be read at all.
pub(in crate::schema) fn check_items(
    map: &Map,
    at: &str,
    out: &mut Problems,
) -> Option<(EnumShape, OptionList)> {
    let items_at = child(at, "items");
    let items = match member(map, "items") {
        None => {
            out.block(
                SchemaProblemKind::MissingKeyword,
                items_at,
                String::from(
                    "a multi-select needs `items`: {\"type\": \"string\", \"enum\": [...]} or \
                     {\"anyOf\": [{\"const\": ..., \"title\": ...}, ...]}",
                ),
            );
            return None;
        }
        Some(Value::Object(items)) => items,
        Some(other) => {
            out.wrong_type(
                items_at,
                "`items`",
                "an object listing the options, {\"type\": \"string\", \"enum\": [...]} or \
                 {\"anyOf\": [{\"const\": ..., \"title\": ...}, ...]}",
                other,
            );
            return None;
        }
    };

    let type_at = child(&items_at, "type");
    match member(items, "type") {
        None => {}
        Some(Value::String(ty)) if ty == "string" => {}
        Some(Value::String(ty)) => {
            out.block(
                SchemaProblemKind::UnsupportedShape,
                type_at,
                format!(
                    "the items of an array property are strings, not {}: an array property is a \
                     multi-select of options; arrays of objects, numbers or arrays are not allowed",
                    quote(ty)
                ),
            );
            return None;
        }
        Some(Value::Array(_)) => {
            out.block_as(
                SchemaProblemKind::UnsupportedShape,
                ErrorKind::WrongType,
                type_at,
                String::from(
                    "the items of an array property have the one type \"string\", not a list: an \
                     array property is a multi-select of options",
                ),
            );
            return None;
        }
        Some(other) => out.wrong_type(type_at, "`items.type`", "\"string\"", other),
    }

    let options = match (member(items, "enum"), member(items, "anyOf")) {
        (Some(list), None) => check_enum(list, &child(&items_at, "enum"), out)
            .map(|options| (EnumShape::Untitled, options)),
        (None, Some(list)) => check_titled(list, &child(&items_at, "anyOf"), "anyOf", out)
            .map(|options| (EnumShape::Titled, options)),
        (Some(_), Some(_)) => {
            out.block(
                SchemaProblemKind::UnsupportedShape,
                items_at,
                String::from(
                    "a multi-select lists its options in `items.enum` or in `items.anyOf`, not \
                     both: keep `anyOf: [{const, title}]` for options with titles, `enum` otherwise",
                ),
            );
            return None;
        }
        (None, None) => {
            out.block(
                SchemaProblemKind::UnsupportedShape,
                items_at,
                String::from(
                    "an array property is a multi-select: its `items` must be \
                     {\"type\": \"string\", \"enum\": [...]} or \
                     {\"anyOf\": [{\"const\": ..., \"title\": ...}, ...]}",
                ),
            );
            return None;
        }
    };
    check_keywords(items, &items_at, &ITEMS, out);
    options
}
