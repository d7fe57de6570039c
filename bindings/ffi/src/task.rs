//! Tasks: the server runs a tool call as a task (MCP 2025-11-25, or the 2026-07-28 tasks
//! extension) and the client polls it until it ends, answering the input requests it makes on
//! the way. `TaskDriver` follows one task; JSON-RPC crosses as text.

use std::sync::Arc;

use toolnexus_core::wire::client::Era as CoreEra;
use toolnexus_core::wire::task::{self, TaskStatus as CoreTaskStatus};

use crate::contract::Answer;
use crate::error::ToolnexusError;
use crate::form::Form;
use crate::json_text;
use crate::limits::Limits;
use crate::mirror::mirror_enum;
use crate::mrtr::{InputRequest, KeyedRequest, KeyedResult, keyed_requests, keyed_results};
use crate::reverse::RpcId;
use crate::shared::{SessionOptions, Shared, now_or_clock};

/// The era a task is followed in, which decides the messages' shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Era {
    /// 2026-07-28, the tasks extension: `resultType: "task"`, `tasks/get` carries the input
    /// requests, the result or the error, and answers go back in `tasks/update`.
    Modern,
    /// 2025-06-18 and 2025-11-25: a nested `CreateTaskResult`; input requests arrive as
    /// `elicitation/create` while `tasks/result` is open, which ends with the result.
    Handshake,
}

impl Era {
    fn to_core(self) -> CoreEra {
        match self {
            Era::Modern => CoreEra::Modern,
            Era::Handshake => CoreEra::Handshake,
        }
    }

    fn from_core(era: CoreEra) -> Era {
        match era {
            CoreEra::Modern => Era::Modern,
            CoreEra::Handshake => Era::Handshake,
        }
    }
}

mirror_enum! {
    /// Where a task stands.
    pub enum TaskStatus mirrors CoreTaskStatus, else Working {
        /// The request is being processed.
        Working,
        /// The server needs input from the client.
        InputRequired,
        /// The request completed; its result (even one with `isError`) is available.
        Completed,
        /// The request failed with a JSON-RPC error.
        Failed,
        /// The request was cancelled before it completed.
        Cancelled,
    }
}

/// A task as the server last described it, in either era's spelling (`ttl` and
/// `pollInterval` in 2025-11-25, `ttlMs` and `pollIntervalMs` since).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct TaskInfo {
    /// The server's id for the task.
    pub task_id: String,
    /// Where the task stands.
    pub status: TaskStatus,
    /// The server's words on the current status, if any.
    pub status_message: Option<String>,
    /// When the task was created, as the server wrote it.
    pub created_at: Option<String>,
    /// When the task last changed, as the server wrote it.
    pub last_updated_at: Option<String>,
    /// How long the server keeps the task from its creation, in milliseconds; `null` when
    /// unlimited or not said.
    pub ttl_ms: Option<u64>,
    /// The poll interval the server suggests, in milliseconds, if it suggests one.
    pub poll_interval_ms: Option<u64>,
}

impl TaskInfo {
    fn from_core(task: &task::TaskInfo) -> TaskInfo {
        TaskInfo {
            task_id: task.task_id().into(),
            status: TaskStatus::from_core(task.status()),
            status_message: task.status_message().map(Into::into),
            created_at: task.created_at().map(Into::into),
            last_updated_at: task.last_updated_at().map(Into::into),
            ttl_ms: task.ttl_ms(),
            poll_interval_ms: task.poll_interval_ms(),
        }
    }
}

/// What a poll of the task says.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum TaskEvent {
    /// The task is working.
    Working {
        /// Whether its status or status message differ from the last reply read.
        changed: bool,
    },
    /// The task needs input.
    InputRequired {
        /// The requests not shown before, each with its key, in the server's order: empty
        /// when every one was shown already, and always in the handshake era, whose requests
        /// arrive as `elicitation/create` while `tasks/result` is open.
        requests: Vec<KeyedRequest>,
    },
    /// The task completed.
    Completed {
        /// The tool's result (even one with `isError`) as compact JSON; `null` in the
        /// handshake era, which fetches it with `tasks/result`.
        result_json: Option<String>,
    },
    /// The task failed.
    Failed {
        /// The JSON-RPC error, `{"code", "message", "data"?}` as received, as compact JSON,
        /// when the server gave one.
        error_json: Option<String>,
    },
    /// The task was cancelled.
    Cancelled,
}

