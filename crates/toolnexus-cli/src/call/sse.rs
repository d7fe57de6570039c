//! A server-sent event stream read as the HTML standard reads one: `data` lines joined by
//! newlines make an event's data, `id` sets the stream's last event id (kept for a
//! `Last-Event-ID` reconnection), `retry` the reconnection delay; comments and other fields are
//! skipped. An event whose data is empty (a "priming" event carrying only an id and a delay)
//! updates the stream and dispatches nothing.

//!
//! The server moves nothing it should not: a line or an event's data longer than the cap the
//! caller gives (the core's [`Limits::max_input_bytes`](toolnexus_core::Limits)) ends the
//! reading with [`TooLarge`], having held at most the cap and one chunk of the stream; a
//! `retry` delay is clamped between [`MIN_RETRY`] and [`MAX_RETRY`].

use std::io::{BufRead, BufReader, Read};
use std::time::Duration;

/// The shortest reconnection delay, whatever the server asks: `retry: 0` is no busy loop.
pub const MIN_RETRY: Duration = Duration::from_millis(100);

/// The longest reconnection delay, whatever the server asks.
pub const MAX_RETRY: Duration = Duration::from_secs(60);

/// How much more than the cap one line may hold: its field name, the colon and a space.
const FIELD_ROOM: usize = 64;

/// How much of the stream is read at once.
const CHUNK: usize = 64 * 1024;

/// What a stream said about itself so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The last event id, for `Last-Event-ID`.
    pub last_id: Option<String>,
    /// The reconnection delay the server asked for, clamped to [`MIN_RETRY`]..=[`MAX_RETRY`].
    pub retry: Option<Duration>,
    /// How many fields of any kind were read: a stream that gave none is a failed attempt.
    pub fields: usize,
}

/// A line or an event's data was longer than the cap: the stream was left unread from there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    /// The cap, in bytes.
    pub limit: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server's event stream sent an event larger than {} bytes; the stream was dropped",
            self.limit
        )
    }
}

