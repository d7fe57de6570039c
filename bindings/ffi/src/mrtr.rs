//! The MCP 2026-07-28 multi round-trip wire: a server answers a request with
//! `resultType: "input_required"`, and the client retries it with `inputResponses` and the
//! `requestState` echoed exactly. `InputRound` runs one round; `classify_result` and
//! `with_client_capabilities` serve every request. JSON-RPC crosses as text.

use std::sync::Arc;

use toolnexus_core as core;
use toolnexus_core::Map;
use toolnexus_core::wire::mrtr;

use crate::contract::{Answer, ElicitResult, Request};
use crate::error::ToolnexusError;
use crate::json_text;
use crate::limits::Limits;
use crate::reverse::RpcId;
use crate::shared::{Modes, SessionOptions, Shared, now_or_clock, restore_with};

/// A JSON-RPC request the client sends, every member kept as received: in its order, with
/// numbers as spelt.
#[derive(uniffi::Object)]
pub struct ClientRequest(mrtr::ClientRequest);

#[uniffi::export]
impl ClientRequest {
    /// Reads a request from JSON-RPC text within `limits`. Fails for a `jsonrpc` other than
    /// `"2.0"`, an `id` that is absent or not a string or an integer, an absent or empty
    /// `method`, `params` that is not an object, or a `params._meta` (or the capabilities in
    /// it) that is not an object; pointers locate the fault in the text.
    #[uniffi::constructor(default(limits = None))]
    pub fn from_json(
        json: String,
        limits: Option<Limits>,
    ) -> Result<Arc<ClientRequest>, ToolnexusError> {
        ClientRequest::from_json_bytes(json.into_bytes(), limits)
    }

    /// [`ClientRequest::from_json`] for bytes (UTF-8 required).
    #[uniffi::constructor(default(limits = None))]
    pub fn from_json_bytes(
        json: Vec<u8>,
        limits: Option<Limits>,
    ) -> Result<Arc<ClientRequest>, ToolnexusError> {
        let request = mrtr::ClientRequest::from_json(&json, &Limits::or_default(limits))?;
        Ok(Arc::new(ClientRequest(request)))
    }

    /// The JSON-RPC id, as received.
    pub fn id(&self) -> RpcId {
        RpcId::from_core(self.0.id())
    }

    /// The method (`tools/call`, `prompts/get`, …).
    pub fn method(&self) -> String {
        self.0.method().into()
    }

    /// The params as compact JSON, if any.
    pub fn params_json(&self) -> Option<String> {
        self.0.params().map(Map::to_json)
    }

    /// The request with `params._meta["io.modelcontextprotocol/clientCapabilities"]
    /// .elicitation` set for `modes` (removed for none), everything else kept in its place.
    pub fn with_client_capabilities(&self, modes: Modes) -> Arc<ClientRequest> {
        Arc::new(ClientRequest(
            self.0.clone().with_client_capabilities(modes.to_core()),
        ))
    }

    /// The request as compact JSON, members in the order received.
    pub fn to_json(&self) -> String {
        self.0.to_json()
    }
}

/// Stamps the `elicitation` capability for `modes` onto a JSON-RPC request given as text:
/// the request as compact JSON with
/// `params._meta["io.modelcontextprotocol/clientCapabilities"].elicitation` set (removed when
/// no mode is given), everything else kept in its place. Fails as
/// [`ClientRequest::from_json`] does.
#[uniffi::export(default(limits = None))]
pub fn with_client_capabilities(
    request_json: String,
    modes: Modes,
    limits: Option<Limits>,
) -> Result<String, ToolnexusError> {
    Ok(mrtr::with_client_capabilities(
        request_json.as_bytes(),
        modes.to_core(),
        &Limits::or_default(limits),
    )?)
}

/// One entry of `inputRequests`: a request the server needs fulfilled before the retry.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct InputRequest {
    /// The server's key for this request.
    pub key: String,
    /// The method (`elicitation/create`, `sampling/createMessage`, `roots/list`, …).
    pub method: String,
    /// The params as compact JSON, exactly as received, if any.
    pub params_json: Option<String>,
    /// Whether this is an `elicitation/create`, which an [`InputRound`] answers itself.
    pub is_elicitation: bool,
}

impl InputRequest {
    pub(crate) fn from_core(request: &mrtr::InputRequest) -> InputRequest {
        InputRequest {
            key: request.key().into(),
            method: request.method().into(),
            params_json: request.params().map(Map::to_json),
            is_elicitation: request.elicitation().is_some(),
        }
    }
}

