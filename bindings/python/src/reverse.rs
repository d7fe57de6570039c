//! `toolnexus.ReverseBridge` and `toolnexus.Incoming`: the MCP 2025-06-18 / 2025-11-25 wire,
//! where the server sends `elicitation/create` and the client answers with a JSON-RPC response.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use toolnexus_core::ErrorKind;
use toolnexus_core::form::Form;
use toolnexus_core::wire::reverse::{Incoming, ReverseBridge};
use toolnexus_core::wire::rpc::{ErrorCode, RpcId};

use crate::contract::PyRequest;
use crate::convert::map_to_python;
use crate::errors::OrRaise;
use crate::limits::PyLimits;
use crate::repr::Repr;
use crate::session::{Snapshot, read_answer, request_list};
use crate::wire::{Shared, message_bytes, modes_tuple, rpc_id_to_python, session_class};

/// What a message from the server asks of the host; `type` says which, and only the fields
/// of that type are set (the others are `None`):
///
/// - `"elicit"`: an `elicitation/create` to show; `request` (the `Request`) and `rpc_id`
///   (the server's id). Answer it with `ReverseBridge.respond` or `ReverseBridge.fail`.
/// - `"reply"`: an error response to send back at once, in `reply`; nothing else changed.
/// - `"completed"`: the URL interaction of `request_id` is complete; close its UI. `reply` is
///   a cancel response to send when the request had not been answered yet.
/// - `"withdrawn"`: the server withdrew the pending `request_id`; close its UI, send nothing.
/// - `"ignored"`: nothing to do; `reason` says why (`"response"`, `"notification"`,
///   `"unknown_elicitation"`, `"unknown_request"`, `"malformed_notification"`).
#[pyclass(frozen, eq, module = "toolnexus", name = "Incoming")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyIncoming {
    incoming: Incoming,
    /// For `"elicit"` in form mode: the form the bridge's session prepared.
    form: Option<Arc<Form>>,
}

#[pymethods]
impl PyIncoming {
    /// `"elicit"`, `"reply"`, `"completed"`, `"withdrawn"` or `"ignored"`.
    #[getter(r#type)]
    fn kind(&self) -> &'static str {
        match &self.incoming {
            Incoming::Elicit { .. } => "elicit",
            Incoming::Reply(_) => "reply",
            Incoming::Completed { .. } => "completed",
            Incoming::Withdrawn { .. } => "withdrawn",
            Incoming::Ignored { .. } => "ignored",
        }
    }

    /// For `"elicit"`: the server's JSON-RPC id (`str`, `int`, or a `Number` for an integer
    /// spelt otherwise, such as `1.0`).
    #[getter]
    fn rpc_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &self.incoming {
            Incoming::Elicit { rpc_id, .. } => rpc_id_to_python(py, rpc_id).map(Some),
            _ => Ok(None),
        }
    }

    /// For `"elicit"`: the `Request` to show.
    #[getter]
    fn request(&self) -> Option<PyRequest> {
        match &self.incoming {
            Incoming::Elicit { request, .. } => {
                Some(PyRequest::prepared(request.clone(), self.form.clone()))
            }
            _ => None,
        }
    }

    /// For `"reply"`, and for `"completed"` when there is one: the JSON-RPC text to send.
    #[getter]
    fn reply(&self) -> Option<&str> {
        match &self.incoming {
            Incoming::Reply(text) => Some(text),
            Incoming::Completed { reply, .. } => reply.as_deref(),
            _ => None,
        }
    }

    /// For `"completed"` and `"withdrawn"`: the id of the request it ends.
    #[getter]
    fn request_id(&self) -> Option<&str> {
        match &self.incoming {
            Incoming::Completed { request_id, .. } | Incoming::Withdrawn { request_id } => {
                Some(request_id)
            }
            _ => None,
        }
    }

    /// For `"ignored"`: why, as a stable snake_case name.
    #[getter]
    fn reason(&self) -> Option<&'static str> {
        match &self.incoming {
            Incoming::Ignored { why } => Some(why.as_str()),
            _ => None,
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr = Repr::new("Incoming").field("type", self.kind(), py)?;
        if let Some(rpc_id) = self.rpc_id(py)? {
            repr = repr.field("rpc_id", rpc_id, py)?;
        }
        if let Some(request) = self.request() {
            repr = repr.field("request", request, py)?;
        }
        if let Some(request_id) = self.request_id() {
            repr = repr.field("request_id", request_id, py)?;
        }
        if let Some(reply) = self.reply() {
            repr = repr.field("reply", reply, py)?;
        }
        if let Some(reason) = self.reason() {
            repr = repr.field("reason", reason, py)?;
        }
        Ok(repr.finish())
    }
}

/// One client's end of the 2025 elicitation wire: JSON-RPC messages from the server in
/// (`receive`), `Request`s out to the host, `Answer`s in (`respond`), JSON-RPC responses out,
/// with the server's id echoed exactly. Every rule of `Session` holds. Takes the options of
/// `Session`.
///
/// Request ids are `format_id(now_ms, n)`, `n` counting the requests begun from 1, so the
/// same messages at the same times give the same ids. Safe to share between threads, as a
/// `Session` is.
#[pyclass(frozen, module = "toolnexus", name = "ReverseBridge")]
pub(crate) struct PyReverseBridge {
    inner: Shared<ReverseBridge>,
}

