//! `toolnexus-ffi`: the whole core for Kotlin and Swift, through UniFFI.
//!
//! Every function converts and delegates: the core decides. Free-form JSON (a request's
//! `data`, an answer's `data`, a result's `_meta`) crosses the boundary as compact JSON text,
//! which keeps member order and number spelling exactly; elicitation content, which MCP
//! restricts to strings, numbers, booleans and string lists, crosses as typed values.
//!
//! Nothing here panics on any input: the workspace lints hold the crate to the core's rules, and
//! the objects' locks recover from poisoning instead of unwrapping it.

mod auth;
mod check;
mod content;
mod contract;
mod error;
mod form;
mod html;
mod json_text;
mod limits;
mod mapping;
mod mirror;
mod mrtr;
mod reverse;
mod screen;
mod secrets;
mod session;
mod shared;
mod task;
mod terminal;
mod url_review;

pub use auth::{
    AuthBegun, AuthConfig, AuthDecision, AuthError, AuthErrorKind, AuthFlow, AuthPolicy, AuthStep,
    Authorize, Challenge, DeviceCode, DpopUse, Fetch, Grant, GrantKind, HttpHeader,
    parse_challenge, refresh_auth_flow, refresh_auth_flow_untimed, start_auth_flow,
};
pub use check::{SchemaProblem, SchemaProblemKind, check_schema, schema_problems_to_json};
pub use content::{
    apply_defaults, apply_defaults_entries, content_from_json, content_to_json,
    content_value_from_json, content_value_to_json, prepare_content, prepare_content_entries,
    validate_content, validate_content_entries, violations_to_json,
};
pub use contract::{
    Action, Answer, ContentEntry, ContentValue, ElicitResult, Reason, Request, answer_from_json,
    answer_from_json_bytes, answer_to_json, elicit_result_from_json, elicit_result_from_json_bytes,
    elicit_result_to_json, request_from_json, request_from_json_bytes, request_to_json,
};
pub use error::{ErrorKind, ToolnexusError, Violation};
pub use form::{Constraints, FieldOption, Form, FormField, Widget, form_fields};
pub use html::{
    FormPair, FormPost, HtmlOptions, answer_from_post, form_html, html_stylesheet, request_html,
};
pub use json_text::{compact_json, compact_json_bytes};
pub use limits::Limits;
pub use mapping::{
    answer_to_elicit_result, elicitation_to_request, elicitation_to_request_bytes, format_id,
};
pub use mrtr::{
    ClientRequest, InputRequest, InputRequired, InputRound, KeyedRequest, KeyedResult,
    ServerResult, classify_result, with_client_capabilities,
};
pub use reverse::{
    IgnoreReason, Incoming, PendingElicitation, ReverseBridge, RpcId, rpc_id_to_json,
};
pub use screen::{Screen, answer_to_elicit_result_json, elicitation_to_screen};
pub use secrets::{SecretKind, SensitiveField, reject_secrets, sensitive_fields};
pub use session::{AwaitingCompletion, CancelledRequest, Session};
pub use shared::{Mode, Modes, SessionOptions, modes_from_name};
pub use task::{Era, TaskCall, TaskDriver, TaskEvent, TaskInfo, TaskStatus, follow_task};
pub use terminal::{LineBreaks, line_breaks_from_name, terminal_json, terminal_text};
pub use url_review::{
    FindingCode, Severity, UrlFinding, UrlReview, Verdict, review_url, url_review_to_json,
};

uniffi::setup_scaffolding!();
