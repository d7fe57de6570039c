//! `toolnexus-ffi`: the core's contract and mappings for Kotlin and Swift, through UniFFI.
//!
//! Every function converts and delegates: the core decides. Free-form JSON (a request's
//! `data`, an answer's `data`, a result's `_meta`) crosses the boundary as compact JSON text,
//! which keeps member order and number spelling exactly; elicitation content, which MCP
//! restricts to strings, numbers, booleans and string lists, crosses as typed values.

mod contract;
mod error;
mod limits;
mod mapping;

pub use contract::{
    Action, Answer, ContentEntry, ContentValue, ElicitResult, Reason, Request, answer_from_json,
    answer_from_json_bytes, answer_to_json, elicit_result_from_json, elicit_result_from_json_bytes,
    elicit_result_to_json, request_from_json, request_from_json_bytes, request_to_json,
};
pub use error::{ErrorKind, ToolnexusError, Violation, error_kind_name};
pub use limits::Limits;
pub use mapping::{
    answer_to_elicit_result, elicitation_to_request, elicitation_to_request_bytes, format_id,
};

uniffi::setup_scaffolding!();
