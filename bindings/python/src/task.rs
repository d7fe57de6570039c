//! Tasks: `TaskDriver`, `TaskInfo`, `TaskEvent` and `TaskCall`. A server runs a tool call as a
//! task (MCP 2025-11-25, or the 2026-07-28 tasks extension); the client polls it until it ends,
//! answering the input requests it makes on the way.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};
use toolnexus_core::form::Form;
use toolnexus_core::wire::client::Era;
use toolnexus_core::wire::task::{TaskCall, TaskDriver, TaskEvent, TaskInfo, TaskStatus};
use toolnexus_core::{Error, ErrorKind, Limits, Request, Value};

use crate::contract::{PyElicitResult, PyRequest};
use crate::convert::{Reader, map_to_python};
use crate::errors::{OrRaise, named};
use crate::form::PyForm;
use crate::input::read_json;
use crate::limits::PyLimits;
use crate::mrtr::input_request_list;
use crate::repr::Repr;
use crate::session::{read_answer, result_pairs};
use crate::wire::{
    MessageBytes, ModesArg, Shared, message_bytes, pairs, rpc_id_from_python, session_options,
};

/// The era named `name`: `"modern"` (2026-07-28) or `"handshake"` (2025-06-18, 2025-11-25).
fn era_of(py: Python<'_>, name: &str) -> PyResult<Era> {
    let from_name = |name: &str| match name {
        "modern" => Some(Era::Modern),
        "handshake" => Some(Era::Handshake),
        _ => None,
    };
    named(py, name, from_name, "an era (\"modern\" or \"handshake\")")
}

/// The name of `era`, as `era_of` reads it.
fn era_name(era: Era) -> &'static str {
    match era {
        Era::Modern => "modern",
        Era::Handshake => "handshake",
    }
}

/// A response argument as the bytes of its JSON text: text (`str`, `bytes`, `bytearray`) as
/// given, anything else (a `dict`) read within `limits` and written as compact JSON, which the
/// core then reads as it reads text off the wire.
fn response_text<'py>(
    response: &Bound<'py, PyAny>,
    limits: &Limits,
) -> PyResult<MessageBytes<'py>> {
    let is_text = response.is_instance_of::<PyString>()
        || response.is_instance_of::<PyBytes>()
        || response.is_instance_of::<PyByteArray>();
    if is_text {
        return message_bytes(response, "a response");
    }
    let py = response.py();
    let value = Reader::new(py, limits).read(response).or_raise(py)?;
    Ok(MessageBytes::Copied(value.to_json().into_bytes()))
}

/// `request` with the form `driver` prepared for it, for Python.
fn prepared(driver: &TaskDriver, request: Request) -> PyRequest {
    let form = driver.form(request.id()).cloned().map(Arc::new);
    PyRequest::prepared(request, form)
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

/// A task as the server last described it, in either era's spelling (`ttl` and
/// `pollInterval` in 2025-11-25, `ttlMs` and `pollIntervalMs` since): plain data, equal and
/// hashed by value.
#[pyclass(frozen, eq, hash, get_all, module = "toolnexus", name = "TaskInfo")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyTask {
    /// The server's id for the task.
    task_id: String,
    /// Where the task stands: `"working"`, `"input_required"`, `"completed"`, `"failed"` or
    /// `"cancelled"` (see `STATUSES`).
    status: &'static str,
    /// The server's words on the current status, if any.
    status_message: Option<String>,
    /// When the task was created, as the server wrote it.
    created_at: Option<String>,
    /// When the task last changed, as the server wrote it.
    last_updated_at: Option<String>,
    /// How long the server keeps the task from its creation, in milliseconds; `None` when
    /// unlimited or not said.
    ttl_ms: Option<u64>,
    /// The poll interval the server suggests, in milliseconds, if it suggests one.
    poll_interval_ms: Option<u64>,
}

impl PyTask {
    fn from_core(task: &TaskInfo) -> PyTask {
        PyTask {
            task_id: task.task_id().to_owned(),
            status: task.status().as_str(),
            status_message: task.status_message().map(str::to_owned),
            created_at: task.created_at().map(str::to_owned),
            last_updated_at: task.last_updated_at().map(str::to_owned),
            ttl_ms: task.ttl_ms(),
            poll_interval_ms: task.poll_interval_ms(),
        }
    }
}

