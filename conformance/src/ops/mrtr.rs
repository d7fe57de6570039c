//! The `mrtr` operation: a script of steps run against the client side of an MCP 2026-07-28
//! multi round-trip request, from the server's `input_required` result to the exact retry.

use toolnexus_core::session::SessionOptions;
use toolnexus_core::wire::mrtr::{
    ClientRequest, InputRequest, InputRequired, InputRound, ServerResult,
};
use toolnexus_core::wire::rpc::RpcId;
use toolnexus_core::{Answer, ElicitResult, Error, ErrorKind, Limits, Request, Value};

use super::object;
use super::session::{now_of, ok, outcome_value, parse_json, run_steps, session_options};

/// Runs `script`: `{"options"?, "steps": [...]}`; the output is the array of step outcomes.
/// `limits` apply to the texts the steps carry.
pub(crate) fn run(script: &Value, limits: &Limits) -> Result<String, String> {
    let mut runner = Runner {
        options: session_options(script.get("options"))?,
        limits: *limits,
        round: None,
        last_retry: None,
    };
    run_steps(script, |step| runner.step(step))
}

struct Runner {
    options: SessionOptions,
    limits: Limits,
    round: Option<InputRound>,
    last_retry: Option<String>,
}

impl Runner {
    fn step(&mut self, step: &Value) -> Result<Value, String> {
        let now = now_of(step);
        if let Some(start) = step.get("start") {
            return self.start(start, now);
        }
        if let Some(response) = step.get("again") {
            return self.again(response, now);
        }
        if let Some(answer) = step.get("answer") {
            let round = self.round()?;
            let outcome = Answer::from_value(answer.clone())
                .and_then(|a| round.resolve(&a, now))
                .map(|(key, result)| keyed(&key, &result));
            return Ok(outcome_value(outcome));
        }
        if let Some(supply) = step.get("supply") {
            let key = supply
                .get("key")
                .and_then(Value::as_str)
                .ok_or("supply needs a `key`")?;
            let result = supply.get("result").cloned().unwrap_or(Value::Null);
            let outcome = self.round()?.supply(key, result).map(|()| Value::Null);
            return Ok(outcome_value(outcome));
        }
        if let Some(retry) = step.get("retry") {
            return self.retry(retry);
        }
        if let Some(request) = step.get("stamp") {
            let text = request.as_str().ok_or("stamp takes the request as text")?;
            let outcome = toolnexus_core::wire::mrtr::with_client_capabilities(
                text.as_bytes(),
                self.options.modes(),
                &self.limits,
            )
            .map(Value::from);
            return Ok(outcome_value(outcome));
        }
        if let Some(response) = step.get("classify") {
            let text = response
                .as_str()
                .ok_or("classify takes the response as text")?;
            let outcome = ServerResult::from_json(text.as_bytes(), &self.limits).map(|r| match r {
                ServerResult::Complete(_) => Value::from("complete"),
                ServerResult::InputRequired(_) => Value::from("input_required"),
                ServerResult::Unknown { result_type, .. } => {
                    object([("unknown", Value::from(result_type))])
                }
            });
            return Ok(outcome_value(outcome));
        }
        if step.get("missing").is_some() {
            let keys = self
                .round()?
                .missing()
                .into_iter()
                .map(Value::from)
                .collect();
            return Ok(ok(Value::Array(keys)));
        }
        if step.get("pending").is_some() {
            let keys = self
                .round()?
                .pending()
                .into_iter()
                .map(|(key, _)| Value::from(key))
                .collect();
            return Ok(ok(Value::Array(keys)));
        }
        if let Some(at) = step.get("expire") {
            let at = at.as_u64().ok_or("expire gives `now` in milliseconds")?;
            return Ok(ok(keyed_list(self.round()?.expire(at))));
        }
        if step.get("cancelPending").is_some() {
            return Ok(ok(keyed_list(self.round()?.cancel_pending())));
        }
        Err(format!("unknown step {}", step.to_json()))
    }

    fn round(&mut self) -> Result<&mut InputRound, String> {
        self.round
            .as_mut()
            .ok_or_else(|| String::from("no round was started"))
    }

    fn start(&mut self, start: &Value, now: u64) -> Result<Value, String> {
        let request = match start.get("request") {
            Some(text) => String::from(text.as_str().ok_or("`request` is JSON-RPC text")?),
            None => self
                .last_retry
                .clone()
                .ok_or("start without `request` needs an earlier retry")?,
        };
        let response = text_of(start.get("response"), "start needs a `response` text")?;
        let request = match ClientRequest::from_json(request.as_bytes(), &self.limits) {
            Ok(r) => r,
            Err(e) => return Ok(located(e, "request")),
        };
        let outcome = InputRequired::from_json(response.as_bytes(), &self.limits)
            .and_then(|input| InputRound::start(request, input, self.options, now));
        Ok(self.begun(outcome))
    }

