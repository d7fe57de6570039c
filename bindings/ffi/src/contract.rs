//! The contract records `Request`, `Answer` and `ElicitResult`, and their exact JSON text.
//!
//! Each record converts to the core's type to be written and from it once read, so the JSON
//! a record gives is the core's, byte for byte.

use toolnexus_core as core;
use toolnexus_core::{Map, Number, Value};

use crate::error::ToolnexusError;
use crate::limits::Limits;

/// A suspension the host resolves into an [`Answer`]: `{id, kind, prompt, url?, data?,
/// expiresAt?}`.
///
/// `kind` is `"input"` for a form (its schema in `data.schema`), `"authorization"` for a URL
/// to open, or another suspension source's own kind.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Request {
    /// The request's id, never empty.
    pub id: String,
    /// What is asked: `"input"`, `"authorization"`, or another non-empty kind.
    pub kind: String,
    /// The text shown to the person.
    pub prompt: String,
    /// The URL to open, for `"authorization"`.
    #[uniffi(default = None)]
    pub url: Option<String>,
    /// Free-form data as compact JSON text of an object (for `"input"`, `{"schema": …}`).
    #[uniffi(default = None)]
    pub data: Option<String>,
    /// When the request goes stale: an RFC 3339 date-time.
    #[uniffi(default = None)]
    pub expires_at: Option<String>,
}

/// Why an [`Answer`] did not satisfy its request. Advisory: only `ok` decides.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum Reason {
    /// The person explicitly said no: MCP `decline`.
    Declined,
    /// The request was dismissed: MCP `cancel`.
    Cancelled,
    /// The request went stale: MCP `cancel`.
    Expired,
    /// Any other reason, kept as written: MCP `cancel`.
    Other {
        /// The reason as written.
        reason: String,
    },
}

/// How a host resolved a [`Request`]: `{id, ok, data?, reason?}`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Answer {
    /// The id of the request this resolves.
    pub id: String,
    /// Whether the request was satisfied.
    pub ok: bool,
    /// Free-form data as compact JSON text of an object (for a form, what was entered).
    #[uniffi(default = None)]
    pub data: Option<String>,
    /// Why the request was not satisfied.
    #[uniffi(default = None)]
    pub reason: Option<Reason>,
}

/// What the person did with an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Action {
    /// Submitted the form, or consented to open the URL.
    Accept,
    /// Explicitly refused: do not ask again.
    Decline,
    /// Dismissed without choosing: a retry may be fine.
    Cancel,
}

/// One value of elicitation content, as MCP allows it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ContentValue {
    /// A string.
    Text {
        /// The string.
        value: String,
    },
    /// A number, spelt exactly as it was written (`1e2` stays `1e2`).
    Number {
        /// The JSON spelling of the number.
        spelling: String,
    },
    /// A boolean.
    Boolean {
        /// The boolean.
        value: bool,
    },
    /// A list of strings (a multi-select).
    TextList {
        /// The strings, in order.
        values: Vec<String>,
    },
}

#[uniffi::export]
impl ContentValue {
    /// A number's value as a double (the nearest one; infinite when out of range), or `null`
    /// for any other value.
    pub fn as_double(&self) -> Option<f64> {
        match self {
            ContentValue::Number { spelling } => {
                Number::from_spelling(spelling).and_then(|n| n.as_f64())
            }
            _ => None,
        }
    }
}

/// One named value of accepted content; content is a list so it keeps its order.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ContentEntry {
    /// The property name.
    pub name: String,
    /// What was entered.
    pub value: ContentValue,
}

/// MCP `ElicitResult`: `{action, content?, _meta?}`; `content` belongs only to accept.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ElicitResult {
    /// What the person did.
    pub action: Action,
    /// What the person entered, for an accepted form.
    #[uniffi(default = None)]
    pub content: Option<Vec<ContentEntry>>,
    /// The `_meta` object as compact JSON text.
    #[uniffi(default = None)]
    pub meta: Option<String>,
}

/// Reads a request from JSON text.
#[uniffi::export(default(limits = None))]
pub fn request_from_json(json: String, limits: Option<Limits>) -> Result<Request, ToolnexusError> {
    request_from_json_bytes(json.into_bytes(), limits)
}

/// Reads a request from JSON bytes (UTF-8 required).
#[uniffi::export(default(limits = None))]
pub fn request_from_json_bytes(
    json: Vec<u8>,
    limits: Option<Limits>,
) -> Result<Request, ToolnexusError> {
    let request = core::Request::from_json(&json, &Limits::or_default(limits))?;
    Ok(Request::from_core(&request))
}

