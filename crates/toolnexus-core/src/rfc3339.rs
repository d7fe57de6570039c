//! RFC 3339 date and time syntax checks, for the `date` and `date-time` string formats and
//! for timestamps such as `expiresAt`.
//!
//! Both checks are exact to [RFC 3339 §5.6] and to the real Gregorian calendar, and agree with
//! the JSON-Schema-Test-Suite's expectations for the `date` and `date-time` formats. They look
//! at bytes only, allocate nothing and never panic: a string that is not ASCII where a digit or
//! a separator belongs is simply not a date.
//!
//! [RFC 3339 §5.6]: https://www.rfc-editor.org/rfc/rfc3339#section-5.6

/// Minutes in a day, for taking a time of day back to UTC across midnight.
const MINUTES_PER_DAY: i32 = 24 * 60;

/// 23:59 as minutes since midnight: the only UTC minute that may hold a leap second.
const LEAP_SECOND_MINUTE: i32 = 23 * 60 + 59;

/// Whether `s` is an RFC 3339 `full-date` (`YYYY-MM-DD`) naming a day that exists.
///
/// The year is exactly four ASCII digits (`0000`–`9999`; no sign, no extended years), the
/// month `01`–`12`, and the day within that month, February having 29 days in Gregorian leap
/// years only (`2024-02-29` and `2000-02-29` exist, `2023-02-29` and `1900-02-29` do not).
/// Nothing may come before or after the date, not even whitespace.
///
/// ```
/// use toolnexus_core::rfc3339::is_full_date;
///
/// assert!(is_full_date("2024-02-29"));
/// assert!(!is_full_date("2023-02-29"));
/// assert!(!is_full_date("2024-2-29"));
/// ```
pub fn is_full_date(s: &str) -> bool {
    let bytes = s.as_bytes();
    bytes.len() == FULL_DATE_LEN && full_date(bytes).is_some()
}

/// Whether `s` is an RFC 3339 `date-time`: a full-date, `T`, a time of day and an offset, as in
/// `1985-04-12T23:20:50.52Z` or `1996-12-19T16:39:57-08:00`.
///
/// - The date is checked as by [`is_full_date`].
/// - `T` and `Z` may be lower case, as RFC 3339 §5.6 permits; no other separator (such as a
///   space) is accepted.
/// - Hours are `00`–`23`, minutes `00`–`59`, seconds `00`–`60`, followed optionally by `.`
///   and one or more digits of fraction.
/// - The offset is required: `Z`, or `+HH:MM` / `-HH:MM` with hours `00`–`23` and minutes
///   `00`–`59`. A bare `+HH` is not an offset.
/// - Second `60` (a leap second) is accepted only when the time, taken back to UTC by
///   subtracting the offset, is 23:59 — the only minute a leap second is ever inserted in.
///   Which days actually had one is history, not syntax, and is not checked.
///
/// ```
/// use toolnexus_core::rfc3339::is_date_time;
///
/// assert!(is_date_time("1998-12-31T15:59:60.123-08:00"));
/// assert!(!is_date_time("1998-12-31T23:59:60+01:00"));
/// assert!(!is_date_time("1985-04-12T23:20:50"));
/// ```
pub fn is_date_time(s: &str) -> bool {
    date_time(s.as_bytes()).is_some()
}

/// Length in bytes of `YYYY-MM-DD`.
const FULL_DATE_LEN: usize = 10;

/// Reads `YYYY-MM-DD` from the first ten bytes of `b` and checks that the day exists. Bytes
/// after the tenth are the caller's business.
fn full_date(b: &[u8]) -> Option<()> {
    let year = digits(b, 0, 4)?;
    separator(b, 4, b'-')?;
    let month = digits(b, 5, 2)?;
    separator(b, 7, b'-')?;
    let day = digits(b, 8, 2)?;
    (day >= 1 && day <= days_in_month(year, month)).then_some(())
}

