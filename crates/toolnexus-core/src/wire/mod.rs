//! The MCP wire, sans I/O: JSON-RPC messages ([`rpc`]), the handshake era's server-initiated
//! `elicitation/create` ([`reverse`]), the 2026-07-28 multi round-trip ([`mrtr`]), and what a
//! client writes and reads to meet a server of either era ([`client`]).

pub mod client;
pub mod mrtr;
pub mod reverse;
pub mod rpc;

/// The MCP method names the wire layer reads and writes.
pub mod method {
    /// The request a server sends to elicit.
    pub const ELICITATION_CREATE: &str = "elicitation/create";
    /// The notification a server sends when a URL-mode interaction is complete.
    pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";
    /// The notification either side sends to withdraw a request it made.
    pub const CANCELLED: &str = "notifications/cancelled";
}
