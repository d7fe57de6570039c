//! The conformance operations beyond the mappings, run through this crate's public API as
//! Kotlin and Swift call it: JSON text in, records out, and outputs written from the records.
//! The `html` operation goes as a WebView host goes: the page, the post, the re-render; the
//! `snapshot` operation as a host that keeps a round or a request between two processes.
//! Every case of those operations must give its exact bytes.

// A failed check is meant to stop the test: its helpers, not only its `#[test]`s, may panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use toolnexus_conformance::{Case, Op, load_suite, suite_dir};
use toolnexus_core::{Limits as CoreLimits, Map, Value, json};
use toolnexus_ffi::*;

const OPS: [Op; 18] = [
    Op::CheckSchema,
    Op::ValidateContent,
    Op::ApplyDefaults,
    Op::PrepareContent,
    Op::FormFields,
    Op::ParseFieldInput,
    Op::SensitiveFields,
    Op::RejectSecrets,
    Op::ReviewUrl,
    Op::Form,
    Op::Session,
    Op::ReverseRequest,
    Op::Mrtr,
    Op::Task,
    Op::Html,
    Op::Snapshot,
    Op::TerminalText,
    Op::TerminalJson,
];

/// Limits that re-read whatever the library wrote within a case's own (raised) limits.
fn wide() -> CoreLimits {
    CoreLimits::DEFAULT
        .with_max_input_bytes(usize::MAX)
        .with_max_depth(512)
        .with_max_object_members(usize::MAX)
        .with_max_array_items(usize::MAX)
}

fn text(value: &Value) -> String {
    value.to_json()
}

fn string(s: &str) -> Value {
    Value::from(s)
}

fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn parse(text: &str) -> Value {
    json::parse_str(text, &wide()).unwrap()
}

fn error_value(error: &ToolnexusError) -> Value {
    let ToolnexusError::Failed {
        kind,
        pointer,
        violations,
        ..
    } = error;
    let mut map = Map::new();
    map.insert("kind", string(&kind.as_str()));
    map.insert("pointer", string(pointer));
    if !violations.is_empty() {
        map.insert("violations", violations_value(violations));
    }
    Value::Object(map)
}

fn violations_value(violations: &[Violation]) -> Value {
    Value::Array(
        violations
            .iter()
            .map(|v| {
                object([
                    ("pointer", string(&v.pointer)),
                    ("keyword", string(&v.keyword)),
                ])
            })
            .collect(),
    )
}

fn outcome(result: Result<Value, ToolnexusError>) -> Value {
    match result {
        Ok(v) => object([("ok", v)]),
        Err(e) => object([("error", error_value(&e))]),
    }
}

/// The case's limits as the API takes them; `None` when the case keeps the defaults.
fn limits_of(case: &Case) -> Option<Limits> {
    case.limits.as_ref()?;
    let l = case.limits();
    let wide = |n: usize| u64::try_from(n).unwrap();
    Some(Limits {
        max_input_bytes: wide(l.max_input_bytes()),
        max_depth: wide(l.max_depth()),
        max_object_members: wide(l.max_object_members()),
        max_array_items: wide(l.max_array_items()),
    })
}

fn options_of(script: &Value) -> Option<SessionOptions> {
    let o = script.get("options")?;
    let mut options = SessionOptions::default();
    if let Some(modes) = o.get("modes").and_then(Value::as_str) {
        options.modes = modes_from_name(modes).unwrap();
    }
    let flag = |k: &str| o.get(k).and_then(Value::as_bool).unwrap_or(false);
    if let Some(n) = o.get("maxPending").and_then(Value::as_u64) {
        options.max_pending = n;
    }
    options.ttl_ms = o.get("ttlMs").and_then(Value::as_u64);
    options.apply_defaults = flag("applyDefaults");
    options.allow_unknown = flag("allowUnknown");
    options.reject_secrets = flag("rejectSecrets");
    Some(options)
}

fn request_value(request: &Request) -> Value {
    parse(&request_to_json(request).unwrap())
}

fn result_value(result: &ElicitResult) -> Value {
    parse(&elicit_result_to_json(result).unwrap())
}

fn rpc_id_value(id: &RpcId) -> Value {
    parse(&rpc_id_to_json(id).unwrap())
}

