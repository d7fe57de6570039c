//! The client's side of a live MCP conversation, sans I/O: the requests a client writes in each
//! era, how it reads the server's answers, and how it tells which era a server speaks.
//!
//! MCP has two eras. The handshake era (2025-06-18, 2025-11-25) opens with `initialize` and
//! `notifications/initialized`; during a `tools/call` the server sends `elicitation/create`
//! requests ([`crate::wire::reverse`]). The modern era (2026-07-28) has no handshake: every
//! request carries `_meta` with the protocol version, the client's identity and its
//! capabilities, `server/discover` says what a server serves, and elicitation travels in
//! `input_required` results ([`crate::wire::mrtr`]).
//!
//! A [`Client`] numbers its requests and writes them for the era it speaks. Era detection is
//! [`read_probe`]: a client sends `server/discover` first; a `DiscoverResult` or a recognised
//! modern error (`-32022`, unsupported protocol version) means the modern era, anything else
//! (another error, or no answer) the handshake era, so the client falls back to
//! [`Client::initialize`]. The fallback is never keyed to one error code: servers of the
//! handshake era answer `-32601`, `-32602` or nothing at all.
//!
//! ```
//! use toolnexus_core::wire::client::{Client, Implementation, Probe, read_probe};
//! use toolnexus_core::wire::rpc::Message;
//! use toolnexus_core::{Limits, Map, Modes};
//!
//! let mut client = Client::new(Implementation::new("toolnexus", "0.1.0"), Modes::ALL);
//! let probe = client.discover();
//! assert_eq!(
//!     probe.text(),
//!     r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"toolnexus","version":"0.1.0"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}}}}"#
//! );
//! // A server of the handshake era does not know the method.
//! let answer = Message::parse(
//!     br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
//!     &Limits::DEFAULT,
//! )
//! .unwrap();
//! assert_eq!(read_probe(&answer, probe.id().unwrap()), Probe::Handshake);
//! // Over streamable HTTP the probe names its version and method in headers too.
//! assert_eq!(probe.headers()[0], ("MCP-Protocol-Version".into(), "2026-07-28".into()));
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub mod headers;

use headers::ParamHeaders;

use super::method;
use super::mrtr::CLIENT_CAPABILITIES_KEY;
use super::rpc::{self, ErrorCode, ErrorResponse, Message, RpcId};
use crate::error::{Error, ErrorKind};
use crate::json::fields::Fields;
use crate::json::{Map, Value};
use crate::mcp::Modes;

/// The protocol version of the modern era.
pub const MODERN_VERSION: &str = "2026-07-28";

/// The versions of the handshake era this client speaks, newest first.
pub const HANDSHAKE_VERSIONS: [&str; 2] = ["2025-11-25", "2025-06-18"];

/// The `_meta` key of the protocol version a modern request is written in.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The `_meta` key of the client's name and version on a modern request.
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";

/// The `_meta` key of the server's name and version on a modern result.
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

pub use super::method::{DISCOVER_METHOD, INITIALIZE_METHOD, INITIALIZED_METHOD, PING_METHOD};

/// The error code (2026-07-28) of a request whose HTTP headers do not match its body: for a
/// call, the client reads the tool's annotations again and sends it once more.
pub const HEADER_MISMATCH: i64 = -32020;

/// The era a protocol version belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2026-07-28: stateless, `_meta` on every request, `input_required` results.
    Modern,
    /// 2025-06-18 and 2025-11-25: `initialize`, then server-initiated requests.
    Handshake,
}

impl Era {
    /// The era of `version`, if this client speaks it.
    pub fn of(version: &str) -> Option<Era> {
        if version == MODERN_VERSION {
            Some(Era::Modern)
        } else if HANDSHAKE_VERSIONS.contains(&version) {
            Some(Era::Handshake)
        } else {
            None
        }
    }
}

/// A name and a version: `clientInfo` or `serverInfo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Implementation {
    name: String,
    version: String,
}