#[pymethods]
impl PyTask {
    /// Every status a task can have, in the core's order.
    #[classattr]
    #[pyo3(name = "STATUSES")]
    fn statuses(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        PyTuple::new(py, TaskStatus::ALL.map(TaskStatus::as_str))
    }

    /// The task as a `dict` of its attributes, by name, in order (`None` for those not set).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("task_id", &self.task_id)?;
        dict.set_item("status", self.status)?;
        dict.set_item("status_message", &self.status_message)?;
        dict.set_item("created_at", &self.created_at)?;
        dict.set_item("last_updated_at", &self.last_updated_at)?;
        dict.set_item("ttl_ms", self.ttl_ms)?;
        dict.set_item("poll_interval_ms", self.poll_interval_ms)?;
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr = Repr::new("TaskInfo")
            .field("task_id", &self.task_id, py)?
            .field("status", self.status, py)?;
        if let Some(message) = &self.status_message {
            repr = repr.field("status_message", message, py)?;
        }
        Ok(repr.finish())
    }
}

/// What a poll of the task says; `type` says which, and only the fields of that kind are set
/// (the others are `None`):
///
/// - `"working"`: the task is working; `changed` says whether its status or status message
///   differ from the last reply read.
/// - `"input_required"`: the task needs input. `requests` are the `(key, Request)` pairs not
///   shown before, in the server's order (empty when every one was shown already, and always
///   in the handshake era, whose requests arrive as `elicitation/create` while `tasks/result`
///   is open).
/// - `"completed"`: the tool's result (even one with `isError`) in `result`; `None` in the
///   handshake era, which fetches it with `tasks/result`.
/// - `"failed"`: the JSON-RPC error object in `error`, when the server gave one.
/// - `"cancelled"`: the task was cancelled.
#[pyclass(frozen, eq, module = "toolnexus", name = "TaskEvent")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyTaskEvent {
    event: TaskEvent,
    /// For `"input_required"`: the form the driver prepared for each request, in order.
    forms: Vec<Option<Arc<Form>>>,
}

impl PyTaskEvent {
    fn of(driver: &TaskDriver, event: TaskEvent) -> PyTaskEvent {
        let forms = match &event {
            TaskEvent::InputRequired { requests } => requests
                .iter()
                .map(|(_, request)| driver.form(request.id()).cloned().map(Arc::new))
                .collect(),
            _ => Vec::new(),
        };
        PyTaskEvent { event, forms }
    }
}

#[pymethods]
impl PyTaskEvent {
    /// `"working"`, `"input_required"`, `"completed"`, `"failed"` or `"cancelled"`.
    #[getter(r#type)]
    fn kind(&self) -> &'static str {
        match &self.event {
            TaskEvent::Working { .. } => "working",
            TaskEvent::InputRequired { .. } => "input_required",
            TaskEvent::Completed { .. } => "completed",
            TaskEvent::Failed { .. } => "failed",
            TaskEvent::Cancelled => "cancelled",
        }
    }

    /// For `"working"`: whether the status or its message changed.
    #[getter]
    fn changed(&self) -> Option<bool> {
        match &self.event {
            TaskEvent::Working { changed } => Some(*changed),
            _ => None,
        }
    }

    /// For `"input_required"`: the requests to show, as `(key, Request)` pairs (a new list on
    /// each access), each carrying the form the driver prepared.
    #[getter]
    fn requests<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let TaskEvent::InputRequired { requests } = &self.event else {
            return Ok(None);
        };
        let requests = requests
            .iter()
            .zip(self.forms.iter().chain(std::iter::repeat(&None)))
            .map(|((key, request), form)| {
                (
                    key.clone(),
                    PyRequest::prepared(request.clone(), form.clone()),
                )
            })
            .collect();
        keyed_requests(py, requests).map(Some)
    }

    /// For `"completed"`: the tool's result (a new `dict` on each access), when the poll
    /// carried it.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match &self.event {
            TaskEvent::Completed {
                result: Some(result),
            } => map_to_python(py, result).map(Some),
            _ => Ok(None),
        }
    }

    /// For `"failed"`: the JSON-RPC error, `{"code", "message", "data"?}` as received (a new
    /// `dict` on each access), when the server gave one.
    #[getter]
    fn error<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match &self.event {
            TaskEvent::Failed { error: Some(error) } => map_to_python(py, error).map(Some),
            _ => Ok(None),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr = Repr::new("TaskEvent").field("type", self.kind(), py)?;
        match &self.event {
            TaskEvent::Working { changed } => repr = repr.field("changed", *changed, py)?,
            TaskEvent::InputRequired { requests } => {
                let keys: Vec<&str> = requests.iter().map(|(key, _)| key.as_str()).collect();
                repr = repr.field("keys", keys, py)?;
            }
            _ => {}
        }
        Ok(repr.finish())
    }
}

