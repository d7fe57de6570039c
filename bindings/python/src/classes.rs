//! The two shapes every class of the package takes, each written once:
//!
//! - Plain data ([`plain_data!`](crate::plain::plain_data)): a few attributes, all public (`#[pyclass(get_all)]`), with
//!   `to_dict` (the attributes by name, in order), `repr` and pickling through the
//!   constructor. `Violation`, `SchemaProblem`, `FieldOption`, `SensitiveField`, `UrlFinding`.
//! - A wrapped core type read from and written as JSON ([`json_class!`]): `from_dict` and
//!   `from_json` end in the core's `from_value`, `to_json` is the core's writer, and objects
//!   are equal, hash and pickle by their exact JSON. `Request`, `Answer`, `ElicitResult`,
//!   `ClientRequest`, and (reading only) `InputRequired`.

use std::borrow::Cow;
use std::hash::{DefaultHasher, Hash, Hasher};

use pyo3::BoundObject;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use toolnexus_core::{Error, Value};

use crate::errors::OrRaise;
use crate::input::read_json;
use crate::limits::PyLimits;
use crate::repr::Repr;

/// A class wrapping a core type that JSON makes.
pub(crate) trait JsonClass: Sized {
    /// The core's type.
    type Core;

    /// The core's reading of a JSON value (its `from_value`).
    fn read(value: Value) -> Result<Self::Core, Error>;

    /// The Python object of a core value.
    fn from_core(core: Self::Core) -> Self;

    /// The core value of the object.
    fn core(&self) -> &Self::Core;
}

/// An argument that is an object of the class `C`, its `dict` or its JSON text: the core value,
/// borrowed from an object of the class as it is, else read within `limits`.
pub(crate) fn read_argument<'a, C>(
    argument: &'a Bound<'_, PyAny>,
    limits: Option<&Bound<'_, PyLimits>>,
) -> PyResult<Cow<'a, C::Core>>
where
    C: JsonClass + pyo3::PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync,
    C::Core: Clone,
{
    if let Ok(ready) = argument.cast::<C>() {
        return Ok(Cow::Borrowed(ready.get().core()));
    }
    let py = argument.py();
    let value = read_json(argument, &PyLimits::or_default(limits)).or_raise(py)?;
    C::read(value).or_raise(py).map(Cow::Owned)
}

/// A class whose core type writes itself as JSON, which its equality, hash and pickling
/// follow, and whose members are its attributes.
pub(crate) trait JsonText {
    /// The core's compact JSON text of the object.
    fn json(&self) -> String;

    /// The members that are set, in their wire order.
    fn members<'py>(&self, py: Python<'py>) -> PyResult<Members<'py>>;
}

/// The members of an object that are set, each with its wire key and the attribute that
/// holds it: what `to_dict` and `repr` show.
pub(crate) struct Members<'py> {
    py: Python<'py>,
    set: Vec<(&'static str, &'static str, Bound<'py, PyAny>)>,
}

impl<'py> Members<'py> {
    pub(crate) fn new(py: Python<'py>) -> Members<'py> {
        Members {
            py,
            set: Vec::with_capacity(6),
        }
    }

    /// Adds the member `key` (the attribute `attribute`) unless `value` is `None`.
    pub(crate) fn with<T: IntoPyObject<'py>>(
        mut self,
        key: &'static str,
        attribute: &'static str,
        value: Option<T>,
    ) -> PyResult<Members<'py>> {
        if let Some(value) = value {
            let value = value.into_pyobject(self.py).map_err(Into::into)?;
            self.set
                .push((key, attribute, value.into_any().into_bound()));
        }
        Ok(self)
    }

    /// The members as a `dict` by wire key.
    pub(crate) fn to_dict(&self) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(self.py);
        for (key, _, value) in &self.set {
            dict.set_item(key, value)?;
        }
        Ok(dict)
    }

    /// `name(attribute=value, …)`.
    pub(crate) fn repr(&self, name: &str) -> PyResult<String> {
        let mut repr = Repr::new(name);
        for (_, attribute, value) in &self.set {
            repr = repr.field(attribute, value, self.py)?;
        }
        Ok(repr.finish())
    }
}

