//! `toolnexus` over streamable HTTP against a scripted HTTP server on 127.0.0.1 that records
//! when each request arrives and answers as a test says: messages are sent in order, the
//! server's GET stream is opened and reopened with `Last-Event-ID`, and a request's event
//! stream that ends early is resumed after the server's `retry` delay.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// One request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    /// When it arrived, since the server started.
    at: Duration,
    /// When its response was written (zero while it is being written).
    answered: Duration,
    verb: String,
    /// The JSON-RPC method of a POST, or `""`.
    method: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC id of a POST, as written.
    fn id(&self) -> String {
        let start = self.body.find("\"id\":").map(|i| i + 5).unwrap_or(0);
        self.body[start..]
            .chars()
            .take_while(|c| *c != ',' && *c != '}')
            .collect()
    }
}

/// What the server answers.
enum Answer {
    /// A status with a JSON body (none for `202`), after a delay.
    Json(u16, String, Duration),
    /// An event stream: its raw text, then the connection is closed.
    Events(String),
}

type Script = dyn Fn(&Seen, &[Seen]) -> Answer + Send + Sync;

/// A scripted server; its log of requests.
struct Server {
    url: String,
    log: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    fn start(script: impl Fn(&Seen, &[Seen]) -> Answer + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let log: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let script: Arc<Script> = Arc::new(script);
        let started = Instant::now();
        let shared = Arc::clone(&log);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (log, script) = (Arc::clone(&shared), Arc::clone(&script));
                thread::spawn(move || serve(stream, started, &log, &*script));
            }
        });
        Server { url, log }
    }

    fn log(&self) -> Vec<Seen> {
        self.log.lock().unwrap().clone()
    }
}

/// Reads one request from `stream`, answers it as `script` says, and closes.
fn serve(stream: TcpStream, started: Instant, log: &Mutex<Vec<Seen>>, script: &Script) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let verb = line.split(' ').next().unwrap_or("").to_owned();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap();
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let body = String::from_utf8(body).unwrap();
    let method = body
        .split("\"method\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("")
        .to_owned();
    let mut seen = Seen {
        at: started.elapsed(),
        answered: Duration::ZERO,
        verb,
        method,
        headers,
        body,
    };
    // Logged as it arrives (a stream may be held open past the end of the test).
    let (before, index) = {
        let mut log = log.lock().unwrap();
        let before = log.clone();
        log.push(seen.clone());
        (before, log.len() - 1)
    };
    let answer = script(&seen, &before);
    let mut stream = stream;
    let head = |status: u16, kind: &str, length: Option<usize>| {
        let mut head = format!(
            "HTTP/1.1 {status} X\r\nConnection: close\r\nMcp-Session-Id: s-1\r\nContent-Type: {kind}\r\n"
        );
        if let Some(length) = length {
            head.push_str(&format!("Content-Length: {length}\r\n"));
        }
        head + "\r\n"
    };
    match answer {
        Answer::Json(status, body, delay) => {
            thread::sleep(delay);
            let _ = stream.write_all(head(status, "application/json", Some(body.len())).as_bytes());
            let _ = stream.write_all(body.as_bytes());
        }
        Answer::Events(text) => {
            let _ = stream.write_all(head(200, "text/event-stream", None).as_bytes());
            let _ = stream.write_all(text.as_bytes());
        }
    }
    let _ = stream.flush();
    seen.answered = started.elapsed();
    log.lock().unwrap()[index] = seen;
}

fn result(seen: &Seen, result: &str) -> Answer {
    Answer::Json(
        200,
        format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#,
            seen.id()
        ),
        Duration::ZERO,
    )
}

const INITIALIZED: &str = r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"scripted","version":"1"}}"#;

