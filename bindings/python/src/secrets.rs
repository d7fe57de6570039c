//! Forms that seem to ask for a secret: `sensitive_fields` and `SensitiveField`, and the
//! reject policy `reject_secrets`.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};
use toolnexus_core::form::secrets;

use crate::content::read_schema;
use crate::errors::OrRaise;
use crate::limits::PyLimits;
use crate::repr::Repr;

/// Every property of `schema` that seems to ask for a secret, in schema order.
///
/// The heuristic reads each property's name, then its title, then its description; it has
/// false positives (a field about a password policy), so hosts usually warn rather than refuse.
#[pyfunction]
#[pyo3(signature = (schema, *, limits = None))]
pub(crate) fn sensitive_fields(
    schema: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<Vec<PySensitiveField>> {
    let py = schema.py();
    let schema = read_schema(schema, &PyLimits::or_default(limits)).or_raise(py)?;
    Ok(secrets::sensitive_fields(&schema)
        .iter()
        .map(|f| PySensitiveField {
            name: f.name().to_owned(),
            kind: f.kind().as_str().to_owned(),
        })
        .collect())
}

/// The reject policy, for a host that refuses forms asking for secrets outright: returns
/// `None` when no property seems to ask for one, else raises `SensitiveFieldError` at the first
/// such property (`/properties/<name>`).
#[pyfunction]
#[pyo3(signature = (schema, *, limits = None))]
pub(crate) fn reject_secrets(
    schema: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<()> {
    let py = schema.py();
    let schema = read_schema(schema, &PyLimits::or_default(limits)).or_raise(py)?;
    secrets::reject_secrets(&schema).or_raise(py)
}

/// A field that seems to ask for a secret: its `name` and the `kind` of secret
/// (`"password"`, `"pin"`, `"api_key"`, `"token"`, `"secret"`, `"private_key"`,
/// `"card_number"`, `"card_security_code"`, `"ssn"` or `"bank_account"`).
#[pyclass(frozen, eq, hash, module = "toolnexus", name = "SensitiveField")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PySensitiveField {
    name: String,
    kind: String,
}

#[pymethods]
impl PySensitiveField {
    #[new]
    fn new(name: String, kind: String) -> PySensitiveField {
        PySensitiveField { name, kind }
    }

    /// The property's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// What kind of secret it seems to ask for.
    #[getter]
    fn kind(&self) -> &str {
        &self.kind
    }

    /// The field as the JSON object `{"name", "kind"}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("name", &self.name)?;
        dict.set_item("kind", &self.kind)?;
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("SensitiveField")
            .field("name", &self.name, py)?
            .field("kind", &self.kind, py)?
            .finish())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, String)) {
        let this = slf.get();
        (slf.get_type(), (this.name.clone(), this.kind.clone()))
    }
}
