//! `toolnexus.Violation`: one way accepted content breaks its form's schema.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};
use toolnexus_core::content;

use crate::repr::Repr;

/// One way content breaks its form's schema: where (`path`, a JSON pointer into the content),
/// which JSON Schema keyword (`keyword`), and what is wrong in words (`message`).
#[pyclass(frozen, eq, hash, module = "toolnexus", name = "Violation")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyViolation {
    path: String,
    keyword: String,
    message: String,
}

impl PyViolation {
    /// The core's violation.
    pub(crate) fn from_core(violation: &content::Violation) -> PyViolation {
        PyViolation {
            path: violation.pointer().to_owned(),
            keyword: violation.keyword().as_str().to_owned(),
            message: violation.message().to_owned(),
        }
    }
}

#[pymethods]
impl PyViolation {
    #[new]
    fn new(path: String, keyword: String, message: String) -> PyViolation {
        PyViolation {
            path,
            keyword,
            message,
        }
    }

    /// The JSON pointer of the value at fault, relative to the content (`""` is the content).
    #[getter]
    fn path(&self) -> &str {
        &self.path
    }

    /// The JSON Schema keyword that is broken (`required`, `type`, `maxLength`, …).
    #[getter]
    fn keyword(&self) -> &str {
        &self.keyword
    }

    /// What is wrong, in words a person filling in the form understands.
    #[getter]
    fn message(&self) -> &str {
        &self.message
    }

    /// The violation as the JSON object `{"pointer", "keyword", "message"}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("pointer", &self.path)?;
        dict.set_item("keyword", &self.keyword)?;
        dict.set_item("message", &self.message)?;
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("Violation")
            .field("path", &self.path, py)?
            .field("keyword", &self.keyword, py)?
            .field("message", &self.message, py)?
            .finish())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, String, String)) {
        let this = slf.get();
        (
            slf.get_type(),
            (
                this.path.clone(),
                this.keyword.clone(),
                this.message.clone(),
            ),
        )
    }
}
