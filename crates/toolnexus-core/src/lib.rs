//! toolnexus-core: answers an MCP server that needs a human in the loop.
//!
//! An MCP server in the middle of a `tools/call` may send `elicitation/create`: a form to fill
//! (`requestedSchema`) or a URL to open. This crate maps those parameters onto the toolnexus
//! suspension contract — a [`Request`] that any host resolves (a UI, an approval flow, another
//! agent) into an [`Answer`] — and maps the answer back to MCP's [`ElicitResult`].
//!
//! | MCP `ElicitRequestParams` | [`Request`] |
//! |---|---|
//! | `mode` absent or `"form"` | `kind: "input"`, `data.schema` = `requestedSchema` as received |
//! | `mode: "url"` | `kind: "authorization"`, `url` set, no `data` |
//! | `message` | `prompt` (absent: `""`) |
//!
//! | [`Answer`] | MCP `ElicitResult.action` |
//! |---|---|
//! | `ok: true` | `"accept"`, `content` from `data` (no data: `{}`) |
//! | `ok: false, reason: "declined"` | `"decline"` |
//! | `ok: false`, any other or no reason | `"cancel"` |
//!
//! ```
//! use toolnexus_core::{answer_to_elicit_result, elicitation_to_request, Answer, ElicitRequestParams, Limits};
//!
//! let params = ElicitRequestParams::from_json(
//!     br#"{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}"#,
//!     &Limits::DEFAULT,
//! )?;
//! let request = elicitation_to_request(&params, "req-1")?;
//! assert_eq!(
//!     request.to_json(),
//!     r#"{"id":"req-1","kind":"input","prompt":"Your name?","data":{"schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}"#
//! );
//!
//! let answer = Answer::from_json(br#"{"id":"req-1","ok":true,"data":{"name":"Ada"}}"#, &Limits::DEFAULT)?;
//! assert_eq!(answer_to_elicit_result(&answer)?.to_json(), r#"{"action":"accept","content":{"name":"Ada"}}"#);
//! # Ok::<(), toolnexus_core::Error>(())
//! ```
//!
//! A schema comes from a server and content from a person, so neither is trusted.
//! [`check_schema`] lists every problem with a `requestedSchema`; [`validate_content`]
//! lists every way content breaks it, with the verdict of a JSON Schema 2020-12 validator;
//! [`prepare_content`] fills defaults in first. [`form_fields`] turns a schema into the fields
//! a UI renders and [`parse_field_input`] turns typed text into content; [`sensitive_fields`]
//! flags fields that look like they ask for a secret, which forms must not. For URL mode,
//! [`review_url`] says what to show before the person consents to open a link.
//!
//! The two mappings are used as a pair through a [`Session`], which remembers each request
//! until it is answered: answers must name a pending request, each resolves once, invalid
//! content keeps it pending, URL accepts carry no content, requests expire. On the wire,
//! [`ReverseBridge`] speaks MCP 2025-06-18 and 2025-11-25 (the server's JSON-RPC
//! `elicitation/create` and the client's response) and [`InputRound`] speaks 2026-07-28 (a
//! result with `resultType: "input_required"`, answered by retrying the original request with
//! `inputResponses`).
//!
//! The crate is `no_std` (it needs `alloc`) and sans-I/O: it reads no clock and does no I/O;
//! where time matters the caller passes `now`. Every input is untrusted: it is read within
//! [`Limits`], and anything wrong with it is a typed [`Error`] with a kind, a JSON pointer and
//! a message. The `std` feature adds `id::next_id`, a clock-based id generator.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The layers, bottom up: a module uses only the layers at or above it here
// (`tests/architecture.rs` holds the core to it; ARCHITECTURE.md draws it).

// 0. Leaves: diagnostics, dates and ids, which use nothing else.
/// The README's Rust examples, run as doctests so the front door cannot drift from the API.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;

pub mod error;
pub mod id;
pub mod rfc3339;
pub mod seal;
pub mod terminal;

// 1. JSON: the bounded reader, values, pointers, the writer.
pub mod json;

// 2. The suspension contract: Request and Answer.
pub mod contract;

// 3. The requestedSchema: its typed model and its one reader.
pub mod schema;

// 4. Content: validation and defaults.
pub mod content;

// 5. The prepared form: fields, typed input, secrets.
pub mod form;

// 6. MCP's elicitation types and the mappings; URL review.
pub mod mcp;
pub mod url_review;

// 7. The session that pairs requests and answers; the form as a web page.
pub mod html;
pub mod session;

// 8. The wire: JSON-RPC, the 2025 reverse request, the 2026-07-28 multi round-trip.
pub mod wire;

pub use content::{
    Content, ContentOptions, ContentValue, apply_defaults, prepare_content, validate_content,
};
pub use contract::{Answer, Reason, Request};
pub use error::{Error, ErrorKind, Keyword, SchemaProblem, SchemaProblemKind, Violation};
pub use form::secrets::{SecretKind, reject_secrets, sensitive_fields};
pub use form::{Form, FormField, Widget, form_fields, parse_field_input};
pub use json::{Limits, Map, Number, Value};
pub use mcp::{
    Action, ElicitRequestParams, ElicitResult, FormParams, Mode, Modes, UrlParams,
    answer_to_elicit_result, elicitation_into_request, elicitation_to_request,
};
pub use schema::check_schema;
pub use session::{Session, SessionOptions};
pub use terminal::{LineBreaks, terminal_json, terminal_text};
pub use url_review::{FindingCode, Severity, UrlFinding, UrlReview, Verdict, review_url};
pub use wire::mrtr::{InputRequired, InputRound, ServerResult};
pub use wire::reverse::{IgnoreReason, Incoming, ReverseBridge};
pub use wire::rpc::{ErrorCode, RpcId};
