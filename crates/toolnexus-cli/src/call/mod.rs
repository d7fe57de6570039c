//! `toolnexus call` and `toolnexus tools`: a client of both MCP eras that calls a live
//! server's tool and answers every elicitation it makes on the way.
//!
//! The protocol is the core's (`wire::client` writes and reads the messages and tells the
//! eras apart; `wire::reverse` and `wire::mrtr` carry the elicitations); this module owns the
//! I/O: the transport, the one wait with its timeout, and the person (or the answers).

pub mod http;
pub mod transport;

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use toolnexus_core::id::now_ms;
use toolnexus_core::wire::client::{
    self, Client, Era, HANDSHAKE_VERSIONS, Implementation, MODERN_VERSION, PING_METHOD, Probe,
};
use toolnexus_core::wire::method::CANCELLED;
use toolnexus_core::wire::mrtr::{ClientRequest, InputRound, ServerResult};
use toolnexus_core::wire::reverse::Incoming;
use toolnexus_core::wire::rpc::{ErrorCode, Message, RpcId};
use toolnexus_core::{Limits, Map, Modes, ReverseBridge, Value};

use std::sync::mpsc;
use std::thread;

use std::cell::RefCell;

use toolnexus_core::UrlReview;
use toolnexus_core::form::Form;

use crate::ask::{Ask, Asker, Reply};
use crate::elicit::{answer_one, answer_with, ask_once, session_options};
use crate::report::Failure;
use crate::terminal::{self, Terminal};
use transport::{Received, Transport};

/// How many `input_required` rounds one call may take before the client gives up.
pub const MAX_ROUNDS: usize = 16;

/// How long the `server/discover` probe waits before taking silence for the handshake era.
const PROBE_WAIT: Duration = Duration::from_secs(5);

/// One conversation with a server.
pub struct Conversation<'a> {
    transport: Box<dyn Transport>,
    client: Client,
    limits: Limits,
    /// The server's time left: it runs only while the client waits for the server.
    budget: Duration,
    timeout: Duration,
    server: Option<Implementation>,
    bridge: ReverseBridge,
    asker: &'a mut dyn Asker,
    /// Messages read while a person was answering, to handle next.
    backlog: VecDeque<Vec<u8>>,
    /// Whether every elicitation got an answer from the asker (not a cancel because the
    /// answers ran out).
    answered_all: bool,
    /// Set once a withdrawn form was abandoned: its prompt still reads the terminal.
    terminal_taken: bool,
}

