//! `toolnexus.Limits`: the bounds untrusted JSON is read within.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::repr::Repr;

/// Bounds every JSON input is read within; each one exceeded is a typed error.
///
/// `max_input_bytes` bounds JSON text (default 4 MiB); `max_depth` the nesting of arrays and
/// objects (default 64, `[]` is depth 1, capped at `DEPTH_CEILING` = 512 whatever is asked);
/// `max_object_members` the members of one object (default 1,000); `max_array_items` the
/// items of one array (default 10,000). A `dict` given instead of text is held to the same
/// depth, member and item bounds.
#[pyclass(frozen, eq, hash, module = "toolnexus", name = "Limits")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyLimits(pub(crate) toolnexus_core::Limits);

impl PyLimits {
    /// The core's limits, or the defaults.
    pub(crate) fn or_default(limits: Option<&Bound<'_, PyLimits>>) -> toolnexus_core::Limits {
        limits.map_or(toolnexus_core::Limits::DEFAULT, |l| l.get().0)
    }
}

const DEFAULT: toolnexus_core::Limits = toolnexus_core::Limits::DEFAULT;

// The constructor's defaults are written out so that Python's signature shows them; they
// must stay the core's.
const _: () = assert!(
    DEFAULT.max_input_bytes() == 4_194_304
        && DEFAULT.max_depth() == 64
        && DEFAULT.max_object_members() == 1_000
        && DEFAULT.max_array_items() == 10_000
);

#[pymethods]
impl PyLimits {
    #[new]
    #[pyo3(signature = (
        *,
        max_input_bytes = 4_194_304,
        max_depth = 64,
        max_object_members = 1_000,
        max_array_items = 10_000,
    ))]
    fn new(
        max_input_bytes: usize,
        max_depth: usize,
        max_object_members: usize,
        max_array_items: usize,
    ) -> PyLimits {
        PyLimits(
            DEFAULT
                .with_max_input_bytes(max_input_bytes)
                .with_max_depth(max_depth)
                .with_max_object_members(max_object_members)
                .with_max_array_items(max_array_items),
        )
    }

    /// The default limits.
    #[classattr]
    #[pyo3(name = "DEFAULT")]
    fn default_limits() -> PyLimits {
        PyLimits(DEFAULT)
    }

    /// The highest nesting depth any `Limits` allows.
    #[classattr]
    #[pyo3(name = "DEPTH_CEILING")]
    fn depth_ceiling() -> usize {
        toolnexus_core::Limits::DEPTH_CEILING
    }

    /// The longest JSON text accepted, in bytes.
    #[getter]
    fn max_input_bytes(&self) -> usize {
        self.0.max_input_bytes()
    }

    /// The deepest nesting of arrays and objects accepted.
    #[getter]
    fn max_depth(&self) -> usize {
        self.0.max_depth()
    }

    /// The most members one object may have.
    #[getter]
    fn max_object_members(&self) -> usize {
        self.0.max_object_members()
    }

    /// The most items one array may have.
    #[getter]
    fn max_array_items(&self) -> usize {
        self.0.max_array_items()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(Repr::new("Limits")
            .field("max_input_bytes", self.0.max_input_bytes(), py)?
            .field("max_depth", self.0.max_depth(), py)?
            .field("max_object_members", self.0.max_object_members(), py)?
            .field("max_array_items", self.0.max_array_items(), py)?
            .finish())
    }

    /// Pickles as a call of the constructor with the four bounds by name.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let limits = slf.get().0;
        let bounds = PyDict::new(py);
        bounds.set_item("max_input_bytes", limits.max_input_bytes())?;
        bounds.set_item("max_depth", limits.max_depth())?;
        bounds.set_item("max_object_members", limits.max_object_members())?;
        bounds.set_item("max_array_items", limits.max_array_items())?;
        let partial = py
            .import("functools")?
            .getattr("partial")?
            .call((slf.get_type(),), Some(&bounds))?;
        PyTuple::new(py, [partial, PyTuple::empty(py).into_any()])
    }
}
