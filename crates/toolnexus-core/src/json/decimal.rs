//! Exact reasoning about JSON numbers from their decimal spelling: order, integrality, floor,
//! the value of a count and whether a value fits a finite `f64`.
//!
//! A spelling such as `-12.50e3` is never rounded: it is read into a [`Decimal`], the sign
//! (negative), the significant digits without leading or trailing zeros (`125`) and the
//! exponent of the first of them (`4`, as the value is −1.25 × 10⁴). Every spelling of the
//! same value (`-1250e1`, `-0.0125e6`) reads to the same three parts, so equality, order and
//! integrality follow from them without any arithmetic on the value itself.
//!
//! An exponent may be written with any number of digits (`1e` followed by thousands of them),
//! so it is kept as the digits it is written with, and only differences of exponents are
//! computed, saturating at ±10³⁶. That keeps every verdict exact: the exponent of the first
//! digit is the written exponent plus a shift bounded by the length of the spelling (below
//! 2⁶⁴), so once two written exponents differ by 10³⁶ or more no shift can change which value
//! is larger. Clamping each written exponent to a bound on its own would not be exact, however
//! long spellings are: with a bound of 10¹⁵, `1e1000000000000001` (10 to the 10¹⁵ + 1) would
//! read as `1e1000000000000000` and compare equal to `10e999999999999999` (10 to the 10¹⁵).
//! The floor and the count of a number are read from the same exponents, so they are exact on
//! the same terms.

use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::iter;

use crate::json::Number;

/// The exact mathematical order of two JSON numbers (`1.0` equals `1`, `-0` equals `0`,
/// `1e400` is above `1e308`), whatever their spelling and however many digits it has.
pub(crate) fn compare(a: &Number, b: &Number) -> Ordering {
    compare_near(a, nearest_double(a), b)
}

/// The nearest double to `n` (infinite beyond the range). An integer of at most 15 digits,
/// which every form's numbers are, is exact in a double and read without the general parser.
pub(crate) fn nearest_double(n: &Number) -> Option<f64> {
    let spelling = n.as_str();
    let digits = spelling.strip_prefix('-').unwrap_or(spelling);
    if (1..=15).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()) {
        let magnitude = digits
            .bytes()
            .fold(0i64, |value, digit| value * 10 + i64::from(digit - b'0'));
        // Below 10¹⁵ < 2⁵³ the conversion is exact; `-0` stays negative zero.
        let magnitude = magnitude as f64;
        return Some(if digits.len() == spelling.len() {
            magnitude
        } else {
            -magnitude
        });
    }
    spelling.parse::<f64>().ok()
}

/// [`compare`], given the nearest double of `a` (or `None`) already.
///
/// Correctly rounded conversion keeps order (a ≤ b gives near(a) ≤ near(b)), so two numbers
/// whose nearest doubles differ compare as those doubles do; only equal doubles (`0.1` and
/// `0.10000000000000000001`, `-0` and `0`, two values beyond the range) need the digits.
pub(crate) fn compare_near(a: &Number, near_a: Option<f64>, b: &Number) -> Ordering {
    if let (Some(x), Some(y)) = (near_a, nearest_double(b))
        && let Some(order @ (Ordering::Less | Ordering::Greater)) = x.partial_cmp(&y)
    {
        return order;
    }
    Decimal::of(a).cmp(&Decimal::of(b))
}

/// Whether the double `x` has a fractional part: from 2⁵² up every double is an integer, and
/// below that an `i64` holds its integer part exactly.
fn has_fraction(x: f64) -> bool {
    let magnitude = if x < 0.0 { -x } else { x };
    // Below 2⁵² the cast drops exactly the fractional part.
    magnitude < 4_503_599_627_370_496.0 && (magnitude as i64) as f64 != magnitude
}

/// [`is_integer`], given the nearest double of `n` (or `None`) already: a double with a
/// fraction comes only from a number with one, and a spelling of digits alone is an integer;
/// anything else is decided from the digits.
pub(crate) fn is_integer_near(n: &Number, near: Option<f64>) -> bool {
    if near.is_some_and(has_fraction) {
        return false;
    }
    let spelling = n.as_str();
    let digits = spelling.strip_prefix('-').unwrap_or(spelling);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    is_integer(n)
}

/// Whether the number is a mathematical integer (`3`, `3.0`, `0.3e1`, `1e400`, `-0`; not `3.5`
/// nor `1e-400`), decided exactly from the spelling.
pub(crate) fn is_integer(n: &Number) -> bool {
    Decimal::of(n).is_integer()
}

