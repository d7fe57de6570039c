//! MCP `ElicitResult`: the client's reply to `elicitation/create`.

use alloc::format;
use alloc::string::String;

use serde::{Serialize, Serializer};

use crate::content::Content;
use crate::error::{Error, ErrorKind, closed_set};
use crate::json;
use crate::json::Limits;
use crate::json::fields::{Fields, into_object, take_object};
use crate::json::{Map, Value};

closed_set! {
    /// What the person did with an elicitation, as written on the wire.
    pub enum Action {
    /// Submitted the form, or consented to open the URL (`"accept"`).
    Accept => "accept",
    /// Explicitly refused (`"decline"`): do not ask again.
    Decline => "decline",
    /// Dismissed without choosing (`"cancel"`): a retry may be fine.
    Cancel => "cancel",
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// MCP `ElicitResult`: `{action, content?, _meta?}`.
///
/// `content` exists only with [`Action::Accept`]; on decline and cancel it is absent from the
/// JSON, never `null`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ElicitResult {
    action: Action,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<Content>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<Map>,
}

impl ElicitResult {
    /// An accept carrying `content` (a form), or none (a URL-mode consent).
    pub fn accept(content: Option<Content>) -> ElicitResult {
        ElicitResult {
            action: Action::Accept,
            content,
            meta: None,
        }
    }

    /// A decline.
    pub fn decline() -> ElicitResult {
        ElicitResult {
            action: Action::Decline,
            content: None,
            meta: None,
        }
    }

    /// A cancel.
    pub fn cancel() -> ElicitResult {
        ElicitResult {
            action: Action::Cancel,
            content: None,
            meta: None,
        }
    }

    /// This result with `_meta` set.
    #[must_use]
    pub fn with_meta(mut self, meta: Map) -> ElicitResult {
        self.meta = Some(meta);
        self
    }

    /// What the person did.
    pub fn action(&self) -> Action {
        self.action
    }

    /// What the person entered, for an accepted form.
    pub fn content(&self) -> Option<&Content> {
        self.content.as_ref()
    }

    /// The `_meta` object, if any.
    pub fn meta(&self) -> Option<&Map> {
        self.meta.as_ref()
    }

    /// Reads a result from JSON text within `limits`.
    pub fn from_json(input: &[u8], limits: &Limits) -> Result<ElicitResult, Error> {
        ElicitResult::from_value(json::parse(input, limits)?)
    }

    /// Reads a result from a JSON value. Unknown keys are refused, and so is `content` with an
    /// action other than accept.
    pub fn from_value(value: Value) -> Result<ElicitResult, Error> {
        let mut map = into_object(value, "an ElicitResult")?;
        let fields = Fields::new(&map);
        fields.deny_unknown(&["action", "content", "_meta"], "an ElicitResult")?;
        let action_text = fields.str("action")?;
        let action = Action::from_name(action_text).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidValue,
                "/action",
                format!("`action` must be accept, decline or cancel, not {action_text:?}"),
            )
        })?;
        if fields.opt_object("content")?.is_some() && action != Action::Accept {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "/content",
                format!("`content` belongs only to accept, not {}", action.as_str()),
            ));
        }
        fields.opt_object("_meta")?;
        let content = take_object(&mut map, "content")
            .map(|content| Content::from_map(content).map_err(|e| e.within("/content")))
            .transpose()?;
        let meta = take_object(&mut map, "_meta");
        Ok(ElicitResult {
            action,
            content,
            meta,
        })
    }

    /// The result as compact JSON with the pinned key order.
    pub fn to_json(&self) -> String {
        crate::json::write::to_json(self)
    }
}
