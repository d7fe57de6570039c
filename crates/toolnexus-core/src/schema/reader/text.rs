//! A free-text string property: `minLength`, `maxLength` and `format`.

use alloc::format;

use super::SchemaProblemKind;
use super::bounds::{as_count, count, in_order};
use super::problems::{Problems, child, member, quote};
use super::shape::Shaped;
use crate::json::{Map, Value};
use crate::schema::{PropertyKind, StringFormat, StringSchema};

pub(in crate::schema) fn check_text(map: &Map, at: &str, out: &mut Problems) -> Shaped {
    let min = count(map, at, "minLength", "characters", out);
    let max = count(map, at, "maxLength", "characters", out);
    let ordered = in_order(
        (min, "minLength"),
        (max, "maxLength"),
        at,
        "no text has a length in that range",
        out,
    );
    let format = check_format(map, at, out);

    let text = StringSchema {
        min_length: min.map(as_count),
        max_length: max.map(as_count),
        format,
        default: None,
    };
    let judge = if ordered {
        text.clone()
    } else {
        StringSchema {
            min_length: None,
            max_length: None,
            ..text.clone()
        }
    };
    Shaped {
        kind: PropertyKind::String(text),
        judge: Some(PropertyKind::String(judge)),
    }
}

fn check_format(map: &Map, at: &str, out: &mut Problems) -> Option<StringFormat> {
    let format_at = child(at, "format");
    match member(map, "format")? {
        Value::String(name) => {
            let format = StringFormat::from_name(name);
            if format.is_none() {
                out.block(
                    SchemaProblemKind::UnknownFormat,
                    format_at,
                    format!(
                        "unknown `format` {}: an elicitation schema allows \"email\", \"uri\", \
                         \"date\" and \"date-time\" (lower case)",
                        quote(name)
                    ),
                );
            }
            format
        }
        other => {
            out.wrong_type(
                format_at,
                "`format`",
                "one of the strings \"email\", \"uri\", \"date\", \"date-time\"",
                other,
            );
            None
        }
    }
}
