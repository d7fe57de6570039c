//! The suspension contract: a [`Request`] the host is asked to resolve and the [`Answer`] it
//! gives. Nothing here knows about MCP; the `mcp` layer maps elicitations onto it.

mod answer;
mod request;

pub use answer::{Answer, Reason};
pub use request::Request;
