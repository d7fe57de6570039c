//! The event-stream reader of `toolnexus call --url` within its bounds: any bytes, handed over
//! in pieces of any size, read with a small cap. Never a panic; no event longer than the cap
//! is ever produced; a `retry` delay is always within its clamp; the events produced are those
//! an unbounded reading of the standard gives, in order (all of them when the reading ends
//! well, the first ones when the cap stopped it); the cap stops it only when something in the
//! stream is longer than the cap; and a line longer than the cap (and room for its field name)
//! always stops it, the stream read on past the cap by at most one piece.
//!
//! The input: two bytes for the cap (1 to 4096), one for the size of the pieces the stream
//! comes in (1 to 256 bytes), then the stream.
#![no_main]

use std::io::{BufRead, Read};

use libfuzzer_sys::fuzz_target;
use toolnexus_cli::call::sse::{Cursor, MAX_RETRY, MIN_RETRY, TooLarge, read_events};

/// The room a line has past the cap for its field name (the reader's `FIELD_ROOM`).
const FIELD_ROOM: usize = 64;

/// Hands `bytes` over `piece` bytes at a time, counting what was taken.
struct Pieces<'a> {
    bytes: &'a [u8],
    piece: usize,
    taken: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = self.bytes.get(self.taken..).unwrap_or_default();
        let n = rest.len().min(self.piece).min(buf.len());
        buf.get_mut(..n)
            .unwrap_or_default()
            .copy_from_slice(rest.get(..n).unwrap_or_default());
        self.taken += n;
        Ok(n)
    }
}

/// The events of `stream` read as the standard reads them, with no bound, as the reader did
/// before it had one: each dispatched event's data, and the longest data an event (dispatched
/// or not) ever held.
fn unbounded(stream: &[u8]) -> (Vec<Vec<u8>>, usize) {
    let mut longest = 0;
    let mut lines = std::io::BufReader::new(stream);
    let (mut events, mut data, mut has_data) = (Vec::new(), Vec::new(), false);
    let mut line = Vec::new();
    loop {
        line.clear();
        match lines.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        if line.is_empty() {
            if has_data && !data.is_empty() {
                events.push(std::mem::take(&mut data));
            }
            data.clear();
            has_data = false;
            continue;
        }
        if line.first() == Some(&b':') {
            continue;
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(at) => {
                let (field, rest) = line.split_at(at);
                let value = rest.get(1..).unwrap_or_default();
                (field, value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line.as_slice(), &b""[..]),
        };
        if field == b"data" {
            if has_data {
                data.push(b'\n');
            }
            data.extend_from_slice(value);
            has_data = true;
            longest = longest.max(data.len());
        }
    }
    (events, longest)
}

fuzz_target!(|input: &[u8]| {
    let [a, b, piece, stream @ ..] = input else {
        return;
    };
    let cap = usize::from(u16::from_le_bytes([*a, *b]) % 4096) + 1;
    let piece = usize::from(*piece) + 1;
    let mut reader = Pieces {
        bytes: stream,
        piece,
        taken: 0,
    };
    let mut cursor = Cursor::default();
    let mut got: Vec<Vec<u8>> = Vec::new();
    let read = read_events(&mut reader, &mut cursor, cap, |data| {
        assert!(
            data.len() <= cap,
            "an event of {} bytes under a cap of {cap}",
            data.len()
        );
        got.push(data);
        true
    });
    if let Some(retry) = cursor.retry {
        assert!((MIN_RETRY..=MAX_RETRY).contains(&retry), "{retry:?}");
    }
    let (all, longest_data) = unbounded(stream);
    // Each line with where it starts.
    let lines: Vec<(usize, usize)> = stream
        .split(|b| *b == b'\n')
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len() + 1;
            Some((start, line.len()))
        })
        .collect();
    let longest_line = lines.iter().map(|(_, n)| *n).max().unwrap_or(0);
    // A line too long for any event: the reading stops there, one piece past the cap at most.
    if let Some((start, _)) = lines.iter().find(|(_, n)| *n > cap + FIELD_ROOM + 1) {
        assert!(read.is_err(), "a line past the cap was read");
        assert!(
            reader.taken <= start + cap + FIELD_ROOM + 1 + piece,
            "read {} bytes, the long line starting at {start}",
            reader.taken
        );
    }
    match read {
        Ok(()) => {
            assert_eq!(got, all, "a stream read to its end gives every event");
            assert_eq!(reader.taken, stream.len());
        }
        Err(TooLarge { limit }) => {
            assert_eq!(limit, cap);
            assert!(
                all.starts_with(&got),
                "the events before the cap broke are the stream's first"
            );
            assert!(
                longest_data > cap || longest_line > cap,
                "stopped by the cap, yet nothing in the stream is longer than it"
            );
        }
    }
});
