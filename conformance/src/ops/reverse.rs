//! The `reverse_request` operation: a script of JSON-RPC messages from a server and answers
//! from a host, run through one reverse bridge (the MCP 2025-06-18 / 2025-11-25 wire).

use toolnexus_core::wire::reverse::{Incoming, ReverseBridge};
use toolnexus_core::{Answer, Limits, Map, Value};

use super::session::{now_of, ok, outcome_value, parse_json, run_steps, session_options};

/// Runs `script`: `{"options"?, "steps": [...]}`; the output is the array of step outcomes.
/// `limits` apply to the messages the steps carry, as they would to messages off the wire.
pub(crate) fn run(script: &Value, limits: &Limits) -> Result<String, String> {
    let mut bridge = ReverseBridge::new(session_options(script.get("options"))?);
    run_steps(script, |step| run_step(&mut bridge, step, limits))
}

fn run_step(bridge: &mut ReverseBridge, step: &Value, limits: &Limits) -> Result<Value, String> {
    let now = now_of(step);
    if let Some(message) = step.get("receive") {
        let text = message
            .as_str()
            .ok_or("receive gives the message as a JSON string")?;
        return Ok(ok(incoming_value(bridge.receive(
            text.as_bytes(),
            now,
            limits,
        ))));
    }
    if let Some(answer) = step.get("answer") {
        let outcome = Answer::from_value(answer.clone())
            .and_then(|a| bridge.respond(&a, now))
            .map(text_or_null);
        return Ok(outcome_value(outcome));
    }
    if let Some(request_id) = step.get("fail") {
        let request_id = request_id.as_str().ok_or("fail names a request id")?;
        let message = step.get("message").and_then(Value::as_str).unwrap_or("");
        return Ok(outcome_value(
            bridge.fail(request_id, message).map(text_or_null),
        ));
    }
    if let Some(error) = step.get("urlRequired") {
        let text = error
            .as_str()
            .ok_or("urlRequired gives the error response as a JSON string")?;
        let outcome = bridge
            .url_required(text.as_bytes(), now, limits)
            .map(|requests| {
                Value::Array(requests.iter().map(|r| parse_json(&r.to_json())).collect())
            });
        return Ok(outcome_value(outcome));
    }
    if step.get("cancelAll").is_some() {
        return Ok(ok(texts(bridge.cancel_all())));
    }
    if let Some(at) = step.get("expire") {
        let at = at.as_u64().ok_or("expire gives `now` in milliseconds")?;
        return Ok(ok(texts(bridge.expire(at))));
    }
    if step.get("capabilities").is_some() {
        return Ok(ok(Value::Object(bridge.capabilities())));
    }
    if step.get("pending").is_some() {
        let list = bridge
            .session()
            .pending()
            .iter()
            .map(|r| {
                let mut m = Map::new();
                m.insert("requestId", Value::from(r.id()));
                if let Some(rpc_id) = bridge.rpc_id(r.id()) {
                    m.insert("rpcId", rpc_id.to_value());
                }
                Value::Object(m)
            })
            .collect();
        return Ok(ok(Value::Array(list)));
    }
    Err(format!("unknown step {}", step.to_json()))
}

/// What a received message asked of the host, as one JSON value:
/// `{"elicit": {"rpcId", "request"}}`, `{"reply": text}`,
/// `{"completed": {"requestId", "reply"?}}`, `{"withdrawn": requestId}` or
/// `{"ignored": reason}`.
fn incoming_value(incoming: Incoming) -> Value {
    let (key, value) = match incoming {
        Incoming::Elicit { rpc_id, request } => {
            let mut m = Map::new();
            m.insert("rpcId", rpc_id.to_value());
            m.insert("request", parse_json(&request.to_json()));
            ("elicit", Value::Object(m))
        }
        Incoming::Reply(text) => ("reply", Value::from(text)),
        Incoming::Completed { request_id, reply } => {
            let mut m = Map::new();
            m.insert("requestId", Value::from(request_id));
            if let Some(reply) = reply {
                m.insert("reply", Value::from(reply));
            }
            ("completed", Value::Object(m))
        }
        Incoming::Withdrawn { request_id } => ("withdrawn", Value::from(request_id)),
        Incoming::Ignored { why } => ("ignored", Value::from(why.as_str())),
    };
    let mut m = Map::new();
    m.insert(key, value);
    Value::Object(m)
}

fn text_or_null(text: Option<String>) -> Value {
    text.map_or(Value::Null, Value::from)
}

fn texts(list: Vec<String>) -> Value {
    Value::Array(list.into_iter().map(Value::from).collect())
}
