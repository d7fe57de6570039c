//! `toolnexus.Violation`: one way accepted content breaks its form's schema.

use pyo3::prelude::*;
use toolnexus_core::content;

use crate::plain::plain_data;

/// One way content breaks its form's schema: where (`pointer`, a JSON pointer into the
/// content), which JSON Schema keyword (`keyword`), and what is wrong in words (`message`).
#[pyclass(frozen, eq, hash, get_all, module = "toolnexus", name = "Violation")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyViolation {
    /// The JSON pointer of the value at fault, relative to the content (`""` is the content).
    pointer: String,
    /// The JSON Schema keyword that is broken (`required`, `type`, `maxLength`, …).
    keyword: String,
    /// What is wrong, in words a person filling in the form understands.
    message: String,
}

impl PyViolation {
    /// The core's violation with this one's pointer, keyword and message; `None` when the
    /// keyword is not one the core names.
    pub(crate) fn to_core(&self) -> Option<content::Violation> {
        let keyword = content::Keyword::from_name(&self.keyword)?;
        Some(content::Violation::new(
            self.pointer.as_str(),
            keyword,
            self.message.as_str(),
        ))
    }

    /// The core's violation.
    pub(crate) fn from_core(violation: &content::Violation) -> PyViolation {
        PyViolation {
            pointer: violation.pointer().to_owned(),
            keyword: violation.keyword().as_str().to_owned(),
            message: violation.message().to_owned(),
        }
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
        }
    }
}
