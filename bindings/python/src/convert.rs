//! JSON values between the core and Python, exactly and within bounds.
//!
//! Core to Python: `null`, booleans, strings, arrays and objects become `None`, `bool`, `str`,
//! `list` and `dict` (member order kept). A number spelt as an integer becomes an `int` (exact,
//! any size); any other spelling becomes a `toolnexus.Number`, a `float` that keeps the
//! spelling, so it comes back out as it went in. `-0` is a `Number` too, since the `int` 0 has
//! no sign, and so is an integer longer than Python agrees to read from decimal text.
//!
//! Python to core: the same types back, `bool` before `int`, a `Number` as its spelling, any
//! other `float` as `repr(float)`, tuples as arrays. Anything else is a typed error located by
//! JSON pointer: a non-finite float, a key that is not a `str`, a string holding a lone
//! surrogate, a value of another type, and nesting, objects or arrays beyond the [`Limits`]
//! (so a structure that contains itself is `too_deep`, never a crash), and a value whose compact
//! JSON text would be longer than the size limit (`too_large` at `""`, as for text), counted
//! as it is read so that a 50 MB string is refused before it is copied.

use std::cell::Cell;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};

use toolnexus_core::json::{SizeBudget, Text, pointer};
use toolnexus_core::{Error, ErrorKind, Limits, Map, Number, Value};

use crate::errors::Fault;
use crate::text::not_utf8;

/// The class `toolnexus.Number`.
static NUMBER: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn number_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    NUMBER.import(py, "toolnexus._number", "Number")
}

/// `value` as a Python object.
pub(crate) fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => number_to_python(py, n)?,
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => map_to_python(py, map)?.into_any(),
    })
}

/// `map` as a `dict`, its members in order.
pub(crate) fn map_to_python<'py>(py: Python<'py>, map: &Map) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in map {
        dict.set_item(key, to_python(py, value)?)?;
    }
    Ok(dict)
}

fn number_to_python<'py>(py: Python<'py>, number: &Number) -> PyResult<Bound<'py, PyAny>> {
    let spelling = number.as_str();
    if is_integer_spelling(spelling) {
        if let Ok(small) = spelling.parse::<i64>() {
            return Ok(small.into_pyobject(py)?.into_any());
        }
        // Python refuses to read integers longer than `sys.get_int_max_str_digits()` from
        // decimal text; such a number stays a `Number`, which keeps every digit.
        if let Ok(big) = py.get_type::<PyInt>().call1((spelling,)) {
            return Ok(big);
        }
    }
    number_class(py)?.call1((spelling,))
}

/// Whether `spelling` (a JSON number) is an integer an `int` gives back exactly: digits with
/// an optional minus, except `-0`, whose sign an `int` would lose.
fn is_integer_spelling(spelling: &str) -> bool {
    let digits = spelling.strip_prefix('-').unwrap_or(spelling);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && spelling != "-0"
}

/// Reads a Python object as a JSON value within `limits`.
///
/// An error is made where it is found with the pointer `""` and located on the way back out,
/// each container prefixing its key or index: reading pays nothing for pointers that only an
/// error needs.
///
/// Reading plain values (the exact built-in types and their subclasses) runs no Python code,
/// so nothing can change a dict while it is iterated and dicts are read in place. The one value
/// whose reading runs the caller's code is a `toolnexus.Number` subclass (its `spelling`); when
/// one turns up, the input is read again from the start with every dict copied before it is
/// iterated, so that code cannot pull a dict from under the reader.
pub(crate) struct Reader<'a, 'py> {
    py: Python<'py>,
    limits: &'a Limits,
    /// Where the value read sits: `None` for a whole input, `Some(key)` for the member `key` of
    /// an object at the root of one.
    member: Option<&'a str>,
    /// Whether dicts are copied before they are iterated.
    guarded: bool,
    /// The size of the value read so far, as compact JSON text.
    budget: Cell<SizeBudget>,
}

/// Why a read stopped.
enum Stop {
    /// The input is refused, or Python code raised.
    Fault(Fault),
    /// The input holds a value whose reading runs Python code, and dicts are read in place.
    NeedsGuard,
    /// The value is over the size limit: an error about the whole input, at `""` wherever it
    /// was found.
    TooLarge(Error),
}

