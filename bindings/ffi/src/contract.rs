//! The contract records `Request`, `Answer` and `ElicitResult`, and their exact JSON text.
//!
//! Each record converts to the core's type to be written and from it once read, so the JSON
//! a record gives is the core's, byte for byte.

use toolnexus_core as core;
use toolnexus_core::Action as CoreAction;
use toolnexus_core::json::{SizeBudget, pointer};
use toolnexus_core::{Map, Number, Value};

use crate::error::ToolnexusError;
use crate::json_text::{json_number, read_record_field};
use crate::limits::Limits;
use crate::mirror::mirror_enum;

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

mirror_enum! {
    /// What the person did with an elicitation.
    pub enum Action mirrors CoreAction, else Cancel {
        /// Submitted the form, or consented to open the URL.
        Accept,
        /// Explicitly refused: do not ask again.
        Decline,
        /// Dismissed without choosing: a retry may be fine.
        Cancel,
    }
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
            data: request.data().map(Map::to_json),
            expires_at: request.expires_at().map(Into::into),
        }
    }

    pub(crate) fn to_core(&self) -> Result<core::Request, core::Error> {
        let mut size = RecordSize::new();
        size.member("id", &self.id)?;
        size.member("kind", &self.kind)?;
        size.member("prompt", &self.prompt)?;
        size.optional("url", self.url.as_deref())?;
        size.text("data", self.data.as_deref())?;
        size.optional("expiresAt", self.expires_at.as_deref())?;
        let mut request = core::Request::new(&*self.id, &*self.kind, &*self.prompt)?;
        if let Some(url) = &self.url {
            request = request.with_url(&**url);
        }
        if let Some(data) = &self.data {
            request = request.with_data(read_record_field(data, "data")?);
        }
        if let Some(expires_at) = &self.expires_at {
            request = request.with_expires_at(&**expires_at)?;
        }
        Ok(request)
    }
}

impl Answer {
    pub(crate) fn from_core(answer: &core::Answer) -> Answer {
        Answer {
            id: answer.id().into(),
            ok: answer.ok(),
            data: answer.data().map(Map::to_json),
            reason: answer.reason().map(Reason::from_core),
        }
    }

    pub(crate) fn to_core(&self) -> Result<core::Answer, core::Error> {
        let mut size = RecordSize::new();
        size.member("id", &self.id)?;
        size.text("data", self.data.as_deref())?;
        if let Some(Reason::Other { reason }) = &self.reason {
            size.member("reason", reason)?;
        }
        let mut answer = core::Answer::new(&*self.id, self.ok)?;
        if let Some(data) = &self.data {
            answer = answer.with_data(read_record_field(data, "data")?);
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
            action: Action::from_core(result.action()),
            content: result.content().map(|content| {
                content
                    .iter()
                    .map(|(name, value)| ContentEntry {
                        name: name.into(),
                        value: ContentValue::from_core(value),
                    })
                    .collect()
            }),
            meta: result.meta().map(Map::to_json),
        }
    }

    /// The core's result, read from the members this record gives: the core decides what
    /// each action may carry.
    fn to_core(&self) -> Result<core::ElicitResult, core::Error> {
        let mut map = Map::new();
        map.insert("action", Value::from(self.action.core_name()));
        if let Some(content) = &self.content {
            // The size is the whole record's, as for JSON text: `too_large` stays at `""`.
            let content = entries_to_map(content).map_err(|e| {
                if e.kind() == core::ErrorKind::TooLarge {
                    e
                } else {
                    e.within("/content")
                }
            })?;
            map.insert("content", Value::Object(content));
        }
        if let Some(meta) = &self.meta {
            map.insert("_meta", Value::Object(read_record_field(meta, "_meta")?));
        }
        core::ElicitResult::from_value(Value::Object(map))
    }
}

