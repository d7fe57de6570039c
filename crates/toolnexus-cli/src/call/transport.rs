//! How messages reach a live server: a child process over stdio, or streamable HTTP
//! ([`super::http`]). Each transport sends one [`Outgoing`] message at a time and delivers
//! what the server writes through one channel, each message read once into an [`Event`], so
//! the conversation waits in one place with one timeout.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use toolnexus_core::Limits;
use toolnexus_core::wire::client::{Outgoing, Reply};
use toolnexus_core::wire::rpc::{Message, RpcId};

use crate::report::Failure;

/// One message from the server, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A response to one of the client's requests.
    Response {
        /// The id it answers (`None` when the server wrote none, or `null`).
        id: Option<RpcId>,
        /// The result or the error.
        reply: Reply,
    },
    /// A request or notification of the server's own.
    Server(Message),
    /// Something that is not a JSON-RPC message, as it came.
    Garbage(Vec<u8>),
}

impl Event {
    /// Reads one message.
    pub fn read(bytes: Vec<u8>, limits: &Limits) -> Event {
        match Message::parse(&bytes, limits) {
            Ok(Message::Response(map)) => Event::Response {
                id: map.get("id").and_then(RpcId::from_value),
                reply: Reply::read(map),
            },
            Ok(message) => Event::Server(message),
            Err(_) => Event::Garbage(bytes),
        }
    }

    /// Whether it is the response to the request `id`.
    pub fn answers(&self, id: &RpcId) -> bool {
        matches!(self, Event::Response { id: Some(theirs), .. } if theirs == id)
    }
}

/// A request the server refused for want of authorization (HTTP `401`, or `403` with
/// `insufficient_scope`): what it said, and the request, to be sent again once authorized.
#[derive(Clone)]
pub struct RefusedRequest {
    /// The HTTP status: `401` or `403`.
    pub status: u16,
    /// The `WWW-Authenticate` header, its values joined with `, ` when there were several.
    pub www_authenticate: Option<String>,
    /// The request refused.
    pub message: Outgoing,
    /// The `Authorization` header it carried, if any. Never shown: `Debug` leaves it out.
    pub authorization: Option<String>,
}

impl std::fmt::Debug for RefusedRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefusedRequest")
            .field("status", &self.status)
            .field("www_authenticate", &self.www_authenticate)
            .field("method", &self.message.method())
            .field("authorized", &self.authorization.is_some())
            .finish()
    }
}

/// What the server did next.
#[derive(Debug)]
pub enum Received {
    /// One message.
    Event(Event),
    /// The server needs an authorization before it answers a request (see
    /// [`Transport::authorize`]).
    Unauthorized(Box<RefusedRequest>),
    /// Nothing within the time given.
    Timeout,
    /// The server is gone: the process ended or closed its output, or a request failed. Says
    /// why.
    Closed(String),
}

/// A way to talk to a server.
pub trait Transport {
    /// Sends one message.
    fn send(&mut self, message: &Outgoing) -> Result<(), String>;

    /// The next thing the server does, waiting at most `wait`.
    fn receive(&mut self, wait: Duration) -> Received;

    /// Ends the conversation: the server is stopped, or its session ended.
    fn close(&mut self);

    /// Whether tool arguments are mirrored into headers (streamable HTTP in 2026-07-28), so a
    /// tool whose `x-mcp-header` annotations are invalid must be left out.
    fn mirrors_headers(&self) -> bool {
        false
    }

    /// Whether the server can be reached again from another process and find what this
    /// connection began (streamable HTTP: a task outlives the connection; over stdio the
    /// server ends with it).
    fn reachable_again(&self) -> bool {
        false
    }

    /// Whether every request gets its own answer (streamable HTTP: each POST has a response),
    /// so that silence means a slow server, never one that ignores a method it does not know.
    fn answers_every_request(&self) -> bool {
        false
    }

    /// Leaves the session open when the transport closes, and gives its id: the session a
    /// handshake-era task's question came on, to be answered from another process. `None`
    /// when there is no such session.
    fn keep_session(&mut self) -> Option<String> {
        None
    }

    /// Speaks within the session `id` a kept call left open, instead of a new one.
    fn join_session(&mut self, id: &str) -> Result<(), Failure> {
        Err(Failure::server(format!(
            "this transport has no session to join ({} characters given)",
            id.len()
        )))
    }

    /// Gets the authorization `challenge` asks for and sends its request again with it; what
    /// answers that request arrives as usual. Only a transport that reports
    /// [`Received::Unauthorized`] can.
    fn authorize(&mut self, challenge: RefusedRequest) -> Result<(), Failure> {
        Err(Failure::server(format!(
            "the server answered HTTP {} to {}: it needs an authorization this client was not \
             set to get",
            challenge.status,
            challenge.message.method().unwrap_or("a request")
        )))
    }
}

