//! MCP 2026-07-28 multi round-trip requests: the client's side of a request that the server
//! answers with `resultType: "input_required"` instead of a final result.
//!
//! Since 2026-07-28 a server no longer sends `elicitation/create` to the client. It answers a
//! `tools/call` (or `prompts/get`, `resources/read`) with an [`InputRequired`] result: a map of
//! `inputRequests`, each under a key the server chose, and an opaque `requestState`. The
//! client resolves the requests and sends the original request again, with a new JSON-RPC id,
//! `inputResponses` (key → result) and the `requestState` echoed exactly. The server may then
//! finish, or ask again.
//!
//! - [`ServerResult`] says what a result is: complete, input required, or a `resultType` this
//!   version does not know. [`InputRequired`] reads the input-required kind.
//! - [`InputRound::start`] begins each `elicitation/create` entry as a [`Request`] in a
//!   [`Session`] the round owns, so answers are checked exactly as in the 2025 flow
//!   ([`InputRound::resolve`]). Entries for other methods (`sampling/createMessage`,
//!   `roots/list`, anything else) are not handled here: [`InputRound::unhandled`] lists them,
//!   and the host may [supply](InputRound::supply) its own result for each.
//! - [`InputRound::retry`] writes the retry, refusing to leave a request unanswered unless the
//!   host asks to send what it has. [`InputRound::next_round`] takes the server's next
//!   input-required result for that retry.
//! - Every request carries the client's capabilities in
//!   `params._meta["io.modelcontextprotocol/clientCapabilities"]`: the retry is stamped with
//!   the session's [`Modes`](crate::Modes), and [`with_client_capabilities`] stamps any other
//!   request, the first one included.
//!
//! `requestState` is never parsed nor changed: it is carried as the string received, and a
//! retry has one only when the server gave one. Keys keep the order of `inputRequests`.
//!
//! ```
//! use toolnexus_core::wire::mrtr::{ClientRequest, InputRequired, InputRound};
//! use toolnexus_core::wire::rpc::RpcId;
//! use toolnexus_core::{Answer, Limits, SessionOptions};
//!
//! let limits = Limits::DEFAULT;
//! let call = ClientRequest::from_json(
//!     br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy"}}"#,
//!     &limits,
//! )?;
//! let reply = InputRequired::from_json(
//!     br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"Deploy?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}},"requestState":"s1"}}"#,
//!     &limits,
//! )?;
//! let (mut round, requests) = InputRound::start(call, reply, SessionOptions::DEFAULT, 0)?;
//! let (key, request) = &requests[0];
//! assert_eq!(key, "confirm");
//!
//! let answer = Answer::from_json(
//!     format!(r#"{{"id":"{}","ok":true,"data":{{"ok":true}}}}"#, request.id()).as_bytes(),
//!     &limits,
//! )?;
//! round.resolve(&answer, 1)?;
//! assert_eq!(
//!     round.retry(&RpcId::from(2), false)?,
//!     r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},"name":"deploy","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}},"requestState":"s1"}}"#
//! );
//! # Ok::<(), toolnexus_core::Error>(())
//! ```

mod client;
mod server;
mod snapshot;

pub use client::{ClientRequest, with_client_capabilities};
pub(crate) use server::unwrap_response;
pub use server::{InputRequest, InputRequired, ServerResult};
pub use snapshot::ROUND_LIFETIME_MS;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::contract::Answer;
use crate::contract::Request;
use crate::error::{Error, ErrorKind};
use crate::form::secrets::SensitiveField;
use crate::id::format_id;
use crate::json::decimal;
use crate::json::{Map, Value};
use crate::mcp::ElicitResult;
use crate::session::{Session, SessionOptions};
use crate::wire::rpc::{self, RpcId};

use client::{edit_params, stamp_capabilities};

/// The `_meta` member of request params that holds the client's capabilities.
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// The `resultType` of a result that asks for input.
pub const INPUT_REQUIRED: &str = "input_required";

/// The `resultType` of a final result (also what an absent `resultType` means).
pub const COMPLETE: &str = "complete";

