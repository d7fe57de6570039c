//! Forms that seem to ask for a secret: `sensitive_fields` and `SensitiveField`, and the
//! reject policy `reject_secrets`.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use toolnexus_core::form::secrets::{self, SecretKind, SensitiveField};

use crate::content::read_schema;
use crate::errors::{OrRaise, named};
use crate::limits::PyLimits;
use crate::plain::plain_data;

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
    Ok(sensitive_list(&secrets::sensitive_fields(&schema)))
}

/// `found` as `SensitiveField`s.
pub(crate) fn sensitive_list(found: &[SensitiveField]) -> Vec<PySensitiveField> {
    found
        .iter()
        .map(|f| PySensitiveField {
            name: f.name().to_owned(),
            kind: f.kind().as_str(),
        })
        .collect()
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
/// `"card_number"`, `"card_security_code"`, `"ssn"` or `"bank_account"`; see `KINDS`).
#[pyclass(
    frozen,
    eq,
    hash,
    get_all,
    module = "toolnexus",
    name = "SensitiveField"
)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PySensitiveField {
    /// The property's name.
    name: String,
    /// What kind of secret it seems to ask for.
    kind: &'static str,
}

plain_data! {
    PySensitiveField as "SensitiveField",
    fields = [name, kind],
    args = [name, kind];

    /// A field `name` asking for a secret of `kind`, which must be one the core reports (see
    /// `KINDS`).
    #[new]
    fn new(py: Python<'_>, name: String, kind: &str) -> PyResult<PySensitiveField> {
        let kind = named(py, kind, SecretKind::from_name, "a kind of secret")?;
        Ok(PySensitiveField {
            name,
            kind: kind.as_str(),
        })
    }

    /// The name of every kind of secret, in the core's order.
    #[classattr]
    #[pyo3(name = "KINDS")]
    fn kinds(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        PyTuple::new(py, SecretKind::ALL.map(SecretKind::as_str))
    }
}
