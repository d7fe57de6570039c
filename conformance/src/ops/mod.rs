//! The operations beyond the contract types, one file per area.

pub(crate) mod content;
pub(crate) mod mrtr;
pub(crate) mod reverse;
pub(crate) mod schema_check;
pub(crate) mod session;
pub(crate) mod url;
