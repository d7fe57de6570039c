//! The contract types as immutable Python classes: `Request`, `Answer` and `ElicitResult`.
//!
//! Each wraps the core's type, so every check is the core's: the constructor, `from_dict` and
//! `from_json` all end in the core's `from_value`, and `to_json` is the core's writer. Two
//! objects are equal when their JSON is; free-form members (`data`, `content`, `_meta`) are
//! compared with their member order and number spelling, as they are written.

use std::hash::{DefaultHasher, Hash, Hasher};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use toolnexus_core::{Answer, ElicitResult, Limits, Map, Request, Value};

use crate::convert::{Reader, map_to_python};
use crate::errors::OrRaise;
use crate::input::read_text;
use crate::limits::PyLimits;
use crate::repr::Repr;

/// The JSON members given to a constructor, each read from Python as JSON (its errors point
/// at its key), gathered into the object the core reads.
struct Members<'py> {
    py: Python<'py>,
    map: Map,
}

impl<'py> Members<'py> {
    fn new(py: Python<'py>) -> Members<'py> {
        Members {
            py,
            map: Map::new(),
        }
    }

    /// Adds the member `key`, unless `argument` is absent.
    fn put(mut self, key: &str, argument: Option<&Bound<'py, PyAny>>) -> PyResult<Members<'py>> {
        if let Some(argument) = argument {
            let value = Reader::member(self.py, &Limits::DEFAULT, key)
                .read(argument)
                .or_raise(self.py)?;
            self.map.insert(key, value);
        }
        Ok(self)
    }

    fn into_value(self) -> Value {
        Value::Object(self.map)
    }
}

/// Reads a contract object given as a `dict`, within `limits`.
pub(crate) fn read_dict<T>(
    value: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
    from_value: fn(Value) -> Result<T, toolnexus_core::Error>,
) -> PyResult<T> {
    let py = value.py();
    let value = Reader::new(py, &PyLimits::or_default(limits))
        .read(value)
        .or_raise(py)?;
    from_value(value).or_raise(py)
}

/// Reads a contract object given as JSON text, within `limits`.
pub(crate) fn read_json_text<T>(
    text: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
    from_value: fn(Value) -> Result<T, toolnexus_core::Error>,
) -> PyResult<T> {
    from_value(read_text_argument(text, limits)?).or_raise(text.py())
}

/// The argument of a `from_json`: JSON text (`str`, `bytes` or `bytearray`) read within
/// `limits`, or a `TypeError` for anything else.
pub(crate) fn read_text_argument(
    text: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<Value> {
    match read_text(text, &PyLimits::or_default(limits)).or_raise(text.py())? {
        Some(value) => Ok(value),
        None => Err(PyTypeError::new_err(format!(
            "from_json reads JSON text given as str, bytes or bytearray, not {}",
            text.get_type().name()?
        ))),
    }
}

/// A hash that agrees with equality for a class whose objects are equal when their JSON text
/// is: that of the text.
pub(crate) fn hash_json(json: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    json.hash(&mut hasher);
    hasher.finish()
}

/// `(type(obj).from_json, (json,))`: pickling goes through the exact JSON.
fn reduce_to_json<'py>(class: Bound<'py, PyType>, json: String) -> PyResult<Bound<'py, PyTuple>> {
    let py = class.py();
    let from_json = class.getattr("from_json")?;
    PyTuple::new(py, [from_json, PyTuple::new(py, [json])?.into_any()])
}

fn optional_dict<'py>(py: Python<'py>, map: Option<&Map>) -> PyResult<Option<Bound<'py, PyDict>>> {
    map.map(|m| map_to_python(py, m)).transpose()
}

/// What a suspended tool call asks its host to resolve: `{id, kind, prompt, url?, data?,
/// expiresAt?}`.
///
/// `kind` is an open vocabulary: a form-mode elicitation gives `"input"` (its schema in
/// `data["schema"]`), a URL-mode one `"authorization"` (the link in `url`). `id` and `kind`
/// must not be empty; `expires_at` is an RFC 3339 date-time with an offset.
#[pyclass(frozen, eq, module = "toolnexus", name = "Request")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyRequest(pub(crate) Request);

#[pymethods]
impl PyRequest {
    #[new]
    #[pyo3(signature = (id, kind, prompt, url = None, data = None, expires_at = None))]
    fn new<'py>(
        py: Python<'py>,
        id: &Bound<'py, PyAny>,
        kind: &Bound<'py, PyAny>,
        prompt: &Bound<'py, PyAny>,
        url: Option<&Bound<'py, PyAny>>,
        data: Option<&Bound<'py, PyAny>>,
        expires_at: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyRequest> {
        let members = Members::new(py)
            .put("id", Some(id))?
            .put("kind", Some(kind))?
            .put("prompt", Some(prompt))?
            .put("url", url)?
            .put("data", data)?
            .put("expiresAt", expires_at)?;
        Request::from_value(members.into_value())
            .or_raise(py)
            .map(PyRequest)
    }