/// Runs one case: the output text, or the error.
fn run(case: &Case) -> Result<String, ToolnexusError> {
    let input = String::from_utf8(case.input_bytes().unwrap()).unwrap();
    let limits = limits_of(case);
    let allow_unknown = case.args.allow_unknown.unwrap_or(false);
    // The whole input's own faults come first, as the core reads it.
    let whole =
        || -> Result<Value, ToolnexusError> { Ok(parse(&compact_json(input.clone(), limits)?)) };
    let parts = || -> Result<(String, String), ToolnexusError> {
        let whole = whole()?;
        Ok((
            text(whole.get("schema").unwrap()),
            text(whole.get("content").unwrap()),
        ))
    };
    Ok(match case.op {
        Op::CheckSchema => {
            let problems = check_schema(input, limits)?;
            let list = problems
                .iter()
                .map(|p| {
                    object([
                        ("kind", string(&p.kind.as_str())),
                        ("pointer", string(&p.pointer)),
                    ])
                })
                .collect();
            text(&Value::Array(list))
        }
        Op::ValidateContent => {
            let (schema, content) = parts()?;
            text(&violations_value(&validate_content(
                schema,
                content,
                allow_unknown,
                limits,
            )?))
        }
        Op::ApplyDefaults => {
            let (schema, content) = parts()?;
            apply_defaults(schema, content, limits)?
        }
        Op::PrepareContent => {
            let (schema, content) = parts()?;
            let (content, violations) =
                match prepare_content(schema, content, allow_unknown, limits) {
                    Ok(filled) => (parse(&filled), Vec::new()),
                    Err(ToolnexusError::Failed {
                        kind: ErrorKind::InvalidContent,
                        violations,
                        ..
                    }) => (Value::Null, violations),
                    Err(e) => return Err(e),
                };
            text(&object([
                ("content", content),
                ("violations", violations_value(&violations)),
            ]))
        }
        Op::FormFields => {
            let form = Form::new(input.clone(), limits)?;
            assert_eq!(form_fields(input, limits)?, form.fields());
            form.fields_json()
        }
        Op::ParseFieldInput => {
            let name = case.args.field.as_deref().unwrap();
            let typed = case.args.text.as_deref().unwrap();
            let form = Form::new(input, limits)?;
            assert!(
                form.field(name).is_some(),
                "the schema has no field {name:?}"
            );
            match form.parse(name, typed)? {
                Some(value) => content_value_to_json(&value)?,
                None => "null".into(),
            }
        }
        Op::SensitiveFields => {
            let list = sensitive_fields(input, limits)?
                .iter()
                .map(|f| {
                    object([
                        ("name", string(&f.name)),
                        ("kind", string(&f.kind.as_str())),
                    ])
                })
                .collect();
            text(&Value::Array(list))
        }
        Op::RejectSecrets => {
            reject_secrets(input, limits)?;
            "null".into()
        }
        Op::ReviewUrl => {
            let url = whole()?;
            let Some(url) = url.as_str() else {
                return Err(ToolnexusError::Failed {
                    kind: ErrorKind::WrongType,
                    pointer: String::new(),
                    detail: "review_url takes the URL as a JSON string".into(),
                    violations: Vec::new(),
                });
            };
            let review = parse(&url_review_to_json(&review_url(url.to_string())));
            let Value::Object(mut review) = review else {
                unreachable!()
            };
            if let Some(Value::Array(findings)) = review.get_mut("findings") {
                for finding in findings {
                    if let Value::Object(f) = finding {
                        f.remove("message");
                    }
                }
            }
            text(&Value::Object(review))
        }
        Op::Form => run_form(&whole()?, limits)?,
        Op::Session => run_session(&whole()?),
        Op::ReverseRequest => {
            let script = parse(&compact_json(input.clone(), None)?);
            run_reverse(&script, limits)
        }
        Op::Mrtr => run_mrtr(&whole()?, limits),
        Op::Task => run_task(&whole()?, limits),
        Op::Html => {
            // Read within the default limits: the case's are for the post.
            let input = parse(&compact_json(input.clone(), None)?);
            run_html(&input, limits)?
        }
        Op::Snapshot => {
            // Read within the default limits: the case's are for the snapshots restored.
            let script = parse(&compact_json(input.clone(), None)?);
            run_snapshot(&script, limits)
        }
        Op::TerminalText => {
            let whole = whole()?;
            let [given, name] = terminal_members(&whole, "terminal_text", &["text", "lineBreaks"])?;
            // The API's error is about its argument; the suite places it at the member.
            let breaks = line_breaks_from_name(name).map_err(|e| at("/lineBreaks", e))?;
            text(&string(&terminal_text(given, breaks)))
        }
        Op::TerminalJson => {
            let whole = whole()?;
            let [json_text] = terminal_members(&whole, "terminal_json", &["json"])?;
            text(&string(&terminal_json(json_text)))
        }
        other => panic!("not an operation of this runner: {other:?}"),
    })
}

/// The string members `names` of a `terminal_*` input: `missing_field` for an absent or null
/// one, `wrong_type` for one of another type, each at its member.
fn terminal_members<'a, const N: usize>(
    whole: &'a Value,
    op: &str,
    names: &[&str; N],
) -> Result<[&'a str; N], ToolnexusError> {
    let failed = |kind, pointer: &str, detail: String| ToolnexusError::Failed {
        kind,
        pointer: pointer.into(),
        detail,
        violations: Vec::new(),
    };
    let Some(map) = whole.as_object() else {
        return Err(failed(
            ErrorKind::WrongType,
            "",
            format!("{op} takes a JSON object"),
        ));
    };
    let mut found = [""; N];
    for (slot, name) in found.iter_mut().zip(names) {
        let pointer = format!("/{name}");
        *slot = match map.get(name) {
            None | Some(Value::Null) => {
                return Err(failed(
                    ErrorKind::MissingField,
                    &pointer,
                    format!("`{name}` is required"),
                ));
            }
            Some(value) => value.as_str().ok_or_else(|| {
                failed(
                    ErrorKind::WrongType,
                    &pointer,
                    format!("`{name}` must be a string"),
                )
            })?,
        };
    }
    Ok(found)
}

/// `error` placed at `pointer`.
fn at(pointer: &str, error: ToolnexusError) -> ToolnexusError {
    let ToolnexusError::Failed {
        kind,
        detail,
        violations,
        ..
    } = error;
    ToolnexusError::Failed {
        kind,
        pointer: pointer.into(),
        detail,
        violations,
    }
}