/// Reads a whole `date-time` from `b`: a full-date, `T`, `HH:MM:SS[.frac]` and an offset, with
/// nothing after it.
fn date_time(b: &[u8]) -> Option<()> {
    full_date(b)?;
    let t = *b.get(FULL_DATE_LEN)?;
    (t == b'T' || t == b't').then_some(())?;

    // partial-time: HH:MM:SS at fixed positions after the `T`.
    let hour = digits(b, 11, 2)?;
    separator(b, 13, b':')?;
    let minute = digits(b, 14, 2)?;
    separator(b, 16, b':')?;
    let second = digits(b, 17, 2)?;
    (hour <= 23 && minute <= 59 && second <= 60).then_some(())?;

    // time-secfrac: `.` then at least one digit; the fraction's length is not bounded.
    let mut at = 19;
    if b.get(at) == Some(&b'.') {
        at += 1;
        let start = at;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        (at > start).then_some(())?;
    }

    // time-offset: the offset in minutes east of UTC.
    let offset = match *b.get(at)? {
        b'Z' | b'z' => {
            at += 1;
            0
        }
        sign @ (b'+' | b'-') => {
            let off_hour = digits(b, at + 1, 2)?;
            separator(b, at + 3, b':')?;
            let off_minute = digits(b, at + 4, 2)?;
            (off_hour <= 23 && off_minute <= 59).then_some(())?;
            at += 6;
            // Both values are at most 99, so these conversions cannot fail; `?` keeps the
            // function free of panicking paths all the same.
            let minutes = i32::try_from(off_hour * 60 + off_minute).ok()?;
            if sign == b'-' { -minutes } else { minutes }
        }
        _ => return None,
    };
    // Anything after the offset (a second offset, a newline, a space) makes it not a date-time.
    (at == b.len()).then_some(())?;

    if second == 60 {
        // Local time = UTC + offset, so UTC = local - offset, wrapped into one day.
        let local = i32::try_from(hour * 60 + minute).ok()?;
        let utc = (local - offset).rem_euclid(MINUTES_PER_DAY);
        (utc == LEAP_SECOND_MINUTE).then_some(())?;
    }
    Some(())
}

/// The number `count` ASCII digits starting at `at` spell, or `None` if any of those bytes is
/// missing or not an ASCII digit (signs, spaces and non-ASCII digits included).
fn digits(b: &[u8], at: usize, count: usize) -> Option<u32> {
    let field = b.get(at..at.checked_add(count)?)?;
    field.iter().try_fold(0u32, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
    })
}

/// `Some` if the byte at `at` is `expected`.
fn separator(b: &[u8], at: usize, expected: u8) -> Option<()> {
    (b.get(at) == Some(&expected)).then_some(())
}

/// The UTC instant `unix_ms` milliseconds after 1970-01-01T00:00:00Z as an RFC 3339
/// `date-time`: `2026-11-29T23:30:00Z`, with `.mmm` milliseconds only when they are not zero
/// (`2026-11-29T23:30:00.250Z`). Instants after 9999-12-31T23:59:59.999Z, which RFC 3339's
/// four-digit year cannot write, are written as that last instant.
///
/// ```
/// use toolnexus_core::rfc3339::{format_unix_ms, is_date_time};
///
/// assert_eq!(format_unix_ms(0), "1970-01-01T00:00:00Z");
/// assert_eq!(format_unix_ms(1_709_251_199_250), "2024-02-29T23:59:59.250Z");
/// assert!(is_date_time(&format_unix_ms(u64::MAX)));
/// ```
pub fn format_unix_ms(unix_ms: u64) -> alloc::string::String {
    /// 9999-12-31T23:59:59.999Z.
    const LAST_MS: u64 = 253_402_300_799_999;
    let ms = unix_ms.min(LAST_MS);
    let (days, ms_of_day) = (ms / 86_400_000, ms % 86_400_000);
    let (year, month, day) = civil_from_days(days);
    let seconds = ms_of_day / 1000;
    let (hour, minute, second) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let millis = ms_of_day % 1000;
    if millis == 0 {
        alloc::format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
    } else {
        alloc::format!(
            "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{millis:03}Z"
        )
    }
}

