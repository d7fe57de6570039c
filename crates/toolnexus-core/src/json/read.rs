//! A bounded JSON reader for untrusted input.
//!
//! serde_json's own reader has a fixed depth limit, keeps the last of duplicate keys, rewrites
//! the spelling of numbers and reports errors by line and column. Untrusted elicitation
//! traffic needs configurable [`Limits`], duplicate keys refused, numbers kept as written and
//! errors located by JSON pointer, so this module reads the text itself into a [`Value`].

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind};
use crate::json::Limits;
use crate::json::pointer;
use crate::json::value::{SCAN_LIMIT, first_repeated};
use crate::json::write::plain_len;
use crate::json::{Map, Number, Text, Value};

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
    members: Vec<(Text, Value)>,
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

impl<'a> Reader<'a> {
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
            Some(b'"') => Value::String(Text::from(self.string()?)),
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
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.put(dest, Value::Object(Map::new()));
            return Ok(());
        }
        let mut count = 0;
        let read = self.members_of_object(depth, start, &mut count);
        // Past `SCAN_LIMIT` members, repeated keys are looked for once, all keys sorted, when
        // the object closes or fails. A key repeated before whatever failed later comes first
        // in the text, so it is the error, as when each key is checked as it is read.
        let repeated = || {
            let ours = self.members.get(start..start.saturating_add(count));
            ours.filter(|ours| ours.len() > SCAN_LIMIT)
                .and_then(first_repeated)
                .map(repeated_key)
        };
        if let Err(e) = read {
            return Err(repeated().unwrap_or(e));
        }
        if let Some(e) = repeated() {
            return Err(e);
        }
        let members = self.members.split_off(start);
        self.put(dest, Value::Object(Map::from_distinct(members)));
        Ok(())
    }

    /// Reads the members of the object whose first member starts at or after `pos`, onto the
    /// member stack from `start`, counting them in `count`, up to its closing brace.
    fn members_of_object(
        &mut self,
        depth: usize,
        start: usize,
        count: &mut usize,
    ) -> Result<(), Error> {
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("expected a string key"));
            }
            let key = self.string()?;
            if *count < SCAN_LIMIT {
                let read = self.members.get(start..).unwrap_or_default();
                if read.iter().any(|(k, _)| k.as_str() == key.as_ref()) {
                    return Err(repeated_key(&key));
                }
            }
            // The member's place on the stack, holding `null` until its value is read. It is
            // pushed before anything else can fail, so that a failure sees its key.
            let at = self.members.len();
            self.members.push((Text::from(key), Value::Null));
            *count += 1;
            self.limits.check_members(*count)?;
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(self.syntax("expected ':' after an object key"));
            }
            self.pos += 1;
            self.skip_whitespace();
            if let Err(e) = self.value(depth, Dest::Member(at)) {
                let key = self.members.get(at).map_or("", |(k, _)| k.as_str());
                return Err(e.within(&pointer::key(key)));
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
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

    /// Reads a string whose opening quote is at `pos`: its text in the input when it holds no
    /// escape, else the text it stands for.
    ///
    /// The text is made into a [`Text`] where it is kept, not here: a `Text` handed back through
    /// a `Result` is written and read again in pieces of other sizes, which stalls the
    /// processor on every string.
    fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        self.pos += 1; // '"'
        let start = self.pos;
        // Most strings hold no escape: find where the plain text ends in one pass, and when
        // that is the closing quote, take the text as it is.
        let rest = self.text.as_bytes().get(start..).unwrap_or_default();
        self.pos = start.saturating_add(plain_len(rest));
        if self.peek() == Some(b'"') {
            let text = self.run(start)?;
            self.pos += 1;
            return Ok(Cow::Borrowed(text));
        }
        self.string_with_escapes(start).map(Cow::Owned)
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
    fn run(&self, start: usize) -> Result<&'a str, Error> {
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
    fn plain_len_agrees_with_a_byte_by_byte_scan() {
        use crate::json::write::is_special;
        for len in 0..=17 {
            for at in 0..len {
                for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                    // Every other byte is plain, and some of them sit next to the sought
                    // values or have the high bit set.
                    let mut bytes: Vec<u8> = (0..len)
                        .map(|i| [b'a', 0x21, 0x5d, 0xc3, 0x80, b'!', 0x23][i % 7])
                        .collect();
                    bytes[at] = special;
                    let slow = bytes.iter().position(|&b| is_special(b)).unwrap_or(len);
                    assert_eq!(plain_len(&bytes), slow, "{bytes:?}");
                    assert_eq!(slow, at);
                }
            }
            let plain: Vec<u8> = (0..len)
                .map(|i| (0x20 + i * 13 % 0xdf) as u8)
                .filter(|&b| !is_special(b))
                .collect();
            assert_eq!(plain_len(&plain), plain.len(), "{plain:?}");
        }
    }

    #[test]
    fn a_repeated_key_comes_before_a_later_fault() {
        let keys: Vec<String> = (0..30).map(|i| format!("\"k{i}\":{i}")).collect();
        let head = keys.join(",");
        // A repeat past the scanned keys, then a syntax error, a too-deep value, too many
        // members or a broken nested object: the repeat is reported, as it comes first.
        for later in [
            ",\"x\":[1,]}",
            ",\"x\":1 2}",
            &format!(",\"x\":{}{}}}", "[".repeat(70), "]".repeat(70)),
            ",\"x\":{\"a\":1,\"a\":2}}",
        ] {
            let text = format!("{{{head},\"k20\":0{later}");
            assert_eq!(
                kind(&text),
                (ErrorKind::DuplicateKey, "/k20".into()),
                "{text}"
            );
        }
        let small = Limits::DEFAULT.with_max_object_members(31);
        let text = format!("{{{head},\"k4\":0,\"extra\":1}}");
        let e = parse_str(&text, &small).unwrap_err();
        assert_eq!((e.kind(), e.pointer()), (ErrorKind::DuplicateKey, "/k4"));
        // The member over the limit is refused for its repeated key first, as it is read first.
        let text = format!("{{{head},\"k30\":0,\"k4\":1}}");
        let e = parse_str(&text, &small).unwrap_err();
        assert_eq!((e.kind(), e.pointer()), (ErrorKind::DuplicateKey, "/k4"));
        let text = format!("{{{head},\"k30\":0,\"k31\":1}}");
        let e = parse_str(&text, &small).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TooManyMembers);
        // The first repeat in reading order, not the first key repeated.
        let text = format!("{{{head},\"k25\":0,\"k2\":1}}");
        assert_eq!(kind(&text), (ErrorKind::DuplicateKey, "/k25".into()));
        // A repeat inside a nested large object is reported below the outer member.
        let inner = format!("{{{head},\"k7\":0}}");
        let text = format!("{{{head},\"in\":{inner}}}");
        assert_eq!(kind(&text), (ErrorKind::DuplicateKey, "/in/k7".into()));
        // An outer repeat before the nested fault wins over it.
        let text = format!("{{{head},\"k9\":0,\"in\":{inner}}}");
        assert_eq!(kind(&text), (ErrorKind::DuplicateKey, "/k9".into()));
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
