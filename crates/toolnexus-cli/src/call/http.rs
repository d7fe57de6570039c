//! Streamable HTTP, as the specification and the official SDKs' clients use it.
//!
//! - Each message is a POST with the headers its [`Outgoing`] names (protocol version,
//!   `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), the session's id and the user's headers.
//! - Messages are sent in order: a notification or a response is acknowledged by the server
//!   before `send` returns, so nothing sent later can overtake it. A request is answered by
//!   one JSON body or an event stream, read on a thread of its own so that the server can ask
//!   while a call is open.
//! - Every event stream keeps its last event id and `retry` delay. A stream that ends before
//!   the response to its request is resumed with a GET carrying `Last-Event-ID`, after the
//!   delay; a stream without ids cannot be resumed, and its request gets an error.
//! - In the handshake era, once `notifications/initialized` is acknowledged, a GET opens the
//!   server's own event stream (a `405` means it offers none), where a server sends requests
//!   not tied to a call; nothing more is sent until the server has answered that GET, so
//!   nothing it sends there is lost. It is reopened, with `Last-Event-ID`, when it drops.
//! - Every stream's messages go into one inbox, in the order they arrive.
//! - With an [`Authorizer`], a request the server refuses for want of authorization (`401`, or
//!   `403` with `insufficient_scope`) is handed to the inbox as a [`RefusedRequest`]; once
//!   [`Transport::authorize`] has the token, the request is sent again, and every request from
//!   then on carries `Authorization` (unless a `--header` gives its own, which turns the
//!   authorizer off).
//! - A `DPoP` token (RFC 9449) goes with a fresh proof on every request (POST, GET, DELETE),
//!   carrying the last `DPoP-Nonce` the server sent; a `401` with
//!   `error="use_dpop_nonce"` and a `DPoP-Nonce` sends the same request again, once, with
//!   the nonce, and asks for no new authorization.
//! - What the server cannot move: an event or a line of a stream is at most the core's
//!   [`Limits::max_input_bytes`] (past it the stream is dropped and the request gets an error),
//!   a `retry` delay is clamped ([`super::sse::MIN_RETRY`]..=[`super::sse::MAX_RETRY`]), and a
//!   stream is resumed or reopened at most [`MAX_RESUMPTIONS`] times.
//! - Redirects are followed by this client, not the HTTP library: a `307` or `308` to the same
//!   origin (scheme, host and port) is followed (a GET follows any same-origin redirect), at
//!   most [`MAX_REDIRECTS`] in a row; a redirect to another origin is refused with an error,
//!   so that no header of the request (the user's `--header`s, `Mcp-Session-Id`, the
//!   `Mcp-Param-*` headers, `Authorization`, `DPoP`) ever reaches it.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use toolnexus_auth::Grant;
use toolnexus_core::Limits;
use toolnexus_core::id::now_ms;
use toolnexus_core::wire::client::{INITIALIZED_METHOD, Outgoing, PROTOCOL_VERSION_HEADER, Reply};
use toolnexus_core::wire::rpc::{ErrorCode, ErrorResponse, RpcId};

use super::sse::{Cursor, read_events};
use super::transport::{Event, Inbox, Received, RefusedRequest, Transport, wait};
use crate::auth::Authorizer;
use crate::auth::fetch::IDLE_REUSE;
use crate::report::Failure;
use crate::{note, warning};

/// How long to wait before reconnecting a stream whose server named no `retry` delay.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);

/// How many reconnections in a row may bring nothing before a stream is given up.
const MAX_EMPTY_RECONNECTIONS: usize = 3;

/// How many times one event stream (a request's, or the server's own) is resumed or reopened
/// in all, whatever it brings each time: a server that ends every stream at once cannot keep
/// the client reconnecting.
pub const MAX_RESUMPTIONS: usize = 32;

/// How many same-origin redirects in a row are followed.
pub const MAX_REDIRECTS: usize = 5;

/// How long the first message after the handshake waits for the server's own stream to open.
const STREAM_OPEN_WAIT: Duration = Duration::from_secs(5);

/// The largest body read from a plain (not event-stream) response.
const MAX_BODY: u64 = 8 * 1024 * 1024;

