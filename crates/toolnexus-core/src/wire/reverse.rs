//! The MCP 2025-06-18 and 2025-11-25 wire for elicitation: the server sends the client a
//! JSON-RPC request `elicitation/create`, and the client answers it with a JSON-RPC response.
//!
//! A [`ReverseBridge`] sits between a host's transport and its UI. The transport hands it each
//! message from the server ([`ReverseBridge::receive`]); the bridge gives back what to do:
//! a [`Request`] to show, an error response to send at once, a URL interaction that
//! completed, or nothing. When the person has answered, [`ReverseBridge::respond`] turns the
//! [`Answer`] into the JSON-RPC response, with the server's id echoed exactly. Every rule of
//! the [`Session`] holds: content is checked against the form, an invalid answer leaves the
//! request pending, URL accepts wait for their completion, requests expire.
//!
//! ```
//! use toolnexus_core::wire::reverse::{Incoming, ReverseBridge};
//! use toolnexus_core::{Answer, Limits, SessionOptions};
//!
//! let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
//! let incoming = bridge.receive(
//!     br#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}"#,
//!     1_000,
//!     &Limits::DEFAULT,
//! );
//! let Incoming::Elicit { request, .. } = incoming else { panic!("{incoming:?}") };
//! assert_eq!(request.id(), "elc-3e8-1");
//!
//! let answer = Answer::from_json(br#"{"id":"elc-3e8-1","ok":true,"data":{"name":"Ada"}}"#, &Limits::DEFAULT)?;
//! assert_eq!(
//!     bridge.respond(&answer, 2_000)?.as_deref(),
//!     Some(r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ada"}}}"#)
//! );
//! # Ok::<(), toolnexus_core::Error>(())
//! ```
//!
//! # Which error code says what
//!
//! | code | when |
//! |---|---|
//! | `-32700` | the message cannot be read as JSON (syntax, UTF-8, duplicate keys, [`Limits`]); no `id` |
//! | `-32600` | not a valid request object (see [`Message::from_value`]), or an id already pending |
//! | `-32601` | a request for any method but `elicitation/create` |
//! | `-32602` | `elicitation/create` whose params cannot be elicited: no `params`, no `message`, an unknown `mode`, a mode the host did not advertise, a form whose `requestedSchema` cannot be read, a URL mode without `url` or without `elicitationId`, a form the reject-secrets policy refuses |
//! | `-32603` | the session is full ([`SessionOptions::max_pending`]), or the host reported that it could not handle the request ([`ReverseBridge::fail`]) |
//!
//! An error message is one sentence saying what is wrong, ending with the JSON pointer of
//! the offending member of the message when there is one: `(at /params/mode)`.
//!
//! An `elicitation/create` that belongs to a task (2025-11-25: its `_meta` carries
//! `io.modelcontextprotocol/related-task`) is answered like any other, and its response echoes
//! that member in its own `_meta`, as the tasks page requires. One the server sent as a task
//! itself (`params.task`) is answered as a plain one: this client does not run tasks.
//!
//! `message` is required on this wire, as the specification requires it of every
//! elicitation: a person must be told why they are asked. (Reading params on their own, as
//! [`ElicitRequestParams::from_value`] does, tolerates its absence.)
//!
//! # Messages that are not answered
//!
//! Responses and notifications are never answered, even when malformed.
//! `notifications/elicitation/complete` ends the URL request with that `elicitationId`
//! ([`Incoming::Completed`]); `notifications/cancelled` for a pending `elicitation/create`
//! withdraws it ([`Incoming::Withdrawn`]); any other is [`Incoming::Ignored`], as is a
//! completion or cancellation naming nothing pending, as the specification asks.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::contract::Answer;
use crate::contract::Request;
use crate::error::{Error, ErrorKind, closed_set, quote};
use crate::id;
use crate::json::Limits;
use crate::json::fields::Fields;
use crate::json::pointer;
use crate::json::{Map, Value};
use crate::mcp::ElicitRequestParams;
use crate::mcp::ElicitResult;
use crate::session::{Session, SessionOptions};
use crate::wire::rpc::{self, ErrorCode, ErrorResponse, Message, RpcId};
use crate::wire::task::RELATED_TASK_KEY;

