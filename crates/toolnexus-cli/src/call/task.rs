//! A tool call the server runs as a task: polled on the server's schedule until it ends, its
//! questions asked as they come, its state said on standard error, and Ctrl-C turned into
//! `tasks/cancel`.
//!
//! The protocol is the core's [`TaskDriver`]; this module owns the waiting. Time spent between
//! polls is the task's, not the server's: only the wait for a reply counts toward `--timeout`.
//! The server's poll interval (held by the core to at most a minute) never makes one wait
//! longer than `--timeout`, and the task's `ttl`, counted from when it was handed over, ends
//! the call with an error once it has passed: `call` never waits past either.
//! In the handshake era the task's questions come as `elicitation/create` while `tasks/result`
//! is open, and are answered like any other (with the related task echoed by the bridge).

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use toolnexus_core::id::now_ms;
use toolnexus_core::wire::client::{Era, Reply};
use toolnexus_core::wire::rpc::{Message, RpcId};
use toolnexus_core::wire::task::{
    MIN_POLL_INTERVAL_MS, TaskCall, TaskDriver, TaskEvent, TaskStatus,
};
use toolnexus_core::{Map, Value};

use super::transport::Event;
use super::{Called, Conversation, Deferral};
use crate::pending::Waiting;
use crate::report::Failure;
use crate::{note, warning};

/// The longest the loop waits at once, so that Ctrl-C is seen promptly.
const SLICE: Duration = Duration::from_millis(100);

/// How often the same status is said again while nothing changes.
const REMIND_EVERY: Duration = Duration::from_secs(10);

/// The least time between two lines for a status message that changed (a status that changed
/// is said at once): a task that reports its progress five times a second gets one line a
/// second.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// How long the client waits for the server to acknowledge `tasks/cancel` after Ctrl-C.
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// Set by the Ctrl-C handler while a task runs.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Takes Ctrl-C (SIGINT) over from the default, which would end the process: from now on it
/// asks the task loop to cancel the task and stop.
fn catch_interrupts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if let Err(e) = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst)) {
            warning!("Ctrl-C cannot be caught ({e}); it will not cancel the task");
        }
    });
}

/// The questions of a task left unanswered: their keys, and each as a `Request`.
type Unanswered = (Vec<String>, Vec<Value>);

/// What a poll's reply leads to.
enum Polled {
    /// The task goes on.
    Going,
    /// It ended with the tool's result.
    Done(Map),
    /// Its questions wait for later (`--defer`), these left unanswered: their keys, and each
    /// as a `Request`.
    Deferred(Unanswered),
}

/// What the loop waits for.
#[derive(Default)]
struct Open {
    /// The `tasks/get` sent and not answered yet.
    poll: Option<RpcId>,
    /// The `tasks/result` open (handshake era).
    result: Option<RpcId>,
}

