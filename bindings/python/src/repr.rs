//! `__repr__` text in the form Python programmers expect: `Name(field=value, …)`.

use pyo3::BoundObject;
use pyo3::prelude::*;

/// Builds `Name(field=repr(value), …)`, each value written by Python's own `repr`.
pub(crate) struct Repr {
    text: String,
    fields: usize,
}

impl Repr {
    /// A representation of a `name` object, with no fields yet.
    pub(crate) fn new(name: &str) -> Repr {
        Repr {
            text: format!("{name}("),
            fields: 0,
        }
    }

    /// Adds `field=repr(value)`.
    pub(crate) fn field<'py>(
        mut self,
        field: &str,
        value: impl IntoPyObject<'py>,
        py: Python<'py>,
    ) -> PyResult<Repr> {
        let value = value.into_pyobject(py).map_err(Into::into)?;
        let shown = value.into_any().into_bound().repr()?;
        if self.fields > 0 {
            self.text.push_str(", ");
        }
        self.text.push_str(field);
        self.text.push('=');
        self.text.push_str(&shown.to_cow()?);
        self.fields += 1;
        Ok(self)
    }

    /// The finished text.
    pub(crate) fn finish(mut self) -> String {
        self.text.push(')');
        self.text
    }
}