impl TaskEvent {
    fn from_core(event: task::TaskEvent) -> TaskEvent {
        match event {
            task::TaskEvent::Working { changed } => TaskEvent::Working { changed },
            task::TaskEvent::InputRequired { requests } => TaskEvent::InputRequired {
                requests: keyed_requests(requests),
            },
            task::TaskEvent::Completed { result } => TaskEvent::Completed {
                result_json: result.map(|r| r.to_json()),
            },
            task::TaskEvent::Failed { error } => TaskEvent::Failed {
                error_json: error.map(|e| e.to_json()),
            },
            task::TaskEvent::Cancelled => TaskEvent::Cancelled,
        }
    }
}

/// A request a [`TaskDriver`] asks the host to send: `tasks/get`, `tasks/update`,
/// `tasks/cancel` or `tasks/result`, with its params (`taskId` first, after the `_meta` the
/// driver was given). Send it through your own client, or write it whole with `toRequest`.
#[derive(uniffi::Object)]
pub struct TaskCall(task::TaskCall);

#[uniffi::export]
impl TaskCall {
    /// The method: `tasks/get`, `tasks/update`, `tasks/cancel` or `tasks/result`.
    pub fn method(&self) -> String {
        self.0.method().into()
    }

    /// The params as compact JSON.
    pub fn params_json(&self) -> String {
        self.0.params().to_json()
    }

    /// The JSON-RPC request, as compact JSON text, with `id`. Fails with `InvalidValue` for a
    /// number id with a fraction.
    pub fn to_request(&self, id: &RpcId) -> Result<String, ToolnexusError> {
        let id = id.to_core()?;
        Ok(self.0.to_request(&id)?)
    }
}

fn call(call: task::TaskCall) -> Arc<TaskCall> {
    Arc::new(TaskCall(call))
}

/// Follows the task a `tools/call` response hands over: `response_json` is the JSON-RPC
/// response or its result alone, received at `now_ms`, for a client of `era` whose input
/// requests follow `options`. `null` when the result is no task; the first poll is due one
/// interval later.
///
/// Fails for a task that cannot be read (pointers locate the fault in the text:
/// `/result/ttlMs`, `/result/task/taskId`, …) and with `InvalidValue` at `/error` for a
/// JSON-RPC error response.
#[uniffi::export(default(options = None, now_ms = None, limits = None))]
pub fn follow_task(
    response_json: String,
    era: Era,
    options: Option<SessionOptions>,
    now_ms: Option<u64>,
    limits: Option<Limits>,
) -> Result<Option<Arc<TaskDriver>>, ToolnexusError> {
    let options = options.unwrap_or_default();
    let now = now_or_clock(now_ms);
    let driver = task::TaskDriver::start_json(
        response_json.as_bytes(),
        era.to_core(),
        options.to_core(),
        now,
        &Limits::or_default(limits),
    )?;
    Ok(driver.map(|driver| {
        Arc::new(TaskDriver {
            options,
            inner: Shared::new(driver),
        })
    }))
}

/// One task, followed from the `tools/call` result that handed it over until it ends: the
/// requests to send ([`TaskCall`]), each reply read into a [`TaskEvent`], the poll schedule
/// kept as data, and the input requests begun, answered and sent, each shown once and each
/// answer sent once.
///
/// Start one with `followTask`; send `get()` when `pollDue(now)`, `read` the reply; resolve
/// each request of an `InputRequired` event (and `supply` results for the `unhandled`
/// entries), then send `update()`. Every method may be called from any thread; a `nowMs` left
/// out is read from the clock.
#[derive(uniffi::Object)]
pub struct TaskDriver {
    options: SessionOptions,
    inner: Shared<task::TaskDriver>,
}