use crate::wire::method::{
    CANCELLED as CANCELLED_METHOD, ELICITATION_COMPLETE as COMPLETE_METHOD,
    ELICITATION_CREATE as ELICIT_METHOD,
};

/// What a message from the server asks of the host.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// An `elicitation/create` to show the person; answer it with [`ReverseBridge::respond`]
    /// (or [`ReverseBridge::fail`]).
    Elicit {
        /// The server's id for the request, echoed in the response.
        rpc_id: RpcId,
        /// What to show, with the id the answer must carry.
        request: Request,
    },
    /// An error response to send back at once; nothing else changed.
    Reply(String),
    /// The server says the URL interaction of `request_id` is complete: the host can close
    /// its UI for it, and retry what a `-32042` error held up.
    Completed {
        /// The request that completed.
        request_id: String,
        /// The response to send when the request had not been answered yet (a cancel, since
        /// the person made no choice); `None` when there is nothing to send.
        reply: Option<String>,
    },
    /// The server withdrew the pending request `request_id` (`notifications/cancelled`): the
    /// host closes its UI for it and sends nothing.
    Withdrawn {
        /// The request withdrawn.
        request_id: String,
    },
    /// Not this bridge's business, or naming nothing it knows; nothing to send.
    Ignored {
        /// Why.
        why: IgnoreReason,
    },
}

closed_set! {
    /// Why a message was [ignored](Incoming::Ignored), by a stable snake_case name
    /// (`"response"`, `"unknown_elicitation"`, …).
    #[non_exhaustive]
    pub enum IgnoreReason {
    /// A response to a request of the client's own: its transport routes it.
    Response => "response",
    /// A notification this bridge has no use for.
    Notification => "notification",
    /// A completion notification whose `elicitationId` is unknown or completed already.
    UnknownElicitation => "unknown_elicitation",
    /// A cancellation whose `requestId` names no pending `elicitation/create`.
    UnknownRequest => "unknown_request",
    /// A completion or cancellation notification without the id it must carry.
    MalformedNotification => "malformed_notification",
    }
}

/// Where a pending request came from, and what its answer goes back to.
#[derive(Debug, Clone)]
struct Origin {
    request_id: String,
    /// `None` for the elicitations of a `-32042` error, which get no response of their own.
    rpc_id: Option<RpcId>,
    /// The request's `_meta["io.modelcontextprotocol/related-task"]`, which its response
    /// echoes (2025-11-25 tasks).
    related_task: Option<Value>,
}

/// One client's end of the 2025 elicitation wire: JSON-RPC messages in, [`Request`]s out to
/// the host, [`Answer`]s in, JSON-RPC responses out. See the [module](self).
///
/// Request ids are made with [`id::format_id`] from the `now` of the message that began them
/// and a sequence that starts at 1, so the same messages at the same times give the same ids.
#[derive(Debug, Clone)]
pub struct ReverseBridge {
    session: Session,
    origins: Vec<Origin>,
    sequence: u64,
}

impl ReverseBridge {
    /// A bridge with no pending requests, whose session follows `options`.
    pub fn new(options: SessionOptions) -> ReverseBridge {
        ReverseBridge {
            session: Session::new(options),
            origins: Vec::new(),
            sequence: 0,
        }
    }

    /// The session holding the pending requests.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The client capabilities to declare at initialization:
    /// `{"elicitation": {"form": {}, "url": {}}}` with a member for each mode the host
    /// supports, so that servers do not ask for the others.
    pub fn capabilities(&self) -> Map {
        self.session.options().modes().client_capabilities()
    }

    /// The server's JSON-RPC id for the pending request `request_id`, if it came from an
    /// `elicitation/create` (the elicitations of a `-32042` error have none).
    pub fn rpc_id(&self, request_id: &str) -> Option<&RpcId> {
        self.origin(request_id)?.rpc_id.as_ref()
    }

