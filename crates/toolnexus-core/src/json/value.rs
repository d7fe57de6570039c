//! JSON values that keep what they were given: member order and the exact spelling of numbers.
//!
//! serde_json's `Value` rewrites exponents (`1e2` becomes `1e+2`, even with
//! `arbitrary_precision`), and free-form data must leave toolnexus spelt as it came in. These
//! types keep a number as its text and an object as its members in order; serde_json still
//! writes them out, so strings are escaped exactly as serde_json escapes them.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::Text;

/// Any JSON value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, spelt as it was given.
    Number(Number),
    /// A string.
    String(Text),
    /// An array.
    Array(Vec<Value>),
    /// An object, its members in order.
    Object(Map),
}

impl Value {
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The number as an `f64` (see [`Number::as_f64`]).
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    /// The number as an `i64` (see [`Number::as_i64`]).
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as a `u64` (see [`Number::as_u64`]).
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// How a message names this value's JSON type: `null`, `a boolean`, `a number`,
    /// `a string`, `an array` or `an object`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether this is a boolean.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// The member `key`, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }

    /// The value as compact JSON.
    pub fn to_json(&self) -> String {
        crate::json::write::value_to_json(self)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(Text::from(s))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(Text::from(s))
    }
}

impl From<Text> for Value {
    fn from(s: Text) -> Value {
        Value::String(s)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Number(n.into())
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Number(n.into())
    }
}

impl From<Map> for Value {
    fn from(map: Map) -> Value {
        Value::Object(map)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Value {
        Value::Array(items)
    }
}

/// A JSON number, kept as the text it was written with (`1e2`, `-0`, `1.50`,
/// `123456789012345678901234567890`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Number(Text);

impl Number {
    /// The number spelt `text`, if `text` is a JSON number (RFC 8259: `-? int frac? exp?`).
    pub fn from_spelling(text: &str) -> Option<Number> {
        is_json_number(text).then(|| Number(Text::from(text)))
    }

    /// A number the reader has already checked.
    pub(crate) fn from_checked(text: &str) -> Number {
        Number(Text::from(text))
    }

    /// The number's spelling.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The nearest `f64`, or `None` if the number is beyond `f64`'s range.
    pub fn as_f64(&self) -> Option<f64> {
        self.0.parse::<f64>().ok().filter(|f| f.is_finite())
    }

    /// The number as an `i64`, if it is spelt as an integer (no fraction, no exponent) in range.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The number as a `u64`, if it is spelt as a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<i64> for Number {
    fn from(n: i64) -> Number {
        Number(Text::from(itoa::Buffer::new().format(n)))
    }
}

impl From<u64> for Number {
    fn from(n: u64) -> Number {
        Number(Text::from(itoa::Buffer::new().format(n)))
    }
}

/// Whether `text` is a number in RFC 8259's grammar.
fn is_json_number(text: &str) -> bool {
    let mut bytes = text.bytes().peekable();
    if bytes.peek() == Some(&b'-') {
        bytes.next();
    }
    match bytes.next() {
        Some(b'0') => {}
        Some(b'1'..=b'9') => while bytes.next_if(u8::is_ascii_digit).is_some() {},
        _ => return false,
    }
    if bytes.next_if_eq(&b'.').is_some() {
        if bytes.next_if(u8::is_ascii_digit).is_none() {
            return false;
        }
        while bytes.next_if(u8::is_ascii_digit).is_some() {}
    }
    if bytes.next_if(|b| matches!(b, b'e' | b'E')).is_some() {
        bytes.next_if(|b| matches!(b, b'+' | b'-'));
        if bytes.next_if(u8::is_ascii_digit).is_none() {
            return false;
        }
        while bytes.next_if(u8::is_ascii_digit).is_some() {}
    }
    bytes.next().is_none()
}

/// A JSON object: its members in the order they were given, each key once.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Map {
    members: Vec<(Text, Value)>,
}

impl Map {
    /// An empty object.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty object with room for `members` members.
    pub(crate) fn with_capacity(members: usize) -> Map {
        Map {
            members: Vec::with_capacity(members),
        }
    }

    /// An object of `members`, in order, whose keys the caller knows to be distinct (the
    /// keys of another map, of a dict of exact `str` keys): nothing is searched. Should a key
    /// repeat all the same, look-ups find its first member.
    pub fn from_distinct(members: Vec<(Text, Value)>) -> Map {
        // Sorted, so that a debug build stays linearithmic on objects of 100,000 members.
        debug_assert!(
            {
                let mut keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
                keys.sort_unstable();
                keys.windows(2).all(|w| matches!(w, [a, b] if a != b))
            },
            "Map::from_distinct was given a repeated key"
        );
        Map { members }
    }

    /// The member `key`, if there is one.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The member `key`, mutably, if there is one.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.members
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// Whether there is a member `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets the member `key`: in its place if it exists (returning the old value), else last.
    pub fn insert(&mut self, key: impl Into<Text>, value: Value) -> Option<Value> {
        let key = key.into();
        match self.get_mut(&key) {
            Some(slot) => Some(core::mem::replace(slot, value)),
            None => {
                self.members.push((key, value));
                None
            }
        }
    }

