//! The arguments of the snapshot methods (`InputRound.snapshot`/`restore`,
//! `Session.snapshot`/`restore`): a key, the keys a restore accepts, the snapshot itself and
//! the time, read for the core, which decides everything else.

use std::time::{SystemTime, UNIX_EPOCH};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use toolnexus_core::{Error, Limits};

use crate::errors::OrRaise;
use crate::limits::PyLimits;

/// A key or a snapshot as bytes: `bytes`, `bytearray` (copied, as it can change) or `str`
/// (its UTF-8); `what` names the argument in the `TypeError` for anything else.
pub(crate) fn read_bytes(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(bytes) = value.cast::<PyByteArray>() {
        return Ok(bytes.to_vec());
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(text.to_str()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be bytes or str, not {}",
        value.get_type().name()?
    )))
}

/// The keys a restore accepts: an iterable of keys (each as `read_bytes` takes it), or one
/// key alone.
fn read_keys(keys: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Vec<u8>>> {
    let Some(keys) = keys else {
        return Ok(Vec::new());
    };
    if keys.is_instance_of::<PyBytes>()
        || keys.is_instance_of::<PyByteArray>()
        || keys.is_instance_of::<PyString>()
    {
        return Ok(vec![read_bytes(keys, "a key")?]);
    }
    let Ok(items) = keys.try_iter() else {
        return Err(PyTypeError::new_err(format!(
            "keys must be an iterable of bytes or str keys, not {}",
            keys.get_type().name()?
        )));
    };
    items.map(|item| read_bytes(&item?, "each key")).collect()
}

/// A core restore run with the arguments of a `restore` from Python: the snapshot and keys
/// read as bytes, `limits` or the default, `now_ms` or the clock; the interpreter is released
/// while the core reads.
pub(crate) fn restore_with<T: Send>(
    py: Python<'_>,
    snapshot: &Bound<'_, PyAny>,
    keys: Option<&Bound<'_, PyAny>>,
    limits: Option<&Bound<'_, PyLimits>>,
    now_ms: Option<u64>,
    restore: impl FnOnce(&[u8], &[&[u8]], &Limits, u64) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let snapshot = read_bytes(snapshot, "snapshot")?;
    let keys = read_keys(keys)?;
    let limits = PyLimits::or_default(limits);
    py.detach(|| {
        let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        restore(&snapshot, &keys, &limits, now_or(now_ms))
    })
    .or_raise(py)
}

/// `now_ms`, or the system clock's time in milliseconds since 1970.
fn now_or(now_ms: Option<u64>) -> u64 {
    now_ms.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    })
}