/// The request as compact JSON with the pinned key order.
#[uniffi::export]
pub fn request_to_json(request: &Request) -> Result<String, ToolnexusError> {
    Ok(request.to_core()?.to_json())
}

/// Reads an answer from JSON text.
#[uniffi::export(default(limits = None))]
pub fn answer_from_json(json: String, limits: Option<Limits>) -> Result<Answer, ToolnexusError> {
    answer_from_json_bytes(json.into_bytes(), limits)
}

/// Reads an answer from JSON bytes (UTF-8 required).
#[uniffi::export(default(limits = None))]
pub fn answer_from_json_bytes(
    json: Vec<u8>,
    limits: Option<Limits>,
) -> Result<Answer, ToolnexusError> {
    let answer = core::Answer::from_json(&json, &Limits::or_default(limits))?;
    Ok(Answer::from_core(&answer))
}

/// The answer as compact JSON with the pinned key order.
#[uniffi::export]
pub fn answer_to_json(answer: &Answer) -> Result<String, ToolnexusError> {
    Ok(answer.to_core()?.to_json())
}

/// Reads an MCP `ElicitResult` from JSON text.
#[uniffi::export(default(limits = None))]
pub fn elicit_result_from_json(
    json: String,
    limits: Option<Limits>,
) -> Result<ElicitResult, ToolnexusError> {
    elicit_result_from_json_bytes(json.into_bytes(), limits)
}

/// Reads an MCP `ElicitResult` from JSON bytes (UTF-8 required).
#[uniffi::export(default(limits = None))]
pub fn elicit_result_from_json_bytes(
    json: Vec<u8>,
    limits: Option<Limits>,
) -> Result<ElicitResult, ToolnexusError> {
    let result = core::ElicitResult::from_json(&json, &Limits::or_default(limits))?;
    Ok(ElicitResult::from_core(&result))
}

/// The result as compact JSON with the pinned key order.
#[uniffi::export]
pub fn elicit_result_to_json(result: &ElicitResult) -> Result<String, ToolnexusError> {
    Ok(result.to_core()?.to_json())
}

impl Request {
    pub(crate) fn from_core(request: &core::Request) -> Request {
        Request {
            id: request.id().into(),
            kind: request.kind().into(),
            prompt: request.prompt().into(),
            url: request.url().map(Into::into),
            data: request.data().map(object_json),
            expires_at: request.expires_at().map(Into::into),
        }
    }

    fn to_core(&self) -> Result<core::Request, core::Error> {
        let mut request = core::Request::new(&*self.id, &*self.kind, &*self.prompt)?;
        if let Some(url) = &self.url {
            request = request.with_url(&**url);
        }
        if let Some(data) = &self.data {
            request = request.with_data(read_object(data, "/data")?);
        }
        if let Some(expires_at) = &self.expires_at {
            request = request.with_expires_at(&**expires_at)?;
        }
        Ok(request)
    }
}

impl Answer {
    fn from_core(answer: &core::Answer) -> Answer {
        Answer {
            id: answer.id().into(),
            ok: answer.ok(),
            data: answer.data().map(object_json),
            reason: answer.reason().map(Reason::from_core),
        }
    }

    pub(crate) fn to_core(&self) -> Result<core::Answer, core::Error> {
        let mut answer = core::Answer::new(&*self.id, self.ok)?;
        if let Some(data) = &self.data {
            answer = answer.with_data(read_object(data, "/data")?);
        }
        if let Some(reason) = &self.reason {
            answer = answer.with_reason(reason.to_core());
        }
        Ok(answer)
    }
}

impl Reason {
    fn from_core(reason: &core::Reason) -> Reason {
        match reason {
            core::Reason::Declined => Reason::Declined,
            core::Reason::Cancelled => Reason::Cancelled,
            core::Reason::Expired => Reason::Expired,
            core::Reason::Other(reason) => Reason::Other {
                reason: reason.clone(),
            },
        }
    }

    fn to_core(&self) -> core::Reason {
        match self {
            Reason::Declined => core::Reason::Declined,
            Reason::Cancelled => core::Reason::Cancelled,
            Reason::Expired => core::Reason::Expired,
            Reason::Other { reason } => core::Reason::Other(reason.clone()),
        }
    }
}

impl ElicitResult {
    pub(crate) fn from_core(result: &core::ElicitResult) -> ElicitResult {
        ElicitResult {
            action: match result.action() {
                core::Action::Accept => Action::Accept,
                core::Action::Decline => Action::Decline,
                core::Action::Cancel => Action::Cancel,
            },
            content: result.content().map(|content| {
                content
                    .iter()
                    .map(|(name, value)| ContentEntry {
                        name: name.into(),
                        value: ContentValue::from_core(value),
                    })
                    .collect()
            }),
            meta: result.meta().map(object_json),
        }
    }

