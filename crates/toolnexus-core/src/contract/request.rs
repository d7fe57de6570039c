//! `Request`: what a suspended tool call asks its host to resolve.

use alloc::format;
use alloc::string::String;

use serde::Serialize;

use crate::json::write::ObjectWriter;
use crate::json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::json;
use crate::json::Limits;
use crate::json::fields::{Fields, into_object, non_empty, take_object};
use crate::rfc3339;

/// A suspension the host resolves into an [`Answer`](crate::Answer): `{id, kind, prompt, url?,
/// data?, expiresAt?}`, with exactly those JSON keys in that order and absent optionals omitted.
///
/// `kind` is an open vocabulary: the elicitation bridge makes `"input"` (a form, its schema in
/// `data.schema`) and `"authorization"` (a URL to open); other suspension sources use others
/// (`"approval"`, `"question"`, …). `data` is a free-form JSON object that keeps its member
/// order and number spelling. `expiresAt` is an RFC 3339 date-time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Request {
    id: String,
    kind: String,
    prompt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Map>,
    #[serde(rename = "expiresAt", skip_serializing_if = "Option::is_none")]
    expires_at: Option<String>,
}

/// The JSON keys of a [`Request`], in their pinned order.
const KEYS: [&str; 6] = ["id", "kind", "prompt", "url", "data", "expiresAt"];

impl Request {
    /// The kind the bridge gives a form-mode elicitation.
    pub const KIND_INPUT: &'static str = "input";
    /// The kind the bridge gives a URL-mode elicitation.
    pub const KIND_AUTHORIZATION: &'static str = "authorization";

    /// A request with no url, data or expiry. `id` and `kind` must not be empty.
    pub fn new(
        id: impl Into<String>,
        kind: impl Into<String>,
        prompt: impl Into<String>,
    ) -> Result<Request, Error> {
        let id = id.into();
        let kind = kind.into();
        non_empty("id", &id)?;
        non_empty("kind", &kind)?;
        Ok(Request {
            id,
            kind,
            prompt: prompt.into(),
            url: None,
            data: None,
            expires_at: None,
        })
    }

    /// This request with `url` set.
    #[must_use]
    pub fn with_url(mut self, url: impl Into<String>) -> Request {
        self.url = Some(url.into());
        self
    }

    /// This request with `data` set.
    #[must_use]
    pub fn with_data(mut self, data: Map) -> Request {
        self.data = Some(data);
        self
    }

    /// This request with `expiresAt` set; it must be an RFC 3339 date-time.
    pub fn with_expires_at(mut self, expires_at: impl Into<String>) -> Result<Request, Error> {
        let expires_at = expires_at.into();
        check_expires_at(&expires_at)?;
        self.expires_at = Some(expires_at);
        Ok(self)
    }

    /// The correlation key: unique per suspension, echoed by the [`Answer`](crate::Answer).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// What sort of resolution is asked for (`"input"`, `"authorization"`, …).
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// What is being asked, in human words.
    pub fn prompt(&self) -> &str {
        &self.prompt
    }

    /// The link where the action happens, if any.
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// Kind-specific extra data, if any (for `"input"`, the form schema under `schema`).
    pub fn data(&self) -> Option<&Map> {
        self.data.as_ref()
    }

    /// The form schema carried in `data.schema`, if there is one.
    pub fn schema(&self) -> Option<&Map> {
        self.data.as_ref()?.get("schema")?.as_object()
    }

    /// When the request goes stale (RFC 3339), if it does.
    pub fn expires_at(&self) -> Option<&str> {
        self.expires_at.as_deref()
    }

    /// Reads a request from JSON text within `limits`.
    pub fn from_json(input: &[u8], limits: &Limits) -> Result<Request, Error> {
        Request::from_value(json::parse(input, limits)?)
    }

    /// Reads a request from a JSON value. Unknown keys are refused: the keys are pinned.
    pub fn from_value(value: Value) -> Result<Request, Error> {
        let mut map = into_object(value, "a Request")?;
        let fields = Fields::new(&map);
        fields.deny_unknown(&KEYS, "a Request")?;
        let mut request = Request::new(
            fields.non_empty_str("id")?,
            fields.non_empty_str("kind")?,
            fields.str("prompt")?,
        )?;
        request.url = fields.opt_str("url")?.map(String::from);
        fields.opt_object("data")?;
        if let Some(at) = fields.opt_str("expiresAt")? {
            check_expires_at(at)?;
            request.expires_at = Some(at.into());
        }
        request.data = take_object(&mut map, "data");
        Ok(request)
    }

    /// The request as compact JSON with the pinned key order.
    pub fn to_json(&self) -> String {
        let mut object = ObjectWriter::new();
        object.str("id", &self.id);
        object.str("kind", &self.kind);
        object.str("prompt", &self.prompt);
        object.opt_str("url", self.url.as_deref());
        object.opt_map("data", self.data.as_ref());
        object.opt_str("expiresAt", self.expires_at.as_deref());
        object.finish()
    }
}

fn check_expires_at(at: &str) -> Result<(), Error> {
    if rfc3339::is_date_time(at) {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::InvalidValue,
            "/expiresAt",
            format!("`expiresAt` must be an RFC 3339 date-time with an offset, not {at:?}"),
        ))
    }
}
