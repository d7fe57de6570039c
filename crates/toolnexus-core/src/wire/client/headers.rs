//! What a 2026-07-28 client mirrors into HTTP headers: the encoding of a header value, and the
//! `x-mcp-header` annotations of a tool's `inputSchema` (SEP-2243), read and checked once.
//!
//! A server may mark tool parameters with `x-mcp-header: NAME`; a client over streamable HTTP
//! then sends each such argument as `Mcp-Param-NAME`. An annotation that breaks the rules
//! (empty, not an HTTP token, repeated regardless of case, on a type other than string,
//! integer or boolean, or not reachable from the root through `properties` alone) makes the
//! whole tool invalid: the client leaves it out of the tool list.
//!
//! ```
//! use toolnexus_core::wire::client::headers::{ParamHeaders, encode_value};
//! use toolnexus_core::{Limits, Value, json};
//!
//! let tool = json::parse_str(
//!     r#"{"name":"q","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}"#,
//!     &Limits::DEFAULT,
//! ).unwrap();
//! let headers = ParamHeaders::of_tool(&tool).unwrap();
//! let Value::Object(arguments) = json::parse_str(r#"{"region":" eu "}"#, &Limits::DEFAULT).unwrap() else { unreachable!() };
//! assert_eq!(
//!     headers.headers(&arguments),
//!     [(String::from("Mcp-Param-Region"), String::from("=?base64?IGV1IA==?="))]
//! );
//! assert_eq!(encode_value("us-west1"), "us-west1");
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::error::{Error, ErrorKind, quote};
use crate::json::pointer::push_key;
use crate::json::{Map, Value};

/// The prefix of every mirrored parameter's header name.
pub const PARAM_PREFIX: &str = "Mcp-Param-";

/// The keywords whose values are schemas a parameter could hide in, other than `properties`:
/// an annotation under any of them is not statically reachable.
const SCHEMA_KEYWORDS: [&str; 17] = [
    "items",
    "prefixItems",
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "dependentSchemas",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$defs",
];

/// The parameters a tool mirrors into headers: each `x-mcp-header` name with the path of
/// `properties` keys that leads to its argument.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParamHeaders {
    params: Vec<(String, Vec<String>)>,
}

impl ParamHeaders {
    /// Reads the annotations of `tool` (a tool definition as `tools/list` gives it). A tool
    /// without `inputSchema`, or without annotations, mirrors nothing.
    ///
    /// Refused, with a pointer into the tool at the annotation: an `x-mcp-header` that is not
    /// a string ([`ErrorKind::WrongType`]), or that breaks a rule of the
    /// [module](self) ([`ErrorKind::InvalidValue`]).
    pub fn of_tool(tool: &Value) -> Result<ParamHeaders, Error> {
        let mut found = ParamHeaders::default();
        let Some(schema) = tool.get("inputSchema") else {
            return Ok(found);
        };
        let mut walk = Walk {
            found: &mut found,
            pointer: String::from("/inputSchema"),
            path: Vec::new(),
        };
        walk.schema(schema, true)?;
        Ok(found)
    }

    /// Whether the tool mirrors nothing.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// The `Mcp-Param-*` headers of a call with `arguments`, in the schema's order: each value
    /// present and not `null` at its path, as text (a string as is, any other value as its
    /// JSON) and encoded by [`encode_value`].
    pub fn headers(&self, arguments: &Map) -> Vec<(String, String)> {
        let mut headers = Vec::new();
        for (name, path) in &self.params {
            let mut value: Option<&Value> = None;
            let mut map = Some(arguments);
            for key in path {
                value = map.and_then(|m| m.get(key));
                map = value.and_then(Value::as_object);
            }
            let text = match value {
                None | Some(Value::Null) => continue,
                Some(Value::String(s)) => String::from(s.as_str()),
                Some(other) => other.to_json(),
            };
            headers.push((format!("{PARAM_PREFIX}{name}"), encode_value(&text)));
        }
        headers
    }
}

/// A header value as MCP carries it: the text itself when it is printable ASCII with no
/// leading or trailing whitespace and does not look like the sentinel, else the Base64 of its
/// UTF-8 as `=?base64?…?=`.
pub fn encode_value(text: &str) -> String {
    let sentinel = text.starts_with("=?base64?") && text.ends_with("?=");
    let plain = text.bytes().all(|b| (0x20..0x7f).contains(&b))
        && !text.starts_with(' ')
        && !text.ends_with(' ')
        && !sentinel;
    if plain {
        String::from(text)
    } else {
        format!("=?base64?{}?=", STANDARD.encode(text.as_bytes()))
    }
}

