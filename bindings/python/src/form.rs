//! The form model: `Form`, a schema prepared once, with its `FormField`s (`FieldOption`,
//! `Constraints`); and the conveniences `form_fields` and `parse_field_input`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};
use toolnexus_core::form::{self, Constraints, FieldOption, Form, FormField, Widget};
use toolnexus_core::{Limits, Map, Value};

use crate::classes::hash_json;
use crate::content::{fill_with, prepare_with, problems, read_schema, validate_with};
use crate::convert::{map_to_python, to_python};
use crate::errors::{Fault, OrRaise};
use crate::html::{HtmlArgs, form_submission, form_to_html};
use crate::input::read_json;
use crate::limits::PyLimits;
use crate::plain::plain_data;
use crate::repr::Repr;
use crate::secrets::{PySensitiveField, sensitive_list};
use crate::text::read_str;

/// A `requestedSchema` prepared once: its fields, its problems, and everything done with
/// content, none of which reads the schema again.
///
/// `Form(schema)` takes a `dict` or JSON text; a schema that cannot be shown as a form raises
/// the error of its first blocking problem (as `validate_content` does), and the problems that
/// leave a usable form are kept in `problems`. `fields` and `problems` are made once and the
/// same tuple is returned on each access. A `Request` of kind `"input"` gives its form as
/// `request.form`; one begun by a `Session` comes with the form the session prepared.
#[pyclass(frozen, module = "toolnexus", name = "Form")]
pub(crate) struct PyForm {
    form: Arc<Form>,
    /// The schema as it was given, for `schema` and pickling.
    schema: Map,
    fields: PyOnceLock<Py<PyTuple>>,
    problems: PyOnceLock<Py<PyTuple>>,
}

impl PyForm {
    /// The form prepared from `schema`.
    /// The core's form.
    pub(crate) fn core(&self) -> &Form {
        &self.form
    }

    pub(crate) fn new(form: Arc<Form>, schema: Map) -> PyForm {
        PyForm {
            form,
            schema,
            fields: PyOnceLock::new(),
            problems: PyOnceLock::new(),
        }
    }

    /// The form of the schema `schema` (a `dict` or JSON text), read within `limits`.
    fn read(schema: &Bound<'_, PyAny>, limits: &Limits) -> Result<PyForm, Fault> {
        let value = read_json(schema, limits)?;
        let form = Form::new(&value)?;
        // A form is only ever made from an object.
        let schema = match value {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        Ok(PyForm::new(Arc::new(form), schema))
    }

    fn field_tuple<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyTuple>> {
        let fields = self.fields.get_or_try_init(py, || {
            let fields = self.form.fields().iter().cloned().map(PyFormField);
            PyTuple::new(py, fields).map(Bound::unbind)
        })?;
        Ok(fields.bind(py))
    }
}

#[pymethods]
impl PyForm {
    #[new]
    #[pyo3(signature = (schema, *, limits = None))]
    fn py_new(schema: &Bound<'_, PyAny>, limits: Option<&Bound<'_, PyLimits>>) -> PyResult<Self> {
        PyForm::read(schema, &PyLimits::or_default(limits)).or_raise(schema.py())
    }

    /// The fields a UI renders, in the order of the schema's properties (the same tuple on
    /// each access).
    #[getter]
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.field_tuple(py).cloned()
    }