impl Conversation<'_> {
    /// Follows the task the server handed over in `created` (a `tools/call` result) until it
    /// ends: the tool's result, or why there is none.
    pub(super) fn follow_task(&mut self, created: &Map) -> Result<Called, Failure> {
        let era = self.client.era();
        let Some(mut driver) = TaskDriver::start(created, era, self.options, now_ms())? else {
            return Err(Failure::server("the server's result is not a task"));
        };
        catch_interrupts();
        let mut status = Status::new(&driver);
        self.following_task = era == Era::Handshake;
        let outcome = self.drive(&mut driver, &mut status, created);
        self.following_task = false;
        // Interrupted, the task was cancelled already; a task that ended needs none.
        if matches!(outcome, Err(Failure::Server(_) | Failure::Refused(_))) && !driver.is_done() {
            self.cancel_task(&driver);
        }
        outcome
    }

    /// Goes on with a task deferred in another process: `created` is the `tools/call` result
    /// that handed it over, as kept; it is polled again and its questions asked now.
    /// `keys` are those of the questions as printed: they are asked in that order.
    pub fn resume_task(&mut self, created: &str, keys: &[String]) -> Result<Called, Failure> {
        let created = created_of(created)?;
        self.asked_order = keys.to_vec();
        self.follow_task(&created)
    }

    /// Goes on with a handshake-era task whose question was kept (the conversation has
    /// rejoined its session): the question is asked now and answered in that session, then
    /// the task is followed to its end.
    pub fn resume_question(&mut self, created: &str, question: &str) -> Result<Called, Failure> {
        let created = created_of(created)?;
        let message = Message::parse(question.as_bytes(), &toolnexus_core::Limits::DEFAULT)
            .map_err(|e| {
                Failure::server(format!("the question kept does not read: {}", e.message()))
            })?;
        self.following_task = true;
        let answered = self.server_message(message);
        self.following_task = false;
        answered?;
        if let Some(kept) = self.kept_question.take() {
            return Ok(Called::Deferred(question_deferral(
                kept,
                &created,
                now_ms(),
            )?));
        }
        self.follow_task(&created)
    }

    fn drive(
        &mut self,
        driver: &mut TaskDriver,
        status: &mut Status,
        created: &Map,
    ) -> Result<Called, Failure> {
        let mut waiting = Open::default();
        let schedule = Schedule {
            started: now_ms(),
            longest: u64::try_from(self.inbox.timeout().as_millis())
                .unwrap_or(u64::MAX)
                .max(MIN_POLL_INTERVAL_MS),
        };
        let mut read_at = schedule.started;
        loop {
            if INTERRUPTED.swap(false, Ordering::SeqCst) {
                self.cancel_task(driver);
                return Err(Failure::Interrupted(format!(
                    "interrupted: the task {} was cancelled (tasks/cancel)",
                    driver.task().task_id()
                )));
            }
            let now = now_ms();
            if let Some(ttl) = schedule.outlived(driver, now) {
                return Err(Failure::server(format!(
                    "the task {} did not end within its ttl of {ttl} ms; it is given up",
                    driver.task().task_id()
                )));
            }
            let poll_at = schedule.poll_at(driver, read_at);
            if waiting.poll.is_none() && !driver.is_done() && now >= poll_at {
                waiting.poll = Some(self.send_task_call(driver.get())?);
            }
            let event = if waiting.poll.is_some() || (driver.is_done() && waiting.result.is_some())
            {
                // A reply is due: the server's time runs.
                let event = self.inbox.next_within(SLICE)?;
                if event.is_none() && self.inbox.out_of_time() {
                    return Err(Failure::server(format!(
                        "timeout: the server did not answer about the task {} within {} s of \
                         its own time",
                        driver.task().task_id(),
                        self.inbox.timeout().as_secs()
                    )));
                }
                event
            } else {
                let until_poll = poll_at.saturating_sub(now_ms());
                self.inbox
                    .idle_within(SLICE.min(Duration::from_millis(until_poll)))?
            };
            if event.is_none() && !driver.is_done() {
                status.idle(driver);
            }
            match event {
                None => {}
                Some(Event::Response {
                    id: Some(id),
                    reply,
                }) if waiting.poll.as_ref() == Some(&id) => {
                    waiting.poll = None;
                    read_at = now_ms();
                    match self.on_poll(driver, reply, &mut waiting, status)? {
                        Polled::Going => {}
                        Polled::Done(result) => return Ok(Called::Result(result)),
                        Polled::Deferred((keys, requests)) => {
                            return Ok(Called::Deferred(Deferral {
                                requests,
                                keys,
                                waiting: Waiting::Task(created.to_json()),
                                expires_at_ms: expiry(driver.task().ttl_ms(), schedule.started),
                            }));
                        }
                    }
                }
                Some(Event::Response {
                    id: Some(id),
                    reply,
                }) if waiting.result.as_ref() == Some(&id) => {
                    return match reply {
                        Reply::Result(result) => Ok(Called::Result(result)),
                        Reply::Error(error) => Err(Failure::server(format!(
                            "the task {} ended with error {}: {}",
                            driver.task().task_id(),
                            error.code(),
                            error.message()
                        ))),
                    };
                }
                Some(Event::Response { id, .. }) => super::never_sent(id.as_ref()),
                Some(Event::Server(message)) => {
                    self.server_message(message)?;
                    if let Some(kept) = self.kept_question.take() {
                        return Ok(Called::Deferred(question_deferral(
                            kept,
                            created,
                            schedule.started,
                        )?));
                    }
                }
                Some(Event::Garbage(_)) => {}
            }
        }
    }

    /// Reads a `tasks/get` reply: the tool's result when the task completed with it.
    fn on_poll(
        &mut self,
        driver: &mut TaskDriver,
        reply: Reply,
        waiting: &mut Open,
        status: &mut Status,
    ) -> Result<Polled, Failure> {
        let result = super::result_of(reply, "tasks/get")?;
        let event = driver.read(&result, now_ms())?;
        let id = driver.task().task_id().to_owned();
        status.read(driver);
        match event {
            TaskEvent::Working { .. } => Ok(Polled::Going),
            TaskEvent::InputRequired { requests } => {
                if driver.era() == Era::Handshake {
                    if waiting.result.is_none() {
                        // Its questions come while tasks/result is open.
                        waiting.result = Some(self.send_task_call(driver.result())?);
                    }
                    return Ok(Polled::Going);
                }
                if let Some(entry) = driver.unhandled().first() {
                    return Err(Failure::server(format!(
                        "the task {id} asks for {} (input request {:?}), which this client does \
                         not support: the task cannot go on",
                        entry.method(),
                        entry.key()
                    )));
                }
                Ok(match self.ask_for_task(driver, &requests)? {
                    Some(requests) => Polled::Deferred(requests),
                    None => Polled::Going,
                })
            }
            TaskEvent::Completed {
                result: Some(result),
            } => Ok(Polled::Done(result)),
            // 2025-11-25: tasks/result returns exactly what the call would have, a result (even
            // one with isError) or its JSON-RPC error.
            TaskEvent::Completed { result: None } | TaskEvent::Failed { error: None }
                if driver.era() == Era::Handshake =>
            {
                if waiting.result.is_none() {
                    waiting.result = Some(self.send_task_call(driver.result())?);
                }
                Ok(Polled::Going)
            }
            TaskEvent::Completed { result: None } => Err(Failure::server(format!(
                "the task {id} completed without a result"
            ))),
            TaskEvent::Failed { error } => Err(Failure::server(format!(
                "the task {id} failed{}",
                describe_failure(error.as_ref(), driver.task().status_message())
            ))),
            TaskEvent::Cancelled => Err(Failure::server(format!(
                "the task {id} was cancelled{}",
                driver
                    .task()
                    .status_message()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ))),
        }
    }

    /// Asks each of a task's new questions in turn; each answer travels at once, in a
    /// `tasks/update` of its own, so the server need not wait for the questions after it.
    /// When nobody can answer now and the call is deferred, the questions left are returned:
    /// a task over HTTP can be polled again from another process; one over stdio ends with
    /// this one, and its questions are handled now.
    fn ask_for_task(
        &mut self,
        driver: &mut TaskDriver,
        requests: &[(String, toolnexus_core::Request)],
    ) -> Result<Option<Unanswered>, Failure> {
        // A resumed call asks in the order the questions were printed; new ones come last.
        let mut requests = requests.to_vec();
        let place = |key: &str| {
            self.asked_order
                .iter()
                .position(|k| k == key)
                .unwrap_or(usize::MAX)
        };
        requests.sort_by_key(|(key, _)| place(key));
        let requests = requests.as_slice();
        for (n, keyed) in requests.iter().enumerate() {
            if self.deferring()
                && let Some(left) = self.keep_for_later(requests, n)?
            {
                return Ok(Some(left));
            }
            let form = driver.form(keyed.1.id()).cloned();
            let asked = self.ask_input(keyed, (n + 1, requests.len()), form.as_ref(), |a| {
                driver.resolve(a, now_ms())
            })?;
            if asked == super::Asked::Kept {
                if let Some(left) = self.keep_for_later(requests, n)? {
                    return Ok(Some(left));
                }
                // Bound to this connection: what cannot be kept is cancelled, as without
                // --defer.
                let cancel = toolnexus_core::Answer::refuse(
                    keyed.1.id(),
                    toolnexus_core::Reason::parse("cancelled"),
                )?;
                driver.resolve(&cancel, now_ms())?;
                self.answered_all = false;
            }
            if let Some(update) = driver.update(true)? {
                let out = self.client.request(update.method(), update.into_params());
                let reply = self.request(&out, "tasks/update")?;
                super::result_of(reply, "tasks/update")?;
            }
        }
        Ok(None)
    }

    /// The questions of a task from the `n`th on, to be kept for later when the task can be
    /// polled again from another process (over HTTP); `None`, said once, over stdio, where the
    /// task ends with the server.
    fn keep_for_later(
        &mut self,
        requests: &[(String, toolnexus_core::Request)],
        n: usize,
    ) -> Result<Option<Unanswered>, Failure> {
        if !self.inbox.reachable_again() {
            self.cannot_defer("a question of a task over stdio (the task ends with the server)");
            return Ok(None);
        }
        let left = requests.get(n..).unwrap_or_default();
        Ok(Some((
            left.iter().map(|(key, _)| key.clone()).collect(),
            left.iter()
                .map(|(_, request)| super::request_value(request))
                .collect::<Result<_, _>>()?,
        )))
    }

    /// Sends `call`, written in the conversation's era: its request id.
    fn send_task_call(&mut self, call: TaskCall) -> Result<RpcId, Failure> {
        let out = self.client.request(call.method(), call.into_params());
        self.inbox.send(&out)?;
        out.id()
            .cloned()
            .ok_or_else(|| Failure::server("a task request without an id"))
    }

    /// Sends `tasks/cancel` and waits a little for the server to take it; what it says is
    /// reported, never an error of its own.
    fn cancel_task(&mut self, driver: &TaskDriver) {
        let id = driver.task().task_id().to_owned();
        let out = {
            let call = driver.cancel();
            self.client.request(call.method(), call.into_params())
        };
        if let Err(e) = self.inbox.send(&out) {
            warning!("tasks/cancel for the task {id} could not be sent: {e:?}");
            return;
        }
        let deadline = Instant::now() + CANCEL_WAIT;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.inbox.idle_within(left.min(SLICE)) {
                Ok(Some(Event::Response {
                    id: Some(theirs),
                    reply,
                })) if out.id() == Some(&theirs) => {
                    match reply {
                        Reply::Result(_) => note!("the task {id} is cancelled"),
                        Reply::Error(e) => note!(
                            "the server answered tasks/cancel for the task {id} with \
                             error {}: {}",
                            e.code(),
                            e.message()
                        ),
                    }
                    return;
                }
                Ok(_) => {}
                Err(_) => return,
            }
        }
        warning!("the server did not acknowledge tasks/cancel for the task {id}");
    }
}

