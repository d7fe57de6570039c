//! JSON-RPC 2.0 as MCP uses it: one incoming message read and classified, and the responses a
//! client writes back.
//!
//! MCP narrows JSON-RPC 2.0 in ways this module enforces on what it reads:
//!
//! - A message is one object; batches (a top-level array) are not part of MCP since 2025-06-18.
//! - A request id is a string or an integer, never `null` ([`RpcId`]). An integer keeps its
//!   spelling: `1.0` and `123456789012345678901234567890` are echoed exactly as received.
//! - `params`, when present, is an object.
//!
//! A message that breaks these rules is answered with the error response
//! [`Message::parse`] returns: `-32700` when it is not JSON at all, `-32600` otherwise. That
//! response carries the request's id when the id itself could be read, and no `id` member when
//! it could not: MCP 2025-11-25 makes the id of an error response optional and never `null`,
//! where bare JSON-RPC 2.0 would write `"id": null`.
//!
//! ```
//! use toolnexus_core::wire::rpc::{ErrorCode, Message, RpcId};
//! use toolnexus_core::Limits;
//!
//! let message = Message::parse(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#, &Limits::DEFAULT);
//! assert!(matches!(message, Ok(Message::Request { ref method, .. }) if method == "ping"));
//!
//! let rejected = Message::parse(br#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#, &Limits::DEFAULT)
//!     .unwrap_err();
//! assert_eq!(rejected.error_code(), Some(ErrorCode::InvalidRequest));
//! assert_eq!(rejected.id(), RpcId::from_value(&7i64.into()).as_ref());
//! ```

use alloc::format;
use alloc::string::String;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::error::{Error, ErrorKind, quote};
use crate::json;
use crate::json::Limits;
use crate::json::decimal;
use crate::json::fields::{Fields, into_object, take_object};
use crate::json::{Map, Number, Value};

/// The value of the `jsonrpc` member of every message.
pub const VERSION: &str = "2.0";

/// The JSON-RPC error codes a client writes or reads: the five JSON-RPC 2.0 defines and the
/// two MCP adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `-32700`: the message is not JSON.
    ParseError,
    /// `-32600`: the message is JSON but not a valid request object.
    InvalidRequest,
    /// `-32601`: the method is not one the receiver handles.
    MethodNotFound,
    /// `-32602`: the method's parameters are wrong.
    InvalidParams,
    /// `-32603`: the receiver could not handle a valid request.
    InternalError,
    /// `-32042` (MCP 2025-11-25): the request needs URL-mode elicitations completed first.
    UrlElicitationRequired,
    /// `-32022` (MCP 2026-07-28): the server does not serve the protocol version asked;
    /// `error.data.supported` lists those it does.
    UnsupportedProtocolVersion,
}

impl ErrorCode {
    /// Every code, in declaration order.
    pub const ALL: [ErrorCode; 7] = [
        ErrorCode::ParseError,
        ErrorCode::InvalidRequest,
        ErrorCode::MethodNotFound,
        ErrorCode::InvalidParams,
        ErrorCode::InternalError,
        ErrorCode::UrlElicitationRequired,
        ErrorCode::UnsupportedProtocolVersion,
    ];

    /// The integer sent on the wire.
    pub const fn code(self) -> i64 {
        match self {
            ErrorCode::ParseError => -32700,
            ErrorCode::InvalidRequest => -32600,
            ErrorCode::MethodNotFound => -32601,
            ErrorCode::InvalidParams => -32602,
            ErrorCode::InternalError => -32603,
            ErrorCode::UrlElicitationRequired => -32042,
            ErrorCode::UnsupportedProtocolVersion => -32022,
        }
    }

    /// The code with this integer, if it is one of these.
    pub fn from_code(code: i64) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.code() == code)
    }

    /// The code a client answers an `elicitation/create` with when its session refuses to
    /// begin it for `kind`: [`ErrorCode::InternalError`] when the fault is the client's (its
    /// session is full, or already holds the id), [`ErrorCode::InvalidParams`] when it is the
    /// request's (a mode not supported, a form that asks for a secret, bad params).
    pub const fn for_refusal(kind: ErrorKind) -> ErrorCode {
        match kind {
            ErrorKind::TooManyPending | ErrorKind::DuplicateRequest => ErrorCode::InternalError,
            _ => ErrorCode::InvalidParams,
        }
    }
}

