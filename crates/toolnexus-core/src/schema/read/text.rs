//! A free-text string property: `minLength`, `maxLength` and `format`.

use alloc::format;

use super::SchemaProblemKind;
use super::bounds::{count, in_order, insert_number};
use super::problems::{Problems, child, member, quote};
use super::property::typed;
use crate::json::{Map, Value};
use crate::schema::StringFormat;

pub(super) fn check_text(map: &Map, at: &str, out: &mut Problems) -> Map {
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

    let mut reference = typed("string");
    if ordered {
        insert_number(&mut reference, "minLength", min);
        insert_number(&mut reference, "maxLength", max);
    }
    if let Some(format) = format {
        reference.insert("format", Value::from(format.as_str()));
    }
    reference
}

fn check_format(map: &Map, at: &str, out: &mut Problems) -> Option<StringFormat> {
    let format_at = child(at, "format");
    match member(map, "format")? {
        Value::String(name) => {
            let format = StringFormat::from_name(name);
            if format.is_none() {
                out.add(
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
