//! What the session and the two wires share: their options, JSON-RPC ids, message text and
//! the lock that makes each stateful object safe to share between Python threads.
//!
//! Every stateful class holds its core object in a [`Shared`]. A method reads its Python
//! arguments first, then holds the lock only while the core works, and builds its Python
//! results after letting go: no Python code can run while the lock is held, so a finalizer or
//! another thread calling back into the same object can never wait on itself. The lock is
//! taken as PyO3's `lock_py_attached` takes it, detached from the interpreter while it waits.

use std::ops::Deref;
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};
use toolnexus_core::content::ContentOptions;
use toolnexus_core::session::SessionOptions;
use toolnexus_core::wire::rpc::RpcId;
use toolnexus_core::{Error, ErrorKind, Limits, Modes, Value};

use crate::convert::{Reader, to_python};
use crate::errors::OrRaise;

/// A core object behind a lock (see the module).
pub(crate) struct Shared<T>(Mutex<T>);

impl<T> Shared<T> {
    pub(crate) fn new(value: T) -> Shared<T> {
        Shared(Mutex::new(value))
    }

    /// Runs `work` on the object. `work` must not touch Python.
    pub(crate) fn with<R>(&self, py: Python<'_>, work: impl FnOnce(&mut T) -> R) -> R {
        // The core never panics, so the lock cannot be poisoned by it; should it be, the
        // object is still whole (each core call changes it only on success).
        let mut guard: MutexGuard<'_, T> = self
            .0
            .lock_py_attached(py)
            .unwrap_or_else(PoisonError::into_inner);
        work(&mut guard)
    }
}

/// The `modes` argument: an iterable of `"form"` and `"url"` (a single string names one mode).
#[derive(Clone, Copy)]
pub(crate) struct ModesArg(pub(crate) Modes);

impl ModesArg {
    /// Both modes, the default.
    pub(crate) const ALL: ModesArg = ModesArg(Modes::ALL);
}

impl<'a, 'py> FromPyObject<'a, 'py> for ModesArg {
    type Error = PyErr;

    fn extract(object: Borrowed<'a, 'py, PyAny>) -> PyResult<ModesArg> {
        let py = object.py();
        let names: Vec<String> = if let Ok(one) = object.cast::<PyString>() {
            vec![one.to_cow()?.into_owned()]
        } else {
            let mut names = Vec::new();
            for item in object.try_iter()? {
                let item = item?;
                let Ok(name) = item.cast::<PyString>() else {
                    return Err(PyTypeError::new_err(format!(
                        "modes are named by str (\"form\", \"url\"), not {}",
                        item.get_type().name()?
                    )));
                };
                names.push(name.to_cow()?.into_owned());
            }
            names
        };
        let (mut form, mut url) = (false, false);
        for name in &names {
            match name.as_str() {
                "form" => form = true,
                "url" => url = true,
                other => {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        "",
                        format!("{other:?} is not an elicitation mode (\"form\" or \"url\")"),
                    ))
                    .or_raise(py);
                }
            }
        }
        Ok(ModesArg(Modes::new(form, url)))
    }
}

/// `modes` as the tuple of their names, form first.
pub(crate) fn modes_tuple<'py>(py: Python<'py>, modes: Modes) -> PyResult<Bound<'py, PyTuple>> {
    let mut names = Vec::with_capacity(2);
    if modes.form() {
        names.push("form");
    }
    if modes.url() {
        names.push("url");
    }
    PyTuple::new(py, names)
}

/// The options every session-holding class takes, by keyword.
pub(crate) fn session_options(
    modes: ModesArg,
    max_pending: usize,
    ttl_ms: Option<u64>,
    apply_defaults: bool,
    allow_unknown: bool,
    reject_secrets: bool,
) -> SessionOptions {
    SessionOptions::DEFAULT
        .with_modes(modes.0)
        .with_max_pending(max_pending)
        .with_ttl_ms(ttl_ms)
        .with_apply_defaults(apply_defaults)
        .with_content_options(ContentOptions::STRICT.allow_unknown(allow_unknown))
        .with_reject_secrets(reject_secrets)
}

/// A JSON-RPC id for Python: a `str`, an `int`, or a `toolnexus.Number` for an integer spelt
/// otherwise (`1.0`, `1e2`), so it is written back as received.
pub(crate) fn rpc_id_to_python<'py>(py: Python<'py>, id: &RpcId) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &id.to_value())
}

/// A JSON-RPC id from Python: a `str`, an `int` or a number (a `toolnexus.Number` keeps its
/// spelling). A number with a fraction is passed on, for the core to refuse with its own
/// words; a `bool` or anything else is a `wrong_type` error.
pub(crate) fn rpc_id_from_python(id: &Bound<'_, PyAny>) -> PyResult<RpcId> {
    let py = id.py();
    if let Ok(s) = id.cast::<PyString>() {
        return Ok(RpcId::String(s.to_cow()?.into_owned()));
    }
    let value = if id.is_instance_of::<pyo3::types::PyBool>() {
        None
    } else {
        Reader::new(py, &Limits::DEFAULT).read(id).ok()
    };
    match value {
        Some(Value::Number(n)) => Ok(RpcId::Number(n)),
        _ => Err(Error::new(
            ErrorKind::WrongType,
            "",
            format!(
                "a JSON-RPC id is a str or an int, not {}",
                id.get_type().name()?
            ),
        ))
        .or_raise(py),
    }
}

/// The bytes of a message's JSON text: those Python holds, when it holds them unchanging, or a
/// copy.
pub(crate) enum MessageBytes<'py> {
    /// A `bytes` object: the message itself, or a `str` encoded.
    Held(Bound<'py, PyBytes>),
    /// A copy of a `bytearray`, whose contents can change and so are never borrowed.
    Copied(Vec<u8>),
}

impl Deref for MessageBytes<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            MessageBytes::Held(bytes) => bytes.as_bytes(),
            MessageBytes::Copied(bytes) => bytes,
        }
    }
}

/// A message argument as the bytes of its JSON text: `str` (as UTF-8), `bytes` or
/// `bytearray`. A `str` holding a lone surrogate keeps it, encoded as UTF-8 would were it
/// allowed, so that the core reads the text as not UTF-8, as it would on a wire.
pub(crate) fn message_bytes<'py>(
    message: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<MessageBytes<'py>> {
    let py = message.py();
    if let Ok(text) = message.cast::<PyString>() {
        let encoded = text.call_method1(
            intern!(py, "encode"),
            (intern!(py, "utf-8"), intern!(py, "surrogatepass")),
        )?;
        Ok(MessageBytes::Held(encoded.cast_into::<PyBytes>()?))
    } else if let Ok(bytes) = message.cast::<PyBytes>() {
        Ok(MessageBytes::Held(bytes.clone()))
    } else if let Ok(bytes) = message.cast::<PyByteArray>() {
        Ok(MessageBytes::Copied(bytes.to_vec()))
    } else {
        Err(PyTypeError::new_err(format!(
            "{what} is JSON text given as str, bytes or bytearray, not {}",
            message.get_type().name()?
        )))
    }
}

/// `items` as a Python list of `(str, object)` pairs.
pub(crate) fn pairs<'py, T>(
    py: Python<'py>,
    items: Vec<(String, T)>,
    mut to_object: impl FnMut(T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for (key, item) in items {
        let pair = PyTuple::new(py, [PyString::new(py, &key).into_any(), to_object(item)?])?;
        list.append(pair)?;
    }
    Ok(list)
}