    /// Reads a request from a `dict` with the wire keys (`expiresAt`), within `limits`.
    #[classmethod]
    #[pyo3(signature = (value, *, limits = None))]
    fn from_dict(
        _class: &Bound<'_, PyType>,
        value: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyRequest> {
        read_dict(value, limits, Request::from_value).map(PyRequest)
    }

    /// Reads a request from JSON text (`str`, `bytes` or `bytearray`), within `limits`.
    #[classmethod]
    #[pyo3(signature = (text, *, limits = None))]
    fn from_json(
        _class: &Bound<'_, PyType>,
        text: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyRequest> {
        read_json_text(text, limits, Request::from_value).map(PyRequest)
    }

    /// The correlation key, echoed by the `Answer`.
    #[getter]
    fn id(&self) -> &str {
        self.0.id()
    }

    /// What sort of resolution is asked for (`"input"`, `"authorization"`, …).
    #[getter]
    fn kind(&self) -> &str {
        self.0.kind()
    }

    /// What is being asked, in human words.
    #[getter]
    fn prompt(&self) -> &str {
        self.0.prompt()
    }

    /// The link where the action happens, if any.
    #[getter]
    fn url(&self) -> Option<&str> {
        self.0.url()
    }

    /// Kind-specific extra data (a new `dict` on each access), if any.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        optional_dict(py, self.0.data())
    }

    /// When the request goes stale (RFC 3339), if it does.
    #[getter]
    fn expires_at(&self) -> Option<&str> {
        self.0.expires_at()
    }

    /// The form schema in `data["schema"]` (a new `dict` on each access), if there is one.
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        optional_dict(py, self.0.schema())
    }

    /// The request as a `dict` with the wire keys in their pinned order, absent optionals left
    /// out.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("id", self.0.id())?;
        dict.set_item("kind", self.0.kind())?;
        dict.set_item("prompt", self.0.prompt())?;
        if let Some(url) = self.0.url() {
            dict.set_item("url", url)?;
        }
        if let Some(data) = self.0.data() {
            dict.set_item("data", map_to_python(py, data)?)?;
        }
        if let Some(at) = self.0.expires_at() {
            dict.set_item("expiresAt", at)?;
        }
        Ok(dict)
    }

    /// The request as compact JSON: the exact text of the core.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    fn __hash__(&self) -> u64 {
        hash_json(&self.0.to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr = Repr::new("Request")
            .field("id", self.0.id(), py)?
            .field("kind", self.0.kind(), py)?
            .field("prompt", self.0.prompt(), py)?;
        if let Some(url) = self.0.url() {
            repr = repr.field("url", url, py)?;
        }
        if let Some(data) = self.0.data() {
            repr = repr.field("data", map_to_python(py, data)?, py)?;
        }
        if let Some(at) = self.0.expires_at() {
            repr = repr.field("expires_at", at, py)?;
        }
        Ok(repr.finish())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_to_json(slf.get_type(), slf.get().0.to_json())
    }
}

/// How a host resolved a `Request`: `{id, ok, data?, reason?}`.
///
/// `ok` says whether the request was satisfied; `data` is the payload (for `"input"`, what the
/// person entered); `reason` says why not (`"declined"`, `"cancelled"`, `"expired"` or any
/// other text, kept as written).
#[pyclass(frozen, eq, module = "toolnexus", name = "Answer")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyAnswer(pub(crate) Answer);

#[pymethods]
impl PyAnswer {
    #[new]
    #[pyo3(signature = (id, ok, data = None, reason = None))]
    fn new<'py>(
        py: Python<'py>,
        id: &Bound<'py, PyAny>,
        ok: &Bound<'py, PyAny>,
        data: Option<&Bound<'py, PyAny>>,
        reason: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyAnswer> {
        let members = Members::new(py)
            .put("id", Some(id))?
            .put("ok", Some(ok))?
            .put("data", data)?
            .put("reason", reason)?;
        Answer::from_value(members.into_value())
            .or_raise(py)
            .map(PyAnswer)
    }

