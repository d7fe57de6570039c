//! A bounded JSON reader for untrusted input.
//!
//! serde_json's own reader has a fixed depth limit, keeps the last of duplicate keys, rewrites
//! the spelling of numbers and reports errors by line and column. Untrusted elicitation
//! traffic needs configurable [`Limits`], duplicate keys refused, numbers kept as written and
//! errors located by JSON pointer, so this module reads the text itself into a [`Value`].

use alloc::collections::BTreeMap;
use alloc::collections::btree_map::{Entry, VacantEntry};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind};
use crate::json::Limits;
use crate::json::pointer;
use crate::json::{Map, Number, Value};

/// Objects up to this size find a repeated key by scanning the keys read so far; larger ones
/// keep an index, so that an object of many members cannot make the check quadratic.
const SCAN_LIMIT: usize = 16;

/// Reads one JSON value from `input` within `limits`.
///
/// Refused, each with its own [`ErrorKind`]: input over the size limit, bytes that are not
/// UTF-8, JSON syntax errors, lone surrogate escapes, duplicate keys, and nesting or
/// collections beyond the limits. Nothing is allocated for an input over the size limit.
pub fn parse(input: &[u8], limits: &Limits) -> Result<Value, Error> {
    if input.len() > limits.max_input_bytes() {
        return Err(Error::new(
            ErrorKind::TooLarge,
            "",
            format!(
                "input is {} bytes, more than the limit of {} bytes",
                input.len(),
                limits.max_input_bytes()
            ),
        ));
    }
    let text = core::str::from_utf8(input).map_err(|e| {
        Error::new(
            ErrorKind::InvalidUtf8,
            "",
            format!(
                "input is not UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    parse_str(text, limits)
}

/// Reads one JSON value from `text` within `limits` (see [`parse`]).
pub fn parse_str(text: &str, limits: &Limits) -> Result<Value, Error> {
    if text.len() > limits.max_input_bytes() {
        return parse(text.as_bytes(), limits);
    }
    let mut reader = Reader {
        text,
        pos: 0,
        limits,
        members: Vec::new(),
        items: Vec::new(),
        root: Value::Null,
    };
    reader.skip_whitespace();
    reader.value(0, Dest::Root)?;
    reader.skip_whitespace();
    if reader.pos < text.len() {
        return Err(reader.syntax("trailing characters after the JSON value"));
    }
    Ok(reader.root)
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    limits: &'a Limits,
    /// The members of the objects being read, the innermost object's last. Each object moves
    /// its own into a vector of exactly their number when it closes: one allocation per object
    /// instead of one per doubling of a vector that grows member by member.
    members: Vec<(String, Value)>,
    /// The items of the arrays being read, likewise.
    items: Vec<Value>,
    /// The document's value, once read.
    root: Value,
}

/// Where a value read goes. Each value is put in its place by the call that reads it rather
/// than handed back up through every enclosing call: a value is four words, and moving it
/// out of one `Result` into the next at every level cost more than reading most of them.
#[derive(Clone, Copy)]
enum Dest {
    /// The document itself.
    Root,
    /// The next item of the array being read, on the item stack.
    Item,
    /// The value of the member at this place of the member stack, which holds `null` until
    /// its value is read.
    Member(usize),
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn syntax(&self, what: &str) -> Error {
        Error::new(
            ErrorKind::InvalidJson,
            "",
            format!("{what} at byte {}", self.pos),
        )
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Reads a value whose first byte is at `pos` into `dest`; `depth` containers are
    /// already open.
    fn value(&mut self, depth: usize, dest: Dest) -> Result<(), Error> {
        let value = match self.peek() {
            Some(b'{') => return self.object(depth + 1, dest),
            Some(b'[') => return self.array(depth + 1, dest),
            Some(b'"') => Value::String(self.string()?),
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.syntax("expected a JSON value")),
            None => return Err(self.syntax("unexpected end of input, expected a JSON value")),
        };
        self.put(dest, value);
        Ok(())
    }

    /// Puts `value` in its place.
    fn put(&mut self, dest: Dest, value: Value) {
        match dest {
            Dest::Root => self.root = value,
            Dest::Item => self.items.push(value),
            Dest::Member(at) => {
                if let Some((_, slot)) = self.members.get_mut(at) {
                    *slot = value;
                }
            }
        }
    }

    fn enter(&self, depth: usize) -> Result<(), Error> {
        self.limits.check_depth(depth)
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        let end = self.pos + word.len();
        if self.text.get(self.pos..end) == Some(word) {
            self.pos = end;
            Ok(value)
        } else {
            Err(self.syntax("expected a JSON value"))
        }
    }

    fn object(&mut self, depth: usize, dest: Dest) -> Result<(), Error> {
        self.enter(depth)?;
        self.pos += 1; // '{'
        let start = self.members.len();
        // Past `SCAN_LIMIT` members, the keys read so far, each with its member's place: the
        // keys move here (their members keep an empty string until the object closes), so
        // that a large object is checked without copying a key.
        let mut index: Option<BTreeMap<String, usize>> = None;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.put(dest, Value::Object(Map::new()));
            return Ok(());
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("expected a string key"));
            }
            let key = self.string()?;
            let count = self.members.len().saturating_sub(start);
            if index.is_none() && count >= SCAN_LIMIT {
                let moved = self.members.get_mut(start..).unwrap_or_default();
                index = Some(
                    moved
                        .iter_mut()
                        .enumerate()
                        .map(|(i, (k, _))| (core::mem::take(k), i))
                        .collect(),
                );
            }
            // Where the key goes once its member is read: its place in the index, found with
            // the one look-up that also finds a repeated key, or the member itself.
            let place = match &mut index {
                Some(keys) => match keys.entry(key) {
                    Entry::Occupied(seen) => return Err(repeated_key(seen.key())),
                    Entry::Vacant(place) => KeyPlace::Index(place),
                },
                None => {
                    let read = self.members.get(start..).unwrap_or_default();
                    if read.iter().any(|(k, _)| *k == key) {
                        return Err(repeated_key(&key));
                    }
                    KeyPlace::Member(key)
                }
            };
            self.limits.check_members(count.saturating_add(1))?;
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(self.syntax("expected ':' after an object key"));
            }
            self.pos += 1;
            self.skip_whitespace();
            // The member's place on the stack, its key there or (indexed) in the index.
            let at = self.members.len();
            match place {
                KeyPlace::Index(place) => {
                    place.insert(count);
                    self.members.push((String::new(), Value::Null));
                }
                KeyPlace::Member(key) => self.members.push((key, Value::Null)),
            }
            if let Err(e) = self.value(depth, Dest::Member(at)) {
                let key = match &index {
                    Some(keys) => keys.iter().find(|&(_, &i)| i == count).map(|(k, _)| k),
                    None => self.members.get(at).map(|(k, _)| k),
                };
                return Err(e.within(&pointer::key(key.map_or("", String::as_str))));
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    let mut members = self.members.split_off(start);
                    for (key, at) in index.into_iter().flatten() {
                        if let Some((slot, _)) = members.get_mut(at) {
                            *slot = key;
                        }
                    }
                    self.put(dest, Value::Object(Map::from_distinct(members)));
                    return Ok(());
                }
                _ => return Err(self.syntax("expected ',' or '}' in an object")),
            }
        }
    }

    fn array(&mut self, depth: usize, dest: Dest) -> Result<(), Error> {
        self.enter(depth)?;
        self.pos += 1; // '['
        let start = self.items.len();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.put(dest, Value::Array(Vec::new()));
            return Ok(());
        }
        loop {
            let index = self.items.len().saturating_sub(start);
            self.limits.check_items(index.saturating_add(1))?;
            self.skip_whitespace();
            self.value(depth, Dest::Item).map_err(|e| {
                let mut at = String::new();
                pointer::push_index(&mut at, index);
                e.within(&at)
            })?;
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    let items = self.items.split_off(start);
                    self.put(dest, Value::Array(items));
                    return Ok(());
                }
                _ => return Err(self.syntax("expected ',' or ']' in an array")),
            }
        }
    }

    /// Reads a string whose opening quote is at `pos`.
    fn string(&mut self) -> Result<String, Error> {
        self.pos += 1; // '"'
        let start = self.pos;
        // Most strings hold no escape: find where the plain text ends in one pass, and when
        // that is the closing quote, copy the text once into a string of its exact size.
        let rest = self.text.as_bytes().get(start..).unwrap_or_default();
        let plain = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .unwrap_or(rest.len());
        self.pos = start.saturating_add(plain);
        if self.peek() == Some(b'"') {
            let text = String::from(self.run(start)?);
            self.pos += 1;
            return Ok(text);
        }
        self.string_with_escapes(start)
    }

    /// Reads the rest of a string that started at `run_start`, from the first byte at `pos`
    /// that is not plain text (an escape, a control character or the end of the input).
    fn string_with_escapes(&mut self, mut run_start: usize) -> Result<String, Error> {
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(self.syntax("unterminated string")),
                Some(b'"') => {
                    out.push_str(self.run(run_start)?);
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(self.run(run_start)?);
                    self.escape(&mut out)?;
                    run_start = self.pos;
                }
                Some(0x00..=0x1f) => {
                    return Err(self.syntax("unescaped control character in a string"));
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// The unescaped text from `start` to `pos`; both sit next to ASCII bytes, so on char
    /// boundaries.
    fn run(&self, start: usize) -> Result<&str, Error> {
        self.text
            .get(start..self.pos)
            .ok_or_else(|| self.syntax("string is not on a character boundary"))
    }

    /// Reads the escape whose backslash is at `pos` and appends what it stands for.
    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        self.pos += 1; // '\\'
        let Some(letter) = self.peek() else {
            return Err(self.syntax("unterminated string"));
        };
        self.pos += 1;
        let c = match letter {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(out),
            _ => {
                self.pos -= 1;
                return Err(self.syntax("invalid escape in a string"));
            }
        };
        out.push(c);
        Ok(())
    }

    /// Reads the four hex digits after `\u` (and a second `\uXXXX` for a surrogate pair).
    fn unicode_escape(&mut self, out: &mut String) -> Result<(), Error> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                let at = self.pos;
                let low = if self.text.get(self.pos..self.pos + 2) == Some("\\u") {
                    self.pos += 2;
                    self.hex4()?
                } else {
                    0
                };
                if !(0xDC00..=0xDFFF).contains(&low) {
                    self.pos = at;
                    return Err(self.lone_surrogate(first));
                }
                0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.lone_surrogate(first)),
            other => u32::from(other),
        };
        match char::from_u32(code) {
            Some(c) => {
                out.push(c);
                Ok(())
            }
            None => Err(self.syntax("invalid unicode escape")),
        }
    }

    fn lone_surrogate(&self, unit: u16) -> Error {
        Error::new(
            ErrorKind::LoneSurrogate,
            "",
            format!(
                "the escape \\u{unit:04x} is half of a surrogate pair without the other half (byte {})",
                self.pos
            ),
        )
    }

    fn hex4(&mut self) -> Result<u16, Error> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.syntax("expected four hex digits after \\u"))?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.syntax("expected four hex digits after \\u"));
        }
        let unit =
            u16::from_str_radix(digits, 16).map_err(|_| self.syntax("invalid \\u escape"))?;
        self.pos += 4;
        Ok(unit)
    }

    /// Reads a number per RFC 8259 and keeps its spelling.
    fn number(&mut self) -> Result<Value, Error> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.syntax("expected a digit in a number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.syntax("expected a digit after the decimal point"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.syntax("expected a digit in the exponent"));
            }
            self.digits();
        }
        Ok(Value::Number(Number::from_checked(self.run(start)?)))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }
}