/// Whether two ids may name the same request to a server: equal strings, or equal numbers
/// however spelt (`2` and `2.0` are one number once read). A string never equals a number.
///
/// Looser than [`RpcId`]'s equality on purpose: a retry whose id is `2.0` after `2` might be
/// taken for the same request, and a server that writes the id back as `2` still answers it.
fn same_id(a: &RpcId, b: &RpcId) -> bool {
    match (a, b) {
        (RpcId::String(x), RpcId::String(y)) => x == y,
        (RpcId::Number(x), RpcId::Number(y)) => decimal::compare(x, y) == Ordering::Equal,
        _ => false,
    }
}

/// One round of a multi round-trip request: the client's request, the server's input-required
/// result for it, the elicitations begun for it and the responses gathered so far.
#[derive(Debug, Clone)]
pub struct InputRound {
    /// `None` for a round started from a result alone ([`InputRound::for_result`]).
    request: Option<ClientRequest>,
    answered_id: RpcId,
    sent_ids: Vec<RpcId>,
    last_retry_id: Option<RpcId>,
    input: InputRequired,
    session: Session,
    request_ids: Vec<(String, String)>,
    responses: Vec<(String, Value)>,
    /// For each form of the round with fields that seem to ask for a secret, its key and
    /// those fields: what a snapshot carries, so that a restored form warns as this one does.
    sensitive: Vec<(String, Vec<SensitiveField>)>,
    /// When the round began and the sequence of its first request id: what a snapshot needs
    /// to begin the same requests again.
    began_at_ms: u64,
    first_sequence: u64,
    next_sequence: u64,
}

/// Where a round's requests come from: the server, or a snapshot, which carries its forms'
/// sensitive fields (see [`InputRound::restore`]).
#[derive(Clone, Copy)]
enum Origin<'a> {
    /// A result of the server: each request handed to the host, each form's sensitive fields
    /// found by the heuristic.
    Server,
    /// A snapshot: the requests kept for the host to ask for, each form's sensitive fields as
    /// written (none for a key not listed).
    Snapshot(&'a [(String, Vec<SensitiveField>)]),
}

impl InputRound {
    /// Starts the round for `request` (as the client sent it first) and the server's
    /// `input_required` result for it, received at `now_ms`: the round, and for each
    /// `elicitation/create` entry its key and the [`Request`] to hand to the host, in the
    /// order of `inputRequests`.
    ///
    /// Request ids are [`format_id`]`(now_ms, n)` with `n` counting from 1. Errors
    /// point into the text `input` was read from: a response whose `id` is not the request's
    /// ([`ErrorKind::InvalidValue`] at `/id`), or an elicitation the session refuses (its
    /// error under `…/inputRequests/<key>/params`, such as
    /// [`ErrorKind::ModeNotSupported`] at `…/params/mode`).
    pub fn start(
        request: ClientRequest,
        input: InputRequired,
        options: SessionOptions,
        now_ms: u64,
    ) -> Result<(InputRound, Vec<(String, Request)>), Error> {
        let first = request.id().clone();
        let sent = alloc::vec![first.clone()];
        InputRound::begin(
            Some(request),
            first,
            sent,
            input,
            Session::new(options),
            1,
            now_ms,
            Origin::Server,
        )
    }