impl From<Fault> for Stop {
    fn from(fault: Fault) -> Stop {
        Stop::Fault(fault)
    }
}

impl From<PyErr> for Stop {
    fn from(error: PyErr) -> Stop {
        Stop::Fault(Fault::Python(error))
    }
}

impl Stop {
    fn within(self, prefix: &str) -> Stop {
        match self {
            Stop::Fault(fault) => Stop::Fault(fault.within(prefix)),
            Stop::NeedsGuard => Stop::NeedsGuard,
            Stop::TooLarge(e) => Stop::TooLarge(e),
        }
    }
}

impl<'a, 'py> Reader<'a, 'py> {
    /// A reader of a whole input, bounded by `limits`.
    pub(crate) fn new(py: Python<'py>, limits: &'a Limits) -> Reader<'a, 'py> {
        Reader {
            py,
            limits,
            member: None,
            guarded: false,
            budget: Cell::new(SizeBudget::new(limits)),
        }
    }

    /// A reader of the member `key` of an object at the root of an input, bounded by
    /// `limits`: its errors point into that member, and it may nest one level less.
    pub(crate) fn member(py: Python<'py>, limits: &'a Limits, key: &'a str) -> Reader<'a, 'py> {
        Reader {
            py,
            limits,
            member: Some(key),
            guarded: false,
            budget: Cell::new(SizeBudget::new(limits)),
        }
    }

    /// `object` as a JSON value.
    pub(crate) fn read(self, object: &Bound<'py, PyAny>) -> Result<Value, Fault> {
        let depth = usize::from(self.member.is_some());
        self.read_with(|reader| reader.value(object, depth))
    }