/// The largest integer not above `n` (`1.8` → `1`, `-1.2` → `-2`, `1e-400` → `0`), decided
/// exactly from the spelling. An integer is its own floor, spelt as given (`1.20e1`). `None`
/// only if `n` is not spelt as a JSON number, which a [`Number`] always is.
pub(crate) fn floor(n: &Number) -> Option<Number> {
    let decimal = Decimal::parse(n.as_str())?;
    if decimal.is_integer() {
        return Some(n.clone());
    }
    let negative = decimal.sign == Sign::Negative;
    let mut whole: Vec<u8> = decimal.truncated_digits().collect();
    if negative {
        // Below zero the floor is one further from zero than the truncated value.
        increment(&mut whole);
    }
    if whole.is_empty() {
        whole.push(b'0');
    }
    let mut text = String::with_capacity(whole.len().saturating_add(1));
    if negative {
        text.push('-');
    }
    text.extend(whole.into_iter().map(char::from));
    Number::from_spelling(&text)
}

/// The value of the non-negative integer spelt `spelling` (`120`, `1.20e2`, `0.0012e5`, `-0`;
/// leading zeros are tolerated), saturating at `u64::MAX`; `None` if the value is negative or
/// has a fractional part, or if `spelling` is not a number.
pub(crate) fn saturating_u64(spelling: &str) -> Option<u64> {
    Decimal::parse(spelling)?.saturating_u64()
}

/// Whether the number rounds to a finite `f64` (`1.7976931348623157e308` and `1e-400` do,
/// `1.8e308` and `1e400` do not). Validation asks the same of the nearest double it reads
/// once per number.
///
/// The conversion is core's correctly rounded one (round to nearest, ties to even), so the
/// boundary is exact: a value rounds to infinity exactly when it is at least
/// `f64::MAX` + ½ ulp = 2¹⁰²⁴ − 2⁹⁷⁰, the tie itself going to the even neighbour 2¹⁰²⁴. A value
/// too small for the smallest subnormal rounds to zero, which is finite, so `1e-400` fits.
#[cfg(test)]
pub(crate) fn fits_f64(n: &Number) -> bool {
    n.as_f64().is_some()
}

/// The largest exponent difference kept exactly; anything further saturates. It dwarfs every
/// shift between a written exponent and the exponent of a first digit (at most the length of
/// a spelling, below 2⁶⁴) and still leaves room in an `i128` for adding such shifts.
const SATURATION: i128 = 1_000_000_000_000_000_000_000_000_000_000_000_000;

/// Which side of zero a number is on; the derived order is the order of the numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Sign {
    Negative,
    Zero,
    Positive,
}

/// A JSON number as a sign, its significant digits and the exponent of the first digit:
/// `-0.0125e6` is negative, digits `125`, exponent 4 (−1.25 × 10⁴). Zero has no digits.
#[derive(Debug, Clone, Copy)]
struct Decimal<'a> {
    sign: Sign,
    digits: Digits<'a>,
    exponent: Exponent<'a>,
}

