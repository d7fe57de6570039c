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
//! let (id, probe) = client.discover();
//! assert_eq!(
//!     probe,
//!     r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"toolnexus","version":"0.1.0"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}}}}"#
//! );
//! // A server of the handshake era does not know the method.
//! let answer = Message::parse(
//!     br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
//!     &Limits::DEFAULT,
//! )
//! .unwrap();
//! assert_eq!(read_probe(&answer, &id), Probe::Handshake);
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::mrtr::CLIENT_CAPABILITIES_KEY;
use super::rpc::{self, ErrorCode, Message, RpcId};
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

/// The method a modern client asks a server what it serves with.
pub const DISCOVER_METHOD: &str = "server/discover";

/// The request that opens a conversation of the handshake era.
pub const INITIALIZE_METHOD: &str = "initialize";

/// The notification that ends the handshake.
pub const INITIALIZED_METHOD: &str = "notifications/initialized";

/// The request either side sends to check the other is there.
pub const PING_METHOD: &str = "ping";

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
            next_id: 1,
        }
    }

    /// The protocol version requests are written in.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Writes later requests in `version` (one the server said it serves).
    pub fn set_version(&mut self, version: &str) {
        self.version = String::from(version);
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
    pub fn request(&mut self, method: &str, params: Map) -> (RpcId, String) {
        let params = match self.era() {
            Era::Modern => self.stamp(params, &self.version),
            Era::Handshake => params,
        };
        self.write(method, Some(params))
    }

    /// `server/discover`, the modern probe, written in [`MODERN_VERSION`] whatever the current
    /// version.
    pub fn discover(&mut self) -> (RpcId, String) {
        let params = self.stamp(Map::new(), MODERN_VERSION);
        self.write(DISCOVER_METHOD, Some(params))
    }

    /// `initialize` offering `version` (a handshake-era version), the client's info and its
    /// elicitation capability; later requests are written in that version.
    pub fn initialize(&mut self, version: &str) -> (RpcId, String) {
        self.version = String::from(version);
        let mut params = Map::new();
        params.insert("protocolVersion", Value::from(version));
        params.insert(
            "capabilities",
            Value::Object(self.modes.client_capabilities()),
        );
        params.insert("clientInfo", self.info.to_value());
        self.write(INITIALIZE_METHOD, Some(params))
    }

    /// `notifications/initialized`, sent once the server answered `initialize`.
    pub fn initialized(&self) -> String {
        notification(INITIALIZED_METHOD)
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
            Value::Object(self.modes.client_capabilities()),
        );
        let mut stamped = Map::new();
        stamped.insert("_meta", Value::Object(meta));
        for (key, value) in params {
            stamped.insert(key, value);
        }
        stamped
    }

    fn write(&mut self, method: &str, params: Option<Map>) -> (RpcId, String) {
        let id = self.next_id();
        let mut message = Map::new();
        message.insert("jsonrpc", Value::from(rpc::VERSION));
        message.insert("id", id.to_value());
        message.insert("method", Value::from(method));
        if let Some(params) = params {
            message.insert("params", Value::Object(params));
        }
        (id, Value::Object(message).to_json())
    }
}

/// A notification with no parameters.
fn notification(method: &str) -> String {
    let mut message = Map::new();
    message.insert("jsonrpc", Value::from(rpc::VERSION));
    message.insert("method", Value::from(method));
    Value::Object(message).to_json()
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
    if let Some(Value::Object(result)) = map.get("result") {
        let Some(Value::Array(versions)) = result.get("supportedVersions") else {
            return Probe::Handshake;
        };
        return Probe::Modern {
            versions: strings(versions),
            server: server_info(result),
        };
    }
    let Some(Value::Object(error)) = map.get("error") else {
        return Probe::Handshake;
    };
    let code = error.get("code").and_then(Value::as_i64);
    if code == Some(ErrorCode::UnsupportedProtocolVersion.code()) {
        let supported = error
            .get("data")
            .and_then(Value::as_object)
            .and_then(|d| d.get("supported"))
            .and_then(Value::as_array)
            .map(|list| strings(list))
            .unwrap_or_default();
        return Probe::UnsupportedVersion { supported };
    }
    Probe::Handshake
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
        let (id, _) = c.discover();
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
        let (id, _) = c.discover();
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
        let (id, _) = c.discover();
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
        let (_, modern) = c.request("tools/call", params.clone());
        assert_eq!(
            modern,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},"name":"book"}}"#
        );
        let (_, init) = c.initialize("2025-11-25");
        assert_eq!(
            init,
            r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"t","version":"1"}}}"#
        );
        assert_eq!(c.era(), Era::Handshake);
        let (_, plain) = c.request("tools/call", params);
        assert_eq!(
            plain,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"book"}}"#
        );
        assert_eq!(
            c.initialized(),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        );
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
