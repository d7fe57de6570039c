//! `Answer`: how a host resolved a [`Request`](crate::Request).

use alloc::string::String;

use serde::{Serialize, Serializer};

use crate::error::Error;
use crate::json;
use crate::json::Limits;
use crate::json::fields::{Fields, into_object, non_empty, take_object};
use crate::json::{Map, Text, Value};

/// Why a request was not satisfied. Advisory: only `ok` decides; an unknown reason is kept as
/// it was written, never refused.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The person explicitly said no (`"declined"`): MCP `decline`.
    Declined,
    /// The request was dismissed (`"cancelled"`): MCP `cancel`.
    Cancelled,
    /// The request went stale (`"expired"`): MCP `cancel`.
    Expired,
    /// Any other reason, kept verbatim: MCP `cancel`.
    Other(String),
}

impl Reason {
    /// The reason as written on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            Reason::Declined => "declined",
            Reason::Cancelled => "cancelled",
            Reason::Expired => "expired",
            Reason::Other(s) => s,
        }
    }

    /// The reason written `s`.
    pub fn parse(s: &str) -> Reason {
        match s {
            "declined" => Reason::Declined,
            "cancelled" => Reason::Cancelled,
            "expired" => Reason::Expired,
            other => Reason::Other(other.into()),
        }
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The resolution of a [`Request`](crate::Request): `{id, ok, data?, reason?}`, with exactly
/// those JSON keys in that order and absent optionals omitted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    id: Text,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Map>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<Reason>,
}

/// The JSON keys of an [`Answer`], in their pinned order.
const KEYS: [&str; 4] = ["id", "ok", "data", "reason"];

impl Answer {
    /// An answer with no data and no reason. `id` must not be empty.
    pub fn new(id: impl Into<Text>, ok: bool) -> Result<Answer, Error> {
        let id = id.into();
        non_empty("id", &id)?;
        Ok(Answer {
            id,
            ok,
            data: None,
            reason: None,
        })
    }

    /// A satisfied answer carrying `data`.
    pub fn accept(id: impl Into<Text>, data: Map) -> Result<Answer, Error> {
        Ok(Answer::new(id, true)?.with_data(data))
    }

    /// An unsatisfied answer for `reason`.
    pub fn refuse(id: impl Into<Text>, reason: Reason) -> Result<Answer, Error> {
        Ok(Answer::new(id, false)?.with_reason(reason))
    }

    /// This answer with `data` set.
    #[must_use]
    pub fn with_data(mut self, data: Map) -> Answer {
        self.data = Some(data);
        self
    }

    /// This answer with `reason` set.
    #[must_use]
    pub fn with_reason(mut self, reason: Reason) -> Answer {
        self.reason = Some(reason);
        self
    }

    /// The id of the request this answers.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether the request was satisfied.
    pub fn ok(&self) -> bool {
        self.ok
    }

    /// The payload (for `"input"`, what the person entered), if any.
    pub fn data(&self) -> Option<&Map> {
        self.data.as_ref()
    }

    /// Why the request was not satisfied, if said.
    pub fn reason(&self) -> Option<&Reason> {
        self.reason.as_ref()
    }

    /// Reads an answer from JSON text within `limits`.
    pub fn from_json(input: &[u8], limits: &Limits) -> Result<Answer, Error> {
        Answer::from_value(json::parse(input, limits)?)
    }

    /// Reads an answer from a JSON value. Unknown keys are refused: the keys are pinned, and a
    /// misspelt `reason` must not silently turn a decline into a cancel.
    pub fn from_value(value: Value) -> Result<Answer, Error> {
        let mut map = into_object(value, "an Answer")?;
        let fields = Fields::new(&map);
        fields.deny_unknown(&KEYS, "an Answer")?;
        let mut answer = Answer::new(fields.non_empty_str("id")?, fields.bool("ok")?)?;
        fields.opt_object("data")?;
        answer.reason = fields.opt_str("reason")?.map(Reason::parse);
        answer.data = take_object(&mut map, "data");
        Ok(answer)
    }

    /// The answer as compact JSON with the pinned key order.
    pub fn to_json(&self) -> String {
        crate::json::write::to_json(self)
    }
}