fn toolnexus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolnexus"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn nothing_overtakes_a_notification_or_the_opening_of_the_server_s_stream() {
    // The server takes 400 ms to acknowledge notifications/initialized: nothing may overtake it.
    let server = Server::start(|seen, _| match (seen.verb.as_str(), seen.method.as_str()) {
        ("POST", "initialize") => result(seen, INITIALIZED),
        ("POST", "notifications/initialized") => {
            Answer::Json(202, String::new(), Duration::from_millis(400))
        }
        ("POST", "tools/list") => result(seen, r#"{"tools":[{"name":"t"}]}"#),
        // And 300 ms to answer the GET of its own stream.
        ("GET", _) => Answer::Json(405, String::new(), Duration::from_millis(300)),
        _ => Answer::Json(200, String::new(), Duration::ZERO),
    });
    let out = toolnexus(&["tools", "--url", &server.url, "--protocol", "2025-11-25"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let log = server.log();
    let find = |verb: &str, method: &str| {
        log.iter()
            .find(|s| s.verb == verb && s.method == method)
            .unwrap_or_else(|| panic!("no {verb} {method} in {log:#?}"))
    };
    let initialized = find("POST", "notifications/initialized");
    let list = find("POST", "tools/list");
    let get = find("GET", "");
    let delete = find("DELETE", "");
    assert!(
        initialized.answered > Duration::ZERO && list.at >= initialized.answered,
        "tools/list arrived at {:?}, before notifications/initialized was acknowledged at {:?}",
        list.at,
        initialized.answered
    );
    // Nothing is sent while the server's own stream is being opened: what the server sends
    // there before it is open would be lost.
    assert!(
        get.answered > Duration::ZERO && list.at >= get.answered,
        "tools/list arrived at {:?}, before the GET was answered at {:?}",
        list.at,
        get.answered
    );
    assert!(delete.at >= list.answered);
    // After the handshake every message names the version and the session.
    assert_eq!(
        initialized.header("MCP-Protocol-Version"),
        Some("2025-11-25")
    );
    assert_eq!(list.header("Mcp-Session-Id"), Some("s-1"));
}

#[test]
fn streams_are_resumed_after_the_retry_delay_with_the_last_event_id() {
    let server = Server::start(|seen, before| {
        let gets = before.iter().filter(|s| s.verb == "GET").count();
        match (seen.verb.as_str(), seen.method.as_str()) {
            ("POST", "initialize") => result(seen, INITIALIZED),
            ("POST", "notifications/initialized") => {
                Answer::Json(202, String::new(), Duration::ZERO)
            }
            // The call's stream primes an id and a delay, then closes without the response.
            ("POST", "tools/call") => {
                Answer::Events(String::from("id: call-1\nretry: 300\ndata: \n\n"))
            }
            // A GET with the call's last event id gets the rest: the response.
            ("GET", _) if seen.header("Last-Event-ID") == Some("call-1") => {
                let id = before
                    .iter()
                    .find(|s| s.method == "tools/call")
                    .map(Seen::id)
                    .unwrap();
                Answer::Events(format!(
                    "id: call-2\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"resumed\"}}]}}}}\n\n"
                ))
            }
            // The server's own stream: the first one drops at once, the next stays quiet.
            ("GET", _) if gets == 0 => Answer::Events(String::from("id: own-1\nretry: 100\n\n")),
            ("GET", _) => {
                thread::sleep(Duration::from_secs(3));
                Answer::Events(String::new())
            }
            _ => Answer::Json(200, String::new(), Duration::ZERO),
        }
    });
    let out = toolnexus(&[
        "call",
        "t",
        "--url",
        &server.url,
        "--protocol",
        "2025-11-25",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("resumed"), "{out:?}");
    let log = server.log();
    let call = log.iter().find(|s| s.method == "tools/call").unwrap();
    let resumed = log
        .iter()
        .find(|s| s.header("Last-Event-ID") == Some("call-1"))
        .unwrap_or_else(|| panic!("no resumption in {log:#?}"));
    let waited = resumed.at.saturating_sub(call.answered);
    assert!(
        waited >= Duration::from_millis(250),
        "resumed after {waited:?}, not 300 ms"
    );
    // The server's own stream was opened after the handshake and reopened where it dropped.
    assert!(
        log.iter()
            .any(|s| s.verb == "GET" && s.header("Last-Event-ID") == Some("own-1")),
        "{log:#?}"
    );
}

#[test]
fn a_stream_without_event_ids_that_ends_early_fails_the_call() {
    let server = Server::start(|seen, _| match seen.method.as_str() {
        "tools/call" => Answer::Events(String::from(": nothing\n\n")),
        "tools/list" => result(seen, r#"{"tools":[]}"#),
        _ => Answer::Json(405, String::new(), Duration::ZERO),
    });
    let out = toolnexus(&[
        "call",
        "t",
        "--url",
        &server.url,
        "--protocol",
        "2026-07-28",
    ]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot be resumed"), "{stderr}");
}

#[test]
fn a_refusal_with_a_null_id_answers_the_request_it_came_back_on() {
    // What a server of the handshake era built with the TypeScript SDK answers a modern probe.
    let server = Server::start(|seen, _| match (seen.verb.as_str(), seen.method.as_str()) {
        ("POST", "server/discover") => Answer::Json(
            400,
            String::from(
                r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Unsupported protocol version"},"id":null}"#,
            ),
            Duration::ZERO,
        ),
        ("POST", "initialize") => result(seen, INITIALIZED),
        ("POST", "tools/list") => result(seen, r#"{"tools":[]}"#),
        ("POST", _) => Answer::Json(202, String::new(), Duration::ZERO),
        _ => Answer::Json(405, String::new(), Duration::ZERO),
    });
    let started = Instant::now();
    let out = toolnexus(&["tools", "--url", &server.url]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // The refusal is the probe's answer: the fallback does not wait out the probe's 5 s.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(server.log().iter().any(|s| s.method == "initialize"));
}

#[test]
fn tools_json_prints_each_definition_as_the_server_wrote_it() {
    const GOOD: &str = r#"{"name":"t","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"type":"number","default":1.0,"maximum":1e2},"r":{"type":"string","x-mcp-header":"Region"}},"x-z":{"b":2,"a":1}}}"#;
    const BAD: &str = r#"{"name":"bad","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}}"#;
    let server = Server::start(|seen, _| match seen.method.as_str() {
        "tools/list" => result(seen, &format!(r#"{{"tools":[{GOOD},{BAD}]}}"#)),
        _ => Answer::Json(405, String::new(), Duration::ZERO),
    });
    let out = toolnexus(&[
        "tools",
        "--json",
        "--url",
        &server.url,
        "--protocol",
        "2026-07-28",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("[{GOOD}]\n"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the tool \"bad\" is left out: its x-mcp-header annotation at /inputSchema/properties/n/x-mcp-header is invalid"),
        "{stderr}"
    );
}

#[test]
fn a_server_that_never_takes_a_notification_times_out() {
    let server = Server::start(|seen, _| match seen.method.as_str() {
        "initialize" => result(seen, INITIALIZED),
        "notifications/initialized" => Answer::Json(202, String::new(), Duration::from_secs(30)),
        _ => Answer::Json(405, String::new(), Duration::ZERO),
    });
    let started = Instant::now();
    let out = toolnexus(&[
        "tools",
        "--url",
        &server.url,
        "--protocol",
        "2025-11-25",
        "--timeout",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("did not take a message"), "{stderr}");
}
