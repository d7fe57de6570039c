//! The loopback listener an authorization comes back to: bound on `127.0.0.1` at a port the
//! system picks, for one authorization, it answers the browser's `GET /callback` with a page
//! saying the window can be closed and hands back the query that carries the outcome.
//!
//! Anything else that reaches it (a `favicon.ico`, another path, another method) gets a
//! `404` and the wait goes on; so does a callback whose `state` is not this authorization's
//! (a `400`, and a note that it came): only the browser the person signed in with can end
//! the wait. Each connection has a few seconds to send its request, and none can hold the
//! listener past its deadline. The query is never written anywhere: it holds the
//! authorization code.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use crate::note;

/// The path the authorization server redirects to.
pub const CALLBACK_PATH: &str = "/callback";

/// The most bytes read of a request's line and headers.
const MAX_HEAD: usize = 16 * 1024;

/// How long one connection may take to send its request, in all.
const READ_WAIT: Duration = Duration::from_secs(5);

/// How often the wait looks for a connection, and asks whether to go on.
const POLL: Duration = Duration::from_millis(20);

/// The page the browser shows once the authorization came back.
const DONE_PAGE: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>toolnexus</title></head><body><p>toolnexus has the answer of the authorization \
server. You can close this window and go back to the terminal.</p></body></html>\n";

/// A listener for one authorization's redirect.
#[derive(Debug)]
pub struct Listener {
    socket: TcpListener,
    redirect_uri: String,
}

impl Listener {
    /// Binds `127.0.0.1` at a free port.
    pub fn bind() -> io::Result<Listener> {
        let socket = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))?;
        let port = socket.local_addr()?.port();
        socket.set_nonblocking(true)?;
        Ok(Listener {
            socket,
            redirect_uri: format!("http://127.0.0.1:{port}{CALLBACK_PATH}"),
        })
    }

    /// Where the authorization server sends the browser back: `http://127.0.0.1:PORT/callback`.
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// Waits for the `GET /callback` whose `state` is `state` and returns its query (without
    /// the `?`), then stops listening. A callback with another `state`, or none, is answered
    /// `400`, said on standard error, and the wait goes on. `go_on` is asked between
    /// connections: an error from it ends the wait with that error. No callback within
    /// `patience` is an error too, whatever connections come meanwhile.
    pub fn wait(
        self,
        patience: Duration,
        state: &str,
        mut go_on: impl FnMut() -> Result<(), String>,
    ) -> Result<String, String> {
        let deadline = Instant::now() + patience;
        loop {
            match self.socket.accept() {
                Ok((stream, _)) => match serve(stream, state, deadline) {
                    Served::Callback(query) => return Ok(query),
                    Served::OtherState => note!(
                        "a sign-in that is not this one came back to {}; still waiting",
                        self.redirect_uri
                    ),
                    Served::Other => {}
                },
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    go_on()?;
                    if Instant::now() >= deadline {
                        return Err(format!(
                            "the authorization did not come back to {} within {} minutes",
                            self.redirect_uri,
                            patience.as_secs() / 60
                        ));
                    }
                    thread::sleep(POLL);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(format!(
                        "the listener at {} stopped: {e}",
                        self.redirect_uri
                    ));
                }
            }
        }
    }
}

/// What one connection was.
enum Served {
    /// The callback of this authorization: its query.
    Callback(String),
    /// A callback of another authorization, or of none (its `state` differs or is missing).
    OtherState,
    /// Anything else, or a request that could not be read in time.
    Other,
}

/// Reads one request and answers it: the closing page for the callback of this
/// authorization, `400` for a callback with another `state`, `404` for anything else,
/// nothing for a request not read within [`READ_WAIT`] or by `deadline`.
fn serve(mut stream: TcpStream, state: &str, deadline: Instant) -> Served {
    let until = deadline.min(Instant::now() + READ_WAIT);
    // An accepted socket may inherit the listener's non-blocking mode.
    if stream.set_nonblocking(false).is_err() {
        return Served::Other;
    }
    let Some(head) = read_head(&mut stream, until) else {
        return Served::Other;
    };
    let (served, answer) = match callback_query(&head) {
        Some(query) if state_of(&query).as_deref() == Some(state) => (
            Served::Callback(query),
            response("200 OK", "text/html; charset=utf-8", DONE_PAGE),
        ),
        Some(_) => (
            Served::OtherState,
            response("400 Bad Request", "text/plain; charset=utf-8", OTHER_STATE),
        ),
        None => (
            Served::Other,
            response("404 Not Found", "text/plain; charset=utf-8", "Not found\n"),
        ),
    };
    let left = until.saturating_duration_since(Instant::now());
    if stream
        .set_write_timeout(Some(left.max(Duration::from_millis(1))))
        .is_ok()
    {
        let _ = stream.write_all(answer.as_bytes());
        let _ = stream.flush();
    }
    served
}

/// The answer to a callback that is not this authorization's.
const OTHER_STATE: &str = "This is not the sign-in toolnexus is waiting for.\n";

/// The `state` of a callback's query, percent-decoded; `None` without one.
fn state_of(query: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(name, _)| name == "state")
        .map(|(_, value)| value.into_owned())
}

