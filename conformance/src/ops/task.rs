//! The `task` operation: a script of steps run against one [`TaskDriver`], a tool call run as a
//! task (MCP 2025-11-25 or the 2026-07-28 tasks extension) followed from its creation to its
//! end.

use toolnexus_core::session::SessionOptions;
use toolnexus_core::wire::client::Era;
use toolnexus_core::wire::task::{TaskCall, TaskDriver, TaskEvent, TaskInfo};
use toolnexus_core::{Answer, Limits, Map, Value};

use super::mrtr::{keyed, keyed_list, keyed_requests, partial_of, rpc_id, unhandled_list};
use super::object;
use super::session::{now_of, ok, outcome_value, run_steps, session_options};

/// Runs `script`: `{"options"?, "steps": [...]}`; the output is the array of step outcomes.
/// `limits` apply to the texts the steps carry.
pub(crate) fn run(script: &Value, limits: &Limits) -> Result<String, String> {
    let mut runner = Runner {
        options: session_options(script.get("options"))?,
        limits: *limits,
        driver: None,
    };
    run_steps(script, |step| runner.step(step))
}

struct Runner {
    options: SessionOptions,
    limits: Limits,
    driver: Option<TaskDriver>,
}

impl Runner {
    fn step(&mut self, step: &Value) -> Result<Value, String> {
        let now = now_of(step);
        if let Some(start) = step.get("start") {
            return self.start(start, now);
        }
        if let Some(meta) = step.get("meta") {
            let meta = meta.as_object().ok_or("meta is a JSON object")?.clone();
            let outcome = self.driver()?.set_meta(meta).map(|()| Value::Null);
            return Ok(outcome_value(outcome));
        }
        if let Some(response) = step.get("poll") {
            let text = response.as_str().ok_or("poll takes the response as text")?;
            let limits = self.limits;
            let outcome = self
                .driver()?
                .read_json(text.as_bytes(), now, &limits)
                .map(|event| event_value(&event));
            return Ok(outcome_value(outcome));
        }
        if let Some(answer) = step.get("answer") {
            let driver = self.driver()?;
            let outcome = Answer::from_value(answer.clone())
                .and_then(|a| driver.resolve(&a, now))
                .map(|(key, result)| keyed(&key, &result));
            return Ok(outcome_value(outcome));
        }
        if let Some(supply) = step.get("supply") {
            let key = supply
                .get("key")
                .and_then(Value::as_str)
                .ok_or("supply needs a `key`")?;
            let result = supply.get("result").cloned().unwrap_or(Value::Null);
            let outcome = self.driver()?.supply(key, result).map(|()| Value::Null);
            return Ok(outcome_value(outcome));
        }
        if let Some(update) = step.get("update") {
            let id = rpc_id(update.get("id"))?;
            let partial = partial_of(update)?;
            let outcome = self.driver()?.update(partial).and_then(|call| match call {
                Some(call) => call.to_request(&id).map(Value::from),
                None => Ok(Value::Null),
            });
            return Ok(outcome_value(outcome));
        }
        for (name, call) in [
            ("get", TaskDriver::get as fn(&TaskDriver) -> TaskCall),
            ("cancel", TaskDriver::cancel),
            ("result", TaskDriver::result),
        ] {
            if let Some(id) = step.get(name) {
                let id = rpc_id(Some(id))?;
                let outcome = call(self.driver()?).to_request(&id).map(Value::from);
                return Ok(outcome_value(outcome));
            }
        }
        if step.get("pending").is_some() {
            let keys = self
                .driver()?
                .pending()
                .into_iter()
                .map(|(key, _)| Value::from(key))
                .collect();
            return Ok(ok(Value::Array(keys)));
        }
        if step.get("unhandled").is_some() {
            return Ok(ok(unhandled_list(self.driver()?.unhandled())));
        }
        if let Some(at) = step.get("expire") {
            let at = at.as_u64().ok_or("expire gives `now` in milliseconds")?;
            return Ok(ok(keyed_list(self.driver()?.expire(at))));
        }
        if step.get("cancelPending").is_some() {
            return Ok(ok(keyed_list(self.driver()?.cancel_pending())));
        }
        if step.get("state").is_some() {
            return Ok(ok(state_value(self.driver()?)));
        }
        if let Some(at) = step.get("due") {
            let at = at.as_u64().ok_or("due gives `now` in milliseconds")?;
            return Ok(ok(Value::Bool(self.driver()?.poll_due(at))));
        }
        Err(format!("unknown step {}", step.to_json()))
    }