    /// The object of `members` (wire keys and their values, the keys distinct), read as one
    /// value: one size budget for all, the keys counted, errors pointing into each member.
    /// What the fields of a model make on the wire.
    pub(crate) fn read_members(
        self,
        members: &[(&str, Bound<'py, PyAny>)],
    ) -> Result<Value, Fault> {
        self.read_with(|reader| {
            reader.enter(1)?;
            reader
                .limits
                .check_members(members.len())
                .map_err(invalid)?;
            reader.spend(|budget| budget.object(members.len()))?;
            let mut read = Vec::with_capacity(members.len());
            for (key, object) in members {
                reader.spend(|budget| budget.string(key))?;
                let value = reader
                    .value(object, 1)
                    .map_err(|stop| stop.within(&pointer::key(key)))?;
                read.push((Text::from(*key), value));
            }
            Ok(Value::Object(Map::from_distinct(read)))
        })
    }

    /// What `read_once` reads, read again with every dict copied when a value asks for that.
    fn read_with(
        mut self,
        read_once: impl Fn(&Reader<'a, 'py>) -> Result<Value, Stop>,
    ) -> Result<Value, Fault> {
        let read = match read_once(&self) {
            Err(Stop::NeedsGuard) => {
                self.guarded = true;
                self.budget = Cell::new(SizeBudget::new(self.limits));
                read_once(&self)
            }
            read => read,
        };
        match (read, self.member) {
            (Ok(value), _) => Ok(value),
            (Err(Stop::TooLarge(e)), _) => Err(Fault::Invalid(e)),
            (Err(Stop::Fault(fault)), None) => Err(fault),
            (Err(Stop::Fault(fault)), Some(key)) => Err(fault.within(&pointer::key(key))),
            (Err(Stop::NeedsGuard), _) => Err(Fault::Python(PyRuntimeError::new_err(
                "a value asked for a guarded read twice",
            ))),
        }
    }

    /// `object`, which sits inside containers nested `depth` deep.
    fn value(&self, object: &Bound<'py, PyAny>, depth: usize) -> Result<Value, Stop> {
        // The exact types first, one comparison each; subclasses are rarer and cost more.
        if let Ok(s) = object.cast_exact::<PyString>() {
            Ok(Value::String(self.string(s)?))
        } else if let Ok(dict) = object.cast_exact::<PyDict>() {
            self.object(dict, depth + 1)
        } else if let Ok(list) = object.cast_exact::<PyList>() {
            self.array(list.iter(), list.len(), depth + 1)
        } else if let Ok(i) = object.cast_exact::<PyInt>() {
            self.counted(self.int(i)?)
        } else {
            self.value_of_any_type(object, depth)
        }
    }

    fn value_of_any_type(&self, object: &Bound<'py, PyAny>, depth: usize) -> Result<Value, Stop> {
        if object.is_none() {
            self.charge(4)?;
            Ok(Value::Null)
        } else if let Ok(b) = object.cast::<PyBool>() {
            let b = b.is_true();
            self.charge(if b { 4 } else { 5 })?;
            Ok(Value::Bool(b))
        } else if let Ok(i) = object.cast::<PyInt>() {
            self.counted(self.int(i)?)
        } else if let Ok(f) = object.cast::<PyFloat>() {
            self.counted(self.float(f)?)
        } else if let Ok(s) = object.cast::<PyString>() {
            Ok(Value::String(self.string(s)?))
        } else if let Ok(dict) = object.cast::<PyDict>() {
            self.object(dict, depth + 1)
        } else if let Ok(list) = object.cast::<PyList>() {
            self.array(list.iter(), list.len(), depth + 1)
        } else if let Ok(tuple) = object.cast::<PyTuple>() {
            self.array(tuple.iter(), tuple.len(), depth + 1)
        } else {
            let type_name = object.get_type().name()?;
            Err(error(
                ErrorKind::WrongType,
                format!(
                    "a {} is not a JSON value (give None, bool, int, float, str, list, tuple \
                     or dict)",
                    type_name.to_cow()?
                ),
            ))
        }
    }

    /// A string, counted toward the size limit before it is copied. Its text is the `str`'s
    /// own UTF-8 (for ASCII, its characters), read in place; a short one is copied into the
    /// value itself, without an allocation.
    fn string(&self, s: &Bound<'py, PyString>) -> Result<Text, Stop> {
        let text = s.to_str().map_err(|e| not_utf8(self.py, e, "string"))?;
        self.spend(|budget| budget.string(text))?;
        Ok(Text::from(text))
    }

    /// Counts `bytes` of punctuation or a literal toward the size limit.
    fn charge(&self, bytes: usize) -> Result<(), Stop> {
        self.spend(|budget| budget.punctuation(bytes))
    }

    /// Counts something toward the size limit, as `count` tells the budget.
    fn spend(&self, count: impl FnOnce(&mut SizeBudget) -> Result<(), Error>) -> Result<(), Stop> {
        let mut budget = self.budget.get();
        count(&mut budget).map_err(Stop::TooLarge)?;
        self.budget.set(budget);
        Ok(())
    }

    /// A number read, counted as spelt.
    fn counted(&self, value: Value) -> Result<Value, Stop> {
        if let Value::Number(n) = &value {
            self.charge(n.as_str().len())?;
        }
        Ok(value)
    }

    fn int(&self, int: &Bound<'py, PyInt>) -> Result<Value, Stop> {
        if let Ok(small) = int.extract::<i64>() {
            return Ok(Value::Number(small.into()));
        }
        // `int.__repr__` rather than `repr()`: a subclass (an `IntEnum`) may write itself
        // otherwise.
        let written = self
            .py
            .get_type::<PyInt>()
            .call_method1(intern!(self.py, "__repr__"), (int,));
        match written {
            Ok(text) => spelt(
                &text
                    .cast_into::<PyString>()
                    .map_err(PyErr::from)?
                    .to_cow()?,
            ),
            Err(e) if e.is_instance_of::<PyValueError>(self.py) => Err(error(
                ErrorKind::InvalidValue,
                "the integer has more digits than Python writes in decimal \
                 (see sys.set_int_max_str_digits)",
            )),
            Err(e) => Err(e.into()),
        }
    }

    fn float(&self, float: &Bound<'py, PyFloat>) -> Result<Value, Stop> {
        let exact = float.is_exact_instance_of::<PyFloat>();
        if !exact {
            let number = number_class(self.py)?;
            // A `Number` itself keeps its spelling in a slot, read without running any code; a
            // subclass may compute its `spelling`, or its class, in Python.
            let spelling = if float.get_type().is(number) {
                Some(float.getattr(intern!(self.py, "_spelling"))?)
            } else if !self.guarded {
                return Err(Stop::NeedsGuard);
            } else if float.is_instance(number)? {
                Some(float.getattr(intern!(self.py, "spelling"))?)
            } else {
                None
            };
            if let Some(spelling) = spelling {
                return match spelling.cast::<PyString>() {
                    Ok(s) => spelt(&self.string(s)?),
                    Err(_) => Err(error(
                        ErrorKind::WrongType,
                        "the spelling of a toolnexus.Number must be a str",
                    )),
                };
            }
        }
        let value = float.value();
        if !value.is_finite() {
            return Err(error(
                ErrorKind::InvalidValue,
                format!("{value} has no JSON spelling (JSON numbers are finite)"),
            ));
        }
        // A subclass may write itself otherwise: `repr` of the plain float of the same value.
        let written = if exact {
            float.repr()?
        } else {
            PyFloat::new(self.py, value).repr()?
        };
        spelt(&written.to_cow()?)
    }

    fn object(&self, dict: &Bound<'py, PyDict>, depth: usize) -> Result<Value, Stop> {
        self.enter(depth)?;
        self.limits.check_members(dict.len()).map_err(invalid)?;
        self.spend(|budget| budget.object(dict.len()))?;
        // Guarded, a private copy is iterated: code of the caller's that runs while a value is
        // read (a `Number` subclass's `spelling`) may change the dict.
        let copy;
        let members = if self.guarded {
            copy = dict.copy()?;
            &copy
        } else {
            dict
        };
        let mut read: Vec<(Text, Value)> = Vec::with_capacity(members.len());
        let mut subclass_keys = false;
        for (key, value) in members.iter() {
            let Ok(key) = key
                .cast_exact::<PyString>()
                .or_else(|_| key.cast::<PyString>())
            else {
                let type_name = key.get_type().name()?;
                return Err(error(
                    ErrorKind::WrongType,
                    format!(
                        "JSON object keys are strings, and this dict has a key of type {}",
                        type_name.to_cow()?
                    ),
                ));
            };
            let exact_key = key.is_exact_instance_of::<PyString>();
            let key = self.string(key)?;
            let value = match self.value(&value, depth) {
                Ok(value) => value,
                Err(stop) => return Err(stop.within(&pointer::key(&key))),
            };
            // Only `str` subclasses that compare unlike their text can make a dict hold one
            // key twice (keys of the exact `str` type are unique by their text); the core
            // refuses that in JSON text, and so here. From the first such key on, every key
            // is looked for among those read.
            subclass_keys |= !exact_key;
            if subclass_keys && read.iter().any(|(k, _)| *k == key) {
                return Err(Stop::Fault(Fault::Invalid(Error::new(
                    ErrorKind::DuplicateKey,
                    pointer::key(&key),
                    "two keys of the dict are the same string",
                ))));
            }
            read.push((key, value));
        }
        Ok(Value::Object(Map::from_distinct(read)))
    }

    fn array(
        &self,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        len: usize,
        depth: usize,
    ) -> Result<Value, Stop> {
        self.enter(depth)?;
        self.limits.check_items(len).map_err(invalid)?;
        self.spend(|budget| budget.array(len))?;
        let mut values = Vec::with_capacity(len);
        for (index, item) in items.enumerate() {
            match self.value(&item, depth) {
                Ok(value) => values.push(value),
                Err(stop) => return Err(stop.within(&format!("/{index}"))),
            }
        }
        Ok(Value::Array(values))
    }

    /// Refuses a container at `depth` deeper than the limit (so a list that contains itself
    /// is `too_deep`).
    fn enter(&self, depth: usize) -> Result<(), Stop> {
        self.limits.check_depth(depth).map_err(invalid)
    }
}

/// A refusal of the core's, at the value being read (the caller's containers locate it).
fn invalid(e: Error) -> Stop {
    Stop::Fault(Fault::Invalid(e))
}

/// An error of `kind` at the value being read (the caller's containers locate it).
fn error(kind: ErrorKind, message: impl Into<String>) -> Stop {
    Stop::Fault(Fault::Invalid(Error::new(kind, "", message)))
}

/// The number spelt `text`, checked by the core.
fn spelt(text: &str) -> Result<Value, Stop> {
    Number::from_spelling(text)
        .map(Value::Number)
        .ok_or_else(|| {
            error(
                ErrorKind::InvalidValue,
                format!("{text:?} is not a JSON number"),
            )
        })
}