/// `[[name, value], …]` as pairs.
fn pairs_of(value: &Value) -> Vec<FormPair> {
    let pairs = value.as_array().unwrap().iter().map(|pair| {
        let pair = pair.as_array().unwrap();
        FormPair {
            name: pair[0].as_str().unwrap().into(),
            value: pair[1].as_str().unwrap().into(),
        }
    });
    pairs.collect()
}

fn html_options_of(value: &Value) -> HtmlOptions {
    let mut options = HtmlOptions::default();
    for (key, member) in value.as_object().unwrap() {
        let text = || member.as_str().unwrap().to_string();
        match key {
            "asker" => options.asker = Some(text()),
            "classPrefix" => options.class_prefix = text(),
            "hidden" => options.hidden = pairs_of(member),
            "action" => options.action = Some(text()),
            "utcOffset" => options.utc_offset = text(),
            "applyDefaults" => options.apply_defaults = member.as_bool().unwrap(),
            "allowUnknown" => options.allow_unknown = member.as_bool().unwrap(),
            other => panic!("unknown option {other}"),
        }
    }
    options
}

/// The `html` operation as a WebView host calls the API: the page, or the post read back and,
/// when that throws, the page written again with the error itself. A post the core refuses
/// fails the re-render too, with the same error: the case's.
fn run_html(input: &Value, limits: Option<Limits>) -> Result<String, ToolnexusError> {
    let request = request_from_json(text(input.get("request").unwrap()), None)?;
    let options = input.get("options").map(html_options_of);
    let Some(post) = input.get("post") else {
        let html = request_html(&request, options, None, None, None)?;
        return Ok(text(&object([("html", string(&html))])));
    };
    let post = match post.as_str() {
        Some(body) => FormPost::Body {
            bytes: body.as_bytes().to_vec(),
        },
        None => FormPost::Pairs {
            pairs: pairs_of(post),
        },
    };
    match answer_from_post(&request, post.clone(), options.clone(), limits) {
        Ok(answer) => Ok(format!(
            "{{\"answer\":{}}}",
            answer_to_json(&answer).unwrap()
        )),
        Err(error) => {
            let html = request_html(&request, options, Some(post), Some(error.clone()), limits)?;
            let ToolnexusError::Failed {
                kind,
                pointer,
                violations,
                ..
            } = &error;
            let described = object([
                ("kind", string(&kind.as_str())),
                ("pointer", string(pointer)),
                ("violations", violations_value(violations)),
            ]);
            Ok(text(&object([
                ("error", described),
                ("html", string(&html)),
            ])))
        }
    }
}

/// The `form` operation: a `Form` made once from `schema`, then each of `calls` on it. The
/// typed results are written from their records; JSON results are the API's own text.
fn run_form(input: &Value, limits: Option<Limits>) -> Result<String, ToolnexusError> {
    let form = Form::new(text(input.get("schema").unwrap()), limits)?;
    let calls = input.get("calls").and_then(Value::as_array).unwrap();
    let outcomes = calls.iter().map(|call| form_call(&form, call)).collect();
    Ok(text(&Value::Array(outcomes)))
}

fn form_call(form: &Form, call: &Value) -> Value {
    let call = call.as_object().unwrap();
    let allow_unknown = call.get("allowUnknown").and_then(Value::as_bool) == Some(true);
    let (name, arg) = call.iter().find(|(k, _)| *k != "allowUnknown").unwrap();
    outcome(match name {
        "fields" => {
            let fields = form.fields();
            assert_eq!(form.field(&fields[0].name).as_ref(), fields.first());
            Ok(parse(&form.fields_json()))
        }
        "problems" => {
            let list = form.problems().into_iter().map(|p| {
                object([
                    ("kind", string(&p.kind.as_str())),
                    ("pointer", string(&p.pointer)),
                ])
            });
            Ok(Value::Array(list.collect()))
        }
        "validate" => {
            let found = form.validate(text(arg), allow_unknown, None);
            if let Ok(entries) = content_from_json(text(arg), None) {
                let typed = form.validate_entries(entries, allow_unknown);
                assert_eq!(typed, found, "validate_entries differs");
            }
            found.map(|v| violations_value(&v))
        }
        "prepare" => {
            let (content, violations) = match form.prepare(text(arg), allow_unknown, None) {
                Ok(filled) => (parse(&filled), Vec::new()),
                Err(ToolnexusError::Failed {
                    kind: ErrorKind::InvalidContent,
                    violations,
                    ..
                }) => (Value::Null, violations),
                Err(e) => return outcome(Err(e)),
            };
            Ok(object([
                ("content", content),
                ("violations", violations_value(&violations)),
            ]))
        }
        "applyDefaults" => {
            let filled = form.apply_defaults(text(arg), None);
            if let (Ok(filled), Ok(entries)) = (&filled, content_from_json(text(arg), None)) {
                let typed = form.apply_defaults_entries(entries).unwrap();
                assert_eq!(&content_to_json(&typed).unwrap(), filled);
            }
            filled.map(|t| parse(&t))
        }
        "defaults" => content_to_json(&form.defaults()).map(|t| parse(&t)),
        "parse" => {
            let field = arg.get("field").and_then(Value::as_str).unwrap();
            let typed = arg.get("text").and_then(Value::as_str).unwrap();
            form.parse(field, typed).and_then(|v| match v {
                Some(value) => Ok(parse(&content_value_to_json(&value)?)),
                None => Ok(Value::Null),
            })
        }
        "sensitiveFields" => {
            let list = form.sensitive_fields().into_iter().map(|f| {
                object([
                    ("name", string(&f.name)),
                    ("kind", string(&f.kind.as_str())),
                ])
            });
            Ok(Value::Array(list.collect()))
        }
        "rejectSecrets" => form.reject_secrets().map(|()| Value::Null),
        other => panic!("form: unknown call {other}"),
    })
}

