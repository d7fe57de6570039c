//! Typed access to the members of a JSON object a server sent, each problem an [`AuthError`]
//! at the member's JSON pointer.

use toolnexus_core::json::{Limits, Map, Value, parse, pointer};

use crate::error::{AuthError, AuthErrorKind, quote};

/// A JSON object read from a server (or from storage), named for messages.
pub(crate) struct Document {
    map: Map,
    /// What it is, for messages: "the protected resource metadata at https://…".
    what: String,
    /// The kind of a member that is missing or wrong.
    invalid: AuthErrorKind,
}

impl Document {
    /// Reads `body` within `limits` as a JSON object. A body that is not JSON (or too large,
    /// too deep) is an error of the reader's kind; one that is not an object, of `invalid`.
    pub(crate) fn read(
        body: &[u8],
        limits: &Limits,
        what: String,
        invalid: AuthErrorKind,
    ) -> Result<Document, AuthError> {
        let value = parse(body, limits).map_err(|e| AuthError::from_json(&e, &what))?;
        match value {
            Value::Object(map) => Ok(Document { map, what, invalid }),
            other => Err(AuthError::new(
                invalid,
                "",
                format!("{what}: is {}, not an object", other.type_name()),
            )),
        }
    }

    /// What the document is, for messages.
    pub(crate) fn what(&self) -> &str {
        &self.what
    }

    /// An error of the document's kind at the member `key`.
    pub(crate) fn error(&self, key: &str, message: impl std::fmt::Display) -> AuthError {
        self.error_of(self.invalid, key, message)
    }

    /// An error of `kind` at the member `key`.
    pub(crate) fn error_of(
        &self,
        kind: AuthErrorKind,
        key: &str,
        message: impl std::fmt::Display,
    ) -> AuthError {
        AuthError::new(
            kind,
            pointer::key(key),
            format!("{}: `{key}` {message}", self.what),
        )
    }

    /// The member `key`, `None` when absent or `null`.
    fn member(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// The keys of the object, in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.map.keys()
    }

    /// The string member `key`, if present.
    pub(crate) fn string(&self, key: &str) -> Result<Option<&str>, AuthError> {
        match self.member(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.as_str())),
            Some(other) => Err(self.error(key, format!("is {}, not a string", other.type_name()))),
        }
    }

    /// The string member `key`, which must be present and not empty.
    pub(crate) fn required_string(&self, key: &str) -> Result<&str, AuthError> {
        match self.string(key)? {
            None => Err(self.error(key, "is missing")),
            Some("") => Err(self.error(key, "is empty")),
            Some(text) => Ok(text),
        }
    }

    /// The boolean member `key`, if present.
    pub(crate) fn boolean(&self, key: &str) -> Result<Option<bool>, AuthError> {
        match self.member(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.error(key, format!("is {}, not a boolean", other.type_name()))),
        }
    }

    /// The member `key` as a whole number of at least zero, if present.
    pub(crate) fn count(&self, key: &str) -> Result<Option<u64>, AuthError> {
        match self.member(key) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(n) => Ok(Some(n)),
                None => Err(self.error(
                    key,
                    format!("is {}, not a whole number of at least 0", quote(n.as_str())),
                )),
            },
            Some(other) => Err(self.error(key, format!("is {}, not a number", other.type_name()))),
        }
    }

    /// The member `key` as an array of strings, if present; an item that is not a string is
    /// an error at `/key/index`.
    pub(crate) fn strings(&self, key: &str) -> Result<Option<Vec<String>>, AuthError> {
        let items = match self.member(key) {
            None => return Ok(None),
            Some(Value::Array(items)) => items,
            Some(other) => {
                return Err(self.error(
                    key,
                    format!("is {}, not an array of strings", other.type_name()),
                ));
            }
        };
        let mut out = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(text) => out.push(text.to_owned()),
                None => {
                    let mut at = pointer::key(key);
                    pointer::push_index(&mut at, index);
                    return Err(AuthError::new(
                        self.invalid,
                        at,
                        format!(
                            "{}: `{key}` item {index} is {}, not a string",
                            self.what,
                            item.type_name()
                        ),
                    ));
                }
            }
        }
        Ok(Some(out))
    }

    /// The member `key` as an object, if present.
    pub(crate) fn object(&self, key: &str) -> Result<Option<&Map>, AuthError> {
        match self.member(key) {
            None => Ok(None),
            Some(Value::Object(map)) => Ok(Some(map)),
            Some(other) => Err(self.error(key, format!("is {}, not an object", other.type_name()))),
        }
    }

    /// The same document narrowed to its member object `key`: pointers gain the `/key` prefix.
    pub(crate) fn within(&self, key: &str) -> Result<Option<Document>, AuthError> {
        Ok(self.object(key)?.map(|map| Document {
            map: map.clone(),
            what: format!("{} `{key}`", self.what),
            invalid: self.invalid,
        }))
    }
}

