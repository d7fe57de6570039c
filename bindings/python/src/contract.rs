//! The contract types as immutable Python classes: `Request`, `Answer` and `ElicitResult`.
//!
//! Each wraps the core's type, so every check is the core's: the constructor, `from_dict` and
//! `from_json` all end in the core's `from_value`, and `to_json` is the core's writer. Two
//! objects are equal when their JSON is; free-form members (`data`, `content`, `_meta`) are
//! compared with their member order and number spelling, as they are written.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;
use toolnexus_core::form::Form;
use toolnexus_core::{Answer, ElicitResult, Error, Limits, Map, Request, Value};

use crate::classes::{JsonClass, JsonText, Members, json_class, wraps};
use crate::convert::{Reader, map_to_python};
use crate::errors::OrRaise;
use crate::form::PyForm;
use crate::html::{HtmlArgs, request_answer, request_to_html};
use crate::input::read_text;
use crate::limits::PyLimits;

/// The JSON members given to a constructor, each read from Python as JSON (its errors point
/// at its key), gathered into the object the core reads.
struct Arguments<'py> {
    py: Python<'py>,
    map: Map,
}

impl<'py> Arguments<'py> {
    fn new(py: Python<'py>) -> Arguments<'py> {
        Arguments {
            py,
            map: Map::new(),
        }
    }

    /// Adds the member `key`, unless `argument` is absent.
    fn put(mut self, key: &str, argument: Option<&Bound<'py, PyAny>>) -> PyResult<Arguments<'py>> {
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

fn optional_dict<'py>(py: Python<'py>, map: Option<&Map>) -> PyResult<Option<Bound<'py, PyDict>>> {
    map.map(|m| map_to_python(py, m)).transpose()
}

/// What a suspended tool call asks its host to resolve: `{id, kind, prompt, url?, data?,
/// expiresAt?}`.
///
/// `kind` is an open vocabulary: a form-mode elicitation gives `"input"` (its schema in
/// `data["schema"]`, its prepared `form`), a URL-mode one `"authorization"` (the link in
/// `url`). `id` and `kind` must not be empty; `expires_at` is an RFC 3339 date-time with an
/// offset.
#[pyclass(frozen, eq, module = "toolnexus", name = "Request")]
pub(crate) struct PyRequest {
    request: Request,
    /// The form a session prepared when it began the request, if one did.
    prepared: Option<Arc<Form>>,
    /// `form`, made on first access.
    form: PyOnceLock<Option<Py<PyForm>>>,
}

impl PartialEq for PyRequest {
    fn eq(&self, other: &PyRequest) -> bool {
        self.request == other.request
    }
}

impl PyRequest {
    /// The request, whose form is prepared on first access to `form`.
    pub(crate) fn new(request: Request) -> PyRequest {
        PyRequest::prepared(request, None)
    }

    /// The request with the form a session prepared for it already, if any.
    pub(crate) fn prepared(request: Request, form: Option<Arc<Form>>) -> PyRequest {
        PyRequest {
            request,
            prepared: form,
            form: PyOnceLock::new(),
        }
    }

    /// The form `form` gives, read once for the request, for the web form's calls: a page or
    /// a post then does not read the schema again. `None` for a request without one, or one
    /// whose schema cannot be read: those go to the core whole, which says why.
    fn prepared_form(&self, py: Python<'_>) -> Option<&Py<PyForm>> {
        match self.form.get_or_try_init(py, || self.make_form(py)) {
            Ok(Some(form)) => Some(form),
            Ok(None) | Err(_) => None,
        }
    }

    /// The form of an `"input"` request with a `data["schema"]` object: the one prepared
    /// already, or one read from the schema now.
    fn make_form(&self, py: Python<'_>) -> PyResult<Option<Py<PyForm>>> {
        let Some(schema) = self.request.schema() else {
            return Ok(None);
        };
        if self.request.kind() != "input" {
            return Ok(None);
        }
        let form = match &self.prepared {
            Some(form) => Arc::clone(form),
            None => Arc::new(Form::from_map(schema).or_raise(py)?),
        };
        Py::new(py, PyForm::new(form, schema.clone())).map(Some)
    }
}

impl JsonClass for PyRequest {
    type Core = Request;

    fn read(value: Value) -> Result<Request, Error> {
        Request::from_value(value)
    }

    fn from_core(core: Request) -> PyRequest {
        PyRequest::new(core)
    }

    fn core(&self) -> &Request {
        &self.request
    }
}

impl JsonText for PyRequest {
    fn json(&self) -> String {
        self.request.to_json()
    }

    fn members<'py>(&self, py: Python<'py>) -> PyResult<Members<'py>> {
        let r = &self.request;
        Members::new(py)
            .with("id", "id", Some(r.id()))?
            .with("kind", "kind", Some(r.kind()))?
            .with("prompt", "prompt", Some(r.prompt()))?
            .with("url", "url", r.url())?
            .with("data", "data", optional_dict(py, r.data())?)?
            .with("expiresAt", "expires_at", r.expires_at())
    }
}