/// A request a `TaskDriver` asks the host to send: `tasks/get`, `tasks/update`,
/// `tasks/cancel` or `tasks/result`, with its params (`taskId` first, after the `_meta` the
/// driver was given). Send it through your own client, or write it whole with `to_request`.
#[pyclass(frozen, eq, module = "toolnexus", name = "TaskCall")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyTaskCall(TaskCall);

#[pymethods]
impl PyTaskCall {
    /// The method: `"tasks/get"`, `"tasks/update"`, `"tasks/cancel"` or `"tasks/result"`.
    #[getter]
    fn method(&self) -> &'static str {
        self.0.method()
    }

    /// The params (a new `dict` on each access).
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        map_to_python(py, self.0.params())
    }

    /// The JSON-RPC request, as compact JSON text, with `id` (a `str`, an `int`, or a
    /// `Number` for an integer spelt otherwise). Raises `InvalidValueError` for a number id
    /// with a fraction.
    fn to_request(&self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<String> {
        if id.is_none() {
            return Err(PyTypeError::new_err(
                "a request needs a JSON-RPC id (a str or an int)",
            ));
        }
        let id = rpc_id_from_python(id)?;
        self.0.to_request(&id).or_raise(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let task_id = self.0.params().get("taskId").and_then(Value::as_str);
        Ok(Repr::new("TaskCall")
            .field("method", self.0.method(), py)?
            .field("task_id", task_id, py)?
            .finish())
    }
}

/// One task, followed from the `tools/call` result that handed it over until it ends: the
/// requests to send (`TaskCall`), each reply read into a `TaskEvent`, the poll schedule kept as
/// data (the caller passes `now_ms`; nothing reads a clock), and the input requests begun,
/// answered and sent, each shown once and each answer sent once.
///
/// Start one with `TaskDriver.start`; send `get()` when `poll_due(now)`, `read` the reply;
/// resolve each `Request` of an `"input_required"` event (and `supply` results for the
/// `unhandled` entries), then send `update()`. Safe to share between threads, as a `Session`
/// is.
#[pyclass(frozen, module = "toolnexus", name = "TaskDriver")]
pub(crate) struct PyTaskDriver {
    inner: Shared<TaskDriver>,
}

#[pymethods]
impl PyTaskDriver {
    /// Follows the task that `response` hands over (the JSON-RPC response to `tools/call` or
    /// its result, as JSON text or a `dict`), received at `now_ms`, for a client of `era`
    /// (`"modern"` for 2026-07-28, `"handshake"` for 2025-06-18 and 2025-11-25) whose input
    /// requests follow the session options: the driver, or `None` when the result is no task.
    /// The first poll is due one interval later.
    ///
    /// Raises for a task that cannot be read (errors point into the response: `/result/ttlMs`,
    /// `/result/task/taskId`, …) and `InvalidValueError` at `/error` for a JSON-RPC error
    /// response.
    #[staticmethod]
    #[pyo3(signature = (
        response,
        era,
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
    fn start(
        py: Python<'_>,
        response: &Bound<'_, PyAny>,
        era: &str,
        now_ms: u64,
        modes: Option<ModesArg>,
        max_pending: Option<usize>,
        ttl_ms: Option<u64>,
        apply_defaults: Option<bool>,
        allow_unknown: Option<bool>,
        reject_secrets: Option<bool>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<Option<PyTaskDriver>> {
        let options = session_options(
            modes,
            max_pending,
            ttl_ms,
            apply_defaults,
            allow_unknown,
            reject_secrets,
        );
        let era = era_of(py, era)?;
        let limits = PyLimits::or_default(limits);
        let text = response_text(response, &limits)?;
        let driver = TaskDriver::start_json(&text, era, options, now_ms, &limits).or_raise(py)?;
        Ok(driver.map(|driver| PyTaskDriver {
            inner: Shared::new(driver),
        }))
    }

    /// Sets the `_meta` (a `dict` or JSON text) that every request this driver writes carries
    /// first in its params, as the client's `tools/call` had it; in the modern era the tasks
    /// extension is declared in its client capabilities. Raises `WrongTypeError` for a `_meta`
    /// that is not an object, or whose capabilities are not one (at
    /// `/io.modelcontextprotocol~1clientCapabilities`).
    #[pyo3(signature = (meta, *, limits = None))]
    fn set_meta(
        &self,
        py: Python<'_>,
        meta: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<()> {
        let value = read_json(meta, &PyLimits::or_default(limits)).or_raise(py)?;
        let Value::Object(meta) = value else {
            let error = Error::new(
                ErrorKind::WrongType,
                "",
                format!("the _meta must be a JSON object, not {}", value.type_name()),
            );
            return Err::<(), Error>(error).or_raise(py);
        };
        self.inner
            .with(py, |driver| driver.set_meta(meta))
            .or_raise(py)
    }

    /// The task as last read.
    #[getter]
    fn task(&self, py: Python<'_>) -> PyTask {
        self.inner
            .with(py, |driver| PyTask::from_core(driver.task()))
    }

    /// The era the task is followed in: `"modern"` or `"handshake"`.
    #[getter]
    fn era(&self, py: Python<'_>) -> &'static str {
        era_name(self.inner.with(py, |driver| driver.era()))
    }

    /// Whether the task has ended (completed, failed or cancelled, as last read).
    #[getter]
    fn is_done(&self, py: Python<'_>) -> bool {
        self.inner.with(py, |driver| driver.is_done())
    }

    /// The wait between polls, in milliseconds: the server's suggestion (at least 50), else
    /// 1,000.
    #[getter]
    fn poll_interval_ms(&self, py: Python<'_>) -> u64 {
        self.inner.with(py, |driver| driver.poll_interval_ms())
    }

    /// When the next poll is due (ms since 1970): one interval after the last reply read.
    #[getter]
    fn next_poll_at(&self, py: Python<'_>) -> u64 {
        self.inner.with(py, |driver| driver.next_poll_at())
    }

    /// When the status or its message last changed, by the caller's clock (the task's start
    /// until a change is read).
    #[getter]
    fn changed_at(&self, py: Python<'_>) -> u64 {
        self.inner.with(py, |driver| driver.changed_at())
    }

    /// Whether a poll is due at `now_ms`.
    fn poll_due(&self, py: Python<'_>, now_ms: u64) -> bool {
        self.inner.with(py, |driver| driver.poll_due(now_ms))
    }

    /// `tasks/get` for this task.
    fn get(&self, py: Python<'_>) -> PyTaskCall {
        PyTaskCall(self.inner.with(py, |driver| driver.get()))
    }

    /// `tasks/cancel` for this task.
    fn cancel(&self, py: Python<'_>) -> PyTaskCall {
        PyTaskCall(self.inner.with(py, |driver| driver.cancel()))
    }

    /// `tasks/result` for this task (2025-11-25): it stays open until the task ends, carries
    /// the server's `elicitation/create` requests meanwhile (answer them with a
    /// `ReverseBridge`), and ends with the tool's own result or error.
    fn result(&self, py: Python<'_>) -> PyTaskCall {
        PyTaskCall(self.inner.with(py, |driver| driver.result()))
    }

    /// Reads the reply to a `tasks/get` (the JSON-RPC response or its result, as JSON text or
    /// a `dict`; either era's spelling), received at `now_ms`, and schedules the next poll.
    ///
    /// Raises, with nothing changed: `InvalidValueError` for another task (at `/taskId`) or a
    /// JSON-RPC error response (at `/error`), the task's own errors, in the modern era a
    /// completed task without a `result` object or `inputRequests` that cannot be read, and
    /// an input request the session refuses (under `/inputRequests/<key>/params`).
    #[pyo3(signature = (response, now_ms, *, limits = None))]
    fn read(
        &self,
        py: Python<'_>,
        response: &Bound<'_, PyAny>,
        now_ms: u64,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyTaskEvent> {
        let limits = PyLimits::or_default(limits);
        let text = response_text(response, &limits)?;
        self.inner
            .with(py, |driver| {
                let event = driver.read_json(&text, now_ms, &limits)?;
                Ok::<_, Error>(PyTaskEvent::of(driver, event))
            })
            .or_raise(py)
    }

    /// Resolves an input request with the host's `answer` (an `Answer`, its `dict` or JSON
    /// text), at `now_ms`: `(key, ElicitResult)`, the result `update` will send. Raises as
    /// `Session.resolve` does (`UnknownRequestError` at `/id`, `InvalidContentError`); invalid
    /// content leaves the request pending.
    #[pyo3(signature = (answer, now_ms, *, limits = None))]
    fn resolve(
        &self,
        py: Python<'_>,
        answer: &Bound<'_, PyAny>,
        now_ms: u64,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<(String, PyElicitResult)> {
        let answer = read_answer(answer, limits)?;
        let (key, result) = self
            .inner
            .with(py, |driver| driver.resolve(&answer, now_ms))
            .or_raise(py)?;
        Ok((key, PyElicitResult(result)))
    }

    /// Gives the host's own `result` (a `dict`, sent as it is) for an input request the driver
    /// does not handle (see `unhandled`). Raises as `InputRound.supply` does:
    /// `UnknownRequestError` for a key no open input request has, `InvalidValueError` for an
    /// `elicitation/create` key, `WrongTypeError` for a result that is not an object.
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
            .with(py, |driver| driver.supply(key, value))
            .or_raise(py)
    }

    /// The input requests shown and not answered yet, as `(key, Request)` pairs, oldest first.
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let requests = self.inner.with(py, |driver| {
            let pending = driver.pending().into_iter();
            pending
                .map(|(key, request)| (key.to_owned(), prepared(driver, request.clone())))
                .collect::<Vec<_>>()
        });
        keyed_requests(py, requests)
    }

    /// The open input requests of a method the driver does not handle (any but
    /// `elicitation/create`) without a result yet: `supply` one for each.
    fn unhandled<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let requests = self.inner.with(py, |driver| {
            driver.unhandled().into_iter().cloned().collect::<Vec<_>>()
        });
        input_request_list(py, requests)
    }

    /// The `Form` prepared for the pending form request `request_id` (the one its
    /// `request.form` gives), or `None`.
    fn form(&self, py: Python<'_>, request_id: &str) -> Option<PyForm> {
        self.inner.with(py, |driver| {
            let form = driver.form(request_id)?.clone();
            let pending = driver.pending();
            let (_, request) = pending.iter().find(|(_, r)| r.id() == request_id)?;
            let schema = request.schema()?.clone();
            Some(PyForm::new(Arc::new(form), schema))
        })
    }

    /// Answers with cancel every pending request whose time to live lapsed at `now_ms`:
    /// `(key, cancel)` pairs, which `update` will send.
    fn expire<'py>(&self, py: Python<'py>, now_ms: u64) -> PyResult<Bound<'py, PyList>> {
        let lapsed = self.inner.with(py, |driver| driver.expire(now_ms));
        result_pairs(py, lapsed)
    }

    /// Answers with cancel every pending request, for a person who closed the dialog:
    /// `(key, cancel)` pairs, which `update` will send.
    fn cancel_pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cancelled = self.inner.with(py, TaskDriver::cancel_pending);
        result_pairs(py, cancelled)
    }

    /// `tasks/update` carrying every answer not sent yet, each under its key (oldest first),
    /// or `None` when there is none; those answers count as sent from now on. Unless
    /// `partial`, raises `MissingResponsesError` while an input request shown is unanswered.
    #[pyo3(signature = (*, partial = false))]
    fn update(&self, py: Python<'_>, partial: bool) -> PyResult<Option<PyTaskCall>> {
        let call = self
            .inner
            .with(py, |driver| driver.update(partial))
            .or_raise(py)?;
        Ok(call.map(PyTaskCall))
    }

    /// The keys shown so far, in the order they were first seen.
    fn shown(&self, py: Python<'_>) -> Vec<String> {
        self.inner.with(py, |driver| driver.shown().to_vec())
    }

    /// The keys whose answers were sent.
    fn sent(&self, py: Python<'_>) -> Vec<String> {
        self.inner.with(py, |driver| driver.sent().to_vec())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let (task_id, status, era) = self.inner.with(py, |driver| {
            let task = driver.task();
            (
                task.task_id().to_owned(),
                task.status().as_str(),
                era_name(driver.era()),
            )
        });
        Ok(Repr::new("TaskDriver")
            .field("task_id", task_id, py)?
            .field("status", status, py)?
            .field("era", era, py)?
            .finish())
    }
}
