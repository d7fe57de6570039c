//! Tasks, sans I/O: a tool call the server runs on after answering it, which the client polls
//! until it ends and which may ask a person for input on the way, in both eras.
//!
//! - **2025-11-25** (tasks in the core protocol, experimental). The client asks for a task with
//!   `params.task: {ttl}` on `tools/call`, only when the server declared
//!   `tasks.requests.tools.call` and the tool's `execution.taskSupport` allows it
//!   ([`TaskSupport`]). The result is `{"task": {...}}`. The client polls `tasks/get`; when the
//!   task needs input it sends `tasks/result`, which stays open: the server's
//!   `elicitation/create` requests arrive meanwhile with
//!   `_meta["io.modelcontextprotocol/related-task"]`, which each response echoes (the
//!   [`ReverseBridge`](crate::wire::reverse::ReverseBridge) does it), and `tasks/result` ends
//!   with the tool's own result or error.
//! - **2026-07-28, the tasks extension** (`io.modelcontextprotocol/tasks`). The client declares
//!   the extension in every request's capabilities ([`declare_extension`]); the server alone
//!   decides to answer `tools/call` with `{"resultType": "task", ...}`. `tasks/get` returns the
//!   task with, by status, its `inputRequests`, its `result` or its `error`; answers travel in
//!   `tasks/update {taskId, inputResponses}`, partial sets allowed. Over streamable HTTP each of
//!   these requests names the task in `Mcp-Name`.
//!
//! A [`TaskDriver`] follows one task: it writes the requests to send ([`TaskCall`]), reads each
//! reply into a [`TaskEvent`], keeps the poll schedule as data (the caller passes `now`; the
//! core reads no clock), begins each new input request as a [`Request`](crate::Request) in the
//! same [`InputRound`](crate::wire::mrtr::InputRound) that answers `input_required` rounds,
//! and remembers which keys were shown and sent, so no key is shown twice and no answer is
//! sent twice; a key listed again as another request is refused. The wait between polls is
//! the server's suggestion held between [`MIN_POLL_INTERVAL_MS`] and [`MAX_POLL_INTERVAL_MS`].
//!
//! ```
//! use toolnexus_core::wire::client::Era;
//! use toolnexus_core::wire::task::{TaskDriver, TaskEvent};
//! use toolnexus_core::{Answer, Limits, Map, SessionOptions, json};
//!
//! let object = |text: &str| match json::parse_str(text, &Limits::DEFAULT).unwrap() {
//!     toolnexus_core::Value::Object(map) => map,
//!     _ => unreachable!(),
//! };
//! // The server answered tools/call with a task.
//! let created = object(r#"{"resultType":"task","taskId":"t1","status":"working","ttlMs":60000,"pollIntervalMs":500}"#);
//! let mut driver = TaskDriver::start(&created, Era::Modern, SessionOptions::DEFAULT, 1_000)?.unwrap();
//! assert_eq!(driver.next_poll_at(), 1_500);
//! assert_eq!(driver.get().params().to_json(), r#"{"taskId":"t1"}"#);
//!
//! // The task needs a name.
//! let event = driver.read(&object(r#"{"resultType":"complete","taskId":"t1","status":"input_required","inputRequests":{"name":{"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}}"#), 1_500)?;
//! let TaskEvent::InputRequired { requests } = event else { panic!("{event:?}") };
//! let (key, request) = &requests[0];
//! assert_eq!(key, "name");
//! let answer = Answer::from_json(format!(r#"{{"id":"{}","ok":true,"data":{{"name":"Ada"}}}}"#, request.id()).as_bytes(), &Limits::DEFAULT)?;
//! driver.resolve(&answer, 2_000)?;
//! let update = driver.update(false)?.unwrap();
//! assert_eq!(update.method(), "tasks/update");
//! assert_eq!(update.params().to_json(), r#"{"taskId":"t1","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}}}"#);
//!
//! // The same request, polled again before the server took the answer, is not shown again
//! // (the same key naming another request would be refused).
//! let again = driver.read(&object(r#"{"taskId":"t1","status":"input_required","inputRequests":{"name":{"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}}"#), 2_500)?;
//! assert_eq!(again, TaskEvent::InputRequired { requests: Vec::new() });
//!
//! let done = driver.read(&object(r#"{"taskId":"t1","status":"completed","result":{"content":[{"type":"text","text":"Hello, Ada"}]}}"#), 3_000)?;
//! assert!(matches!(done, TaskEvent::Completed { result: Some(_) }));
//! # Ok::<(), toolnexus_core::Error>(())
//! ```