json_class! {
    PyRequest as "Request", text;

    #[new]
    #[pyo3(signature = (id, kind, prompt, url = None, data = None, expires_at = None))]
    fn py_new<'py>(
        py: Python<'py>,
        id: &Bound<'py, PyAny>,
        kind: &Bound<'py, PyAny>,
        prompt: &Bound<'py, PyAny>,
        url: Option<&Bound<'py, PyAny>>,
        data: Option<&Bound<'py, PyAny>>,
        expires_at: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyRequest> {
        let members = Arguments::new(py)
            .put("id", Some(id))?
            .put("kind", Some(kind))?
            .put("prompt", Some(prompt))?
            .put("url", url)?
            .put("data", data)?
            .put("expiresAt", expires_at)?;
        Request::from_value(members.into_value())
            .or_raise(py)
            .map(PyRequest::new)
    }

    /// The correlation key, echoed by the `Answer`.
    #[getter]
    fn id(&self) -> &str {
        self.request.id()
    }

    /// What sort of resolution is asked for (`"input"`, `"authorization"`, …).
    #[getter]
    fn kind(&self) -> &str {
        self.request.kind()
    }

    /// What is being asked, in human words.
    #[getter]
    fn prompt(&self) -> &str {
        self.request.prompt()
    }

    /// The link where the action happens, if any.
    #[getter]
    fn url(&self) -> Option<&str> {
        self.request.url()
    }

    /// Kind-specific extra data (a new `dict` on each access), if any.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        optional_dict(py, self.request.data())
    }

    /// When the request goes stale (RFC 3339), if it does.
    #[getter]
    fn expires_at(&self) -> Option<&str> {
        self.request.expires_at()
    }

    /// The form schema in `data["schema"]` (a new `dict` on each access), if there is one.
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        optional_dict(py, self.request.schema())
    }

    /// The `Form` of an `"input"` request with a `data["schema"]` object, else `None`: the
    /// one the session prepared when it began the request, or one prepared from the schema on
    /// first access (raising, with a pointer into the schema, when it cannot be shown as a
    /// form). The same object on each access.
    #[getter]
    fn form<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyForm>>> {
        let form = self.form.get_or_try_init(py, || self.make_form(py))?;
        Ok(form.as_ref().map(|form| form.bind(py).clone()))
    }

    /// The request as an HTML fragment, one `<form method="post">` for the host's page: a
    /// form request's fields, or a URL request's consent (the core's `request_html`). With
    /// `form_data` (what was posted) and `error` (what `answer_from_form_data` raised for it),
    /// the same form again with the values kept and each problem beside its field. The
    /// options are those `answer_from_form_data` reads the post with.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(
        signature = (
            *, form_data = None, error = None, asker = None, class_prefix = None, hidden = None,
            action = None, utc_offset = None, apply_defaults = false, allow_unknown = false,
            limits = None
        ),
        text_signature = "($self, *, form_data=None, error=None, asker=None, class_prefix='tn-', \
                          hidden=None, action=None, utc_offset='Z', apply_defaults=False, \
                          allow_unknown=False, limits=None)"
    )]
    fn to_html<'py>(
        &self,
        py: Python<'py>,
        form_data: Option<&Bound<'py, PyAny>>,
        error: Option<&Bound<'py, PyAny>>,
        asker: Option<&Bound<'py, PyAny>>,
        class_prefix: Option<&Bound<'py, PyAny>>,
        hidden: Option<&Bound<'py, PyAny>>,
        action: Option<&Bound<'py, PyAny>>,
        utc_offset: Option<&Bound<'py, PyAny>>,
        apply_defaults: bool,
        allow_unknown: bool,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<String> {
        let args = HtmlArgs {
            asker,
            class_prefix,
            hidden,
            action,
            utc_offset,
            apply_defaults,
            allow_unknown,
            limits: PyLimits::or_default(limits),
        };
        let form = self.prepared_form(py).map(|form| form.get().core());
        request_to_html(py, &self.request, form, form_data, error, &args)
    }

    /// The `Answer` to this request from what the browser posted to the page `to_html` wrote
    /// (the core's `answer_from_post`): accept with the content read and validated, decline or
    /// cancel. `data` is the urlencoded body (`bytes` or `str`) or the `(name, value)` pairs a
    /// framework decoded; `hidden` names the host's own fields, which are skipped.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(
        signature = (
            data, *, utc_offset = None, apply_defaults = false, allow_unknown = false,
            hidden = None, limits = None
        ),
        text_signature = "($self, data, *, utc_offset='Z', apply_defaults=False, \
                          allow_unknown=False, hidden=None, limits=None)"
    )]
    fn answer_from_form_data<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        utc_offset: Option<&Bound<'py, PyAny>>,
        apply_defaults: bool,
        allow_unknown: bool,
        hidden: Option<&Bound<'py, PyAny>>,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<PyAnswer> {
        let args = HtmlArgs::for_reading(
            hidden,
            utc_offset,
            apply_defaults,
            allow_unknown,
            PyLimits::or_default(limits),
        );
        let form = self.prepared_form(py).map(|form| form.get().core());
        request_answer(py, &self.request, form, data, &args).map(PyAnswer)
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

