//! Streamable HTTP: each message is a POST; the answer is one JSON body or a server-sent
//! event stream of messages, read on its own thread so that the server can ask while a call
//! is open. The headers each version requires are set from the messages themselves.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use base64::Engine;
use base64::prelude::BASE64_STANDARD;
use toolnexus_core::wire::client::{Era, INITIALIZE_METHOD, PROTOCOL_VERSION_KEY};
use toolnexus_core::{Limits, Map, Value, json};

use super::transport::{Inbox, Received, Transport, wait};

/// What the conversation has told the server so far that later requests repeat in headers.
#[derive(Debug, Default)]
struct Negotiated {
    /// `MCP-Protocol-Version`, once known.
    version: Option<String>,
    /// `Mcp-Session-Id`, when a handshake-era server gave one.
    session: Option<String>,
}

/// A server at an HTTP(S) URL.
pub struct HttpServer {
    url: String,
    headers: Vec<(String, String)>,
    agent: ureq::Agent,
    negotiated: Arc<Mutex<Negotiated>>,
    tx: Sender<Received>,
    inbox: Receiver<Received>,
}

impl HttpServer {
    /// A server at `url`; `headers` (`Name: value`) go on every request.
    pub fn new(url: &str, headers: &[String]) -> Result<HttpServer, String> {
        let headers = headers
            .iter()
            .map(|h| {
                let (name, value) = h
                    .split_once(':')
                    .ok_or_else(|| format!("--header {h:?}: write it as 'Name: value'"))?;
                Ok((String::from(name.trim()), String::from(value.trim())))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(None)
            .build()
            .into();
        let (tx, inbox): Inbox = mpsc::channel();
        Ok(HttpServer {
            url: String::from(url),
            headers,
            agent,
            negotiated: Arc::default(),
            tx,
            inbox,
        })
    }
}

/// The method, the tool or resource name, the id and the protocol version of an outgoing
/// message, for the headers.
struct Outgoing {
    method: Option<String>,
    name: Option<String>,
    id: Option<Value>,
    version: Option<String>,
}

fn outgoing(message: &str) -> Outgoing {
    let value = json::parse_str(message, &Limits::DEFAULT).ok();
    let map = value.as_ref().and_then(Value::as_object);
    let params = map.and_then(|m| m.get("params")).and_then(Value::as_object);
    let text = |m: Option<&Map>, key: &str| {
        m.and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .map(String::from)
    };
    let meta = params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object);
    Outgoing {
        method: text(map, "method"),
        name: text(params, "name").or_else(|| text(params, "uri")),
        id: map.and_then(|m| m.get("id")).cloned(),
        version: text(meta, PROTOCOL_VERSION_KEY),
    }
}

/// The `Mcp-Name` header value: the name itself when it is printable ASCII, else its UTF-8
/// in base64 as `=?base64?…?=`.
fn header_name(name: &str) -> String {
    if name.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return String::from(name);
    }
    format!("=?base64?{}?=", BASE64_STANDARD.encode(name.as_bytes()))
}

impl Transport for HttpServer {
    fn send(&mut self, message: &str) -> Result<(), String> {
        let out = outgoing(message);
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        let modern = out.version.as_deref().and_then(Era::of) == Some(Era::Modern);
        {
            let mut negotiated = self
                .negotiated
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some(version) = &out.version {
                negotiated.version = Some(version.clone());
            }
            if let Some(version) = &negotiated.version
                && out.method.as_deref() != Some(INITIALIZE_METHOD)
            {
                request = request.header("MCP-Protocol-Version", version);
            }
            if let Some(session) = &negotiated.session {
                request = request.header("Mcp-Session-Id", session);
            }
        }
        if modern {
            if let Some(method) = &out.method {
                request = request.header("Mcp-Method", method);
            }
            let named = matches!(
                out.method.as_deref(),
                Some("tools/call" | "resources/read" | "prompts/get")
            );
            if let (true, Some(name)) = (named, &out.name) {
                request = request.header("Mcp-Name", header_name(name));
            }
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        let body = String::from(message);
        let tx = self.tx.clone();
        let negotiated = Arc::clone(&self.negotiated);
        let is_initialize = out.method.as_deref() == Some(INITIALIZE_METHOD);
        let id = out.id;
        thread::spawn(move || {
            let response = match request.send(body) {
                Ok(response) => response,
                Err(e) => {
                    let _ = tx.send(Received::Closed(format!("the request failed: {e}")));
                    return;
                }
            };
            let status = response.status().as_u16();
            if let Some(session) = response
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
            {
                negotiated
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .session = Some(String::from(session));
            }
            let event_stream = response
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("text/event-stream"));
            let reader = response.into_body().into_reader();
            if event_stream {
                read_events(reader, &tx, is_initialize.then_some(&negotiated));
                return;
            }
            let mut body = Vec::new();
            let _ = reader.take(8 * 1024 * 1024).read_to_end(&mut body);
            if status == 202 || (body.iter().all(u8::is_ascii_whitespace) && status < 300) {
                return;
            }
            let is_json_rpc = json::parse(&body, &Limits::DEFAULT)
                .ok()
                .and_then(|v| v.as_object().map(|m| m.contains_key("jsonrpc")))
                .unwrap_or(false);
            if is_json_rpc {
                if is_initialize {
                    note_version(&body, &negotiated);
                }
                let _ = tx.send(Received::Message(body));
            } else if let Some(id) = id {
                // An HTTP error without a JSON-RPC body answers the request as an error.
                let shown: String = String::from_utf8_lossy(&body).chars().take(200).collect();
                let _ = tx.send(Received::Message(
                    http_error(&id, status, &shown).into_bytes(),
                ));
            }
        });
        Ok(())
    }