impl<'a> Conversation<'a> {
    /// A conversation over `transport`, whose server has `timeout` in all to answer.
    pub fn new(
        transport: Box<dyn Transport>,
        asker: &'a mut dyn Asker,
        timeout: Duration,
    ) -> Conversation<'a> {
        Conversation {
            transport,
            client: Client::new(
                Implementation::new("toolnexus", env!("CARGO_PKG_VERSION")),
                Modes::ALL,
            ),
            limits: Limits::DEFAULT,
            budget: timeout,
            timeout,
            server: None,
            bridge: ReverseBridge::new(session_options()),
            asker,
            backlog: VecDeque::new(),
            answered_all: true,
            terminal_taken: false,
        }
    }

    /// Whether every elicitation was answered by the asker.
    pub fn answered_all(&self) -> bool {
        self.answered_all
    }

    /// Who the server said it is: `name version`.
    pub fn who(&self) -> Option<String> {
        self.server.as_ref().map(|s| {
            if s.version().is_empty() {
                String::from(s.name())
            } else {
                format!("{} {}", s.name(), s.version())
            }
        })
    }

    /// Meets the server: the version `pin` when given, else the era it speaks (probed with
    /// `server/discover`, falling back to `initialize`).
    pub fn connect(&mut self, pin: Option<&str>) -> Result<(), Failure> {
        if let Some(version) = pin {
            return match Era::of(version) {
                Some(Era::Modern) => {
                    self.client.set_version(version);
                    Ok(())
                }
                Some(Era::Handshake) => self.handshake(version),
                None => Err(Failure::usage(format!(
                    "--protocol {version}: this client speaks {MODERN_VERSION}, {} and {}",
                    HANDSHAKE_VERSIONS[0], HANDSHAKE_VERSIONS[1]
                ))),
            };
        }
        let (id, probe) = self.client.discover();
        self.send(&probe)?;
        match self.probe_answer(&id)? {
            Probe::Modern { versions, server } => {
                self.server = server;
                match client::choose_version(&versions) {
                    Some(MODERN_VERSION) => {
                        self.client.set_version(MODERN_VERSION);
                        Ok(())
                    }
                    Some(old) => self.handshake(old),
                    None => Err(no_mutual_version(&versions)),
                }
            }
            Probe::UnsupportedVersion { supported } => Err(no_mutual_version(&supported)),
            Probe::Handshake => self.handshake(HANDSHAKE_VERSIONS[0]),
        }
    }

    /// The answer to the probe `id`: anything but a response to it is put back for later; no
    /// answer in time is the handshake era.
    fn probe_answer(&mut self, id: &RpcId) -> Result<Probe, Failure> {
        let deadline = Instant::now() + PROBE_WAIT.min(self.budget);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Probe::Handshake);
            }
            let started = Instant::now();
            let received = self.transport.receive(left);
            self.budget = self.budget.saturating_sub(started.elapsed());
            match received {
                Received::Timeout => return Ok(Probe::Handshake),
                Received::Closed(why) => return Err(Failure::server(why)),
                Received::Message(bytes) => match Message::parse(&bytes, &self.limits) {
                    Ok(message @ Message::Response(_)) => {
                        if matches!(&message, Message::Response(map) if answers(map, id)) {
                            return Ok(client::read_probe(&message, id));
                        }
                        eprintln!("toolnexus: the server answered a request never sent; ignored");
                    }
                    // A handshake-era server may log or ask before it is initialized: later.
                    Ok(_) => self.backlog.push_back(bytes),
                    Err(_) => not_json_rpc(&bytes),
                },
            }
        }
    }

    fn handshake(&mut self, version: &str) -> Result<(), Failure> {
        let (id, text) = self.client.initialize(version);
        self.send(&text)?;
        let response = self.response_to(&id, "initialize")?;
        let result = result_of(&response, "initialize")?;
        let initialized = client::read_initialized(&result)
            .map_err(|e| Failure::server(format!("no mutual protocol version: {}", e.message())))?;
        self.client.set_version(&initialized.version);
        self.server = initialized.server.or(self.server.take());
        let notification = self.client.initialized();
        self.send(&notification)
    }

    /// Calls the tool `name` with `arguments`: its `CallToolResult`, after every elicitation
    /// on the way is answered.
    pub fn call_tool(&mut self, name: &str, arguments: Map) -> Result<Map, Failure> {
        let mut params = Map::new();
        params.insert("name", Value::from(name));
        params.insert("arguments", Value::Object(arguments));
        let (id, text) = self.client.request("tools/call", params.clone());
        self.send(&text)?;
        let mut response = self.response_to(&id, "tools/call")?;
        if self.client.era() == Era::Handshake {
            return self.handshake_result(response, name, params);
        }
        let request = ClientRequest::from_json(text.as_bytes(), &self.limits)?;
        let mut round: Option<InputRound> = None;
        for _ in 0..=MAX_ROUNDS {
            let result = result_of(&response, "tools/call")?;
            let input = match ServerResult::from_value(Value::Object(result))? {
                ServerResult::Complete(result) => return Ok(result),
                ServerResult::Unknown { result_type, .. } => {
                    return Err(Failure::server(format!(
                        "the server answered with resultType {result_type:?}, which \
                         {MODERN_VERSION} does not define"
                    )));
                }
                ServerResult::InputRequired(input) => input,
            };
            let now = now_ms();
            let (mut next, requests) = match &round {
                None => InputRound::start(request.clone(), input, session_options(), now)?,
                Some(previous) => previous.next_round(input, now)?,
            };
            if let Some(entry) = next.unhandled().first() {
                // What the official clients do for an input request they do not serve: the
                // call cannot go on (-32600, not supported).
                return Err(Failure::server(format!(
                    "the server asks for {} (input request {:?}), which this client does not \
                     support: the call cannot go on",
                    entry.method(),
                    entry.key()
                )));
            }
            let count = requests.len();
            let who = self.who();
            for (n, (key, host_request)) in requests.iter().enumerate() {
                let ask = Ask {
                    request: host_request,
                    who: who.as_deref(),
                    key: Some(key),
                    position: (n + 1, count),
                };
                let form = next.session().form(host_request.id()).cloned();
                let (_, ran_out) = answer_one(&ask, form.as_ref(), self.asker, |a| {
                    next.resolve(a, now_ms())
                })?;
                self.answered_all &= !ran_out;
            }
            let retry_id = self.client.next_id();
            let retry = next.retry(&retry_id, false)?;
            self.send(&retry)?;
            response = self.response_to(&retry_id, "tools/call")?;
            round = Some(next);
        }
        Err(Failure::server(format!(
            "the server asked for input more than {MAX_ROUNDS} times for one call"
        )))
    }

    /// The result of a handshake-era call. A `-32042` error (URL elicitation required) is
    /// shown to the person; once each URL is consented to and the server says the
    /// interaction is complete, the call is sent again (at most [`MAX_ROUNDS`] times).
    fn handshake_result(
        &mut self,
        mut response: Map,
        name: &str,
        params: Map,
    ) -> Result<Map, Failure> {
        for _ in 0..MAX_ROUNDS {
            let code = response
                .get("error")
                .and_then(Value::as_object)
                .and_then(|e| e.get("code"))
                .and_then(Value::as_i64);
            if code != Some(ErrorCode::UrlElicitationRequired.code()) {
                return result_of(&response, "tools/call");
            }
            let text = Value::Object(response.clone()).to_json();
            let requests = self
                .bridge
                .url_required(text.as_bytes(), now_ms(), &self.limits)?;
            let who = self.who();
            let count = requests.len();
            for (n, request) in requests.iter().enumerate() {
                let ask = Ask {
                    request,
                    who: who.as_deref(),
                    key: None,
                    position: (n + 1, count),
                };
                let (_, ran_out) =
                    answer_one(&ask, None, self.asker, |a| self.bridge.respond(a, now_ms()))?;
                self.answered_all &= !ran_out;
            }
            // Consent means waiting for the server to say each interaction is complete;
            // anything else ends the call.
            let awaited: Vec<String> = self
                .bridge
                .session()
                .awaiting_completion()
                .iter()
                .map(|a| String::from(a.elicitation_id()))
                .collect();
            if awaited.len() < count {
                return Err(Failure::server(format!(
                    "{name} needs a URL interaction that was not consented to (-32042)"
                )));
            }
            while self
                .bridge
                .session()
                .awaiting_completion()
                .iter()
                .any(|a| awaited.iter().any(|id| id == a.elicitation_id()))
            {
                let bytes = self.next_message("the completion of its URL interaction")?;
                match Message::parse(&bytes, &self.limits) {
                    Ok(Message::Response(_)) | Err(_) => {
                        eprintln!(
                            "toolnexus: ignored while waiting for completion: {}",
                            String::from_utf8_lossy(&bytes)
                        );
                    }
                    Ok(message) => self.server_message(message)?,
                }
            }
            let (id, retry) = self.client.request("tools/call", params.clone());
            self.send(&retry)?;
            response = self.response_to(&id, "tools/call")?;
        }
        Err(Failure::server(format!(
            "{name} asked for URL interactions more than {MAX_ROUNDS} times"
        )))
    }

    /// Every tool the server lists, following `nextCursor`.
    pub fn list_tools(&mut self) -> Result<Vec<Value>, Failure> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..1000 {
            let mut params = Map::new();
            if let Some(c) = cursor.take() {
                params.insert("cursor", Value::from(c.as_str()));
            }
            let (id, text) = self.client.request("tools/list", params);
            self.send(&text)?;
            let response = self.response_to(&id, "tools/list")?;
            let result = result_of(&response, "tools/list")?;
            if let Some(Value::Array(page)) = result.get("tools") {
                tools.extend(page.iter().cloned());
            }
            match result.get("nextCursor").and_then(Value::as_str) {
                Some(next) if !next.is_empty() => cursor = Some(String::from(next)),
                _ => return Ok(tools),
            }
        }
        Ok(tools)
    }

    /// Stops the server.
    pub fn close(&mut self) {
        self.transport.close();
    }

    fn send(&mut self, text: &str) -> Result<(), Failure> {
        self.transport.send(text).map_err(Failure::server)
    }

    /// The next message, from the backlog first; the wait counts against the server's time.
    fn next_message(&mut self, what: &str) -> Result<Vec<u8>, Failure> {
        if let Some(bytes) = self.backlog.pop_front() {
            return Ok(bytes);
        }
        let started = Instant::now();
        let received = self.transport.receive(self.budget);
        self.budget = self.budget.saturating_sub(started.elapsed());
        match received {
            Received::Message(bytes) => Ok(bytes),
            Received::Timeout => Err(Failure::server(format!(
                "timeout: the server did not answer {what} within {} s of its own time",
                self.timeout.as_secs()
            ))),
            Received::Closed(why) => Err(Failure::server(why)),
        }
    }

    /// The response to the request `id` (`what`, for messages), handling every request and
    /// notification the server sends meanwhile.
    fn response_to(&mut self, id: &RpcId, what: &str) -> Result<Map, Failure> {
        loop {
            let bytes = self.next_message(what)?;
            match Message::parse(&bytes, &self.limits) {
                Err(_) => not_json_rpc(&bytes),
                Ok(Message::Response(map)) => {
                    if answers(&map, id) {
                        return Ok(map);
                    }
                    eprintln!(
                        "toolnexus: the server answered a request never sent (id {}); ignored",
                        map.get("id")
                            .map_or_else(|| String::from("none"), Value::to_json)
                    );
                }
                Ok(message) => self.server_message(message)?,
            }
        }
    }

    /// A request or notification from the server.
    fn server_message(&mut self, message: Message) -> Result<(), Failure> {
        if let Message::Request { id, method, .. } = &message
            && method == PING_METHOD
        {
            let reply = client::ping_reply(id);
            return self.send(&reply);
        }
        match self.bridge.handle(message, now_ms()) {
            Incoming::Elicit { request, .. } => self.elicit(&request),
            Incoming::Reply(reply) => {
                eprintln!(
                    "toolnexus: the server sent a request this client cannot answer; it gets \
                     an error: {reply}"
                );
                self.send(&reply)
            }
            Incoming::Completed { request_id, reply } => {
                eprintln!("toolnexus: the server says the interaction of {request_id} is complete");
                match reply {
                    Some(reply) => self.send(&reply),
                    None => Ok(()),
                }
            }
            Incoming::Withdrawn { request_id } => {
                eprintln!("toolnexus: the server withdrew its question ({request_id})");
                Ok(())
            }
            Incoming::Ignored { .. } => Ok(()),
        }
    }

    /// Answers an `elicitation/create` of the handshake era, unless the server withdraws it
    /// while the person answers: then nothing is sent. A person at the terminal is asked on a
    /// thread of its own while this one watches the server, so a withdrawal closes the open
    /// form at once (the abandoned prompt gives the terminal back).
    fn elicit(&mut self, request: &toolnexus_core::Request) -> Result<(), Failure> {
        let who = self.who();
        let form = self.bridge.session().form(request.id()).cloned();
        let interactive = self.asker.interactive();
        let Conversation {
            transport,
            bridge,
            asker,
            backlog,
            limits,
            terminal_taken,
            ..
        } = self;
        // Both the watch while a person answers and the answer itself read the server's
        // cancellations into the bridge, one after the other.
        let watch = RefCell::new(Watch {
            transport: transport.as_mut(),
            bridge,
            backlog,
            limits,
        });
        let ask = Ask {
            request,
            who: who.as_deref(),
            key: None,
            position: (1, 1),
        };
        let (reply, ran_out) = answer_with(
            request,
            |review, refused| {
                if !interactive {
                    return ask_once(*asker, &ask, form.as_ref(), review, refused);
                }
                if *terminal_taken {
                    eprintln!(
                        "toolnexus: the terminal is still held by a withdrawn form; this \
                         request is cancelled"
                    );
                    return Some(Reply::cancel("cancelled"));
                }
                let replied = ask_on_a_thread(&ask, form.as_ref(), review, refused);
                loop {
                    match replied.recv_timeout(Duration::from_millis(50)) {
                        Ok(reply) => return reply,
                        Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            if watch.borrow_mut().withdrawn(request.id()) {
                                terminal::restore();
                                *terminal_taken = true;
                                return Some(Reply::cancel("withdrawn"));
                            }
                        }
                    }
                }
            },
            |answer| {
                let mut watch = watch.borrow_mut();
                if watch.withdrawn(answer.id()) {
                    eprintln!(
                        "toolnexus: the server withdrew its question: the form is closed and \
                         nothing is sent"
                    );
                    return Ok(None);
                }
                watch.bridge.respond(answer, now_ms())
            },
        )?;
        self.answered_all &= !ran_out;
        match reply {
            Some(reply) => self.send(&reply),
            None => Ok(()),
        }
    }
}

