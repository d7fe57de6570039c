//! Arguments that carry JSON: a `dict` (or any JSON value), or JSON text as `str`, `bytes` or
//! `bytearray`, which the core reads within the limits exactly as the conformance suite says.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString, PyType};
use toolnexus_core::mcp::Mode;
use toolnexus_core::{Error, ErrorKind, Limits, Value, json};

use crate::convert::Reader;
use crate::errors::Fault;
use crate::text::not_utf8;

/// Inputs at least this long are read with the interpreter released, so that other Python
/// threads run meanwhile; shorter ones are read faster than releasing it costs.
const DETACH_FROM_BYTES: usize = 64 * 1024;

/// What an argument is, found once: the exact types by one comparison each (a plain `dict`
/// first, the most common argument), then their subclasses.
enum Argument<'a, 'py> {
    /// A `dict` (or a subclass of it).
    Dict,
    /// JSON text as `str`.
    Str(&'a Bound<'py, PyString>),
    /// JSON text as `bytes`.
    Bytes(&'a Bound<'py, PyBytes>),
    /// JSON text as `bytearray`.
    ByteArray(&'a Bound<'py, PyByteArray>),
    /// Anything else: a list, a number, a model…
    Other,
}

impl<'a, 'py> Argument<'a, 'py> {
    fn of(argument: &'a Bound<'py, PyAny>) -> Argument<'a, 'py> {
        if argument.is_exact_instance_of::<PyDict>() {
            Argument::Dict
        } else if let Ok(text) = argument.cast::<PyString>() {
            Argument::Str(text)
        } else if let Ok(bytes) = argument.cast::<PyBytes>() {
            Argument::Bytes(bytes)
        } else if let Ok(bytes) = argument.cast::<PyByteArray>() {
            Argument::ByteArray(bytes)
        } else if argument.is_instance_of::<PyDict>() {
            Argument::Dict
        } else {
            Argument::Other
        }
    }

    /// JSON text read by the core; `None` for an argument that is not text.
    fn text(&self, limits: &Limits) -> Option<Result<Value, Fault>> {
        match self {
            Argument::Str(text) => Some(read_str(text, limits)),
            Argument::Bytes(bytes) => Some(parse(bytes.py(), bytes.as_bytes(), limits)),
            Argument::ByteArray(bytes) => {
                // Copied, since a bytearray can change; not before its size is known to be
                // within bounds.
                if bytes.len() > limits.max_input_bytes() {
                    return Some(Err(too_large(bytes.len(), "bytes", limits)));
                }
                Some(parse(bytes.py(), &bytes.to_vec(), limits))
            }
            Argument::Dict | Argument::Other => None,
        }
    }
}

/// A JSON argument: text (`str`, `bytes`, `bytearray`) is read by the core, anything else is
/// converted from Python.
pub(crate) fn read_json(argument: &Bound<'_, PyAny>, limits: &Limits) -> Result<Value, Fault> {
    match Argument::of(argument).text(limits) {
        Some(read) => read,
        None => Reader::new(argument.py(), limits).read(argument),
    }
}

/// JSON text (`str`, `bytes`, `bytearray`) read by the core; `None` for any other argument.
pub(crate) fn read_text(
    argument: &Bound<'_, PyAny>,
    limits: &Limits,
) -> Result<Option<Value>, Fault> {
    Argument::of(argument).text(limits).transpose()
}

/// Like [`read_json`], and also takes a model of the `mcp` package (anything with pydantic's
/// `model_dump`): what `model_dump(by_alias=True, exclude_none=True)` gives, read.
///
/// The two params models of `elicitation/create` are read field by field instead, their
/// `requested_schema` dict in place, when nothing but their plain fields is set; anything
/// else (`_meta`, `task`, extra members, a subclass) goes through `model_dump`, and so does
/// any model whose direct reading is refused, so that its error is the one the dump gives.
pub(crate) fn read_model_or_json(
    argument: &Bound<'_, PyAny>,
    limits: &Limits,
) -> Result<Value, Fault> {
    let py = argument.py();
    let shape = Argument::of(argument);
    if let Some(read) = shape.text(limits) {
        return read;
    }
    if matches!(shape, Argument::Other) {
        if let Some(Ok(value)) = read_params_model(argument, limits)? {
            return Ok(value);
        }
        if let Some(model_dump) = argument.getattr_opt(intern!(py, "model_dump"))? {
            let options = PyDict::new(py);
            options.set_item(intern!(py, "by_alias"), true)?;
            options.set_item(intern!(py, "exclude_none"), true)?;
            let dumped = model_dump.call((), Some(&options))?;
            return Reader::new(py, limits).read(&dumped);
        }
    }
    Reader::new(py, limits).read(argument)
}

/// The classes of the `mcp` package's form and URL params, once the package is imported.
static PARAMS_MODELS: PyOnceLock<ParamsModels> = PyOnceLock::new();