#[uniffi::export]
impl TaskDriver {
    /// The options the task's input requests follow.
    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// Sets the `_meta` (a JSON object, as text) that every request this driver writes
    /// carries first in its params, as the client's `tools/call` had it; in the modern era the
    /// tasks extension is declared in its client capabilities. Fails with `WrongType` for a
    /// `_meta` that is not an object, or whose capabilities are not one (at
    /// `/io.modelcontextprotocol~1clientCapabilities`).
    #[uniffi::method(default(limits = None))]
    pub fn set_meta(
        &self,
        meta_json: String,
        limits: Option<Limits>,
    ) -> Result<(), ToolnexusError> {
        let meta = json_text::read_object(&meta_json, limits, "`_meta`")?;
        Ok(self.inner.with(|driver| driver.set_meta(meta))?)
    }

    /// The task as last read.
    pub fn task(&self) -> TaskInfo {
        self.inner.with(|driver| TaskInfo::from_core(driver.task()))
    }

    /// The era the task is followed in.
    pub fn era(&self) -> Era {
        Era::from_core(self.inner.with(|driver| driver.era()))
    }

    /// Whether the task has ended (completed, failed or cancelled, as last read).
    pub fn is_done(&self) -> bool {
        self.inner.with(|driver| driver.is_done())
    }

    /// The wait between polls, in milliseconds: the server's suggestion (at least 50), else
    /// 1,000.
    pub fn poll_interval_ms(&self) -> u64 {
        self.inner.with(|driver| driver.poll_interval_ms())
    }

    /// When the next poll is due (ms since 1970): one interval after the last reply read.
    pub fn next_poll_at(&self) -> u64 {
        self.inner.with(|driver| driver.next_poll_at())
    }

    /// Whether a poll is due at `now_ms`.
    #[uniffi::method(default(now_ms = None))]
    pub fn poll_due(&self, now_ms: Option<u64>) -> bool {
        let now = now_or_clock(now_ms);
        self.inner.with(|driver| driver.poll_due(now))
    }

    /// When the status or its message last changed, by the caller's clock (the task's start
    /// until a change is read).
    pub fn changed_at(&self) -> u64 {
        self.inner.with(|driver| driver.changed_at())
    }

    /// `tasks/get` for this task.
    pub fn get(&self) -> Arc<TaskCall> {
        call(self.inner.with(|driver| driver.get()))
    }

    /// `tasks/cancel` for this task.
    pub fn cancel(&self) -> Arc<TaskCall> {
        call(self.inner.with(|driver| driver.cancel()))
    }

    /// `tasks/result` for this task (2025-11-25): it stays open until the task ends, carries
    /// the server's `elicitation/create` requests meanwhile (answer them with a
    /// `ReverseBridge`), and ends with the tool's own result or error.
    pub fn result(&self) -> Arc<TaskCall> {
        call(self.inner.with(|driver| driver.result()))
    }

