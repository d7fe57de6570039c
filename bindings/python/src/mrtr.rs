//! The MCP 2026-07-28 multi round-trip wire: `ClientRequest`, `InputRequired`,
//! `InputRequest`, `ServerResult`, `InputRound`, `with_client_capabilities` and
//! `classify_result`.
//!
//! A server answers a request with `resultType: "input_required"`; the client resolves each
//! `elicitation/create` entry through the round's session and retries the original request
//! with `inputResponses` and the `requestState` echoed exactly.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use toolnexus_core::Request;
use toolnexus_core::wire::mrtr::{
    ClientRequest, InputRequest, InputRequired, InputRound, ServerResult,
};

use crate::classes::{json_class, read_argument, wraps};
use crate::contract::{PyElicitResult, PyRequest};
use crate::convert::{Reader, map_to_python};
use crate::errors::OrRaise;
use crate::input::read_json;
use crate::limits::PyLimits;
use crate::repr::Repr;
use crate::session::{prepared_request, read_answer, result_pairs};
use crate::snapshot::{read_bytes, restore_with};
use crate::wire::{ModesArg, Shared, pairs, rpc_id_from_python, rpc_id_to_python, session_options};

/// A JSON-RPC request the client sends, every member kept as received: in its order, with
/// numbers as spelt. Read with `from_json` or `from_dict`, which raise for a `jsonrpc` other
/// than `"2.0"`, an `id` that is absent or not a string or an integer, an absent or empty
/// `method`, `params` that is not an object, or a `params._meta` (or the capabilities in it)
/// that is not an object.
#[pyclass(frozen, eq, module = "toolnexus", name = "ClientRequest")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyClientRequest(ClientRequest);

wraps!(PyClientRequest(ClientRequest));

json_class! {
    PyClientRequest;

    /// The JSON-RPC id, as received (`str`, `int`, or a `Number` for an integer spelt
    /// otherwise).
    #[getter]
    fn id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        rpc_id_to_python(py, self.0.id())
    }

    /// The method (`"tools/call"`, `"prompts/get"`, …).
    #[getter]
    fn method(&self) -> &str {
        self.0.method()
    }

    /// The params (a new `dict` on each access), if any.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0.params().map(|p| map_to_python(py, p)).transpose()
    }

    /// The request with `params._meta["io.modelcontextprotocol/clientCapabilities"]
    /// .elicitation` set for `modes` (removed for none), everything else kept in its place.
    #[pyo3(signature = (*, modes = None))]
    fn with_client_capabilities(&self, modes: Option<ModesArg>) -> PyClientRequest {
        PyClientRequest(
            self.0
                .clone()
                .with_client_capabilities(ModesArg::or_default(modes)),
        )
    }

    /// The request as compact JSON, members in the order received.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("ClientRequest")
            .field("id", rpc_id_to_python(py, self.0.id())?, py)?
            .field("method", self.0.method(), py)?
            .finish())
    }
}

/// One entry of `inputRequests`: a request the server needs fulfilled before the retry.
#[pyclass(frozen, eq, module = "toolnexus", name = "InputRequest")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyInputRequest(InputRequest);

#[pymethods]
impl PyInputRequest {
    /// The server's key for this request.
    #[getter]
    fn key(&self) -> &str {
        self.0.key()
    }

    /// The method (`"elicitation/create"`, `"sampling/createMessage"`, `"roots/list"`, …).
    #[getter]
    fn method(&self) -> &str {
        self.0.method()
    }

    /// The params as received (a new `dict` on each access), if any.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0.params().map(|p| map_to_python(py, p)).transpose()
    }

    /// Whether this is an `elicitation/create`, which an `InputRound` answers itself.
    #[getter]
    fn is_elicitation(&self) -> bool {
        self.0.elicitation().is_some()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("InputRequest")
            .field("key", self.0.key(), py)?
            .field("method", self.0.method(), py)?
            .finish())
    }
}

/// `requests` as a list of `InputRequest`.
pub(crate) fn input_request_list<'py>(
    py: Python<'py>,
    requests: Vec<InputRequest>,
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, requests.into_iter().map(PyInputRequest))
}

