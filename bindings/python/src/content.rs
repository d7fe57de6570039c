//! Schemas and content: `check_schema` and `SchemaProblem`, `validate_content`,
//! `apply_defaults` and `prepare_content`.
//!
//! Schemas come from servers and content from people, so both are read within the limits and
//! every verdict is the core's: the same problems and violations, in the same order, as every
//! other binding reports.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use toolnexus_core::content::{self, ContentOptions, Violation};
use toolnexus_core::form::Form;
use toolnexus_core::schema::RequestedSchema;
use toolnexus_core::schema::{self, SchemaProblemKind};
use toolnexus_core::{Error, ErrorKind, Limits, Map, Value};

use crate::convert::map_to_python;
use crate::errors::{Fault, OrRaise, named};
use crate::input::read_json;
use crate::limits::PyLimits;
use crate::plain::plain_data;
use crate::violation::PyViolation;

/// A `requestedSchema` given as a `dict` or JSON text, read by the core's typed reading.
pub(crate) fn read_schema(
    schema: &Bound<'_, PyAny>,
    limits: &Limits,
) -> Result<RequestedSchema, Fault> {
    let value = read_json(schema, limits)?;
    Ok(RequestedSchema::from_value(&value)?)
}

/// Content given as a `dict` or JSON text, which must be a JSON object.
fn read_content_object(content: &Bound<'_, PyAny>, limits: &Limits) -> Result<Map, Fault> {
    match read_json(content, limits)? {
        Value::Object(map) => Ok(map),
        other => Err(Fault::Invalid(Error::new(
            ErrorKind::WrongType,
            "",
            format!(
                "the content must be a JSON object, not {}",
                other.type_name()
            ),
        ))),
    }
}

/// What content is checked against: a schema read for one call (the free functions) or a
/// prepared `Form`. Each Python operation on content is written once, over either.
pub(crate) trait Checks {
    /// Every violation of `content`.
    fn violations(&self, content: &Value, options: &ContentOptions) -> Vec<Violation>;
    /// `content` with absent properties filled from their defaults.
    fn filled(&self, content: &Map) -> Map;
    /// The completed content, or every violation of it.
    fn prepared(&self, content: &Value, options: &ContentOptions) -> Result<Map, Vec<Violation>>;
}

impl Checks for RequestedSchema {
    fn violations(&self, content: &Value, options: &ContentOptions) -> Vec<Violation> {
        content::validate_content(self, content, options)
    }

    fn filled(&self, content: &Map) -> Map {
        content::apply_defaults(self, content)
    }

    fn prepared(&self, content: &Value, options: &ContentOptions) -> Result<Map, Vec<Violation>> {
        content::prepare_content(self, content, options)
    }
}

impl Checks for Form {
    fn violations(&self, content: &Value, options: &ContentOptions) -> Vec<Violation> {
        self.validate(content, options)
    }

    fn filled(&self, content: &Map) -> Map {
        self.apply_defaults(content)
    }

    fn prepared(&self, content: &Value, options: &ContentOptions) -> Result<Map, Vec<Violation>> {
        self.prepare(content, options)
    }
}

fn content_options(allow_unknown: bool) -> ContentOptions {
    ContentOptions::STRICT.allow_unknown(allow_unknown)
}

/// `validate_content` and `Form.validate`: the violations of `content` as a list.
pub(crate) fn validate_with<'py>(
    checks: &impl Checks,
    content: &Bound<'py, PyAny>,
    allow_unknown: bool,
    limits: &Limits,
) -> PyResult<Bound<'py, PyList>> {
    let py = content.py();
    let content = read_json(content, limits).or_raise(py)?;
    let found = checks.violations(&content, &content_options(allow_unknown));
    PyList::new(py, found.iter().map(PyViolation::from_core))
}

/// `apply_defaults` and `Form.apply_defaults`: `content`, an object, filled in.
pub(crate) fn fill_with<'py>(
    checks: &impl Checks,
    content: &Bound<'py, PyAny>,
    limits: &Limits,
) -> PyResult<Bound<'py, PyDict>> {
    let py = content.py();
    let content = read_content_object(content, limits).or_raise(py)?;
    map_to_python(py, &checks.filled(&content))
}

/// `prepare_content` and `Form.prepare`: the completed content, or `InvalidContentError`
/// raised with every violation.
pub(crate) fn prepare_with<'py>(
    checks: &impl Checks,
    content: &Bound<'py, PyAny>,
    allow_unknown: bool,
    limits: &Limits,
) -> PyResult<Bound<'py, PyDict>> {
    let py = content.py();
    let content = read_json(content, limits).or_raise(py)?;
    checks
        .prepared(&content, &content_options(allow_unknown))
        .map_err(|violations| Error::invalid_content("", violations))
        .or_raise(py)
        .and_then(|filled| map_to_python(py, &filled))
}