fn steps(script: &Value) -> &Vec<Value> {
    script.get("steps").and_then(Value::as_array).unwrap()
}

fn now(step: &Value) -> Option<u64> {
    Some(step.get("now").and_then(Value::as_u64).unwrap_or(0))
}

fn answer_of(value: &Value) -> Result<Answer, ToolnexusError> {
    answer_from_json(text(value), None)
}

fn run_session(script: &Value) -> String {
    let session = Session::new(options_of(script));
    let out: Vec<Value> = steps(script)
        .iter()
        .map(|step| session_step(&session, step))
        .collect();
    text(&Value::Array(out))
}

/// One step of a `session` script.
fn session_step(session: &Session, step: &Value) -> Value {
    if let Some(params) = step.get("begin") {
        let id = step.get("id").and_then(Value::as_str).map(String::from);
        outcome(
            session
                .begin(text(params), id, now(step), None)
                .map(|r| request_value(&r)),
        )
    } else if let Some(answer) = step.get("resolve") {
        outcome(
            answer_of(answer)
                .and_then(|a| session.resolve(&a, now(step)))
                .map(|r| result_value(&r)),
        )
    } else if step.get("pending").is_some() {
        let ids = session.pending().iter().map(|r| string(&r.id)).collect();
        outcome(Ok(Value::Array(ids)))
    } else if step.get("awaiting").is_some() {
        let list = session
            .awaiting_completion()
            .iter()
            .map(|a| {
                object([
                    ("requestId", string(&a.request_id)),
                    ("elicitationId", string(&a.elicitation_id)),
                ])
            })
            .collect();
        outcome(Ok(Value::Array(list)))
    } else if let Some(eid) = step.get("complete") {
        let done = session.complete(eid.as_str().unwrap());
        outcome(Ok(done.map_or(Value::Null, |id| string(&id))))
    } else if let Some(at) = step.get("expire") {
        outcome(Ok(cancelled(&session.expire(at.as_u64()))))
    } else if step.get("cancelAll").is_some() {
        outcome(Ok(cancelled(&session.cancel_all())))
    } else {
        panic!("unknown step {}", text(step));
    }
}

fn cancelled(list: &[CancelledRequest]) -> Value {
    Value::Array(
        list.iter()
            .map(|c| object([("id", string(&c.id)), ("result", result_value(&c.result))]))
            .collect(),
    )
}

fn text_or_null(text: Option<String>) -> Value {
    text.map_or(Value::Null, |t| string(&t))
}

fn texts(list: Vec<String>) -> Value {
    Value::Array(list.iter().map(|t| string(t)).collect())
}

fn run_reverse(script: &Value, limits: Option<Limits>) -> String {
    let bridge = ReverseBridge::new(options_of(script));
    let mut out = Vec::new();
    for step in steps(script) {
        let value = if let Some(message) = step.get("receive") {
            let incoming = bridge.receive(message.as_str().unwrap().into(), now(step), limits);
            outcome(Ok(incoming_value(incoming)))
        } else if let Some(answer) = step.get("answer") {
            outcome(
                answer_of(answer)
                    .and_then(|a| bridge.respond(&a, now(step)))
                    .map(text_or_null),
            )
        } else if let Some(id) = step.get("fail") {
            let message = step
                .get("message")
                .and_then(Value::as_str)
                .map(String::from);
            outcome(bridge.fail(id.as_str().unwrap(), message).map(text_or_null))
        } else if let Some(error) = step.get("urlRequired") {
            outcome(
                bridge
                    .url_required(error.as_str().unwrap().into(), now(step), limits)
                    .map(|list| Value::Array(list.iter().map(request_value).collect())),
            )
        } else if step.get("cancelAll").is_some() {
            outcome(Ok(texts(bridge.cancel_all())))
        } else if let Some(at) = step.get("expire") {
            outcome(Ok(texts(bridge.expire(at.as_u64()))))
        } else if step.get("capabilities").is_some() {
            outcome(Ok(parse(&bridge.capabilities())))
        } else if step.get("pending").is_some() {
            let list = bridge
                .pending()
                .iter()
                .map(|p| {
                    let mut m = Map::new();
                    m.insert("requestId", string(&p.request.id));
                    if let Some(id) = &p.rpc_id {
                        m.insert("rpcId", rpc_id_value(id));
                    }
                    Value::Object(m)
                })
                .collect();
            outcome(Ok(Value::Array(list)))
        } else {
            panic!("unknown step {}", text(step));
        };
        out.push(value);
    }
    text(&Value::Array(out))
}