/// A result with `resultType: "input_required"`: the input requests, in the server's order,
/// and the opaque `requestState`. Read from the whole JSON-RPC response or the result alone,
/// with `from_json` or `from_dict`; a result of any other `resultType` (or none, which means
/// complete) raises `InvalidValueError` at its `resultType` (`classify_result` tells the kinds
/// apart without an error).
#[pyclass(frozen, eq, module = "toolnexus", name = "InputRequired")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyInputRequired(InputRequired);

wraps!(PyInputRequired(InputRequired));

json_class! {
    PyInputRequired;

    /// The input requests, in the order the server gave them.
    #[getter]
    fn input_requests<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        input_request_list(py, self.0.input_requests().to_vec())
    }

    /// The server's `requestState`, exactly as received, if it gave one.
    #[getter]
    fn request_state(&self) -> Option<&str> {
        self.0.request_state()
    }

    /// The id of the JSON-RPC response the result came in, when it came in one.
    #[getter]
    fn response_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.0
            .response_id()
            .map(|id| rpc_id_to_python(py, id))
            .transpose()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let keys: Vec<&str> = self.0.input_requests().iter().map(|r| r.key()).collect();
        Ok(Repr::new("InputRequired")
            .field("keys", keys, py)?
            .field("request_state", self.0.request_state(), py)?
            .finish())
    }
}

/// What a server's result is, by its `resultType`; `type` says which:
///
/// - `"complete"`: the final result (`resultType` `"complete"` or absent), in `result`.
/// - `"input_required"`: the server needs input; `input_required` holds it.
/// - `"unknown"`: a `resultType` this version does not define, in `result_type`; the result
///   is in `result`.
#[pyclass(frozen, eq, module = "toolnexus", name = "ServerResult")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyServerResult(ServerResult);

#[pymethods]
impl PyServerResult {
    /// `"complete"`, `"input_required"` or `"unknown"`.
    #[getter(r#type)]
    fn kind(&self) -> &'static str {
        match &self.0 {
            ServerResult::Complete(_) => "complete",
            ServerResult::InputRequired(_) => "input_required",
            ServerResult::Unknown { .. } => "unknown",
        }
    }

    /// The result object as received (a new `dict` on each access), for `"complete"` and
    /// `"unknown"`.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match &self.0 {
            ServerResult::Complete(map) | ServerResult::Unknown { result: map, .. } => {
                map_to_python(py, map).map(Some)
            }
            ServerResult::InputRequired(_) => Ok(None),
        }
    }

    /// The `resultType` received, for `"unknown"`.
    #[getter]
    fn result_type(&self) -> Option<&str> {
        match &self.0 {
            ServerResult::Unknown { result_type, .. } => Some(result_type),
            _ => None,
        }
    }

    /// The input-required result, for `"input_required"`.
    #[getter]
    fn input_required(&self) -> Option<PyInputRequired> {
        match &self.0 {
            ServerResult::InputRequired(input) => Some(PyInputRequired(input.clone())),
            _ => None,
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr = Repr::new("ServerResult").field("type", self.kind(), py)?;
        if let Some(result_type) = self.result_type() {
            repr = repr.field("result_type", result_type, py)?;
        }
        Ok(repr.finish())
    }
}

/// Tells a server's result apart by its `resultType`: the whole JSON-RPC response or the
/// result object alone, as JSON text or a `dict`. A JSON-RPC error response raises
/// `InvalidValueError` at `/error`; an input-required result is read whole, with its errors.
#[pyfunction]
#[pyo3(signature = (response, *, limits = None))]
pub(crate) fn classify_result(
    response: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<PyServerResult> {
    let py = response.py();
    let value = read_json(response, &PyLimits::or_default(limits)).or_raise(py)?;
    ServerResult::from_value(value)
        .or_raise(py)
        .map(PyServerResult)
}

/// Stamps the `elicitation` capability for `modes` onto a JSON-RPC request (a
/// `ClientRequest`, JSON text or a `dict`): the request as compact JSON, with
/// `params._meta["io.modelcontextprotocol/clientCapabilities"].elicitation` set (removed when
/// no mode is given) and everything else kept in its place.
#[pyfunction]
#[pyo3(signature = (request, *, modes = None, limits = None))]
pub(crate) fn with_client_capabilities(
    request: &Bound<'_, PyAny>,
    modes: Option<ModesArg>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<String> {
    let request = read_argument::<PyClientRequest>(request, limits)?.into_owned();
    Ok(request
        .with_client_capabilities(ModesArg::or_default(modes))
        .to_json())
}

/// `(key, Request)` pairs for Python.
fn keyed_requests<'py>(
    py: Python<'py>,
    requests: Vec<(String, PyRequest)>,
) -> PyResult<Bound<'py, PyList>> {
    pairs(py, requests, |request| {
        Ok(Bound::new(py, request)?.into_any())
    })
}

