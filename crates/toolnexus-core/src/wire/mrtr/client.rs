//! The client's JSON-RPC request as MCP 2026-07-28 reads it, and the capabilities stamped on it.

use alloc::string::String;

use crate::error::Error;
use crate::json;
use crate::json::Limits;
use crate::json::fields::{Fields, into_object};
use crate::json::{Map, Text, Value};
use crate::mcp::Modes;
use crate::wire::rpc::{self, RpcId};

use super::CLIENT_CAPABILITIES_KEY;

/// A JSON-RPC request the client sends: `{"jsonrpc": "2.0", "id", "method", "params"?}`.
///
/// Every member is kept as received, in its order and with numbers as spelt, so that a retry
/// or a capability stamp changes only what it must.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientRequest {
    message: Map,
    id: RpcId,
    method: String,
}

impl ClientRequest {
    /// Reads a request from JSON text within `limits`.
    pub fn from_json(input: &[u8], limits: &Limits) -> Result<ClientRequest, Error> {
        ClientRequest::from_value(json::parse(input, limits)?)
    }

    /// Reads a request from a JSON value.
    ///
    /// Refused: a `jsonrpc` other than `"2.0"`; an `id` that is absent or not a string or an
    /// integer; an absent or empty `method`; `params` that is not an object (MCP names its
    /// parameters); a `params._meta`, or the capabilities inside it, that is not an object.
    pub fn from_value(value: Value) -> Result<ClientRequest, Error> {
        let message = into_object(value, "a JSON-RPC request")?;
        let fields = Fields::new(&message);
        rpc::check_version(&fields)?;
        let id = rpc::required_id(&fields)?;
        let method = String::from(fields.non_empty_str("method")?);
        if let Some(params) = fields.opt_object("params")? {
            check_capabilities_slot(params).map_err(|e| e.within("/params"))?;
        }
        Ok(ClientRequest {
            message,
            id,
            method,
        })
    }

    /// The JSON-RPC id, as received.
    pub fn id(&self) -> &RpcId {
        &self.id
    }

    /// The method (`tools/call`, `prompts/get`, …).
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The params, if there are any.
    pub fn params(&self) -> Option<&Map> {
        self.message.get("params").and_then(Value::as_object)
    }

    /// The request with its capabilities stamped: see [`with_client_capabilities`].
    #[must_use]
    pub fn with_client_capabilities(mut self, modes: Modes) -> ClientRequest {
        edit_params(&mut self.message, |params| {
            stamp_capabilities(params, modes)
        });
        self
    }

    /// The request's members, in the order received.
    pub(super) fn message(&self) -> &Map {
        &self.message
    }

    /// The request as compact JSON, members in the order received.
    pub fn to_json(&self) -> String {
        Value::Object(self.message.clone()).to_json()
    }
}

/// Refuses params whose `_meta`, or the capabilities in it, could not take a stamp.
fn check_capabilities_slot(params: &Map) -> Result<(), Error> {
    let Some(meta) = Fields::new(params).opt_object("_meta")? else {
        return Ok(());
    };
    Fields::new(meta)
        .opt_object(CLIENT_CAPABILITIES_KEY)
        .map(|_| ())
        .map_err(|e| e.within("/_meta"))
}

/// Stamps the `elicitation` capability for `modes` onto a JSON-RPC request given as text:
/// `params._meta["io.modelcontextprotocol/clientCapabilities"].elicitation` becomes
/// `{"form": {}, "url": {}}` with a member for each supported mode, or is removed when no
/// mode is (a client that declares `elicitation` must support a mode).
///
/// Every other capability and every other `_meta` member stays as it was, in its place.
/// Absent `params`, `_meta` or capabilities are created; a created `_meta` comes first in
/// `params`. The request is read as [`ClientRequest::from_json`] reads it, with its errors.
pub fn with_client_capabilities(
    request: &[u8],
    modes: Modes,
    limits: &Limits,
) -> Result<String, Error> {
    Ok(ClientRequest::from_json(request, limits)?
        .with_client_capabilities(modes)
        .to_json())
}

/// Applies `edit` to the request's params, creating them when absent (or `null`).
pub(super) fn edit_params(message: &mut Map, edit: impl FnOnce(&mut Map)) {
    edit_object_member(message, "params", edit);
}

/// Applies `edit` to the object member `key` of `map`, in its place; a missing (or `null`)
/// member is created last. Readers have refused members of other types already.
fn edit_object_member(map: &mut Map, key: &str, edit: impl FnOnce(&mut Map)) {
    let mut inner = match map.get_mut(key) {
        Some(Value::Object(m)) => core::mem::take(m),
        _ => Map::new(),
    };
    edit(&mut inner);
    map.insert(key, Value::Object(inner));
}

pub(super) fn stamp_capabilities(params: &mut Map, modes: Modes) {
    if !matches!(params.get("_meta"), Some(Value::Object(_))) {
        // The specification writes `_meta` first; a created one goes there too.
        let rest = core::mem::take(params);
        *params = core::iter::once((Text::from("_meta"), Value::Object(Map::new())))
            .chain(rest.into_iter().filter(|(k, _)| k != "_meta"))
            .collect();
    }
    edit_object_member(params, "_meta", |meta| {
        edit_object_member(meta, CLIENT_CAPABILITIES_KEY, |caps| {
            match modes.to_value() {
                Some(elicitation) => {
                    caps.insert("elicitation", elicitation);
                }
                None => {
                    caps.remove("elicitation");
                }
            }
        });
    });
}
