//! The form model: `form_fields` with `FormField`, `FieldOption` and `Constraints`, and
//! `parse_field_input`, which turns what a person typed into content.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};
use toolnexus_core::Value;
use toolnexus_core::form::{self, Constraints, FieldOption, FormField};

use crate::content::read_schema;
use crate::contract::hash_json;
use crate::convert::to_python;
use crate::errors::OrRaise;
use crate::limits::PyLimits;
use crate::repr::Repr;
use crate::text::read_str;

/// The fields of `schema`'s form, in the order of its properties.
///
/// `schema` is a `dict` or JSON text; one the core cannot read as a `requestedSchema` raises
/// (run `check_schema` first to list every problem).
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
/// `InvalidValueError` for text the field refuses; either's `path` is the field's pointer
/// (`/age`) and its `message` is meant to be shown next to the field.
#[pyfunction]
pub(crate) fn parse_field_input<'py>(
    field: &Bound<'py, PyFormField>,
    text: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = field.py();
    let text = read_str(text, "text").or_raise(py)?;
    match form::parse_field_input(&field.get().0, &text).or_raise(py)? {
        Some(value) => to_python(py, &value),
        None => Ok(py.None().into_bound(py)),
    }
}

/// One field of a form, ready for a UI: made by `form_fields`.
///
/// `widget` names the control to show: `"text"`, `"email"`, `"uri"`, `"date"`, `"date-time"`,
/// `"number"`, `"integer"`, `"toggle"`, `"single-select"` or `"multi-select"`.
#[pyclass(frozen, eq, module = "toolnexus", name = "FormField")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyFormField(FormField);

#[pymethods]
impl PyFormField {
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
        match self.0.default_value() {
            Some(value) => to_python(py, &value),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// Whether the field seems to ask for a secret, which servers must not do in a form.
    #[getter]
    fn sensitive(&self) -> bool {
        self.0.sensitive()
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
#[pyclass(frozen, eq, hash, module = "toolnexus", name = "FieldOption")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyFieldOption {
    value: String,
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

#[pymethods]
impl PyFieldOption {
    #[new]
    fn new(value: String, label: String) -> PyFieldOption {
        PyFieldOption { value, label }
    }

    /// What content holds when this option is chosen.
    #[getter]
    fn value(&self) -> &str {
        &self.value
    }

    /// What to show: the option's title, or else its value.
    #[getter]
    fn label(&self) -> &str {
        &self.label
    }

    /// The option as the JSON object `{"value", "label"}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("value", &self.value)?;
        dict.set_item("label", &self.label)?;
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("FieldOption")
            .field("value", &self.value, py)?
            .field("label", &self.label, py)?
            .finish())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, String)) {
        let this = slf.get();
        (slf.get_type(), (this.value.clone(), this.label.clone()))
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