    /// The field called `name`, or `None` when the form has none.
    fn field<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.form.fields().iter().position(|f| f.name() == name) {
            Some(index) => self.field_tuple(py)?.get_item(index).map(Some),
            None => Ok(None),
        }
    }

    /// Every problem of the schema that leaves the form usable (an unknown keyword, a
    /// `required` name without a property…), in `check_schema`'s order; empty for a
    /// well-formed schema. The same tuple on each access.
    #[getter]
    fn problems<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let found = self.problems.get_or_try_init(py, || {
            PyTuple::new(py, problems(self.form.problems())).map(Bound::unbind)
        })?;
        Ok(found.bind(py).clone())
    }

    /// The schema as it was given (a new `dict` on each access).
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        map_to_python(py, &self.schema)
    }

    /// Every way `content` breaks the form, as `validate_content` gives them.
    #[pyo3(signature = (content, *, allow_unknown = false, limits = None))]
    fn validate<'py>(
        &self,
        content: &Bound<'py, PyAny>,
        allow_unknown: bool,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<Bound<'py, PyList>> {
        validate_with(
            &*self.form,
            content,
            allow_unknown,
            &PyLimits::or_default(limits),
        )
    }

    /// What a host sends back on accept, as `prepare_content` gives it: the content with
    /// defaults filled in, or `InvalidContentError` raised with every violation.
    #[pyo3(signature = (content, *, allow_unknown = false, limits = None))]
    fn prepare<'py>(
        &self,
        content: &Bound<'py, PyAny>,
        allow_unknown: bool,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        prepare_with(
            &*self.form,
            content,
            allow_unknown,
            &PyLimits::or_default(limits),
        )
    }

    /// `content` (a JSON object) with every absent property filled from its `default`, as
    /// `apply_defaults` gives it.
    #[pyo3(signature = (content, *, limits = None))]
    fn apply_defaults<'py>(
        &self,
        content: &Bound<'py, PyAny>,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        fill_with(&*self.form, content, &PyLimits::or_default(limits))
    }

    /// The `default` of every property that has one, in property order: the content a form
    /// starts from (a new `dict` on each access).
    #[getter]
    fn defaults<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        map_to_python(py, &self.form.defaults())
    }

    /// What a person typed into the field `field_name`, as `parse_field_input` reads it; a
    /// name the form does not have raises `UnknownFieldError` at `/<name>`.
    fn parse<'py>(
        &self,
        field_name: &Bound<'py, PyAny>,
        text: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = text.py();
        let name = read_str(field_name, "field_name").or_raise(py)?;
        let text = read_str(text, "text").or_raise(py)?;
        optional_value(py, self.form.parse(&name, &text).or_raise(py)?)
    }

    /// The fields that seem to ask for a secret, in schema order.
    fn sensitive_fields(&self) -> Vec<PySensitiveField> {
        sensitive_list(&self.form.sensitive_fields())
    }

    /// The reject-secrets policy: `None`, or `SensitiveFieldError` at the first field that
    /// seems to ask for a secret (`/properties/<name>`).
    fn reject_secrets(&self, py: Python<'_>) -> PyResult<()> {
        self.form.reject_secrets().or_raise(py)
    }

    /// The form as an HTML fragment, one `<form method="post">` for the host's page, asked
    /// with `message` (the core's `form_html`). With `form_data` (what was posted) and `error`
    /// (what `read_form_data` raised for it), the same form again with the values kept and
    /// each problem beside its field.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(
        signature = (
            message = None, *, form_data = None, error = None, asker = None,
            class_prefix = None, hidden = None, action = None, utc_offset = None,
            apply_defaults = false, allow_unknown = false, limits = None
        ),
        text_signature = "($self, message='', *, form_data=None, error=None, asker=None, \
                          class_prefix='tn-', hidden=None, action=None, utc_offset='Z', \
                          apply_defaults=False, allow_unknown=False, limits=None)"
    )]
    fn to_html<'py>(
        &self,
        py: Python<'py>,
        message: Option<&Bound<'py, PyAny>>,
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
        form_to_html(py, &self.form, message, form_data, error, &args)
    }

    /// What the person did with the page `to_html` wrote, from what the browser posted (the
    /// core's `read_form_post`): `("accept", content)` with the content read and validated,
    /// `("decline", None)` or `("cancel", None)`. `data` and `hidden` are as
    /// `Request.answer_from_form_data` takes them.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(
        signature = (
            data, *, utc_offset = None, apply_defaults = false, allow_unknown = false,
            hidden = None, limits = None
        ),
        text_signature = "($self, data, *, utc_offset='Z', apply_defaults=False, \
                          allow_unknown=False, hidden=None, limits=None)"
    )]
    fn read_form_data<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        utc_offset: Option<&Bound<'py, PyAny>>,
        apply_defaults: bool,
        allow_unknown: bool,
        hidden: Option<&Bound<'py, PyAny>>,
        limits: Option<&Bound<'py, PyLimits>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let args = HtmlArgs::for_reading(
            hidden,
            utc_offset,
            apply_defaults,
            allow_unknown,
            PyLimits::or_default(limits),
        );
        form_submission(py, &self.form, data, &args)
    }

    fn __len__(&self) -> usize {
        self.form.fields().len()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let names: Vec<&str> = self.form.fields().iter().map(FormField::name).collect();
        Ok(Repr::new("Form").field("fields", names, py)?.finish())
    }

    /// Pickles as `Form(schema)`.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, pyo3::types::PyType>, (Bound<'py, PyDict>,))> {
        Ok((
            slf.get_type(),
            (map_to_python(slf.py(), &slf.get().schema)?,),
        ))
    }
}