impl ContentValue {
    pub(crate) fn from_core(value: core::ContentValue<'_>) -> ContentValue {
        match value {
            core::ContentValue::Text(value) => ContentValue::Text {
                value: value.into(),
            },
            core::ContentValue::Number(number) => ContentValue::Number {
                spelling: number.as_str().into(),
            },
            core::ContentValue::Boolean(value) => ContentValue::Boolean { value },
            core::ContentValue::TextList(_) => ContentValue::TextList {
                values: value.strings().into_iter().map(Into::into).collect(),
            },
        }
    }

    /// The JSON value; a number whose spelling is not JSON is an `invalid_value` error.
    pub(crate) fn to_value(&self) -> Result<Value, core::Error> {
        Ok(match self {
            ContentValue::Text { value } => Value::from(value.as_str()),
            ContentValue::Number { spelling } => Value::Number(json_number(spelling)?),
            ContentValue::Boolean { value } => Value::Bool(*value),
            ContentValue::TextList { values } => {
                Value::Array(values.iter().map(|v| Value::from(v.as_str())).collect())
            }
        })
    }
}

/// Entries as a JSON object, in their order; the first fault is an error at `/<name>`: a
/// number whose spelling is not JSON (`invalid_value`), or a name given twice (the core's
/// `duplicate_key`, [`Map::from_entries`]).
pub(crate) fn entries_to_map(entries: &[ContentEntry]) -> Result<Map, core::Error> {
    entries_to_map_within(entries, &core::Limits::DEFAULT)
}