/// A JSON-RPC request id as MCP allows it: a string, or a number with no fractional part kept
/// as it was spelt.
///
/// Two ids are the same when they are the same JSON text: the string `"1"` and the number `1`
/// differ, and so do `1` and `1.0`, since a server correlates by what it wrote.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RpcId {
    /// A string id.
    String(String),
    /// An integer id, spelt as received (`7`, `-3`, `1.0`, `1e2`).
    Number(Number),
}

impl RpcId {
    /// The id in `value`, if it is a string or an integer (`null`, booleans, `1.5`, arrays and
    /// objects are not ids).
    pub fn from_value(value: &Value) -> Option<RpcId> {
        match value {
            Value::String(s) => Some(RpcId::String(String::from(s.as_str()))),
            Value::Number(n) if decimal::is_integer(n) => Some(RpcId::Number(n.clone())),
            _ => None,
        }
    }

    /// The id as a JSON value.
    pub fn to_value(&self) -> Value {
        match self {
            RpcId::String(s) => Value::from(s.as_str()),
            RpcId::Number(n) => Value::Number(n.clone()),
        }
    }

    /// The id as JSON text (`"abc"`, `7`), for messages and logs.
    pub fn to_json(&self) -> String {
        crate::json::write::to_json(self)
    }
}

impl From<&str> for RpcId {
    fn from(s: &str) -> RpcId {
        RpcId::String(String::from(s))
    }
}

impl From<String> for RpcId {
    fn from(s: String) -> RpcId {
        RpcId::String(s)
    }
}

impl From<i64> for RpcId {
    fn from(n: i64) -> RpcId {
        RpcId::Number(n.into())
    }
}

impl core::fmt::Display for RpcId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl Serialize for RpcId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RpcId::String(s) => serializer.serialize_str(s),
            RpcId::Number(n) => n.serialize(serializer),
        }
    }
}

/// One JSON-RPC message, classified.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request: it has an `id` and expects exactly one response.
    Request {
        /// The id to echo in the response.
        id: RpcId,
        /// The method called.
        method: String,
        /// The parameters, when present.
        params: Option<Map>,
    },
    /// A notification: no `id`, and no response, not even an error.
    Notification {
        /// The method called.
        method: String,
        /// The parameters, when present.
        params: Option<Map>,
    },
    /// A response (`result` or `error`, no `method`) to a request this side sent. Its members
    /// are not checked: a response is never answered, whatever it holds.
    Response(Map),
}

impl Message {
    /// Reads one message from `input` within `limits`, or the error response to send back:
    /// [`ErrorCode::ParseError`] when the input cannot be read as JSON (syntax, UTF-8, limits,
    /// duplicate keys), [`ErrorCode::InvalidRequest`] when it is not a valid message (see
    /// [`Message::from_value`]).
    pub fn parse(input: &[u8], limits: &Limits) -> Result<Message, ErrorResponse> {
        let value = json::parse(input, limits).map_err(|e| {
            ErrorResponse::new(
                None,
                ErrorCode::ParseError,
                located(
                    &format!("the message cannot be read as JSON: {}", e.message()),
                    e.pointer(),
                ),
            )
        })?;
        Message::from_value(value)
    }