/// Where the key of the member being read goes once the member is read.
enum KeyPlace<'a> {
    /// Into the index of a large object, at this vacant place.
    Index(VacantEntry<'a, String, usize>),
    /// With its member.
    Member(String),
}

/// The error for `key` read a second time in one object, at the second one.
fn repeated_key(key: &str) -> Error {
    Error::new(
        ErrorKind::DuplicateKey,
        pointer::key(key),
        format!("the key {key:?} appears more than once in one object"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn round_trip(text: &str) -> String {
        match parse_str(text, &Limits::DEFAULT) {
            Ok(v) => v.to_json(),
            Err(e) => e.to_string(),
        }
    }

    fn kind(text: &str) -> (ErrorKind, String) {
        match parse_str(text, &Limits::DEFAULT) {
            Ok(v) => panic!("accepted {text:?} as {v}"),
            Err(e) => (e.kind(), e.pointer().into()),
        }
    }

    #[test]
    fn keeps_number_spelling_and_member_order() {
        assert_eq!(
            round_trip(
                r#"{ "z": 1.0, "a": [1e2, -0, 1E+2, 123456789012345678901234567890, 1e400] }"#
            ),
            r#"{"z":1.0,"a":[1e2,-0,1E+2,123456789012345678901234567890,1e400]}"#
        );
    }

    #[test]
    fn decodes_escapes_and_pairs() {
        assert_eq!(round_trip(r#""\ud83d\ude00 \u00e9\n\/""#), "\"😀 é\\n/\"");
    }

    #[test]
    fn refuses_with_pointers() {
        assert_eq!(
            kind(r#"{"a":{"b":1,"b":2}}"#),
            (ErrorKind::DuplicateKey, "/a/b".into())
        );
        assert_eq!(
            kind(r#"{"a":["\udc00"]}"#),
            (ErrorKind::LoneSurrogate, "/a/0".into())
        );
        assert_eq!(
            kind(r#"["\ud800x"]"#),
            (ErrorKind::LoneSurrogate, "/0".into())
        );
        assert_eq!(
            kind(r#"{"a/b":[1,]}"#),
            (ErrorKind::InvalidJson, "/a~1b/1".into())
        );
        assert_eq!(kind("01"), (ErrorKind::InvalidJson, "".into()));
        assert_eq!(kind("1 2"), (ErrorKind::InvalidJson, "".into()));
        assert_eq!(kind(""), (ErrorKind::InvalidJson, "".into()));
        assert_eq!(kind("\"a\u{1}\""), (ErrorKind::InvalidJson, "".into()));
    }

    #[test]
    fn bounds_depth_without_recursing_far() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        let (k, p) = kind(&deep);
        assert_eq!(k, ErrorKind::TooDeep);
        assert_eq!(p.matches('/').count(), 64);
        let ok = "[".repeat(64) + &"]".repeat(64);
        assert!(parse_str(&ok, &Limits::DEFAULT).is_ok());
    }

    #[test]
    fn finds_repeated_keys_by_scanning_and_by_index() {
        for members in [2, SCAN_LIMIT, SCAN_LIMIT + 1, 40] {
            let keys: Vec<String> = (0..members).map(|i| format!("\"k{i}\":{i}")).collect();
            let object = format!("{{{}}}", keys.join(","));
            assert_eq!(round_trip(&object), object);
            for repeat in [0, members - 1] {
                let text = format!("{{{},\"k{repeat}\":0}}", keys.join(","));
                assert_eq!(
                    kind(&text),
                    (ErrorKind::DuplicateKey, format!("/k{repeat}"))
                );
            }
        }
        // Large objects within large objects each keep their own keys.
        let inner: Vec<String> = (0..20).map(|i| format!("\"i{i}\":[{i}]")).collect();
        let inner = format!("{{{}}}", inner.join(","));
        let outer: Vec<String> = (0..20).map(|i| format!("\"o{i}\":{inner}")).collect();
        let outer = format!("{{{}}}", outer.join(","));
        assert_eq!(round_trip(&outer), outer);
        let repeated = outer.replacen("\"i19\"", "\"i3\"", 5);
        assert_eq!(kind(&repeated), (ErrorKind::DuplicateKey, "/o0/i3".into()));
        // An error inside a member points at it, whether its key was scanned or indexed.
        for at in [3, 18] {
            let broken = outer.replacen(
                &format!("\"i{at}\":[{at}]"),
                &format!("\"i{at}\":[{at},]"),
                1,
            );
            assert_eq!(
                kind(&broken),
                (ErrorKind::InvalidJson, format!("/o0/i{at}/1"))
            );
        }
    }

    #[test]
    fn nested_containers_keep_their_own_members() {
        let text = r#"{"a":{"b":[1,{"c":[],"d":{}}],"e":2},"f":[[3],[]],"g":{}}"#;
        assert_eq!(round_trip(text), text);
    }

    #[test]
    fn refuses_invalid_utf8_and_oversize() {
        let e = parse(b"\"\xff\"", &Limits::DEFAULT).err();
        assert_eq!(e.map(|e| e.kind()), Some(ErrorKind::InvalidUtf8));
        let small = Limits::DEFAULT.with_max_input_bytes(3);
        let e = parse(b"[1,2]", &small).err();
        assert_eq!(e.map(|e| e.kind()), Some(ErrorKind::TooLarge));
    }
}