/// `Some(value)` as Python, `None` as `None`.
fn optional_value<'py>(py: Python<'py>, value: Option<Value>) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Some(value) => to_python(py, &value),
        None => Ok(py.None().into_bound(py)),
    }
}

/// The fields of `schema`'s form, in the order of its properties.
///
/// `schema` is a `dict` or JSON text; one the core cannot read as a `requestedSchema` raises
/// (run `check_schema` first to list every problem). `Form(schema).fields` is the same, made
/// once.
#[pyfunction]
#[pyo3(signature = (schema, *, limits = None))]
pub(crate) fn form_fields(
    schema: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<Vec<PyFormField>> {
    let py = schema.py();
    let schema = read_schema(schema, &PyLimits::or_default(limits)).or_raise(py)?;
    Ok(form::form_fields(&schema)
        .into_iter()
        .map(PyFormField)
        .collect())
}

/// Turns what a person typed into `field` into the value content holds.
///
/// Returns the typed value (a `str`, `int`, `Number`, `bool` or list of `str`), or `None` for
/// blank text in a field that is optional or has a default (leave it out of the content).
/// Raises `MissingFieldError` for blank text in a required field without a default, and
/// `InvalidValueError` for text the field refuses; either's `pointer` is the field's pointer
/// (`/age`) and its `message` is meant to be shown next to the field. The field keeps what
/// it was made from: nothing is read again.
#[pyfunction]
pub(crate) fn parse_field_input<'py>(
    field: &Bound<'py, PyFormField>,
    text: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = field.py();
    let text = read_str(text, "text").or_raise(py)?;
    optional_value(
        py,
        form::parse_field_input(&field.get().0, &text).or_raise(py)?,
    )
}

/// One field of a form, ready for a UI: from `Form.fields` or `form_fields`.
///
/// `widget` names the control to show: `"text"`, `"email"`, `"uri"`, `"date"`, `"date-time"`,
/// `"number"`, `"integer"`, `"toggle"`, `"single-select"` or `"multi-select"` (see
/// `WIDGETS`).
#[pyclass(frozen, eq, module = "toolnexus", name = "FormField")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyFormField(FormField);

#[pymethods]
impl PyFormField {
    /// The name of every widget, in the core's order.
    #[classattr]
    #[pyo3(name = "WIDGETS")]
    fn widgets(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        PyTuple::new(py, Widget::ALL.map(Widget::as_str))
    }

    /// The property's name: its key in content.
    #[getter]
    fn name(&self) -> &str {
        self.0.name()
    }

    /// What to show as the field's label: the `title`, or else the name.
    #[getter]
    fn label(&self) -> &str {
        self.0.label()
    }

    /// Longer help text, if the schema gives a `description`.
    #[getter]
    fn description(&self) -> Option<&str> {
        self.0.description()
    }

    /// Whether the schema's `required` lists the field.
    #[getter]
    fn required(&self) -> bool {
        self.0.required()
    }