    /// Classifies a JSON value as a message, or gives the [`ErrorCode::InvalidRequest`]
    /// response to send back.
    ///
    /// An object with no `method` and a `result` or an `error` is a response, whatever else
    /// it holds. Anything else must be a request or a notification: `jsonrpc` is `"2.0"`, `id`
    /// (when present) a string or an integer, `method` a string and `params` (when present) an
    /// object, checked in that order. Other members are ignored.
    pub fn from_value(value: Value) -> Result<Message, ErrorResponse> {
        let mut map = match value {
            Value::Object(map) => map,
            other => {
                return Err(invalid_request(
                    None,
                    &format!(
                        "a JSON-RPC message must be an object, not {}",
                        other.type_name()
                    ),
                    "",
                ));
            }
        };
        if !map.contains_key("method") && (map.contains_key("result") || map.contains_key("error"))
        {
            return Ok(Message::Response(map));
        }
        // Unlike in a response, a `null` id is no id here: a request must have a usable one.
        let id = map.get("id").map(|v| read_id(v, "/id")).transpose();
        let echo = id.as_ref().ok().cloned().flatten();
        if map.get("jsonrpc").and_then(Value::as_str) != Some(VERSION) {
            return Err(invalid_request(
                echo,
                "`jsonrpc` must be the string \"2.0\"",
                "/jsonrpc",
            ));
        }
        let id = id.map_err(|e| invalid_request(None, e.message(), e.pointer()))?;
        let method = match map.remove("method") {
            Some(Value::String(method)) => method.into_string(),
            None => {
                return Err(invalid_request(
                    echo,
                    "the message has no `method` (a request or notification) and no `result` \
                     or `error` (a response)",
                    "/method",
                ));
            }
            Some(other) => {
                return Err(invalid_request(
                    echo,
                    &format!("`method` must be a string, not {}", other.type_name()),
                    "/method",
                ));
            }
        };
        let params = match map.remove("params") {
            None => None,
            Some(Value::Object(params)) => Some(params),
            Some(other) => {
                return Err(invalid_request(
                    echo,
                    &format!("`params` must be an object, not {}", other.type_name()),
                    "/params",
                ));
            }
        };
        Ok(match id {
            Some(id) => Message::Request { id, method, params },
            None => Message::Notification { method, params },
        })
    }
}

/// `value` as a request id, or the error for the member at `at` that holds it: a number with a
/// fractional part is an [`ErrorKind::InvalidValue`], any other non-id an
/// [`ErrorKind::WrongType`].
pub(crate) fn read_id(value: &Value, at: &str) -> Result<RpcId, Error> {
    RpcId::from_value(value).ok_or_else(|| {
        let (kind, found) = match value {
            Value::Number(n) => (
                ErrorKind::InvalidValue,
                format!("{n}, which has a fractional part"),
            ),
            other => (ErrorKind::WrongType, String::from(other.type_name())),
        };
        Error::new(
            kind,
            at,
            format!("`id` must be a string or an integer, not {found}"),
        )
    })
}

/// The `id` member of a message read with `fields`, `None` when it is absent or `null` (as
/// JSON-RPC 2.0 peers write the id of an error response that answers no readable request).
pub(crate) fn opt_id(fields: &Fields<'_>) -> Result<Option<RpcId>, Error> {
    fields.get("id").map(|v| read_id(v, "/id")).transpose()
}

/// The `id` member of a message that must have one, read with `fields`.
pub(crate) fn required_id(fields: &Fields<'_>) -> Result<RpcId, Error> {
    opt_id(fields)?.ok_or_else(|| {
        Error::new(
            ErrorKind::MissingField,
            "/id",
            "`id` is required and must be a string or an integer",
        )
    })
}

/// Refuses a message, read with `fields`, whose `jsonrpc` member is not [`VERSION`].
pub(crate) fn check_version(fields: &Fields<'_>) -> Result<(), Error> {
    match fields.str("jsonrpc")? {
        VERSION => Ok(()),
        other => Err(Error::new(
            ErrorKind::InvalidValue,
            "/jsonrpc",
            format!("`jsonrpc` must be \"{VERSION}\", not {}", quote(other)),
        )),
    }
}

fn invalid_request(id: Option<RpcId>, message: &str, pointer: &str) -> ErrorResponse {
    ErrorResponse::new(id, ErrorCode::InvalidRequest, located(message, pointer))
}

/// `message`, followed by where in the input it applies when that is not the whole input.
pub(crate) fn located(message: &str, pointer: &str) -> String {
    if pointer.is_empty() {
        String::from(message)
    } else {
        format!("{message} (at {pointer})")
    }
}

/// The response `{"jsonrpc":"2.0","id":<id>,"result":<result>}` as compact JSON, for any
/// result the crate can write.
pub(crate) fn write_result<T: Serialize + ?Sized>(id: &RpcId, result: &T) -> String {
    #[derive(Serialize)]
    struct ResultResponse<'a, T: Serialize + ?Sized> {
        jsonrpc: &'static str,
        id: &'a RpcId,
        result: &'a T,
    }
    crate::json::write::to_json(&ResultResponse {
        jsonrpc: VERSION,
        id,
        result,
    })
}

/// A JSON-RPC error response: `{"jsonrpc":"2.0","id"?,"error":{"code","message","data"?}}`.
///
/// The same type is written (the errors this crate sends) and read ([`ErrorResponse::from_value`],
/// for the errors a server sends, such as [`ErrorCode::UrlElicitationRequired`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorResponse {
    id: Option<RpcId>,
    code: i64,
    message: String,
    data: Option<Value>,
}

