//! `check_schema`: every problem with a `requestedSchema`, each with a kind and a JSON pointer.
//!
//! (Skeleton: signatures only; filled in by the schema-check work.)

use alloc::vec::Vec;

use crate::value::Value;

/// One problem with a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {}

/// Every problem with `schema`, in document order; empty when it is well-formed.
pub fn check_schema(schema: &Value) -> Vec<SchemaProblem> {
    let _ = schema;
    Vec::new()
}