impl Implementation {
    /// The implementation called `name` at `version`.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Implementation {
        Implementation {
            name: name.into(),
            version: version.into(),
        }
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The version.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// `{"name", "version"}`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("name", Value::from(self.name.as_str()));
        map.insert("version", Value::from(self.version.as_str()));
        Value::Object(map)
    }

    /// Reads `{"name", "version"?}`; `None` when `value` has no string `name`. Other members
    /// (`title`, `icons`…) are ignored.
    pub fn from_value(value: &Value) -> Option<Implementation> {
        let map = value.as_object()?;
        let name = map.get("name")?.as_str()?;
        let version = map.get("version").and_then(Value::as_str).unwrap_or("");
        Some(Implementation::new(name, version))
    }
}

/// Writes a client's requests: each gets the next id, and modern ones carry the client's
/// `_meta`.
#[derive(Debug, Clone)]
pub struct Client {
    info: Implementation,
    modes: Modes,
    version: String,
    /// Whether `version` was agreed with the server (after `initialize`, or chosen from what
    /// it serves): from then on every message names it in the transport's headers.
    agreed: bool,
    /// Whether modern requests declare the tasks extension.
    tasks: bool,
    next_id: i64,
}

impl Client {
    /// A client called `info`, eliciting in `modes`, speaking [`MODERN_VERSION`] until told
    /// otherwise; ids count from 1.
    pub fn new(info: Implementation, modes: Modes) -> Client {
        Client {
            info,
            modes,
            version: String::from(MODERN_VERSION),
            agreed: false,
            tasks: false,
            next_id: 1,
        }
    }

    /// Declares (or not) the 2026-07-28 tasks extension in every modern request's
    /// capabilities, saying the client follows a call the server turns into a task (see
    /// [`crate::wire::task`]). Handshake-era requests never declare it: there a client asks
    /// for a task itself, call by call.
    pub fn follow_tasks(&mut self, yes: bool) {
        self.tasks = yes;
    }

    /// Whether modern requests declare the tasks extension.
    pub fn follows_tasks(&self) -> bool {
        self.tasks
    }

    /// The capabilities a modern request declares: the elicitation modes, and the tasks
    /// extension when [`Client::follow_tasks`] is on.
    pub fn modern_capabilities(&self) -> Map {
        let mut caps = self.modes.client_capabilities();
        if self.tasks {
            super::task::declare_extension(&mut caps);
        }
        caps
    }

    /// The protocol version requests are written in.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Writes later messages in `version`, one agreed with the server.
    pub fn set_version(&mut self, version: &str) {
        self.version = String::from(version);
        self.agreed = true;
    }

    /// The era of the current version.
    pub fn era(&self) -> Era {
        Era::of(&self.version).unwrap_or(Era::Modern)
    }

    /// The modes this client elicits in.
    pub fn modes(&self) -> Modes {
        self.modes
    }

    /// The next request id, taken.
    pub fn next_id(&mut self) -> RpcId {
        let id = RpcId::from(self.next_id);
        self.next_id = self.next_id.saturating_add(1);
        id
    }

    /// A request of the current era for `method` with `params`: in the modern era `params`
    /// gains `_meta` with the protocol version, the client's info and its capabilities (members
    /// `_meta` already has are kept); in the handshake era it is sent as given.
    pub fn request(&mut self, method: &str, params: Map) -> Outgoing {
        self.request_with(method, params, &ParamHeaders::default())
    }

    /// `tools/call` of the tool `name` with `arguments`; over HTTP in the modern era, the
    /// arguments `mirrored` names travel in `Mcp-Param-*` headers too.
    pub fn call_tool(&mut self, name: &str, arguments: Map, mirrored: &ParamHeaders) -> Outgoing {
        let params = tool_params(name, arguments);
        self.request_with(method::TOOLS_CALL, params, mirrored)
    }

    /// `tools/call` of the tool `name` with `arguments`, asking for a task (2025-11-25:
    /// `params.task`, see [`crate::wire::task`]) kept `ttl_ms` after its creation, or as long
    /// as the server likes.
    pub fn call_tool_as_task(
        &mut self,
        name: &str,
        arguments: Map,
        ttl_ms: Option<u64>,
    ) -> Outgoing {
        let mut params = tool_params(name, arguments);
        params.insert("task", super::task::task_request(ttl_ms));
        self.request_with(method::TOOLS_CALL, params, &ParamHeaders::default())
    }