wraps!(PyAnswer(Answer));

impl JsonText for PyAnswer {
    fn json(&self) -> String {
        self.0.to_json()
    }

    fn members<'py>(&self, py: Python<'py>) -> PyResult<Members<'py>> {
        Members::new(py)
            .with("id", "id", Some(self.0.id()))?
            .with("ok", "ok", Some(self.0.ok()))?
            .with("data", "data", optional_dict(py, self.0.data())?)?
            .with("reason", "reason", self.0.reason().map(|r| r.as_str()))
    }
}

json_class! {
    PyAnswer as "Answer", text;

    #[new]
    #[pyo3(signature = (id, ok, data = None, reason = None))]
    fn py_new<'py>(
        py: Python<'py>,
        id: &Bound<'py, PyAny>,
        ok: &Bound<'py, PyAny>,
        data: Option<&Bound<'py, PyAny>>,
        reason: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyAnswer> {
        let members = Arguments::new(py)
            .put("id", Some(id))?
            .put("ok", Some(ok))?
            .put("data", data)?
            .put("reason", reason)?;
        Answer::from_value(members.into_value())
            .or_raise(py)
            .map(PyAnswer)
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

}

/// MCP's `ElicitResult`, the client's reply to `elicitation/create`: `{action, content?,
/// _meta?}`.
///
/// `action` is `"accept"`, `"decline"` or `"cancel"`; `content` (what the person entered, each
/// value a string, number, boolean or list of strings) belongs only to accept.
#[pyclass(frozen, eq, module = "toolnexus", name = "ElicitResult")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyElicitResult(pub(crate) ElicitResult);

wraps!(PyElicitResult(ElicitResult));

impl JsonText for PyElicitResult {
    fn json(&self) -> String {
        self.0.to_json()
    }

    fn members<'py>(&self, py: Python<'py>) -> PyResult<Members<'py>> {
        let content = self.0.content().map(|c| c.as_map());
        Members::new(py)
            .with("action", "action", Some(self.0.action().as_str()))?
            .with("content", "content", optional_dict(py, content)?)?
            .with("_meta", "meta", optional_dict(py, self.0.meta())?)
    }
}

json_class! {
    PyElicitResult as "ElicitResult", text;

    #[new]
    #[pyo3(signature = (action, content = None, *, meta = None))]
    fn py_new<'py>(
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
        content: Option<&Bound<'py, PyAny>>,
        meta: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyElicitResult> {
        let members = Arguments::new(py)
            .put("action", Some(action))?
            .put("content", content)?
            .put("_meta", meta)?;
        ElicitResult::from_value(members.into_value())
            .or_raise(py)
            .map(PyElicitResult)
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

}