impl<'a> Decimal<'a> {
    /// Zero, whatever sign or exponent it was written with.
    const ZERO: Decimal<'static> = Decimal {
        sign: Sign::Zero,
        digits: Digits {
            head: &[],
            tail: &[],
        },
        exponent: Exponent {
            written: Integer::ZERO,
            shift: 0,
        },
    };

    /// Reads a number. A [`Number`] only ever holds an RFC 8259 spelling, so reading cannot
    /// fail; zero stands in for the impossible case rather than a panic.
    fn of(n: &'a Number) -> Decimal<'a> {
        Decimal::parse(n.as_str()).unwrap_or(Decimal::ZERO)
    }

    /// Reads `-? digits (. digits)? ([eE] [+-]? digits)?`; leading zeros are tolerated.
    fn parse(spelling: &'a str) -> Option<Decimal<'a>> {
        let (negative, unsigned) = match spelling.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, spelling),
        };
        let (mantissa, written) = match unsigned.split_once(['e', 'E']) {
            Some((mantissa, exponent)) => (mantissa, Integer::parse(exponent)?),
            None => (unsigned, Integer::ZERO),
        };
        let (int_part, frac_part) = match mantissa.split_once('.') {
            Some((_, "")) => return None,
            Some((int_part, frac_part)) => (int_part, frac_part),
            None => (mantissa, ""),
        };
        if int_part.is_empty() || !all_digits(int_part) || !all_digits(frac_part) {
            return None;
        }
        let int = int_part.as_bytes();
        let frac = frac_part.as_bytes();

        // Positions below count digits of `int` then `frac` as one run, the point removed.
        let Some(first) = int.iter().chain(frac).position(|&b| b != b'0') else {
            return Some(Decimal::ZERO);
        };
        let last = match frac.iter().rposition(|&b| b != b'0') {
            Some(j) => int.len().saturating_add(j),
            None => int.iter().rposition(|&b| b != b'0').unwrap_or(first),
        };
        let end = last.saturating_add(1);
        let digits = Digits {
            head: int.get(first.min(int.len())..end.min(int.len()))?,
            tail: frac.get(first.saturating_sub(int.len())..end.saturating_sub(int.len()))?,
        };
        // The digit just before the point has exponent 0 (before the written exponent), so
        // the first significant digit has exponent `int.len() - 1 - first`.
        let shift = wide(int.len())
            .saturating_sub(1)
            .saturating_sub(wide(first));
        Some(Decimal {
            sign: if negative {
                Sign::Negative
            } else {
                Sign::Positive
            },
            digits,
            exponent: Exponent { written, shift },
        })
    }

    /// The exact order of two numbers.
    fn cmp(&self, other: &Decimal<'_>) -> Ordering {
        let magnitude = || {
            // Both non-zero: the first digit is 1–9, so a higher first-digit exponent means a
            // larger magnitude; with equal exponents the digits decide, a missing digit being
            // a zero (no trailing zeros are kept, so a proper prefix is the smaller).
            self.exponent
                .cmp(&other.exponent)
                .then_with(|| self.digits.iter().cmp(other.digits.iter()))
        };
        match (self.sign, other.sign) {
            (Sign::Positive, Sign::Positive) => magnitude(),
            (Sign::Negative, Sign::Negative) => magnitude().reverse(),
            (a, b) => a.cmp(&b),
        }
    }

    /// Whether the value has no fractional part: zero, or the last significant digit sits at
    /// exponent 0 or above.
    fn is_integer(&self) -> bool {
        if self.sign == Sign::Zero {
            return true;
        }
        let below_first = wide(self.digits.len()).saturating_sub(1);
        // A saturated exponent is at least 10³⁶ away from zero, far more than the few
        // digits subtracted here, so its sign is still the sign of the exact result.
        self.exponent.saturating().saturating_sub(below_first) >= 0
    }

    /// The digits of the integer part of a number that is not an integer, without leading
    /// zeros (none when the number is between −1 and 1).
    fn truncated_digits(&self) -> impl Iterator<Item = u8> + 'a {
        // Not an integer, so the first digit's exponent is below the digit count and exact.
        // A first digit below exponent 0 leaves no integer digits: the count is 0 or
        // negative, and a negative one fails `try_from` and becomes 0.
        let count = usize::try_from(self.exponent.saturating().saturating_add(1)).unwrap_or(0);
        self.digits.iter().take(count)
    }

    /// The value as a `u64` if it is a non-negative integer, saturating at `u64::MAX`.
    fn saturating_u64(&self) -> Option<u64> {
        match self.sign {
            Sign::Zero => return Some(0),
            Sign::Negative => return None,
            Sign::Positive if !self.is_integer() => return None,
            Sign::Positive => {}
        }
        // A first digit at exponent 20 or above makes at least 10²⁰, beyond `u64::MAX`; a
        // saturated exponent is far beyond it, so the test is exact.
        let first = self.exponent.saturating();
        if first >= 20 {
            return Some(u64::MAX);
        }
        // An integer's last significant digit is at exponent 0 or above: zeros fill the rest.
        let places = usize::try_from(first.saturating_add(1)).unwrap_or(0);
        let value = self
            .digits
            .iter()
            .chain(iter::repeat(b'0'))
            .take(places)
            .try_fold(0_u64, |value, b| {
                value
                    .checked_mul(10)?
                    .checked_add(u64::from(b.wrapping_sub(b'0')))
            });
        Some(value.unwrap_or(u64::MAX))
    }
}

/// The significant digits of a number, first and last non-zero, as ASCII bytes. They may
/// straddle the decimal point, so they are kept as two runs of the spelling, `head` from the
/// integer part and `tail` from the fraction, rather than copied.
#[derive(Debug, Clone, Copy)]
struct Digits<'a> {
    head: &'a [u8],
    tail: &'a [u8],
}

