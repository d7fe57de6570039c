//! Arguments that carry JSON: a `dict` (or any JSON value), or JSON text as `str`, `bytes` or
//! `bytearray`, which the core reads within the limits exactly as the conformance suite says.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};
use toolnexus_core::{Error, ErrorKind, Limits, Value, json};

use crate::convert::Reader;
use crate::errors::Fault;
use crate::text::not_utf8;

/// Inputs at least this long are read with the interpreter released, so that other Python
/// threads run meanwhile; shorter ones are read faster than releasing it costs.
const DETACH_FROM_BYTES: usize = 64 * 1024;

/// A JSON argument: text (`str`, `bytes`, `bytearray`) is read by the core, anything else is
/// converted from Python.
pub(crate) fn read_json(argument: &Bound<'_, PyAny>, limits: &Limits) -> Result<Value, Fault> {
    match read_text(argument, limits)? {
        Some(value) => Ok(value),
        None => Reader::new(argument.py(), limits).read(argument),
    }
}

/// JSON text (`str`, `bytes`, `bytearray`) read by the core; `None` for any other argument.
pub(crate) fn read_text(
    argument: &Bound<'_, PyAny>,
    limits: &Limits,
) -> Result<Option<Value>, Fault> {
    let py = argument.py();
    if let Ok(text) = argument.cast::<PyString>() {
        read_str(text, limits).map(Some)
    } else if let Ok(bytes) = argument.cast::<PyBytes>() {
        parse(py, bytes.as_bytes(), limits).map(Some)
    } else if let Ok(bytes) = argument.cast::<PyByteArray>() {
        // Copied, since a bytearray can change; not before its size is known to be within
        // bounds.
        if bytes.len() > limits.max_input_bytes() {
            return Err(too_large(bytes.len(), "bytes", limits));
        }
        parse(py, &bytes.to_vec(), limits).map(Some)
    } else {
        Ok(None)
    }
}

/// Like [`read_json`], and also takes a model of the `mcp` package (anything with pydantic's
/// `model_dump`), dumped with its wire names and without its unset optionals.
pub(crate) fn read_model_or_json(
    argument: &Bound<'_, PyAny>,
    limits: &Limits,
) -> Result<Value, Fault> {
    let py = argument.py();
    let is_plain = argument.is_instance_of::<PyDict>()
        || argument.is_instance_of::<PyString>()
        || argument.is_instance_of::<PyBytes>()
        || argument.is_instance_of::<PyByteArray>();
    if !is_plain && let Some(model_dump) = argument.getattr_opt(intern!(py, "model_dump"))? {
        let options = PyDict::new(py);
        options.set_item(intern!(py, "by_alias"), true)?;
        options.set_item(intern!(py, "exclude_none"), true)?;
        let dumped = model_dump.call((), Some(&options))?;
        return Reader::new(py, limits).read(&dumped);
    }
    read_json(argument, limits)
}

fn read_str(text: &Bound<'_, PyString>, limits: &Limits) -> Result<Value, Fault> {
    // Every character takes at least one byte in UTF-8: a text of more characters than the
    // byte limit is too large, found before it is copied.
    let chars = text.len()?;
    if chars > limits.max_input_bytes() {
        return Err(too_large(chars, "characters", limits));
    }
    let utf8 = text
        .encode_utf8()
        .map_err(|e| not_utf8(text.py(), e, "text"))?;
    parse(text.py(), utf8.as_bytes(), limits)
}

fn parse(py: Python<'_>, bytes: &[u8], limits: &Limits) -> Result<Value, Fault> {
    let value = if bytes.len() >= DETACH_FROM_BYTES {
        py.detach(|| json::parse(bytes, limits))
    } else {
        json::parse(bytes, limits)
    };
    Ok(value?)
}

/// The input of `len` `units` is over the byte limit.
fn too_large(len: usize, units: &str, limits: &Limits) -> Fault {
    Fault::Invalid(Error::new(
        ErrorKind::TooLarge,
        "",
        format!(
            "the input is {len} {units}, more than the limit of {} bytes",
            limits.max_input_bytes()
        ),
    ))
}