/// The `tools/call` result that handed a task over, from the text kept.
fn created_of(text: &str) -> Result<Map, Failure> {
    match toolnexus_core::json::parse_str(text, &toolnexus_core::Limits::DEFAULT)? {
        Value::Object(created) => Ok(created),
        _ => Err(Failure::server("the task kept is not a tools/call result")),
    }
}

/// What a handshake-era task's question kept for later waits for, the task handed over at
/// `started` by `created`.
fn question_deferral(
    (message, request, session): (Message, Value, String),
    created: &Map,
    started: u64,
) -> Result<Deferral, Failure> {
    let ttl = toolnexus_core::wire::task::created_task(created)?.and_then(|t| t.ttl_ms());
    Ok(Deferral {
        requests: vec![request],
        keys: Vec::new(),
        waiting: Waiting::Question {
            task: created.to_json(),
            question: request_text(&message),
            session,
        },
        expires_at_ms: expiry(ttl, started),
    })
}

/// Until when a task handed over at `started` with `ttl` can be followed: its ttl, else a
/// day.
fn expiry(ttl: Option<u64>, started: u64) -> u64 {
    started.saturating_add(ttl.unwrap_or(toolnexus_core::wire::mrtr::ROUND_LIFETIME_MS))
}

/// A request from the server as JSON-RPC text.
fn request_text(message: &Message) -> String {
    let mut map = Map::new();
    map.insert("jsonrpc", Value::from("2.0"));
    if let Message::Request { id, method, params } = message {
        map.insert("id", id.to_value());
        map.insert("method", Value::from(method.as_str()));
        if let Some(params) = params {
            map.insert("params", Value::Object(params.clone()));
        }
    }
    map.to_json()
}

