//! Typed access to the members of a JSON object, with errors located by JSON pointer.

use alloc::format;

use crate::error::wrong_type_message;
use crate::json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::json::pointer;

/// `value` as an object, or a `wrong_type` error at the root naming `what`.
pub(crate) fn as_object<'a>(value: &'a Value, what: &str) -> Result<&'a Map, Error> {
    value.as_object().ok_or_else(|| {
        Error::new(
            ErrorKind::WrongType,
            "",
            format!("{what} must be a JSON object, not {}", value.type_name()),
        )
    })
}

/// `value` as an owned object, or a `wrong_type` error at the root naming `what`.
pub(crate) fn into_object(value: Value, what: &str) -> Result<Map, Error> {
    match value {
        Value::Object(map) => Ok(map),
        other => Err(Error::new(
            ErrorKind::WrongType,
            "",
            format!("{what} must be a JSON object, not {}", other.type_name()),
        )),
    }
}

/// Takes the member `name` out of `map` if it is an object. Read it with [`Fields`] first: a
/// member of another type is refused there, and `null` or absence gives `None` here.
pub(crate) fn take_object(map: &mut Map, name: &str) -> Option<Map> {
    match map.remove(name)? {
        Value::Object(m) => Some(m),
        _ => None,
    }
}

/// Refuses an empty `value` for the member `name`: ids, kinds and URLs must say something.
pub(crate) fn non_empty(name: &str, value: &str) -> Result<(), Error> {
    if value.is_empty() {
        Err(Error::new(
            ErrorKind::InvalidValue,
            pointer::key(name),
            format!("`{name}` must not be empty"),
        ))
    } else {
        Ok(())
    }
}

/// The members of one JSON object, read by name. A member whose value is `null` counts as
/// absent: hosts in languages with `null`/`None` often write absent optionals that way.
pub(crate) struct Fields<'a> {
    map: &'a Map,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(map: &'a Map) -> Fields<'a> {
        Fields { map }
    }

    /// The member `name`, unless it is absent or `null`.
    pub(crate) fn get(&self, name: &str) -> Option<&'a Value> {
        match self.map.get(name) {
            None | Some(Value::Null) => None,
            Some(v) => Some(v),
        }
    }

    fn wrong_type(name: &str, expected: &str, found: &Value) -> Error {
        Error::new(
            ErrorKind::WrongType,
            pointer::key(name),
            wrong_type_message(&format!("`{name}`"), expected, found.type_name()),
        )
    }

    fn missing(name: &str, expected: &str) -> Error {
        Error::new(
            ErrorKind::MissingField,
            pointer::key(name),
            format!("`{name}` is required and must be {expected}"),
        )
    }

    /// An optional string member.
    pub(crate) fn opt_str(&self, name: &str) -> Result<Option<&'a str>, Error> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(Fields::wrong_type(name, "a string", other)),
        }
    }

    /// A required string member.
    pub(crate) fn str(&self, name: &str) -> Result<&'a str, Error> {
        self.opt_str(name)?
            .ok_or_else(|| Fields::missing(name, "a string"))
    }

    /// A required string member that must not be empty.
    pub(crate) fn non_empty_str(&self, name: &str) -> Result<&'a str, Error> {
        let s = self.str(name)?;
        non_empty(name, s)?;
        Ok(s)
    }

    /// A required boolean member.
    pub(crate) fn bool(&self, name: &str) -> Result<bool, Error> {
        match self.get(name) {
            None => Err(Fields::missing(name, "a boolean")),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(Fields::wrong_type(name, "a boolean", other)),
        }
    }

    /// An optional member holding a whole number from 0 to 2⁶⁴ − 1.
    pub(crate) fn opt_u64(&self, name: &str) -> Result<Option<u64>, Error> {
        match self.get(name) {
            None => Ok(None),
            Some(value) => value
                .as_u64()
                .map(Some)
                .ok_or_else(|| Fields::wrong_type(name, "a whole number from 0", value)),
        }
    }

    /// A required member holding a whole number from 0 to 2⁶⁴ − 1.
    pub(crate) fn u64(&self, name: &str) -> Result<u64, Error> {
        self.opt_u64(name)?
            .ok_or_else(|| Fields::missing(name, "a whole number from 0"))
    }

    /// An optional array member.
    pub(crate) fn opt_array(&self, name: &str) -> Result<Option<&'a [Value]>, Error> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Array(items)) => Ok(Some(items)),
            Some(other) => Err(Fields::wrong_type(name, "an array", other)),
        }
    }

    /// An optional object member.
    pub(crate) fn opt_object(&self, name: &str) -> Result<Option<&'a Map>, Error> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(other) => Err(Fields::wrong_type(name, "an object", other)),
        }
    }

    /// A required object member.
    pub(crate) fn object(&self, name: &str) -> Result<&'a Map, Error> {
        self.opt_object(name)?
            .ok_or_else(|| Fields::missing(name, "an object"))
    }

    /// Refuses any member not named in `known` (for the contract types, whose keys are pinned).
    pub(crate) fn deny_unknown(&self, known: &[&str], what: &str) -> Result<(), Error> {
        match self.map.keys().find(|k| !known.contains(k)) {
            None => Ok(()),
            Some(k) => Err(Error::new(
                ErrorKind::UnknownField,
                pointer::key(k),
                format!(
                    "{what} has no field `{k}` (its fields are {})",
                    known.join(", ")
                ),
            )),
        }
    }
}