impl<'a> Digits<'a> {
    fn iter(self) -> impl Iterator<Item = u8> + 'a {
        self.head.iter().chain(self.tail).copied()
    }

    fn len(self) -> usize {
        self.head.len().saturating_add(self.tail.len())
    }
}

/// The exponent of a first significant digit: the exponent as written plus a shift for where
/// that digit stands relative to the decimal point.
#[derive(Debug, Clone, Copy)]
struct Exponent<'a> {
    written: Integer<'a>,
    shift: i128,
}

impl Exponent<'_> {
    /// The exact order of two exponents.
    fn cmp(&self, other: &Exponent<'_>) -> Ordering {
        // A saturated difference is at least 10³⁶ away from zero and the shifts differ by
        // less than 2⁶⁵, so adding them never changes the sign of a saturated difference.
        self.written
            .saturating_difference(other.written)
            .saturating_add(self.shift.saturating_sub(other.shift))
            .cmp(&0)
    }

    /// The exponent, exact when within ±10³⁶ and saturated to that bound (plus the shift)
    /// beyond it.
    fn saturating(&self) -> i128 {
        self.written
            .saturating_difference(Integer::ZERO)
            .saturating_add(self.shift)
    }
}

/// An integer of any size as written in decimal: a sign and the digits of its magnitude,
/// without leading zeros (zero has none, so `-0` and `0` are the same).
#[derive(Debug, Clone, Copy)]
struct Integer<'a> {
    negative: bool,
    magnitude: &'a [u8],
}

impl<'a> Integer<'a> {
    const ZERO: Integer<'static> = Integer {
        negative: false,
        magnitude: &[],
    };

    /// Reads `[+-]? digits`.
    fn parse(text: &'a str) -> Option<Integer<'a>> {
        let (negative, digits) = match text.as_bytes().first() {
            Some(b'-') => (true, text.get(1..)?),
            Some(b'+') => (false, text.get(1..)?),
            _ => (false, text),
        };
        if digits.is_empty() || !all_digits(digits) {
            return None;
        }
        Some(Integer {
            negative,
            magnitude: digits.trim_start_matches('0').as_bytes(),
        })
    }

    /// `self − other`, exact when its magnitude is below [`SATURATION`], otherwise
    /// ±[`SATURATION`] with the right sign.
    fn saturating_difference(self, other: Integer<'_>) -> i128 {
        let magnitude = if self.negative == other.negative {
            // a − b = |a| − |b| for two non-negatives, and −(|a| − |b|) for two negatives.
            magnitude_difference(self.magnitude, other.magnitude)
        } else {
            // a − b = |a| + |b| when only b is negative, and −(|a| + |b|) when only a is.
            magnitude_value(self.magnitude)
                .saturating_add(magnitude_value(other.magnitude))
                .min(SATURATION)
        };
        if self.negative { -magnitude } else { magnitude }
    }
}

/// `x − y` for two magnitudes without leading zeros, saturating at ±[`SATURATION`].
fn magnitude_difference(x: &[u8], y: &[u8]) -> i128 {
    match x.len().cmp(&y.len()).then_with(|| x.cmp(y)) {
        Ordering::Equal => 0,
        Ordering::Greater => saturating_subtract(x, y),
        Ordering::Less => -saturating_subtract(y, x),
    }
}

/// `larger − smaller` by schoolbook subtraction from the last digit, saturating at
/// [`SATURATION`]: the written digits may be far too many for any machine integer, yet their
/// difference is often small (`1e1000…001` against `1e1000…000`).
fn saturating_subtract(larger: &[u8], smaller: &[u8]) -> i128 {
    let mut result: i128 = 0;
    // 10^i for the digit at position i from the right, while that place is within range.
    let mut place: Option<i128> = Some(1);
    let mut borrow = 0;
    let mut smaller_digits = smaller.iter().rev();
    for &d in larger.iter().rev() {
        let s = smaller_digits.next().map_or(0, |&b| digit_value(b));
        let mut v = digit_value(d) - s - borrow;
        borrow = i128::from(v < 0);
        if v < 0 {
            v += 10;
        }
        if v != 0 {
            result = match place {
                Some(p) => result.saturating_add(v.saturating_mul(p)).min(SATURATION),
                None => SATURATION,
            };
        }
        place = place
            .and_then(|p| p.checked_mul(10))
            .filter(|&p| p <= SATURATION);
    }
    result
}

/// Adds one to the decimal digits in `digits` (empty is zero).
fn increment(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d = d.saturating_add(1);
            return;
        }
    }
    digits.insert(0, b'1');
}

