//! toolnexus-py: the native half of the Python package `toolnexus` (`toolnexus._native`).
//!
//! The binding is thin: every decision is the core's. It converts values between Python and
//! the core's JSON (exactly: integers as `int`, other numbers as `toolnexus.Number`, which
//! keeps the spelling), raises the core's typed errors as the `toolnexus.Error` subclass of
//! their kind, and wraps the contract types in immutable classes. The exception classes and
//! `Number` are Python (`toolnexus/_errors.py`, `toolnexus/_number.py`); this crate finds them
//! by import when it first needs them.
//!
//! Nothing here panics on any input: the workspace lints hold the crate to the core's rules.

/// The allocator of every Rust value the binding makes. A request holds its schema as a tree
/// of small strings and vectors, made and freed by the hundred per call; the system allocator
/// (glibc's, profiled) spent about a third of a large form's mapping merging freed chunks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod auth;
mod classes;
mod content;
mod contract;
mod convert;
mod errors;
mod form;
mod html;
mod input;
mod json_text;
mod limits;
mod mapping;
mod mrtr;
mod plain;
mod repr;
mod reverse;
mod secrets;
mod session;
mod snapshot;
mod task;
mod terminal;
mod text;
mod url_review;
mod violation;
mod wire;

use pyo3::prelude::*;

/// The native half of `toolnexus`: import `toolnexus`, not this module.
#[pymodule(name = "_native")]
mod native {
    use pyo3::prelude::*;
    use pyo3::types::PyTuple;
    use toolnexus_auth::AuthErrorKind;
    use toolnexus_core::ErrorKind;

    #[pymodule_export]
    use crate::contract::{PyAnswer, PyElicitResult, PyRequest};
    #[pymodule_export]
    use crate::limits::PyLimits;
    #[pymodule_export]
    use crate::mapping::{answer_to_elicit_result, elicitation_to_request, format_id, next_id};
    #[pymodule_export]
    use crate::violation::PyViolation;

    // Schemas, content, forms (and the web form), secrets and URL review.
    #[pymodule_export]
    use crate::content::{
        PySchemaProblem, apply_defaults, check_schema, prepare_content, validate_content,
    };
    #[pymodule_export]
    use crate::form::{
        PyConstraints, PyFieldOption, PyForm, PyFormField, form_fields, parse_field_input,
    };
    #[pymodule_export]
    use crate::html::html_stylesheet;
    #[pymodule_export]
    use crate::json_text::{from_json, to_json};
    #[pymodule_export]
    use crate::secrets::{PySensitiveField, reject_secrets, sensitive_fields};
    #[pymodule_export]
    use crate::url_review::{PyUrlFinding, PyUrlReview, review_url};
    // Server text on a terminal.
    #[pymodule_export]
    use crate::terminal::{terminal_json, terminal_text};

    // The session, the two wires and tasks.
    #[pymodule_export]
    use crate::mrtr::{
        PyClientRequest, PyInputRequest, PyInputRequired, PyInputRound, PyServerResult,
        classify_result, with_client_capabilities,
    };
    #[pymodule_export]
    use crate::reverse::{PyIncoming, PyReverseBridge, refusal_code};
    #[pymodule_export]
    use crate::session::PySession;
    // Authorization, driven by the host's HTTP client.
    #[pymodule_export]
    use crate::auth::{
        PyAuthConfig, PyAuthDecision, PyAuthFlow, PyAuthPolicy, PyAuthorize, PyChallenge,
        PyDeviceCode, PyDone, PyFetch, PyGrant, PyPoll, parse_challenge,
    };
    #[pymodule_export]
    use crate::task::{PyTask, PyTaskCall, PyTaskDriver, PyTaskEvent};

    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        module.add("__version__", env!("CARGO_PKG_VERSION"))?;
        let kinds = ErrorKind::ALL.map(ErrorKind::as_str);
        module.add("ERROR_KINDS", PyTuple::new(module.py(), kinds)?)?;
        let auth_kinds = AuthErrorKind::ALL.map(AuthErrorKind::as_str);
        module.add("AUTH_ERROR_KINDS", PyTuple::new(module.py(), auth_kinds)?)?;
        Ok(())
    }
}