    /// The control to show (see the class documentation for the names).
    #[getter]
    fn widget(&self) -> &'static str {
        self.0.widget().as_str()
    }

    /// The choices of a select, in schema order; empty for other widgets.
    #[getter]
    fn options(&self) -> Vec<PyFieldOption> {
        self.0
            .options()
            .iter()
            .map(PyFieldOption::from_core)
            .collect()
    }

    /// The limits the value must keep (each `None` when not set).
    #[getter]
    fn constraints(&self) -> PyConstraints {
        PyConstraints(self.0.constraints().clone())
    }

    /// The value to start from, as content would hold it, or `None` without a `default`.
    #[getter]
    fn default<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        optional_value(py, self.0.default_value())
    }

    /// Whether the field seems to ask for a secret, which servers must not do in a form.
    #[getter]
    fn sensitive(&self) -> bool {
        self.0.sensitive()
    }

    /// The kind of secret the field seems to ask for (see `SensitiveField.KINDS`), or `None`.
    #[getter]
    fn secret_kind(&self) -> Option<&'static str> {
        self.0.secret_kind().map(|kind| kind.as_str())
    }

    /// The field as the core's JSON object: `{"name", "label", "description"?, "required",
    /// "widget", "options"?, "constraints"?, "default"?, "sensitive"}`, optional members only
    /// when set (`options` for selects, `constraints` when one is set).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.0.to_value())
    }

    /// [`to_dict`] as compact JSON: the exact text of the core.
    fn to_json(&self) -> String {
        self.0.to_value().to_json()
    }

    fn __hash__(&self) -> u64 {
        hash_json(&self.to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("FormField")
            .field("name", self.0.name(), py)?
            .field("label", self.0.label(), py)?
            .field("required", self.0.required(), py)?
            .field("widget", self.0.widget().as_str(), py)?
            .field("sensitive", self.0.sensitive(), py)?
            .finish())
    }
}

/// One choice of a select field: the `value` content holds and the `label` to show.
#[pyclass(frozen, eq, hash, get_all, module = "toolnexus", name = "FieldOption")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyFieldOption {
    /// What content holds when this option is chosen.
    value: String,
    /// What to show: the option's title, or else its value.
    label: String,
}

impl PyFieldOption {
    fn from_core(option: &FieldOption) -> PyFieldOption {
        PyFieldOption {
            value: option.value().to_owned(),
            label: option.label().to_owned(),
        }
    }
}

plain_data! {
    PyFieldOption as "FieldOption",
    fields = [value, label],
    args = [value, label];

    #[new]
    fn new(value: String, label: String) -> PyFieldOption {
        PyFieldOption { value, label }
    }
}

/// The limits a field's value must keep, for a UI to show or enforce while typing: the
/// lengths of text (in code points), the bounds of a number (inclusive, exact: an `int`, or a
/// `Number` spelt as in the schema) and the counts of a multi-select. Only those that apply
/// to the field's widget can be set; the others are `None`.
#[pyclass(frozen, eq, module = "toolnexus", name = "Constraints")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyConstraints(Constraints);

impl PyConstraints {
    fn number<'py>(
        py: Python<'py>,
        number: Option<&toolnexus_core::Number>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match number {
            Some(n) => to_python(py, &Value::Number(n.clone())),
            None => Ok(py.None().into_bound(py)),
        }
    }
}

#[pymethods]
impl PyConstraints {
    /// The fewest characters (Unicode code points) text may have.
    #[getter]
    fn min_length(&self) -> Option<u64> {
        self.0.min_length()
    }

    /// The most characters (Unicode code points) text may have.
    #[getter]
    fn max_length(&self) -> Option<u64> {
        self.0.max_length()
    }

    /// The smallest number allowed (inclusive), exact.
    #[getter]
    fn minimum<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Self::number(py, self.0.minimum())
    }

    /// The largest number allowed (inclusive), exact.
    #[getter]
    fn maximum<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Self::number(py, self.0.maximum())
    }

    /// The fewest options a multi-select needs.
    #[getter]
    fn min_items(&self) -> Option<u64> {
        self.0.min_items()
    }

    /// The most options a multi-select allows.
    #[getter]
    fn max_items(&self) -> Option<u64> {
        self.0.max_items()
    }

    /// The set constraints as a `dict` with the wire names (`minLength`, `maxLength`,
    /// `minimum`, `maximum`, `minItems`, `maxItems`), in that order; `{}` when none is set.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.0.to_value())
    }

    /// Whether any constraint is set.
    fn __bool__(&self) -> bool {
        !self.0.is_empty()
    }

    fn __hash__(&self) -> u64 {
        hash_json(&self.0.to_value().to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut repr = Repr::new("Constraints");
        let set = self.0.to_value();
        for (key, value) in set.as_object().into_iter().flatten() {
            repr = repr.field(attribute_name(key), to_python(py, value)?, py)?;
        }
        Ok(repr.finish())
    }
}

/// The attribute of `Constraints` that holds the constraint of wire name `key`.
fn attribute_name(key: &str) -> &str {
    match key {
        "minLength" => "min_length",
        "maxLength" => "max_length",
        "minItems" => "min_items",
        "maxItems" => "max_items",
        same => same,
    }
}
