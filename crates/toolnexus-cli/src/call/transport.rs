//! How messages reach a live server: a child process over stdio, or streamable HTTP. Each
//! transport sends one JSON-RPC text at a time and delivers what the server writes, message by
//! message, through one channel, so the conversation waits in one place with one timeout.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

/// What the server did next.
#[derive(Debug)]
pub enum Received {
    /// One message, as the bytes of one line (stdio) or one event or body (HTTP).
    Message(Vec<u8>),
    /// Nothing within the time given.
    Timeout,
    /// The server is gone: the process ended or closed its output, or a request failed. Says
    /// why.
    Closed(String),
}

/// A way to talk to a server.
pub trait Transport {
    /// Sends one message.
    fn send(&mut self, message: &str) -> Result<(), String>;

    /// The next thing the server does, waiting at most `wait`.
    fn receive(&mut self, wait: Duration) -> Received;

    /// Ends the conversation: the server is stopped.
    fn close(&mut self);
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
        let mut child = Command::new(program)
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

/// Sends each line of `output` as a message; then says the output closed.
fn read_lines(output: impl Read, tx: &Sender<Received>) {
    let mut reader = BufReader::new(output);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {
                while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    line.pop();
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                if tx.send(Received::Message(line.clone())).is_err() {
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
    fn send(&mut self, message: &str) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| String::from("the server's input is closed"))?;
        stdin
            .write_all(message.as_bytes())
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
