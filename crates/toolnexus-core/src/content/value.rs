//! Elicitation content: an object of texts, numbers, booleans and lists of texts, the only
//! values MCP allows in an accepted form.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Serialize, Serializer};

use crate::error::{Error, ErrorKind};
use crate::json::pointer;
use crate::json::{Map, Number, Value};

/// One value of elicitation content, as MCP allows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContentValue<'a> {
    /// Text (a string): free text, a date, an email address, a single-select's option.
    Text(&'a str),
    /// A number, spelt as it was received.
    Number(&'a Number),
    /// Yes or no (a boolean).
    Boolean(bool),
    /// A list of texts (strings): a multi-select's options.
    TextList(&'a [Value]),
}

impl<'a> ContentValue<'a> {
    /// `value` as content, or a `wrong_type` error at the root.
    pub fn from_value(value: &'a Value) -> Result<ContentValue<'a>, Error> {
        let wrong = |found: &str| {
            Error::new(
                ErrorKind::WrongType,
                "",
                format!(
                    "content values must be a string, number, boolean or list of strings, not {found}"
                ),
            )
        };
        match value {
            Value::String(s) => Ok(ContentValue::Text(s)),
            Value::Number(n) => Ok(ContentValue::Number(n)),
            Value::Bool(b) => Ok(ContentValue::Boolean(*b)),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if !item.is_string() {
                        let mut at = String::new();
                        pointer::push_index(&mut at, i);
                        return Err(
                            wrong(&format!("a list holding {}", item.type_name())).within(&at)
                        );
                    }
                }
                Ok(ContentValue::TextList(items))
            }
            other => Err(wrong(other.type_name())),
        }
    }

    /// The strings of a [`ContentValue::TextList`], in order.
    pub fn strings(&self) -> Vec<&'a str> {
        match self {
            ContentValue::TextList(items) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        }
    }
}

/// The `content` of an accepted form: an object whose values are strings, numbers, booleans or
/// lists of strings, in the order they were given.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Content(Map);

impl Content {
    /// Checks that every value of `map` is content; the error points at the first one that
    /// is not (`/name`, or `/name/2` inside a list).
    pub fn from_map(map: Map) -> Result<Content, Error> {
        for (name, value) in &map {
            ContentValue::from_value(value).map_err(|e| e.within(&pointer::key(name)))?;
        }
        Ok(Content(map))
    }

    /// The content as a JSON object.
    pub fn as_map(&self) -> &Map {
        &self.0
    }

    /// The content as a JSON object, taken.
    pub fn into_map(self) -> Map {
        self.0
    }

    /// The value named `name`, typed.
    pub fn get(&self, name: &str) -> Option<ContentValue<'_>> {
        self.0
            .get(name)
            .and_then(|v| ContentValue::from_value(v).ok())
    }

    /// Every (name, value) pair, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, ContentValue<'_>)> {
        self.0
            .iter()
            .filter_map(|(k, v)| ContentValue::from_value(v).ok().map(|value| (k, value)))
    }

    /// How many values there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}
