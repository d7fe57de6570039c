//! Request ids: `elc-<unix ms, lower hex>-<sequence>`.
//!
//! The core takes ids from its caller, since it reads no clock. [`format_id`] spells an id
//! from a time and a sequence number without allocating; with the `std` feature, `next_id`
//! takes the time from the system clock and the sequence from a process-wide counter.

/// The longest id [`format_id`] can make: `elc-` + 16 hex digits + `-` + 20 digits.
pub const MAX_ID_LEN: usize = 4 + 16 + 1 + 20;

/// An id in a fixed-size buffer.
pub type IdBuf = heapless::String<MAX_ID_LEN>;

/// The id for `unix_ms` (milliseconds since 1970, written in lower-case hex) and `sequence`
/// (written in decimal): `format_id(0x18bcfe56800, 1)` is `elc-18bcfe56800-1`.
pub fn format_id(unix_ms: u64, sequence: u64) -> IdBuf {
    let mut id = IdBuf::new();
    // MAX_ID_LEN holds the longest possible id, so no push can run out of room. Spelt digit
    // by digit rather than through `core::fmt`, which costs more than the rest of the id.
    let _ = id.push_str("elc-");
    let nibbles = (u64::BITS - unix_ms.leading_zeros()).div_ceil(4).max(1);
    for at in (0..nibbles).rev() {
        let nibble = u32::try_from((unix_ms >> (at * 4)) & 0xF).unwrap_or(0);
        let _ = id.push(char::from_digit(nibble, 16).unwrap_or('0'));
    }
    let _ = id.push('-');
    let _ = id.push_str(itoa::Buffer::new().format(sequence));
    id
}

/// A fresh id from the system clock and a process-wide sequence (the first call gets 1).
///
/// The sequence alone makes ids unique within a process, on any number of threads, even when
/// the clock stands still or steps back; the time keeps them apart across restarts.
#[cfg(feature = "std")]
pub fn next_id() -> alloc::string::String {
    use core::sync::atomic::{AtomicU64, Ordering};

    static SEQUENCE: AtomicU64 = AtomicU64::new(1);
    let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    alloc::string::String::from(format_id(now_ms(), sequence).as_str())
}

/// The system clock in milliseconds since 1970 (0 before it): the `now_ms` a host with an
/// operating system passes to the calls that take one.
#[cfg(feature = "std")]
pub fn now_ms() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_hex_time_and_decimal_sequence() {
        assert_eq!(format_id(0x18bcfe56800, 1).as_str(), "elc-18bcfe56800-1");
        assert_eq!(format_id(0, 0).as_str(), "elc-0-0");
        let longest = format_id(u64::MAX, u64::MAX);
        assert_eq!(longest.len(), MAX_ID_LEN);
        assert_eq!(
            longest.as_str(),
            "elc-ffffffffffffffff-18446744073709551615"
        );
        for ms in [1, 0xf, 0x10, 0xabc, 0x1234_5678_9abc, 1 << 63] {
            assert_eq!(
                format_id(ms, 42).as_str(),
                alloc::format!("elc-{ms:x}-42"),
                "{ms}"
            );
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn unique_across_threads() {
        extern crate std;
        use alloc::vec::Vec;
        use std::collections::BTreeSet;

        let handles: Vec<_> = (0..8)
            .map(|_| std::thread::spawn(|| (0..1000).map(|_| next_id()).collect::<Vec<_>>()))
            .collect();
        let mut all = BTreeSet::new();
        for h in handles {
            for id in h.join().unwrap() {
                assert!(id.starts_with("elc-"));
                let mut parts = id.split('-').skip(1);
                let ms = parts.next().unwrap();
                assert!(
                    ms.chars()
                        .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
                );
                assert!(parts.next().unwrap().parse::<u64>().is_ok());
                assert!(all.insert(id));
            }
        }
        assert_eq!(all.len(), 8000);
    }
}