/// A result with `resultType: "input_required"`: the input requests in the server's order,
/// and the opaque `requestState`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct InputRequired {
    /// The input requests, in the order the server gave them.
    pub input_requests: Vec<InputRequest>,
    /// The server's `requestState`, exactly as received, if it gave one.
    pub request_state: Option<String>,
    /// The id of the JSON-RPC response the result came in, when it came in one.
    pub response_id: Option<RpcId>,
}

impl InputRequired {
    fn from_core(input: &mrtr::InputRequired) -> InputRequired {
        InputRequired {
            input_requests: input
                .input_requests()
                .iter()
                .map(InputRequest::from_core)
                .collect(),
            request_state: input.request_state().map(Into::into),
            response_id: input.response_id().map(RpcId::from_core),
        }
    }
}

/// What a server's result is, by its `resultType`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ServerResult {
    /// The final result (`resultType` `"complete"` or absent).
    Complete {
        /// The result object, as compact JSON.
        result_json: String,
    },
    /// `resultType: "input_required"`: the server needs input before it can finish.
    NeedsInput {
        /// The input it needs.
        input: InputRequired,
    },
    /// A `resultType` this version does not define.
    Unknown {
        /// The `resultType` received.
        result_type: String,
        /// The result object, as compact JSON.
        result_json: String,
    },
}

/// Tells a server's result apart by its `resultType`: the whole JSON-RPC response or the
/// result object alone, as text. A JSON-RPC error response fails with `InvalidValue` at
/// `/error`; an input-required result is read whole, with its errors.
#[uniffi::export(default(limits = None))]
pub fn classify_result(
    response_json: String,
    limits: Option<Limits>,
) -> Result<ServerResult, ToolnexusError> {
    let result =
        mrtr::ServerResult::from_json(response_json.as_bytes(), &Limits::or_default(limits))?;
    Ok(match result {
        mrtr::ServerResult::Complete(map) => ServerResult::Complete {
            result_json: map.to_json(),
        },
        mrtr::ServerResult::InputRequired(input) => ServerResult::NeedsInput {
            input: InputRequired::from_core(&input),
        },
        mrtr::ServerResult::Unknown {
            result_type,
            result,
        } => ServerResult::Unknown {
            result_type,
            result_json: result.to_json(),
        },
    })
}

/// A [`Request`] begun for an input request, with the input request's key.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct KeyedRequest {
    /// The key of the input request.
    pub key: String,
    /// The request to hand to the host.
    pub request: Request,
}

/// The result that will answer an input request in the retry, with its key.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct KeyedResult {
    /// The key of the input request.
    pub key: String,
    /// The result.
    pub result: ElicitResult,
}

pub(crate) fn keyed_requests(list: Vec<(String, core::Request)>) -> Vec<KeyedRequest> {
    list.into_iter()
        .map(|(key, request)| KeyedRequest {
            key,
            request: Request::from_core(&request),
        })
        .collect()
}

impl KeyedResult {
    pub(crate) fn from_core((key, result): (String, core::ElicitResult)) -> KeyedResult {
        KeyedResult {
            key,
            result: ElicitResult::from_core(&result),
        }
    }
}

pub(crate) fn keyed_results(list: Vec<(String, core::ElicitResult)>) -> Vec<KeyedResult> {
    list.into_iter().map(KeyedResult::from_core).collect()
}

/// One round of a multi round-trip request: the client's request, the server's
/// input-required result for it, a [`Request`] for each `elicitation/create` entry (checked
/// by a session with the round's options) and the responses gathered.
///
/// Start one with `start`; resolve each request, `supply` results for the `unhandled`
/// entries, then write the `retry`. When the server asks again, continue with `nextRound`.
/// Every method may be called from any thread; a `nowMs` left out is read from the clock.
#[derive(uniffi::Object)]
pub struct InputRound {
    options: SessionOptions,
    requests: Vec<KeyedRequest>,
    inner: Shared<mrtr::InputRound>,
}

impl InputRound {
    fn begun(
        options: SessionOptions,
        (round, requests): (mrtr::InputRound, Vec<(String, core::Request)>),
    ) -> Arc<InputRound> {
        Arc::new(InputRound {
            options,
            requests: keyed_requests(requests),
            inner: Shared::new(round),
        })
    }
}