/// Whether `s` is an RFC 3339 time offset: `Z` (either case) or `+HH:MM`/`-HH:MM` with an hour
/// up to 23 and minutes up to 59.
pub fn is_offset(s: &str) -> bool {
    offset_minutes(s).is_some()
}

/// The offset `s` in minutes east of UTC, if it is one ([`is_offset`]).
fn offset_minutes(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if s.eq_ignore_ascii_case("z") {
        return Some(0);
    }
    if b.len() != 6 {
        return None;
    }
    let sign = match b.first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let hours = digits(b, 1, 2)?;
    separator(b, 3, b':')?;
    let minutes = digits(b, 4, 2)?;
    (hours <= 23 && minutes <= 59).then(|| sign * i64::from(hours * 60 + minutes))
}

/// The wall-clock time, `YYYY-MM-DDTHH:MM:SS`, that the instant `date_time` (an RFC 3339
/// `date-time`) shows at the offset `offset` (`Z`, `+01:00`…). A fraction of a second is
/// dropped and a leap second shows as `:59`. `None` when either is not what it should be, or
/// the instant falls outside the years 0000 to 9999 there.
///
/// ```
/// use toolnexus_core::rfc3339::at_offset;
///
/// assert_eq!(at_offset("2026-12-01T17:30:00Z", "+01:00").as_deref(), Some("2026-12-01T18:30:00"));
/// assert_eq!(at_offset("2026-01-01T00:15:00+02:00", "Z").as_deref(), Some("2025-12-31T22:15:00"));
/// assert_eq!(at_offset("2026-12-01", "Z"), None);
/// ```
pub fn at_offset(date_time: &str, offset: &str) -> Option<alloc::string::String> {
    if !is_date_time(date_time) {
        return None;
    }
    let to = offset_minutes(offset)?;
    let b = date_time.as_bytes();
    let number = |at, count| digits(b, at, count).map(i64::from);
    let days = days_from_civil(number(0, 4)?, number(5, 2)?, number(8, 2)?);
    // `is_date_time` checked the shape: the offset is what follows the seconds and fraction.
    let after_seconds = date_time.get(19..)?;
    let fraction = after_seconds.len()
        - after_seconds
            .trim_start_matches(|c: char| c == '.' || c.is_ascii_digit())
            .len();
    let from = offset_minutes(after_seconds.get(fraction..)?)?;
    let seconds =
        days * 86_400 + number(11, 2)? * 3600 + number(14, 2)? * 60 + number(17, 2)?.min(59)
            - from * 60
            + to * 60;
    let days = u64::try_from(seconds.div_euclid(86_400)).ok()?;
    let of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    (year <= 9999).then(|| {
        alloc::format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            of_day / 3600,
            of_day / 60 % 60,
            of_day % 60
        )
    })
}