/// When polls are due: the driver's schedule, held to `--timeout` and the task's `ttl`.
struct Schedule {
    /// When the task was handed over, by [`now_ms`].
    started: u64,
    /// The longest wait between a reply and the next poll: `--timeout`.
    longest: u64,
}

impl Schedule {
    /// When the next poll is due, the last reply read at `read_at`: the driver's time, but no
    /// later than [`Schedule::longest`] after that reply, nor than the end of the task's ttl.
    fn poll_at(&self, driver: &TaskDriver, read_at: u64) -> u64 {
        let at = driver
            .next_poll_at()
            .min(read_at.saturating_add(self.longest));
        match driver.task().ttl_ms() {
            Some(ttl) => at.min(self.started.saturating_add(ttl)),
            None => at,
        }
    }

    /// The task's ttl, when it has passed at `now` and the task has not ended.
    fn outlived(&self, driver: &TaskDriver, now: u64) -> Option<u64> {
        let ttl = driver.task().ttl_ms()?;
        (!driver.is_done() && now >= self.started.saturating_add(ttl)).then_some(ttl)
    }
}

/// What standard error was last told about the task, to say changes and remind.
struct Status {
    said: Instant,
    /// The status and message last said.
    last: (TaskStatus, Option<String>),
    /// A changed message not said yet (it came too soon after the last line).
    behind: bool,
}

