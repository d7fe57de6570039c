//! The `snapshot` operation: a round of a multi round-trip request, or a session's pending
//! request, written down (`InputRound::snapshot`, `Session::snapshot`), sealed or not, and
//! restored (`InputRound::restore`, `Session::restore`) within a script of the `mrtr` and
//! `session` steps.

use toolnexus_core::session::{Session, SessionOptions};
use toolnexus_core::wire::mrtr::{ClientRequest, InputRequired, InputRound};
use toolnexus_core::{Answer, Limits, Value};

use super::mrtr::{keyed, keyed_requests, partial_of, round_value, rpc_id};
use super::object;
use super::session::{self, now_of, ok, outcome_value, parse_json, run_steps, session_options};

/// Runs `script`: `{"of": "round" | "session", "options"?, "steps": [...]}`; the output is
/// the array of step outcomes. The script and the texts its steps carry are read within the
/// default limits; `limits` apply to the snapshots its steps restore.
pub(crate) fn run(script: &Value, limits: &Limits) -> Result<String, String> {
    let options = session_options(script.get("options"))?;
    match script.get("of").and_then(Value::as_str) {
        Some("round") => {
            let mut runner = RoundScript {
                options,
                limits: *limits,
                round: None,
                last: None,
            };
            run_steps(script, |step| runner.step(step))
        }
        Some("session") => {
            let mut runner = SessionScript {
                limits: *limits,
                session: Session::new(options),
                last: None,
            };
            run_steps(script, |step| runner.step(step))
        }
        _ => Err(String::from("`of` is \"round\" or \"session\"")),
    }
}

/// What a `restore` step restores: its `snapshot` text (absent: the last one written) and
/// its `keys`, each as its UTF-8 bytes.
fn restore_args(restore: &Value, last: Option<&[u8]>) -> Result<(Vec<u8>, Vec<Vec<u8>>), String> {
    let snapshot = match restore.get("snapshot") {
        Some(text) => text
            .as_str()
            .ok_or("`snapshot` is the snapshot as text")?
            .as_bytes()
            .to_vec(),
        None => last
            .ok_or("restore without `snapshot` needs one written before")?
            .to_vec(),
    };
    let keys = match restore.get("keys") {
        None => Vec::new(),
        Some(keys) => keys
            .as_array()
            .ok_or("`keys` is an array of texts")?
            .iter()
            .map(|key| {
                key.as_str()
                    .map(|k| k.as_bytes().to_vec())
                    .ok_or_else(|| String::from("each key is a text"))
            })
            .collect::<Result<_, _>>()?,
    };
    Ok((snapshot, keys))
}

/// A `snapshot` step's `key`, as its UTF-8 bytes, if it gives one.
fn key_of(snapshot: &Value) -> Result<Option<Vec<u8>>, String> {
    snapshot
        .get("key")
        .map(|key| {
            key.as_str()
                .map(|k| k.as_bytes().to_vec())
                .ok_or_else(|| String::from("`key` is a text"))
        })
        .transpose()
}

/// The snapshot as the step's `ok` value: its text (a sealed one is ASCII).
fn written(bytes: &[u8]) -> Result<Value, String> {
    String::from_utf8(bytes.to_vec())
        .map(Value::from)
        .map_err(|_| String::from("the snapshot written is not UTF-8"))
}

/// One script about a round: its options, the current round and the last snapshot written.
struct RoundScript {
    options: SessionOptions,
    limits: Limits,
    round: Option<InputRound>,
    last: Option<Vec<u8>>,
}

impl RoundScript {
    fn round(&mut self) -> Result<&mut InputRound, String> {
        self.round
            .as_mut()
            .ok_or_else(|| String::from("no round was started or restored"))
    }