/// The number of days from 1970-01-01 to the Gregorian date given (the inverse of
/// [`civil_from_days`]); negative before 1970.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let shifted_month = if month > 2 { month - 3 } else { month + 9 };
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The Gregorian (year, month, day) of the day `days` after 1970-01-01, counting in 400-year
/// eras of 146,097 days from 0000-03-01 so that the leap day ends each year.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    // 719,468 days lie between 0000-03-01 and 1970-01-01.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// Gregorian leap years: every fourth year, except centuries not divisible by 400.
fn is_leap_year(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

/// Days in `month` of `year`; 0 for a month outside 1–12, so that no day fits in it.
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn every_day_to_year_9999_follows_the_one_before() {
        let (mut year, mut month, mut day) = (1970, 1, 1);
        for days in 0..2_932_897u64 {
            assert_eq!(civil_from_days(days), (year, month, day), "day {days}");
            let month_len = u64::from(days_in_month(year as u32, month as u32));
            day += 1;
            if day > month_len {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
        }
        assert_eq!((year, month, day), (10000, 1, 1));
    }

    #[test]
    fn days_from_civil_undoes_civil_from_days() {
        for days in (0..2_932_897u64)
            .step_by(97)
            .chain([0, 59, 60, 365, 2_932_896])
        {
            let (y, m, d) = civil_from_days(days);
            let back = days_from_civil(y as i64, m as i64, d as i64);
            assert_eq!(back, days as i64, "{y:04}-{m:02}-{d:02}");
        }
        assert_eq!(days_from_civil(1969, 12, 31), -1);
    }

    #[test]
    fn an_instant_is_shown_at_any_offset() {
        let cases = [
            ("2026-12-01T17:30:00Z", "Z", Some("2026-12-01T17:30:00")),
            (
                "2026-12-01T17:30:00.999Z",
                "+00:00",
                Some("2026-12-01T17:30:00"),
            ),
            (
                "2026-12-31T23:30:00-01:00",
                "+01:00",
                Some("2027-01-01T01:30:00"),
            ),
            (
                "2024-03-01T00:10:00+00:30",
                "Z",
                Some("2024-02-29T23:40:00"),
            ),
            ("1990-12-31T23:59:60Z", "Z", Some("1990-12-31T23:59:59")),
            ("0000-01-01T00:00:00Z", "-00:01", None),
            ("9999-12-31T23:59:59Z", "+00:01", None),
            ("2026-12-01T17:30:00Z", "+24:00", None),
            ("2026-12-01T17:30:00", "Z", None),
        ];
        for (instant, offset, shown) in cases {
            assert_eq!(
                at_offset(instant, offset).as_deref(),
                shown,
                "{instant} at {offset}"
            );
        }
    }

    #[test]
    fn formats_instants_as_rfc3339() {
        assert_eq!(format_unix_ms(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(
            format_unix_ms(4_107_542_400_001),
            "2100-03-01T00:00:00.001Z"
        );
        assert_eq!(format_unix_ms(u64::MAX), "9999-12-31T23:59:59.999Z");
        for ms in [
            0,
            1,
            999,
            86_399_999,
            1_709_251_199_250,
            253_402_300_799_999,
        ] {
            assert!(is_date_time(&format_unix_ms(ms)), "{ms}");
        }
    }

    use super::*;

    #[test]
    fn leap_years_follow_gregorian_rules() {
        assert!(is_leap_year(2024));
        assert!(is_leap_year(2000));
        assert!(is_leap_year(400));
        assert!(is_leap_year(0));
        assert!(!is_leap_year(2023));
        assert!(!is_leap_year(1900));
        assert!(!is_leap_year(2100));
        assert!(!is_leap_year(100));
    }

    #[test]
    fn full_date_accepts_real_days() {
        for s in [
            "1963-06-19",
            "2020-01-31",
            "2021-02-28",
            "2020-03-31",
            "2020-04-30",
            "2020-05-31",
            "2020-06-30",
            "2020-07-31",
            "2020-08-31",
            "2020-09-30",
            "2020-10-31",
            "2020-11-30",
            "2020-12-31",
            "2024-02-29",
            "2000-02-29",
            "0400-02-29",
            "0000-01-01",
            "0001-01-01",
            "9999-12-31",
            "1582-10-10",
        ] {
            assert!(is_full_date(s), "{s} should be a full-date");
        }
    }

    #[test]
    fn full_date_rejects_days_that_do_not_exist() {
        for s in [
            "2023-02-29",
            "1900-02-29",
            "2100-02-29",
            "0100-02-29",
            "2021-02-29",
            "2020-02-30",
            "2020-01-32",
            "2020-03-32",
            "2020-04-31",
            "2020-06-31",
            "2020-09-31",
            "2020-11-31",
            "2020-12-32",
            "2024-00-15",
            "2024-01-00",
            "1998-13-01",
            "2024-99-99",
        ] {
            assert!(!is_full_date(s), "{s} should not be a full-date");
        }
    }

    #[test]
    fn full_date_rejects_other_spellings() {
        for s in [
            "",
            "06/19/1963",
            "2013-350",
            "1998-1-20",
            "1998-01-1",
            "20230328",
            "2023-W01",
            "2023-W13-2",
            "2022W527",
            "2020-11-28T23:55:45Z",
            " 2024-01-15",
            "2024-01-15 ",
            "2020 -01-01",
            "2020-01-01X",
            "2020-01-01Z",
            "2020-01-01 00:00:00Z",
            "20-01-01",
            "998-01-01",
            "12020-01-01",
            "+2020-01-01",
            "-2020-01-01",
            "+020-01-01",
            "YYYY-01-01",
            "2020-001-01",
            "2020-MM-01",
            "2020-01-001",
            "2020-01-DD",
            "2020:01:01",
            "2020.01.01",
            "2020 01 01",
            "2020-01/01",
            "2020--01-01",
            "2020-01--01",
            "2147483648-01-01",
            "2020-01-0:",
            "2020-01-0/",
            "2020\u{2013}01\u{2013}01",
            "2020-01-01\0",
            "2020-01-01\n",
        ] {
            assert!(!is_full_date(s), "{s:?} should not be a full-date");
        }
    }

    #[test]
    fn full_date_rejects_non_ascii_digits() {
        // U+09EA BENGALI DIGIT FOUR is a digit to Unicode, not to RFC 3339.
        for s in [
            "1963-06-1\u{9ea}",
            "2020-0\u{9ea}-01",
            "\u{9e8}020-01-01",
            // Ten bytes long, like a real date, but only eight characters.
            "\u{9e8}0-01-01",
            // Full-width digits.
            "\u{ff12}\u{ff10}\u{ff12}\u{ff10}-01-01",
        ] {
            assert!(!is_full_date(s), "{s:?} should not be a full-date");
        }
    }

    #[test]
    fn date_time_accepts_valid_timestamps() {
        for s in [
            "1963-06-19T08:30:06.283185Z",
            "1963-06-19T08:30:06Z",
            "1937-01-01T12:00:27.87+00:20",
            "1990-12-31T15:59:50.123-08:00",
            "1985-04-12T23:20:50.52Z",
            "1996-12-19T16:39:57-08:00",
            "1990-12-31T23:59:59Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999+23:59",
            "2024-02-29T00:00:00-23:59",
            "1985-04-12T00:59:59.999999999999999Z",
            "1985-04-12T23:20:50.0Z",
            "1985-04-12T23:20:50-00:00",
        ] {
            assert!(is_date_time(s), "{s} should be a date-time");
        }
    }

    #[test]
    fn date_time_t_and_z_are_case_insensitive() {
        assert!(is_date_time("1963-06-19t08:30:06.283185z"));
        assert!(is_date_time("1963-06-19t08:30:06Z"));
        assert!(is_date_time("1963-06-19T08:30:06z"));
    }

    #[test]
    fn date_time_leap_second_only_at_2359_utc() {
        // Valid: 23:59:60 in UTC, whatever the local spelling.
        assert!(is_date_time("1998-12-31T23:59:60Z"));
        assert!(is_date_time("1998-12-31T23:59:60.5z"));
        assert!(is_date_time("1998-12-31T15:59:60.123-08:00"));
        assert!(is_date_time("1999-01-01T00:59:60+01:00"));
        assert!(is_date_time("1998-12-31T23:59:60-00:00"));
        // Across midnight in both directions.
        assert!(is_date_time("1999-01-01T08:59:60+09:00"));
        assert!(is_date_time("1998-12-31T00:29:60-23:30"));
        assert!(is_date_time("1999-01-01T23:29:60+23:30"));
        // Invalid: not 23:59 in UTC.
        assert!(!is_date_time("1998-12-31T23:59:60+01:00"));
        assert!(!is_date_time("1998-12-31T23:59:60-01:00"));
        assert!(!is_date_time("1998-12-31T23:58:60Z"));
        assert!(!is_date_time("1998-12-31T22:59:60Z"));
        assert!(!is_date_time("1998-12-31T00:00:60Z"));
        assert!(!is_date_time("1998-12-31T15:59:60-08:01"));
        // Never past 60, and hour 24 is never valid.
        assert!(!is_date_time("1998-12-31T23:59:61Z"));
        assert!(!is_date_time("2016-12-31T24:59:60+01:00"));
    }

    #[test]
    fn date_time_rejects_out_of_range_fields() {
        for s in [
            "1990-02-31T15:59:59.123-08:00",
            "2023-02-29T00:00:00Z",
            "1990-12-31T24:00:00Z",
            "1990-12-31T15:60:00Z",
            "1990-12-31T15:59:99Z",
            "1990-12-31T15:59:59-24:00",
            "1990-12-31T15:59:59+24:00",
            "1990-12-31T10:00:00+10:60",
            "1990-13-31T10:00:00Z",
        ] {
            assert!(!is_date_time(s), "{s} should not be a date-time");
        }
    }

    #[test]
    fn date_time_requires_an_offset() {
        for s in [
            "1985-04-12T23:20:50",
            "1985-04-12T23:20:50.52",
            "1985-04-12T23:20:50+01",
            "1985-04-12T23:20:50+0100",
            "1985-04-12T23:20:50+01:0",
            "1985-04-12T23:20:50+",
            "1985-04-12T23:20:50-",
            "1985-04-12T23:20:50 Z",
            "1985-04-12T23:20:50UTC",
        ] {
            assert!(!is_date_time(s), "{s:?} should not be a date-time");
        }
    }

    #[test]
    fn date_time_rejects_other_spellings() {
        for s in [
            "",
            "1963-06-19",
            "1963-06-19T",
            "1963-06-19T08:30Z",
            "1963-06-19T08:30:06.28123+01:00Z",
            "1963-06-19T08:30:06ZZ",
            "06/19/1963 08:30:06 PST",
            "2013-350T01:01:01",
            "1963-6-19T08:30:06.283185Z",
            "1963-06-1T08:30:06.283185Z",
            "+11963-06-19T08:30:06.283185Z",
            "1985-04-12T23:20:50Z\n",
            " 1985-04-12T23:20:50Z",
            "1985-04-12 23:20:50Z",
            "1985-04-12_23:20:50Z",
            "1985-04-12T23:20:50.Z",
            "1985-04-12T23:20:50,5Z",
            "1985-04-12T23:20:50.5.5Z",
            "1985-04-12T2:20:50Z",
            "1985-04-12T23:2:50Z",
            "1985-04-12T23:20:5Z",
            "1985-04-12T23-20-50Z",
            "1985-04-12T+3:20:50Z",
            "1985-04-12T23:20:50+-1:00",
            "1985-04-12T23:20:50+01:00\0",
        ] {
            assert!(!is_date_time(s), "{s:?} should not be a date-time");
        }
    }

    #[test]
    fn date_time_rejects_non_ascii_digits() {
        for s in [
            "1963-06-1\u{9ea}T00:00:00Z",
            "1963-06-11T0\u{9ea}:00:00Z",
            "1963-06-11T00:00:00.\u{9ea}Z",
            "1963-06-11T00:00:00+0\u{9ea}:00",
            "1963-06-11T00:00:00\u{ff3a}",
        ] {
            assert!(!is_date_time(s), "{s:?} should not be a date-time");
        }
    }

    #[test]
    fn digits_reads_only_ascii_digits_in_range() {
        assert_eq!(digits(b"2024", 0, 4), Some(2024));
        assert_eq!(digits(b"x07", 1, 2), Some(7));
        assert_eq!(digits(b"07", 1, 2), None);
        assert_eq!(digits(b"0a", 0, 2), None);
        assert_eq!(digits(b"07", usize::MAX, 2), None);
    }

    #[test]
    fn days_in_month_covers_every_month() {
        let common = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
        for (month, days) in (1..=12).zip(common) {
            assert_eq!(days_in_month(2023, month), days);
        }
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(2024, 0), 0);
        assert_eq!(days_in_month(2024, 13), 0);
    }
}