impl Status {
    /// Says the task's first status.
    fn new(driver: &TaskDriver) -> Status {
        say(driver, None);
        Status {
            said: Instant::now(),
            last: current(driver),
            behind: false,
        }
    }

    /// After a poll was read: a new status is said at once, a new message once the last line
    /// is [`QUIET_FOR`] old.
    fn read(&mut self, driver: &TaskDriver) {
        let now = current(driver);
        if now == self.last {
            return;
        }
        if now.0 != self.last.0 || self.said.elapsed() >= QUIET_FOR {
            self.say(driver, None);
        } else {
            self.behind = true;
        }
        self.last = now;
    }

    /// While waiting: a message held back is said once the last line is old enough, and the
    /// status again every [`REMIND_EVERY`], with the time since it last changed.
    fn idle(&mut self, driver: &TaskDriver) {
        if self.behind && self.said.elapsed() >= QUIET_FOR {
            self.say(driver, None);
        } else if self.said.elapsed() >= REMIND_EVERY {
            let since = now_ms().saturating_sub(driver.changed_at()) / 1000;
            self.say(driver, Some(since));
        }
    }

    fn say(&mut self, driver: &TaskDriver, since: Option<u64>) {
        say(driver, since);
        self.said = Instant::now();
        self.behind = false;
    }
}

fn current(driver: &TaskDriver) -> (TaskStatus, Option<String>) {
    let task = driver.task();
    (task.status(), task.status_message().map(String::from))
}

/// `toolnexus: task ID: working: MESSAGE`, with `(N s since the last change)` for a reminder.
fn say(driver: &TaskDriver, since: Option<u64>) {
    let task = driver.task();
    let status = match task.status() {
        TaskStatus::InputRequired => "needs input",
        other => other.as_str(),
    };
    let message = task
        .status_message()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    let since = since
        .map(|s| format!(" ({s} s since the last change)"))
        .unwrap_or_default();
    note!("task {}: {status}{message}{since}", task.task_id());
}

/// ` with error CODE: MESSAGE`, from the task's error or its status message.
fn describe_failure(error: Option<&Map>, status_message: Option<&str>) -> String {
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
    let message = error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .or(status_message);
    match (code, message) {
        (Some(code), Some(message)) => format!(" with error {code}: {message}"),
        (Some(code), None) => format!(" with error {code}"),
        (None, Some(message)) => format!(": {message}"),
        (None, None) => String::new(),
    }
}