session_class! {
    PyReverseBridge, ReverseBridge::new;

    /// Takes one message from the server (JSON text: `str`, `bytes` or `bytearray`),
    /// received at `now_ms`, read within `limits`. Never raises for what the message holds:
    /// whatever is wrong with it is an `Incoming` of type `"reply"` (the error response to
    /// send) or `"ignored"`.
    #[pyo3(signature = (message, now_ms, *, limits = None))]
    fn receive(
        &self,
        py: Python<'_>,
        message: &Bound<'_, PyAny>,
        now_ms: u64,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyIncoming> {
        let bytes = message_bytes(message, "a message")?;
        let limits = PyLimits::or_default(limits);
        Ok(self.inner.with(py, |bridge| {
            let incoming = bridge.receive(&bytes, now_ms, &limits);
            let form = match &incoming {
                Incoming::Elicit { request, .. } => {
                    bridge.session().form(request.id()).cloned().map(Arc::new)
                }
                _ => None,
            };
            PyIncoming { incoming, form }
        }))
    }

    /// Answers the pending request named by `answer` (an `Answer`, its `dict` or JSON text)
    /// at `now_ms`: the JSON-RPC response to send, or `None` for a request of a `-32042`
    /// error, which gets none. Raises as `Session.resolve` does, with nothing changed.
    #[pyo3(signature = (answer, now_ms, *, limits = None))]
    fn respond(
        &self,
        py: Python<'_>,
        answer: &Bound<'_, PyAny>,
        now_ms: u64,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<Option<String>> {
        let answer = read_answer(answer, limits)?;
        self.inner
            .with(py, |bridge| bridge.respond(&answer, now_ms))
            .or_raise(py)
    }

    /// Reports that the host could not handle the pending request `request_id`: it ends, and
    /// the `-32603` error response carrying `message` is returned to send (`None` for a
    /// request of a `-32042` error). `UnknownRequestError` if it is not pending.
    #[pyo3(signature = (request_id, message = ""))]
    fn fail(&self, py: Python<'_>, request_id: &str, message: &str) -> PyResult<Option<String>> {
        self.inner
            .with(py, |bridge| bridge.fail(request_id, message))
            .or_raise(py)
    }

    /// Reads a `-32042` URLElicitationRequiredError the server sent in answer to one of the
    /// host's own requests (JSON text), received at `now_ms`: a `Request` for each URL
    /// elicitation it carries and that is not pending already, in order. They get no
    /// response; once each completes (`Incoming` of type `"completed"`), retry the request.
    ///
    /// Raises with nothing begun: `InvalidValueError` at `/error/code` for another code,
    /// `MissingFieldError` without `error.data.elicitations`, the errors of each elicitation
    /// under `/error/data/elicitations/<i>`, and those of `Session.begin`.
    #[pyo3(signature = (error_response, now_ms, *, limits = None))]
    fn url_required<'py>(
        &self,
        py: Python<'py>,
        error_response: &Bound<'py, PyAny>,
        now_ms: u64,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let bytes = message_bytes(error_response, "an error response")?;
        let limits = PyLimits::or_default(limits);
        let requests = self
            .inner
            .with(py, |bridge| bridge.url_required(&bytes, now_ms, &limits))
            .or_raise(py)?;
        request_list(py, requests)
    }

    /// The client capabilities to declare at initialization: `{"elicitation": {"form": {},
    /// "url": {}}}` with a member for each supported mode (`{}` for none).
    fn capabilities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let capabilities = self.inner.with(py, |bridge| bridge.capabilities());
        map_to_python(py, &capabilities)
    }

    /// Answers every pending `elicitation/create` with cancel, for shutdown: the responses
    /// to send, in the order the requests began.
    fn cancel_all(&self, py: Python<'_>) -> Vec<String> {
        self.inner.with(py, ReverseBridge::cancel_all)
    }

    /// Ends every request whose time to live lapsed at `now_ms` with a cancel: the responses
    /// to send, in the order the requests began.
    fn expire(&self, py: Python<'_>, now_ms: u64) -> Vec<String> {
        self.inner.with(py, |bridge| bridge.expire(now_ms))
    }

    /// The requests waiting for the host's answer, in the order they began.
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let snapshot = self
            .inner
            .with(py, |bridge| Snapshot::pending(bridge.session()));
        snapshot.pending_list(py)
    }

    /// The URL requests accepted and waiting for the server's completion notification, as
    /// `(request_id, elicitation_id)` pairs.
    fn awaiting_completion<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let snapshot = self
            .inner
            .with(py, |bridge| Snapshot::awaiting(bridge.session()));
        snapshot.awaiting_list(py)
    }

    /// The server's JSON-RPC id for the pending request `request_id`, or `None` (not pending,
    /// or begun from a `-32042` error, which has none).
    fn rpc_id<'py>(
        &self,
        py: Python<'py>,
        request_id: &str,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let rpc_id: Option<RpcId> = self
            .inner
            .with(py, |bridge| bridge.rpc_id(request_id).cloned());
        rpc_id.map(|id| rpc_id_to_python(py, &id)).transpose()
    }

    /// The modes the host supports.
    #[getter]
    fn modes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let modes = self
            .inner
            .with(py, |bridge| bridge.session().options().modes());
        modes_tuple(py, modes)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let snapshot = self
            .inner
            .with(py, |bridge| Snapshot::of(bridge.session()));
        snapshot.repr(py, "ReverseBridge")
    }
}

/// The JSON-RPC error code a client answers an `elicitation/create` with when its session
/// refuses to begin it with an error of `kind` (as `Error.kind` names it): `-32603` when the
/// fault is the client's (a full session, an id already pending), `-32602` otherwise. The
/// rule is the core's, so every binding answers alike.
#[pyfunction]
pub(crate) fn refusal_code(kind: &str) -> PyResult<i64> {
    ErrorKind::from_name(kind)
        .map(|kind| ErrorCode::for_refusal(kind).code())
        .ok_or_else(|| PyValueError::new_err(format!("no error kind is called {kind:?}")))
}