fn incoming_value(incoming: Incoming) -> Value {
    match incoming {
        Incoming::Elicit { rpc_id, request } => object([(
            "elicit",
            object([
                ("rpcId", rpc_id_value(&rpc_id)),
                ("request", request_value(&request)),
            ]),
        )]),
        Incoming::Reply { response } => object([("reply", string(&response))]),
        Incoming::Completed { request_id, reply } => {
            let mut m = Map::new();
            m.insert("requestId", string(&request_id));
            if let Some(reply) = reply {
                m.insert("reply", string(&reply));
            }
            object([("completed", Value::Object(m))])
        }
        Incoming::Withdrawn { request_id } => object([("withdrawn", string(&request_id))]),
        Incoming::Ignored { why } => object([("ignored", string(&why.as_str()))]),
    }
}

fn with_member(mut outcome: Value, name: &str, value: Value) -> Value {
    if let Value::Object(outer) = &mut outcome
        && let Some(Value::Object(error)) = outer.get_mut("error")
    {
        error.insert(name, value);
    }
    outcome
}

fn keyed(list: &[KeyedResult]) -> Value {
    Value::Array(list.iter().map(keyed_one).collect())
}

fn keyed_one(k: &KeyedResult) -> Value {
    object([("key", string(&k.key)), ("result", result_value(&k.result))])
}

fn round_value(round: &InputRound) -> Value {
    let requests = round
        .requests()
        .iter()
        .map(|k| {
            object([
                ("key", string(&k.key)),
                ("request", request_value(&k.request)),
            ])
        })
        .collect();
    let unhandled = round
        .unhandled()
        .iter()
        .map(|r| object([("key", string(&r.key)), ("method", string(&r.method))]))
        .collect();
    object([
        ("requests", Value::Array(requests)),
        ("unhandled", Value::Array(unhandled)),
        ("requestState", Value::Bool(round.request_state().is_some())),
    ])
}

fn run_mrtr(script: &Value, limits: Option<Limits>) -> String {
    let options = options_of(script);
    let modes = options.unwrap_or_default().modes;
    let mut round: Option<std::sync::Arc<InputRound>> = None;
    let mut last_retry: Option<String> = None;
    let mut out = Vec::new();
    for step in steps(script) {
        let value = if let Some(start) = step.get("start") {
            let request = match start.get("request") {
                Some(r) => r.as_str().unwrap().to_string(),
                None => last_retry.clone().unwrap(),
            };
            let response = start.get("response").and_then(Value::as_str).unwrap();
            match ClientRequest::from_json(request, limits) {
                Err(e) => with_member(outcome(Err(e)), "in", string("request")),
                Ok(request) => {
                    match InputRound::start(&request, response.into(), options, now(step), limits) {
                        Ok(started) => {
                            let value = outcome(Ok(round_value(&started)));
                            round = Some(started);
                            value
                        }
                        Err(e) => with_member(outcome(Err(e)), "in", string("response")),
                    }
                }
            }
        } else if let Some(response) = step.get("again") {
            let current = round.clone().unwrap();
            match current.next_round(response.as_str().unwrap().into(), now(step), limits) {
                Ok(next) => {
                    let value = outcome(Ok(round_value(&next)));
                    round = Some(next);
                    value
                }
                Err(e) => with_member(outcome(Err(e)), "in", string("response")),
            }
        } else if let Some(answer) = step.get("answer") {
            let current = round.clone().unwrap();
            outcome(
                answer_of(answer)
                    .and_then(|a| current.resolve(&a, now(step)))
                    .map(|k| keyed_one(&k)),
            )
        } else if let Some(supply) = step.get("supply") {
            let key = supply.get("key").and_then(Value::as_str).unwrap();
            let result = supply.get("result").map_or("null".into(), text);
            let current = round.clone().unwrap();
            outcome(current.supply(key, result, None).map(|()| Value::Null))
        } else if let Some(retry) = step.get("retry") {
            let id = match retry.get("id").unwrap() {
                Value::String(s) => RpcId::Text {
                    value: s.to_string(),
                },
                Value::Number(n) => RpcId::Number {
                    spelling: n.as_str().into(),
                },
                other => panic!("retry id {}", text(other)),
            };
            let partial = retry
                .get("partial")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let current = round.clone().unwrap();
            let missing = Value::Array(current.missing().iter().map(|k| string(k)).collect());
            match current.retry(&id, partial) {
                Ok(t) => {
                    last_retry = Some(t.clone());
                    outcome(Ok(string(&t)))
                }
                Err(e) => {
                    let is_missing = matches!(
                        &e,
                        ToolnexusError::Failed {
                            kind: ErrorKind::MissingResponses,
                            ..
                        }
                    );
                    let value = outcome(Err(e));
                    if is_missing {
                        with_member(value, "missing", missing)
                    } else {
                        value
                    }
                }
            }
        } else if let Some(request) = step.get("stamp") {
            outcome(
                with_client_capabilities(request.as_str().unwrap().into(), modes, limits)
                    .map(|t| string(&t)),
            )
        } else if let Some(response) = step.get("classify") {
            outcome(
                classify_result(response.as_str().unwrap().into(), limits).map(|r| match r {
                    ServerResult::Complete { .. } => string("complete"),
                    ServerResult::NeedsInput { .. } => string("input_required"),
                    ServerResult::Unknown { result_type, .. } => {
                        object([("unknown", string(&result_type))])
                    }
                }),
            )
        } else if step.get("missing").is_some() {
            let keys = round.as_ref().unwrap().missing();
            outcome(Ok(Value::Array(keys.iter().map(|k| string(k)).collect())))
        } else if step.get("pending").is_some() {
            let keys = round.as_ref().unwrap().pending();
            outcome(Ok(Value::Array(
                keys.iter().map(|k| string(&k.key)).collect(),
            )))
        } else if let Some(at) = step.get("expire") {
            outcome(Ok(keyed(&round.as_ref().unwrap().expire(at.as_u64()))))
        } else if step.get("cancelPending").is_some() {
            outcome(Ok(keyed(&round.as_ref().unwrap().cancel_pending())))
        } else {
            panic!("unknown step {}", text(step));
        };
        out.push(value);
    }
    text(&Value::Array(out))
}