/// [`entries_to_map`], the entries held to `limits` (see [`check_entries`]).
pub(crate) fn entries_to_map_within(
    entries: &[ContentEntry],
    limits: &core::Limits,
) -> Result<Map, core::Error> {
    check_entries(entries, limits)?;
    // The values are converted as the core takes them, so a name given twice before a bad
    // number is reported first, as it comes first.
    let mut bad_value = None;
    let values = entries
        .iter()
        .map_while(|entry| match entry.value.to_value() {
            Ok(value) => Some((entry.name.clone(), value)),
            Err(e) => {
                bad_value = Some(e.within(&pointer::key(&entry.name)));
                None
            }
        });
    let map = Map::from_entries(values)?;
    match bad_value {
        Some(e) => Err(e),
        None => Ok(map),
    }
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

/// The size of a record as the length of its JSON text, held to the default size limit, the
/// bound JSON text of the same record is read within: a record's strings are counted as they
/// are written (with their key and punctuation) before any is copied, so a 50 MB string is
/// `too_large` at `""`, as it is in JSON text.
struct RecordSize(SizeBudget);

impl RecordSize {
    fn new() -> RecordSize {
        RecordSize::within(&core::Limits::DEFAULT)
    }

    fn within(limits: &core::Limits) -> RecordSize {
        // `{}`.
        let mut budget = SizeBudget::new(limits);
        let _ = budget.punctuation(2);
        RecordSize(budget)
    }

    /// A string member: `"key":"value",`.
    fn member(&mut self, key: &str, value: &str) -> Result<(), core::Error> {
        self.0.string(key)?;
        self.0.punctuation(2)?;
        self.0.string(value)
    }

    fn optional(&mut self, key: &str, value: Option<&str>) -> Result<(), core::Error> {
        value.map_or(Ok(()), |v| self.member(key, v))
    }

    /// A member given as JSON text, counted as that text (which is read within the limits
    /// too).
    fn text(&mut self, key: &str, text: Option<&str>) -> Result<(), core::Error> {
        match text {
            Some(text) => {
                self.0.string(key)?;
                self.0.punctuation(2usize.saturating_add(text.len()))
            }
            None => Ok(()),
        }
    }
}

/// Content entries held to `limits`, as JSON text of the same object is read: at most
/// `max_object_members` entries (`too_many_members` at `""`), at most `max_array_items`
/// strings in a list (`too_many_items` at `/<name>`), and the size of the object's JSON text
/// (`too_large` at `""`).
fn check_entries(entries: &[ContentEntry], limits: &core::Limits) -> Result<(), core::Error> {
    limits.check_members(entries.len())?;
    // Counted exactly as the object's compact JSON text, before anything is copied.
    let mut size = SizeBudget::new(limits);
    size.object(entries.len())?;
    for entry in entries {
        size.string(&entry.name)?;
        match &entry.value {
            ContentValue::Text { value } => size.string(value)?,
            ContentValue::Number { spelling } => size.punctuation(spelling.len())?,
            ContentValue::Boolean { value } => size.punctuation(if *value { 4 } else { 5 })?,
            ContentValue::TextList { values } => {
                limits
                    .check_items(values.len())
                    .map_err(|e| e.within(&pointer::key(&entry.name)))?;
                size.array(values.len())?;
                for value in values {
                    size.string(value)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request read within wide limits holds data beyond the defaults; it must write back.
    #[test]
    fn record_fields_read_back_beyond_the_default_limits() {
        let members = (0..1001)
            .map(|i| format!("\"m{i}\":{i}"))
            .collect::<Vec<_>>()
            .join(",");
        let deep = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        let data = format!("{{{members},\"deep\":{deep}}}");
        let json = format!(r#"{{"id":"r","kind":"input","prompt":"?","data":{data}}}"#);
        let wide = Limits {
            max_depth: 512,
            max_object_members: 10_000,
            ..Limits::default()
        };
        let request = request_from_json(json.clone(), Some(wide)).unwrap();
        assert_eq!(request_to_json(&request).unwrap(), json);
        assert_eq!(request.schema_json().unwrap(), None);
    }

    #[test]
    fn content_belongs_only_to_accept() {
        let result = ElicitResult {
            action: Action::Decline,
            content: Some(Vec::new()),
            meta: None,
        };
        let Err(ToolnexusError::Failed { kind, pointer, .. }) = elicit_result_to_json(&result)
        else {
            panic!("content on decline was written");
        };
        assert_eq!(
            (kind, pointer.as_str()),
            (crate::ErrorKind::InvalidValue, "/content")
        );
        let meta = ElicitResult {
            action: Action::Cancel,
            content: None,
            meta: Some("[]".into()),
        };
        let Err(ToolnexusError::Failed { kind, pointer, .. }) = elicit_result_to_json(&meta) else {
            panic!("a `_meta` that is not an object was written");
        };
        assert_eq!(
            (kind, pointer.as_str()),
            (crate::ErrorKind::WrongType, "/_meta")
        );
    }

    #[test]
    fn every_core_action_has_its_case() {
        for action in [CoreAction::Accept, CoreAction::Decline, CoreAction::Cancel] {
            assert_eq!(Action::from_core(action).to_core(), action);
        }
    }

    /// Entries are held to the size limit as exactly as their JSON text is: an object of
    /// every kind of entry fits a limit of its own length, and not one byte less.
    #[test]
    fn entries_fit_the_size_of_their_json_text() {
        let entries = vec![
            ContentEntry {
                name: "t\"".into(),
                value: ContentValue::Text {
                    value: "a\nb".into(),
                },
            },
            ContentEntry {
                name: "n".into(),
                value: ContentValue::Number {
                    spelling: "-1.5e3".into(),
                },
            },
            ContentEntry {
                name: "b".into(),
                value: ContentValue::Boolean { value: false },
            },
            ContentEntry {
                name: "l".into(),
                value: ContentValue::TextList {
                    values: vec!["x".into(), "y".into()],
                },
            },
            ContentEntry {
                name: "e".into(),
                value: ContentValue::TextList { values: vec![] },
            },
        ];
        let text = entries_to_map(&entries).unwrap().to_json();
        let fits = core::Limits::DEFAULT.with_max_input_bytes(text.len());
        assert!(entries_to_map_within(&entries, &fits).is_ok(), "{text}");
        let short = core::Limits::DEFAULT.with_max_input_bytes(text.len() - 1);
        let refused = entries_to_map_within(&entries, &short).unwrap_err();
        assert_eq!(refused.kind(), core::ErrorKind::TooLarge);
    }
}