    fn request_with(&mut self, method: &str, params: Map, mirrored: &ParamHeaders) -> Outgoing {
        match self.era() {
            Era::Modern => {
                let version = self.version.clone();
                let params = self.stamp(params, &version);
                let headers = modern_headers(method, &params, &version, mirrored);
                self.write(method, params, headers)
            }
            Era::Handshake => {
                let headers = self.version_header();
                self.write(method, params, headers)
            }
        }
    }

    /// `server/discover`, the modern probe, written in [`MODERN_VERSION`] whatever the current
    /// version.
    pub fn discover(&mut self) -> Outgoing {
        let params = self.stamp(Map::new(), MODERN_VERSION);
        let headers = modern_headers(
            DISCOVER_METHOD,
            &params,
            MODERN_VERSION,
            &ParamHeaders::default(),
        );
        self.write(DISCOVER_METHOD, params, headers)
    }

    /// `initialize` offering `version` (a handshake-era version), the client's info and its
    /// elicitation capability; later requests are written in that version.
    pub fn initialize(&mut self, version: &str) -> Outgoing {
        self.version = String::from(version);
        self.agreed = false;
        let mut params = Map::new();
        params.insert("protocolVersion", Value::from(version));
        params.insert(
            "capabilities",
            Value::Object(self.modes.client_capabilities()),
        );
        params.insert("clientInfo", self.info.to_value());
        self.write(INITIALIZE_METHOD, params, Vec::new())
    }

    /// `notifications/initialized`, sent once the server answered `initialize`.
    pub fn initialized(&self) -> Outgoing {
        let mut message = Map::new();
        message.insert("jsonrpc", Value::from(rpc::VERSION));
        message.insert("method", Value::from(INITIALIZED_METHOD));
        Outgoing::new(
            message,
            None,
            Some(INITIALIZED_METHOD),
            self.version_header(),
        )
    }

    /// A response or notification written elsewhere (an answer to a server's request, a
    /// `ping` reply), to send in the current version.
    pub fn reply(&self, text: String) -> Outgoing {
        Outgoing {
            text,
            message: None,
            id: None,
            method: None,
            headers: self.version_header(),
        }
    }

    /// The same request sent again as `id` in `text` (an `input_required` retry): the
    /// headers of `original` are kept.
    pub fn again(&self, original: &Outgoing, id: RpcId, text: String) -> Outgoing {
        Outgoing {
            text,
            message: None,
            id: Some(id),
            method: original.method.clone(),
            headers: original.headers.clone(),
        }
    }

    /// `MCP-Protocol-Version` once a version is agreed.
    fn version_header(&self) -> Vec<(String, String)> {
        if self.agreed {
            Vec::from([(String::from(PROTOCOL_VERSION_HEADER), self.version.clone())])
        } else {
            Vec::new()
        }
    }

    /// `params` with `_meta` stamped for a modern request in `version`.
    fn stamp(&self, mut params: Map, version: &str) -> Map {
        let mut meta = match params.remove("_meta") {
            Some(Value::Object(meta)) => meta,
            _ => Map::new(),
        };
        meta.insert(PROTOCOL_VERSION_KEY, Value::from(version));
        meta.insert(CLIENT_INFO_KEY, self.info.to_value());
        meta.insert(
            CLIENT_CAPABILITIES_KEY,
            Value::Object(self.modern_capabilities()),
        );
        let mut stamped = Map::new();
        stamped.insert("_meta", Value::Object(meta));
        for (key, value) in params {
            stamped.insert(key, value);
        }
        stamped
    }

    fn write(&mut self, method: &str, params: Map, headers: Vec<(String, String)>) -> Outgoing {
        let id = self.next_id();
        let mut message = Map::new();
        message.insert("jsonrpc", Value::from(rpc::VERSION));
        message.insert("id", id.to_value());
        message.insert("method", Value::from(method));
        message.insert("params", Value::Object(params));
        Outgoing::new(message, Some(id), Some(method), headers)
    }
}

