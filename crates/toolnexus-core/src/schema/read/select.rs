//! Single-selects and multi-selects: their options, and for a multi-select how many of them
//! may be chosen.

use alloc::format;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::SchemaProblemKind;
use super::bounds::{count, in_order, insert_number};
use super::items::check_items;
use super::options::{check_enum, check_enum_names, check_titled, option_values};
use super::problems::{Problems, child, member};
use super::property::typed;
use crate::json::decimal;
use crate::json::{Map, Number, Value};

pub(super) fn check_single_select(map: &Map, at: &str, out: &mut Problems) -> Option<Map> {
    let options = if let Some(list) = member(map, "enum") {
        let options = check_enum(list, &child(at, "enum"), out);
        check_enum_names(map, at, list.as_array().map(Vec::len), out);
        options
    } else {
        let list = member(map, "oneOf")?;
        check_titled(list, &child(at, "oneOf"), "oneOf", out)
    };
    let mut reference = typed("string");
    // Validation depends on the option values only, so titled options are judged as `enum`.
    reference.insert("enum", option_values(options?)?);
    Some(reference)
}

pub(super) fn check_multi_select(map: &Map, at: &str, out: &mut Problems) -> Option<Map> {
    let min = count(map, at, "minItems", "options", out);
    let max = count(map, at, "maxItems", "options", out);
    // The options are needed to judge `minItems`, but their problems come after it.
    let mut items_problems = Problems::default();
    let options = check_items(map, at, &mut items_problems);
    let mut consistent = in_order(
        (min, "minItems"),
        (max, "maxItems"),
        at,
        "no selection has a size in that range",
        out,
    );
    if let (true, Some(lo), Some(options)) = (consistent, min, &options) {
        let available = count_number(options.len());
        if !options.is_empty() && decimal::compare(lo, &available) == Ordering::Greater {
            out.add(
                SchemaProblemKind::ContradictoryBounds,
                child(at, "minItems"),
                format!(
                    "`minItems` {lo} is more than the {} options: nothing could be chosen; lower \
                     `minItems` or add options",
                    options.len()
                ),
            );
            consistent = false;
        }
    }
    out.append(items_problems);
    if let Some(unique) = member(map, "uniqueItems") {
        if !unique.is_boolean() {
            out.wrong_type(
                child(at, "uniqueItems"),
                "`uniqueItems`",
                "a boolean",
                unique,
            );
        }
    }

    let mut reference = typed("array");
    if consistent {
        insert_number(&mut reference, "minItems", min);
        insert_number(&mut reference, "maxItems", max);
    }
    let items = [
        ("type", Value::from("string")),
        ("enum", option_values(options?)?),
    ];
    reference.insert("items", items.into_iter().collect::<Map>().into());
    Some(reference)
}

/// The number `n` as a JSON number.
fn count_number(n: usize) -> Number {
    Number::from(u64::try_from(n).unwrap_or(u64::MAX))
}
