//! The `session` operation: a script of steps run against one elicitation session, and the
//! pieces the wire operations share with it (options, step outcomes).

use toolnexus_core::content::ContentOptions;
use toolnexus_core::session::{Session, SessionOptions};
use toolnexus_core::{Answer, ElicitRequestParams, Error, Limits, Map, Modes, Value, json};

use super::{object, violations_value};

/// Runs `script`: `{"options"?, "steps": [...]}`; the output is the array of step outcomes.
pub(crate) fn run(script: &Value) -> Result<String, String> {
    let mut session = Session::new(session_options(script.get("options"))?);
    run_steps(script, |step| run_step(&mut session, step))
}

/// Runs each of the script's `steps` with `run`: the JSON array of their outcomes, or which
/// step is broken and why.
pub(crate) fn run_steps(
    script: &Value,
    mut run: impl FnMut(&Value) -> Result<Value, String>,
) -> Result<String, String> {
    let steps = script
        .get("steps")
        .and_then(Value::as_array)
        .ok_or("the script needs a `steps` array")?;
    let mut out = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        out.push(run(step).map_err(|e| format!("step {i}: {e}"))?);
    }
    Ok(Value::Array(out).to_json())
}

/// The step's `now` in milliseconds; 0 when it gives none.
pub(crate) fn now_of(step: &Value) -> u64 {
    step.get("now").and_then(Value::as_u64).unwrap_or(0)
}

/// Runs one `session` step against `session`: its outcome, or why the step is broken.
pub(crate) fn run_step(session: &mut Session, step: &Value) -> Result<Value, String> {
    let now = now_of(step);
    if let Some(params) = step.get("begin") {
        let id = step
            .get("id")
            .and_then(Value::as_str)
            .ok_or("begin needs an `id`")?;
        let outcome = ElicitRequestParams::from_value(params.clone())
            .and_then(|p| session.begin(&p, id, now))
            .map(|r| parse_json(&r.to_json()));
        return Ok(outcome_value(outcome));
    }
    if let Some(answer) = step.get("resolve") {
        let outcome = Answer::from_value(answer.clone())
            .and_then(|a| session.resolve(&a, now))
            .map(|r| parse_json(&r.to_json()));
        return Ok(outcome_value(outcome));
    }
    if step.get("pending").is_some() {
        let ids = session
            .pending()
            .iter()
            .map(|r| Value::from(r.id()))
            .collect();
        return Ok(ok(Value::Array(ids)));
    }
    if step.get("awaiting").is_some() {
        let list = session
            .awaiting_completion()
            .iter()
            .map(|a| {
                object([
                    ("requestId", Value::from(a.request_id())),
                    ("elicitationId", Value::from(a.elicitation_id())),
                ])
            })
            .collect();
        return Ok(ok(Value::Array(list)));
    }
    if let Some(eid) = step.get("complete") {
        let eid = eid
            .as_str()
            .ok_or("complete names an elicitationId string")?;
        return Ok(ok(session.complete(eid).map_or(Value::Null, Value::from)));
    }
    if let Some(at) = step.get("expire") {
        let at = at.as_u64().ok_or("expire gives `now` in milliseconds")?;
        return Ok(ok(cancelled(session.expire(at))));
    }
    if step.get("cancelAll").is_some() {
        return Ok(ok(cancelled(session.cancel_all())));
    }
    Err(format!("unknown step {}", step.to_json()))
}

fn cancelled(list: Vec<(String, toolnexus_core::ElicitResult)>) -> Value {
    Value::Array(
        list.into_iter()
            .map(|(id, result)| {
                object([
                    ("id", Value::from(id)),
                    ("result", parse_json(&result.to_json())),
                ])
            })
            .collect(),
    )
}

/// Reads the script's `options`: `{"modes": "form" | "url" | "all", "maxPending",
/// "ttlMs", "applyDefaults", "allowUnknown", "rejectSecrets"}`, each optional.
pub(crate) fn session_options(options: Option<&Value>) -> Result<SessionOptions, String> {
    let mut o = SessionOptions::DEFAULT;
    let Some(options) = options else {
        return Ok(o);
    };
    let map = options.as_object().ok_or("`options` must be an object")?;
    for (key, value) in map.iter() {
        let flag = || value.as_bool().ok_or(format!("`{key}` must be a boolean"));
        let count = || value.as_u64().ok_or(format!("`{key}` must be a count"));
        o = match key {
            "modes" => o.with_modes(
                value
                    .as_str()
                    .and_then(|name| Modes::from_name(name).ok())
                    .ok_or("`modes` is \"form\", \"url\" or \"all\"")?,
            ),
            "maxPending" => {
                o.with_max_pending(usize::try_from(count()?).map_err(|e| e.to_string())?)
            }
            "ttlMs" => o.with_ttl_ms(Some(count()?)),
            "applyDefaults" => o.with_apply_defaults(flag()?),
            "allowUnknown" => o.with_content_options(ContentOptions::STRICT.allow_unknown(flag()?)),
            "rejectSecrets" => o.with_reject_secrets(flag()?),
            other => return Err(format!("unknown option `{other}`")),
        };
    }
    Ok(o)
}

/// A step's outcome: `{"ok": value}`, or `{"error": {"kind", "pointer", "violations"?}}`
/// with each violation as `{"pointer", "keyword"}`.
pub(crate) fn outcome_value(outcome: Result<Value, Error>) -> Value {
    match outcome {
        Ok(v) => ok(v),
        Err(e) => {
            let mut err = Map::new();
            err.insert("kind", Value::from(e.kind().as_str()));
            err.insert("pointer", Value::from(e.pointer()));
            if !e.violations().is_empty() {
                err.insert("violations", violations_value(e.violations()));
            }
            object([("error", Value::Object(err))])
        }
    }
}

pub(crate) fn ok(value: Value) -> Value {
    object([("ok", value)])
}

/// Text the core wrote, read back as a value to nest in an outcome (it is always JSON).
pub(crate) fn parse_json(text: &str) -> Value {
    json::parse_str(text, &Limits::DEFAULT).unwrap_or(Value::Null)
}
