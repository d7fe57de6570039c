//! Arguments that are plain text (a URL, what a person typed), read as UTF-8.

use pyo3::exceptions::{PyTypeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use toolnexus_core::{Error, ErrorKind};

use crate::errors::Fault;

/// The `str` argument `name` as UTF-8: a `TypeError` for another type, a `lone_surrogate`
/// error for a string UTF-8 cannot carry.
pub(crate) fn read_str(argument: &Bound<'_, PyAny>, name: &str) -> Result<String, Fault> {
    let py = argument.py();
    let Ok(text) = argument.cast::<PyString>() else {
        let type_name = argument.get_type().name()?;
        return Err(Fault::Python(PyTypeError::new_err(format!(
            "{name} must be a str, not {}",
            type_name.to_cow()?
        ))));
    };
    match text.to_cow() {
        Ok(text) => Ok(text.into_owned()),
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(py) => Err(Fault::Invalid(Error::new(
            ErrorKind::LoneSurrogate,
            "",
            format!("the {name} holds a lone surrogate, which UTF-8 cannot carry"),
        ))),
        Err(e) => Err(e.into()),
    }
}