/// Messages from reader threads to the conversation.
pub(super) type Inbox = (Sender<Received>, Receiver<Received>);

pub(super) fn wait(inbox: &Receiver<Received>, wait: Duration) -> Received {
    match inbox.recv_timeout(wait) {
        Ok(received) => received,
        Err(RecvTimeoutError::Timeout) => Received::Timeout,
        Err(RecvTimeoutError::Disconnected) => Received::Closed(String::from("the server is gone")),
    }
}

/// A server started as a child process, one JSON-RPC message a line each way.
pub struct StdioServer {
    child: Child,
    stdin: Option<ChildStdin>,
    inbox: Receiver<Received>,
}

impl StdioServer {
    /// Starts `program` with `args`; its standard error goes to ours, or to `log` when given.
    pub fn spawn(program: &str, args: &[String], log: Option<File>) -> Result<StdioServer, String> {
        let stderr = match log {
            Some(file) => Stdio::from(file),
            None => Stdio::inherit(),
        };
        // In a process group of its own, so that Ctrl-C at the terminal reaches the client
        // alone, which cancels what runs and then stops the server itself.
        let mut child = Command::new(program)
            .process_group(0)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| format!("the server could not start: {program}: {e}"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| String::from("the server's output could not be read"))?;
        let stdin = child.stdin.take();
        let (tx, inbox): Inbox = mpsc::channel();
        thread::spawn(move || read_lines(stdout, &tx));
        Ok(StdioServer {
            child,
            stdin,
            inbox,
        })
    }
}

/// Sends each line of `output` as an event; then says the output closed. A line longer than
/// one message may be (the core's [`Limits::max_input_bytes`]) is not read on: the output is
/// taken as closed, with why.
fn read_lines(output: impl Read, tx: &Sender<Received>) {
    let max = Limits::DEFAULT.max_input_bytes();
    // The message, its line break (CR LF at most) and one byte more, to see it is too long.
    let cap = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(3);
    let mut reader = BufReader::new(output);
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut reader).take(cap).read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(n) if u64::try_from(n).unwrap_or(u64::MAX) >= cap && line.last() != Some(&b'\n') => {
                let _ = tx.send(Received::Closed(format!(
                    "the server wrote a line longer than {max} bytes; its output is not read on"
                )));
                return;
            }
            Ok(_) => {
                while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    line.pop();
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let event = Event::read(line.clone(), &Limits::DEFAULT);
                if tx.send(Received::Event(event)).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = tx.send(Received::Closed(format!(
                    "reading the server's output: {e}"
                )));
                return;
            }
        }
    }
    let _ = tx.send(Received::Closed(String::from(
        "the server closed its output (it exited or crashed)",
    )));
}

impl Transport for StdioServer {
    fn send(&mut self, message: &Outgoing) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| String::from("the server's input is closed"))?;
        stdin
            .write_all(message.text().as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("the server stopped reading: {e}"))
    }

    fn receive(&mut self, wait_for: Duration) -> Received {
        wait(&self.inbox, wait_for)
    }

    fn close(&mut self) {
        // Closing its input asks the server to end; then it is stopped by its process id.
        self.stdin = None;
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(25));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_cap_closes_the_output() {
        let max = Limits::DEFAULT.max_input_bytes();
        let mut output = b"{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\r\n".to_vec();
        output.extend(std::iter::repeat_n(b'x', max + 10));
        output.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":2}\n");
        let (tx, rx) = mpsc::channel();
        read_lines(&output[..], &tx);
        let got: Vec<Received> = rx.try_iter().collect();
        assert!(
            matches!(got[0], Received::Event(Event::Server(_))),
            "{got:?}"
        );
        let [_, Received::Closed(why)] = &got[..] else {
            panic!("{got:?}")
        };
        assert!(why.contains(&format!("longer than {max} bytes")), "{why}");
        // Exactly the cap, with its line break, is a line like any other.
        let mut output = vec![b'x'; max];
        output.extend_from_slice(b"\r\n");
        let (tx, rx) = mpsc::channel();
        read_lines(&output[..], &tx);
        let got: Vec<Received> = rx.try_iter().collect();
        let [Received::Event(Event::Garbage(line)), Received::Closed(why)] = &got[..] else {
            panic!("{got:?}")
        };
        assert_eq!(line.len(), max);
        assert!(why.contains("closed its output"), "{why}");
    }
}