/// The `mcp` package's two params classes, and whether their configuration lets a model hold
/// members beyond its fields (pydantic's `extra="allow"`).
struct ParamsModels {
    form: Py<PyType>,
    url: Py<PyType>,
    extra_allowed: bool,
    /// The members of each mode's params as the core names them (`Mode::params_members`),
    /// each with the attribute the `mcp` package's model keeps it in.
    form_fields: Vec<(Py<PyString>, &'static str)>,
    url_fields: Vec<(Py<PyString>, &'static str)>,
}

/// The attribute of a pydantic model of the `mcp` package holding the wire member `member`:
/// its name in snake_case (`requestedSchema` is `requested_schema`).
fn attribute_of(member: &str) -> String {
    let mut attribute = String::with_capacity(member.len() + 4);
    for c in member.chars() {
        if c.is_ascii_uppercase() {
            attribute.push('_');
            attribute.push(c.to_ascii_lowercase());
        } else {
            attribute.push(c);
        }
    }
    attribute
}

/// The members of `mode`'s params with their model attributes, the names interned.
fn model_fields(py: Python<'_>, mode: Mode) -> Vec<(Py<PyString>, &'static str)> {
    mode.params_members()
        .iter()
        .map(|member| {
            (
                PyString::intern(py, &attribute_of(member)).unbind(),
                *member,
            )
        })
        .collect()
}

/// The `mcp` package's params classes; `None` while `mcp.types` is not imported, since no
/// argument can be one of its models before that (and this never imports it itself).
fn params_models(py: Python<'_>) -> PyResult<Option<&ParamsModels>> {
    if let Some(classes) = PARAMS_MODELS.get(py) {
        return Ok(Some(classes));
    }
    let modules = py.import("sys")?.getattr("modules")?;
    let Ok(modules) = modules.cast::<PyDict>() else {
        return Ok(None);
    };
    let Some(types) = modules.get_item("mcp.types")? else {
        return Ok(None);
    };
    let class = |name: &str| -> PyResult<Py<PyType>> {
        Ok(types.getattr(name)?.cast_into::<PyType>()?.unbind())
    };
    let (Ok(form), Ok(url)) = (
        class("ElicitRequestFormParams"),
        class("ElicitRequestURLParams"),
    ) else {
        return Ok(None);
    };
    let allows_extra = |class: &Py<PyType>| -> PyResult<bool> {
        let config = class.bind(py).getattr("model_config")?;
        Ok(config
            .get_item("extra")
            .ok()
            .is_some_and(|extra| extra.eq("allow").unwrap_or(true)))
    };
    let extra_allowed = allows_extra(&form)? || allows_extra(&url)?;
    Ok(Some(PARAMS_MODELS.get_or_init(py, || ParamsModels {
        form,
        url,
        extra_allowed,
        form_fields: model_fields(py, Mode::Form),
        url_fields: model_fields(py, Mode::Url),
    })))
}

/// The wire members of the `mcp` package's form and URL params read from their fields, or
/// `None` when `model` is not one of the two or has more set than its plain fields.
fn read_params_model(
    model: &Bound<'_, PyAny>,
    limits: &Limits,
) -> PyResult<Option<Result<Value, Fault>>> {
    let py = model.py();
    let Some(models) = params_models(py)? else {
        return Ok(None);
    };
    let class = model.get_type();
    let is_form = class.is(models.form.bind(py));
    if !is_form && !class.is(models.url.bind(py)) {
        return Ok(None);
    }
    // A model's fields live in its `__dict__`, its extra members apart: read that once.
    let Ok(set) = model
        .getattr(intern!(py, "__dict__"))?
        .cast_into::<PyDict>()
    else {
        return Ok(None);
    };
    for unset in [intern!(py, "meta"), intern!(py, "task")] {
        if set.get_item(unset)?.is_some_and(|value| !value.is_none()) {
            return Ok(None);
        }
    }
    if models.extra_allowed {
        let extra = model.getattr(intern!(py, "__pydantic_extra__"))?;
        if !extra.is_none() && extra.len()? > 0 {
            return Ok(None);
        }
    }
    let fields = if is_form {
        &models.form_fields
    } else {
        &models.url_fields
    };
    let mut members = Vec::with_capacity(fields.len());
    for (attribute, key) in fields {
        match set.get_item(attribute.bind(py))? {
            Some(field) if !field.is_none() => members.push((*key, field)),
            Some(_) => {}
            // A field missing from the `__dict__`: a model built some other way.
            None => return Ok(None),
        }
    }
    Ok(Some(Reader::new(py, limits).read_members(&members)))
}

fn read_str(text: &Bound<'_, PyString>, limits: &Limits) -> Result<Value, Fault> {
    // Every character takes at least one byte in UTF-8: a text of more characters than the
    // byte limit is too large, found before it is copied.
    let chars = text.len()?;
    if chars > limits.max_input_bytes() {
        return Err(too_large(chars, "characters", limits));
    }
    // The `str`'s own UTF-8, which Python keeps with it once asked (for ASCII, the characters
    // themselves): read in place, without a copy, and known to be UTF-8 already.
    let utf8 = text.to_str().map_err(|e| not_utf8(text.py(), e, "text"))?;
    read_detached_if_long(text.py(), utf8.len(), || json::parse_str(utf8, limits))
}

fn parse(py: Python<'_>, bytes: &[u8], limits: &Limits) -> Result<Value, Fault> {
    read_detached_if_long(py, bytes.len(), || json::parse(bytes, limits))
}

/// What `read` reads from `len` bytes of text, with the interpreter released while it reads
/// when the text is long enough for that to pay.
fn read_detached_if_long(
    py: Python<'_>,
    len: usize,
    read: impl FnOnce() -> Result<Value, Error> + Send,
) -> Result<Value, Fault> {
    let value = if len >= DETACH_FROM_BYTES {
        py.detach(read)
    } else {
        read()
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