    fn to_core(&self) -> Result<core::ElicitResult, core::Error> {
        let result = match (self.action, &self.content) {
            (Action::Accept, content) => {
                core::ElicitResult::accept(content.as_deref().map(content_to_core).transpose()?)
            }
            (action, Some(_)) => {
                return Err(core::Error::new(
                    core::ErrorKind::InvalidValue,
                    "/content",
                    format!(
                        "`content` belongs only to accept, not {}",
                        match action {
                            Action::Decline => "decline",
                            _ => "cancel",
                        }
                    ),
                ));
            }
            (Action::Decline, None) => core::ElicitResult::decline(),
            (Action::Cancel, None) => core::ElicitResult::cancel(),
        };
        match &self.meta {
            Some(meta) => Ok(result.with_meta(read_object(meta, "/_meta")?)),
            None => Ok(result),
        }
    }
}

impl ContentValue {
    pub(crate) fn from_core(value: core::ContentValue<'_>) -> ContentValue {
        match value {
            core::ContentValue::String(value) => ContentValue::Text {
                value: value.into(),
            },
            core::ContentValue::Number(number) => ContentValue::Number {
                spelling: number.as_str().into(),
            },
            core::ContentValue::Bool(value) => ContentValue::Boolean { value },
            core::ContentValue::StringList(_) => ContentValue::TextList {
                values: value.strings().into_iter().map(Into::into).collect(),
            },
        }
    }

    /// The JSON value; a number whose spelling is not JSON is an `invalid_value` error.
    pub(crate) fn to_value(&self) -> Result<Value, core::Error> {
        Ok(match self {
            ContentValue::Text { value } => Value::String(value.clone()),
            ContentValue::Number { spelling } => {
                Value::Number(Number::from_spelling(spelling).ok_or_else(|| {
                    core::Error::new(
                        core::ErrorKind::InvalidValue,
                        "",
                        format!("{spelling:?} is not a JSON number"),
                    )
                })?)
            }
            ContentValue::Boolean { value } => Value::Bool(*value),
            ContentValue::TextList { values } => {
                Value::Array(values.iter().cloned().map(Value::String).collect())
            }
        })
    }
}

/// The core's content from entries, errors located at `/content/<name>`.
fn content_to_core(entries: &[ContentEntry]) -> Result<core::Content, core::Error> {
    let map = entries_to_map(entries).map_err(|e| e.within("/content"))?;
    core::Content::from_map(map).map_err(|e| e.within("/content"))
}

/// Entries as a JSON object, in their order; errors are located at `/<name>`: a number whose
/// spelling is not JSON (`invalid_value`), a name given twice (`duplicate_key`).
pub(crate) fn entries_to_map(entries: &[ContentEntry]) -> Result<Map, core::Error> {
    let mut map = Map::new();
    for entry in entries {
        let at = format!("/{}", escape_key(&entry.name));
        let value = entry.value.to_value().map_err(|e| e.within(&at))?;
        if map.insert(entry.name.clone(), value).is_some() {
            return Err(core::Error::new(
                core::ErrorKind::DuplicateKey,
                at,
                format!("content names {:?} twice", entry.name),
            ));
        }
    }
    Ok(map)
}

/// A JSON object as entries; a value that is not content is a `wrong_type` error at
/// `/<name>`.
pub(crate) fn entries_from_map(map: Map) -> Result<Vec<ContentEntry>, core::Error> {
    let content = core::Content::from_map(map)?;
    Ok(content
        .iter()
        .map(|(name, value)| ContentEntry {
            name: name.into(),
            value: ContentValue::from_core(value),
        })
        .collect())
}

/// `key` as one RFC 6901 reference token.
pub(crate) fn escape_key(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn object_json(map: &Map) -> String {
    Value::Object(map.clone()).to_json()
}

/// Reads the JSON text of a record field that must hold an object; errors are located at
/// `field` (e.g. `/data`).
fn read_object(text: &str, field: &str) -> Result<Map, core::Error> {
    match core::json::parse_str(text, &core::Limits::DEFAULT).map_err(|e| e.within(field))? {
        Value::Object(map) => Ok(map),
        other => Err(core::Error::new(
            core::ErrorKind::WrongType,
            field,
            format!("must be a JSON object, not {}", other.type_name()),
        )),
    }
}