    /// Starts the next round of the same request: `input` is the server's answer to the last
    /// [retry](InputRound::retry) of this round (the server asks again). Request ids go on
    /// counting where this round stopped, and every id sent so far stays taken.
    ///
    /// Refused with [`ErrorKind::InvalidValue`] (at `""`) when no retry was written yet, as
    /// nothing could have been answered; otherwise errors as [`InputRound::start`].
    pub fn next_round(
        &self,
        input: InputRequired,
        now_ms: u64,
    ) -> Result<(InputRound, Vec<(String, Request)>), Error> {
        let Some(answered) = self.last_retry_id.clone() else {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "",
                "no retry of this request was written yet, so no result can answer one",
            ));
        };
        InputRound::begin(
            self.request.clone(),
            answered,
            self.sent_ids.clone(),
            input,
            Session::new(*self.session.options()),
            self.next_sequence,
            now_ms,
            Origin::Server,
        )
    }

    /// Starts a round for an `input_required` result alone, when the host does not hold the
    /// request it answers (a tool that hands over the result, a script, a test): the round
    /// answers every entry as [`InputRound::start`] does and gives what the retry adds with
    /// [`InputRound::input_responses`], but writes no retry itself. The result's `id`, if it is
    /// a JSON-RPC response, is taken as the request's.
    pub fn for_result(
        input: InputRequired,
        options: SessionOptions,
        now_ms: u64,
    ) -> Result<(InputRound, Vec<(String, Request)>), Error> {
        let answered = input
            .response_id()
            .cloned()
            .unwrap_or_else(|| RpcId::from(0));
        InputRound::detached(input, options, answered, 1, now_ms)
    }

    /// Starts a round for input requests a task asks for (see [`crate::wire::task`]): no
    /// request to retry, request ids counting from `first_sequence`.
    pub(crate) fn for_task(
        input: InputRequired,
        options: SessionOptions,
        first_sequence: u64,
        now_ms: u64,
    ) -> Result<(InputRound, Vec<(String, Request)>), Error> {
        InputRound::detached(input, options, RpcId::from(0), first_sequence, now_ms)
    }

    /// A round with no request to retry, answering the response `answered`.
    fn detached(
        input: InputRequired,
        options: SessionOptions,
        answered: RpcId,
        first_sequence: u64,
        now_ms: u64,
    ) -> Result<(InputRound, Vec<(String, Request)>), Error> {
        let sent = alloc::vec![answered.clone()];
        InputRound::begin(
            None,
            answered,
            sent,
            input,
            Session::new(options),
            first_sequence,
            now_ms,
            Origin::Server,
        )
    }

    /// The sequence the next request id of the same request would take.
    pub(crate) fn next_sequence(&self) -> u64 {
        self.next_sequence
    }

    /// The round of `input`, each elicitation begun in `session`; from the server, a copy of
    /// each [`Request`] for the host (a restore hands none out).
    #[allow(clippy::too_many_arguments)]
    fn begin(
        request: Option<ClientRequest>,
        answered_id: RpcId,
        sent_ids: Vec<RpcId>,
        input: InputRequired,
        mut session: Session,
        first_sequence: u64,
        now_ms: u64,
        origin: Origin<'_>,
    ) -> Result<(InputRound, Vec<(String, Request)>), Error> {
        if let Some(id) = input.response_id().filter(|id| !same_id(id, &answered_id)) {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "/id",
                format!(
                    "this response answers the request {}, not {}",
                    id.to_json(),
                    answered_id.to_json()
                ),
            ));
        }
        let mut sequence = first_sequence;
        let mut request_ids = Vec::new();
        let mut begun = Vec::new();
        let mut sensitive = Vec::new();
        for entry in input.input_requests() {
            let Some(params) = entry.elicitation() else {
                continue;
            };
            let id = format_id(now_ms, sequence);
            sequence = sequence.saturating_add(1);
            let within =
                |e: Error| e.within(&format!("{}/params", input.entry_pointer(entry.key())));
            match origin {
                Origin::Server => {
                    let host_request =
                        session.begin(params, id.as_str(), now_ms).map_err(within)?;
                    begun.push((String::from(entry.key()), host_request));
                }
                Origin::Snapshot(carried) => {
                    let found = carried
                        .iter()
                        .find(|(key, _)| key == entry.key())
                        .map_or(&[][..], |(_, fields)| fields.as_slice());
                    session
                        .begin_kept(params, id.as_str(), now_ms, Some(found))
                        .map_err(within)?;
                }
            }
            if let Some(form) = session.form(id.as_str()) {
                let fields = form.sensitive_fields();
                if !fields.is_empty() {
                    sensitive.push((String::from(entry.key()), fields));
                }
            }
            request_ids.push((String::from(entry.key()), String::from(id.as_str())));
        }
        let round = InputRound {
            request,
            answered_id,
            sent_ids,
            last_retry_id: None,
            input,
            session,
            request_ids,
            responses: Vec::new(),
            sensitive,
            began_at_ms: now_ms,
            first_sequence,
            next_sequence: sequence,
        };
        Ok((round, begun))
    }

    /// Resolves the elicitation a [`Request`] of this round stands for with the host's
    /// `answer`, given at `now_ms`: its key and the [`ElicitResult`] that will answer it in
    /// the retry. The session's rules hold (see [`crate::session`]): an unknown or answered
    /// id is [`ErrorKind::UnknownRequest`]; invalid form content is
    /// [`ErrorKind::InvalidContent`] and the request stays pending.
    pub fn resolve(
        &mut self,
        answer: &Answer,
        now_ms: u64,
    ) -> Result<(String, ElicitResult), Error> {
        let result = self.session.resolve(answer, now_ms)?;
        let key = self.key_of(answer.id()).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownRequest,
                "/id",
                format!(
                    "no input request of this round has the id {:?}",
                    answer.id()
                ),
            )
        })?;
        self.record(&key, elicit_result_value(&result));
        Ok((key, result))
    }

    /// Gives the host's own `result` for an input request this module does not handle (see
    /// [`InputRound::unhandled`]), to be sent as received. A later call for the same key
    /// replaces it.
    ///
    /// Refused: a key no input request has ([`ErrorKind::UnknownRequest`]); an
    /// `elicitation/create` key, which is answered through [`InputRound::resolve`]
    /// ([`ErrorKind::InvalidValue`]); a result that is not an object
    /// ([`ErrorKind::WrongType`]). Every pointer is `""`.
    pub fn supply(&mut self, key: &str, result: Value) -> Result<(), Error> {
        let Some(entry) = self.input.input_requests().iter().find(|r| r.key() == key) else {
            return Err(Error::new(
                ErrorKind::UnknownRequest,
                "",
                format!("no input request has the key {key:?}"),
            ));
        };
        if entry.elicitation().is_some() {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "",
                format!("{key:?} is an elicitation: answer it through its Request"),
            ));
        }
        if !result.is_object() {
            return Err(Error::new(
                ErrorKind::WrongType,
                "",
                format!("a result must be a JSON object, not {}", result.type_name()),
            ));
        }
        self.record(key, result);
        Ok(())
    }

    /// Answers with cancel every elicitation whose time to live has lapsed at `now_ms` (see
    /// [`SessionOptions::with_ttl_ms`]): each key with its result, in input order.
    pub fn expire(&mut self, now_ms: u64) -> Vec<(String, ElicitResult)> {
        let lapsed = self.session.expire(now_ms);
        self.record_all(lapsed)
    }

    /// Answers with cancel every elicitation still pending, for a person who closed the
    /// dialog: each key with its result, in input order.
    pub fn cancel_pending(&mut self) -> Vec<(String, ElicitResult)> {
        let cancelled = self.session.cancel_all();
        self.record_all(cancelled)
    }

    /// The requests still waiting for the host's answer, each with its key, in input order.
    pub fn pending(&self) -> Vec<(&str, &Request)> {
        self.request_ids
            .iter()
            .filter_map(|(key, id)| self.session.get(id).map(|r| (key.as_str(), r)))
            .collect()
    }

    /// The input requests this module does not handle (any method but `elicitation/create`),
    /// in input order: the host answers them with [`InputRound::supply`] or leaves them out.
    pub fn unhandled(&self) -> Vec<&InputRequest> {
        self.input
            .input_requests()
            .iter()
            .filter(|r| r.elicitation().is_none())
            .collect()
    }

    /// The keys of the input requests without a response yet, in input order.
    pub fn missing(&self) -> Vec<&str> {
        self.input
            .input_requests()
            .iter()
            .map(InputRequest::key)
            .filter(|key| !self.responses.iter().any(|(k, _)| k == key))
            .collect()
    }

    /// The server's input-required result this round answers.
    pub fn input_required(&self) -> &InputRequired {
        &self.input
    }

    /// The `requestState` the retry will echo, exactly as received.
    pub fn request_state(&self) -> Option<&str> {
        self.input.request_state()
    }

    /// The retry of the request, as JSON-RPC text: the request as the client first sent it,
    /// with `id` set to `id`, its capabilities stamped with the session's modes, and in
    /// `params` the `inputResponses` (each key with its result, in input order; left out when
    /// there are none) and the `requestState` exactly as received (left out when the server
    /// gave none). Any `inputResponses` or `requestState` of an earlier round is dropped.
    ///
    /// Refused, with pointer `""`: a number id with a fraction, and an id already sent for this
    /// request, however spelt ([`ErrorKind::InvalidValue`]), since each retry is a request of
    /// its own; and, unless
    /// `allow_partial`, input requests without a response ([`ErrorKind::MissingResponses`],
    /// naming them; see [`InputRound::missing`]).
    pub fn retry(&mut self, id: &RpcId, allow_partial: bool) -> Result<String, Error> {
        // `RpcId::Number` can be built with any number; what a server reads must be an id.
        rpc::read_id(&id.to_value(), "")?;
        if let Some(used) = self.sent_ids.iter().find(|used| same_id(used, id)) {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "",
                format!(
                    "the id {} was sent already for this request; a retry needs a new one",
                    used.to_json()
                ),
            ));
        }
        self.check_missing(allow_partial)?;
        let Some(request) = &self.request else {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "",
                "this round began from a result alone and holds no request to retry; add its \
                 input_responses to the request instead",
            ));
        };
        let text = self.retry_message(request, id).to_json();
        self.sent_ids.push(id.clone());
        self.last_retry_id = Some(id.clone());
        Ok(text)
    }

    /// What the retry adds to the request's `params`:
    /// `{"inputResponses": {...}, "requestState"?}`, responses in the order of `inputRequests`
    /// and the state exactly as received (left out when the server gave none). Refused as
    /// [`InputRound::retry`] is when a response is missing, unless `allow_partial`.
    pub fn input_responses(&self, allow_partial: bool) -> Result<Map, Error> {
        self.check_missing(allow_partial)?;
        let mut out = Map::new();
        out.insert("inputResponses", Value::Object(self.ordered_responses()));
        if let Some(state) = self.input.request_state() {
            out.insert("requestState", Value::from(state));
        }
        Ok(out)
    }

    fn check_missing(&self, allow_partial: bool) -> Result<(), Error> {
        let missing = self.missing();
        if missing.is_empty() || allow_partial {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::MissingResponses,
            "",
            format!(
                "no response yet for the input request{} {}: answer them, or send what there is",
                if missing.len() == 1 { "" } else { "s" },
                quoted_list(&missing)
            ),
        ))
    }

    fn retry_message(&self, request: &ClientRequest, id: &RpcId) -> Value {
        let mut message = request.message().clone();
        message.insert("id", id.to_value());
        let responses = self.ordered_responses();
        let state = self.input.request_state().map(String::from);
        let modes = self.session.options().modes();
        edit_params(&mut message, |params| {
            params.remove("inputResponses");
            params.remove("requestState");
            stamp_capabilities(params, modes);
            if !responses.is_empty() {
                params.insert("inputResponses", Value::Object(responses));
            }
            if let Some(state) = state {
                params.insert("requestState", Value::from(state));
            }
        });
        Value::Object(message)
    }

    /// The responses gathered, in the order of `inputRequests`.
    fn ordered_responses(&self) -> Map {
        self.input
            .input_requests()
            .iter()
            .filter_map(|r| {
                self.responses
                    .iter()
                    .find(|(k, _)| k == r.key())
                    .map(|(k, v)| (k.clone(), v.clone()))
            })
            .collect()
    }

    /// The session the round's elicitations are pending in: each form's prepared
    /// [`Form`](crate::form::Form) is [`Session::form`].
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The id of the request the server's result answered: the first request, or the retry
    /// before this round.
    pub fn answered_id(&self) -> &RpcId {
        &self.answered_id
    }

    fn key_of(&self, request_id: &str) -> Option<String> {
        self.request_ids
            .iter()
            .find(|(_, id)| id == request_id)
            .map(|(key, _)| key.clone())
    }

    fn record(&mut self, key: &str, result: Value) {
        match self.responses.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = result,
            None => self.responses.push((String::from(key), result)),
        }
    }

    fn record_all(&mut self, by_id: Vec<(String, ElicitResult)>) -> Vec<(String, ElicitResult)> {
        let mut keyed: Vec<(String, ElicitResult)> = by_id
            .into_iter()
            .filter_map(|(id, result)| self.key_of(&id).map(|key| (key, result)))
            .collect();
        for (key, result) in &keyed {
            self.record(key, elicit_result_value(result));
        }
        let order = |key: &str| {
            self.input
                .input_requests()
                .iter()
                .position(|r| r.key() == key)
        };
        keyed.sort_by_key(|(key, _)| order(key));
        keyed
    }
}

/// An [`ElicitResult`] as the value it writes (`action`, `content`, `_meta`).
fn elicit_result_value(result: &ElicitResult) -> Value {
    let mut map = Map::new();
    map.insert("action", Value::from(result.action().as_str()));
    if let Some(content) = result.content() {
        map.insert("content", Value::Object(content.as_map().clone()));
    }
    if let Some(meta) = result.meta() {
        map.insert("_meta", Value::Object(meta.clone()));
    }
    Value::Object(map)
}

fn quoted_list(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("{k:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests;