/// A `restore` step's snapshot (absent: the last one written) and keys, as bytes.
fn restore_args(restore: &Value, last: Option<&Vec<u8>>) -> (Vec<u8>, Vec<Vec<u8>>) {
    let snapshot = match restore.get("snapshot") {
        Some(text) => text.as_str().unwrap().as_bytes().to_vec(),
        None => last.unwrap().clone(),
    };
    let keys = restore.get("keys").map_or_else(Vec::new, |keys| {
        let keys = keys.as_array().unwrap().iter();
        keys.map(|k| k.as_str().unwrap().as_bytes().to_vec())
            .collect()
    });
    (snapshot, keys)
}

fn key_of(snapshot: &Value) -> Option<Vec<u8>> {
    snapshot
        .get("key")
        .map(|k| k.as_str().unwrap().as_bytes().to_vec())
}

fn keyed_requests(list: &[KeyedRequest]) -> Value {
    let list = list.iter().map(|k| {
        object([
            ("key", string(&k.key)),
            ("request", request_value(&k.request)),
        ])
    });
    Value::Array(list.collect())
}

/// A `snapshot` script: a round or a session written down and restored, each restore
/// replacing the current one.
fn run_snapshot(script: &Value, limits: Option<Limits>) -> String {
    let options = options_of(script);
    let mut last: Option<Vec<u8>> = None;
    let mut out = Vec::new();
    if script.get("of").and_then(Value::as_str) == Some("session") {
        let mut session = Session::new(options);
        for step in steps(script) {
            let value = if let Some(snapshot) = step.get("snapshot") {
                let id = snapshot.get("id").and_then(Value::as_str).unwrap();
                match session.snapshot(id, key_of(snapshot)) {
                    Ok(bytes) => {
                        let value = string(&String::from_utf8(bytes.clone()).unwrap());
                        last = Some(bytes);
                        outcome(Ok(value))
                    }
                    Err(e) => outcome(Err(e)),
                }
            } else if let Some(of) = step.get("snapshotId") {
                let id = of.get("id").and_then(Value::as_str).unwrap();
                outcome(session.snapshot_id(id).map(|id| string(&id)))
            } else if let Some(restore) = step.get("restore") {
                let (snapshot, keys) = restore_args(restore, last.as_ref());
                match Session::restore(snapshot, keys, limits, now(step)) {
                    Ok(restored) => {
                        let pending = restored.pending().iter().map(request_value).collect();
                        session = restored;
                        outcome(Ok(Value::Array(pending)))
                    }
                    Err(e) => outcome(Err(e)),
                }
            } else {
                session_step(&session, step)
            };
            out.push(value);
        }
        return text(&Value::Array(out));
    }
    let mut round: Option<std::sync::Arc<InputRound>> = None;
    let current = |round: &Option<std::sync::Arc<InputRound>>| round.clone().unwrap();
    for step in steps(script) {
        let value = if let Some(start) = step.get("start") {
            let request = start.get("request").and_then(Value::as_str).unwrap();
            let response = start.get("response").and_then(Value::as_str).unwrap();
            let started = ClientRequest::from_json(request.into(), None).and_then(|request| {
                InputRound::start(&request, response.into(), options, now(step), None)
            });
            match started {
                Ok(started) => {
                    let value = outcome(Ok(round_value(&started)));
                    round = Some(started);
                    value
                }
                Err(e) => outcome(Err(e)),
            }
        } else if let Some(response) = step.get("again") {
            let next =
                current(&round).next_round(response.as_str().unwrap().into(), now(step), None);
            match next {
                Ok(next) => {
                    let value = outcome(Ok(round_value(&next)));
                    round = Some(next);
                    value
                }
                Err(e) => outcome(Err(e)),
            }
        } else if let Some(answer) = step.get("answer") {
            outcome(
                answer_of(answer)
                    .and_then(|a| current(&round).resolve(&a, now(step)))
                    .map(|k| keyed_one(&k)),
            )
        } else if let Some(supply) = step.get("supply") {
            let key = supply.get("key").and_then(Value::as_str).unwrap();
            let result = supply.get("result").map_or("null".into(), text);
            outcome(
                current(&round)
                    .supply(key, result, None)
                    .map(|()| Value::Null),
            )
        } else if let Some(retry) = step.get("retry") {
            let id = rpc_id_of(retry.get("id").unwrap());
            let partial = retry
                .get("partial")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            outcome(current(&round).retry(&id, partial).map(|t| string(&t)))
        } else if step.get("missing").is_some() {
            outcome(Ok(texts(current(&round).missing())))
        } else if step.get("pending").is_some() {
            let keys = current(&round).pending();
            outcome(Ok(Value::Array(
                keys.iter().map(|k| string(&k.key)).collect(),
            )))
        } else if let Some(snapshot) = step.get("snapshot") {
            match current(&round).snapshot(key_of(snapshot)) {
                Ok(bytes) => {
                    let value = string(&String::from_utf8(bytes.clone()).unwrap());
                    last = Some(bytes);
                    outcome(Ok(value))
                }
                Err(e) => outcome(Err(e)),
            }
        } else if step.get("snapshotId").is_some() {
            outcome(Ok(string(&current(&round).snapshot_id())))
        } else if let Some(restore) = step.get("restore") {
            let (snapshot, keys) = restore_args(restore, last.as_ref());
            match InputRound::restore(snapshot, keys, limits, now(step)) {
                Ok(restored) => {
                    let value = object([
                        ("pending", keyed_requests(&restored.pending())),
                        ("missing", texts(restored.missing())),
                    ]);
                    // What a restored round began is what was still waiting.
                    assert_eq!(restored.requests(), restored.pending());
                    round = Some(restored);
                    outcome(Ok(value))
                }
                Err(e) => outcome(Err(e)),
            }
        } else {
            panic!("unknown step {}", text(step));
        };
        out.push(value);
    }
    text(&Value::Array(out))
}

