//! The JSON layer: the bounded reader, the value model, exact decimal numbers, JSON pointers,
//! the writer, and typed access to object members.
//!
//! Everything above this layer reads JSON through [`parse`] or [`parse_str`] and holds it as a
//! [`Value`]: objects keep their member order and numbers their spelling, so what a server
//! sent can be written back byte for byte. Nothing here knows about MCP.

pub(crate) mod decimal;
mod diagnostics;
pub(crate) mod fields;
mod limits;
pub mod pointer;
mod read;
mod text;
mod value;
pub(crate) mod write;

pub use limits::{Limits, SizeBudget};
pub use read::{parse, parse_str};
pub use text::Text;
pub use value::{Map, Number, Value};
pub use write::string_len;