/// The request line and headers, up to the blank line that ends them, read by `until`.
fn read_head(stream: &mut TcpStream, until: Instant) -> Option<Vec<u8>> {
    let mut head = Vec::new();
    let mut chunk = [0_u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() >= MAX_HEAD {
            return None;
        }
        // Each read may wait only for what is left of the connection's time, so a client
        // that sends a byte now and then cannot hold the listener.
        let left = until.checked_duration_since(Instant::now())?;
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .ok()?;
        let read = stream.read(&mut chunk).ok()?;
        if read == 0 {
            break;
        }
        head.extend_from_slice(chunk.get(..read)?);
    }
    Some(head)
}

/// The query of a `GET /callback` request, from its request line.
fn callback_query(head: &[u8]) -> Option<String> {
    let line = head.split(|b| *b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?.trim_end_matches('\r');
    let mut parts = line.split(' ');
    let (method, target) = (parts.next()?, parts.next()?);
    if method != "GET" {
        return None;
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    (path == CALLBACK_PATH).then(|| String::from(query))
}

/// A whole response that closes the connection.
fn response(status: &str, content_type: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n\
         Content-Security-Policy: default-src 'none'\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sends `request` to `port` and reads the whole answer.
    fn send(port: u16, request: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    }

    fn port_of(uri: &str) -> u16 {
        uri.trim_start_matches("http://127.0.0.1:")
            .trim_end_matches(CALLBACK_PATH)
            .parse()
            .unwrap()
    }

    #[test]
    fn the_callback_query_comes_back_after_other_requests_are_refused() {
        let listener = Listener::bind().unwrap();
        let uri = String::from(listener.redirect_uri());
        assert!(uri.starts_with("http://127.0.0.1:"), "{uri}");
        assert!(uri.ends_with("/callback"), "{uri}");
        let port = port_of(&uri);
        let browser = thread::spawn(move || {
            let favicon = send(port, "GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n");
            let posted = send(port, "POST /callback HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
            let done = send(
                port,
                "GET /callback?code=c0de&state=s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            );
            (favicon, posted, done)
        });
        let query = listener
            .wait(Duration::from_secs(30), "s", || Ok(()))
            .unwrap();
        assert_eq!(query, "code=c0de&state=s");
        let (favicon, posted, done) = browser.join().unwrap();
        assert!(favicon.starts_with("HTTP/1.1 404"), "{favicon}");
        assert!(posted.starts_with("HTTP/1.1 404"), "{posted}");
        assert!(done.starts_with("HTTP/1.1 200"), "{done}");
        assert!(done.contains("You can close this window"), "{done}");
        assert!(
            !done.contains("c0de"),
            "the page never repeats the code: {done}"
        );
        // The listener is gone once the callback came.
        assert!(TcpStream::connect(("127.0.0.1", port)).is_err());
    }

    #[test]
    fn a_callback_of_another_sign_in_does_not_end_the_wait() {
        let listener = Listener::bind().unwrap();
        let port = port_of(listener.redirect_uri());
        let browser = thread::spawn(move || {
            let none = send(port, "GET /callback HTTP/1.1\r\n\r\n");
            let other = send(port, "GET /callback?code=evil&state=other HTTP/1.1\r\n\r\n");
            let right = send(port, "GET /callback?code=c0de&state=s%2Bt HTTP/1.1\r\n\r\n");
            (none, other, right)
        });
        assert_eq!(
            listener
                .wait(Duration::from_secs(30), "s+t", || Ok(()))
                .unwrap(),
            "code=c0de&state=s%2Bt"
        );
        let (none, other, right) = browser.join().unwrap();
        assert!(none.starts_with("HTTP/1.1 400"), "{none}");
        assert!(other.starts_with("HTTP/1.1 400"), "{other}");
        assert!(right.starts_with("HTTP/1.1 200"), "{right}");
    }

    #[test]
    fn a_slow_client_cannot_hold_the_listener_past_its_deadline() {
        let listener = Listener::bind().unwrap();
        let port = port_of(listener.redirect_uri());
        let slow = thread::spawn(move || {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            // A byte now and then, never the end of a request.
            for _ in 0..40 {
                if stream.write_all(b"G").is_err() {
                    break;
                }
                thread::sleep(Duration::from_millis(200));
            }
        });
        let started = Instant::now();
        let late = listener
            .wait(Duration::from_millis(1500), "s", || Ok(()))
            .unwrap_err();
        assert!(late.contains("did not come back"), "{late}");
        // The deadline held: not the 5 s a connection may take, nor the 8 s it kept sending.
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
        slow.join().unwrap();
    }

    #[test]
    fn the_wait_ends_when_told_to_or_when_patience_runs_out() {
        let listener = Listener::bind().unwrap();
        let stopped = listener.wait(Duration::from_secs(30), "s", || {
            Err(String::from("the browser command failed"))
        });
        assert_eq!(stopped, Err(String::from("the browser command failed")));
        let listener = Listener::bind().unwrap();
        let late = listener.wait(Duration::ZERO, "s", || Ok(())).unwrap_err();
        assert!(late.contains("did not come back"), "{late}");
    }

    #[test]
    fn only_a_get_of_the_callback_path_is_the_callback() {
        let query = |line: &str| callback_query(format!("{line}\r\n\r\n").as_bytes());
        assert_eq!(
            query("GET /callback?a=1 HTTP/1.1"),
            Some(String::from("a=1"))
        );
        assert_eq!(query("GET /callback HTTP/1.1"), Some(String::new()));
        assert_eq!(query("GET /callbackx?a=1 HTTP/1.1"), None);
        assert_eq!(query("GET /other/callback HTTP/1.1"), None);
        assert_eq!(query("HEAD /callback?a=1 HTTP/1.1"), None);
        assert_eq!(query("garbage"), None);
    }
}
