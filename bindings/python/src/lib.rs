//! toolnexus-py: the native half of the Python package `toolnexus` (`toolnexus._native`).
//!
//! The binding is thin: every decision is the core's. It converts values between Python and
//! the core's JSON (exactly: integers as `int`, other numbers as `toolnexus.Number`, which
//! keeps the spelling), raises the core's typed errors as the `toolnexus.Error` subclass of
//! their kind, and wraps the contract types in immutable classes. The exception classes and
//! `Number` are Python (`toolnexus/_errors.py`, `toolnexus/_number.py`); this crate finds them
//! by import when it first needs them.
//!
//! Nothing here panics on any input: the lints below hold the crate to the core's rules.

#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod contract;
mod convert;
mod errors;
mod input;
mod limits;
mod mapping;
mod repr;
mod violation;

use pyo3::prelude::*;

/// The native half of `toolnexus`: import `toolnexus`, not this module.
#[pymodule(name = "_native")]
mod native {
    use pyo3::prelude::*;
    use pyo3::types::PyTuple;
    use toolnexus_core::ErrorKind;

    #[pymodule_export]
    use crate::contract::{PyAnswer, PyElicitResult, PyRequest};
    #[pymodule_export]
    use crate::limits::PyLimits;
    #[pymodule_export]
    use crate::mapping::{answer_to_elicit_result, elicitation_to_request, format_id, next_id};
    #[pymodule_export]
    use crate::violation::PyViolation;

    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        module.add("__version__", env!("CARGO_PKG_VERSION"))?;
        let kinds = ErrorKind::ALL.map(ErrorKind::as_str);
        module.add("ERROR_KINDS", PyTuple::new(module.py(), kinds)?)?;
        Ok(())
    }
}
