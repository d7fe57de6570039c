//! `toolnexus.Session`: each elicitation a server makes paired with the answer its host gives,
//! under the core's rules, safe to share between threads.

use std::borrow::Cow;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};
use toolnexus_core::session::Session;
use toolnexus_core::{Answer, ElicitRequestParams, ElicitResult, Error, Modes, Request, id};

use crate::classes::read_argument;
use crate::contract::{PyAnswer, PyElicitResult, PyRequest};
use crate::errors::OrRaise;
use crate::form::PyForm;
use crate::input::read_model_or_json;
use crate::limits::PyLimits;
use crate::repr::Repr;
use crate::snapshot::{read_bytes, restore_with};
use crate::wire::{Shared, modes_tuple, pairs, session_class};

/// The requests a host has been asked and not yet answered, and the rules for answering them.
///
/// `begin` turns `elicitation/create` params into a `Request` and remembers what its answer
/// needs; `resolve` turns the host's `Answer` into the `ElicitResult` to send. An answer must
/// name a pending request, and each resolves once (`UnknownRequestError`); accepted form
/// content that breaks the schema raises `InvalidContentError` with every violation and
/// leaves the request pending for a correction; a URL accept carries no content and waits for
/// the server's completion notification (`complete`); with `ttl_ms`, requests carry
/// `expiresAt` and an answer after it is a cancel. Time is given by the caller, in
/// milliseconds since 1970 (`now_ms`).
///
/// One session may be used from several threads: each call holds an internal lock only
/// while the core works, never while Python code runs.
#[pyclass(frozen, module = "toolnexus", name = "Session")]
pub(crate) struct PySession {
    inner: Shared<Session>,
}

/// Reads an `Answer` argument: the class (borrowed, as the core reads it), its `dict` or JSON
/// text.
pub(crate) fn read_answer<'a>(
    answer: &'a Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<Cow<'a, Answer>> {
    read_argument::<PyAnswer>(answer, limits)
}

/// The request `id` of `session` with the form it prepared for it, for Python.
pub(crate) fn prepared_request(session: &Session, request: Request) -> PyRequest {
    let form = session.form(request.id()).cloned().map(Arc::new);
    PyRequest::prepared(request, form)
}

/// The form of the pending form-mode request `id` of `session`, with its schema.
pub(crate) fn session_form(session: &Session, id: &str) -> Option<PyForm> {
    let form = session.form(id)?.clone();
    let schema = session.get(id)?.schema()?.clone();
    Some(PyForm::new(Arc::new(form), schema))
}

/// `requests` as a list of `Request`.
pub(crate) fn request_list<'py>(
    py: Python<'py>,
    requests: Vec<Request>,
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, requests.into_iter().map(PyRequest::new))
}

/// What `Session` and `ReverseBridge` tell of their session, read under the lock.
pub(crate) struct Snapshot {
    pending: Vec<PyRequest>,
    awaiting: Vec<(String, String)>,
    count: usize,
    modes: Modes,
}

impl Snapshot {
    /// How many requests of `session` are pending, and its modes.
    pub(crate) fn of(session: &Session) -> Snapshot {
        Snapshot {
            pending: Vec::new(),
            awaiting: Vec::new(),
            count: session.pending().len(),
            modes: session.options().modes(),
        }
    }

    /// The pending requests of `session`, each with the form it prepared.
    pub(crate) fn pending(session: &Session) -> Snapshot {
        let pending = session.pending().into_iter().cloned();
        Snapshot {
            pending: pending.map(|r| prepared_request(session, r)).collect(),
            ..Snapshot::of(session)
        }
    }

    /// The URL requests of `session` awaiting completion.
    pub(crate) fn awaiting(session: &Session) -> Snapshot {
        let awaiting = session.awaiting_completion().iter();
        Snapshot {
            awaiting: awaiting
                .map(|a| (a.request_id().to_owned(), a.elicitation_id().to_owned()))
                .collect(),
            ..Snapshot::of(session)
        }
    }

