//! The two mappings between MCP elicitation and the contract, and request ids.

use pyo3::prelude::*;
use toolnexus_core::{ElicitRequestParams, id};

use crate::contract::{PyElicitResult, PyRequest};
use crate::errors::OrRaise;
use crate::input::read_model_or_json;
use crate::limits::PyLimits;
use crate::session::read_answer;

/// Maps the parameters of an MCP `elicitation/create` onto a `Request`.
///
/// `params` is a `dict`, JSON text (`str`, `bytes`) or a params model of the `mcp` package.
/// Form mode becomes `kind="input"` with the `requestedSchema` exactly as received in
/// `data["schema"]`; URL mode becomes `kind="authorization"` with `url` set and no `data`;
/// `message` becomes `prompt`. Without `id`, a fresh `elc-<hex ms>-<seq>` id is made.
#[pyfunction]
#[pyo3(signature = (params, *, id = None, limits = None))]
pub(crate) fn elicitation_to_request(
    params: &Bound<'_, PyAny>,
    id: Option<&str>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<PyRequest> {
    let py = params.py();
    let value = read_model_or_json(params, &PyLimits::or_default(limits)).or_raise(py)?;
    let params = ElicitRequestParams::from_value(value).or_raise(py)?;
    // The params were read for this call alone: the request takes their schema over.
    let request = match id {
        Some(id) => toolnexus_core::elicitation_into_request(params, id),
        None => toolnexus_core::elicitation_into_request(params, &id::next_id()),
    };
    request.or_raise(py).map(PyRequest::new)
}

/// Maps a resolved `Answer` (or its `dict` or JSON text) onto MCP's `ElicitResult`.
///
/// `ok=True` becomes accept with `content` from `data` (no data: `{}`); `ok=False` with reason
/// `"declined"` becomes decline; any other or no reason becomes cancel.
#[pyfunction]
#[pyo3(signature = (answer, *, limits = None))]
pub(crate) fn answer_to_elicit_result(
    answer: &Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<PyElicitResult> {
    let py = answer.py();
    let answer = read_answer(answer, limits)?;
    toolnexus_core::answer_to_elicit_result(&answer)
        .or_raise(py)
        .map(PyElicitResult)
}

/// The id for `unix_ms` (milliseconds since 1970, written in lower-case hex) and `sequence`
/// (in decimal): `format_id(0x18bcfe56800, 1)` is `"elc-18bcfe56800-1"`.
#[pyfunction]
pub(crate) fn format_id(unix_ms: u64, sequence: u64) -> String {
    id::format_id(unix_ms, sequence).as_str().to_owned()
}

/// A fresh id from the system clock and a process-wide sequence: unique within the process on
/// any number of threads, and apart across restarts.
#[pyfunction]
pub(crate) fn next_id() -> String {
    id::next_id()
}
