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
use toolnexus_core::session::SessionOptions;
use toolnexus_core::wire::rpc::RpcId;
use toolnexus_core::{Error, ErrorKind, Limits, Mode, Modes, Value};

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

/// The `modes` argument: a name the core knows (`"form"`, `"url"`, `"all"`), or an iterable
/// of such names.
#[derive(Clone, Copy)]
pub(crate) struct ModesArg(pub(crate) Modes);

impl ModesArg {
    /// The modes of `modes`, or the core's default (both).
    pub(crate) fn or_default(modes: Option<ModesArg>) -> Modes {
        modes.map_or(SessionOptions::DEFAULT.modes(), |m| m.0)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for ModesArg {
    type Error = PyErr;

    fn extract(object: Borrowed<'a, 'py, PyAny>) -> PyResult<ModesArg> {
        let py = object.py();
        if let Ok(one) = object.cast::<PyString>() {
            return Modes::from_name(&one.to_cow()?).or_raise(py).map(ModesArg);
        }
        let mut modes = Modes::new(false, false);
        for item in object.try_iter()? {
            let item = item?;
            let Ok(name) = item.cast::<PyString>() else {
                return Err(PyTypeError::new_err(format!(
                    "modes are named by str (\"form\", \"url\"), not {}",
                    item.get_type().name()?
                )));
            };
            let named = Modes::from_name(&name.to_cow()?).or_raise(py)?;
            for mode in Mode::ALL {
                if named.supports(mode) {
                    modes = modes.with(mode);
                }
            }
        }
        Ok(ModesArg(modes))
    }
}

/// `modes` as the tuple of their names, in the core's order (form first).
pub(crate) fn modes_tuple<'py>(py: Python<'py>, modes: Modes) -> PyResult<Bound<'py, PyTuple>> {
    let names = Mode::ALL
        .into_iter()
        .filter(|mode| modes.supports(*mode))
        .map(Mode::as_str)
        .collect::<Vec<_>>();
    PyTuple::new(py, names)
}

/// The options every session-holding class takes, by keyword: each one not given (`None`)
/// is the core's default (`SessionOptions::DEFAULT`).
pub(crate) fn session_options(
    modes: Option<ModesArg>,
    max_pending: Option<usize>,
    ttl_ms: Option<u64>,
    apply_defaults: Option<bool>,
    allow_unknown: Option<bool>,
    reject_secrets: Option<bool>,
) -> SessionOptions {
    let mut options = SessionOptions::DEFAULT.with_modes(ModesArg::or_default(modes));
    if let Some(max) = max_pending {
        options = options.with_max_pending(max);
    }
    if ttl_ms.is_some() {
        options = options.with_ttl_ms(ttl_ms);
    }
    if let Some(apply) = apply_defaults {
        options = options.with_apply_defaults(apply);
    }
    if let Some(allow) = allow_unknown {
        options = options.with_allow_unknown(allow);
    }
    if let Some(reject) = reject_secrets {
        options = options.with_reject_secrets(reject);
    }
    options
}

/// The `#[pymethods]` of a class holding a session (`$ty { inner: Shared<…> }`): its
/// constructor, taking the session options by keyword (each `None` is the core's default),
/// then the methods given.
macro_rules! session_class {
    ($ty:ident, $make:path; $($methods:tt)*) => {
        #[pymethods]
        impl $ty {
            #[new]
            #[pyo3(signature = (
                *,
                modes = None,
                max_pending = None,
                ttl_ms = None,
                apply_defaults = None,
                allow_unknown = None,
                reject_secrets = None,
            ))]
            fn py_new(
                modes: Option<$crate::wire::ModesArg>,
                max_pending: Option<usize>,
                ttl_ms: Option<u64>,
                apply_defaults: Option<bool>,
                allow_unknown: Option<bool>,
                reject_secrets: Option<bool>,
            ) -> $ty {
                let options = $crate::wire::session_options(
                    modes,
                    max_pending,
                    ttl_ms,
                    apply_defaults,
                    allow_unknown,
                    reject_secrets,
                );
                $ty {
                    inner: $crate::wire::Shared::new($make(options)),
                }
            }

            $($methods)*
        }
    };
}
pub(crate) use session_class;

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