    /// The pending requests, as a list of `Request`.
    pub(crate) fn pending_list<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.pending)
    }

    /// `(request_id, elicitation_id)` pairs.
    pub(crate) fn awaiting_list<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        pairs(py, self.awaiting, |eid| {
            Ok(eid.into_pyobject(py)?.into_any())
        })
    }

    /// `name(modes=(…), pending=n)`.
    pub(crate) fn repr(self, py: Python<'_>, name: &str) -> PyResult<String> {
        Ok(Repr::new(name)
            .field("modes", modes_tuple(py, self.modes)?, py)?
            .field("pending", self.count, py)?
            .finish())
    }
}

/// `(id, result)` pairs as a list of tuples.
pub(crate) fn result_pairs<'py>(
    py: Python<'py>,
    results: Vec<(String, ElicitResult)>,
) -> PyResult<Bound<'py, PyList>> {
    pairs(py, results, |result| {
        Ok(Bound::new(py, PyElicitResult(result))?.into_any())
    })
}

session_class! {
    PySession, Session::new;

    /// Starts the request `id` (a fresh `elc-…` id when `None`) for `params` (a `dict`, JSON
    /// text or an `mcp` params model), received at `now_ms`: the `Request` for the host.
    ///
    /// Raises, with nothing changed: `ModeNotSupportedError` (at `/mode`),
    /// `DuplicateRequestError`, `TooManyPendingError`, the schema's own errors (under
    /// `/requestedSchema`), `SensitiveFieldError` when `reject_secrets` refuses the form.
    #[pyo3(signature = (params, id, now_ms, *, limits = None))]
    fn begin(
        &self,
        py: Python<'_>,
        params: &Bound<'_, PyAny>,
        id: Option<&str>,
        now_ms: u64,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyRequest> {
        let value = read_model_or_json(params, &PyLimits::or_default(limits)).or_raise(py)?;
        let params = ElicitRequestParams::from_value(value).or_raise(py)?;
        let id = id.map_or_else(id::next_id, str::to_owned);
        self.inner
            .with(py, |session| -> Result<PyRequest, Error> {
                let request = session.begin(&params, &id, now_ms)?;
                Ok(prepared_request(session, request))
            })
            .or_raise(py)
    }

    /// The pending request `request_id` written down with the session's options: a small
    /// versioned JSON document (`bytes`), sealed with HMAC-SHA-256 when `key` (`bytes` or
    /// `str`) is given, for `Session.restore` in another process. It holds the request as the
    /// server asked it and its expiry, nothing a person typed.
    ///
    /// Raises `UnknownRequestError` (at `/id`) when `request_id` is not pending,
    /// `InvalidValueError` at `/id` when it never expires (a snapshot must: give the session a
    /// `ttl_ms`), and `InvalidValueError` at `/key` for a key shorter than 32 bytes.
    #[pyo3(signature = (request_id, *, key = None))]
    fn snapshot<'py>(
        &self,
        py: Python<'py>,
        request_id: &str,
        key: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let key = key.map(|k| read_bytes(k, "key")).transpose()?;
        let bytes = self
            .inner
            .with(py, |session| session.snapshot(request_id, key.as_deref()))
            .or_raise(py)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The stable id of the snapshot `snapshot(request_id)` writes now (43 characters,
    /// URL-safe): the SHA-256 of its document, the same whatever key seals it and again
    /// after a restore. Keep the snapshot under it and claim it once when the answer comes
    /// (Redis `GETDEL`, SQLite `DELETE … RETURNING`). Raises as `snapshot` does for a
    /// `request_id` that is not pending.
    fn snapshot_id(&self, py: Python<'_>, request_id: &str) -> PyResult<String> {
        self.inner
            .with(py, |session| session.snapshot_id(request_id))
            .or_raise(py)
    }

    /// A session holding the one pending request a `snapshot` wrote (`bytes` or `str`), with
    /// the options it was written with: the same `Request`, answered by the same rules.
    /// `keys`, `limits` and `now_ms` (default: now) as for `InputRound.restore`, which raises
    /// the same errors (the request's own under `/params`).
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
    ) -> PyResult<PySession> {
        let session = restore_with(py, snapshot, keys, limits, now_ms, Session::restore)?;
        Ok(PySession {
            inner: Shared::new(session),
        })
    }

    /// The `Form` the session prepared for the pending form-mode request `request_id` when it
    /// began (the one `request.form` gives), or `None`.
    fn form(&self, py: Python<'_>, request_id: &str) -> Option<PyForm> {
        self.inner
            .with(py, |session| session_form(session, request_id))
    }

    /// Resolves a pending request with the host's `answer` (an `Answer`, its `dict` or JSON
    /// text), given at `now_ms`: the `ElicitResult` to send to the server.
    ///
    /// Raises `UnknownRequestError` (at `/id`) for an id not pending, and
    /// `InvalidContentError` (at `/data`, with `violations`) for accepted content that breaks
    /// the form, after which the request stays pending.
    #[pyo3(signature = (answer, now_ms, *, limits = None))]
    fn resolve(
        &self,
        py: Python<'_>,
        answer: &Bound<'_, PyAny>,
        now_ms: u64,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyElicitResult> {
        let answer = read_answer(answer, limits)?;
        self.inner
            .with(py, |session| session.resolve(&answer, now_ms))
            .or_raise(py)
            .map(PyElicitResult)
    }

    /// The requests waiting for an answer, in the order they began.
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.inner
            .with(py, |s| Snapshot::pending(s))
            .pending_list(py)
    }

    /// The pending request `id` (with its form), or `None`.
    fn get(&self, py: Python<'_>, id: &str) -> Option<PyRequest> {
        self.inner.with(py, |session| {
            let request = session.get(id)?.clone();
            Some(prepared_request(session, request))
        })
    }

    /// Whether the request `id` is waiting for an answer.
    fn __contains__(&self, py: Python<'_>, id: &str) -> bool {
        self.inner.with(py, |session| session.is_pending(id))
    }

    /// How many requests wait for an answer.
    fn __len__(&self, py: Python<'_>) -> usize {
        self.inner.with(py, |session| session.pending().len())
    }

    /// The URL requests accepted and waiting for the server's completion notification, as
    /// `(request_id, elicitation_id)` pairs.
    fn awaiting_completion<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.inner
            .with(py, |s| Snapshot::awaiting(s))
            .awaiting_list(py)
    }

    /// Takes the server's `notifications/elicitation/complete` for `elicitation_id`: the id of
    /// the request it completes, or `None` for one unknown or completed already. A URL request
    /// not answered yet leaves the session too, and gets no answer.
    fn complete(&self, py: Python<'_>, elicitation_id: &str) -> Option<String> {
        self.inner
            .with(py, |session| session.complete(elicitation_id))
    }

    /// Removes the pending request `request_id` without answering it (the server withdrew
    /// it, or the host gave up on it): whether it was pending.
    fn withdraw(&self, py: Python<'_>, request_id: &str) -> bool {
        self.inner.with(py, |session| session.withdraw(request_id))
    }

    /// Removes every request whose time to live lapsed at `now_ms`: `(id, cancel)` pairs to
    /// send, in the order they began.
    fn expire<'py>(&self, py: Python<'py>, now_ms: u64) -> PyResult<Bound<'py, PyList>> {
        let lapsed = self.inner.with(py, |session| session.expire(now_ms));
        result_pairs(py, lapsed)
    }

    /// Answers every pending request with cancel, for shutdown: `(id, cancel)` pairs, in the
    /// order they began. URL requests awaiting completion are forgotten.
    fn cancel_all<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cancelled = self.inner.with(py, Session::cancel_all);
        result_pairs(py, cancelled)
    }

    /// The modes the host supports, as `("form", "url")` or one of them.
    #[getter]
    fn modes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let modes = self.inner.with(py, |session| session.options().modes());
        modes_tuple(py, modes)
    }

    /// The most requests that may wait at once.
    #[getter]
    fn max_pending(&self, py: Python<'_>) -> usize {
        self.inner
            .with(py, |session| session.options().max_pending())
    }

    /// How long a request may wait, in milliseconds, or `None`.
    #[getter]
    fn ttl_ms(&self, py: Python<'_>) -> Option<u64> {
        self.inner.with(py, |session| session.options().ttl_ms())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.inner.with(py, |s| Snapshot::of(s)).repr(py, "Session")
    }
}