    /// Reads an answer from a `dict` with the wire keys, within `limits`.
    #[classmethod]
    #[pyo3(signature = (value, *, limits = None))]
    fn from_dict(
        _class: &Bound<'_, PyType>,
        value: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyAnswer> {
        read_dict(value, limits, Answer::from_value).map(PyAnswer)
    }

    /// Reads an answer from JSON text (`str`, `bytes` or `bytearray`), within `limits`.
    #[classmethod]
    #[pyo3(signature = (text, *, limits = None))]
    fn from_json(
        _class: &Bound<'_, PyType>,
        text: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyAnswer> {
        read_json_text(text, limits, Answer::from_value).map(PyAnswer)
    }

    /// The id of the request this answers.
    #[getter]
    fn id(&self) -> &str {
        self.0.id()
    }

    /// Whether the request was satisfied.
    #[getter]
    fn ok(&self) -> bool {
        self.0.ok()
    }

    /// The payload (a new `dict` on each access), if any.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        optional_dict(py, self.0.data())
    }

    /// Why the request was not satisfied, if said.
    #[getter]
    fn reason(&self) -> Option<&str> {
        self.0.reason().map(|r| r.as_str())
    }

    /// The answer as a `dict` with the wire keys in their pinned order, absent optionals left
    /// out.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("id", self.0.id())?;
        dict.set_item("ok", self.0.ok())?;
        if let Some(data) = self.0.data() {
            dict.set_item("data", map_to_python(py, data)?)?;
        }
        if let Some(reason) = self.0.reason() {
            dict.set_item("reason", reason.as_str())?;
        }
        Ok(dict)
    }

    /// The answer as compact JSON: the exact text of the core.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    fn __hash__(&self) -> u64 {
        hash_json(&self.0.to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr =
            Repr::new("Answer")
                .field("id", self.0.id(), py)?
                .field("ok", self.0.ok(), py)?;
        if let Some(data) = self.0.data() {
            repr = repr.field("data", map_to_python(py, data)?, py)?;
        }
        if let Some(reason) = self.0.reason() {
            repr = repr.field("reason", reason.as_str(), py)?;
        }
        Ok(repr.finish())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_to_json(slf.get_type(), slf.get().0.to_json())
    }
}

/// MCP's `ElicitResult`, the client's reply to `elicitation/create`: `{action, content?,
/// _meta?}`.
///
/// `action` is `"accept"`, `"decline"` or `"cancel"`; `content` (what the person entered, each
/// value a string, number, boolean or list of strings) belongs only to accept.
#[pyclass(frozen, eq, module = "toolnexus", name = "ElicitResult")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyElicitResult(pub(crate) ElicitResult);

#[pymethods]
impl PyElicitResult {
    #[new]
    #[pyo3(signature = (action, content = None, *, meta = None))]
    fn new<'py>(
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
        content: Option<&Bound<'py, PyAny>>,
        meta: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyElicitResult> {
        let members = Members::new(py)
            .put("action", Some(action))?
            .put("content", content)?
            .put("_meta", meta)?;
        ElicitResult::from_value(members.into_value())
            .or_raise(py)
            .map(PyElicitResult)
    }

    /// Reads a result from a `dict` with the wire keys (`_meta`), within `limits`.
    #[classmethod]
    #[pyo3(signature = (value, *, limits = None))]
    fn from_dict(
        _class: &Bound<'_, PyType>,
        value: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyElicitResult> {
        read_dict(value, limits, ElicitResult::from_value).map(PyElicitResult)
    }

    /// Reads a result from JSON text (`str`, `bytes` or `bytearray`), within `limits`.
    #[classmethod]
    #[pyo3(signature = (text, *, limits = None))]
    fn from_json(
        _class: &Bound<'_, PyType>,
        text: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyLimits>>,
    ) -> PyResult<PyElicitResult> {
        read_json_text(text, limits, ElicitResult::from_value).map(PyElicitResult)
    }

    /// What the person did: `"accept"`, `"decline"` or `"cancel"`.
    #[getter]
    fn action(&self) -> &'static str {
        self.0.action().as_str()
    }

    /// What the person entered, for an accepted form (a new `dict` on each access).
    #[getter]
    fn content<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        optional_dict(py, self.0.content().map(|c| c.as_map()))
    }

    /// The `_meta` object (a new `dict` on each access), if any.
    #[getter]
    fn meta<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        optional_dict(py, self.0.meta())
    }

    /// The result as a `dict` with the wire keys in their pinned order, absent optionals left
    /// out.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("action", self.0.action().as_str())?;
        if let Some(content) = self.0.content() {
            dict.set_item("content", map_to_python(py, content.as_map())?)?;
        }
        if let Some(meta) = self.0.meta() {
            dict.set_item("_meta", map_to_python(py, meta)?)?;
        }
        Ok(dict)
    }

    /// The result as compact JSON: the exact text of the core.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    fn __hash__(&self) -> u64 {
        hash_json(&self.0.to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr = Repr::new("ElicitResult").field("action", self.0.action().as_str(), py)?;
        if let Some(content) = self.0.content() {
            repr = repr.field("content", map_to_python(py, content.as_map())?, py)?;
        }
        if let Some(meta) = self.0.meta() {
            repr = repr.field("meta", map_to_python(py, meta)?, py)?;
        }
        Ok(repr.finish())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_to_json(slf.get_type(), slf.get().0.to_json())
    }
}
