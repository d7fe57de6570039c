//! Single-selects and multi-selects: their options, and for a multi-select how many of them
//! may be chosen.

use alloc::format;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::SchemaProblemKind;
use super::bounds::{as_count, count, in_order};
use super::items::check_items;
use super::options::{OptionList, check_enum, check_enum_names, check_titled};
use super::problems::{Problems, child, member};
use super::shape::Shaped;
use crate::json::{Map, Number, decimal};
use crate::schema::{EnumShape, MultiSelectSchema, PropertyKind, SingleSelectSchema};

pub(in crate::schema) fn check_single_select(
    map: &Map,
    at: &str,
    out: &mut Problems,
) -> Option<Shaped> {
    let (shape, options) = if let Some(list) = member(map, "enum") {
        let mut options = check_enum(list, &child(at, "enum"), out);
        let titles = check_enum_names(map, at, list.as_array().map(Vec::len), out);
        let shape = if member(map, "enumNames").is_some() {
            EnumShape::LegacyTitled
        } else {
            EnumShape::Untitled
        };
        if let (Some(options), Some(titles)) = (options.as_mut(), titles) {
            options.titled_by(&titles);
        }
        (shape, options)
    } else {
        let list = member(map, "oneOf")?;
        (
            EnumShape::Titled,
            check_titled(list, &child(at, "oneOf"), "oneOf", out),
        )
    };
    let OptionList { written, distinct } = options?;
    let select = |options| SingleSelectSchema {
        shape,
        options,
        default: None,
    };
    // With no options there is nothing a default could be: that is reported already.
    let judge = (!distinct.is_empty()).then(|| PropertyKind::SingleSelect(select(distinct)));
    Some(Shaped {
        kind: PropertyKind::SingleSelect(select(written)),
        judge,
    })
}

pub(in crate::schema) fn check_multi_select(
    map: &Map,
    at: &str,
    out: &mut Problems,
) -> Option<Shaped> {
    let min = count(map, at, "minItems", "options", out);
    let max = count(map, at, "maxItems", "options", out);
    // The options are needed to judge `minItems`, but their problems come after it.
    let mut items_problems = Problems::default();
    let items = check_items(map, at, &mut items_problems);
    let mut consistent = in_order(
        (min, "minItems"),
        (max, "maxItems"),
        at,
        "no selection has a size in that range",
        out,
    );
    if let (true, Some(lo), Some((_, options))) = (consistent, min, &items) {
        let available = options.distinct.len();
        if available > 0 && decimal::compare(lo, &count_number(available)) == Ordering::Greater {
            out.add(
                SchemaProblemKind::ContradictoryBounds,
                child(at, "minItems"),
                format!(
                    "`minItems` {lo} is more than the {available} options: nothing could be \
                     chosen; lower `minItems` or add options"
                ),
            );
            consistent = false;
        }
    }
    out.append(items_problems);
    if let Some(unique) = member(map, "uniqueItems")
        && !unique.is_boolean()
    {
        out.wrong_type_note(
            child(at, "uniqueItems"),
            "`uniqueItems`",
            "a boolean",
            unique,
        );
    }

    let (shape, OptionList { written, distinct }) = items?;
    let select = MultiSelectSchema {
        shape,
        options: written,
        min_items: min.map(as_count),
        max_items: max.map(as_count),
        default: None,
    };
    let judge = (!distinct.is_empty()).then(|| {
        let (min_items, max_items) = if consistent {
            (select.min_items, select.max_items)
        } else {
            (None, None)
        };
        PropertyKind::MultiSelect(MultiSelectSchema {
            shape,
            options: distinct,
            min_items,
            max_items,
            default: None,
        })
    });
    Some(Shaped {
        kind: PropertyKind::MultiSelect(select),
        judge,
    })
}

/// The number `n` as a JSON number.
fn count_number(n: usize) -> Number {
    Number::from(u64::try_from(n).unwrap_or(u64::MAX))
}