/// A hash that agrees with equality for a class whose objects are equal when their JSON text
/// is: that of the text.
pub(crate) fn hash_json(json: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    json.hash(&mut hasher);
    hasher.finish()
}

/// `(type(obj).from_json, (json,))`: pickling goes through the exact JSON.
pub(crate) fn reduce_to_json<'py>(
    class: Bound<'py, PyType>,
    json: String,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = class.py();
    let from_json = class.getattr("from_json")?;
    PyTuple::new(py, [from_json, PyTuple::new(py, [json])?.into_any()])
}

/// [`JsonClass`] for `$ty`, a newtype of the core's `$core`, read by its `from_value`.
macro_rules! wraps {
    ($ty:ident($core:ty)) => {
        impl $crate::classes::JsonClass for $ty {
            type Core = $core;

            fn read(value: toolnexus_core::Value) -> Result<$core, toolnexus_core::Error> {
                <$core>::from_value(value)
            }

            fn from_core(core: $core) -> $ty {
                $ty(core)
            }

            fn core(&self) -> &$core {
                &self.0
            }
        }
    };
}
pub(crate) use wraps;

/// The `#[pymethods]` of a class wrapping a core type that JSON makes (see [`JsonClass`]):
/// `from_dict` and `from_json`, then the methods given. With `text`, also `to_json`,
/// `__hash__` and `__reduce__`, which follow the JSON (see [`JsonText`]).
macro_rules! json_class {
    (@impl $ty:ident; $($methods:tt)*) => {
        #[pymethods]
        impl $ty {
            /// Reads one from a `dict` with the wire keys, within `limits`.
            #[classmethod]
            #[pyo3(signature = (value, *, limits = None))]
            fn from_dict(
                _class: &Bound<'_, pyo3::types::PyType>,
                value: &Bound<'_, PyAny>,
                limits: Option<&Bound<'_, $crate::limits::PyLimits>>,
            ) -> PyResult<$ty> {
                $crate::contract::read_dict(value, limits, <$ty as $crate::classes::JsonClass>::read)
                    .map(<$ty as $crate::classes::JsonClass>::from_core)
            }

            /// Reads one from JSON text (`str`, `bytes` or `bytearray`), within `limits`.
            #[classmethod]
            #[pyo3(signature = (text, *, limits = None))]
            fn from_json(
                _class: &Bound<'_, pyo3::types::PyType>,
                text: &Bound<'_, PyAny>,
                limits: Option<&Bound<'_, $crate::limits::PyLimits>>,
            ) -> PyResult<$ty> {
                $crate::contract::read_json_text(
                    text,
                    limits,
                    <$ty as $crate::classes::JsonClass>::read,
                )
                .map(<$ty as $crate::classes::JsonClass>::from_core)
            }

            $($methods)*
        }
    };
    ($ty:ident; $($methods:tt)*) => {
        $crate::classes::json_class!(@impl $ty; $($methods)*);
    };
    ($ty:ident as $name:literal, text; $($methods:tt)*) => {
        $crate::classes::json_class!(@impl $ty;
            $($methods)*

            /// The object as a `dict` with the wire keys in their pinned order, absent
            /// optionals left out.
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                $crate::classes::JsonText::members(self, py)?.to_dict()
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                $crate::classes::JsonText::members(self, py)?.repr($name)
            }

            /// The object as compact JSON: the exact text of the core.
            fn to_json(&self) -> String {
                $crate::classes::JsonText::json(self)
            }

            fn __hash__(&self) -> u64 {
                $crate::classes::hash_json(&$crate::classes::JsonText::json(self))
            }

            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                $crate::classes::reduce_to_json(
                    slf.get_type(),
                    $crate::classes::JsonText::json(slf.get()),
                )
            }
        );
    };
}
pub(crate) use json_class;