impl ErrorResponse {
    /// An error response with `code` and `message`, for the request `id` (`None` when the id
    /// could not be read; the `id` member is then left out).
    pub fn new(id: Option<RpcId>, code: ErrorCode, message: impl Into<String>) -> ErrorResponse {
        ErrorResponse {
            id,
            code: code.code(),
            message: message.into(),
            data: None,
        }
    }

    /// This response with `error.data` set.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> ErrorResponse {
        self.data = Some(data);
        self
    }

    /// The id of the request this answers, if it could be read.
    pub fn id(&self) -> Option<&RpcId> {
        self.id.as_ref()
    }

    /// The error code as sent.
    pub fn code(&self) -> i64 {
        self.code
    }

    /// The error code, if it is one of the [`ErrorCode`]s.
    pub fn error_code(&self) -> Option<ErrorCode> {
        ErrorCode::from_code(self.code)
    }

    /// What went wrong, in words.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `error.data` value, if any.
    pub fn data(&self) -> Option<&Value> {
        self.data.as_ref()
    }

    /// The response as compact JSON: `jsonrpc`, `id` (left out when unknown), then `error`
    /// with `code`, `message` and `data` (left out when absent).
    pub fn to_json(&self) -> String {
        crate::json::write::to_json(self)
    }

    /// Reads an error response from JSON text within `limits`.
    pub fn from_json(input: &[u8], limits: &Limits) -> Result<ErrorResponse, Error> {
        ErrorResponse::from_value(json::parse(input, limits)?)
    }

    /// Reads an error response from a JSON value.
    ///
    /// Refused: `jsonrpc` other than `"2.0"`; an `id` that is neither a string nor an integer
    /// (`null` counts as absent, as JSON-RPC 2.0 peers write it); no `error` object; an
    /// `error.code` that is not an integer within `i64`; an `error.message` that is not a
    /// string. Other members are ignored.
    pub fn from_value(value: Value) -> Result<ErrorResponse, Error> {
        let mut map = into_object(value, "a JSON-RPC error response")?;
        let fields = Fields::new(&map);
        check_version(&fields)?;
        let id = opt_id(&fields)?;
        fields.object("error")?;
        let mut error = take_object(&mut map, "error").unwrap_or_default();
        let error_fields = Fields::new(&error);
        let code = match error_fields.get("code") {
            Some(Value::Number(n)) => n.as_i64(),
            _ => None,
        }
        .ok_or_else(|| {
            Error::new(
                ErrorKind::WrongType,
                "/error/code",
                "`error.code` is required and must be an integer",
            )
        })?;
        let message = String::from(
            error_fields
                .str("message")
                .map_err(|e| e.within("/error"))?,
        );
        let data = match error.remove("data") {
            None | Some(Value::Null) => None,
            Some(data) => Some(data),
        };
        Ok(ErrorResponse {
            id,
            code,
            message,
            data,
        })
    }
}