/// What the conversation watches while a person answers: the server's messages, read into
/// the bridge (cancellations) or kept for later (everything else).
struct Watch<'w> {
    transport: &'w mut dyn Transport,
    bridge: &'w mut ReverseBridge,
    backlog: &'w mut VecDeque<Vec<u8>>,
    limits: &'w Limits,
}

impl Watch<'_> {
    /// Whether the server has withdrawn the request `id`, after reading what it sent so far.
    fn withdrawn(&mut self, id: &str) -> bool {
        take_cancellations(self.transport, self.bridge, self.backlog, self.limits);
        !self.bridge.session().is_pending(id)
    }
}

/// Asks the person at the terminal on a thread of its own; the reply arrives on the channel
/// returned (`None` when there is no terminal after all).
fn ask_on_a_thread(
    ask: &Ask<'_>,
    form: Option<&Form>,
    review: Option<&UrlReview>,
    refused: Option<&toolnexus_core::Error>,
) -> mpsc::Receiver<Option<Reply>> {
    let (tx, rx) = mpsc::channel();
    let (request, who) = (ask.request.clone(), ask.who.map(String::from));
    let (form, review, refused) = (form.cloned(), review.cloned(), refused.cloned());
    thread::spawn(move || {
        let reply = Terminal::open().and_then(|mut terminal| {
            let ask = Ask {
                request: &request,
                who: who.as_deref(),
                key: None,
                position: (1, 1),
            };
            ask_once(
                &mut terminal,
                &ask,
                form.as_ref(),
                review.as_ref(),
                refused.as_ref(),
            )
        });
        let _ = tx.send(reply);
    });
    rx
}

