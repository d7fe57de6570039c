//! The operations beyond the contract types, one file per area, and the output shapes they
//! share. Each takes its input already read as one JSON value.

use toolnexus_core::{Value, Violation};

pub(crate) mod auth;
pub(crate) mod content;
pub(crate) mod form;
pub(crate) mod html;
pub(crate) mod mrtr;
pub(crate) mod reverse;
pub(crate) mod schema_check;
pub(crate) mod session;
pub(crate) mod snapshot;
pub(crate) mod task;
pub(crate) mod terminal;
pub(crate) mod url;

/// The object with `members`, in order.
pub(crate) fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (String::from(k), v))
            .collect(),
    )
}

/// Violations as `[{"pointer", "keyword"}]`: messages are wording, not contract.
pub(crate) fn violations_value(violations: &[Violation]) -> Value {
    Value::Array(
        violations
            .iter()
            .map(|v| {
                object([
                    ("pointer", Value::from(v.pointer())),
                    ("keyword", Value::from(v.keyword().as_str())),
                ])
            })
            .collect(),
    )
}