impl Serialize for ErrorResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct ErrorObject<'a>(&'a ErrorResponse);
        impl Serialize for ErrorObject<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let e = self.0;
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("code", &e.code)?;
                map.serialize_entry("message", &e.message)?;
                if let Some(data) = &e.data {
                    map.serialize_entry("data", data)?;
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", VERSION)?;
        if let Some(id) = &self.id {
            map.serialize_entry("id", id)?;
        }
        map.serialize_entry("error", &ErrorObject(self))?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Message, ErrorResponse> {
        Message::parse(text.as_bytes(), &Limits::DEFAULT)
    }

    fn rejected(text: &str) -> String {
        parse(text).unwrap_err().to_json()
    }

    #[test]
    fn classifies_requests_notifications_and_responses() {
        let Ok(Message::Request { id, method, params }) =
            parse(r#"{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":1}}"#)
        else {
            panic!("not a request");
        };
        assert_eq!(id, RpcId::from("a"));
        assert_eq!(method, "m");
        assert_eq!(params.unwrap().get("x").unwrap().as_i64(), Some(1));

        assert!(matches!(
            parse(r#"{"jsonrpc":"2.0","method":"notifications/x"}"#),
            Ok(Message::Notification { params: None, .. })
        ));
        assert!(matches!(
            parse(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Ok(Message::Response(_))
        ));
        // A response is never answered, however malformed.
        assert!(matches!(parse(r#"{"error":5}"#), Ok(Message::Response(_))));
    }

    #[test]
    fn ids_keep_their_spelling() {
        for spelt in ["1.0", "-3", "123456789012345678901234567890", "1e2", "0"] {
            let text = format!(r#"{{"jsonrpc":"2.0","id":{spelt},"method":"m"}}"#);
            let Ok(Message::Request { id, .. }) = parse(&text) else {
                panic!("{spelt} is an id");
            };
            assert_eq!(id.to_json(), spelt);
        }
    }

    #[test]
    fn not_json_is_a_parse_error_without_id() {
        assert_eq!(
            rejected("nope"),
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"the message cannot be read as JSON: expected a JSON value at byte 0"}}"#
        );
        let dup = parse(r#"{"a":1,"a":2}"#).unwrap_err();
        assert_eq!(dup.error_code(), Some(ErrorCode::ParseError));
        assert!(dup.message().ends_with("(at /a)"), "{}", dup.message());
    }

    #[test]
    fn invalid_requests_echo_the_id_only_when_it_is_readable() {
        assert_eq!(
            rejected(r#"{"jsonrpc":"1.0","id":5,"method":"m"}"#),
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"`jsonrpc` must be the string \"2.0\" (at /jsonrpc)"}}"#
        );
        assert_eq!(
            rejected(r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#),
            r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"`id` must be a string or an integer, not 1.5, which has a fractional part (at /id)"}}"#
        );
        for (text, pointer) in [
            (r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, "/id"),
            (r#"{"jsonrpc":"2.0","id":true,"method":"m"}"#, "/id"),
            (r#"{"jsonrpc":"2.0","id":1,"method":7}"#, "/method"),
            (r#"{"jsonrpc":"2.0","id":1}"#, "/method"),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#,
                "/params",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"m","params":null}"#,
                "/params",
            ),
            (r#"[{"jsonrpc":"2.0","id":1,"method":"m"}]"#, ""),
            (r#"{"id":1,"method":"m"}"#, "/jsonrpc"),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.error_code(), Some(ErrorCode::InvalidRequest), "{text}");
            assert_eq!(
                e.message().ends_with(&format!("(at {pointer})")),
                !pointer.is_empty(),
                "{text}: {}",
                e.message()
            );
        }
    }

    #[test]
    fn writes_results_with_the_id_as_spelt() {
        let mut result = Map::new();
        result.insert("action", Value::from("cancel"));
        let id = RpcId::from_value(&Value::Number(Number::from_spelling("1.0").unwrap())).unwrap();
        assert_eq!(
            write_result(&id, &result),
            r#"{"jsonrpc":"2.0","id":1.0,"result":{"action":"cancel"}}"#
        );
    }

    #[test]
    fn reads_error_responses() {
        let e = ErrorResponse::from_json(
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32042,"message":"m","data":{"k":[]}}}"#,
            &Limits::DEFAULT,
        )
        .unwrap();
        assert_eq!(e.id(), None);
        assert_eq!(e.error_code(), Some(ErrorCode::UrlElicitationRequired));
        assert_eq!(
            e.to_json(),
            r#"{"jsonrpc":"2.0","error":{"code":-32042,"message":"m","data":{"k":[]}}}"#
        );
        for (text, pointer) in [
            (r#"{"jsonrpc":"2.0","id":1}"#, "/error"),
            (
                r#"{"jsonrpc":"2.0","error":{"code":1.5,"message":"m"}}"#,
                "/error/code",
            ),
            (r#"{"jsonrpc":"2.0","error":{"code":1}}"#, "/error/message"),
            (
                r#"{"jsonrpc":"2.1","error":{"code":1,"message":"m"}}"#,
                "/jsonrpc",
            ),
            (
                r#"{"jsonrpc":"2.0","id":[],"error":{"code":1,"message":"m"}}"#,
                "/id",
            ),
        ] {
            let err = ErrorResponse::from_json(text.as_bytes(), &Limits::DEFAULT).unwrap_err();
            assert_eq!(err.pointer(), pointer, "{text}");
        }
    }

    #[test]
    fn codes_round_trip() {
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_code(code.code()), Some(code));
        }
        assert_eq!(ErrorCode::from_code(0), None);
    }
}
