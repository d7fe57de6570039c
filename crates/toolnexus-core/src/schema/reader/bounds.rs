//! Bounds the shapes share: lengths and counts, number bounds, and whether a lower bound is
//! above its upper one.

use alloc::format;
use core::cmp::Ordering;

use super::SchemaProblemKind;
use super::problems::{Problems, child, member};
use crate::json::decimal;
use crate::json::{Map, Number, Value};

/// The member `key` as a length or count: a non-negative integer (`3`, `3.0`, `0.3e1`).
pub(in crate::schema) fn count<'a>(
    map: &'a Map,
    at: &str,
    key: &str,
    unit: &str,
    out: &mut Problems,
) -> Option<&'a Number> {
    let key_at = child(at, key);
    match member(map, key)? {
        Value::Number(n) => {
            let zero = Number::from(0u64);
            if decimal::is_integer(n) && decimal::compare(n, &zero) != Ordering::Less {
                Some(n)
            } else {
                out.block(
                    SchemaProblemKind::InvalidValue,
                    key_at,
                    format!("`{key}` must be a whole number of {unit}, 0 or more, not {n}"),
                );
                None
            }
        }
        other => {
            out.wrong_type(key_at, &format!("`{key}`"), "a non-negative integer", other);
            None
        }
    }
}

/// The member `key` as a JSON number.
pub(in crate::schema) fn number<'a>(
    map: &'a Map,
    at: &str,
    key: &str,
    out: &mut Problems,
) -> Option<&'a Number> {
    match member(map, key)? {
        Value::Number(n) => Some(n),
        other => {
            out.wrong_type(child(at, key), &format!("`{key}`"), "a number", other);
            None
        }
    }
}

/// Whether the lower bound is at most the upper one (or either is absent); reports it at the
/// lower bound when not.
pub(in crate::schema) fn in_order(
    (lo, lo_key): (Option<&Number>, &str),
    (hi, hi_key): (Option<&Number>, &str),
    at: &str,
    consequence: &str,
    out: &mut Problems,
) -> bool {
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return true;
    };
    if decimal::compare(lo, hi) != Ordering::Greater {
        return true;
    }
    out.add(
        SchemaProblemKind::ContradictoryBounds,
        child(at, lo_key),
        format!("`{lo_key}` {lo} is greater than `{hi_key}` {hi}: {consequence}; swap or fix them"),
    );
    false
}

/// A length or count checked by [`count`] as the model holds it; one above `u64::MAX` reads
/// as `u64::MAX`, which no length or count can reach, so the constraint means the same.
pub(in crate::schema) fn as_count(n: &Number) -> u64 {
    decimal::saturating_u64(n.as_str()).unwrap_or(u64::MAX)
}
