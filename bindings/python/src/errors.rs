//! The core's typed errors as Python exceptions, and the faults met while reading Python input.
//!
//! The exception classes live in `toolnexus/_errors.py`, where each has a docstring and a
//! plain Python `__init__`; this module only picks the class by the core's kind and raises it.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyList;
use toolnexus_core::Error;

use crate::violation::PyViolation;

/// `toolnexus._errors._from_native(kind, path, message, violations)`, which builds the
/// exception of the class that names `kind` (the base `Error` for a kind it does not know).
static FROM_NATIVE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Why reading Python input failed: the input broke a rule of the core (a typed error), or
/// Python code it ran raised (a `model_dump` that fails, memory running out), which is passed
/// on as it was raised.
pub(crate) enum Fault {
    /// A typed error, raised as the `toolnexus.Error` subclass of its kind.
    Invalid(Error),
    /// An exception raised by Python code.
    Python(PyErr),
}

impl From<Error> for Fault {
    fn from(error: Error) -> Fault {
        Fault::Invalid(error)
    }
}

impl From<PyErr> for Fault {
    fn from(error: PyErr) -> Fault {
        Fault::Python(error)
    }
}

impl Fault {
    /// The same fault located inside `prefix` (a JSON pointer) of a larger input.
    pub(crate) fn within(self, prefix: &str) -> Fault {
        match self {
            Fault::Invalid(error) => Fault::Invalid(error.within(prefix)),
            python => python,
        }
    }

    /// The exception to raise.
    pub(crate) fn into_py_err(self, py: Python<'_>) -> PyErr {
        match self {
            Fault::Invalid(error) => to_py_err(py, &error),
            Fault::Python(error) => error,
        }
    }
}

/// `error` as the `toolnexus.Error` subclass of its kind, with `kind`, `path`, `message` and
/// `violations` set.
pub(crate) fn to_py_err(py: Python<'_>, error: &Error) -> PyErr {
    match build(py, error) {
        Ok(exception) => PyErr::from_value(exception),
        // The package is broken (its Python half cannot be imported): say so rather than
        // hide it behind the error that was being raised.
        Err(broken) => broken,
    }
}

fn build<'py>(py: Python<'py>, error: &Error) -> PyResult<Bound<'py, PyAny>> {
    let from_native = FROM_NATIVE.import(py, "toolnexus._errors", "_from_native")?;
    let violations = PyList::empty(py);
    for violation in error.violations() {
        violations.append(PyViolation::from_core(violation))?;
    }
    from_native.call1((
        error.kind().as_str(),
        error.pointer(),
        error.message(),
        violations,
    ))
}

/// `toolnexus._errors._auth_from_native(kind, pointer, message)`, which builds the
/// `toolnexus.AuthError` of an authorization flow.
static AUTH_FROM_NATIVE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// An error of the authorization flow as `toolnexus.AuthError`, with `kind` (the auth
/// crate's snake_case name), `pointer` and `message` set.
pub(crate) fn auth_py_err(py: Python<'_>, error: &toolnexus_auth::AuthError) -> PyErr {
    let built = AUTH_FROM_NATIVE
        .import(py, "toolnexus._errors", "_auth_from_native")
        .and_then(|from_native| {
            from_native.call1((error.kind().as_str(), error.pointer(), error.message()))
        });
    match built {
        Ok(exception) => PyErr::from_value(exception),
        Err(broken) => broken,
    }
}

/// Extension for core results: the error becomes the Python exception of its kind.
pub(crate) trait OrRaise<T> {
    /// The value, or the error raised as a `toolnexus.Error`.
    fn or_raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, Error> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|error| to_py_err(py, &error))
    }
}

impl<T> OrRaise<T> for Result<T, Fault> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|fault| fault.into_py_err(py))
    }
}

/// The value of one of the core's closed sets named `name` (its `from_name`), or an
/// `InvalidValueError` saying `name` is not `what` (`"a kind of secret"`).
pub(crate) fn named<T>(
    py: Python<'_>,
    name: &str,
    from_name: fn(&str) -> Option<T>,
    what: &str,
) -> PyResult<T> {
    from_name(name).ok_or_else(|| {
        to_py_err(
            py,
            &Error::new(
                toolnexus_core::ErrorKind::InvalidValue,
                "",
                format!("{name:?} is not {what}"),
            ),
        )
    })
}