/// The params of `tools/call`: `{"name", "arguments"}`.
fn tool_params(name: &str, arguments: Map) -> Map {
    let mut params = Map::new();
    params.insert("name", Value::from(name));
    params.insert("arguments", Value::Object(arguments));
    params
}

/// The headers a modern request carries over streamable HTTP: `MCP-Protocol-Version`,
/// `Mcp-Method`, `Mcp-Name` for the methods that name a tool, prompt, resource or task
/// (encoded by [`headers::encode_value`]), then the `Mcp-Param-*` of the tool's mirrored
/// arguments.
fn modern_headers(
    method: &str,
    params: &Map,
    version: &str,
    mirrored: &ParamHeaders,
) -> Vec<(String, String)> {
    let mut headers = Vec::from([
        (String::from(PROTOCOL_VERSION_HEADER), String::from(version)),
        (String::from("Mcp-Method"), String::from(method)),
    ]);
    let named = match method {
        method::TOOLS_CALL | method::PROMPTS_GET => params.get("name"),
        method::RESOURCES_READ => params.get("uri"),
        method::TASKS_GET | method::TASKS_UPDATE | method::TASKS_CANCEL => params.get("taskId"),
        _ => None,
    };
    if let Some(name) = named.and_then(Value::as_str) {
        headers.push((String::from("Mcp-Name"), headers::encode_value(name)));
    }
    if method == method::TOOLS_CALL
        && let Some(Value::Object(arguments)) = params.get("arguments")
    {
        headers.extend(mirrored.headers(arguments));
    }
    headers
}

/// The header that names the protocol version on every streamable HTTP message once it is
/// agreed.
pub const PROTOCOL_VERSION_HEADER: &str = "MCP-Protocol-Version";

/// A message the client sends, with what a transport needs to know of it, worked out once
/// when it was written: its id and method (for a request), and the headers streamable HTTP
/// mirrors from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    text: String,
    message: Option<Map>,
    id: Option<RpcId>,
    method: Option<String>,
    headers: Vec<(String, String)>,
}

impl Outgoing {
    fn new(
        message: Map,
        id: Option<RpcId>,
        method: Option<&str>,
        headers: Vec<(String, String)>,
    ) -> Outgoing {
        Outgoing {
            text: message.to_json(),
            message: Some(message),
            id,
            method: method.map(String::from),
            headers,
        }
    }

    /// The JSON text to send.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The message as written, for a request or notification this client wrote itself.
    pub fn message(&self) -> Option<&Map> {
        self.message.as_ref()
    }

    /// The id, for a request: its response carries it.
    pub fn id(&self) -> Option<&RpcId> {
        self.id.as_ref()
    }

    /// The method, for a request or notification; `None` for a response.
    pub fn method(&self) -> Option<&str> {
        self.method.as_deref()
    }

    /// Whether it is a request (the server answers it).
    pub fn is_request(&self) -> bool {
        self.id.is_some()
    }

    /// The headers streamable HTTP carries it with, in order: `MCP-Protocol-Version` (once a
    /// version is agreed, and on every modern request), and on modern requests `Mcp-Method`,
    /// `Mcp-Name` and `Mcp-Param-*`.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }
}

/// What the answer to `server/discover` says about the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// A `DiscoverResult`: the server speaks the modern era; the versions it serves and who
    /// it is (when it says).
    Modern {
        /// `supportedVersions`, as listed.
        versions: Vec<String>,
        /// `_meta["io.modelcontextprotocol/serverInfo"]` (or `serverInfo`).
        server: Option<Implementation>,
    },
    /// The recognised modern error `-32022`: the server is modern but does not serve the
    /// version asked; `supported` lists those it does.
    UnsupportedVersion {
        /// `error.data.supported`.
        supported: Vec<String>,
    },
    /// Any other answer: a server of the handshake era. Fall back to `initialize`.
    Handshake,
}

/// Reads `message`, the server's answer to the `server/discover` request `id`, as
/// [the module](self) says. A message that answers another request is
/// [`Probe::Handshake`] too: whatever it is, it is no `DiscoverResult`.
pub fn read_probe(message: &Message, id: &RpcId) -> Probe {
    let Message::Response(map) = message else {
        return Probe::Handshake;
    };
    if map.get("id").and_then(RpcId::from_value).as_ref() != Some(id) {
        return Probe::Handshake;
    }
    probe_of(&Reply::read(map.clone()))
}

