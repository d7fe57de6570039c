//! A server-sent event stream read as the HTML standard reads one: `data` lines joined by
//! newlines make an event's data, `id` sets the stream's last event id (kept for a
//! `Last-Event-ID` reconnection), `retry` the reconnection delay; comments and other fields are
//! skipped. An event whose data is empty (a "priming" event carrying only an id and a delay)
//! updates the stream and dispatches nothing.

use std::io::{BufRead, BufReader, Read};
use std::time::Duration;

/// What a stream said about itself so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The last event id, for `Last-Event-ID`.
    pub last_id: Option<String>,
    /// The reconnection delay the server asked for.
    pub retry: Option<Duration>,
    /// How many fields of any kind were read: a stream that gave none is a failed attempt.
    pub fields: usize,
}

/// Reads `reader` to its end, calling `on_data` with each event's data; stops early when
/// `on_data` returns `false`. `cursor` is updated as the stream goes.
pub fn read_events(
    reader: impl Read,
    cursor: &mut Cursor,
    mut on_data: impl FnMut(Vec<u8>) -> bool,
) {
    let mut lines = BufReader::new(reader);
    let mut data: Vec<u8> = Vec::new();
    let mut has_data = false;
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
            if has_data && !data.is_empty() && !on_data(std::mem::take(&mut data)) {
                return;
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
                    .and_then(|v| v.parse::<u64>().ok())
                {
                    cursor.retry = Some(Duration::from_millis(ms));
                }
            }
            _ => {}
        }
    }
    // A stream cut in the middle of an event dispatches nothing of it, as the standard says.
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(stream: &[u8]) -> (Vec<String>, Cursor) {
        let mut cursor = Cursor::default();
        let mut got = Vec::new();
        read_events(stream, &mut cursor, |data| {
            got.push(String::from_utf8(data).unwrap());
            true
        });
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
        read_events(&b"data: 1\n\ndata: 2\n\n"[..], &mut cursor, |_| {
            n += 1;
            false
        });
        assert_eq!(n, 1);
    }
}