    /// Takes one message from the server, received at `now_ms`, read within `limits`. Never
    /// fails: whatever is wrong with the message is an [`Incoming::Reply`] to send, or it is
    /// [ignored](Incoming::Ignored).
    pub fn receive(&mut self, message: &[u8], now_ms: u64, limits: &Limits) -> Incoming {
        match Message::parse(message, limits) {
            Ok(message) => self.handle(message, now_ms),
            Err(reply) => Incoming::Reply(reply.to_json()),
        }
    }

    /// [`receive`](ReverseBridge::receive) for a message the host has read already (to route
    /// other methods elsewhere first).
    pub fn handle(&mut self, message: Message, now_ms: u64) -> Incoming {
        match message {
            Message::Request { id, method, params } if method == ELICIT_METHOD => {
                self.elicit(id, params, now_ms)
            }
            Message::Request { id, method, .. } => Incoming::Reply(
                ErrorResponse::new(
                    Some(id),
                    ErrorCode::MethodNotFound,
                    format!(
                        "this client answers {ELICIT_METHOD} here, not {}",
                        quote(&method)
                    ),
                )
                .to_json(),
            ),
            Message::Notification { method, params } if method == COMPLETE_METHOD => {
                self.complete(params.as_ref())
            }
            Message::Notification { method, params } if method == CANCELLED_METHOD => {
                self.withdraw(params.as_ref())
            }
            Message::Notification { .. } => ignored(IgnoreReason::Notification),
            Message::Response(_) => ignored(IgnoreReason::Response),
        }
    }

    /// Answers the pending request `answer.id()` with what the person did, at `now_ms`: the
    /// JSON-RPC response to send, or `None` for an elicitation of a `-32042` error, which gets
    /// none (the host retries its own request once the interaction completes).
    ///
    /// The errors of [`Session::resolve`], with nothing changed: an unknown id
    /// ([`ErrorKind::UnknownRequest`]), or accepted content that breaks the form
    /// ([`ErrorKind::InvalidContent`]), after which the request stays pending for a correction.
    pub fn respond(&mut self, answer: &Answer, now_ms: u64) -> Result<Option<String>, Error> {
        let result = self.session.resolve(answer, now_ms)?;
        Ok(self
            .take_origin(answer.id())
            .and_then(|origin| origin.response(result)))
    }

    /// Reports that the host could not handle the pending request `request_id` (its UI failed,
    /// it has no way to show the form…): the request ends, and the `-32603` error response
    /// carrying `message` is returned to send, or `None` for an elicitation of a `-32042`
    /// error. [`ErrorKind::UnknownRequest`] if no such request is pending.
    pub fn fail(&mut self, request_id: &str, message: &str) -> Result<Option<String>, Error> {
        let Some(origin) = self.take_origin(request_id) else {
            return Err(Error::new(
                ErrorKind::UnknownRequest,
                "",
                format!("no request with the id {request_id:?} is pending"),
            ));
        };
        self.session.withdraw(request_id);
        let message = if message.is_empty() {
            "the client could not handle the request"
        } else {
            message
        };
        Ok(origin.rpc_id.map(|rpc_id| {
            ErrorResponse::new(Some(rpc_id), ErrorCode::InternalError, message).to_json()
        }))
    }

    /// Reads a `-32042` URLElicitationRequiredError that a server sent in answer to one of the
    /// host's own requests, received at `now_ms`, and begins a [`Request`] for each URL
    /// elicitation it carries, in order. They get no JSON-RPC response: the host shows them,
    /// and once they complete ([`Incoming::Completed`]) it retries its original request.
    ///
    /// An elicitation whose `elicitationId` is pending or awaiting completion already (the
    /// server repeats it when a retry comes too early) is not begun twice; it is left out of
    /// the list.
    ///
    /// Refused, with nothing begun: input that is not a JSON-RPC error response, a code other
    /// than `-32042` (at `/error/code`), no `error.data.elicitations` array, an elicitation
    /// that is not URL mode, or lacks `message`, `url` or `elicitationId`, and any refusal of
    /// [`Session::begin`] (URL mode not supported, the session full); pointers locate the
    /// fault in the error response.
    pub fn url_required(
        &mut self,
        error_response: &[u8],
        now_ms: u64,
        limits: &Limits,
    ) -> Result<Vec<Request>, Error> {
        self.url_required_error(&ErrorResponse::from_json(error_response, limits)?, now_ms)
    }

