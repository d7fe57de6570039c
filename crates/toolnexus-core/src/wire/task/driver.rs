//! [`TaskDriver`]: one task followed from its creation to its end, as data.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{
    DEFAULT_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS, TaskInfo, TaskStatus,
    declare_extension,
};
use crate::contract::{Answer, Request};
use crate::error::{Error, ErrorKind};
use crate::form::Form;
use crate::json::fields::Fields;
use crate::json::{Limits, Map, Value};
use crate::mcp::ElicitResult;
use crate::session::SessionOptions;
use crate::wire::client::Era;
use crate::wire::method::{TASKS_CANCEL, TASKS_GET, TASKS_RESULT, TASKS_UPDATE};
use crate::wire::mrtr::{CLIENT_CAPABILITIES_KEY, InputRequest, InputRequired, InputRound};
use crate::wire::rpc::{self, RpcId};

/// A request a [`TaskDriver`] asks the caller to send: its method and params. The caller sends
/// it through its own client (which stamps what its era's requests carry), or writes it whole
/// with [`TaskCall::to_request`].
#[derive(Debug, Clone, PartialEq)]
pub struct TaskCall {
    method: &'static str,
    params: Map,
}

impl TaskCall {
    /// The method: `tasks/get`, `tasks/update`, `tasks/cancel` or `tasks/result`.
    pub fn method(&self) -> &'static str {
        self.method
    }

    /// The params, `taskId` first (after the `_meta` a driver was given, if any).
    pub fn params(&self) -> &Map {
        &self.params
    }

    /// The params, taken.
    pub fn into_params(self) -> Map {
        self.params
    }

    /// The JSON-RPC request, as text, with `id`. Refused ([`ErrorKind::InvalidValue`] at `""`):
    /// a number id with a fraction.
    pub fn to_request(&self, id: &RpcId) -> Result<String, Error> {
        rpc::read_id(&id.to_value(), "")?;
        let mut message = Map::new();
        message.insert("jsonrpc", Value::from(rpc::VERSION));
        message.insert("id", id.to_value());
        message.insert("method", Value::from(self.method));
        message.insert("params", Value::Object(self.params.clone()));
        Ok(Value::Object(message).to_json())
    }
}

/// What a poll of the task says.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskEvent {
    /// The task is working; `changed` when its status or status message differ from the last
    /// read (see [`TaskDriver::changed_at`]).
    Working {
        /// Whether the status or its message changed.
        changed: bool,
    },
    /// The task needs input. In the modern era, `requests` are the input requests not shown
    /// before, each begun as a [`Request`] under its key, in the server's order (empty when
    /// all were shown already). In the handshake era the requests travel as
    /// `elicitation/create` while [`TaskDriver::result`] is open, so `requests` is empty.
    InputRequired {
        /// The requests to show, each with its key.
        requests: Vec<(String, Request)>,
    },
    /// The task completed: the tool's result (even one with `isError`). In the handshake era
    /// it is fetched with [`TaskDriver::result`], so `result` is `None`.
    Completed {
        /// The result, when the poll carried it.
        result: Option<Map>,
    },
    /// The task failed with a JSON-RPC error, the `error` object when the server gave one.
    Failed {
        /// The error, `{"code", "message", "data"?}` as received.
        error: Option<Map>,
    },
    /// The task was cancelled.
    Cancelled,
}

/// One task, followed: the requests to send, each reply read into a [`TaskEvent`], the poll
/// schedule, and the input requests shown, answered and sent. See the [module](super).
///
/// Request ids are made as [`InputRound`]'s are, from the `now` of the poll that brought the
/// input request and a sequence that counts from 1 over the task's life.
#[derive(Debug, Clone)]
pub struct TaskDriver {
    era: Era,
    task: TaskInfo,
    meta: Option<Map>,
    options: SessionOptions,
    rounds: Vec<InputRound>,
    shown: Vec<String>,
    /// The request each key of `shown` named, in the same order: a key names one request.
    asked: Vec<InputRequest>,
    sent: Vec<String>,
    sequence: u64,
    changed_at_ms: u64,
    next_poll_at_ms: u64,
}

impl TaskDriver {
    /// Follows the task a `tools/call` result hands over (see [`super::created_task`]),
    /// received at `now_ms`, for a client of `era` whose elicitations follow `options`:
    /// `Ok(None)` when the result is not a task. The first poll is due one interval later.
    pub fn start(
        result: &Map,
        era: Era,
        options: SessionOptions,
        now_ms: u64,
    ) -> Result<Option<TaskDriver>, Error> {
        let Some(task) = super::created_task(result)? else {
            return Ok(None);
        };
        let mut driver = TaskDriver {
            era,
            task,
            meta: None,
            options,
            rounds: Vec::new(),
            shown: Vec::new(),
            asked: Vec::new(),
            sent: Vec::new(),
            sequence: 1,
            changed_at_ms: now_ms,
            next_poll_at_ms: 0,
        };
        driver.schedule(now_ms);
        Ok(Some(driver))
    }