/// What every thread of one server shares. Its `Debug` form names what is held, never the
/// session id, the authorization or the nonce.
#[derive(Default)]
struct Shared {
    /// `Mcp-Session-Id`, when a handshake-era server gave one.
    session: Mutex<Option<String>>,
    /// The protocol version header of the last message, for the GET streams.
    version: Mutex<Option<String>>,
    /// Set when the conversation ends: streams stop reconnecting.
    closing: AtomicBool,
    /// The `Authorization` header every request carries, once the authorizer has one.
    authorization: Mutex<Option<String>>,
    /// The grant behind `authorization` when it is a `DPoP` token: each request is proved.
    dpop: Mutex<Option<Grant>>,
    /// The last `DPoP-Nonce` the server sent, echoed in every proof.
    nonce: Mutex<Option<String>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = |m: &Mutex<Option<String>>| {
            m.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .as_ref()
                .map(|_| "…")
        };
        f.debug_struct("Shared")
            .field("session", &held(&self.session))
            .field("version", &self.version())
            .field("closing", &self.closing())
            .field("authorization", &held(&self.authorization))
            .field(
                "dpop",
                &self
                    .dpop
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .is_some(),
            )
            .field("nonce", &held(&self.nonce))
            .finish()
    }
}

impl Shared {
    fn session(&self) -> Option<String> {
        self.session
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn version(&self) -> Option<String> {
        self.version
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn authorization(&self) -> Option<String> {
        self.authorization
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn closing(&self) -> bool {
        self.closing.load(Ordering::SeqCst)
    }

    /// Holds `authorization` from now on, with `dpop`, the grant behind it when it is a
    /// `DPoP` token.
    fn hold(&self, authorization: Option<String>, dpop: Option<Grant>) {
        *self
            .authorization
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = authorization;
        *self.dpop.lock().unwrap_or_else(PoisonError::into_inner) = dpop;
    }

    /// The `DPoP` header of a `method` request to `url`, when a `DPoP` token is held: a proof
    /// with a fresh `jti` and the server's last nonce. A proof that cannot be made is said,
    /// and the request goes without it.
    fn proof(&self, method: &str, url: &str) -> Option<String> {
        let grant = self
            .dpop
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()?;
        let nonce = self
            .nonce
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let mut jti = [0_u8; 16];
        let made = getrandom::fill(&mut jti)
            .map_err(|e| format!("no randomness for a DPoP proof: {e}"))
            .and_then(|()| {
                grant
                    .proof(method, url, now_ms(), &jti, nonce.as_deref())
                    .map_err(|e| e.to_string())
            });
        match made {
            Ok(proof) => proof,
            Err(why) => {
                warning!("the request goes without a DPoP proof: {why}");
                None
            }
        }
    }

    /// Keeps the `DPoP-Nonce` a response sends, when it is one a proof may carry.
    fn note_nonce(&self, response: &ureq::http::Response<ureq::Body>) {
        if let Some(nonce) = response
            .headers()
            .get("dpop-nonce")
            .and_then(|v| v.to_str().ok())
            .filter(|n| toolnexus_auth::check_nonce(n).is_ok())
        {
            *self.nonce.lock().unwrap_or_else(PoisonError::into_inner) = Some(String::from(nonce));
        }
    }

    /// Keeps the session id a response assigns, and its `DPoP-Nonce`.
    fn note_session(&self, response: &ureq::http::Response<ureq::Body>) {
        self.note_nonce(response);
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            *self.session.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(String::from(session));
        }
    }
}

/// One server's endpoint, and how to reach it: what every thread needs to make a request.
#[derive(Clone)]
struct Endpoint {
    url: String,
    /// The user's `--header`s, on every request.
    headers: Vec<(String, String)>,
    agent: ureq::Agent,
    shared: Arc<Shared>,
    tx: Sender<Received>,
    /// How long the server may take to take a notification or a response.
    patience: Duration,
    /// Whether a refusal for want of authorization goes to the authorizer.
    authorizes: bool,
}

/// A server at an HTTP(S) URL.
pub struct HttpServer {
    endpoint: Endpoint,
    inbox: Receiver<Received>,
    /// Whether the server's own event stream was opened.
    listening: bool,
    /// Gets the authorizations the server asks for, when set.
    authorizer: Option<Authorizer>,
}

impl HttpServer {
    /// A server at `url`; `headers` (`Name: value`) go on every request; the server may take
    /// up to `patience` to take each notification or response.
    pub fn new(url: &str, headers: &[String], patience: Duration) -> Result<HttpServer, String> {
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
            // Redirects are this client's to follow (see the module): none leaves the origin.
            .max_redirects(0)
            // A connection idle this long is not reused: servers close idle ones after a few
            // seconds (Node.js and uvicorn after 5), and a request sent on one they are
            // closing is lost to a reset, as after a sign-in that took a while.
            .max_idle_age(IDLE_REUSE)
            .build()
            .into();
        let (tx, inbox): Inbox = mpsc::channel();
        Ok(HttpServer {
            endpoint: Endpoint {
                url: String::from(url),
                headers,
                agent,
                shared: Arc::default(),
                tx,
                patience,
                authorizes: false,
            },
            inbox,
            listening: false,
            authorizer: None,
        })
    }

    /// The same server, whose refusals for want of authorization `authorizer` answers; a
    /// grant it holds already is sent from the first request on. Without effect when a
    /// `--header` sets `Authorization`: the user's own credentials are sent as they are.
    pub fn authorized_by(mut self, authorizer: Authorizer) -> HttpServer {
        let own = self
            .endpoint
            .headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("authorization"));
        if own {
            return self;
        }
        self.endpoint.shared.hold(
            authorizer.header().map(String::from),
            authorizer.dpop_grant().cloned(),
        );
        self.endpoint.authorizes = true;
        self.authorizer = Some(authorizer);
        self
    }
}

impl Transport for HttpServer {
    fn send(&mut self, message: &Outgoing) -> Result<(), String> {
        let endpoint = &self.endpoint;
        if let Some((_, version)) = message
            .headers()
            .iter()
            .find(|(name, _)| name == PROTOCOL_VERSION_HEADER)
        {
            *endpoint
                .shared
                .version
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(version.clone());
        }
        let authorization = endpoint.shared.authorization();
        let request = endpoint.post(message, authorization.as_deref());
        let body = String::from(message.text());
        if let Some(id) = message.id().cloned() {
            let endpoint = endpoint.clone();
            let sent = Sent {
                message: message.clone(),
                authorization,
                with_nonce: false,
                url: endpoint.url.clone(),
                redirects: 0,
            };
            thread::spawn(move || endpoint.exchange(request, body, &id, sent));
            return Ok(());
        }
        endpoint.deliver(request, body, message, authorization.as_deref())?;
        if message.method() == Some(INITIALIZED_METHOD) && !self.listening {
            self.listening = true;
            let endpoint = endpoint.clone();
            let (opened, open) = mpsc::channel();
            thread::spawn(move || endpoint.listen(&opened));
            // What the server sends on its stream is lost while the stream is not open (a
            // server built with the TypeScript SDK drops it): the next message waits until
            // the server has answered the GET, or a little while.
            let _ = open.recv_timeout(STREAM_OPEN_WAIT);
        }
        Ok(())
    }

