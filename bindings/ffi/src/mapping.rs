//! The two mappings between MCP elicitation and the contract, and request ids.

use toolnexus_core as core;

use crate::contract::{Answer, ElicitResult, Request};
use crate::error::ToolnexusError;
use crate::limits::Limits;

/// Maps the JSON parameters of an MCP `elicitation/create` onto a [`Request`].
///
/// Form mode becomes `kind = "input"` with the `requestedSchema` exactly as received in
/// `data.schema`; URL mode becomes `kind = "authorization"` with `url` set and no `data`;
/// `message` becomes `prompt`. Without `id`, a fresh `elc-<hex ms>-<seq>` id is made.
#[uniffi::export(default(id = None, limits = None))]
pub fn elicitation_to_request(
    params_json: String,
    id: Option<String>,
    limits: Option<Limits>,
) -> Result<Request, ToolnexusError> {
    elicitation_to_request_bytes(params_json.into_bytes(), id, limits)
}

/// [`elicitation_to_request`] for JSON bytes (UTF-8 required).
#[uniffi::export(default(id = None, limits = None))]
pub fn elicitation_to_request_bytes(
    params_json: Vec<u8>,
    id: Option<String>,
    limits: Option<Limits>,
) -> Result<Request, ToolnexusError> {
    let params = core::ElicitRequestParams::from_json(&params_json, &Limits::or_default(limits))?;
    let id = id.unwrap_or_else(core::id::next_id);
    // The params were read for this call alone: the request takes their schema over.
    let request = core::elicitation_into_request(params, &id)?;
    Ok(Request::from_core(&request))
}

/// Maps a resolved [`Answer`] onto MCP's [`ElicitResult`].
///
/// `ok` becomes accept with `content` from `data` (no data: empty content); not `ok` with
/// reason `Declined` becomes decline; any other or no reason becomes cancel. On accept every
/// data value must be a string, number, boolean or list of strings (`WrongType` at
/// `/data/<name>` otherwise).
#[uniffi::export]
pub fn answer_to_elicit_result(answer: &Answer) -> Result<ElicitResult, ToolnexusError> {
    let result = core::answer_to_elicit_result(&answer.to_core()?)?;
    Ok(ElicitResult::from_core(&result))
}

/// A request id `elc-<unix_ms in lower hex>-<sequence in decimal>`.
#[uniffi::export]
pub fn format_id(unix_ms: u64, sequence: u64) -> String {
    core::id::format_id(unix_ms, sequence).as_str().into()
}
