//! `toolnexus.from_json` and `toolnexus.to_json`: JSON text read and written by the core's
//! rules, so a value keeps its member order and the spelling of its numbers both ways.

use pyo3::prelude::*;

use crate::contract::read_text_argument;
use crate::convert::{Reader, to_python};
use crate::errors::OrRaise;
use crate::limits::PyLimits;

/// Reads JSON text (`str`, `bytes` or `bytearray`) within `limits`, exactly as toolnexus
/// reads its inputs: integers become `int`, other numbers `toolnexus.Number` (keeping their
/// spelling), objects `dict` in member order. Anything the core refuses (a duplicate key, a
/// lone surrogate, text beyond the limits…) raises the `toolnexus.Error` of its kind.
#[pyfunction]
#[pyo3(signature = (text, *, limits = None))]
pub(crate) fn from_json<'py>(
    text: &Bound<'py, PyAny>,
    limits: Option<&Bound<'py, PyLimits>>,
) -> PyResult<Bound<'py, PyAny>> {
    to_python(text.py(), &read_text_argument(text, limits)?)
}

/// Writes a JSON-able Python value (`None`, `bool`, `int`, `float`, `str`, `list`, `tuple`,
/// `dict` with `str` keys) as compact JSON with the core's exact rules: a `toolnexus.Number`
/// keeps its spelling, an `int` is written in full, any other `float` as its `repr`, strings
/// escaped as the core escapes them, members in order. The value is held to `limits` (depth,
/// members, items); a value with no JSON form raises the `toolnexus.Error` of its kind.
#[pyfunction]
#[pyo3(signature = (value, *, limits = None))]
pub(crate) fn to_json(
    value: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<String> {
    let py = value.py();
    let value = Reader::new(py, &PyLimits::or_default(limits))
        .read(value)
        .or_raise(py)?;
    Ok(value.to_json())
}
