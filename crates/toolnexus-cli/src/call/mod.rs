//! `toolnexus call` and `toolnexus tools`: a client of both MCP eras that calls a live
//! server's tool and answers every elicitation it makes on the way.
//!
//! The protocol is the core's (`wire::client` writes the messages with their headers, reads
//! the replies and tells the eras apart; `wire::reverse` and `wire::mrtr` carry the
//! elicitations); this module owns the I/O: the transport, the one inbox with its timeout
//! ([`inbox`]), the server's own requests (`answer`), and the person (or the answers).

mod answer;
pub mod http;
pub mod inbox;
pub mod scripted;
pub mod sse;
mod task;
pub mod transport;

#[cfg(test)]
mod tests;

use std::time::Duration;

use toolnexus_core::id::now_ms;
use toolnexus_core::session::SessionOptions;
use toolnexus_core::wire::client::headers::ParamHeaders;
use toolnexus_core::wire::client::{
    self, Client, Era, HANDSHAKE_VERSIONS, HEADER_MISMATCH, INITIALIZE_METHOD, Implementation,
    MODERN_VERSION, Outgoing, Probe, Reply,
};
use toolnexus_core::wire::method::{TOOLS_CALL, TOOLS_LIST};
use toolnexus_core::wire::mrtr::{ClientRequest, InputRequired, InputRound, ServerResult};
use toolnexus_core::wire::rpc::ErrorCode;
use toolnexus_core::wire::rpc::{Message, RpcId};
use toolnexus_core::wire::task::{self as tasks, TaskSupport};
use toolnexus_core::{Error, Form, Map, Modes, Request, ReverseBridge, Value};

use crate::ask::{Ask, Asker};
use crate::elicit::{answer_one, answer_or_keep, session_options};
use crate::report::Failure;
use crate::{note, warning};
use inbox::Inbox;
use transport::{Event, Transport};

/// How many `input_required` rounds (or, in the handshake era, URL interactions) one call may
/// take before the client gives up, unless `--max-rounds` says otherwise.
pub const MAX_ROUNDS: usize = 16;

/// How long the `server/discover` probe waits before taking silence for the handshake era, on
/// a transport where a server may leave a request unanswered (stdio). Over HTTP every request
/// is answered, so the probe waits the server's time like any request.
const PROBE_WAIT: Duration = Duration::from_secs(5);

/// The tools a server lists, as it wrote them, and those left out.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// The tools a client may call, in the server's order, each as the server wrote it.
    pub tools: Vec<Value>,
    /// The tools left out because their `x-mcp-header` annotations break the rules, each by
    /// name with the reason.
    pub excluded: Vec<(String, Error)>,
}

/// How a call ended: with the tool's result, or with questions nobody could answer now,
/// kept to be answered later (`--defer`).
#[derive(Debug)]
pub enum Called {
    /// The tool's `CallToolResult`.
    Result(Map),
    /// The call waits for answers, and can go on in another process.
    Deferred(Deferral),
}

/// What became of a question asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// It has its answer (or its cancel).
    Answered,
    /// The answers ran out before it had one, and the call is deferred: it is left open.
    Kept,
}

/// What a deferred call waits for.
#[derive(Debug)]
pub struct Deferral {
    /// The questions not answered yet, each a `Request` as the contract spells it.
    pub requests: Vec<Value>,
    /// The key of each (2026-07-28), in the same order, so that a resumed call asks them in
    /// the order they were printed; none for a handshake-era question.
    pub keys: Vec<String>,
    /// What goes on once they are answered.
    pub waiting: crate::pending::Waiting,
    /// Until when it can go on, in milliseconds since 1970.
    pub expires_at_ms: u64,
}

