//! The MCP wire, sans I/O: JSON-RPC messages ([`rpc`]), the handshake era's server-initiated
//! `elicitation/create` ([`reverse`]), the 2026-07-28 multi round-trip ([`mrtr`]), tool calls
//! run as tasks ([`task`]), and what a client writes and reads to meet a server of either era
//! ([`client`]).

pub mod client;
pub mod mrtr;
pub mod reverse;
pub mod rpc;
pub mod task;

/// The MCP method names the wire layer reads and writes.
pub mod method {
    /// The request a server sends to elicit.
    pub const ELICITATION_CREATE: &str = "elicitation/create";
    /// The notification a server sends when a URL-mode interaction is complete.
    pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";
    /// The notification either side sends to withdraw a request it made.
    pub const CANCELLED: &str = "notifications/cancelled";
    /// The method a modern client asks a server what it serves with.
    pub const DISCOVER_METHOD: &str = "server/discover";
    /// The request that opens a conversation of the handshake era.
    pub const INITIALIZE_METHOD: &str = "initialize";
    /// The notification that ends the handshake.
    pub const INITIALIZED_METHOD: &str = "notifications/initialized";
    /// The request either side sends to check the other is there.
    pub const PING_METHOD: &str = "ping";
    /// The request that lists a server's tools.
    pub const TOOLS_LIST: &str = "tools/list";
    /// The request that calls a tool.
    pub const TOOLS_CALL: &str = "tools/call";
    /// The request that gets a prompt.
    pub const PROMPTS_GET: &str = "prompts/get";
    /// The request that reads a resource.
    pub const RESOURCES_READ: &str = "resources/read";
    /// The request that polls a task.
    pub const TASKS_GET: &str = "tasks/get";
    /// The request that answers a task's input requests (2026-07-28).
    pub const TASKS_UPDATE: &str = "tasks/update";
    /// The request that cancels a task.
    pub const TASKS_CANCEL: &str = "tasks/cancel";
    /// The request that waits for a task's result (2025-11-25).
    pub const TASKS_RESULT: &str = "tasks/result";
}
