//! Compact JSON output: values written directly, other types by serde_json.
//!
//! Both write the same text: no whitespace, members in order, numbers as spelt, and strings
//! escaped as serde_json escapes them (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, any other
//! control character as `\u00xx`; everything else as it is, in UTF-8). The length of a string
//! so written is what [`string_len`] counts.

use alloc::string::String;

use serde::Serialize;

use super::{Map, Value};

/// `value` as compact JSON, through serde.
///
/// The types given here serialize only strings, booleans, JSON values and string-keyed maps,
/// for which serde_json's writer into a `String` cannot fail; should that ever change, the
/// output is the empty string, which no conformance case accepts.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Room for the output of a small object; larger ones grow the string by doubling, which
/// costs less than walking the value once more to measure it first.
const START_CAPACITY: usize = 512;

/// `value` as compact JSON.
pub(crate) fn value_to_json(value: &Value) -> String {
    let mut out = String::with_capacity(START_CAPACITY);
    write_value(&mut out, value);
    out
}

/// `map` as a compact JSON object.
pub(crate) fn map_to_json(map: &Map) -> String {
    let mut out = String::with_capacity(START_CAPACITY);
    write_map(&mut out, map);
    out
}

/// Appends `value` as compact JSON.
pub(crate) fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => out.push_str(n.as_str()),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => write_map(out, map),
    }
}

/// Appends `map` as a compact JSON object.
pub(crate) fn write_map(out: &mut String, map: &Map) {
    out.push('{');
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(out, key);
        out.push(':');
        write_value(out, value);
    }
    out.push('}');
}

/// Appends `text` as a JSON string.
pub(crate) fn write_str(out: &mut String, text: &str) {
    // Most strings need no escape: one pass without a branch per byte, which the compiler
    // vectorises, tells, and the text goes out whole.
    if !has_special(text) {
        out.reserve(text.len().saturating_add(2));
        out.push('"');
        out.push_str(text);
        out.push('"');
        return;
    }
    out.push('"');
    let mut plain_from = 0;
    for (at, &b) in text.as_bytes().iter().enumerate() {
        let escape = ESCAPES.get(usize::from(b)).copied().unwrap_or(0);
        if escape == 0 {
            continue;
        }
        // Every byte escaped is ASCII, so the text around it splits on char boundaries.
        out.push_str(text.get(plain_from..at).unwrap_or_default());
        if escape == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(
                HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0'),
            ));
            out.push(char::from(
                HEX.get(usize::from(b & 0xF)).copied().unwrap_or(b'0'),
            ));
        } else {
            out.push('\\');
            out.push(char::from(escape));
        }
        plain_from = at + 1;
    }
    out.push_str(text.get(plain_from..).unwrap_or_default());
    out.push('"');
}

/// Whether `b` is written escaped (a quote, a backslash or a control character): exactly the
/// bytes [`ESCAPES`] has a letter for, and where the reader's plain string text ends.
#[inline]
pub(crate) fn is_special(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// How many bytes at the start of `bytes` are plain string text: up to the first quote,
/// backslash or control character, or all of them.
///
/// Eight bytes are looked at at once, as one word: a byte is flagged where subtracting it
/// from the sought value borrows (the classic test for a zero byte, applied to `b ^ '"'`,
/// `b ^ '\\'` and `b - 0x20`). A borrow can flag bytes above a true one but never below it,
/// so the lowest flag is exact.
pub(crate) fn plain_len(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(word);
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let flags = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(ONES * 0x20) & !word);
        let flags = flags & HIGHS;
        if flags != 0 {
            return at + (flags.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let rest = chunks.remainder();
    at + rest
        .iter()
        .position(|&b| is_special(b))
        .unwrap_or(rest.len())
}

/// Whether any byte of `text` is written escaped: [`plain_len`] stops short of its end.
#[inline]
fn has_special(text: &str) -> bool {
    plain_len(text.as_bytes()) < text.len()
}

/// For each byte, the letter of its escape after the backslash (`u` for `\u00xx`), or 0 for a
/// byte written as it is.
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated while compiling, where an index out of bounds fails the build"
)]
const ESCAPES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b'u';
        b += 1;
    }
    table[0x08] = b'b';
    table[0x0C] = b'f';
    table[b'\n' as usize] = b'n';
    table[b'\r' as usize] = b'r';
    table[b'\t' as usize] = b't';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// The length of `text` written as a JSON string, quotes included: what the writer
/// appends, counted from the same table of escapes.
pub fn string_len(text: &str) -> usize {
    if !has_special(text) {
        return text.len().saturating_add(2);
    }
    let escapes: usize = text
        .bytes()
        .map(
            |b| match ESCAPES.get(usize::from(b)).copied().unwrap_or(0) {
                0 => 0,
                b'u' => 5,
                _ => 1,
            },
        )
        .sum();
    text.len().saturating_add(escapes).saturating_add(2)
}

/// Writes a JSON object member by member, for types whose members are fixed: what serde's
/// derive writes, without going through serde.
pub(crate) struct ObjectWriter {
    out: String,
    first: bool,
}

impl ObjectWriter {
    /// An object about to be written.
    pub(crate) fn new() -> ObjectWriter {
        let mut out = String::with_capacity(START_CAPACITY);
        out.push('{');
        ObjectWriter { out, first: true }
    }

    fn key(&mut self, key: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        write_str(&mut self.out, key);
        self.out.push(':');
    }

    /// The member `key` holding the string `value`.
    pub(crate) fn str(&mut self, key: &str, value: &str) {
        self.key(key);
        write_str(&mut self.out, value);
    }

    /// The member `key` holding the string `value`, unless there is none.
    pub(crate) fn opt_str(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.str(key, value);
        }
    }

    /// The member `key` holding the object `value`, unless there is none.
    pub(crate) fn opt_map(&mut self, key: &str, value: Option<&Map>) {
        if let Some(value) = value {
            self.key(key);
            write_map(&mut self.out, value);
        }
    }

    /// The object written.
    pub(crate) fn finish(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Limits, parse_str};

    #[test]
    fn writes_what_serde_json_writes() {
        let text = "{\"a\":[1,-0.5e+3,true,false,null,\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\/é😀\\u007f\"],\"b\":{},\"c\":[],\"\":{\"x\":[[]]}}";
        let value = parse_str(text, &Limits::DEFAULT).unwrap();
        let ours = value_to_json(&value);
        assert_eq!(ours, to_json(&value));
        for c in (0u8..0x80).map(char::from) {
            let text = alloc::format!("a{c}b");
            let value = Value::from(text.as_str());
            assert_eq!(value_to_json(&value), to_json(&value), "{c:?}");
            assert_eq!(value_to_json(&value).len(), string_len(&text), "{c:?}");
        }
    }

    #[test]
    fn is_special_is_the_escape_table() {
        for b in 0..=u8::MAX {
            assert_eq!(is_special(b), ESCAPES[usize::from(b)] != 0, "{b:#x}");
        }
    }
}