    fn receive(&mut self, wait_for: Duration) -> Received {
        wait(&self.inbox, wait_for)
    }

    fn close(&mut self) {
        let shared = &self.endpoint.shared;
        shared.closing.store(true, Ordering::SeqCst);
        let session = shared
            .session
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(session) = session {
            // A handshake-era session is ended by deleting it; a server may refuse, which is
            // fine, or not answer, which is waited for no longer than any message.
            let mut request = self
                .endpoint
                .agent
                .delete(&self.endpoint.url)
                .config()
                .timeout_global(Some(self.endpoint.patience))
                .build()
                .header("Mcp-Session-Id", &session);
            if let Some(version) = shared.version() {
                request = request.header(PROTOCOL_VERSION_HEADER, &version);
            }
            if let Some(authorization) = shared.authorization() {
                request = request.header("Authorization", &authorization);
            }
            if let Some(proof) = shared.proof("DELETE", &self.endpoint.url) {
                request = request.header("DPoP", &proof);
            }
            for (name, value) in &self.endpoint.headers {
                request = request.header(name, value);
            }
            let _ = request.call();
        }
    }

    fn mirrors_headers(&self) -> bool {
        true
    }

    fn reachable_again(&self) -> bool {
        true
    }

    fn answers_every_request(&self) -> bool {
        true
    }