/// A request id as a step gives it: a string, or a number as spelt.
fn rpc_id_of(value: &Value) -> RpcId {
    match value {
        Value::String(s) => RpcId::Text {
            value: s.to_string(),
        },
        Value::Number(n) => RpcId::Number {
            spelling: n.as_str().into(),
        },
        other => panic!("request id {}", text(other)),
    }
}

fn optional<T>(value: Option<T>, write: impl FnOnce(T) -> Value) -> Value {
    value.map_or(Value::Null, write)
}

/// The task with the suite's names, absent members left out.
fn task_value(task: &TaskInfo) -> Value {
    let mut map = Map::new();
    map.insert("taskId", string(&task.task_id));
    map.insert("status", string(&task.status.as_str()));
    let texts = [
        ("statusMessage", &task.status_message),
        ("createdAt", &task.created_at),
        ("lastUpdatedAt", &task.last_updated_at),
    ];
    for (key, value) in texts {
        if let Some(value) = value {
            map.insert(key, string(value));
        }
    }
    for (key, value) in [
        ("ttlMs", task.ttl_ms),
        ("pollIntervalMs", task.poll_interval_ms),
    ] {
        if let Some(value) = value {
            map.insert(key, Value::from(value));
        }
    }
    Value::Object(map)
}

fn task_state(driver: &TaskDriver) -> Value {
    let era = match driver.era() {
        Era::Modern => "modern",
        Era::Handshake => "handshake",
    };
    let keys = |keys: Vec<String>| Value::Array(keys.iter().map(|k| string(k)).collect());
    object([
        ("task", task_value(&driver.task())),
        ("era", string(era)),
        ("done", Value::Bool(driver.is_done())),
        ("pollIntervalMs", Value::from(driver.poll_interval_ms())),
        ("nextPollAt", Value::from(driver.next_poll_at())),
        ("changedAt", Value::from(driver.changed_at())),
        ("shown", keys(driver.shown())),
        ("sent", keys(driver.sent())),
    ])
}

fn task_event_value(event: &TaskEvent) -> Value {
    let mut map = Map::new();
    match event {
        TaskEvent::Working { changed } => {
            map.insert("kind", string("working"));
            map.insert("changed", Value::Bool(*changed));
        }
        TaskEvent::InputRequired { requests } => {
            map.insert("kind", string("input_required"));
            let requests = requests
                .iter()
                .map(|k| {
                    object([
                        ("key", string(&k.key)),
                        ("request", request_value(&k.request)),
                    ])
                })
                .collect();
            map.insert("requests", Value::Array(requests));
        }
        TaskEvent::Completed { result_json } => {
            map.insert("kind", string("completed"));
            if let Some(result) = result_json {
                map.insert("result", parse(result));
            }
        }
        TaskEvent::Failed { error_json } => {
            map.insert("kind", string("failed"));
            if let Some(error) = error_json {
                map.insert("error", parse(error));
            }
        }
        TaskEvent::Cancelled => {
            map.insert("kind", string("cancelled"));
        }
    }
    Value::Object(map)
}