/// Every problem with `schema` as an MCP `requestedSchema`, in the core's fixed order; an
/// empty list when it is well-formed.
///
/// `schema` is any JSON value as a `dict` (or other Python value) or JSON text: a schema that
/// is not an object is a problem, not an exception. Only input that is not JSON, or exceeds
/// `limits`, raises.
#[pyfunction]
#[pyo3(signature = (schema, *, limits = None))]
pub(crate) fn check_schema(
    schema: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<Vec<PySchemaProblem>> {
    let py = schema.py();
    let value = read_json(schema, &PyLimits::or_default(limits)).or_raise(py)?;
    Ok(problems(&schema::check_schema(&value)))
}

/// `found` as `SchemaProblem`s.
pub(crate) fn problems(found: &[schema::SchemaProblem]) -> Vec<PySchemaProblem> {
    found.iter().map(PySchemaProblem::from_core).collect()
}

/// Every way `content` breaks `schema`, in the core's fixed order; an empty list when the
/// content is valid.
///
/// Content that is not a JSON object is one `type` violation at `""`. Members the schema does
/// not declare are violations unless `allow_unknown` (then each must still hold a string,
/// number, boolean or list of strings). A schema the core cannot read raises.
#[pyfunction]
#[pyo3(signature = (schema, content, *, allow_unknown = false, limits = None))]
pub(crate) fn validate_content<'py>(
    schema: &Bound<'py, PyAny>,
    content: &Bound<'py, PyAny>,
    allow_unknown: bool,
    limits: Option<&Bound<'py, PyLimits>>,
) -> PyResult<Bound<'py, PyList>> {
    let limits = PyLimits::or_default(limits);
    let schema = read_schema(schema, &limits).or_raise(schema.py())?;
    validate_with(&schema, content, allow_unknown, &limits)
}

/// `content` (a JSON object) with every absent property filled from its `default`, in schema
/// order after the members already there; a present value is never replaced, and a member
/// holding `None` counts as absent.
#[pyfunction]
#[pyo3(signature = (schema, content, *, limits = None))]
pub(crate) fn apply_defaults<'py>(
    schema: &Bound<'py, PyAny>,
    content: &Bound<'py, PyAny>,
    limits: Option<&Bound<'py, PyLimits>>,
) -> PyResult<Bound<'py, PyDict>> {
    let limits = PyLimits::or_default(limits);
    let schema = read_schema(schema, &limits).or_raise(schema.py())?;
    fill_with(&schema, content, &limits)
}

/// What a host sends back on accept: `content` with defaults filled in, then validated.
///
/// Returns the completed content; raises `InvalidContentError` whose `violations` lists every
/// way the completed content breaks `schema`.
#[pyfunction]
#[pyo3(signature = (schema, content, *, allow_unknown = false, limits = None))]
pub(crate) fn prepare_content<'py>(
    schema: &Bound<'py, PyAny>,
    content: &Bound<'py, PyAny>,
    allow_unknown: bool,
    limits: Option<&Bound<'py, PyLimits>>,
) -> PyResult<Bound<'py, PyDict>> {
    let limits = PyLimits::or_default(limits);
    let schema = read_schema(schema, &limits).or_raise(schema.py())?;
    prepare_with(&schema, content, allow_unknown, &limits)
}

/// One problem with a schema: what is wrong (`kind`, a stable snake_case name such as
/// `"unknown_required"`), where (`pointer`, a JSON pointer into the schema) and how to put it
/// right (`message`).
#[pyclass(
    frozen,
    eq,
    hash,
    get_all,
    module = "toolnexus",
    name = "SchemaProblem"
)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PySchemaProblem {
    /// What is wrong: `"wrong_type"`, `"missing_keyword"`, `"unknown_required"`, … (see
    /// `KINDS`).
    kind: &'static str,
    /// The JSON pointer of the keyword at fault, relative to the schema (`""` is the schema);
    /// for an absent keyword, where it belongs.
    pointer: String,
    /// What is wrong and how to fix it, in words.
    message: String,
}

impl PySchemaProblem {
    fn from_core(problem: &schema::SchemaProblem) -> PySchemaProblem {
        PySchemaProblem {
            kind: problem.kind().as_str(),
            pointer: problem.pointer().to_owned(),
            message: problem.message().to_owned(),
        }
    }
}

plain_data! {
    PySchemaProblem as "SchemaProblem",
    fields = [kind, pointer, message],
    args = [kind, pointer, message];

    /// A problem of `kind`, which must be one the core reports (see `KINDS`).
    #[new]
    fn new(py: Python<'_>, kind: &str, pointer: String, message: String) -> PyResult<Self> {
        let kind = named(py, kind, SchemaProblemKind::from_name, "a kind of schema problem")?;
        Ok(PySchemaProblem {
            kind: kind.as_str(),
            pointer,
            message,
        })
    }

    /// The name of every kind of problem, in the core's order.
    #[classattr]
    #[pyo3(name = "KINDS")]
    fn kinds(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        PyTuple::new(py, SchemaProblemKind::ALL.map(SchemaProblemKind::as_str))
    }
}