/// `requests` of `round`, each with the form the round's session prepared for it.
fn with_forms(
    round: &InputRound,
    requests: impl IntoIterator<Item = (String, Request)>,
) -> Vec<(String, PyRequest)> {
    requests
        .into_iter()
        .map(|(key, request)| (key, prepared_request(round.session(), request)))
        .collect()
}

/// `(round, [(key, Request), …])` for Python.
fn begun<'py>(
    py: Python<'py>,
    (round, requests): (InputRound, Vec<(String, Request)>),
) -> PyResult<Bound<'py, PyTuple>> {
    let requests = with_forms(&round, requests);
    let round = Bound::new(
        py,
        PyInputRound {
            inner: Shared::new(round),
        },
    )?;
    PyTuple::new(
        py,
        [round.into_any(), keyed_requests(py, requests)?.into_any()],
    )
}

/// One round of a multi round-trip request: the client's request, the server's
/// input-required result for it, the elicitations begun for it (each a `Request` for the
/// host, checked by a session with the options of `Session`) and the responses gathered.
///
/// Start one with `InputRound.start`; resolve each `Request` with `resolve`, supply results
/// for the `unhandled` entries, then write the `retry`. When the server asks again, continue
/// with `next_round`. Safe to share between threads, as a `Session` is.
#[pyclass(frozen, module = "toolnexus", name = "InputRound")]
pub(crate) struct PyInputRound {
    inner: Shared<InputRound>,
}