    fn driver(&mut self) -> Result<&mut TaskDriver, String> {
        self.driver
            .as_mut()
            .ok_or_else(|| String::from("no task was started"))
    }

    /// Starts following the task `response` hands over: the driver's state, or `null` when
    /// the response is no task. A driver started replaces the current one.
    fn start(&mut self, start: &Value, now: u64) -> Result<Value, String> {
        let response = start
            .get("response")
            .and_then(Value::as_str)
            .ok_or("start needs a `response` text")?;
        let era = match start.get("era").and_then(Value::as_str) {
            Some("modern") => Era::Modern,
            Some("handshake") => Era::Handshake,
            _ => return Err("start needs an `era`, \"modern\" or \"handshake\"".into()),
        };
        let outcome =
            TaskDriver::start_json(response.as_bytes(), era, self.options, now, &self.limits);
        Ok(outcome_value(outcome.map(|driver| {
            self.driver = driver;
            self.driver.as_ref().map_or(Value::Null, state_value)
        })))
    }
}

/// The era's name in scripts.
fn era_name(era: Era) -> &'static str {
    match era {
        Era::Modern => "modern",
        Era::Handshake => "handshake",
    }
}

/// A task as `{"taskId", "status", "statusMessage"?, "createdAt"?, "lastUpdatedAt"?,
/// "ttlMs"?, "pollIntervalMs"?}`, absent members left out.
fn task_value(task: &TaskInfo) -> Value {
    let mut map = Map::new();
    map.insert("taskId", Value::from(task.task_id()));
    map.insert("status", Value::from(task.status().as_str()));
    let texts = [
        ("statusMessage", task.status_message()),
        ("createdAt", task.created_at()),
        ("lastUpdatedAt", task.last_updated_at()),
    ];
    for (key, text) in texts {
        if let Some(text) = text {
            map.insert(key, Value::from(text));
        }
    }
    let counts = [
        ("ttlMs", task.ttl_ms()),
        ("pollIntervalMs", task.poll_interval_ms()),
    ];
    for (key, count) in counts {
        if let Some(count) = count {
            map.insert(key, Value::from(count));
        }
    }
    Value::Object(map)
}

/// What the driver holds: `{"task", "era", "done", "pollIntervalMs", "nextPollAt",
/// "changedAt", "shown", "sent"}`.
fn state_value(driver: &TaskDriver) -> Value {
    let keys =
        |keys: &[String]| Value::Array(keys.iter().map(|k| Value::from(k.as_str())).collect());
    object([
        ("task", task_value(driver.task())),
        ("era", Value::from(era_name(driver.era()))),
        ("done", Value::Bool(driver.is_done())),
        ("pollIntervalMs", Value::from(driver.poll_interval_ms())),
        ("nextPollAt", Value::from(driver.next_poll_at())),
        ("changedAt", Value::from(driver.changed_at())),
        ("shown", keys(driver.shown())),
        ("sent", keys(driver.sent())),
    ])
}

/// An event as `{"kind", ...}`: `changed` when working, `requests` (`[{"key", "request"}]`)
/// when input is required, `result` and `error` when the poll carried them.
fn event_value(event: &TaskEvent) -> Value {
    let mut map = Map::new();
    let kind = match event {
        TaskEvent::Working { .. } => "working",
        TaskEvent::InputRequired { .. } => "input_required",
        TaskEvent::Completed { .. } => "completed",
        TaskEvent::Failed { .. } => "failed",
        TaskEvent::Cancelled => "cancelled",
    };
    map.insert("kind", Value::from(kind));
    match event {
        TaskEvent::Working { changed } => {
            map.insert("changed", Value::Bool(*changed));
        }
        TaskEvent::InputRequired { requests } => {
            map.insert("requests", keyed_requests(requests));
        }
        TaskEvent::Completed {
            result: Some(result),
        } => {
            map.insert("result", Value::Object(result.clone()));
        }
        TaskEvent::Failed { error: Some(error) } => {
            map.insert("error", Value::Object(error.clone()));
        }
        _ => {}
    }
    Value::Object(map)
}