/// Whether `name` is an HTTP field-name token (RFC 9110 `1*tchar`).
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// One pass over a schema, collecting annotations and refusing misplaced ones.
struct Walk<'f> {
    found: &'f mut ParamHeaders,
    pointer: String,
    path: Vec<String>,
}

impl Walk<'_> {
    /// Reads `schema` at the current pointer; `reachable` when it is the root or a property
    /// reached from it through `properties` keys alone.
    fn schema(&mut self, schema: &Value, reachable: bool) -> Result<(), Error> {
        let Some(map) = schema.as_object() else {
            return Ok(());
        };
        if let Some(annotation) = map.get("x-mcp-header") {
            self.annotation(map, annotation, reachable)?;
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            for (key, property) in properties.iter() {
                self.enter(&["properties", key], Some(key), |walk| {
                    walk.schema(property, reachable)
                })?;
            }
        }
        for keyword in SCHEMA_KEYWORDS {
            match map.get(keyword) {
                Some(Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        let index = format!("{i}");
                        self.enter(&[keyword, &index], None, |walk| walk.schema(item, false))?;
                    }
                }
                Some(Value::Object(inner))
                    if matches!(keyword, "$defs" | "patternProperties" | "dependentSchemas") =>
                {
                    for (key, item) in inner.iter() {
                        self.enter(&[keyword, key], None, |walk| walk.schema(item, false))?;
                    }
                }
                Some(item) => self.enter(&[keyword], None, |walk| walk.schema(item, false))?,
                None => {}
            }
        }
        Ok(())
    }

    /// Runs `read` one level down: `tokens` added to the pointer, `key` to the path.
    fn enter(
        &mut self,
        tokens: &[&str],
        key: Option<&str>,
        read: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let length = self.pointer.len();
        for token in tokens {
            push_key(&mut self.pointer, token);
        }
        if let Some(key) = key {
            self.path.push(String::from(key));
        }
        let result = read(self);
        if key.is_some() {
            self.path.pop();
        }
        self.pointer.truncate(length);
        result
    }

    fn annotation(
        &mut self,
        property: &Map,
        annotation: &Value,
        reachable: bool,
    ) -> Result<(), Error> {
        let mut at = self.pointer.clone();
        push_key(&mut at, "x-mcp-header");
        let refuse =
            |message: String| Err(Error::new(ErrorKind::InvalidValue, at.as_str(), message));
        let Some(name) = annotation.as_str() else {
            return Err(Error::new(
                ErrorKind::WrongType,
                at.as_str(),
                format!(
                    "`x-mcp-header` must be a string, not {}",
                    annotation.type_name()
                ),
            ));
        };
        if !reachable || self.path.is_empty() {
            return refuse(String::from(
                "`x-mcp-header` may only mark a property reached from the schema's root through \
                 `properties` alone",
            ));
        }
        if !is_token(name) {
            return refuse(format!(
                "`x-mcp-header` {} is not an HTTP header name: it must be non-empty, ASCII, \
                 without spaces, colons or control characters",
                quote(name)
            ));
        }
        let primitive = |t: &str| matches!(t, "string" | "integer" | "boolean");
        let typed = match property.get("type") {
            Some(Value::String(t)) => primitive(t),
            Some(Value::Array(types)) => {
                let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
                named.len() == types.len()
                    && named.iter().any(|t| *t != "null")
                    && named.iter().all(|t| *t == "null" || primitive(t))
            }
            _ => false,
        };
        if !typed {
            return refuse(format!(
                "`x-mcp-header` {} marks a parameter whose type is not string, integer or boolean",
                quote(name)
            ));
        }
        if let Some((other, _)) = self
            .found
            .params
            .iter()
            .find(|(other, _)| other.eq_ignore_ascii_case(name))
        {
            return refuse(format!(
                "`x-mcp-header` {} repeats {} (header names ignore case)",
                quote(name),
                quote(other)
            ));
        }
        self.found
            .params
            .push((String::from(name), self.path.clone()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Limits, parse_str};

    fn value(text: &str) -> Value {
        parse_str(text, &Limits::DEFAULT).unwrap()
    }

    fn tool(properties: &str) -> Value {
        value(&format!(
            r#"{{"name":"t","inputSchema":{{"type":"object","properties":{properties}}}}}"#
        ))
    }

    #[test]
    fn values_are_plain_or_base64() {
        for (text, encoded) in [
            ("us-west1", "us-west1"),
            ("us west 1", "us west 1"),
            ("", ""),
            ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
            (" padded ", "=?base64?IHBhZGRlZCA=?="),
            ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
            ("\tindented", "=?base64?CWluZGVudGVk?="),
            ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
        ] {
            assert_eq!(encode_value(text), encoded, "{text:?}");
        }
    }

    #[test]
    fn annotated_arguments_become_headers_in_schema_order() {
        let t = tool(
            r#"{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"Priority"},"on":{"type":"boolean","x-mcp-header":"Verbose"},"q":{"type":"string"},"deep":{"type":"object","properties":{"id":{"type":["string","null"],"x-mcp-header":"Id"}}}}"#,
        );
        let headers = ParamHeaders::of_tool(&t).unwrap();
        let Value::Object(args) =
            value(r#"{"q":"x","on":false,"n":42,"region":"eu","deep":{"id":"a b"}}"#)
        else {
            panic!()
        };
        assert_eq!(
            headers.headers(&args),
            [
                (String::from("Mcp-Param-Region"), String::from("eu")),
                (String::from("Mcp-Param-Priority"), String::from("42")),
                (String::from("Mcp-Param-Verbose"), String::from("false")),
                (String::from("Mcp-Param-Id"), String::from("a b")),
            ]
        );
        let Value::Object(nulls) = value(r#"{"region":null,"deep":{"id":null}}"#) else {
            panic!()
        };
        assert!(headers.headers(&nulls).is_empty());
    }

    #[test]
    fn invalid_annotations_are_refused_where_they_are() {
        for (properties, pointer) in [
            (
                r#"{"v":{"type":"string","x-mcp-header":""}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"type":"string","x-mcp-header":"My Region"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"type":"string","x-mcp-header":"A:B"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"type":"string","x-mcp-header":"Région"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"type":"string","x-mcp-header":"R\t1"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"type":"number","x-mcp-header":"N"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"type":"object","x-mcp-header":"N"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"type":"array","x-mcp-header":"N"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"type":"null","x-mcp-header":"N"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"v":{"x-mcp-header":"N"}}"#,
                "/inputSchema/properties/v/x-mcp-header",
            ),
            (
                r#"{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}"#,
                "/inputSchema/properties/b/x-mcp-header",
            ),
            (
                r#"{"a":{"type":"array","items":{"type":"string","x-mcp-header":"I"}}}"#,
                "/inputSchema/properties/a/items/x-mcp-header",
            ),
            (
                r#"{"a":{"anyOf":[{"type":"string","x-mcp-header":"I"}]}}"#,
                "/inputSchema/properties/a/anyOf/0/x-mcp-header",
            ),
            (
                r#"{"a":{"type":"array","items":{"type":"object","properties":{"b":{"type":"string","x-mcp-header":"B"}}}}}"#,
                "/inputSchema/properties/a/items/properties/b/x-mcp-header",
            ),
        ] {
            let error = ParamHeaders::of_tool(&tool(properties)).unwrap_err();
            assert_eq!(error.pointer(), pointer, "{properties}: {error}");
        }
        let wrong = ParamHeaders::of_tool(&tool(r#"{"v":{"type":"string","x-mcp-header":7}}"#));
        assert_eq!(wrong.unwrap_err().kind(), ErrorKind::WrongType);
        let at_root = value(r#"{"inputSchema":{"type":"string","x-mcp-header":"R"}}"#);
        assert_eq!(
            ParamHeaders::of_tool(&at_root).unwrap_err().pointer(),
            "/inputSchema/x-mcp-header"
        );
        let in_defs = value(
            r#"{"inputSchema":{"type":"object","$defs":{"r":{"type":"string","x-mcp-header":"R"}}}}"#,
        );
        assert_eq!(
            ParamHeaders::of_tool(&in_defs).unwrap_err().pointer(),
            "/inputSchema/$defs/r/x-mcp-header"
        );
    }

    #[test]
    fn a_tool_without_annotations_mirrors_nothing() {
        assert!(
            ParamHeaders::of_tool(&value(r#"{"name":"t"}"#))
                .unwrap()
                .is_empty()
        );
        assert!(
            ParamHeaders::of_tool(&tool(
                r#"{"q":{"type":"string","default":{"x-mcp-header":"no"}}}"#
            ))
            .unwrap()
            .is_empty()
        );
    }
}