fn run_task(script: &Value, limits: Option<Limits>) -> String {
    let options = options_of(script);
    let mut driver: Option<std::sync::Arc<TaskDriver>> = None;
    let mut out = Vec::new();
    for step in steps(script) {
        let current = || driver.clone().expect("no task was started");
        let value = if let Some(start) = step.get("start") {
            let response = start.get("response").and_then(Value::as_str).unwrap();
            let era = match start.get("era").and_then(Value::as_str) {
                Some("modern") => Era::Modern,
                Some("handshake") => Era::Handshake,
                other => panic!("era {other:?}"),
            };
            match follow_task(response.into(), era, options, now(step), limits) {
                Ok(started) => {
                    let value = optional(started.as_deref(), task_state);
                    driver = started;
                    outcome(Ok(value))
                }
                Err(e) => outcome(Err(e)),
            }
        } else if let Some(meta) = step.get("meta") {
            outcome(current().set_meta(text(meta), None).map(|()| Value::Null))
        } else if let Some(response) = step.get("poll") {
            let response = response.as_str().unwrap().into();
            outcome(
                current()
                    .read(response, now(step), limits)
                    .map(|e| task_event_value(&e)),
            )
        } else if let Some(answer) = step.get("answer") {
            outcome(
                answer_of(answer)
                    .and_then(|a| current().resolve(&a, now(step)))
                    .map(|k| keyed_one(&k)),
            )
        } else if let Some(supply) = step.get("supply") {
            let key = supply.get("key").and_then(Value::as_str).unwrap();
            let result = supply.get("result").map_or("null".into(), text);
            outcome(current().supply(key, result, None).map(|()| Value::Null))
        } else if let Some(update) = step.get("update") {
            let id = rpc_id_of(update.get("id").unwrap());
            let partial = update
                .get("partial")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            outcome(current().update(partial).and_then(|call| match call {
                Some(call) => call.to_request(&id).map(|t| string(&t)),
                None => Ok(Value::Null),
            }))
        } else if let Some(id) = step.get("get") {
            outcome(
                current()
                    .get()
                    .to_request(&rpc_id_of(id))
                    .map(|t| string(&t)),
            )
        } else if let Some(id) = step.get("cancel") {
            let call = current().cancel();
            assert_eq!(call.method(), "tasks/cancel");
            outcome(call.to_request(&rpc_id_of(id)).map(|t| string(&t)))
        } else if let Some(id) = step.get("result") {
            outcome(
                current()
                    .result()
                    .to_request(&rpc_id_of(id))
                    .map(|t| string(&t)),
            )
        } else if step.get("pending").is_some() {
            let keys = current().pending();
            outcome(Ok(Value::Array(
                keys.iter().map(|k| string(&k.key)).collect(),
            )))
        } else if step.get("unhandled").is_some() {
            let list = current()
                .unhandled()
                .iter()
                .map(|r| object([("key", string(&r.key)), ("method", string(&r.method))]))
                .collect();
            outcome(Ok(Value::Array(list)))
        } else if let Some(at) = step.get("expire") {
            outcome(Ok(keyed(&current().expire(at.as_u64()))))
        } else if step.get("cancelPending").is_some() {
            outcome(Ok(keyed(&current().cancel_pending())))
        } else if step.get("state").is_some() {
            outcome(Ok(task_state(&current())))
        } else if let Some(at) = step.get("due") {
            outcome(Ok(Value::Bool(current().poll_due(at.as_u64()))))
        } else {
            panic!("unknown step {}", text(step));
        };
        out.push(value);
    }
    text(&Value::Array(out))
}

/// Why the case fails through the API, if it does.
fn check(case: &Case) -> Option<String> {
    let expect = &case.expect;
    match (&expect.output, &expect.error, run(case)) {
        (Some(want), None, Ok(out)) if *want == out => None,
        (None, Some(want), Err(e)) => {
            let ToolnexusError::Failed { kind, pointer, .. } = &e;
            let same = kind.as_str() == want.kind && *pointer == want.pointer;
            (!same).then(|| {
                format!(
                    "want error {} at {:?}, got {}",
                    want.kind,
                    want.pointer,
                    text(&error_value(&e))
                )
            })
        }
        (want, want_error, got) => Some(format!(
            "want {}, got {}",
            want.clone().unwrap_or_else(|| format!("{want_error:?}")),
            match got {
                Ok(out) => out,
                Err(e) => text(&error_value(&e)),
            }
        )),
    }
}

#[test]
fn every_case_of_these_operations_passes_through_the_api() {
    let (mut passed, mut failures) = (0, Vec::new());
    for loaded in load_suite(&suite_dir()).unwrap() {
        for case in loaded.file.cases.iter().filter(|c| OPS.contains(&c.op)) {
            match check(case) {
                None => passed += 1,
                Some(why) => failures.push(format!("{} ({:?}): {why}", case.id, case.op)),
            }
        }
    }
    println!("ffi api: {passed} passed, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed > 600, "only {passed} cases ran");
}

#[test]
fn terminal_text_shows_what_a_terminal_would_obey() {
    let rewrite = "x\x1b[2K\r\x1b[1A  URL:  https://bank.example/login";
    assert_eq!(
        terminal_text(rewrite, LineBreaks::Keep),
        r"x\u{1b}[2K\r\u{1b}[1A  URL:  https://bank.example/login"
    );
    assert_eq!(terminal_text("a\r\nb\tc", LineBreaks::Keep), "a\nb\tc");
    assert_eq!(terminal_text("a\r\nb\tc", LineBreaks::Show), r"a\r\nb\tc");
    assert_eq!(terminal_json("[\"\u{202e}\"]"), r#"["\u202e"]"#);
    for breaks in [LineBreaks::Keep, LineBreaks::Show] {
        assert_eq!(line_breaks_from_name(&breaks.as_str()).unwrap(), breaks);
    }
    let Err(ToolnexusError::Failed { kind, pointer, .. }) = line_breaks_from_name("Keep") else {
        panic!("an unknown name is refused");
    };
    assert_eq!((kind, pointer.as_str()), (ErrorKind::InvalidValue, ""));
}