    fn keep_session(&mut self) -> Option<String> {
        self.endpoint
            .shared
            .session
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    fn join_session(&mut self, id: &str) -> Result<(), Failure> {
        *self
            .endpoint
            .shared
            .session
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(String::from(id));
        Ok(())
    }

    fn authorize(&mut self, challenge: RefusedRequest) -> Result<(), Failure> {
        let Some(authorizer) = &mut self.authorizer else {
            return Err(Failure::server(format!(
                "the server answered HTTP {}: it needs an authorization",
                challenge.status
            )));
        };
        let header = authorizer.authorize(
            challenge.status,
            challenge.www_authenticate.as_deref(),
            challenge.authorization.as_deref(),
        )?;
        let dpop = authorizer.dpop_grant().cloned();
        self.endpoint.shared.hold(Some(header), dpop);
        self.send(&challenge.message).map_err(Failure::server)
    }
}

/// A request as it was sent, to send again once authorized.
struct Sent {
    message: Outgoing,
    /// The `Authorization` header it carried.
    authorization: Option<String>,
    /// Whether it was sent again with the server's `DPoP-Nonce` already.
    with_nonce: bool,
    /// Where it was sent: the endpoint, or where a same-origin redirect led.
    url: String,
    /// How many redirects led there.
    redirects: usize,
}

impl Endpoint {
    /// The POST of `message`, with every header it needs, `authorization` among them.
    fn post(
        &self,
        message: &Outgoing,
        authorization: Option<&str>,
    ) -> ureq::RequestBuilder<ureq::typestate::WithBody> {
        self.post_to(&self.url, message, authorization)
    }

