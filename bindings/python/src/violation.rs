//! `toolnexus.Violation`: one way accepted content breaks its form's schema.

use std::hash::{Hash, Hasher};

use pyo3::prelude::*;
use toolnexus_core::content;

use crate::plain::plain_data;

/// One way content breaks its form's schema: where (`pointer`, a JSON pointer into the
/// content), which JSON Schema keyword (`keyword`), and what is wrong in words (`message`).
#[pyclass(frozen, eq, hash, module = "toolnexus", name = "Violation")]
#[derive(Debug, Clone)]
pub(crate) struct PyViolation {
    /// The JSON pointer of the value at fault, relative to the content (`""` is the content).
    #[pyo3(get)]
    pointer: String,
    /// The JSON Schema keyword that is broken (`required`, `type`, `maxLength`, …).
    #[pyo3(get)]
    keyword: String,
    /// What is wrong, in words a person filling in the form understands.
    #[pyo3(get)]
    message: String,
    /// The core's violation this one was made from, when the core made it: what an error
    /// given back to the core (the re-render of a web form) carries. The core has no public
    /// constructor of a violation, so one made in Python has none.
    core: Option<content::Violation>,
}

impl PyViolation {
    /// The core's violation.
    pub(crate) fn from_core(violation: &content::Violation) -> PyViolation {
        PyViolation {
            pointer: violation.pointer().to_owned(),
            keyword: violation.keyword().as_str().to_owned(),
            message: violation.message().to_owned(),
            core: Some(violation.clone()),
        }
    }

    /// The core's violation, if the core made this one.
    pub(crate) fn core(&self) -> Option<&content::Violation> {
        self.core.as_ref()
    }
}

// Equal and hashed by the three attributes Python sees.
impl PartialEq for PyViolation {
    fn eq(&self, other: &PyViolation) -> bool {
        (&self.pointer, &self.keyword, &self.message)
            == (&other.pointer, &other.keyword, &other.message)
    }
}

impl Eq for PyViolation {}

impl Hash for PyViolation {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (&self.pointer, &self.keyword, &self.message).hash(state);
    }
}

plain_data! {
    PyViolation as "Violation",
    fields = [pointer, keyword, message],
    args = [pointer, keyword, message];

    #[new]
    fn new(pointer: String, keyword: String, message: String) -> PyViolation {
        PyViolation {
            pointer,
            keyword,
            message,
            core: None,
        }
    }
}
