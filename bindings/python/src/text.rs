//! Arguments that are plain text (a URL, what a person typed), read as UTF-8, and the error of
//! a `str` that UTF-8 cannot carry.

use pyo3::exceptions::{PyTypeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use toolnexus_core::{Error, ErrorKind};

use crate::errors::Fault;

/// The `str` argument `name` as UTF-8: a `TypeError` for another type, a `lone_surrogate`
/// error for a string UTF-8 cannot carry.
pub(crate) fn read_str(argument: &Bound<'_, PyAny>, name: &str) -> Result<String, Fault> {
    str_of(argument, name).map(String::from)
}

/// [`read_str`] without the copy: the `str`'s own UTF-8, for as long as `argument` lives.
pub(crate) fn str_of<'a>(argument: &'a Bound<'_, PyAny>, name: &str) -> Result<&'a str, Fault> {
    let py = argument.py();
    let Ok(text) = argument.cast::<PyString>() else {
        let type_name = argument.get_type().name()?;
        return Err(Fault::Python(PyTypeError::new_err(format!(
            "{name} must be a str, not {}",
            type_name.to_cow()?
        ))));
    };
    text.to_str().map_err(|e| not_utf8(py, e, name))
}

/// Why a `str` (the `what`) could not be read as UTF-8: Python refuses to encode one holding a
/// lone surrogate, which is the typed `lone_surrogate` error; any other failure is passed on.
pub(crate) fn not_utf8(py: Python<'_>, error: PyErr, what: &str) -> Fault {
    if error.is_instance_of::<PyUnicodeEncodeError>(py) {
        Fault::Invalid(Error::new(
            ErrorKind::LoneSurrogate,
            "",
            format!("the {what} holds a lone surrogate, which UTF-8 cannot carry"),
        ))
    } else {
        Fault::Python(error)
    }
}