    /// [`Endpoint::post`] to `url`: the endpoint, or where a same-origin redirect led.
    fn post_to(
        &self,
        url: &str,
        message: &Outgoing,
        authorization: Option<&str>,
    ) -> ureq::RequestBuilder<ureq::typestate::WithBody> {
        let mut request = self
            .agent
            .post(url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        for (name, value) in message.headers() {
            request = request.header(name, value);
        }
        if let Some(session) = self.shared.session() {
            request = request.header("Mcp-Session-Id", &session);
        }
        if let Some(authorization) = authorization {
            request = request.header("Authorization", authorization);
            if let Some(proof) = self.shared.proof("POST", url) {
                request = request.header("DPoP", &proof);
            }
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        request
    }

    /// A GET of an event stream: the server's own, or the rest of a request's after `last_id`.
    /// Same-origin redirects are followed; one to another origin is an error.
    fn get(&self, last_id: Option<&str>) -> Result<ureq::http::Response<ureq::Body>, String> {
        let mut url = self.url.clone();
        for _ in 0..=MAX_REDIRECTS {
            let response = self.get_at(&url, last_id).map_err(|e| e.to_string())?;
            match redirect(&url, &response, true) {
                Redirect::None => return Ok(response),
                Redirect::Follow(to) => url = to,
                Redirect::Refused(why) => return Err(why),
            }
        }
        Err(too_many_redirects())
    }

    fn get_at(
        &self,
        url: &str,
        last_id: Option<&str>,
    ) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        let mut request = self.agent.get(url).header("Accept", "text/event-stream");
        if let Some(session) = self.shared.session() {
            request = request.header("Mcp-Session-Id", &session);
        }
        if let Some(version) = self.shared.version() {
            request = request.header(PROTOCOL_VERSION_HEADER, &version);
        }
        if let Some(id) = last_id {
            request = request.header("Last-Event-ID", id);
        }
        if let Some(authorization) = self.shared.authorization() {
            request = request.header("Authorization", &authorization);
            if let Some(proof) = self.shared.proof("GET", url) {
                request = request.header("DPoP", &proof);
            }
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        let response = request.call();
        if let Ok(response) = &response {
            self.shared.note_nonce(response);
        }
        response
    }

    fn event(&self, event: Event) -> bool {
        self.tx.send(Received::Event(event)).is_ok()
    }

    /// Sends a notification or a response and waits for the server to take it. A refusal is
    /// said on standard error; a JSON-RPC body that comes back goes to the inbox.
    fn deliver(
        &self,
        request: ureq::RequestBuilder<ureq::typestate::WithBody>,
        body: String,
        message: &Outgoing,
        authorization: Option<&str>,
    ) -> Result<(), String> {
        let send = |request: ureq::RequestBuilder<ureq::typestate::WithBody>| {
            request
                .config()
                .timeout_global(Some(self.patience))
                .build()
                .send(body.clone())
                .map_err(|e| format!("the server did not take a message: {e}"))
        };
        let mut url = self.url.clone();
        let mut response = send(request)?;
        for _ in 0..MAX_REDIRECTS {
            match redirect(&url, &response, false) {
                Redirect::None => break,
                Redirect::Follow(to) => {
                    let _ = read_body(response);
                    response = send(self.post_to(&to, message, authorization))?;
                    url = to;
                }
                Redirect::Refused(why) => return Err(why),
            }
        }
        if redirect(&url, &response, false) != Redirect::None {
            return Err(too_many_redirects());
        }
        self.shared.note_session(&response);
        if nonce_retry(&response, authorization.is_some(), false) {
            let _ = read_body(response);
            response = send(self.post_to(&url, message, authorization))?;
            self.shared.note_session(&response);
        }
        let status = response.status().as_u16();
        let body = read_body(response);
        match Event::read(body, &Limits::DEFAULT) {
            Event::Garbage(body) if status >= 300 => note!(
                "the server refused a message with HTTP {status}: {}",
                shown(&body)
            ),
            Event::Garbage(_) => {}
            event => {
                self.event(event);
            }
        }
        Ok(())
    }

    /// Sends the request `id` and delivers what answers it: one JSON body, or the messages of
    /// its event stream, resumed when it breaks. A refusal for want of authorization goes to
    /// the inbox as a [`RefusedRequest`] with what was `sent`, when this endpoint authorizes.
    fn exchange(
        &self,
        request: ureq::RequestBuilder<ureq::typestate::WithBody>,
        body: String,
        id: &RpcId,
        sent: Sent,
    ) {
        let response = match request.send(body.clone()) {
            Ok(response) => response,
            Err(e) => {
                let _ = self
                    .tx
                    .send(Received::Closed(format!("the request failed: {e}")));
                return;
            }
        };
        match redirect(&sent.url, &response, false) {
            Redirect::None => {}
            Redirect::Follow(_) if sent.redirects >= MAX_REDIRECTS => {
                self.event(error_for(id, too_many_redirects()));
                return;
            }
            Redirect::Follow(to) => {
                let _ = read_body(response);
                let again = self.post_to(&to, &sent.message, sent.authorization.as_deref());
                let sent = Sent {
                    url: to,
                    redirects: sent.redirects + 1,
                    ..sent
                };
                self.exchange(again, body, id, sent);
                return;
            }
            Redirect::Refused(why) => {
                self.event(error_for(id, why));
                return;
            }
        }
        self.shared.note_session(&response);
        let status = response.status().as_u16();
        if nonce_retry(&response, sent.authorization.is_some(), sent.with_nonce) {
            // The server wants its DPoP nonce in the proof: the same request again, once.
            let _ = read_body(response);
            let again = self.post_to(&sent.url, &sent.message, sent.authorization.as_deref());
            let sent = Sent {
                with_nonce: true,
                ..sent
            };
            self.exchange(again, body, id, sent);
            return;
        }
        if self.authorizes
            && let Some(www_authenticate) = challenged(&response)
        {
            let _ = read_body(response);
            let challenge = RefusedRequest {
                status,
                www_authenticate,
                message: sent.message,
                authorization: sent.authorization,
            };
            let _ = self.tx.send(Received::Unauthorized(Box::new(challenge)));
            return;
        }
        if is_event_stream(&response) {
            self.follow(response.into_body().into_reader(), id);
            return;
        }
        let body = read_body(response);
        if status == 202 || (body.iter().all(u8::is_ascii_whitespace) && status < 300) {
            return;
        }
        match Event::read(body, &Limits::DEFAULT) {
            // An HTTP error without a JSON-RPC body answers the request as an error.
            Event::Garbage(body) => {
                self.event(error_for(
                    id,
                    format!("HTTP {status}: {}", shown(&body).trim()),
                ));
            }
            // The body of this POST answers this request, even when its id is `null` (a
            // server that refused the request before reading it).
            Event::Response { id: None, reply } => {
                self.event(Event::Response {
                    id: Some(id.clone()),
                    reply,
                });
            }
            event => {
                self.event(event);
            }
        }
    }

    /// Delivers the messages of the event stream answering `id`, resuming it with
    /// `Last-Event-ID` until the response comes. A stream that cannot be resumed (no event
    /// id, a refused GET, too many empty attempts) answers the request with an error.
    fn follow(&self, first: impl Read + 'static, id: &RpcId) {
        let mut reader: Box<dyn Read> = Box::new(first);
        let mut cursor = Cursor::default();
        let mut empty = 0;
        let mut resumed = 0;
        loop {
            let fields = cursor.fields;
            let mut answered = false;
            // Reading stops at the response: a resumed stream may stay open after it.
            let read = read_events(reader, &mut cursor, max_event(), |data| {
                let event = Event::read(data, &Limits::DEFAULT);
                answered |= event.answers(id);
                self.event(event) && !answered
            });
            if answered || self.shared.closing() {
                return;
            }
            if let Err(too_large) = read {
                self.event(error_for(id, too_large.to_string()));
                return;
            }
            empty = if cursor.fields > fields { 0 } else { empty + 1 };
            let Some(last_id) = cursor.last_id.clone() else {
                self.event(error_for(
                    id,
                    String::from(
                        "the server's event stream ended before the response, and without an \
                         event id it cannot be resumed",
                    ),
                ));
                return;
            };
            if empty > MAX_EMPTY_RECONNECTIONS {
                self.event(error_for(
                    id,
                    format!("the server's event stream ended {empty} times without the response"),
                ));
                return;
            }
            if resumed >= MAX_RESUMPTIONS {
                self.event(error_for(
                    id,
                    format!(
                        "the server's event stream ended {} times without the response; it is \
                         not resumed again",
                        resumed + 1
                    ),
                ));
                return;
            }
            resumed += 1;
            thread::sleep(cursor.retry.unwrap_or(DEFAULT_RETRY));
            match self.get(Some(&last_id)) {
                Ok(response) if response.status().as_u16() == 200 && is_event_stream(&response) => {
                    reader = Box::new(response.into_body().into_reader());
                }
                Ok(response) => {
                    let status = response.status().as_u16();
                    self.event(error_for(
                        id,
                        format!(
                            "the server's event stream ended before the response, and resuming \
                             it after event {last_id:?} got HTTP {status}"
                        ),
                    ));
                    return;
                }
                Err(e) => {
                    self.event(error_for(
                        id,
                        format!("resuming the server's event stream failed: {e}"),
                    ));
                    return;
                }
            }
        }
    }

    /// The server's own event stream (handshake era): opened, read into the inbox, and
    /// reopened when it drops, until the conversation ends. `405` means the server offers
    /// none. `opened` hears each time the server has answered a GET.
    fn listen(&self, opened: &Sender<()>) {
        let mut cursor = Cursor::default();
        let mut empty = 0;
        let mut opened_times = 0;
        let mut with_nonce = false;
        while !self.shared.closing() {
            if opened_times > MAX_RESUMPTIONS {
                warning!(
                    "the server's event stream was reopened {MAX_RESUMPTIONS} times; it is not \
                     reopened again"
                );
                return;
            }
            opened_times += 1;
            let response = self.get(cursor.last_id.as_deref());
            let _ = opened.send(());
            let response = match response {
                Ok(response) => response,
                Err(e) => {
                    warning!("the server's event stream could not be opened: {e}");
                    return;
                }
            };
            let status = response.status().as_u16();
            if status == 405 {
                return;
            }
            if nonce_retry(&response, self.shared.authorization().is_some(), with_nonce) {
                // Opened again at once, the proof carrying the nonce just kept.
                with_nonce = true;
                let _ = read_body(response);
                continue;
            }
            if status != 200 || !is_event_stream(&response) {
                warning!(
                    "the server's event stream was refused (HTTP {status}); requests \
                     it makes outside a call cannot arrive"
                );
                return;
            }
            let fields = cursor.fields;
            let read = read_events(
                response.into_body().into_reader(),
                &mut cursor,
                max_event(),
                |data| self.event(Event::read(data, &Limits::DEFAULT)),
            );
            if let Err(too_large) = read {
                warning!("{too_large}");
                return;
            }
            empty = if cursor.fields > fields { 0 } else { empty + 1 };
            if self.shared.closing() {
                return;
            }
            if empty > MAX_EMPTY_RECONNECTIONS {
                note!(
                    "the server's event stream closed {empty} times without a word; \
                     it is not reopened"
                );
                return;
            }
            thread::sleep(cursor.retry.unwrap_or(DEFAULT_RETRY));
        }
    }
}

/// The largest event (and line) of an event stream: what one JSON-RPC message may be.
fn max_event() -> usize {
    Limits::DEFAULT.max_input_bytes()
}

/// What a response says about where the request should go instead.
#[derive(Debug, PartialEq, Eq)]
enum Redirect {
    /// No redirect: the response is the answer.
    None,
    /// A same-origin redirect the request follows, to this URL.
    Follow(String),
    /// A redirect that is not followed, and why.
    Refused(String),
}

/// Where the redirect `response` to a request to `url` leads: a `307` or `308` to the same
/// origin is followed (for a GET, any redirect to the same origin), one to another origin is
/// refused, as is a same-origin `301`, `302` or `303` of a POST (it would turn into a GET).
fn redirect(url: &str, response: &ureq::http::Response<ureq::Body>, get: bool) -> Redirect {
    let status = response.status().as_u16();
    if !matches!(status, 301 | 302 | 303 | 307 | 308) {
        return Redirect::None;
    }
    let Some(location) = response
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
    else {
        return Redirect::None;
    };
    let Some(to) = resolve(url, location) else {
        return Redirect::Refused(format!(
            "the server redirected the request (HTTP {status}) to a URL that cannot be read; it \
             is not followed"
        ));
    };
    let (from, there) = (origin(url), origin(&to));
    if from.is_none() || from != there {
        let shown: String = there
            .map(|(scheme, host, port)| format!("{scheme}://{host}:{port}"))
            .unwrap_or_default()
            .chars()
            .filter(|c| !c.is_control())
            .take(80)
            .collect();
        return Redirect::Refused(format!(
            "the server redirected the request (HTTP {status}) to another origin ({shown}); it \
             is not followed, so that none of its headers reaches another origin"
        ));
    }
    if get || matches!(status, 307 | 308) {
        Redirect::Follow(to)
    } else {
        Redirect::Refused(format!(
            "the server redirected a POST with HTTP {status}, which would make it a GET; it is \
             not followed"
        ))
    }
}

/// `location` read against `base`: an absolute URL, or a reference relative to `base`.
fn resolve(base: &str, location: &str) -> Option<String> {
    let location = location.trim();
    if location.chars().any(char::is_control) {
        return None;
    }
    let has_scheme = location.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            && !scheme.contains('/')
    });
    let base_uri: ureq::http::Uri = base.parse().ok()?;
    let scheme = base_uri.scheme_str()?;
    let authority = base_uri.authority()?.as_str();
    let to = if has_scheme {
        String::from(location)
    } else if location.starts_with("//") {
        format!("{scheme}:{location}")
    } else if location.starts_with('/') {
        format!("{scheme}://{authority}{location}")
    } else {
        let path = base_uri.path();
        let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        format!("{scheme}://{authority}{dir}/{location}")
    };
    to.parse::<ureq::http::Uri>().ok().map(|_| to)
}

/// The origin of an absolute URL: its scheme, host and port (the scheme's own when none is
/// written), lowercased.
fn origin(url: &str) -> Option<(String, String, u16)> {
    let uri: ureq::http::Uri = url.parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let host = uri.host()?.to_ascii_lowercase();
    let port = uri.port_u16().or(match scheme.as_str() {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    })?;
    Some((scheme, host, port))
}

fn too_many_redirects() -> String {
    format!("the server redirected the request more than {MAX_REDIRECTS} times; given up")
}

/// The `WWW-Authenticate` header (its values joined) of a response that asks for an
/// authorization: a `401`, or a `403` whose challenge is `insufficient_scope`.
fn challenged(response: &ureq::http::Response<ureq::Body>) -> Option<Option<String>> {
    let status = response.status().as_u16();
    if status != 401 && status != 403 {
        return None;
    }
    let values: Vec<&str> = response
        .headers()
        .get_all("www-authenticate")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let header = (!values.is_empty()).then(|| values.join(", "));
    let asks = status == 401
        || toolnexus_auth::parse_challenge(status, header.as_deref()).is_insufficient_scope();
    asks.then_some(header)
}

/// Whether a response asks for the request again with a DPoP nonce (RFC 9449 §9): a `401`
/// whose challenge says `error="use_dpop_nonce"`, with a usable `DPoP-Nonce` header (kept
/// already). A nonce that is huge or not printable is not echoed: the refusal stands.
/// Whether to send a request again, once, for the DPoP nonce `response` asks for (RFC 9449
/// §9): the flow's policy decides ([`toolnexus_auth::Refusal::nonce_retry`]) from the refusal,
/// whether the request carried an authorization and whether it was sent again already.
fn nonce_retry(
    response: &ureq::http::Response<ureq::Body>,
    authorized: bool,
    retried_with_nonce: bool,
) -> bool {
    let values: Vec<&str> = response
        .headers()
        .get_all("www-authenticate")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let nonce = response
        .headers()
        .get("dpop-nonce")
        .and_then(|v| v.to_str().ok());
    let refusal =
        toolnexus_auth::Refusal::read(response.status().as_u16(), Some(&values.join(", ")), nonce);
    refusal
        .nonce_retry(authorized, retried_with_nonce)
        .is_some()
}

fn is_event_stream(response: &ureq::http::Response<ureq::Body>) -> bool {
    response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"))
}

fn read_body(response: ureq::http::Response<ureq::Body>) -> Vec<u8> {
    let mut body = Vec::new();
    let _ = response
        .into_body()
        .into_reader()
        .take(MAX_BODY)
        .read_to_end(&mut body);
    body
}

fn shown(body: &[u8]) -> String {
    String::from_utf8_lossy(body).chars().take(200).collect()
}

/// The error response standing for a failure of the transport to answer the request `id`.
fn error_for(id: &RpcId, message: String) -> Event {
    Event::Response {
        id: Some(id.clone()),
        reply: Reply::Error(ErrorResponse::new(
            Some(id.clone()),
            ErrorCode::InvalidRequest,
            message,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_read_against_the_endpoint() {
        let base = "http://127.0.0.1:8000/mcp";
        assert_eq!(
            resolve(base, "/mcp/").as_deref(),
            Some("http://127.0.0.1:8000/mcp/")
        );
        assert_eq!(
            resolve(base, "other").as_deref(),
            Some("http://127.0.0.1:8000/other")
        );
        assert_eq!(
            resolve(base, "//evil.example/x").as_deref(),
            Some("http://evil.example/x")
        );
        assert_eq!(
            resolve(base, "HTTPS://Evil.example:444/x").as_deref(),
            Some("HTTPS://Evil.example:444/x")
        );
        assert_eq!(resolve(base, "/a\r\nSet-Cookie: x"), None);
    }

    #[test]
    fn origins_are_scheme_host_and_port() {
        let here = origin("http://127.0.0.1:8000/mcp");
        assert_eq!(here, origin("HTTP://127.0.0.1:8000/other"));
        assert_ne!(here, origin("http://127.0.0.1:8001/mcp"));
        assert_ne!(here, origin("https://127.0.0.1:8000/mcp"));
        assert_ne!(here, origin("http://localhost:8000/mcp"));
        assert_eq!(origin("http://a.example/"), origin("http://a.example:80/x"));
        assert_eq!(
            origin("https://a.example/"),
            origin("https://A.example:443")
        );
        assert_eq!(origin("/relative"), None);
    }

    #[test]
    fn the_shared_state_never_shows_its_secrets() {
        let shared = Shared::default();
        shared.hold(Some(String::from("Bearer sekrit-token-1")), None);
        *shared.session.lock().unwrap() = Some(String::from("session-sekrit-2"));
        *shared.nonce.lock().unwrap() = Some(String::from("nonce-sekrit-3"));
        let shown = format!("{shared:?} {shared:#?}");
        for secret in ["sekrit-token-1", "session-sekrit-2", "nonce-sekrit-3"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(shown.contains("authorization: Some("), "{shown}");
        assert!(format!("{:?}", Shared::default()).contains("authorization: None"));
    }
}