    fn step(&mut self, step: &Value) -> Result<Value, String> {
        let now = now_of(step);
        if let Some(start) = step.get("start") {
            let text = |name: &str| {
                start
                    .get(name)
                    .and_then(Value::as_str)
                    .ok_or(format!("start needs a `{name}` text"))
            };
            let (request, response) = (text("request")?, text("response")?);
            let outcome = ClientRequest::from_json(request.as_bytes(), &Limits::DEFAULT).and_then(
                |request| {
                    let input = InputRequired::from_json(response.as_bytes(), &Limits::DEFAULT)?;
                    InputRound::start(request, input, self.options, now)
                },
            );
            return Ok(self.begun(outcome));
        }
        if let Some(response) = step.get("again") {
            let response = response
                .as_str()
                .ok_or("again takes the response as text")?;
            let round = self.round()?;
            let outcome = InputRequired::from_json(response.as_bytes(), &Limits::DEFAULT)
                .and_then(|input| round.next_round(input, now));
            return Ok(self.begun(outcome));
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
            let id = rpc_id(retry.get("id"))?;
            let partial = partial_of(retry)?;
            let outcome = self.round()?.retry(&id, partial).map(Value::from);
            return Ok(outcome_value(outcome));
        }
        if step.get("missing").is_some() {
            let keys = self.round()?.missing().into_iter().map(Value::from);
            return Ok(ok(Value::Array(keys.collect())));
        }
        if step.get("pending").is_some() {
            let keys = self
                .round()?
                .pending()
                .into_iter()
                .map(|(k, _)| Value::from(k));
            return Ok(ok(Value::Array(keys.collect())));
        }
        if let Some(snapshot) = step.get("snapshot") {
            let key = key_of(snapshot)?;
            return Ok(match self.round()?.snapshot(key.as_deref()) {
                Ok(bytes) => {
                    let text = written(&bytes)?;
                    self.last = Some(bytes);
                    ok(text)
                }
                Err(e) => outcome_value(Err(e)),
            });
        }
        if step.get("snapshotId").is_some() {
            return Ok(ok(Value::from(self.round()?.snapshot_id())));
        }
        if let Some(restore) = step.get("restore") {
            let (snapshot, keys) = restore_args(restore, self.last.as_deref())?;
            let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
            return Ok(
                match InputRound::restore(&snapshot, &keys, &self.limits, now) {
                    Ok(round) => {
                        let value = restored_round(&round);
                        self.round = Some(round);
                        ok(value)
                    }
                    Err(e) => outcome_value(Err(e)),
                },
            );
        }
        Err(format!("unknown step {}", step.to_json()))
    }

    /// The outcome of starting a round; a round started replaces the current one.
    fn begun(
        &mut self,
        outcome: Result<
            (InputRound, Vec<(String, toolnexus_core::Request)>),
            toolnexus_core::Error,
        >,
    ) -> Value {
        match outcome {
            Ok((round, requests)) => {
                let value = round_value(&round, &requests);
                self.round = Some(round);
                ok(value)
            }
            Err(e) => outcome_value(Err(e)),
        }
    }
}

/// A restored round: `{"pending": [{"key", "request"}], "missing": [key, ...]}`.
fn restored_round(round: &InputRound) -> Value {
    let pending: Vec<(String, toolnexus_core::Request)> = round
        .pending()
        .into_iter()
        .map(|(key, request)| (String::from(key), request.clone()))
        .collect();
    let missing = round.missing().into_iter().map(Value::from).collect();
    object([
        ("pending", keyed_requests(&pending)),
        ("missing", Value::Array(missing)),
    ])
}

/// One script about a session: the current session and the last snapshot written.
struct SessionScript {
    limits: Limits,
    session: Session,
    last: Option<Vec<u8>>,
}

impl SessionScript {
    fn step(&mut self, step: &Value) -> Result<Value, String> {
        if let Some(snapshot) = step.get("snapshot") {
            let id = snapshot
                .get("id")
                .and_then(Value::as_str)
                .ok_or("snapshot needs the `id` of a request")?;
            let key = key_of(snapshot)?;
            return Ok(match self.session.snapshot(id, key.as_deref()) {
                Ok(bytes) => {
                    let text = written(&bytes)?;
                    self.last = Some(bytes);
                    ok(text)
                }
                Err(e) => outcome_value(Err(e)),
            });
        }
        if let Some(of) = step.get("snapshotId") {
            let id = of
                .get("id")
                .and_then(Value::as_str)
                .ok_or("snapshotId needs the `id` of a request")?;
            return Ok(outcome_value(self.session.snapshot_id(id).map(Value::from)));
        }
        if let Some(restore) = step.get("restore") {
            let (snapshot, keys) = restore_args(restore, self.last.as_deref())?;
            let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
            return Ok(
                match Session::restore(&snapshot, &keys, &self.limits, now_of(step)) {
                    Ok(session) => {
                        let pending = session
                            .pending()
                            .into_iter()
                            .map(|r| parse_json(&r.to_json()))
                            .collect();
                        self.session = session;
                        ok(Value::Array(pending))
                    }
                    Err(e) => outcome_value(Err(e)),
                },
            );
        }
        session::run_step(&mut self.session, step)
    }
}