/// The value of a magnitude's digits, saturating at [`SATURATION`].
fn magnitude_value(digits: &[u8]) -> i128 {
    digits.iter().fold(0, |value: i128, &b| {
        value
            .saturating_mul(10)
            .saturating_add(digit_value(b))
            .min(SATURATION)
    })
}

fn digit_value(b: u8) -> i128 {
    i128::from(b.wrapping_sub(b'0'))
}

fn all_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// A length or position as an `i128`, which holds every `usize`.
fn wide(n: usize) -> i128 {
    i128::try_from(n).unwrap_or(i128::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use proptest::prelude::*;

    fn number(spelling: &str) -> Number {
        Number::from_spelling(spelling).unwrap()
    }

    fn cmp(a: &str, b: &str) -> Ordering {
        compare(&number(a), &number(b))
    }

    /// Asserts `a < b`, and the mirror image.
    fn assert_less(a: &str, b: &str) {
        assert_eq!(cmp(a, b), Ordering::Less, "{a} < {b}");
        assert_eq!(cmp(b, a), Ordering::Greater, "{b} > {a}");
    }

    fn assert_equal(a: &str, b: &str) {
        assert_eq!(cmp(a, b), Ordering::Equal, "{a} = {b}");
        assert_eq!(cmp(b, a), Ordering::Equal, "{b} = {a}");
    }

    #[test]
    fn reads_sign_digits_and_first_digit_exponent() {
        let d = Decimal::parse("-12.50e3").unwrap();
        assert_eq!(d.sign, Sign::Negative);
        assert!(d.digits.iter().eq(*b"125"));
        assert_eq!(d.exponent.saturating(), 4);

        let d = Decimal::parse("0.00120").unwrap();
        assert_eq!(d.sign, Sign::Positive);
        assert!(d.digits.iter().eq(*b"12"));
        assert_eq!(d.exponent.saturating(), -3);

        let d = Decimal::parse("1000").unwrap();
        assert!(d.digits.iter().eq(*b"1"));
        assert_eq!(d.exponent.saturating(), 3);

        for zero in [
            "0",
            "-0",
            "0.000",
            "-0.0e-7",
            "0e999999999999999999999999999999999999",
        ] {
            assert_eq!(Decimal::parse(zero).unwrap().sign, Sign::Zero, "{zero}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_number() {
        for junk in [
            "", "-", ".5", "5.", "1e", "1e+", "1e-", "x", "1.2.3", "0x10", "1_000", "--1", "1e2e3",
            "+1", "١",
        ] {
            assert!(Decimal::parse(junk).is_none(), "{junk:?}");
        }
    }

    #[test]
    fn equal_values_spelt_differently() {
        assert_equal("1.0", "1");
        assert_equal("-0", "0");
        assert_equal("-0.0e-5", "0e10");
        assert_equal("1e2", "100");
        assert_equal("0.1e1", "1");
        assert_equal("1E+2", "100.000");
        assert_equal("12.5e-1", "1.25");
        assert_equal("-0.0125e6", "-12500");
        assert_equal("1e1000000000000000000000", "10e999999999999999999999");
        assert_equal("100e-1000000000000000000002", "1e-1000000000000000000000");
    }

    #[test]
    fn order_of_different_values() {
        assert_less("12345678901234567890122", "12345678901234567890123");
        assert_less("1e308", "1e400");
        assert_less("-1e400", "-1e308");
        assert_less("-1", "0");
        assert_less("0", "1e-400");
        assert_less("-1e-400", "0");
        assert_less("-1e400", "1e-400");
        assert_less("0.1", "0.10000000000000001");
        assert_less("0.99999999999999999999", "1");
        assert_less("1", "1.00000000000000000001");
        assert_less("9e2", "1e3");
        assert_less("-1e3", "-9e2");
        assert_less("1.5", "2");
        assert_less("19", "2e1");
        assert_less("-2e1", "-19");
    }

    #[test]
    fn exponents_with_thousands_of_digits() {
        let huge = format!("1e{}", "9".repeat(5000));
        let larger = format!("2e{}", "9".repeat(5000));
        let tiny = format!("1e-{}", "9".repeat(5000));
        assert_less("1e308", &huge);
        assert_less(&huge, &larger);
        assert_less(&tiny, "1e-308");
        assert_less("0", &tiny);
        assert_less(&format!("-{huge}"), "-1e308");
        assert_equal(&huge, &huge);

        // Exponents far beyond any machine integer that differ in the last digit only.
        let e = format!("1{}", "0".repeat(3000));
        let e_plus_1 = format!("1{}1", "0".repeat(2999));
        assert_less(&format!("1e{e}"), &format!("1e{e_plus_1}"));
        assert_less(&format!("1e-{e_plus_1}"), &format!("1e-{e}"));
        // 10 × 10^e = 1 × 10^(e+1).
        assert_equal(&format!("10e{e}"), &format!("1e{e_plus_1}"));
        assert_equal(&format!("0.1e-{e}"), &format!("1e-{e_plus_1}"));
    }

    #[test]
    fn exponents_around_any_clamp_bound_stay_exact() {
        // Clamping each exponent to 10^15 would make these equal.
        assert_less("10e999999999999999", "1e1000000000000001");
        assert_less("1e1000000000000000", "1e1000000000000001");
        assert_less(
            "1e99999999999999999999999999999999999",
            "1e100000000000000000000000000000000000",
        );
        assert_equal(
            "10e99999999999999999999999999999999999",
            "1e100000000000000000000000000000000000",
        );
        assert_less(
            "1e-100000000000000000000000000000000000",
            "1e-99999999999999999999999999999999999",
        );
        // Exponents of opposite sign and huge magnitude.
        let big = "9".repeat(60);
        assert_less(&format!("1e-{big}"), &format!("1e{big}"));
        assert_less(&format!("-1e{big}"), &format!("-1e-{big}"));
    }

    #[test]
    fn long_digit_runs() {
        let ones = "1".repeat(10_000);
        let ones_then_2 = format!("{}2", "1".repeat(9_999));
        assert_less(&ones, &ones_then_2);
        // 0.111…1 (10 000 ones) × 10^10000 is the 10 000-digit integer.
        assert_equal(&format!("0.{ones}e10000"), &ones);
        assert!(is_integer(&number(&format!("0.{ones}e10000"))));
        assert!(!is_integer(&number(&format!("0.{ones}e9999"))));
    }

    #[test]
    fn integers_decided_exactly() {
        for yes in [
            "3",
            "3.0",
            "0.3e1",
            "1e400",
            "-0",
            "0",
            "0.0",
            "-7",
            "120",
            "1.20e2",
            "0.0012e5",
            "123456789012345678901234567890.000",
            "1e999999999999999999999999999999999999999",
            "0e-999999999999999999999999999999999999999",
        ] {
            assert!(is_integer(&number(yes)), "{yes}");
        }
        for no in [
            "3.5",
            "1e-400",
            "0.1",
            "-0.5",
            "12.5e-1",
            "1.25e1",
            "1e-1",
            "1e-999999999999999999999999999999999999999",
            "123456789012345678901234567890.0000000001",
        ] {
            assert!(!is_integer(&number(no)), "{no}");
        }
    }

    #[test]
    fn floor_is_exact() {
        for (spelling, floor_of) in [
            ("1.8", "1"),
            ("-1.2", "-2"),
            ("0.5", "0"),
            ("-0.5", "-1"),
            ("12e-1", "1"),
            ("-9.5", "-10"),
            ("-99.01", "-100"),
            ("1e-400", "0"),
            ("-1e-400", "-1"),
            ("123.456e1", "1234"),
            ("-9.9999e3", "-10000"),
            // Exponents far beyond any machine integer.
            ("0.5e-1000000000000000001", "0"),
            ("-0.5e-1000000000000000001", "-1"),
            ("-1e-99999999999999999999999999999999999999999", "-1"),
        ] {
            assert_eq!(
                floor(&number(spelling)).unwrap().as_str(),
                floor_of,
                "{spelling}"
            );
        }
        // Integers are their own floor, spelled as given.
        let huge = format!("1.5e{}", "9".repeat(100));
        for spelling in ["3", "3.0", "0.3e1", "1e400", "-0", "-7", "1.20e1", &huge] {
            assert_eq!(floor(&number(spelling)).unwrap().as_str(), spelling);
        }
    }

    #[test]
    fn counts_at_the_edge_of_u64() {
        for (spelling, value) in [
            ("0", Some(0)),
            ("-0e-999999999999999999999", Some(0)),
            ("1e19", Some(10_000_000_000_000_000_000)),
            ("1.8446744073709551615e19", Some(u64::MAX)),
            ("18446744073709551615000e-3", Some(u64::MAX)),
            ("18446744073709551616e0", Some(u64::MAX)),
            ("9.9999999999999999999e19", Some(u64::MAX)),
            ("1e20", Some(u64::MAX)),
            (
                "1e99999999999999999999999999999999999999999",
                Some(u64::MAX),
            ),
            ("1.8446744073709551615e18", None),
            ("1e-99999999999999999999999999999999999999999", None),
            ("-1e19", None),
        ] {
            assert_eq!(saturating_u64(spelling), value, "{spelling}");
        }
    }

    /// 2^1024 − 2^970: halfway between `f64::MAX` and 2^1024, written out in full.
    const HALFWAY_ABOVE_MAX: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

    #[test]
    fn fits_f64_at_the_edges() {
        for yes in [
            "0",
            "-0",
            "1",
            "1.7976931348623157e308",
            "-1.7976931348623157e308",
            "1.7976931348623158e308",
            "1e-400",
            "-1e-400",
            "4.9e-324",
            "2e-324",
        ] {
            assert!(fits_f64(&number(yes)), "{yes}");
        }
        for no in [
            "1.8e308",
            "1e400",
            "-1e400",
            "1.7976931348623159e308",
            HALFWAY_ABOVE_MAX,
        ] {
            assert!(!fits_f64(&number(no)), "{no}");
        }
        // Just below the halfway point still rounds down to `f64::MAX`.
        let below = format!("{}1e-1", HALFWAY_ABOVE_MAX.strip_suffix("2").unwrap());
        assert_less(&below, HALFWAY_ABOVE_MAX);
        assert!(fits_f64(&number(&below)));
        assert!(!fits_f64(&number(&format!("1e{}", "9".repeat(5000)))));
        assert!(fits_f64(&number(&format!("1e-{}", "9".repeat(5000)))));
    }

    /// The exact decimal spelling of `m / 2^k`, as `m × 5^k × 10^-k`, in one of several
    /// equivalent forms chosen by `style`.
    fn dyadic_spelling(m: i64, k: u32, style: u8, pad: usize) -> String {
        let scaled = i128::from(m) * 5_i128.pow(k);
        let sign = if scaled < 0 { "-" } else { "" };
        let digits = format!("{}", scaled.unsigned_abs());
        let k = usize::try_from(k).unwrap();
        match style % 4 {
            // 1234e-3
            0 => format!("{sign}{digits}e-{k}"),
            // 1.234 (or 0.001234), trailing zeros added
            1 => {
                let padded = format!(
                    "{}{digits}",
                    "0".repeat((k + 1).saturating_sub(digits.len()))
                );
                let (int, frac) = padded.split_at(padded.len() - k);
                let frac = format!("{frac}{}", "0".repeat(pad));
                if frac.is_empty() {
                    format!("{sign}{int}")
                } else {
                    format!("{sign}{int}.{frac}")
                }
            }
            // 0.1234e1: all digits behind the point
            2 => {
                let e = i64::try_from(digits.len()).unwrap() - i64::try_from(k).unwrap();
                format!("{sign}0.{digits}e{e}")
            }
            // 1234000E-6: trailing zeros moved into the exponent
            _ => {
                // `0` takes no padding: `000` is not a JSON number.
                let pad = if scaled == 0 { 0 } else { pad };
                format!("{sign}{digits}{}E-{}", "0".repeat(pad), k + pad)
            }
        }
    }

    /// `m / 2^k` exactly as an `f64` (|m| < 2^53 and k small keep it exact).
    fn dyadic_value(m: i64, k: u32) -> f64 {
        #[allow(clippy::cast_precision_loss)]
        let m = m as f64;
        m / f64::from(1_u32 << k)
    }

    fn dyadic() -> impl Strategy<Value = (i64, u32, u8, usize)> {
        (
            -(1_i64 << 40)..(1_i64 << 40),
            0_u32..20,
            any::<u8>(),
            0_usize..4,
        )
    }

    #[test]
    fn the_nearest_double_of_a_short_integer_is_the_parsers() {
        for spelling in [
            "0",
            "-0",
            "7",
            "-7",
            "999999999999999",
            "-999999999999999",
            "1000000000000000",
            "12345678901234567890",
            "1.5",
            "1e3",
            "-2.5E-3",
            "1e400",
        ] {
            let near = nearest_double(&number(spelling)).map(f64::to_bits);
            let parsed = spelling.parse::<f64>().ok().map(f64::to_bits);
            assert_eq!(near, parsed, "{spelling}");
        }
    }

    proptest! {
        #[test]
        fn the_nearest_double_agrees_with_the_parser(n in -999_999_999_999_999_i64..=999_999_999_999_999) {
            let spelling = format!("{n}");
            let near = nearest_double(&number(&spelling)).map(f64::to_bits);
            prop_assert_eq!(near, spelling.parse::<f64>().ok().map(f64::to_bits));
        }

        #[test]
        fn order_agrees_with_f64_on_exact_values(
            (ma, ka, sa, pa) in dyadic(),
            (mb, kb, sb, pb) in dyadic(),
        ) {
            let (a, b) = (dyadic_spelling(ma, ka, sa, pa), dyadic_spelling(mb, kb, sb, pb));
            let expected = dyadic_value(ma, ka).partial_cmp(&dyadic_value(mb, kb)).unwrap();
            prop_assert_eq!(cmp(&a, &b), expected, "{} vs {}", a, b);
        }

        #[test]
        fn every_spelling_of_a_value_is_equal(
            (m, k, s1, p1) in dyadic(),
            s2 in any::<u8>(),
            p2 in 0_usize..4,
        ) {
            let (a, b) = (dyadic_spelling(m, k, s1, p1), dyadic_spelling(m, k, s2, p2));
            prop_assert_eq!(cmp(&a, &b), Ordering::Equal, "{} vs {}", a, b);
        }

        #[test]
        fn integrality_agrees_with_f64_on_exact_values((m, k, s, p) in dyadic()) {
            let spelling = dyadic_spelling(m, k, s, p);
            prop_assert_eq!(
                is_integer(&number(&spelling)),
                dyadic_value(m, k).fract() == 0.0,
                "{}", spelling
            );
        }

        #[test]
        fn floor_agrees_with_f64_on_exact_values((m, k, s, p) in dyadic()) {
            let spelling = dyadic_spelling(m, k, s, p);
            let floor_of = floor(&number(&spelling)).unwrap();
            let expected = format!("{}", dyadic_value(m, k).floor());
            prop_assert_eq!(cmp(floor_of.as_str(), &expected), Ordering::Equal, "{}", spelling);
        }

        #[test]
        fn counts_agree_with_u64_on_exact_values((m, k, s, p) in dyadic()) {
            let spelling = dyadic_spelling(m, k, s, p);
            let divisor = 1_u64 << k;
            let expected = u64::try_from(m).ok().filter(|v| v % divisor == 0).map(|v| v / divisor);
            prop_assert_eq!(saturating_u64(&spelling), expected, "{}", spelling);
        }

        /// The shortcut through the nearest doubles changes no verdict, on spellings of many
        /// digits and on pairs a last digit apart, whose doubles are mostly the same.
        #[test]
        fn near_doubles_decide_as_the_digits_do(
            a in "-?(0|[1-9][0-9]{0,24})(\\.[0-9]{1,24})?([eE][+-]?[0-9]{1,3})?",
            b in "-?(0|[1-9][0-9]{0,24})(\\.[0-9]{1,24})?([eE][+-]?[0-9]{1,3})?",
            tail in "[0-9]{0,3}[1-9]",
        ) {
            let near = |n: &Number| n.as_str().parse::<f64>().ok();
            let (na, nb) = (number(&a), number(&b));
            let digits_apart = match a.split_once(['e', 'E']) {
                Some((m, e)) if m.contains('.') => format!("{m}{tail}e{e}"),
                Some((m, e)) => format!("{m}.{tail}e{e}"),
                None if a.contains('.') => format!("{a}{tail}"),
                None => format!("{a}.{tail}"),
            };
            let nc = number(&digits_apart);
            for (x, y) in [(&na, &nb), (&na, &nc), (&nc, &na), (&na, &na)] {
                prop_assert_eq!(
                    compare_near(x, near(x), y),
                    Decimal::of(x).cmp(&Decimal::of(y)),
                    "{} vs {}", x.as_str(), y.as_str()
                );
            }
            for n in [&na, &nb, &nc] {
                prop_assert_eq!(is_integer_near(n, near(n)), is_integer(n), "{}", n.as_str());
            }
        }

        /// Shortest round-trip spellings lie inside their doubles' disjoint rounding
        /// intervals, so their exact order is the order of the doubles.
        #[test]
        fn order_agrees_with_f64_on_shortest_spellings(
            a in any::<f64>().prop_filter("finite", |f| f.is_finite()),
            b in any::<f64>().prop_filter("finite", |f| f.is_finite()),
        ) {
            let (sa, sb) = (format!("{a:e}"), format!("{b:e}"));
            prop_assert_eq!(cmp(&sa, &sb), a.partial_cmp(&b).unwrap(), "{} vs {}", sa, sb);
            prop_assert!(fits_f64(&number(&sa)));
        }
    }
}