    /// [`ReverseBridge::url_required`] for an error response already read.
    pub fn url_required_error(
        &mut self,
        response: &ErrorResponse,
        now_ms: u64,
    ) -> Result<Vec<Request>, Error> {
        if response.error_code() != Some(ErrorCode::UrlElicitationRequired) {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "/error/code",
                format!(
                    "the error code is {}, not -32042 (URL elicitation required)",
                    response.code()
                ),
            ));
        }
        let items = elicitations(response.data())?;
        let mut wanted: Vec<(usize, ElicitRequestParams, String)> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = item_pointer(i);
            let params = read_wire_params(item.clone()).map_err(|e| e.within(&at))?;
            let eid = match &params {
                ElicitRequestParams::Url(url) => url.elicitation_id().map(String::from),
                ElicitRequestParams::Form(_) => None,
            }
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidValue,
                    format!("{at}/mode"),
                    "a -32042 error may carry URL-mode elicitations only",
                )
            })?;
            if !self.session.knows_elicitation(&eid) && !wanted.iter().any(|(_, _, e)| *e == eid) {
                wanted.push((i, params, eid));
            }
        }
        let sequence_before = self.sequence;
        let mut begun: Vec<Request> = Vec::with_capacity(wanted.len());
        for (i, params, _) in wanted {
            match self.begin(&params, None, now_ms) {
                Ok(request) => begun.push(request),
                Err(e) => {
                    for request in &begun {
                        self.session.withdraw(request.id());
                        self.take_origin(request.id());
                    }
                    self.sequence = sequence_before;
                    return Err(e.within(&item_pointer(i)));
                }
            }
        }
        Ok(begun)
    }

    /// Answers every pending request with cancel, for shutdown: the responses to send, in
    /// the order the requests began. URL requests awaiting completion are forgotten.
    pub fn cancel_all(&mut self) -> Vec<String> {
        let cancelled = self.session.cancel_all();
        self.responses_for(cancelled)
    }

    /// Ends every request whose time to live has lapsed at `now_ms` with a cancel: the
    /// responses to send, in the order the requests began.
    pub fn expire(&mut self, now_ms: u64) -> Vec<String> {
        let lapsed = self.session.expire(now_ms);
        self.responses_for(lapsed)
    }

    /// Begins the `elicitation/create` request `rpc_id`.
    fn elicit(&mut self, rpc_id: RpcId, params: Option<Map>, now_ms: u64) -> Incoming {
        if self
            .origins
            .iter()
            .any(|o| o.rpc_id.as_ref() == Some(&rpc_id))
        {
            let message =
                format!("the id {rpc_id} is already taken by a pending {ELICIT_METHOD} request");
            return reply(rpc_id, ErrorCode::InvalidRequest, &message, "/id");
        }
        let Some(params) = params else {
            return reply(
                rpc_id,
                ErrorCode::InvalidParams,
                "`params` is required",
                "/params",
            );
        };
        let related_task = params
            .get("_meta")
            .and_then(|meta| meta.get(RELATED_TASK_KEY))
            .filter(|task| task.is_object())
            .cloned();
        let params = match read_wire_params(Value::Object(params)) {
            Ok(params) => params,
            Err(e) => return reply_error(rpc_id, ErrorCode::InvalidParams, &e, "/params"),
        };
        match self.begin(&params, Some(rpc_id.clone()), now_ms) {
            Ok(request) => {
                if let Some(origin) = self.origins.last_mut() {
                    origin.related_task = related_task;
                }
                Incoming::Elicit { rpc_id, request }
            }
            Err(e) => reply_error(rpc_id, ErrorCode::for_refusal(e.kind()), &e, "/params"),
        }
    }

    /// Begins `params` in the session under the next id, remembering where it came from.
    fn begin(
        &mut self,
        params: &ElicitRequestParams,
        rpc_id: Option<RpcId>,
        now_ms: u64,
    ) -> Result<Request, Error> {
        let sequence = self.sequence.saturating_add(1);
        let request_id = id::format_id(now_ms, sequence);
        let request = self.session.begin(params, request_id.as_str(), now_ms)?;
        self.sequence = sequence;
        self.origins.push(Origin {
            request_id: String::from(request.id()),
            rpc_id,
            related_task: None,
        });
        Ok(request)
    }

    fn complete(&mut self, params: Option<&Map>) -> Incoming {
        let Some(eid) = params
            .and_then(|p| p.get("elicitationId"))
            .and_then(Value::as_str)
        else {
            return ignored(IgnoreReason::MalformedNotification);
        };
        let Some(request_id) = self.session.complete(eid) else {
            return ignored(IgnoreReason::UnknownElicitation);
        };
        // Completed before the person answered: the server's request still needs its one
        // response, and no choice was made.
        let reply = self
            .take_origin(&request_id)
            .and_then(|origin| origin.response(ElicitResult::cancel()));
        Incoming::Completed { request_id, reply }
    }

    fn withdraw(&mut self, params: Option<&Map>) -> Incoming {
        let Some(rpc_id) = params
            .and_then(|p| p.get("requestId"))
            .and_then(RpcId::from_value)
        else {
            return ignored(IgnoreReason::MalformedNotification);
        };
        let Some(request_id) = self
            .origins
            .iter()
            .find(|o| o.rpc_id.as_ref() == Some(&rpc_id))
            .map(|o| o.request_id.clone())
        else {
            return ignored(IgnoreReason::UnknownRequest);
        };
        self.session.withdraw(&request_id);
        self.take_origin(&request_id);
        Incoming::Withdrawn { request_id }
    }

    fn origin(&self, request_id: &str) -> Option<&Origin> {
        self.origins.iter().find(|o| o.request_id == request_id)
    }

    fn take_origin(&mut self, request_id: &str) -> Option<Origin> {
        let at = self
            .origins
            .iter()
            .position(|o| o.request_id == request_id)?;
        Some(self.origins.remove(at))
    }

    /// The responses for requests the session ended with `results`, forgetting their origins.
    fn responses_for(&mut self, results: Vec<(String, ElicitResult)>) -> Vec<String> {
        results
            .into_iter()
            .filter_map(|(request_id, result)| self.take_origin(&request_id)?.response(result))
            .collect()
    }
}