mod driver;

pub use driver::{TaskCall, TaskDriver, TaskEvent};

use alloc::format;
use alloc::string::String;

use crate::error::{Error, ErrorKind, closed_set};
use crate::json::fields::Fields;
use crate::json::pointer;
use crate::json::{Map, Value};

/// The name of the 2026-07-28 tasks extension, as capabilities declare it.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The `_meta` key that ties a message to a task (2025-11-25): `{"taskId": "..."}`.
pub const RELATED_TASK_KEY: &str = "io.modelcontextprotocol/related-task";

/// The `resultType` of a result that hands over a task (2026-07-28).
pub const RESULT_TYPE: &str = "task";

/// The error code (2026-07-28) of a server that needs a capability the client did not declare,
/// such as the tasks extension.
pub const MISSING_CAPABILITY: i64 = -32021;

/// How long a client waits between polls when the server suggests no interval.
pub const DEFAULT_POLL_INTERVAL_MS: u64 = 1_000;

/// The shortest wait between polls, whatever the server suggests, so that a suggestion of `0`
/// does not become a busy loop.
pub const MIN_POLL_INTERVAL_MS: u64 = 50;

/// The longest wait between polls, whatever the server suggests, so that a huge suggestion
/// does not leave the client waiting past anything it was told to wait for.
pub const MAX_POLL_INTERVAL_MS: u64 = 60_000;

pub use crate::wire::method::{TASKS_CANCEL, TASKS_GET, TASKS_RESULT, TASKS_UPDATE};

closed_set! {
    /// Where a task stands.
    pub enum TaskStatus {
        /// The request is being processed.
        Working => "working",
        /// The server needs input from the client.
        InputRequired => "input_required",
        /// The request completed; its result (even one with `isError`) is available.
        Completed => "completed",
        /// The request failed with a JSON-RPC error.
        Failed => "failed",
        /// The request was cancelled before it completed.
        Cancelled => "cancelled",
    }
}