    fn again(&mut self, response: &Value, now: u64) -> Result<Value, String> {
        let response = text_of(Some(response), "again takes the response as text")?;
        let limits = self.limits;
        let round = self.round()?;
        let outcome = InputRequired::from_json(response.as_bytes(), &limits)
            .and_then(|input| round.next_round(input, now));
        Ok(self.begun(outcome))
    }

    /// The outcome of starting a round; a round started replaces the current one.
    fn begun(&mut self, outcome: Result<(InputRound, Vec<(String, Request)>), Error>) -> Value {
        match outcome {
            Ok((round, requests)) => {
                let value = round_value(&round, &requests);
                self.round = Some(round);
                ok(value)
            }
            Err(e) => located(e, "response"),
        }
    }

    fn retry(&mut self, retry: &Value) -> Result<Value, String> {
        let id = rpc_id(retry.get("id"))?;
        let partial = partial_of(retry)?;
        let round = self.round()?;
        let missing: Vec<Value> = round.missing().into_iter().map(Value::from).collect();
        match round.retry(&id, partial) {
            Ok(text) => {
                self.last_retry = Some(text.clone());
                Ok(ok(Value::from(text)))
            }
            Err(e) if e.kind() == ErrorKind::MissingResponses => Ok(with_error_member(
                outcome_value(Err(e)),
                "missing",
                Value::Array(missing),
            )),
            Err(e) => Ok(outcome_value(Err(e))),
        }
    }
}

fn text_of<'a>(value: Option<&'a Value>, what: &str) -> Result<&'a str, String> {
    value
        .and_then(Value::as_str)
        .ok_or_else(|| String::from(what))
}

/// A round's outcome: `{"requests": [{"key", "request"}], "unhandled": [{"key", "method"}],
/// "requestState": bool}`.
pub(super) fn round_value(round: &InputRound, requests: &[(String, Request)]) -> Value {
    object([
        ("requests", keyed_requests(requests)),
        ("unhandled", unhandled_list(round.unhandled())),
        ("requestState", Value::Bool(round.request_state().is_some())),
    ])
}

/// A JSON-RPC id as a step gives it: a string, or any number as it is, so that the core's own
/// check of fractions runs.
pub(super) fn rpc_id(id: Option<&Value>) -> Result<RpcId, String> {
    match id {
        Some(Value::String(s)) => Ok(RpcId::String(s.to_string())),
        Some(Value::Number(n)) => Ok(RpcId::Number(n.clone())),
        _ => Err("a request `id` is a JSON string or number".into()),
    }
}

/// A step's `partial` member: `false` when absent.
pub(super) fn partial_of(step: &Value) -> Result<bool, String> {
    Ok(step
        .get("partial")
        .map(|p| p.as_bool().ok_or("`partial` is a boolean"))
        .transpose()?
        .unwrap_or(false))
}

/// Requests begun, as `[{"key", "request"}]`.
pub(super) fn keyed_requests(requests: &[(String, Request)]) -> Value {
    Value::Array(
        requests
            .iter()
            .map(|(key, request)| {
                object([
                    ("key", Value::from(key.as_str())),
                    ("request", parse_json(&request.to_json())),
                ])
            })
            .collect(),
    )
}

/// Input requests left to the host, as `[{"key", "method"}]`.
pub(super) fn unhandled_list(requests: Vec<&InputRequest>) -> Value {
    Value::Array(
        requests
            .into_iter()
            .map(|r| {
                object([
                    ("key", Value::from(r.key())),
                    ("method", Value::from(r.method())),
                ])
            })
            .collect(),
    )
}

/// A result given for a key, as `{"key", "result"}`.
pub(super) fn keyed(key: &str, result: &ElicitResult) -> Value {
    object([
        ("key", Value::from(key)),
        ("result", parse_json(&result.to_json())),
    ])
}

/// Results given, as `[{"key", "result"}]`.
pub(super) fn keyed_list(list: Vec<(String, ElicitResult)>) -> Value {
    Value::Array(list.iter().map(|(k, r)| keyed(k, r)).collect())
}

/// An error outcome saying which text of a `start` step its pointer is in: `"request"` or
/// `"response"`.
fn located(e: Error, text: &str) -> Value {
    with_error_member(outcome_value(Err(e)), "in", Value::from(text))
}

fn with_error_member(outcome: Value, name: &str, value: Value) -> Value {
    let Value::Object(mut outer) = outcome else {
        return outcome;
    };
    if let Some(Value::Object(error)) = outer.get_mut("error") {
        error.insert(name, value);
    }
    Value::Object(outer)
}