impl Origin {
    /// The JSON-RPC response carrying `result`, with the related task echoed in its `_meta`;
    /// `None` for an elicitation of a `-32042` error.
    fn response(self, result: ElicitResult) -> Option<String> {
        let rpc_id = self.rpc_id?;
        let result = match self.related_task {
            Some(task) => {
                let mut meta = result.meta().cloned().unwrap_or_default();
                meta.insert(RELATED_TASK_KEY, task);
                result.with_meta(meta)
            }
            None => result,
        };
        Some(rpc::write_result(&rpc_id, &result))
    }
}

/// Reads `elicitation/create` params as this wire requires them: [`ElicitRequestParams`],
/// plus a `message` in every mode and an `elicitationId` in URL mode (MCP 2025-11-25, the
/// only version of this wire with URL mode).
fn read_wire_params(value: Value) -> Result<ElicitRequestParams, Error> {
    if let Value::Object(map) = &value {
        Fields::new(map).str("message")?;
    }
    let params = ElicitRequestParams::from_value(value)?;
    if let ElicitRequestParams::Url(url) = &params
        && url.elicitation_id().is_none()
    {
        return Err(Error::new(
            ErrorKind::MissingField,
            "/elicitationId",
            "URL mode needs an `elicitationId` (a string) to match its completion",
        ));
    }
    Ok(params)
}