    fn receive(&mut self, wait_for: Duration) -> Received {
        wait(&self.inbox, wait_for)
    }

    fn close(&mut self) {
        let session = self
            .negotiated
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .session
            .take();
        if let Some(session) = session {
            // A handshake-era session is ended by deleting it; a server may refuse, which is
            // fine.
            let _ = self
                .agent
                .delete(&self.url)
                .header("Mcp-Session-Id", &session)
                .call();
        }
    }
}

/// The JSON-RPC error response standing for an HTTP error to the request `id`.
fn http_error(id: &Value, status: u16, body: &str) -> String {
    let mut error = Map::new();
    error.insert("code", Value::from(-32600i64));
    error.insert(
        "message",
        Value::from(format!("HTTP {status}: {}", body.trim()).as_str()),
    );
    let mut map = Map::new();
    map.insert("jsonrpc", Value::from("2.0"));
    map.insert("id", id.clone());
    map.insert("error", Value::Object(error));
    Value::Object(map).to_json()
}

/// Keeps the protocol version an `initialize` result chose, for later headers.
fn note_version(body: &[u8], negotiated: &Mutex<Negotiated>) {
    let version = json::parse(body, &Limits::DEFAULT).ok().and_then(|v| {
        v.as_object()?
            .get("result")?
            .as_object()?
            .get("protocolVersion")?
            .as_str()
            .map(String::from)
    });
    if let Some(version) = version {
        negotiated
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .version = Some(version);
    }
}

/// Reads a server-sent event stream: each event's `data` lines, joined by newlines, are one
/// message. Comments (`:`) and other fields are skipped; the stream ends the thread.
fn read_events(
    reader: impl Read,
    tx: &Sender<Received>,
    initialize: Option<&Arc<Mutex<Negotiated>>>,
) {
    let mut lines = BufReader::new(reader);
    let mut data: Vec<u8> = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        match lines.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        if line.is_empty() {
            if !data.is_empty() {
                if let Some(negotiated) = initialize {
                    note_version(&data, negotiated);
                }
                if tx
                    .send(Received::Message(std::mem::take(&mut data)))
                    .is_err()
                {
                    return;
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix(b"data:") {
            if !data.is_empty() {
                data.push(b'\n');
            }
            data.extend_from_slice(rest.strip_prefix(b" ").unwrap_or(rest));
        }
    }
    if !data.is_empty() {
        let _ = tx.send(Received::Message(data));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_split_into_messages() {
        let stream =
            b": comment\nevent: message\ndata: {\"a\":1}\n\ndata: {\"b\":\ndata: 2}\nid: 7\n\n";
        let (tx, rx) = mpsc::channel();
        read_events(&stream[..], &tx, None);
        let got: Vec<String> = rx
            .try_iter()
            .map(|r| match r {
                Received::Message(m) => String::from_utf8(m).unwrap(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(got, ["{\"a\":1}", "{\"b\":\n2}"]);
    }

    #[test]
    fn names_outside_ascii_are_base64() {
        assert_eq!(header_name("book_trip"), "book_trip");
        assert_eq!(header_name("réserver"), "=?base64?csOpc2VydmVy?=");
    }
}
