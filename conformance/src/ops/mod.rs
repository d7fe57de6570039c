//! The operations beyond the contract types, one file per area.

pub(crate) mod content;
pub(crate) mod schema_check;
pub(crate) mod url;