    /// The object of `entries`, in order, refusing a key named twice: an
    /// [`ErrorKind::DuplicateKey`](crate::error::ErrorKind::DuplicateKey) at the second one
    /// (`/name`), as for every object this crate reads.
    pub fn from_entries(
        entries: impl IntoIterator<Item = (impl Into<Text>, Value)>,
    ) -> Result<Map, crate::error::Error> {
        let members: Vec<(Text, Value)> = entries.into_iter().map(|(k, v)| (k.into(), v)).collect();
        if let Some(key) = first_repeated(&members) {
            return Err(crate::error::Error::new(
                crate::error::ErrorKind::DuplicateKey,
                super::pointer::key(key),
                alloc::format!("the key {} is given twice", crate::error::quote(key)),
            ));
        }
        Ok(Map { members })
    }

    /// The value of the member at `index` (in member order), mutably.
    pub(crate) fn value_at_mut(&mut self, index: usize) -> Option<&mut Value> {
        self.members.get_mut(index).map(|(_, v)| v)
    }

    /// Adds the member `key` last; the caller knows that no member has that key.
    pub(crate) fn push_distinct(&mut self, key: &str, value: Value) {
        self.members.push((Text::from(key), value));
    }

    /// Removes the member `key`, keeping the others in order.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.members.iter().position(|(k, _)| k == key)?;
        Some(self.members.remove(at).1)
    }

    /// How many members there are.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The members, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> {
        self.members.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> {
        self.members.iter().map(|(k, _)| k.as_str())
    }

    /// The object as compact JSON, written as [`Value::to_json`] writes it.
    pub fn to_json(&self) -> String {
        crate::json::write::map_to_json(self)
    }

    /// The values, in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.members.iter().map(|(_, v)| v)
    }
}

/// Objects up to this many members find a repeated key by comparing each key with those
/// before it; larger ones sort their keys, so that many members cannot make the check
/// quadratic.
pub(crate) const SCAN_LIMIT: usize = 16;

/// The key of `members` whose second appearance comes first, if a key appears twice: the one
/// a reader going member by member meets first. At most [`SCAN_LIMIT`] members are compared
/// pairwise; more are sorted by key, so the cost grows as n log n.
pub(crate) fn first_repeated(members: &[(Text, Value)]) -> Option<&str> {
    let key = |at: usize| members.get(at).map_or("", |(k, _)| k.as_str());
    if members.len() <= SCAN_LIMIT {
        return (1..members.len())
            .find(|&at| (0..at).any(|before| key(before) == key(at)))
            .map(key);
    }
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_unstable_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
    // Within a run of equal keys the places are in order, so each pair's second place is a
    // repeat; the earliest of them is the one met first.
    order
        .windows(2)
        .filter_map(|pair| match *pair {
            [a, b] if key(a) == key(b) => Some(b),
            _ => None,
        })
        .min()
        .map(key)
}

impl<K: Into<Text>> FromIterator<(K, Value)> for Map {
    /// Collects members in order; a repeated key keeps its first place and its last value.
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Map {
        let mut map = Map::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl IntoIterator for Map {
    type Item = (Text, Value);
    type IntoIter = vec::IntoIter<(Text, Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.members.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a str, &'a Value);
    type IntoIter = core::iter::Map<
        core::slice::Iter<'a, (Text, Value)>,
        fn(&'a (Text, Value)) -> (&'a str, &'a Value),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.members.iter().map(|(k, v)| (k.as_str(), v))
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(map) => map.serialize(serializer),
        }
    }
}

impl Serialize for Number {
    /// Writes the spelling as it is: serde_json writes a `RawValue` verbatim.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw: Box<serde_json::value::RawValue> =
            serde_json::value::RawValue::from_string(String::from(self.0.as_str()))
                .map_err(S::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.members.len()))?;
        for (k, v) in &self.members {
            map.serialize_entry(k.as_str(), v)?;
        }
        map.end()
    }
}

impl From<serde_json::Value> for Value {
    /// Converts a serde_json value; numbers take serde_json's spelling of them.
    fn from(value: serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => {
                Value::Number(Number(Text::from(alloc::format!("{n}"))))
            }
            serde_json::Value::String(s) => Value::String(Text::from(s)),
            serde_json::Value::Array(items) => {
                Value::Array(items.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (k, Value::from(v))).collect())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_spelling() {
        for s in [
            "0",
            "-0",
            "1.0",
            "1e2",
            "1E+2",
            "-1.5e-10",
            "1e400",
            "12345678901234567890123",
        ] {
            let n = Number::from_spelling(s).unwrap();
            assert_eq!(Value::Number(n).to_json(), s);
        }
        for bad in [
            "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x1", "1 ", "NaN", "١",
        ] {
            assert!(Number::from_spelling(bad).is_none(), "{bad:?}");
        }
        let n = Number::from_spelling("1e2").unwrap();
        assert_eq!(
            (n.as_f64(), n.as_i64(), n.as_u64()),
            (Some(100.0), None, None)
        );
        assert_eq!(Number::from_spelling("1e400").unwrap().as_f64(), None);
        assert_eq!(Number::from(-3i64).as_i64(), Some(-3));
    }

    #[test]
    fn map_keeps_order_and_replaces_in_place() {
        let mut m: Map = [("z", Value::from(1i64)), ("a", Value::from(2i64))]
            .into_iter()
            .collect();
        assert_eq!(m.insert("z", Value::from("x")), Some(Value::from(1i64)));
        m.insert("m", Value::Null);
        assert_eq!(
            Value::Object(m.clone()).to_json(),
            r#"{"z":"x","a":2,"m":null}"#
        );
        assert_eq!(m.remove("a"), Some(Value::from(2i64)));
        assert_eq!(m.keys().collect::<Vec<_>>(), ["z", "m"]);
    }
}