/// One conversation with a server.
pub struct Conversation<'a> {
    inbox: Inbox,
    client: Client,
    server: Option<Implementation>,
    bridge: ReverseBridge,
    asker: &'a mut dyn Asker,
    /// The last tool list, once read (a modern call over HTTP needs its tool's annotations).
    listing: Option<Listing>,
    /// Whether every elicitation got an answer from the asker (not a cancel because the
    /// answers ran out).
    answered_all: bool,
    /// Set once a withdrawn form was abandoned: its prompt still reads the terminal.
    terminal_taken: bool,
    /// Whether a handshake-era server runs tool calls as tasks (its capabilities say so).
    server_tasks: bool,
    /// Whether to ask for a task where the tool makes it optional (`--task`).
    want_task: bool,
    /// How many rounds one call may take (`--max-rounds`).
    max_rounds: usize,
    /// The options of every elicitation's session: the modes declared among them.
    options: SessionOptions,
    /// Whether questions nobody can answer now are kept for later (`--defer`).
    defer: bool,
    /// Said once: a question that cannot be kept for later came while deferring.
    said_live: bool,
    /// Set while a handshake-era task is followed: its questions may be kept for later.
    following_task: bool,
    /// A handshake-era task's question kept for later: the message, the request it maps to
    /// and the session it came on.
    kept_question: Option<(Message, Value, String)>,
    /// The order a resumed call asks a task's questions in: their keys, as printed.
    asked_order: Vec<String>,
    /// The ids of the retries of a resumed round, which must differ from those sent before:
    /// the pending call's id and a count.
    retry_ids: Option<(String, u64)>,
}

