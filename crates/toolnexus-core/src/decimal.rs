//! Exact reasoning about JSON numbers from their decimal spelling: order, integrality and
//! whether a value fits a finite `f64`.
//!
//! (Skeleton: signatures only; filled in by the decimal work.)

use core::cmp::Ordering;

use crate::value::Number;

/// The exact mathematical order of two JSON numbers (`1.0` equals `1`, `-0` equals `0`).
pub(crate) fn compare(a: &Number, b: &Number) -> Ordering {
    let _ = (a, b);
    Ordering::Equal
}

/// Whether the number is a mathematical integer (`3`, `3.0`, `0.3e1`, `1e400`).
pub(crate) fn is_integer(n: &Number) -> bool {
    let _ = n;
    true
}

/// Whether the number rounds to a finite `f64` (`1e308` does, `1e400` does not).
pub(crate) fn fits_f64(n: &Number) -> bool {
    let _ = n;
    true
}
