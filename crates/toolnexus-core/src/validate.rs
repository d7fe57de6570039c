//! `validate_content`: every way submitted content breaks its `requestedSchema`.
//!
//! (Skeleton: signatures only.)

use alloc::string::String;
use alloc::vec::Vec;

use crate::schema::Property;
use crate::value::Value;

/// One way content breaks the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pointer: String,
    keyword: &'static str,
    message: String,
}

impl Violation {
    /// The JSON pointer of the value at fault (`/email`).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }
    /// The JSON Schema keyword that is broken (`format`, `required`, `maxLength`…).
    pub fn keyword(&self) -> &'static str {
        self.keyword
    }
    /// What is wrong, in words.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Appends to `out` every way `value` breaks `property`; pointers start with `at`.
pub(crate) fn property_violations(
    property: &Property,
    value: &Value,
    at: &str,
    out: &mut Vec<Violation>,
) {
    let _ = (property, value, at, out);
}