#[pymethods]
impl PyInputRound {
    /// Starts the round for `request` (as the client first sent it: a `ClientRequest`, JSON
    /// text or a `dict`) and `response`, the server's input-required result for it (an
    /// `InputRequired`, the JSON-RPC response or the result, as JSON text or a `dict`),
    /// received at `now_ms`: `(round, [(key, Request), …])`, a `Request` for each
    /// `elicitation/create` entry, in the order of `inputRequests`.
    ///
    /// Request ids are `format_id(now_ms, n)`, `n` counting from 1. Errors point into the
    /// text they were read from: a response whose `id` is not the request's
    /// (`InvalidValueError` at `/id`), or an elicitation the session refuses (under
    /// `…/inputRequests/<key>/params`).
    #[staticmethod]
    #[pyo3(signature = (
        request,
        response,
        now_ms,
        *,
        modes = None,
        max_pending = None,
        ttl_ms = None,
        apply_defaults = None,
        allow_unknown = None,
        reject_secrets = None,
        limits = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn start<'py>(
        py: Python<'py>,
        request: &Bound<'py, PyAny>,
        response: &Bound<'py, PyAny>,
        now_ms: u64,
        modes: Option<ModesArg>,
        max_pending: Option<usize>,
        ttl_ms: Option<u64>,
        apply_defaults: Option<bool>,
        allow_unknown: Option<bool>,
        reject_secrets: Option<bool>,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let options = session_options(
            modes,
            max_pending,
            ttl_ms,
            apply_defaults,
            allow_unknown,
            reject_secrets,
        );
        let request = read_argument::<PyClientRequest>(request, limits)?.into_owned();
        let input = read_argument::<PyInputRequired>(response, limits)?.into_owned();
        let started = InputRound::start(request, input, options, now_ms).or_raise(py)?;
        begun(py, started)
    }

    /// Starts the next round of the same request: `response` is the server's answer to this
    /// round's last `retry` (it asks again). Request ids go on counting, and every id sent
    /// stays taken. `InvalidValueError` when no retry was written yet.
    #[pyo3(signature = (response, now_ms, *, limits = None))]
    fn next_round<'py>(
        &self,
        py: Python<'py>,
        response: &Bound<'py, PyAny>,
        now_ms: u64,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let input = read_argument::<PyInputRequired>(response, limits)?.into_owned();
        let next = self
            .inner
            .with(py, |round| round.next_round(input, now_ms))
            .or_raise(py)?;
        begun(py, next)
    }

    /// Resolves the elicitation a `Request` of this round stands for with the host's
    /// `answer` (an `Answer`, its `dict` or JSON text), at `now_ms`: `(key, ElicitResult)`.
    /// Raises as `Session.resolve` does; invalid content leaves the request pending.
    #[pyo3(signature = (answer, now_ms, *, limits = None))]
    fn resolve<'py>(
        &self,
        py: Python<'py>,
        answer: &Bound<'py, PyAny>,
        now_ms: u64,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<(String, PyElicitResult)> {
        let answer = read_answer(answer, limits)?;
        let (key, result) = self
            .inner
            .with(py, |round| round.resolve(&answer, now_ms))
            .or_raise(py)?;
        Ok((key, PyElicitResult(result)))
    }

    /// Gives the host's own `result` (a `dict`, sent as it is) for an input request this
    /// class does not handle (see `unhandled`); a later call for the same key replaces it.
    /// Raises `UnknownRequestError` for a key no input request has, `InvalidValueError` for
    /// an `elicitation/create` key, `WrongTypeError` for a result that is not an object.
    #[pyo3(signature = (key, result, *, limits = None))]
    fn supply(
        &self,
        py: Python<'_>,
        key: &str,
        result: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<()> {
        let value = Reader::new(py, &PyLimits::or_default(limits))
            .read(result)
            .or_raise(py)?;
        self.inner
            .with(py, |round| round.supply(key, value))
            .or_raise(py)
    }

    /// The input requests this class does not handle (any method but
    /// `elicitation/create`), in input order: `supply` a result for each, or leave it out.
    fn unhandled<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let requests = self.inner.with(py, |round| {
            round.unhandled().into_iter().cloned().collect::<Vec<_>>()
        });
        input_request_list(py, requests)
    }

    /// The keys of the input requests without a response yet, in input order.
    fn missing(&self, py: Python<'_>) -> Vec<String> {
        self.inner.with(py, |round| {
            round.missing().into_iter().map(str::to_owned).collect()
        })
    }

    /// The requests still waiting for the host's answer, as `(key, Request)` pairs in input
    /// order.
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let requests = self.inner.with(py, |round| {
            let pending = round.pending().into_iter();
            let pending = pending.map(|(key, request)| (key.to_owned(), request.clone()));
            with_forms(round, pending.collect::<Vec<_>>())
        });
        keyed_requests(py, requests)
    }

    /// The `requestState` the retry will echo, exactly as received, if the server gave one.
    #[getter]
    fn request_state(&self, py: Python<'_>) -> Option<String> {
        self.inner
            .with(py, |round| round.request_state().map(str::to_owned))
    }

    /// The server's input-required result this round answers.
    #[getter]
    fn input_required(&self, py: Python<'_>) -> PyInputRequired {
        PyInputRequired(self.inner.with(py, |round| round.input_required().clone()))
    }

    /// The id of the request the server's result answered: the first request, or the retry
    /// before this round.
    #[getter]
    fn answered_id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let id = self.inner.with(py, |round| round.answered_id().clone());
        rpc_id_to_python(py, &id)
    }

    /// The retry, as JSON-RPC text: the request as first sent with `id` (a `str`, an `int`,
    /// or a `Number` for an integer spelt otherwise), the capabilities stamped, and in
    /// `params` the `inputResponses` (input order) and the `requestState` exactly as received.
    ///
    /// Raises `InvalidValueError` for an id with a fraction or one already sent for this
    /// request, however spelt, and, unless `partial`, `MissingResponsesError` while input
    /// requests have no response (see `missing`).
    #[pyo3(signature = (id, *, partial = false))]
    fn retry(&self, py: Python<'_>, id: &Bound<'_, PyAny>, partial: bool) -> PyResult<String> {
        if id.is_none() {
            return Err(PyTypeError::new_err(
                "a retry needs a new JSON-RPC id (a str or an int)",
            ));
        }
        let id = rpc_id_from_python(id)?;
        self.inner
            .with(py, |round| round.retry(&id, partial))
            .or_raise(py)
    }

    /// Answers with cancel every elicitation whose time to live lapsed at `now_ms`:
    /// `(key, cancel)` pairs in input order.
    fn expire<'py>(&self, py: Python<'py>, now_ms: u64) -> PyResult<Bound<'py, PyList>> {
        let lapsed = self.inner.with(py, |round| round.expire(now_ms));
        result_pairs(py, lapsed)
    }

    /// Answers with cancel every elicitation still pending, for a person who closed the
    /// dialog: `(key, cancel)` pairs in input order.
    fn cancel_pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cancelled = self.inner.with(py, InputRound::cancel_pending);
        result_pairs(py, cancelled)
    }

    /// The round written down: a small versioned JSON document (`bytes`), sealed with
    /// HMAC-SHA-256 when `key` (`bytes` or `str`) is given, for `InputRound.restore` in
    /// another process. It holds what the server asked and what was answered, never content
    /// a person has not yet sent.
    ///
    /// Raises `InvalidValueError` at `/key` for a key shorter than 32 bytes: use random
    /// bytes (`secrets.token_bytes(32)`) kept as the host's secret.
    #[pyo3(signature = (*, key = None))]
    fn snapshot<'py>(
        &self,
        py: Python<'py>,
        key: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let key = key.map(|k| read_bytes(k, "key")).transpose()?;
        let bytes = self
            .inner
            .with(py, |round| round.snapshot(key.as_deref()))
            .or_raise(py)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The stable id of the snapshot `snapshot` writes now (43 characters, URL-safe): the
    /// SHA-256 of its document, the same whatever key seals it and again after a restore,
    /// new once the round changes. Keep the snapshot under it and claim it once when the
    /// answer comes (Redis `GETDEL`, SQLite `DELETE … RETURNING`).
    #[getter]
    fn snapshot_id(&self, py: Python<'_>) -> String {
        self.inner.with(py, |round| round.snapshot_id())
    }

    /// The round a `snapshot` wrote (`bytes` or `str`), as it was: the same pending
    /// requests, missing keys, answers, refusals and retry. `keys` are the keys it may be
    /// sealed with (the current one and those being retired); with none it must be unsealed.
    /// `now_ms` (default: now) is checked against the earliest expiry of a pending request.
    ///
    /// Raises, with nothing made: `InvalidSealError` (a seal that does not check out, a
    /// sealed snapshot without keys or an unsealed one with keys), `InvalidValueError` at
    /// `/keys/<i>` for a key shorter than 32 bytes, the JSON errors within
    /// `limits`, `InvalidValueError` at `/snapshot` or `/version` for another kind or version
    /// of snapshot, `ExpiredError` at `/expiresAtMs` after the expiry (at `/beganAtMs` a day
    /// after the round began when it has no expiry of its own), and the errors of each
    /// member at its pointer.
    #[staticmethod]
    #[pyo3(
        signature = (snapshot, *, keys = None, limits = None, now_ms = None),
        text_signature = "(snapshot, *, keys=(), limits=None, now_ms=None)"
    )]
    fn restore(
        py: Python<'_>,
        snapshot: &Bound<'_, PyAny>,
        keys: Option<&Bound<'_, PyAny>>,
        limits: Option<&Bound<'_, PyLimits>>,
        now_ms: Option<u64>,
    ) -> PyResult<PyInputRound> {
        let round = restore_with(py, snapshot, keys, limits, now_ms, InputRound::restore)?;
        Ok(PyInputRound {
            inner: Shared::new(round),
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let (missing, state) = self.inner.with(py, |round| {
            let missing: Vec<String> = round.missing().into_iter().map(str::to_owned).collect();
            (missing, round.request_state().map(str::to_owned))
        });
        Ok(Repr::new("InputRound")
            .field("missing", missing, py)?
            .field("request_state", state, py)?
            .finish())
    }
}