    /// Reads the reply to a `tasks/get` (the JSON-RPC response or its result, as text; either
    /// era's spelling), received at `now_ms`, and schedules the next poll.
    ///
    /// Fails, with nothing changed: `InvalidValue` for another task (at `/taskId`) or a
    /// JSON-RPC error response (at `/error`), the task's own errors, in the modern era a
    /// completed task without a `result` object or `inputRequests` that cannot be read, and
    /// an input request the session refuses (under `/inputRequests/<key>/params`).
    #[uniffi::method(default(now_ms = None, limits = None))]
    pub fn read(
        &self,
        response_json: String,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Result<TaskEvent, ToolnexusError> {
        let now = now_or_clock(now_ms);
        let limits = Limits::or_default(limits);
        let event = self
            .inner
            .with(|driver| driver.read_json(response_json.as_bytes(), now, &limits))?;
        Ok(TaskEvent::from_core(event))
    }

    /// Resolves an input request with the host's `answer`, at `now_ms`: its key and the
    /// result `update` will send. Fails as `Session.resolve` does (`UnknownRequest` at `/id`,
    /// `InvalidContent`); invalid content leaves the request pending.
    #[uniffi::method(default(now_ms = None))]
    pub fn resolve(
        &self,
        answer: &Answer,
        now_ms: Option<u64>,
    ) -> Result<KeyedResult, ToolnexusError> {
        let answer = answer.to_core()?;
        let now = now_or_clock(now_ms);
        let keyed = self.inner.with(|driver| driver.resolve(&answer, now))?;
        Ok(KeyedResult::from_core(keyed))
    }

    /// Gives the host's own result (a JSON object, sent as it is) for an input request the
    /// driver does not handle (see `unhandled`). Fails with `UnknownRequest` for a key no
    /// open input request has, `InvalidValue` for an `elicitation/create` key, `WrongType`
    /// for a result that is not an object.
    #[uniffi::method(default(limits = None))]
    pub fn supply(
        &self,
        key: &str,
        result_json: String,
        limits: Option<Limits>,
    ) -> Result<(), ToolnexusError> {
        let result = json_text::parse(&result_json, limits)?;
        Ok(self.inner.with(|driver| driver.supply(key, result))?)
    }

    /// The input requests shown and not answered yet, each with its key, oldest first.
    pub fn pending(&self) -> Vec<KeyedRequest> {
        self.inner.with(|driver| {
            let pending = driver.pending().into_iter();
            keyed_requests(pending.map(|(key, r)| (key.into(), r.clone())).collect())
        })
    }

    /// The open input requests of a method the driver does not handle (any but
    /// `elicitation/create`) without a result yet: `supply` one for each.
    pub fn unhandled(&self) -> Vec<InputRequest> {
        self.inner.with(|driver| {
            driver
                .unhandled()
                .into_iter()
                .map(InputRequest::from_core)
                .collect()
        })
    }

    /// The form of the pending form request `request_id`, prepared when it was begun: what a
    /// screen renders and checks input against. `null` for a URL request or an id that is not
    /// pending.
    pub fn form(&self, request_id: &str) -> Option<Arc<Form>> {
        let form = self.inner.with(|driver| driver.form(request_id).cloned());
        form.map(Form::from_core)
    }

    /// Answers with cancel every pending request whose time to live lapsed at `now_ms`; the
    /// cancels go in the next `update`.
    #[uniffi::method(default(now_ms = None))]
    pub fn expire(&self, now_ms: Option<u64>) -> Vec<KeyedResult> {
        let now = now_or_clock(now_ms);
        keyed_results(self.inner.with(|driver| driver.expire(now)))
    }

    /// Answers with cancel every pending request, for a person who closed the dialog; the
    /// cancels go in the next `update`.
    pub fn cancel_pending(&self) -> Vec<KeyedResult> {
        keyed_results(self.inner.with(task::TaskDriver::cancel_pending))
    }

    /// `tasks/update` carrying every answer not sent yet, each under its key (oldest first),
    /// or `null` when there is none; those answers count as sent from now on. Unless
    /// `partial`, fails with `MissingResponses` while an input request shown is unanswered.
    #[uniffi::method(default(partial = false))]
    pub fn update(&self, partial: bool) -> Result<Option<Arc<TaskCall>>, ToolnexusError> {
        let update = self.inner.with(|driver| driver.update(partial))?;
        Ok(update.map(call))
    }

    /// The keys shown so far, in the order they were first seen.
    pub fn shown(&self) -> Vec<String> {
        self.inner.with(|driver| driver.shown().to_vec())
    }

    /// The keys whose answers were sent.
    pub fn sent(&self) -> Vec<String> {
        self.inner.with(|driver| driver.sent().to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_status_has_its_case() {
        for status in CoreTaskStatus::ALL {
            assert_eq!(TaskStatus::from_core(status).to_core(), status);
            assert_eq!(TaskStatus::from_core(status).as_str(), status.as_str());
        }
    }

    #[test]
    fn every_era_has_its_case() {
        for era in [CoreEra::Modern, CoreEra::Handshake] {
            assert_eq!(Era::from_core(era).to_core(), era);
        }
    }
}