    /// [`TaskDriver::start`] from JSON text: the whole JSON-RPC response to `tools/call`, or
    /// its result alone. A JSON-RPC error response is refused ([`ErrorKind::InvalidValue`] at
    /// `/error`).
    pub fn start_json(
        input: &[u8],
        era: Era,
        options: SessionOptions,
        now_ms: u64,
        limits: &Limits,
    ) -> Result<Option<TaskDriver>, Error> {
        let (result, base) = result_of_json(input, limits)?;
        TaskDriver::start(&result, era, options, now_ms).map_err(|e| e.within(base))
    }

    /// Sets the `_meta` every request this driver writes carries first in its params (a
    /// modern client's protocol version, identity and capabilities, as its `tools/call` had
    /// them); in the modern era the tasks extension is declared in its capabilities. Refused
    /// ([`ErrorKind::WrongType`] at `/io.modelcontextprotocol~1clientCapabilities`) when the
    /// capabilities member is not an object.
    pub fn set_meta(&mut self, mut meta: Map) -> Result<(), Error> {
        if self.era == Era::Modern {
            let mut caps = match meta.remove(CLIENT_CAPABILITIES_KEY) {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(caps)) => caps,
                Some(other) => {
                    return Err(Error::new(
                        ErrorKind::WrongType,
                        "/io.modelcontextprotocol~1clientCapabilities",
                        format!(
                            "the client capabilities must be a JSON object, not {}",
                            other.type_name()
                        ),
                    ));
                }
            };
            declare_extension(&mut caps);
            meta.insert(CLIENT_CAPABILITIES_KEY, Value::Object(caps));
        }
        self.meta = Some(meta);
        Ok(())
    }

    /// The task as last read.
    pub fn task(&self) -> &TaskInfo {
        &self.task
    }

    /// The era the task is followed in.
    pub fn era(&self) -> Era {
        self.era
    }

    /// Whether the task has ended (completed, failed or cancelled, as last read).
    pub fn is_done(&self) -> bool {
        self.task.status().is_terminal()
    }

    /// The wait between polls, in milliseconds: the server's suggestion (at least
    /// [`MIN_POLL_INTERVAL_MS`], at most [`MAX_POLL_INTERVAL_MS`]), else
    /// [`DEFAULT_POLL_INTERVAL_MS`].
    pub fn poll_interval_ms(&self) -> u64 {
        self.task
            .poll_interval_ms()
            .unwrap_or(DEFAULT_POLL_INTERVAL_MS)
            .clamp(MIN_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS)
    }

    /// When the next poll is due: one interval after the last reply read.
    pub fn next_poll_at(&self) -> u64 {
        self.next_poll_at_ms
    }

    /// Whether a poll is due at `now_ms`.
    pub fn poll_due(&self, now_ms: u64) -> bool {
        now_ms >= self.next_poll_at_ms
    }

    /// When the status or its message last changed, by the caller's clock (the task's start
    /// until a change is read).
    pub fn changed_at(&self) -> u64 {
        self.changed_at_ms
    }

    /// `tasks/get` for this task.
    pub fn get(&self) -> TaskCall {
        self.call(TASKS_GET, Map::new())
    }

    /// `tasks/cancel` for this task (never `notifications/cancelled`).
    pub fn cancel(&self) -> TaskCall {
        self.call(TASKS_CANCEL, Map::new())
    }

    /// `tasks/result` for this task (2025-11-25): it stays open until the task ends, carries
    /// the server's `elicitation/create` requests meanwhile, and ends with the tool's own
    /// result or error.
    pub fn result(&self) -> TaskCall {
        self.call(TASKS_RESULT, Map::new())
    }

    /// Reads the result of a `tasks/get` (either era's spelling), received at `now_ms`, and
    /// schedules the next poll. New input requests are begun (see [`TaskEvent::InputRequired`]).
    ///
    /// Refused, with nothing changed: a task that is not this one ([`ErrorKind::InvalidValue`]
    /// at `/taskId`), the errors of [`TaskInfo::read`], in the modern era a completed task without
    /// a `result` object or an input-required one whose `inputRequests` cannot be read, and an
    /// elicitation the session refuses (its error under `/inputRequests/<key>/params`).
    pub fn read(&mut self, result: &Map, now_ms: u64) -> Result<TaskEvent, Error> {
        let task = TaskInfo::read(result)?;
        if task.task_id() != self.task.task_id() {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "/taskId",
                format!(
                    "this is the task {}, not {}",
                    crate::error::quote(task.task_id()),
                    crate::error::quote(self.task.task_id())
                ),
            ));
        }
        let fields = Fields::new(result);
        let changed = self.differs(&task);
        let event = match (task.status(), self.era) {
            (TaskStatus::Working, _) => TaskEvent::Working { changed },
            (TaskStatus::InputRequired, Era::Handshake) => TaskEvent::InputRequired {
                requests: Vec::new(),
            },
            (TaskStatus::InputRequired, Era::Modern) => {
                let requests = match fields.opt_object("inputRequests")? {
                    Some(map) => InputRequest::read_all(Value::Object(map.clone()))
                        .map_err(|e| e.within("/inputRequests"))?,
                    None => Vec::new(),
                };
                let requests = self.begin_new(requests, now_ms)?;
                TaskEvent::InputRequired { requests }
            }
            (TaskStatus::Completed, Era::Modern) => TaskEvent::Completed {
                result: Some(fields.object("result")?.clone()),
            },
            (TaskStatus::Completed, Era::Handshake) => TaskEvent::Completed {
                result: fields.opt_object("result")?.cloned(),
            },
            (TaskStatus::Failed, _) => TaskEvent::Failed {
                error: fields.opt_object("error")?.cloned(),
            },
            (TaskStatus::Cancelled, _) => TaskEvent::Cancelled,
        };
        if changed {
            self.changed_at_ms = now_ms;
        }
        self.task = task;
        self.schedule(now_ms);
        Ok(event)
    }

    /// [`TaskDriver::read`] from JSON text: the whole JSON-RPC response, or its result alone.
    /// A JSON-RPC error response (an unknown or expired task) is refused
    /// ([`ErrorKind::InvalidValue`] at `/error`), with nothing changed.
    pub fn read_json(
        &mut self,
        input: &[u8],
        now_ms: u64,
        limits: &Limits,
    ) -> Result<TaskEvent, Error> {
        let (result, base) = result_of_json(input, limits)?;
        self.read(&result, now_ms).map_err(|e| e.within(base))
    }

    /// Resolves the input request `answer.id()` with the person's answer, at `now_ms`: its key
    /// and the result [`TaskDriver::update`] will send. The session's rules hold: an unknown or
    /// answered id is [`ErrorKind::UnknownRequest`]; invalid content is
    /// [`ErrorKind::InvalidContent`] and the request stays pending.
    pub fn resolve(
        &mut self,
        answer: &Answer,
        now_ms: u64,
    ) -> Result<(String, ElicitResult), Error> {
        let round = self
            .rounds
            .iter_mut()
            .find(|r| r.session().get(answer.id()).is_some())
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::UnknownRequest,
                    "/id",
                    format!(
                        "no input request of this task is pending with the id {:?}",
                        answer.id()
                    ),
                )
            })?;
        round.resolve(answer, now_ms)
    }

    /// Gives the host's own result for an input request the driver does not handle (see
    /// [`TaskDriver::unhandled`]); refused as [`InputRound::supply`] refuses.
    pub fn supply(&mut self, key: &str, result: Value) -> Result<(), Error> {
        let round = self
            .rounds
            .iter_mut()
            .find(|r| {
                r.input_required()
                    .input_requests()
                    .iter()
                    .any(|i| i.key() == key)
            })
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::UnknownRequest,
                    "",
                    format!("no open input request of this task has the key {key:?}"),
                )
            })?;
        round.supply(key, result)
    }

    /// The input requests shown and not answered yet, each with its key, oldest first.
    pub fn pending(&self) -> Vec<(&str, &Request)> {
        self.rounds.iter().flat_map(InputRound::pending).collect()
    }

    /// The open input requests of a method the driver does not handle (any but
    /// `elicitation/create`) and without a result yet.
    pub fn unhandled(&self) -> Vec<&InputRequest> {
        self.rounds
            .iter()
            .flat_map(|r| {
                let missing = r.missing();
                r.unhandled()
                    .into_iter()
                    .filter(move |i| missing.contains(&i.key()))
            })
            .collect()
    }

    /// The prepared form of the pending form request `request_id`.
    pub fn form(&self, request_id: &str) -> Option<&Form> {
        self.rounds
            .iter()
            .find_map(|r| r.session().form(request_id))
    }

    /// Answers with cancel every pending request whose time to live has lapsed at `now_ms`:
    /// each key with its result.
    pub fn expire(&mut self, now_ms: u64) -> Vec<(String, ElicitResult)> {
        self.rounds
            .iter_mut()
            .flat_map(|r| r.expire(now_ms))
            .collect()
    }

    /// Answers with cancel every pending request, for a person who closed the dialog.
    pub fn cancel_pending(&mut self) -> Vec<(String, ElicitResult)> {
        self.rounds
            .iter_mut()
            .flat_map(InputRound::cancel_pending)
            .collect()
    }

    /// `tasks/update` carrying every answer not sent yet, each under its key (oldest first),
    /// or `None` when there is none; the answers count as sent from now on, and a key once
    /// sent is never shown again.
    ///
    /// Unless `allow_partial`, refused ([`ErrorKind::MissingResponses`], naming them) while an
    /// input request shown is still unanswered.
    pub fn update(&mut self, allow_partial: bool) -> Result<Option<TaskCall>, Error> {
        if !allow_partial {
            for round in &self.rounds {
                round.input_responses(false)?;
            }
        }
        let mut responses = Map::new();
        for round in &self.rounds {
            let gathered = round.input_responses(true)?;
            if let Some(Value::Object(map)) = gathered.get("inputResponses") {
                for (key, value) in map.iter() {
                    if !self.sent.iter().any(|k| k == key) {
                        responses.insert(key, value.clone());
                    }
                }
            }
        }
        if responses.is_empty() {
            return Ok(None);
        }
        self.sent.extend(responses.keys().map(String::from));
        // Every answer given is sent now: a round is done once nothing in it is missing.
        self.rounds.retain(|r| !r.missing().is_empty());
        let mut params = Map::new();
        params.insert("inputResponses", Value::Object(responses));
        Ok(Some(self.call(TASKS_UPDATE, params)))
    }

    /// The keys shown so far, in the order they were first seen.
    pub fn shown(&self) -> &[String] {
        &self.shown
    }

    /// The keys whose answers were sent.
    pub fn sent(&self) -> &[String] {
        &self.sent
    }

    fn call(&self, method: &'static str, rest: Map) -> TaskCall {
        let mut params = Map::new();
        if let Some(meta) = &self.meta {
            params.insert("_meta", Value::Object(meta.clone()));
        }
        params.insert("taskId", Value::from(self.task.task_id()));
        for (key, value) in rest {
            params.insert(key, value);
        }
        TaskCall { method, params }
    }

    fn differs(&self, task: &TaskInfo) -> bool {
        task.status() != self.task.status() || task.status_message() != self.task.status_message()
    }

    fn schedule(&mut self, now_ms: u64) {
        self.next_poll_at_ms = now_ms.saturating_add(self.poll_interval_ms());
    }

    /// Begins the requests whose keys were never shown, as one round; nothing changes when the
    /// session refuses one. A key shown before that names another request now is refused
    /// ([`ErrorKind::InvalidValue`] at `/inputRequests/<key>`): each key is shown once, and an
    /// answer given to one request never travels as the answer to another.
    fn begin_new(
        &mut self,
        requests: Vec<InputRequest>,
        now_ms: u64,
    ) -> Result<Vec<(String, Request)>, Error> {
        for request in &requests {
            let before = self
                .shown
                .iter()
                .zip(&self.asked)
                .find(|(key, _)| key.as_str() == request.key());
            if let Some((key, asked)) = before
                && asked != request
            {
                let mut at = String::from("/inputRequests");
                crate::json::pointer::push_key(&mut at, key);
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    at,
                    format!(
                        "the input request {} was shown already as another request; a key \
                         names one request for the task's life",
                        crate::error::quote(key)
                    ),
                ));
            }
        }
        let fresh: Vec<InputRequest> = requests
            .into_iter()
            .filter(|r| !self.shown.iter().any(|k| k == r.key()))
            .collect();
        if fresh.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = fresh.iter().map(|r| String::from(r.key())).collect();
        let input_requests = fresh.clone();
        let input = InputRequired::of_requests(fresh);
        let (round, begun) = InputRound::for_task(input, self.options, self.sequence, now_ms)?;
        self.sequence = round.next_sequence();
        self.shown.extend(keys);
        self.asked.extend(input_requests);
        self.rounds.push(round);
        Ok(begun)
    }
}

/// The result object of a JSON-RPC response or a bare result, and where it sits.
fn result_of_json(input: &[u8], limits: &Limits) -> Result<(Map, &'static str), Error> {
    let value = crate::json::parse(input, limits)?;
    let (result, _, base) = crate::wire::mrtr::unwrap_response(value)?;
    Ok((result, base))
}