impl<'a> Conversation<'a> {
    /// A conversation over `transport`, whose server has `timeout` in all to answer.
    pub fn new(
        transport: Box<dyn Transport>,
        asker: &'a mut dyn Asker,
        timeout: Duration,
    ) -> Conversation<'a> {
        let mut client = Client::new(
            Implementation::new("toolnexus", env!("CARGO_PKG_VERSION")),
            Modes::ALL,
        );
        // A modern server may turn any call into a task: this client follows it.
        client.follow_tasks(true);
        Conversation {
            inbox: Inbox::new(transport, timeout),
            client,
            server: None,
            bridge: ReverseBridge::new(session_options()),
            asker,
            listing: None,
            answered_all: true,
            terminal_taken: false,
            server_tasks: false,
            want_task: false,
            max_rounds: MAX_ROUNDS,
            options: session_options(),
            defer: false,
            said_live: false,
            following_task: false,
            kept_question: None,
            asked_order: Vec::new(),
            retry_ids: None,
        }
    }

    /// Declares the elicitation `modes` this client answers in (`--elicit`), in both eras:
    /// before [`Conversation::connect`].
    pub fn declare(&mut self, modes: Modes) {
        let mut client = Client::new(
            Implementation::new("toolnexus", env!("CARGO_PKG_VERSION")),
            modes,
        );
        client.follow_tasks(true);
        self.client = client;
        self.options = session_options().with_modes(modes);
        self.bridge = ReverseBridge::new(self.options);
    }

    /// Keeps questions nobody can answer now for later (`--defer`), where the call can go on
    /// from another process: a 2026-07-28 round, or a task over HTTP.
    pub fn defer(&mut self, yes: bool) {
        self.defer = yes;
    }

    /// Whether a question that comes now is to be kept for later: deferring, and nobody to
    /// answer it.
    fn deferring(&self) -> bool {
        self.defer && !self.asker.can_answer()
    }

    /// Says, once, that a question bound to this connection cannot be kept for later.
    pub(super) fn cannot_defer(&mut self, why: &str) {
        if self.deferring() && !self.said_live {
            self.said_live = true;
            note!("--defer: {why} cannot be kept for later; it is handled now");
        }
    }

    /// The id of the next retry of a round.
    fn retry_id(&mut self) -> RpcId {
        match &mut self.retry_ids {
            Some((tag, n)) => {
                *n += 1;
                RpcId::from(format!("{tag}-{n}"))
            }
            None => self.client.next_id(),
        }
    }

    /// Asks for a task where the tool makes it optional (handshake era; at 2026-07-28 the
    /// server alone decides).
    pub fn prefer_task(&mut self, yes: bool) {
        self.want_task = yes;
    }

    /// Lets one call take at most `rounds` rounds of questions ([`MAX_ROUNDS`] unless set).
    pub fn max_rounds(&mut self, rounds: usize) {
        self.max_rounds = rounds;
    }

    /// Whether every elicitation was answered by the asker.
    pub fn answered_all(&self) -> bool {
        self.answered_all
    }

    /// The protocol version spoken.
    pub fn version(&self) -> &str {
        self.client.version()
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

    /// Names the server as an earlier conversation heard it say (`name version`), until it
    /// says so itself: a resumed call is not introduced again.
    pub fn said_to_be(&mut self, who: Option<&str>) {
        if self.server.is_none() {
            self.server = who.map(|who| Implementation::new(who, ""));
        }
    }

    /// Speaks `version` within the session a kept call left open (`session`), without
    /// meeting the server again.
    pub fn rejoin(&mut self, version: &str, session: &str) -> Result<(), Failure> {
        self.client.set_version(version);
        self.inbox.join_session(session)
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
        let mut retried = false;
        loop {
            match self.probe()? {
                Probe::Modern { versions, server } => {
                    self.server = server;
                    return match client::choose_version(&versions) {
                        Some(MODERN_VERSION) => {
                            self.client.set_version(MODERN_VERSION);
                            Ok(())
                        }
                        Some(old) => self.handshake(old),
                        None => Err(no_mutual_version(&versions)),
                    };
                }
                // A modern server that does not serve the version asked: one more probe in
                // the best version both serve, or the handshake in a handshake-era one.
                Probe::UnsupportedVersion { supported } => {
                    match client::choose_version(&supported) {
                        Some(MODERN_VERSION) if !retried => retried = true,
                        Some(old) if old != MODERN_VERSION => return self.handshake(old),
                        _ => return Err(no_mutual_version(&supported)),
                    }
                }
                Probe::Handshake => return self.handshake(HANDSHAKE_VERSIONS[0]),
            }
        }
    }

    /// Sends `server/discover` and reads its answer: anything but a response to it is put
    /// back for later; over stdio, no answer in time is the handshake era.
    fn probe(&mut self) -> Result<Probe, Failure> {
        let probe = self.client.discover();
        self.inbox.send(&probe)?;
        let Some(id) = probe.id() else {
            return Ok(Probe::Handshake);
        };
        let patient = self.inbox.answers_every_request();
        let wait = std::time::Instant::now()
            + if patient {
                self.inbox.timeout()
            } else {
                PROBE_WAIT
            };
        // Time spent getting an authorization the server asks for is not the probe's.
        let paused = self.inbox.paused();
        // A handshake-era server may log or ask before it is initialized: what it says is put
        // back once the probe has its answer, not while it waits (it would be read again).
        let mut later = Vec::new();
        let probe = loop {
            let wait = wait + self.inbox.paused().saturating_sub(paused);
            let left = wait.saturating_duration_since(std::time::Instant::now());
            match self.inbox.next_within(left) {
                Ok(None) if patient => break Err(probe_timeout(self.inbox.timeout())),
                Ok(None) => break Ok(Probe::Handshake),
                Ok(Some(Event::Response {
                    id: Some(theirs),
                    reply,
                })) if &theirs == id => break Ok(client::probe_of(&reply)),
                Ok(Some(Event::Response { id, .. })) => never_sent(id.as_ref()),
                Ok(Some(event)) => later.push(event),
                Err(failure) => break Err(failure),
            }
        };
        for event in later {
            self.inbox.keep(event);
        }
        probe
    }

    fn handshake(&mut self, version: &str) -> Result<(), Failure> {
        let initialize = self.client.initialize(version);
        let result = result_of(
            self.request(&initialize, INITIALIZE_METHOD)?,
            INITIALIZE_METHOD,
        )?;
        let initialized = client::read_initialized(&result)
            .map_err(|e| Failure::server(format!("no mutual protocol version: {}", e.message())))?;
        self.client.set_version(&initialized.version);
        self.server = initialized.server.or(self.server.take());
        self.server_tasks = tasks::server_runs_tool_tasks(&result);
        let notification = self.client.initialized();
        self.inbox.send(&notification)
    }

    /// Sends the request `build` writes and reads its reply. In the modern era, a `-32022`
    /// (the version is not served) that names a mutual modern version leads to one retry in
    /// that version.
    fn ask(
        &mut self,
        what: &str,
        mut build: impl FnMut(&mut Client) -> Outgoing,
    ) -> Result<(Outgoing, Reply), Failure> {
        let out = build(&mut self.client);
        let reply = self.request(&out, what)?;
        let Some(supported) = reply.unsupported_version() else {
            return Ok((out, reply));
        };
        if self.client.era() != Era::Modern {
            return Ok((out, reply));
        }
        match client::choose_version(&supported) {
            Some(version) if Era::of(version) == Some(Era::Modern) => {
                note!(
                    "the server does not serve {} for {what}; sent again in {version}",
                    self.client.version()
                );
                self.client.set_version(version);
                let out = build(&mut self.client);
                let reply = self.request(&out, what)?;
                Ok((out, reply))
            }
            _ => Err(no_mutual_version(&supported)),
        }
    }

    /// Sends `out` and waits for its reply, handling every request and notification the
    /// server sends meanwhile.
    fn request(&mut self, out: &Outgoing, what: &str) -> Result<Reply, Failure> {
        self.inbox.send(out)?;
        let Some(id) = out.id() else {
            return Err(Failure::server(format!("{what} is not a request")));
        };
        loop {
            match self.inbox.next(what)? {
                Event::Response {
                    id: Some(theirs),
                    reply,
                } if &theirs == id => return Ok(reply),
                Event::Response { id, .. } => never_sent(id.as_ref()),
                Event::Server(message) => self.server_message(message)?,
                Event::Garbage(_) => {}
            }
        }
    }

    /// Every tool the server lists, following `nextCursor`. In the modern era over
    /// streamable HTTP, a tool whose `x-mcp-header` annotations break the rules is left out,
    /// and said on standard error.
    pub fn list_tools(&mut self) -> Result<Listing, Failure> {
        let mut listing = Listing::default();
        let mut cursor: Option<String> = None;
        for _ in 0..1000 {
            let mut params = Map::new();
            if let Some(c) = cursor.take() {
                params.insert("cursor", Value::from(c.as_str()));
            }
            let (_, reply) = self.ask(TOOLS_LIST, |client| {
                client.request(TOOLS_LIST, params.clone())
            })?;
            let (page, next) = client::read_tools(&result_of(reply, TOOLS_LIST)?);
            for tool in page {
                match self.screen(&tool) {
                    Ok(()) => listing.tools.push(tool),
                    Err(excluded) => listing.excluded.push(excluded),
                }
            }
            match next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        self.listing = Some(listing.clone());
        Ok(listing)
    }

    /// `Ok` when `tool` may be called; else its name and why not, said on standard error.
    fn screen(&self, tool: &Value) -> Result<(), (String, Error)> {
        if !self.mirrors() {
            return Ok(());
        }
        ParamHeaders::of_tool(tool).map(|_| ()).map_err(|e| {
            let name = tool_name(tool);
            warning!(
                "the tool {name:?} is left out: its x-mcp-header annotation at {} is \
                 invalid: {}",
                e.pointer(),
                e.message()
            );
            (name, e)
        })
    }

    /// Whether tool arguments travel in headers too: the modern era over streamable HTTP.
    fn mirrors(&self) -> bool {
        self.client.era() == Era::Modern && self.inbox.mirrors_headers()
    }

    /// The headers a call of the tool `name` mirrors, from the tool list (read first when
    /// need be, and again when `fresh`). A tool left out of the list is not called.
    fn mirrored(&mut self, name: &str, fresh: bool) -> Result<ParamHeaders, Failure> {
        if !self.mirrors() {
            return Ok(ParamHeaders::default());
        }
        if fresh || self.listing.is_none() {
            self.list_tools()?;
        }
        let listing = self.listing.as_ref();
        if let Some((_, why)) = listing.and_then(|l| l.excluded.iter().find(|(n, _)| n == name)) {
            return Err(Failure::server(format!(
                "the server's definition of the tool {name:?} is invalid ({} at {}): a client \
                 must not call it",
                why.message(),
                why.pointer()
            )));
        }
        let tool = listing.and_then(|l| l.tools.iter().find(|t| tool_name(t) == name));
        Ok(tool
            .and_then(|t| ParamHeaders::of_tool(t).ok())
            .unwrap_or_default())
    }

    /// Calls the tool `name` with `arguments`: its `CallToolResult`, after every elicitation
    /// on the way is answered.
    pub fn call_tool(&mut self, name: &str, arguments: Map) -> Result<Called, Failure> {
        if self.as_task(name)? {
            let call = self.client.call_tool_as_task(name, arguments, None);
            let result = result_of(self.request(&call, TOOLS_CALL)?, TOOLS_CALL)?;
            return match tasks::created_task(&result)? {
                Some(_) => self.follow_task(&result),
                // A server may run the call at once all the same.
                None => Ok(Called::Result(result)),
            };
        }
        let mut mirrored = self.mirrored(name, false)?;
        let mut call = |client: &mut Client| client.call_tool(name, arguments.clone(), &mirrored);
        let (mut out, mut reply) = self.ask(TOOLS_CALL, &mut call)?;
        if is_header_mismatch(&reply) && self.mirrors() {
            // The tool's annotations may have changed: read them again and send once more.
            note!("the server says the headers do not match; tools listed again");
            mirrored = self.mirrored(name, true)?;
            (out, reply) = self.ask(TOOLS_CALL, |client| {
                client.call_tool(name, arguments.clone(), &mirrored)
            })?;
        }
        match self.client.era() {
            Era::Handshake => self
                .handshake_result(reply, name, &arguments)
                .map(Called::Result),
            Era::Modern => self.rounds(&out, reply, None),
        }
    }

    /// Goes on with a 2026-07-28 call deferred in another process: the round restored from
    /// its `snapshot`, its questions asked now, the call retried with the answers, and any
    /// round after it answered as [`Conversation::call_tool`] does. `tag` makes the retries'
    /// ids new.
    pub fn resume_round(
        &mut self,
        name: &str,
        arguments: Map,
        snapshot: &str,
        tag: &str,
    ) -> Result<Called, Failure> {
        let mut round = InputRound::restore(snapshot.as_bytes(), &[], &ROUND_LIMITS, now_ms())?;
        self.retry_ids = Some((format!("resumed-{tag}"), 0));
        let mirrored = self.mirrored(name, false)?;
        let call = self.client.call_tool(name, arguments, &mirrored);
        if let Some(deferral) = self.answer_round(&mut round)? {
            return Ok(Called::Deferred(deferral));
        }
        let retry_id = self.retry_id();
        let text = round.retry(&retry_id, false)?;
        let retry = self.client.again(&call, retry_id, text);
        let reply = self.request(&retry, TOOLS_CALL)?;
        self.rounds(&call, reply, Some(round))
    }

    /// Asks each question of `round` still waiting, unless nobody can answer now and the call
    /// is deferred: then what waits, with the round written down.
    fn answer_round(&mut self, round: &mut InputRound) -> Result<Option<Deferral>, Failure> {
        let pending: Vec<(String, Request)> = round
            .pending()
            .into_iter()
            .map(|(key, request)| (String::from(key), request.clone()))
            .collect();
        for (n, keyed) in pending.iter().enumerate() {
            if self.deferring() {
                return deferral_of_round(round).map(Some);
            }
            let form = round.session().form(keyed.1.id()).cloned();
            let asked = self.ask_input(keyed, (n + 1, pending.len()), form.as_ref(), |a| {
                round.resolve(a, now_ms())
            })?;
            if asked == Asked::Kept {
                return deferral_of_round(round).map(Some);
            }
        }
        Ok(None)
    }

    /// Whether to run the tool `name` as a task (handshake era): when the server runs tool
    /// calls as tasks and the tool requires it, or allows it and `--task` asks for it.
    fn as_task(&mut self, name: &str) -> Result<bool, Failure> {
        if self.client.era() != Era::Handshake {
            if self.want_task {
                note!(
                    "at {} the server alone decides whether a call runs as a task;                      --task changes nothing",
                    self.client.version()
                );
            }
            return Ok(false);
        }
        if !self.server_tasks {
            if self.want_task {
                note!("the server does not run tool calls as tasks; called plainly");
            }
            return Ok(false);
        }
        if self.listing.is_none() {
            self.list_tools()?;
        }
        let support = self
            .listing
            .as_ref()
            .and_then(|l| l.tools.iter().find(|t| tool_name(t) == name))
            .map_or(TaskSupport::Forbidden, TaskSupport::of_tool);
        Ok(match support {
            TaskSupport::Required => true,
            TaskSupport::Optional => self.want_task,
            TaskSupport::Forbidden => {
                if self.want_task {
                    note!("the tool {name:?} does not run as a task; called plainly");
                }
                false
            }
        })
    }

    /// The result of a modern call: each `input_required` round answered and the call
    /// retried, at most `--max-rounds` times. A round that does not advance (the retry
    /// answered with the same `requestState` and the same questions just answered) ends it.
    fn rounds(
        &mut self,
        call: &Outgoing,
        mut reply: Reply,
        mut round: Option<InputRound>,
    ) -> Result<Called, Failure> {
        let max_rounds = self.max_rounds;
        for answered in 0..=max_rounds {
            let input =
                match ServerResult::from_value(Value::Object(result_of(reply, TOOLS_CALL)?))? {
                    ServerResult::Complete(result) => return Ok(Called::Result(result)),
                    ServerResult::Unknown {
                        result_type,
                        result,
                    } if result_type == tasks::RESULT_TYPE => return self.follow_task(&result),
                    ServerResult::Unknown { result_type, .. } => {
                        return Err(Failure::server(format!(
                            "the server answered with resultType {result_type:?}, which \
                         {MODERN_VERSION} does not define"
                        )));
                    }
                    ServerResult::InputRequired(_) if answered == max_rounds => break,
                    ServerResult::InputRequired(input) => input,
                };
            let now = now_ms();
            let (mut next, _) = match &round {
                None => {
                    let message = call.message().cloned().unwrap_or_default();
                    let request = ClientRequest::from_value(Value::Object(message))?;
                    InputRound::start(request, input, self.options, now)?
                }
                Some(previous) if does_not_advance(previous, &input) => {
                    return Err(Failure::server(
                        "the server answered the retry by asking again what was just answered \
                         (the same requestState and the same questions): the call does not \
                         advance, and it is given up",
                    ));
                }
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
            if let Some(deferral) = self.answer_round(&mut next)? {
                return Ok(Called::Deferred(deferral));
            }
            let retry_id = self.retry_id();
            let text = next.retry(&retry_id, false)?;
            let retry = self.client.again(call, retry_id, text);
            reply = self.request(&retry, TOOLS_CALL)?;
            round = Some(next);
        }
        Err(Failure::server(format!(
            "the server asked for input more than {max_rounds} times for one call \
             (--max-rounds)"
        )))
    }

    /// Asks the person (or the answers) the input request `keyed` (its key and request), at
    /// `position` among those asked together, with its prepared form; `resolve` takes each
    /// answer until one is accepted.
    fn ask_input<R>(
        &mut self,
        (key, request): &(String, Request),
        position: (usize, usize),
        form: Option<&Form>,
        resolve: impl FnMut(&toolnexus_core::Answer) -> Result<R, Error>,
    ) -> Result<Asked, Failure> {
        let who = self.who();
        let ask = Ask::new(request, who.as_deref())
            .keyed(key)
            .at(position.0, position.1);
        if self.defer {
            return Ok(match answer_or_keep(&ask, form, self.asker, resolve)? {
                Some(_) => Asked::Answered,
                None => Asked::Kept,
            });
        }
        let (_, ran_out) = answer_one(&ask, form, self.asker, resolve)?;
        self.answered_all &= !ran_out;
        Ok(Asked::Answered)
    }

    /// The result of a handshake-era call. A `-32042` error (URL elicitation required) is
    /// shown to the person; once each URL is consented to and the server says the
    /// interaction is complete, the call is sent again (at most `--max-rounds` times).
    fn handshake_result(
        &mut self,
        mut reply: Reply,
        name: &str,
        arguments: &Map,
    ) -> Result<Map, Failure> {
        for _ in 0..self.max_rounds {
            let error = match reply {
                Reply::Error(error)
                    if error.error_code() == Some(ErrorCode::UrlElicitationRequired) =>
                {
                    error
                }
                other => return result_of(other, TOOLS_CALL),
            };
            let requests = self.bridge.url_required_error(&error, now_ms())?;
            self.cannot_defer("a URL interaction of the 2025 era (bound to this connection)");
            let who = self.who();
            let count = requests.len();
            for (n, request) in requests.iter().enumerate() {
                let ask = Ask::new(request, who.as_deref()).at(n + 1, count);
                let (_, ran_out) =
                    answer_one(&ask, None, self.asker, |a| self.bridge.respond(a, now_ms()))?;
                self.answered_all &= !ran_out;
            }
            self.await_completions(name, count)?;
            let call = self
                .client
                .call_tool(name, arguments.clone(), &ParamHeaders::default());
            reply = self.request(&call, TOOLS_CALL)?;
        }
        Err(Failure::server(format!(
            "{name} asked for URL interactions more than {} times (--max-rounds)",
            self.max_rounds
        )))
    }

    /// Waits until the server says each of the `count` URL interactions just consented to is
    /// complete; anything short of consent to all ends the call.
    fn await_completions(&mut self, name: &str, count: usize) -> Result<(), Failure> {
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
            match self.inbox.next("the completion of its URL interaction")? {
                Event::Server(message) => self.server_message(message)?,
                Event::Response { id, .. } => never_sent(id.as_ref()),
                Event::Garbage(_) => {}
            }
        }
        Ok(())
    }

    /// Stops the server.
    pub fn close(&mut self) {
        self.inbox.close();
    }
}

/// The bounds of a round's snapshot read back.
const ROUND_LIMITS: toolnexus_core::Limits = toolnexus_core::Limits::DEFAULT;

/// What a round nobody can answer now waits for: its questions, and the round written down,
/// kept until the core would no longer restore it.
fn deferral_of_round(round: &InputRound) -> Result<Deferral, Failure> {
    let snapshot = String::from_utf8(round.snapshot(None)?)
        .map_err(|_| Failure::server("the round's snapshot is not text"))?;
    let pending = round.pending();
    Ok(Deferral {
        requests: pending
            .iter()
            .map(|(_, request)| request_value(request))
            .collect::<Result<_, _>>()?,
        keys: pending.iter().map(|(key, _)| String::from(*key)).collect(),
        waiting: crate::pending::Waiting::Round(snapshot),
        expires_at_ms: round.restorable_until_ms(),
    })
}

/// A `Request` as the contract spells it, as a JSON value.
fn request_value(request: &Request) -> Result<Value, Failure> {
    Ok(toolnexus_core::json::parse_str(
        &request.to_json(),
        &toolnexus_core::Limits::DEFAULT,
    )?)
}

/// Whether `input`, the answer to the retry of `previous`, asks again what `previous` asked,
/// with the same `requestState`: the server took the answers and moved nowhere.
fn does_not_advance(previous: &InputRound, input: &InputRequired) -> bool {
    input.request_state() == previous.request_state()
        && input.input_requests() == previous.input_required().input_requests()
}

/// The name of a listed tool (`""` when it has none).
fn tool_name(tool: &Value) -> String {
    String::from(tool.get("name").and_then(Value::as_str).unwrap_or(""))
}

fn is_header_mismatch(reply: &Reply) -> bool {
    matches!(reply, Reply::Error(error) if error.code() == HEADER_MISMATCH)
}

/// The failure of a probe over HTTP that the server left unanswered for all its time.
fn probe_timeout(timeout: Duration) -> Failure {
    Failure::server(format!(
        "timeout: the server did not answer server/discover within {} s of its own time",
        timeout.as_secs()
    ))
}

/// Says a response to no request of ours was ignored.
fn never_sent(id: Option<&toolnexus_core::wire::rpc::RpcId>) {
    note!(
        "the server answered a request never sent (id {}); ignored",
        id.map_or_else(|| String::from("none"), |id| id.to_json())
    );
}

/// The `result` of a reply, or the server's failure for its `error`.
fn result_of(reply: Reply, what: &str) -> Result<Map, Failure> {
    match reply {
        Reply::Result(result) => Ok(result),
        Reply::Error(error) => Err(Failure::server(format!(
            "the server answered {what} with error {}: {}",
            error.code(),
            error.message()
        ))),
    }
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