#[uniffi::export]
impl InputRound {
    /// Starts the round for `request` (as the client first sent it) and `response_json`, the
    /// server's input-required answer to it (the JSON-RPC response or the result alone),
    /// received at `now_ms`. Request ids are `format_id(nowMs, n)`, `n` counting from 1.
    ///
    /// Errors point into `response_json`: a result that is not input-required, a response
    /// whose `id` is not the request's (`InvalidValue` at `/id`), or an elicitation the
    /// session refuses (under `…/inputRequests/<key>/params`).
    #[uniffi::constructor(default(options = None, now_ms = None, limits = None))]
    pub fn start(
        request: &ClientRequest,
        response_json: String,
        options: Option<SessionOptions>,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Result<Arc<InputRound>, ToolnexusError> {
        let options = options.unwrap_or_default();
        let input =
            mrtr::InputRequired::from_json(response_json.as_bytes(), &Limits::or_default(limits))?;
        let now = now_or_clock(now_ms);
        let started = mrtr::InputRound::start(request.0.clone(), input, options.to_core(), now)?;
        Ok(InputRound::begun(options, started))
    }

    /// Starts the next round of the same request: `response_json` is the server's answer to
    /// this round's last retry (it asks again). Request ids go on counting, and every id sent
    /// stays taken. `InvalidValue` when no retry was written yet; otherwise fails as `start`.
    #[uniffi::method(default(now_ms = None, limits = None))]
    pub fn next_round(
        &self,
        response_json: String,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Result<Arc<InputRound>, ToolnexusError> {
        let input =
            mrtr::InputRequired::from_json(response_json.as_bytes(), &Limits::or_default(limits))?;
        let now = now_or_clock(now_ms);
        let next = self.inner.with(|round| round.next_round(input, now))?;
        Ok(InputRound::begun(self.options, next))
    }

    /// The round's options.
    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// The requests begun for the `elicitation/create` entries, in the order of
    /// `inputRequests`, answered or not. For a round made by `restore`: the requests still
    /// waiting when its snapshot was written (those answered before live on as their
    /// responses only).
    pub fn requests(&self) -> Vec<KeyedRequest> {
        self.requests.clone()
    }

    /// Resolves the elicitation a request of this round stands for with the host's `answer`,
    /// at `now_ms`: its key and the result that will answer it in the retry. Fails as
    /// `Session.resolve` does; invalid content leaves the request pending.
    #[uniffi::method(default(now_ms = None))]
    pub fn resolve(
        &self,
        answer: &Answer,
        now_ms: Option<u64>,
    ) -> Result<KeyedResult, ToolnexusError> {
        let answer = answer.to_core()?;
        let now = now_or_clock(now_ms);
        let keyed = self.inner.with(|round| round.resolve(&answer, now))?;
        Ok(KeyedResult::from_core(keyed))
    }

    /// Gives the host's own result (a JSON object, sent as it is) for an input request the
    /// round does not handle (see `unhandled`); a later call for the same key replaces it.
    /// Fails with `UnknownRequest` for a key no input request has, `InvalidValue` for an
    /// `elicitation/create` key, `WrongType` for a result that is not an object.
    #[uniffi::method(default(limits = None))]
    pub fn supply(
        &self,
        key: &str,
        result_json: String,
        limits: Option<Limits>,
    ) -> Result<(), ToolnexusError> {
        let result = json_text::parse(&result_json, limits)?;
        Ok(self.inner.with(|round| round.supply(key, result))?)
    }

    /// The input requests the round does not handle (any method but `elicitation/create`),
    /// in input order: `supply` a result for each, or leave it out.
    pub fn unhandled(&self) -> Vec<InputRequest> {
        self.inner.with(|round| {
            round
                .unhandled()
                .into_iter()
                .map(InputRequest::from_core)
                .collect()
        })
    }

    /// The keys of the input requests without a response yet, in input order.
    pub fn missing(&self) -> Vec<String> {
        self.inner
            .with(|round| round.missing().into_iter().map(String::from).collect())
    }

    /// The requests still waiting for the host's answer, in input order.
    pub fn pending(&self) -> Vec<KeyedRequest> {
        self.inner.with(|round| {
            round
                .pending()
                .into_iter()
                .map(|(key, request)| KeyedRequest {
                    key: key.into(),
                    request: Request::from_core(request),
                })
                .collect()
        })
    }

    /// The `requestState` the retry will echo, exactly as received, if the server gave one.
    pub fn request_state(&self) -> Option<String> {
        self.inner
            .with(|round| round.request_state().map(String::from))
    }

    /// The server's input-required result this round answers.
    pub fn input_required(&self) -> InputRequired {
        self.inner
            .with(|round| InputRequired::from_core(round.input_required()))
    }

    /// The id of the request the server's result answered: the first request, or the retry
    /// before this round.
    pub fn answered_id(&self) -> RpcId {
        self.inner
            .with(|round| RpcId::from_core(round.answered_id()))
    }

    /// The retry, as JSON-RPC text: the request as first sent with `id`, its capabilities
    /// stamped with the round's modes, and in `params` the `inputResponses` (input order) and
    /// the `requestState` exactly as received.
    ///
    /// Fails with `InvalidValue` for an id with a fraction or one already sent for this
    /// request, however spelt, and, unless `partial`, with `MissingResponses` while input
    /// requests have no response (see `missing`).
    #[uniffi::method(default(partial = false))]
    pub fn retry(&self, id: &RpcId, partial: bool) -> Result<String, ToolnexusError> {
        let id = id.to_core()?;
        Ok(self.inner.with(|round| round.retry(&id, partial))?)
    }

    /// Answers with cancel every elicitation whose time to live lapsed at `now_ms`, in input
    /// order.
    #[uniffi::method(default(now_ms = None))]
    pub fn expire(&self, now_ms: Option<u64>) -> Vec<KeyedResult> {
        let now = now_or_clock(now_ms);
        keyed_results(self.inner.with(|round| round.expire(now)))
    }

    /// Answers with cancel every elicitation still pending, for a person who closed the
    /// dialog, in input order.
    pub fn cancel_pending(&self) -> Vec<KeyedResult> {
        keyed_results(self.inner.with(mrtr::InputRound::cancel_pending))
    }

    /// The round written down, for `restore` in another process or after a restart: a small
    /// versioned JSON document (UTF-8), sealed with HMAC-SHA-256 when `key` is given (then
    /// ASCII: `tnseal1.`, the document and its tag in base64url; the same key gives the same
    /// bytes). It holds the request as first sent, the server's result, the options, the ids
    /// sent, the responses recorded and what awaits completion, never content a person has
    /// not yet sent. Fails with `InvalidValue` at `/key` for a key shorter than 32 bytes
    /// (use 32 random bytes kept as the host's secret).
    #[uniffi::method(default(key = None))]
    pub fn snapshot(&self, key: Option<Vec<u8>>) -> Result<Vec<u8>, ToolnexusError> {
        Ok(self.inner.with(|round| round.snapshot(key.as_deref()))?)
    }

    /// The stable id of the snapshot `snapshot` writes now (43 URL-safe characters): the
    /// SHA-256 of its document, the same whatever key seals it and again after a restore, new
    /// once the round changes. Keep the snapshot under it and claim it once when the answer
    /// comes (Redis `GETDEL`, SQLite `DELETE … RETURNING`).
    pub fn snapshot_id(&self) -> String {
        self.inner.with(|round| round.snapshot_id())
    }

    /// The round a `snapshot` wrote, as it was: the same pending requests (ids and expiry
    /// included), missing keys, answers, refusals and retry; its options are the snapshot's.
    /// `keys` are the keys it may be sealed with (the current one and those being retired);
    /// with none, it must be unsealed. It is read within `limits` at `now_ms` (the clock when
    /// absent).
    ///
    /// Fails, with nothing made: `InvalidValue` at `/keys/<i>` for a key shorter than 32
    /// bytes; `InvalidSeal` at `""` for a seal that does not check out (or
    /// a sealed snapshot without keys, or an unsealed one with keys), the JSON errors within
    /// `limits`, `InvalidValue` at `/snapshot` or `/version` for another kind of snapshot or a
    /// version this does not read, `Expired` at `/expiresAtMs` when `now_ms` is past the
    /// earliest expiry of a pending request (at `/beganAtMs` a day after the round began when
    /// it has no expiry of its own), and the errors of each member at its pointer
    /// (`InvalidValue` at `/requestIds` for request ids the round's input would not give,
    /// `UnknownField` at `/responses/<key>` for a key no input request has).
    #[uniffi::constructor(default(keys = [], limits = None, now_ms = None))]
    pub fn restore(
        snapshot: Vec<u8>,
        keys: Vec<Vec<u8>>,
        limits: Option<Limits>,
        now_ms: Option<u64>,
    ) -> Result<Arc<InputRound>, ToolnexusError> {
        let round = restore_with(&snapshot, &keys, limits, now_ms, mrtr::InputRound::restore)?;
        let requests = round
            .pending()
            .into_iter()
            .map(|(key, request)| (String::from(key), request.clone()))
            .collect();
        let options = SessionOptions::from_core(round.session().options());
        Ok(InputRound::begun(options, (round, requests)))
    }
}
