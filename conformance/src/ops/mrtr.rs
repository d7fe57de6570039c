//! Placeholder until the operation is written.

use toolnexus_core::{Error, Limits};

use crate::Case;

/// Runs the case's operation on `input`.
pub(crate) fn run(
    case: &Case,
    input: &[u8],
    limits: &Limits,
) -> Result<Result<String, Error>, String> {
    let _ = (case, input, limits);
    Err("not implemented".into())
}