/// What `reply`, the answer to `server/discover`, says about the server (see [`read_probe`]).
pub fn probe_of(reply: &Reply) -> Probe {
    if let Some(supported) = reply.unsupported_version() {
        return Probe::UnsupportedVersion { supported };
    }
    match reply {
        Reply::Result(result) => match result.get("supportedVersions") {
            Some(Value::Array(versions)) => Probe::Modern {
                versions: strings(versions),
                server: server_info(result),
            },
            _ => Probe::Handshake,
        },
        Reply::Error(_) => Probe::Handshake,
    }
}

fn strings(list: &[Value]) -> Vec<String> {
    list.iter()
        .filter_map(Value::as_str)
        .map(String::from)
        .collect()
}

/// Who the server is, from a result: `_meta["io.modelcontextprotocol/serverInfo"]`, else a
/// `serverInfo` member (what `initialize` returns).
pub fn server_info(result: &Map) -> Option<Implementation> {
    result
        .get("_meta")
        .and_then(Value::as_object)
        .and_then(|meta| meta.get(SERVER_INFO_KEY))
        .or_else(|| result.get("serverInfo"))
        .and_then(Implementation::from_value)
}

/// The version to speak with a server that serves `supported`: the modern one if it is
/// listed, else the newest handshake-era one listed; `None` when none is mutual.
pub fn choose_version(supported: &[String]) -> Option<&'static str> {
    core::iter::once(MODERN_VERSION)
        .chain(HANDSHAKE_VERSIONS)
        .find(|ours| supported.iter().any(|theirs| theirs == ours))
}

/// What the server answered to `initialize`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Initialized {
    /// The protocol version the server chose; one this client speaks.
    pub version: String,
    /// Who the server is.
    pub server: Option<Implementation>,
}

/// Reads the result of `initialize`: the version the server chose, which must be one of
/// [`HANDSHAKE_VERSIONS`] (else [`ErrorKind::InvalidValue`] at `/protocolVersion`: no
/// mutual version), and its `serverInfo`.
pub fn read_initialized(result: &Map) -> Result<Initialized, Error> {
    let version = Fields::new(result).str("protocolVersion")?;
    if !HANDSHAKE_VERSIONS.contains(&version) {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            "/protocolVersion",
            format!(
                "the server chose protocol version {}, which this client does not speak (it \
                 speaks {}, {} and {MODERN_VERSION})",
                crate::error::quote(version),
                HANDSHAKE_VERSIONS[0],
                HANDSHAKE_VERSIONS[1]
            ),
        ));
    }
    Ok(Initialized {
        version: String::from(version),
        server: server_info(result),
    })
}

/// The server's response to one of the client's requests.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `result`: what the request asked for.
    Result(Map),
    /// `error`: why not.
    Error(ErrorResponse),
}

impl Reply {
    /// Reads a response (a [`Message::Response`]'s map). A `result` that is not an object,
    /// and an `error` that cannot be read, are an error of their own
    /// ([`ErrorCode::InternalError`]) saying so.
    pub fn read(response: Map) -> Reply {
        let id = response.get("id").and_then(RpcId::from_value);
        if let Some(result) = response.get("result") {
            return match result {
                Value::Object(result) => Reply::Result(result.clone()),
                other => Reply::Error(ErrorResponse::new(
                    id,
                    ErrorCode::InternalError,
                    format!(
                        "the server's result is {}, not an object",
                        other.type_name()
                    ),
                )),
            };
        }
        match ErrorResponse::from_value(Value::Object(response)) {
            Ok(error) => Reply::Error(error),
            Err(e) => Reply::Error(ErrorResponse::new(
                id,
                ErrorCode::InternalError,
                format!("the server's error response cannot be read: {e}"),
            )),
        }
    }