impl TaskStatus {
    /// Whether the task has ended: completed, failed or cancelled.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

closed_set! {
    /// What a tool says about being run as a task (2025-11-25 `execution.taskSupport`).
    pub enum TaskSupport {
        /// The tool must not be run as a task (also what an absent value means).
        Forbidden => "forbidden",
        /// The client may run the tool as a task or not.
        Optional => "optional",
        /// The client must run the tool as a task.
        Required => "required",
    }
}

impl TaskSupport {
    /// What the tool definition `tool` says (`execution.taskSupport`); absent, or a value this
    /// version does not know, is [`TaskSupport::Forbidden`].
    pub fn of_tool(tool: &Value) -> TaskSupport {
        tool.get("execution")
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
            .and_then(TaskSupport::from_name)
            .unwrap_or(TaskSupport::Forbidden)
    }
}

/// Whether a server of the handshake era runs tool calls as tasks: its `initialize` result's
/// `capabilities.tasks.requests.tools.call` is an object.
pub fn server_runs_tool_tasks(initialize_result: &Map) -> bool {
    initialize_result
        .get("capabilities")
        .and_then(|c| c.get("tasks"))
        .and_then(|t| t.get("requests"))
        .and_then(|r| r.get("tools"))
        .and_then(|t| t.get("call"))
        .is_some_and(Value::is_object)
}

/// Adds the tasks extension to client capabilities (`extensions`), keeping every other
/// member: what a 2026-07-28 request declares to say the client follows tasks.
pub fn declare_extension(capabilities: &mut Map) {
    let mut extensions = match capabilities.remove("extensions") {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    extensions.insert(EXTENSION, Value::Object(Map::new()));
    capabilities.insert("extensions", Value::Object(extensions));
}

/// The params member that asks for a task (2025-11-25): `{"ttl": ttl_ms}`, or `{}` to leave
/// the lifetime to the server.
pub fn task_request(ttl_ms: Option<u64>) -> Value {
    let mut map = Map::new();
    if let Some(ttl) = ttl_ms {
        map.insert("ttl", Value::from(ttl));
    }
    Value::Object(map)
}

/// A task as the server describes it, in either era's spelling (`ttl` and `pollInterval` in
/// 2025-11-25, `ttlMs` and `pollIntervalMs` since).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskInfo {
    task_id: String,
    status: TaskStatus,
    status_message: Option<String>,
    created_at: Option<String>,
    last_updated_at: Option<String>,
    ttl_ms: Option<u64>,
    poll_interval_ms: Option<u64>,
}

impl TaskInfo {
    /// Reads a task object. Needed: a non-empty string `taskId` and a known `status`.
    /// Optional, each of its type when present: `statusMessage`, `createdAt`, `lastUpdatedAt`
    /// (strings), the lifetime and the poll interval (non-negative integers; a lifetime of
    /// `null` is unlimited). Other members are ignored. Errors point into `map`.
    pub fn read(map: &Map) -> Result<TaskInfo, Error> {
        let fields = Fields::new(map);
        let task_id = String::from(fields.non_empty_str("taskId")?);
        let status_text = fields.str("status")?;
        let status = TaskStatus::from_name(status_text).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidValue,
                "/status",
                format!(
                    "the task status {} is none of working, input_required, completed, failed \
                     and cancelled",
                    crate::error::quote(status_text)
                ),
            )
        })?;
        Ok(TaskInfo {
            task_id,
            status,
            status_message: fields.opt_str("statusMessage")?.map(String::from),
            created_at: fields.opt_str("createdAt")?.map(String::from),
            last_updated_at: fields.opt_str("lastUpdatedAt")?.map(String::from),
            ttl_ms: millis(map, &["ttlMs", "ttl"])?,
            poll_interval_ms: millis(map, &["pollIntervalMs", "pollInterval"])?,
        })
    }

    /// The server's id for the task.
    pub fn task_id(&self) -> &str {
        &self.task_id
    }

    /// Where the task stands.
    pub fn status(&self) -> TaskStatus {
        self.status
    }

    /// The server's words on the current status, if any.
    pub fn status_message(&self) -> Option<&str> {
        self.status_message.as_deref()
    }

    /// When the task was created, as the server wrote it.
    pub fn created_at(&self) -> Option<&str> {
        self.created_at.as_deref()
    }

    /// When the task last changed, as the server wrote it.
    pub fn last_updated_at(&self) -> Option<&str> {
        self.last_updated_at.as_deref()
    }

    /// How long the server keeps the task from its creation, in milliseconds; `None` when
    /// unlimited or not said.
    pub fn ttl_ms(&self) -> Option<u64> {
        self.ttl_ms
    }

    /// The poll interval the server suggests, in milliseconds.
    pub fn poll_interval_ms(&self) -> Option<u64> {
        self.poll_interval_ms
    }
}

/// The first of `names` present (and not `null`) in `map`, as a non-negative integer.
fn millis(map: &Map, names: &[&str]) -> Result<Option<u64>, Error> {
    for name in names {
        match map.get(name) {
            None | Some(Value::Null) => continue,
            Some(value) => {
                return value.as_u64().map(Some).ok_or_else(|| {
                    Error::new(
                        ErrorKind::WrongType,
                        pointer::key(name),
                        format!(
                            "`{name}` must be a non-negative integer number of milliseconds, \
                             not {}",
                            value.type_name()
                        ),
                    )
                });
            }
        }
    }
    Ok(None)
}

/// The task a `tools/call` result hands over, if it is one: `resultType: "task"` with the task
/// inline (2026-07-28), or a result without `resultType` whose `task` member is an object
/// (2025-11-25). `Ok(None)` for any other result. Errors point into `result`.
pub fn created_task(result: &Map) -> Result<Option<TaskInfo>, Error> {
    match result.get("resultType") {
        Some(Value::String(kind)) if kind.as_str() == RESULT_TYPE => {
            TaskInfo::read(result).map(Some)
        }
        Some(_) => Ok(None),
        None => match result.get("task") {
            Some(Value::Object(task)) => TaskInfo::read(task)
                .map(Some)
                .map_err(|e| e.within("/task")),
            _ => Ok(None),
        },
    }
}

#[cfg(test)]
mod tests;