/// Reads `reader` to its end, calling `on_data` with each event's data (never longer than
/// `max_bytes`); stops early when `on_data` returns `false`. `cursor` is updated as the
/// stream goes. A line longer than `max_bytes` (and room for its field name), or an event
/// whose data grows past `max_bytes`, stops the reading with [`TooLarge`].
pub fn read_events(
    reader: impl Read,
    cursor: &mut Cursor,
    max_bytes: usize,
    mut on_data: impl FnMut(Vec<u8>) -> bool,
) -> Result<(), TooLarge> {
    let too_large = TooLarge { limit: max_bytes };
    let max_line = max_bytes.saturating_add(FIELD_ROOM);
    let mut lines = BufReader::with_capacity(CHUNK, reader);
    let mut data: Vec<u8> = Vec::new();
    let mut has_data = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        if !read_line(&mut lines, &mut line, max_line)? {
            break;
        }
        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        if line.is_empty() {
            if has_data && !data.is_empty() && !on_data(std::mem::take(&mut data)) {
                return Ok(());
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
        cursor.fields += 1;
        match field {
            b"data" => {
                let joined = data.len() + usize::from(has_data) + value.len();
                if joined > max_bytes {
                    return Err(too_large);
                }
                if has_data {
                    data.push(b'\n');
                }
                data.extend_from_slice(value);
                has_data = true;
            }
            b"id" if !value.contains(&0) => {
                cursor.last_id = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"retry" => {
                if let Some(ms) = std::str::from_utf8(value)
                    .ok()
                    .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                    .map(|v| v.parse::<u64>().unwrap_or(u64::MAX))
                {
                    cursor.retry = Some(Duration::from_millis(ms).clamp(MIN_RETRY, MAX_RETRY));
                }
            }
            _ => {}
        }
    }
    // A stream cut in the middle of an event dispatches nothing of it, as the standard says.
    Ok(())
}

/// Reads one line, its `\n` included, into `line`, a chunk at a time: `false` at the end of
/// the stream (or a read error) with nothing read; [`TooLarge`] once it passes `max_line`.
fn read_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max_line: usize,
) -> Result<bool, TooLarge> {
    loop {
        let (used, done) = match reader.fill_buf() {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            // A stream that breaks dispatches nothing of the line it was in.
            Err(_) => return Ok(false),
            Ok([]) => return Ok(!line.is_empty()),
            Ok(chunk) => {
                let (used, done) = match chunk.iter().position(|b| *b == b'\n') {
                    Some(at) => (at + 1, true),
                    None => (chunk.len(), false),
                };
                if line.len() + used > max_line.saturating_add(1) {
                    return Err(TooLarge {
                        limit: max_line.saturating_sub(FIELD_ROOM),
                    });
                }
                line.extend_from_slice(chunk.get(..used).unwrap_or_default());
                (used, done)
            }
        };
        reader.consume(used);
        if done {
            return Ok(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(stream: &[u8]) -> (Vec<String>, Cursor) {
        let mut cursor = Cursor::default();
        let mut got = Vec::new();
        read_events(stream, &mut cursor, 1024, |data| {
            got.push(String::from_utf8(data).unwrap());
            true
        })
        .unwrap();
        (got, cursor)
    }

    #[test]
    fn events_are_split_into_messages() {
        let (got, cursor) = events(
            b": comment\nevent: message\ndata: {\"a\":1}\n\ndata: {\"b\":\ndata: 2}\nid: 7\n\n",
        );
        assert_eq!(got, ["{\"a\":1}", "{\"b\":\n2}"]);
        assert_eq!(cursor.last_id.as_deref(), Some("7"));
    }

    #[test]
    fn a_priming_event_sets_the_id_and_the_delay_only() {
        let (got, cursor) = events(b"id: event-1\nretry: 500\ndata: \n\n");
        assert!(got.is_empty());
        assert_eq!(cursor.retry, Some(Duration::from_millis(500)));
        let (got, cursor) = events(b"id: e-2\r\nretry: 5x\r\n\r\n");
        assert!(got.is_empty());
        assert_eq!(cursor.last_id.as_deref(), Some("e-2"));
        assert_eq!(cursor.retry, None);
    }

    #[test]
    fn an_event_cut_off_is_not_dispatched() {
        let (got, cursor) = events(b"data: {\"a\":1}\n\ndata: {\"partial\"");
        assert_eq!(got, ["{\"a\":1}"]);
        assert_eq!(cursor.fields, 2);
    }

    #[test]
    fn reading_stops_when_asked() {
        let mut cursor = Cursor::default();
        let mut n = 0;
        let read = read_events(&b"data: 1\n\ndata: 2\n\n"[..], &mut cursor, 1024, |_| {
            n += 1;
            false
        });
        assert_eq!(read, Ok(()));
        assert_eq!(n, 1);
    }

    #[test]
    fn retry_is_clamped() {
        let (_, cursor) = events(b"retry: 0\n\n");
        assert_eq!(cursor.retry, Some(MIN_RETRY));
        let (_, cursor) = events(b"retry: 99999999999999999999999\n\n");
        assert_eq!(cursor.retry, Some(MAX_RETRY));
        let (_, cursor) = events(b"retry: 2500\n\n");
        assert_eq!(cursor.retry, Some(Duration::from_millis(2500)));
    }

    /// A reader that says how much was taken from it, so that a test sees the stream was left.
    struct Counted<R> {
        inner: R,
        taken: usize,
    }

    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.taken += n;
            Ok(n)
        }
    }

    #[test]
    fn a_line_past_the_cap_drops_the_stream_early() {
        // An endless data line: the reading stops within one chunk past the cap.
        let endless = b"data: ".iter().copied().chain(std::iter::repeat(b'x'));
        let mut stream = Counted {
            inner: std::io::Cursor::new(endless.take(10 * 1024 * 1024).collect::<Vec<u8>>()),
            taken: 0,
        };
        let mut cursor = Cursor::default();
        let mut got = 0;
        let read = read_events(&mut stream, &mut cursor, 4096, |_| {
            got += 1;
            true
        });
        assert_eq!(read, Err(TooLarge { limit: 4096 }));
        assert_eq!(got, 0);
        assert!(
            stream.taken <= 4096 + FIELD_ROOM + CHUNK,
            "{}",
            stream.taken
        );
        assert!(
            read.unwrap_err()
                .to_string()
                .contains("larger than 4096 bytes")
        );
    }

    #[test]
    fn data_joined_past_the_cap_drops_the_stream() {
        let mut stream = Vec::new();
        for _ in 0..10 {
            stream.extend_from_slice(b"data: ");
            stream.extend_from_slice(&[b'y'; 100]);
            stream.push(b'\n');
        }
        stream.push(b'\n');
        let mut cursor = Cursor::default();
        let mut sizes = Vec::new();
        let read = read_events(&stream[..], &mut cursor, 500, |data| {
            sizes.push(data.len());
            true
        });
        assert_eq!(read, Err(TooLarge { limit: 500 }));
        assert!(sizes.is_empty());
        // Exactly at the cap passes: five lines of 99 and their four newlines make 499.
        let mut stream = Vec::new();
        for _ in 0..5 {
            stream.extend_from_slice(b"data: ");
            stream.extend_from_slice(&[b'y'; 99]);
            stream.push(b'\n');
        }
        stream.extend_from_slice(b"data: z\n\n");
        let read = read_events(&stream[..], &mut Cursor::default(), 501, |data| {
            sizes.push(data.len());
            true
        });
        assert_eq!((read, sizes), (Ok(()), vec![501]));
    }
}