    /// The versions a `-32022` (unsupported protocol version) lists in `error.data.supported`,
    /// if this is one.
    pub fn unsupported_version(&self) -> Option<Vec<String>> {
        let Reply::Error(error) = self else {
            return None;
        };
        if error.error_code() != Some(ErrorCode::UnsupportedProtocolVersion) {
            return None;
        }
        Some(
            error
                .data()
                .and_then(|d| d.get("supported"))
                .and_then(Value::as_array)
                .map(|list| strings(list))
                .unwrap_or_default(),
        )
    }
}

/// One page of `tools/list`: the tools as the server wrote them (members in order, numbers as
/// spelt), and the cursor of the next page when there is one.
pub fn read_tools(result: &Map) -> (Vec<Value>, Option<String>) {
    let tools = match result.get("tools") {
        Some(Value::Array(tools)) => tools.clone(),
        _ => Vec::new(),
    };
    let cursor = result
        .get("nextCursor")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map(String::from);
    (tools, cursor)
}

/// The empty result that answers a `ping`.
pub fn ping_reply(id: &RpcId) -> String {
    rpc::write_result(id, &Map::new())
}

/// The `-32601` response to a server request this client does not serve.
pub fn method_not_found(id: &RpcId, method: &str) -> String {
    rpc::ErrorResponse::new(
        Some(id.clone()),
        ErrorCode::MethodNotFound,
        format!("this client does not serve {}", crate::error::quote(method)),
    )
    .to_json()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Limits;
    use alloc::vec;

    fn message(text: &str) -> Message {
        Message::parse(text.as_bytes(), &Limits::DEFAULT).unwrap()
    }

    fn client() -> Client {
        Client::new(Implementation::new("t", "1"), Modes::ALL)
    }

    #[test]
    fn a_discover_result_is_the_modern_era() {
        let mut c = client();
        let id = c.discover().id().cloned().unwrap();
        let answer = message(
            r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"2"}}}}"#,
        );
        assert_eq!(
            read_probe(&answer, &id),
            Probe::Modern {
                versions: vec![String::from("2026-07-28")],
                server: Some(Implementation::new("s", "2")),
            }
        );
    }

    #[test]
    fn minus_32022_is_modern_with_the_supported_versions() {
        let mut c = client();
        let id = c.discover().id().cloned().unwrap();
        let answer = message(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-09-01"],"requested":"2026-07-28"}}}"#,
        );
        assert_eq!(
            read_probe(&answer, &id),
            Probe::UnsupportedVersion {
                supported: vec![String::from("2026-09-01")]
            }
        );
    }

    #[test]
    fn any_other_answer_falls_back_to_the_handshake() {
        let mut c = client();
        let id = c.discover().id().cloned().unwrap();
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"not initialized"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"supportedVersions":["2026-07-28"]}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#,
        ] {
            assert_eq!(read_probe(&message(text), &id), Probe::Handshake, "{text}");
        }
    }

    #[test]
    fn requests_carry_the_era_s_meta() {
        let mut c = client();
        let mut params = Map::new();
        params.insert("name", Value::from("book"));
        let modern = c.request("tools/call", params.clone());
        assert_eq!(
            modern.text(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},"name":"book"}}"#
        );
        let init = c.initialize("2025-11-25");
        assert!(init.headers().is_empty());
        assert_eq!(
            init.text(),
            r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"t","version":"1"}}}"#
        );
        assert_eq!(c.era(), Era::Handshake);
        assert!(c.initialized().headers().is_empty());
        c.set_version("2025-11-25");
        let plain = c.request("tools/call", params);
        assert_eq!(
            plain.headers(),
            [(
                String::from("MCP-Protocol-Version"),
                String::from("2025-11-25")
            )]
        );
        assert_eq!(
            plain.text(),
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"book"}}"#
        );
        let initialized = c.initialized();
        assert_eq!(
            initialized.text(),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        );
        assert!(!initialized.is_request());
        assert_eq!(initialized.headers().len(), 1);
    }

    #[test]
    fn modern_requests_name_their_method_tool_and_mirrored_arguments() {
        let mut c = client();
        let tool = crate::json::parse_str(
            r#"{"name":"réserver","inputSchema":{"type":"object","properties":{"city":{"type":"string","x-mcp-header":"City"}}}}"#,
            &Limits::DEFAULT,
        )
        .unwrap();
        let mirrored = ParamHeaders::of_tool(&tool).unwrap();
        let mut arguments = Map::new();
        arguments.insert("city", Value::from("Oslo"));
        let call = c.call_tool("réserver", arguments, &mirrored);
        let pairs: Vec<(&str, &str)> = call
            .headers()
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "=?base64?csOpc2VydmVy?="),
                ("Mcp-Param-City", "Oslo"),
            ]
        );
        let again = c.again(&call, RpcId::from(9), String::from("{}"));
        assert_eq!(again.headers(), call.headers());
        assert_eq!(again.id(), Some(&RpcId::from(9)));
        let list = c.request("tools/list", Map::new());
        assert_eq!(list.headers().len(), 2);
    }

    #[test]
    fn a_call_may_ask_for_a_task() {
        let mut c = client();
        c.set_version("2025-11-25");
        let call = c.call_tool_as_task("slow", Map::new(), Some(60_000));
        assert_eq!(
            call.text(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}"#
        );
    }

    #[test]
    fn replies_are_results_or_errors() {
        let read = |text: &str| match message(text) {
            Message::Response(map) => Reply::read(map),
            other => panic!("{other:?}"),
        };
        assert!(matches!(
            read(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Reply::Result(_)
        ));
        let unsupported = read(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"supported":["2026-07-28"]}}}"#,
        );
        assert_eq!(
            unsupported.unsupported_version(),
            Some(vec![String::from("2026-07-28")])
        );
        let Reply::Error(odd) = read(r#"{"jsonrpc":"2.0","id":1,"result":3}"#) else {
            panic!()
        };
        assert_eq!(odd.code(), -32603);
        let Reply::Error(broken) = read(r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#) else {
            panic!()
        };
        assert!(
            broken.message().contains("cannot be read"),
            "{}",
            broken.message()
        );
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}"#)
                .unsupported_version(),
            None
        );
    }

    #[test]
    fn tool_pages_are_read_as_sent() {
        let Value::Object(result) = crate::json::parse_str(
            r#"{"tools":[{"name":"a","inputSchema":{"type":"object","x":1.0}}],"nextCursor":"2"}"#,
            &Limits::DEFAULT,
        )
        .unwrap() else {
            panic!()
        };
        let (tools, cursor) = read_tools(&result);
        assert_eq!(
            tools[0].to_json(),
            r#"{"name":"a","inputSchema":{"type":"object","x":1.0}}"#
        );
        assert_eq!(cursor.as_deref(), Some("2"));
        assert_eq!(read_tools(&Map::new()), (Vec::new(), None));
    }

    #[test]
    fn versions_are_chosen_from_what_the_server_serves() {
        let list = |v: &[&str]| v.iter().map(|s| String::from(*s)).collect::<Vec<_>>();
        assert_eq!(
            choose_version(&list(&["2025-06-18", "2026-07-28"])),
            Some("2026-07-28")
        );
        assert_eq!(
            choose_version(&list(&["2025-06-18", "2025-11-25"])),
            Some("2025-11-25")
        );
        assert_eq!(choose_version(&list(&["2024-11-05"])), None);
    }

    #[test]
    fn initialize_results_are_read() {
        let Value::Object(result) = crate::json::parse_str(
            r#"{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"ts","version":"1.0.0"}}"#,
            &Limits::DEFAULT,
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!(
            read_initialized(&result).unwrap(),
            Initialized {
                version: String::from("2025-11-25"),
                server: Some(Implementation::new("ts", "1.0.0"))
            }
        );
        let Value::Object(old) = crate::json::parse_str(
            r#"{"protocolVersion":"2024-11-05","capabilities":{}}"#,
            &Limits::DEFAULT,
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!(
            read_initialized(&old).unwrap_err().pointer(),
            "/protocolVersion"
        );
    }

    #[test]
    fn pings_and_unknown_requests_are_answered() {
        assert_eq!(
            ping_reply(&RpcId::from(5)),
            r#"{"jsonrpc":"2.0","id":5,"result":{}}"#
        );
        assert_eq!(
            method_not_found(&RpcId::from(6), "roots/list"),
            r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"this client does not serve \"roots/list\""}}"#
        );
    }
}