/// The `elicitations` array of a `-32042` error's `data`.
fn elicitations(data: Option<&Value>) -> Result<&Vec<Value>, Error> {
    let data = data.and_then(Value::as_object).ok_or_else(|| {
        Error::new(
            ErrorKind::MissingField,
            "/error/data",
            "a -32042 error must carry `data` with its `elicitations`",
        )
    })?;
    data.get("elicitations")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            Error::new(
                ErrorKind::MissingField,
                "/error/data/elicitations",
                "`error.data.elicitations` is required and must be an array",
            )
        })
}

fn item_pointer(index: usize) -> String {
    let mut at = String::from("/error/data/elicitations");
    pointer::push_index(&mut at, index);
    at
}

fn ignored(why: IgnoreReason) -> Incoming {
    Incoming::Ignored { why }
}

fn reply(rpc_id: RpcId, code: ErrorCode, message: &str, pointer: &str) -> Incoming {
    Incoming::Reply(
        ErrorResponse::new(Some(rpc_id), code, rpc::located(message, pointer)).to_json(),
    )
}

/// The error response for `error`, whose pointer is relative to the member `within`.
fn reply_error(rpc_id: RpcId, code: ErrorCode, error: &Error, within: &str) -> Incoming {
    let pointer = if error.pointer().is_empty() && code == ErrorCode::InternalError {
        String::new()
    } else {
        format!("{within}{}", error.pointer())
    };
    reply(rpc_id, code, error.message(), &pointer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::Modes;

    const FORM: &str = r#"{"message":"Age?","requestedSchema":{"type":"object","properties":{"age":{"type":"integer","minimum":18}},"required":["age"]}}"#;
    const URL: &str = r#"{"mode":"url","message":"Log in","url":"https://example.com/auth","elicitationId":"e-1"}"#;

    fn create(id: &str, params: &str) -> String {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"elicitation/create","params":{params}}}"#)
    }

    fn receive(bridge: &mut ReverseBridge, text: &str, now: u64) -> Incoming {
        bridge.receive(text.as_bytes(), now, &Limits::DEFAULT)
    }

    fn elicit(bridge: &mut ReverseBridge, text: &str, now: u64) -> Request {
        match receive(bridge, text, now) {
            Incoming::Elicit { request, .. } => request,
            other => panic!("{other:?}"),
        }
    }

    fn reply_text(incoming: Incoming) -> String {
        match incoming {
            Incoming::Reply(text) => text,
            other => panic!("{other:?}"),
        }
    }

    fn answer(text: &str) -> Answer {
        Answer::from_json(text.as_bytes(), &Limits::DEFAULT).unwrap()
    }

    #[test]
    fn form_round_trip_echoes_the_id_as_spelt() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
        let request = elicit(&mut bridge, &create("1.0", FORM), 16);
        assert_eq!(request.id(), "elc-10-1");
        assert_eq!(bridge.rpc_id("elc-10-1").unwrap().to_json(), "1.0");
        let invalid = bridge
            .respond(
                &answer(r#"{"id":"elc-10-1","ok":true,"data":{"age":17}}"#),
                17,
            )
            .unwrap_err();
        assert_eq!(invalid.kind(), ErrorKind::InvalidContent);
        assert_eq!(
            bridge
                .respond(
                    &answer(r#"{"id":"elc-10-1","ok":true,"data":{"age":18}}"#),
                    18
                )
                .unwrap()
                .unwrap(),
            r#"{"jsonrpc":"2.0","id":1.0,"result":{"action":"accept","content":{"age":18}}}"#
        );
        assert!(bridge.session().pending().is_empty());
        assert_eq!(bridge.rpc_id("elc-10-1"), None);
    }

    #[test]
    fn url_accept_then_completion() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
        let request = elicit(&mut bridge, &create(r#""u""#, URL), 0);
        assert_eq!(
            bridge
                .respond(
                    &answer(&format!(r#"{{"id":"{}","ok":true}}"#, request.id())),
                    0
                )
                .unwrap()
                .unwrap(),
            r#"{"jsonrpc":"2.0","id":"u","result":{"action":"accept"}}"#
        );
        let note = r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e-1"}}"#;
        assert_eq!(
            receive(&mut bridge, note, 1),
            Incoming::Completed {
                request_id: String::from(request.id()),
                reply: None
            }
        );
        assert_eq!(
            receive(&mut bridge, note, 2),
            ignored(IgnoreReason::UnknownElicitation)
        );
    }

    #[test]
    fn completion_before_the_answer_sends_a_cancel() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
        elicit(&mut bridge, &create("3", URL), 0);
        let note = r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e-1"}}"#;
        assert_eq!(
            receive(&mut bridge, note, 1),
            Incoming::Completed {
                request_id: String::from("elc-0-1"),
                reply: Some(String::from(
                    r#"{"jsonrpc":"2.0","id":3,"result":{"action":"cancel"}}"#
                ))
            }
        );
    }

    #[test]
    fn error_codes() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT.with_modes(Modes::FORM));
        assert_eq!(
            reply_text(receive(&mut bridge, &create("4", URL), 0)),
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"the server asked for url mode, but this client supports form mode only (at /params/mode)"}}"#
        );
        assert_eq!(
            reply_text(receive(
                &mut bridge,
                r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#,
                0
            )),
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"this client answers elicitation/create here, not \"ping\""}}"#
        );
        assert_eq!(
            reply_text(receive(
                &mut bridge,
                &create(
                    "6",
                    r#"{"requestedSchema":{"type":"object","properties":{}}}"#
                ),
                0
            )),
            r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"`message` is required and must be a string (at /params/message)"}}"#
        );
        let missing = r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create"}"#;
        assert!(reply_text(receive(&mut bridge, missing, 0)).contains("-32602"));

        elicit(&mut bridge, &create("8", FORM), 0);
        assert!(reply_text(receive(&mut bridge, &create("8", FORM), 0)).contains("-32600"));
        assert_eq!(bridge.session().pending().len(), 1);
    }

    #[test]
    fn full_session_is_an_internal_error_and_uses_no_sequence() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT.with_max_pending(1));
        elicit(&mut bridge, &create("1", FORM), 0);
        let text = reply_text(receive(&mut bridge, &create("2", FORM), 0));
        assert!(text.contains("-32603"), "{text}");
        assert!(!text.contains("(at"), "{text}");
        bridge.cancel_all();
        assert_eq!(elicit(&mut bridge, &create("3", FORM), 0).id(), "elc-0-2");
    }

    #[test]
    fn notifications_and_responses_are_never_answered() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
        for (text, why) in [
            (
                r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#,
                IgnoreReason::Notification,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                IgnoreReason::Response,
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete"}"#,
                IgnoreReason::MalformedNotification,
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#,
                IgnoreReason::UnknownRequest,
            ),
        ] {
            assert_eq!(receive(&mut bridge, text, 0), ignored(why), "{text}");
        }
    }

    #[test]
    fn cancellation_withdraws_without_a_response() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
        let request = elicit(&mut bridge, &create("9", FORM), 0);
        let note = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"timeout"}}"#;
        assert_eq!(
            receive(&mut bridge, note, 0),
            Incoming::Withdrawn {
                request_id: String::from(request.id())
            }
        );
        assert!(bridge.session().pending().is_empty());
        let late = bridge.respond(
            &answer(&format!(r#"{{"id":"{}","ok":false}}"#, request.id())),
            0,
        );
        assert_eq!(late.unwrap_err().kind(), ErrorKind::UnknownRequest);
    }

    #[test]
    fn fail_sends_an_internal_error() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
        let request = elicit(&mut bridge, &create(r#""x""#, FORM), 0);
        assert_eq!(
            bridge.fail(request.id(), "no display").unwrap().unwrap(),
            r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32603,"message":"no display"}}"#
        );
        assert_eq!(
            bridge.fail(request.id(), "again").unwrap_err().kind(),
            ErrorKind::UnknownRequest
        );
        assert!(bridge.session().pending().is_empty());
    }

    #[test]
    fn url_required_begins_each_elicitation_once() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT);
        let error = r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32042,"message":"m","data":{"elicitations":[{"mode":"url","elicitationId":"a","url":"https://a.example","message":"A"},{"mode":"url","elicitationId":"a","url":"https://a.example","message":"A"}]}}}"#;
        let requests = bridge
            .url_required(error.as_bytes(), 5, &Limits::DEFAULT)
            .unwrap();
        let [request] = requests.as_slice() else {
            panic!("{requests:?}");
        };
        assert_eq!(request.url(), Some("https://a.example"));
        // Repeated while pending: nothing new.
        assert!(
            bridge
                .url_required(error.as_bytes(), 6, &Limits::DEFAULT)
                .unwrap()
                .is_empty()
        );
        let id = request.id();
        assert_eq!(bridge.rpc_id(id), None);
        assert_eq!(
            bridge
                .respond(&answer(&format!(r#"{{"id":"{id}","ok":true}}"#)), 7)
                .unwrap(),
            None
        );
        let note = r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"a"}}"#;
        assert!(matches!(
            receive(&mut bridge, note, 8),
            Incoming::Completed { reply: None, .. }
        ));
    }

    #[test]
    fn url_required_refusals_begin_nothing() {
        let mut bridge = ReverseBridge::new(SessionOptions::DEFAULT.with_max_pending(1));
        for (error, pointer) in [
            (
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"m"}}"#,
                "/error/code",
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32042,"message":"m"}}"#,
                "/error/data",
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32042,"message":"m","data":{"elicitations":[{"message":"x","requestedSchema":{"type":"object","properties":{}}}]}}}"#,
                "/error/data/elicitations/0/mode",
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32042,"message":"m","data":{"elicitations":[{"mode":"url","message":"x","url":"https://a"}]}}}"#,
                "/error/data/elicitations/0/elicitationId",
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32042,"message":"m","data":{"elicitations":[{"mode":"url","message":"x","url":"https://a","elicitationId":"a"},{"mode":"url","message":"y","url":"https://b","elicitationId":"b"}]}}}"#,
                "/error/data/elicitations/1",
            ),
        ] {
            let err = bridge
                .url_required(error.as_bytes(), 0, &Limits::DEFAULT)
                .unwrap_err();
            assert_eq!(err.pointer(), pointer, "{error}");
            assert!(bridge.session().pending().is_empty(), "{error}");
        }
        // The rolled-back elicitations used no sequence numbers.
        assert_eq!(elicit(&mut bridge, &create("1", FORM), 0).id(), "elc-0-1");
    }

    #[test]
    fn expiry_and_shutdown_answer_with_cancel() {
        let options = SessionOptions::DEFAULT.with_ttl_ms(Some(100));
        let mut bridge = ReverseBridge::new(options);
        elicit(&mut bridge, &create("1", FORM), 0);
        elicit(&mut bridge, &create("2", FORM), 50);
        assert_eq!(
            bridge.expire(101),
            [r#"{"jsonrpc":"2.0","id":1,"result":{"action":"cancel"}}"#]
        );
        assert_eq!(
            bridge.cancel_all(),
            [r#"{"jsonrpc":"2.0","id":2,"result":{"action":"cancel"}}"#]
        );
        assert!(bridge.cancel_all().is_empty());
    }

    #[test]
    fn capabilities_follow_the_modes() {
        let bridge = ReverseBridge::new(SessionOptions::DEFAULT.with_modes(Modes::URL));
        assert_eq!(
            Value::Object(bridge.capabilities()).to_json(),
            r#"{"elicitation":{"url":{}}}"#
        );
    }

    #[test]
    fn long_method_names_are_cut_short() {
        let long = "m".repeat(200);
        let quoted = quote(&long);
        assert!(quoted.len() < 80);
        assert!(quoted.ends_with('…'));
    }
}