/// Refuses a member of `doc` not named in `known`.
pub(crate) fn only_members(doc: &Document, known: &[&str]) -> Result<(), AuthError> {
    match doc.keys().find(|k| !known.contains(k)) {
        Some(key) => Err(doc.error(key, "is not a member this document has")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document::read(
            text.as_bytes(),
            &Limits::DEFAULT,
            "the test document".into(),
            AuthErrorKind::InvalidMetadata,
        )
        .unwrap()
    }

    #[test]
    fn members_are_typed_and_located() {
        let d = doc(r#"{"s":"x","b":true,"n":3,"a":["p","q"],"z":null,"e":""}"#);
        assert_eq!(d.string("s").unwrap(), Some("x"));
        assert_eq!(d.string("z").unwrap(), None);
        assert_eq!(d.boolean("b").unwrap(), Some(true));
        assert_eq!(d.count("n").unwrap(), Some(3));
        assert_eq!(d.strings("a").unwrap(), Some(vec!["p".into(), "q".into()]));
        assert_eq!(d.required_string("e").unwrap_err().pointer(), "/e");
        assert_eq!(
            d.required_string("missing").unwrap_err().pointer(),
            "/missing"
        );
        let e = d.string("b").unwrap_err();
        assert_eq!(
            (e.kind(), e.pointer()),
            (AuthErrorKind::InvalidMetadata, "/b")
        );
        assert_eq!(d.boolean("s").unwrap_err().pointer(), "/s");
        assert_eq!(d.count("s").unwrap_err().pointer(), "/s");
        assert_eq!(d.strings("s").unwrap_err().pointer(), "/s");
        assert_eq!(d.object("s").unwrap_err().pointer(), "/s");
    }

    #[test]
    fn array_items_are_located_by_index() {
        let d = doc(r#"{"a/b":["p",1]}"#);
        assert_eq!(d.strings("a/b").unwrap_err().pointer(), "/a~1b/1");
    }

    #[test]
    fn negative_and_fractional_counts_are_refused() {
        for text in [r#"{"n":-1}"#, r#"{"n":1.5}"#, r#"{"n":1e400}"#] {
            assert_eq!(doc(text).count("n").unwrap_err().pointer(), "/n", "{text}");
        }
    }

    #[test]
    fn non_objects_and_bad_json_are_refused() {
        let read = |text: &str| {
            Document::read(
                text.as_bytes(),
                &Limits::DEFAULT.with_max_depth(3).with_max_input_bytes(64),
                "d".into(),
                AuthErrorKind::InvalidResponse,
            )
            .err()
            .unwrap()
            .kind()
        };
        assert_eq!(read("[]"), AuthErrorKind::InvalidResponse);
        assert_eq!(read("{"), AuthErrorKind::InvalidJson);
        assert_eq!(read(r#"{"a":1,"a":2}"#), AuthErrorKind::InvalidJson);
        assert_eq!(read(r#"{"a":[[[1]]]}"#), AuthErrorKind::TooDeep);
        assert_eq!(
            read(&format!(r#"{{"a":"{}"}}"#, "x".repeat(100))),
            AuthErrorKind::TooLarge
        );
    }
}