/// Handles the `notifications/cancelled` that arrived while a person answered, keeping every
/// other message for later.
fn take_cancellations(
    transport: &mut dyn Transport,
    bridge: &mut ReverseBridge,
    backlog: &mut VecDeque<Vec<u8>>,
    limits: &Limits,
) {
    loop {
        match transport.receive(Duration::ZERO) {
            Received::Message(bytes) => match Message::parse(&bytes, limits) {
                Ok(message @ Message::Notification { .. }) if is_cancel(&message) => {
                    let _ = bridge.handle(message, now_ms());
                }
                _ => backlog.push_back(bytes),
            },
            Received::Timeout => break,
            Received::Closed(why) => {
                eprintln!("toolnexus: {why}");
                break;
            }
        }
    }
}

fn is_cancel(message: &Message) -> bool {
    matches!(message, Message::Notification { method, .. } if method == CANCELLED)
}

/// Whether the response `map` answers the request `id`.
fn answers(map: &Map, id: &RpcId) -> bool {
    map.get("id").and_then(RpcId::from_value).as_ref() == Some(id)
}

/// The `result` of a response, or the server's failure for its `error`.
fn result_of(response: &Map, what: &str) -> Result<Map, Failure> {
    if let Some(Value::Object(result)) = response.get("result") {
        return Ok(result.clone());
    }
    let error = response.get("error").and_then(Value::as_object);
    let code = error
        .and_then(|e| e.get("code"))
        .map_or_else(|| String::from("?"), Value::to_json);
    let message = error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .unwrap_or("no message");
    Err(Failure::server(format!(
        "the server answered {what} with error {code}: {message}"
    )))
}

fn no_mutual_version(theirs: &[String]) -> Failure {
    Failure::server(format!(
        "no mutual protocol version: the server serves {}, this client {MODERN_VERSION}, {} and {}",
        if theirs.is_empty() {
            String::from("none it names")
        } else {
            theirs.join(", ")
        },
        HANDSHAKE_VERSIONS[0],
        HANDSHAKE_VERSIONS[1]
    ))
}

/// Says on standard error that the server wrote something that is not a JSON-RPC message.
fn not_json_rpc(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let shown: String = text.chars().take(120).collect();
    eprintln!(
        "toolnexus: the server wrote a line that is not a JSON-RPC message; ignored: {shown}"
    );
}
