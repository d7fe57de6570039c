//! A number or integer property: `minimum`, `maximum`, and for an integer whether the range
//! holds one.

use alloc::format;
use core::cmp::Ordering;

use super::SchemaProblemKind;
use super::bounds::{in_order, number};
use super::problems::{Problems, child};
use super::shape::Shaped;
use crate::json::decimal;
use crate::json::{Map, Number};
use crate::schema::{NumberSchema, PropertyKind};

pub(in crate::schema) fn check_number(
    map: &Map,
    at: &str,
    integer: bool,
    out: &mut Problems,
) -> Shaped {
    let min = number(map, at, "minimum", out);
    let max = number(map, at, "maximum", out);
    let mut consistent = in_order(
        (min, "minimum"),
        (max, "maximum"),
        at,
        "no number lies in that range",
        out,
    );
    if let (true, true, Some(lo), Some(hi)) = (consistent, integer, min, max)
        && !admits_integer(lo, hi)
    {
        out.add(
            SchemaProblemKind::ContradictoryBounds,
            child(at, "minimum"),
            format!(
                "no integer lies between `minimum` {lo} and `maximum` {hi}: widen the range \
                     or use `type: \"number\"`"
            ),
        );
        consistent = false;
    }

    let number = NumberSchema {
        integer,
        minimum: min.cloned(),
        maximum: max.cloned(),
        default: None,
    };
    let judge = if consistent {
        number.clone()
    } else {
        NumberSchema {
            minimum: None,
            maximum: None,
            ..number.clone()
        }
    };
    Shaped {
        kind: PropertyKind::Number(number),
        judge: Some(PropertyKind::Number(judge)),
    }
}

/// Whether some integer lies in `[lo, hi]` (with `lo <= hi`): the largest integer not above
/// `hi` is at least `lo`.
fn admits_integer(lo: &Number, hi: &Number) -> bool {
    decimal::floor(hi).is_none_or(|f| decimal::compare(&f, lo) != Ordering::Less)
}
