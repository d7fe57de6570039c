//! Loads the conformance case files under `conformance/v1/` and runs each case against the
//! Rust core; the runners of the other bindings follow the same rules (see `README.md`).

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

pub mod format;
mod ops;

use base64::Engine as _;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use toolnexus_core::{
    Answer, ElicitRequestParams, ElicitResult, Error, Limits, Request, Value,
    answer_to_elicit_result, elicitation_to_request, id, json,
};

/// The folder of the version-1 case files.
pub fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("v1")
}

/// One case file: a set of cases about one area, with its flags explained.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// The schema the file follows (a relative path), for editors.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// What the cases of this file are about.
    pub description: String,
    /// Each flag used by a case of this file, with what it means.
    pub notes: std::collections::BTreeMap<String, String>,
    /// The cases.
    pub cases: Vec<Case>,
}

/// One case: an operation, its input and what must come out.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Case {
    /// Stable and unique across the whole suite.
    pub id: u64,
    /// Short, unique across the whole suite.
    pub description: String,
    /// The operation to run.
    pub op: Op,
    /// The input as a JSON value, given to the operation as its compact text (see
    /// [`Case::input_bytes`]). Its text here is as the case file spells it.
    #[serde(default, deserialize_with = "present")]
    pub input: Option<Box<RawValue>>,
    /// The input as text given as it is: whitespace, escapes, duplicate keys, text that is not
    /// JSON.
    #[serde(default)]
    pub input_text: Option<String>,
    /// The input as base64 bytes, for inputs that are not UTF-8.
    #[serde(default)]
    pub input_base64: Option<String>,
    /// The input as text pieces each repeated some times, for inputs too large to write out.
    #[serde(default)]
    pub input_parts: Option<Vec<InputPart>>,
    /// Arguments of the operation besides its input.
    #[serde(default)]
    pub args: Args,
    /// Limits other than the defaults.
    #[serde(default)]
    pub limits: Option<CaseLimits>,
    /// Labels explained in the file's `notes`.
    #[serde(default)]
    pub flags: Vec<String>,
    /// What must come out.
    pub expect: Expect,
}

/// The operations a runner must support.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Input: `ElicitRequestParams` JSON; `args.id`; output: `Request` JSON.
    ElicitationToRequest,
    /// Input: `Answer` JSON; output: `ElicitResult` JSON.
    AnswerToElicitResult,
    /// Input: `Request` JSON; output: the same request written back.
    Request,
    /// Input: `Answer` JSON; output: the same answer written back.
    Answer,
    /// Input: `ElicitResult` JSON; output: the same result written back.
    ElicitResult,
    /// No input; `args.unixMs` and `args.sequence`; output: the id as a JSON string.
    FormatId,
    /// Input: any JSON value as a `requestedSchema`; output: the array of problems found,
    /// each `{"kind", "pointer"}`.
    CheckSchema,
    /// Input: `{"schema", "content"}`; `args.allowUnknown`; output: the array of violations,
    /// each `{"pointer", "keyword"}`.
    ValidateContent,
    /// Input: `{"schema", "content"}`; output: the content with defaults filled in.
    ApplyDefaults,
    /// Input: `{"schema", "content"}`; `args.allowUnknown`; output:
    /// `{"content", "violations"}` (defaults first, then validation).
    PrepareContent,
    /// Input: a `requestedSchema`; output: the array of form fields.
    FormFields,
    /// Input: a `requestedSchema`; `args.field` and `args.text`; output: the typed value, or
    /// `null` when the text leaves an optional field empty.
    ParseFieldInput,
    /// Input: a `requestedSchema`; output: the array of fields that look like they ask for a
    /// secret, each `{"name", "kind"}`.
    SensitiveFields,
    /// Input: a `requestedSchema`; output: `null` when the reject policy lets the form
    /// through, else a `sensitive_field` error.
    RejectSecrets,
    /// Input: the URL as a JSON string; output: the review, findings without messages.
    ReviewUrl,
    /// Input: `{"schema", "calls"}`: a `Form` prepared once from the schema, then each call
    /// on it; output: each call's outcome, `{"ok": value}` or `{"error": {"kind", "pointer"}}`.
    Form,
    /// Input: a script `{"options"?, "steps"}` run against one session; output: each step's
    /// outcome (see `ops/session.rs` and the README).
    Session,
    /// Input: a script of JSON-RPC messages and answers for the 2025 reverse request;
    /// output: each step's outcome (see `ops/reverse.rs` and the README).
    ReverseRequest,
    /// Input: a multi round-trip script (2026-07-28); output: each step's outcome (see
    /// `ops/mrtr.rs` and the README).
    Mrtr,
    /// Input: a script following one task (MCP 2025-11-25 tasks or the 2026-07-28 tasks
    /// extension); output: each step's outcome (see `ops/task.rs` and the README).
    Task,
    /// Input: `{"request", "options"?, "post"?}`: the request written as an HTML form or URL
    /// consent (`{"html"}`), or the post read back (`{"answer"}`, or `{"error", "html"}`
    /// with the form written again); see `ops/html.rs` and the README.
    Html,
    /// Input: a script `{"of": "round" | "session", "options"?, "steps"}`: a round or a
    /// session's pending request written down as a snapshot and restored; output: each step's
    /// outcome (see `ops/snapshot.rs` and the README).
    Snapshot,
    /// Input: `{"text", "lineBreaks"}`; output: the text as it is safe to show on a terminal,
    /// as a JSON string (see `ops/terminal.rs`).
    TerminalText,
    /// Input: `{"json"}`, JSON text as a string; output: that text as it is safe to show on a
    /// terminal and still the same JSON, as a JSON string.
    TerminalJson,
    /// Input: a script of one authorization flow (`toolnexus-auth`): the server, its
    /// challenge or a grant to refresh, the configuration and the exchanges; output: the grant,
    /// or the authorization asked for; error: the flow's `AuthError` (see `ops/auth.rs` and the
    /// README).
    AuthFlow,
}

/// A piece of a generated input.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputPart {
    /// The text.
    pub text: String,
    /// How many times it repeats (1 when absent).
    #[serde(default)]
    pub times: Option<usize>,
    /// Whether each repetition has `{n}` in its text replaced by its index, from 0: how
    /// distinct keys are generated.
    #[serde(default)]
    pub numbered: bool,
}

/// Arguments of an operation.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Args {
    /// The request id for `elicitation_to_request`.
    #[serde(default)]
    pub id: Option<String>,
    /// Milliseconds since 1970 for `format_id`.
    #[serde(default)]
    pub unix_ms: Option<u64>,
    /// The sequence number for `format_id`.
    #[serde(default)]
    pub sequence: Option<u64>,
    /// Accept content members the schema does not declare (`validate_content`,
    /// `prepare_content`).
    #[serde(default)]
    pub allow_unknown: Option<bool>,
    /// The field name for `parse_field_input`.
    #[serde(default)]
    pub field: Option<String>,
    /// The typed text for `parse_field_input`.
    #[serde(default)]
    pub text: Option<String>,
}

/// Limits a case sets; the others keep their defaults.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CaseLimits {
    /// See [`Limits::max_input_bytes`].
    #[serde(default)]
    pub max_input_bytes: Option<usize>,
    /// See [`Limits::max_depth`].
    #[serde(default)]
    pub max_depth: Option<usize>,
    /// See [`Limits::max_object_members`].
    #[serde(default)]
    pub max_object_members: Option<usize>,
    /// See [`Limits::max_array_items`].
    #[serde(default)]
    pub max_array_items: Option<usize>,
}

/// What a case expects: exact output text, or an error of a kind at a pointer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The exact output text.
    #[serde(default)]
    pub output: Option<String>,
    /// The expected error.
    #[serde(default)]
    pub error: Option<ExpectedError>,
}

/// An expected error.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedError {
    /// The error kind's snake_case name.
    pub kind: String,
    /// The JSON pointer of the value at fault.
    pub pointer: String,
}

/// A loaded case file and where it came from.
#[derive(Debug)]
pub struct LoadedFile {
    /// The file, relative to the suite folder (`mapping/form.json`).
    pub path: String,
    /// Its contents.
    pub file: CaseFile,
}

/// Deserializes a member that is present as `Some`, even when it is `null`: an `input` of
/// `null` is the JSON text `null`, not an absent input.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<RawValue>>, D::Error> {
    Box::<RawValue>::deserialize(d).map(Some)
}

/// `text`, one JSON value as a case file spells it, written as compact JSON with the byte
/// rules: whitespace between tokens dropped, members in order and numbers as spelt (both copied
/// as they are), each string's escapes decoded and written again the way serde_json writes
/// them. Its own code, not the core's writer, so that a fault of the core's writer cannot make
/// the input it is tested on.
pub fn compact(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '"' {
            let end = string_end(rest).ok_or("an unterminated string")?;
            let decoded: String = serde_json::from_str(&rest[..end]).map_err(|e| e.to_string())?;
            out.push_str(&serde_json::to_string(&decoded).map_err(|e| e.to_string())?);
            rest = &rest[end..];
        } else {
            if !matches!(c, ' ' | '\t' | '\n' | '\r') {
                out.push(c);
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(out)
}

/// The length of the JSON string token `text` begins with, its quotes included.
fn string_end(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (at, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(at + 1),
            _ => {}
        }
    }
    None
}

/// Reads every `<area>/*.json` under `dir`, sorted by path.
pub fn load_suite(dir: &Path) -> Result<Vec<LoadedFile>, String> {
    format::files(dir)?
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let file: CaseFile =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            let rel = path.strip_prefix(dir).unwrap_or(&path);
            Ok(LoadedFile {
                path: rel.to_string_lossy().replace('\\', "/"),
                file,
            })
        })
        .collect()
}

impl Case {
    /// The input bytes, from whichever of `input`, `inputText`, `inputBase64` or `inputParts`
    /// is given: `input` written as compact JSON with the byte rules (members in order, numbers
    /// as spelt, serde_json's escapes), `inputText` as it is.
    pub fn input_bytes(&self) -> Result<Vec<u8>, String> {
        let text = match (&self.input, &self.input_text) {
            (Some(value), None) => Some(compact(value.get()).map_err(|e| format!("input: {e}"))?),
            (None, Some(text)) => Some(text.clone()),
            (None, None) => None,
            (Some(_), Some(_)) => return Err("give only one of input and inputText".into()),
        };
        match (text, &self.input_base64, &self.input_parts) {
            (Some(text), None, None) => Ok(text.into_bytes()),
            (None, Some(b64), None) => base64::engine::general_purpose::STANDARD
                .decode(b64)
                .map_err(|e| format!("inputBase64: {e}")),
            (None, None, Some(parts)) => {
                let mut out = Vec::new();
                for part in parts {
                    let times = part.times.unwrap_or(1);
                    if part.numbered {
                        for n in 0..times {
                            out.extend(part.text.replace("{n}", &n.to_string()).as_bytes());
                        }
                    } else {
                        out.extend(part.text.as_bytes().repeat(times));
                    }
                }
                Ok(out)
            }
            (None, None, None) => Ok(Vec::new()),
            _ => Err("give only one of input (or inputText), inputBase64 and inputParts".into()),
        }
    }

    /// The limits the case runs within.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::DEFAULT;
        if let Some(l) = &self.limits {
            if let Some(n) = l.max_input_bytes {
                limits = limits.with_max_input_bytes(n);
            }
            if let Some(n) = l.max_depth {
                limits = limits.with_max_depth(n);
            }
            if let Some(n) = l.max_object_members {
                limits = limits.with_max_object_members(n);
            }
            if let Some(n) = l.max_array_items {
                limits = limits.with_max_array_items(n);
            }
        }
        limits
    }
}

/// Runs the operation of `case` on `input`: the output text, or the core's error.
pub fn run_op(case: &Case, input: &[u8]) -> Result<Result<String, Error>, String> {
    let limits = case.limits();
    Ok(match case.op {
        Op::ElicitationToRequest => {
            let id = case.args.id.as_deref().ok_or("args.id is required")?;
            ElicitRequestParams::from_json(input, &limits)
                .and_then(|p| elicitation_to_request(&p, id))
                .map(|r| r.to_json())
        }
        Op::AnswerToElicitResult => Answer::from_json(input, &limits)
            .and_then(|a| answer_to_elicit_result(&a))
            .map(|r| r.to_json()),
        Op::Request => Request::from_json(input, &limits).map(|r| r.to_json()),
        Op::Answer => Answer::from_json(input, &limits).map(|a| a.to_json()),
        Op::ElicitResult => ElicitResult::from_json(input, &limits).map(|r| r.to_json()),
        Op::FormatId => {
            let ms = case.args.unix_ms.ok_or("args.unixMs is required")?;
            let seq = case.args.sequence.ok_or("args.sequence is required")?;
            let id = id::format_id(ms, seq);
            Ok(serde_json::to_string(id.as_str()).map_err(|e| e.to_string())?)
        }
        op => {
            // A `reverse_request` script is read within the default limits: the case's limits
            // are for the messages its steps carry, as they would be for messages off the wire.
            // So is an `html` input: the case's limits are for the post it carries, and a
            // `snapshot` script: the case's limits are for the snapshots it restores.
            let within = if matches!(op, Op::ReverseRequest | Op::Html | Op::Snapshot) {
                Limits::DEFAULT
            } else {
                limits
            };
            match json::parse(input, &within) {
                Ok(value) => run_on_value(case, &value, &limits)?,
                Err(e) => Err(e),
            }
        }
    })
}

/// Runs an operation whose input is one JSON value, already read.
fn run_on_value(
    case: &Case,
    value: &Value,
    limits: &Limits,
) -> Result<Result<String, Error>, String> {
    Ok(match case.op {
        Op::CheckSchema => Ok(ops::schema_check::run(value)),
        Op::ReviewUrl => ops::url::run(value)?,
        Op::Form => ops::form::run(value)?,
        Op::Session => Ok(ops::session::run(value)?),
        Op::ReverseRequest => Ok(ops::reverse::run(value, limits)?),
        Op::Mrtr => Ok(ops::mrtr::run(value, limits)?),
        Op::Task => Ok(ops::task::run(value, limits)?),
        Op::Html => ops::html::run(value, limits)?,
        Op::Snapshot => Ok(ops::snapshot::run(value, limits)?),
        Op::TerminalText => ops::terminal::text(value)?,
        Op::TerminalJson => ops::terminal::json(value)?,
        Op::ValidateContent
        | Op::ApplyDefaults
        | Op::PrepareContent
        | Op::FormFields
        | Op::ParseFieldInput
        | Op::SensitiveFields
        | Op::RejectSecrets => ops::content::run(case, value)?,
        op @ (Op::ElicitationToRequest
        | Op::AnswerToElicitResult
        | Op::Request
        | Op::Answer
        | Op::ElicitResult
        | Op::FormatId
        | Op::AuthFlow) => return Err(format!("{op:?} does not take a JSON value")),
    })
}

/// Why a case failed.
#[derive(Debug)]
pub struct Failure(pub String);

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Runs `case` and compares what came out with what it expects.
pub fn check(case: &Case) -> Result<(), Failure> {
    let input = case.input_bytes().map_err(Failure)?;
    if case.op == Op::AuthFlow {
        return check_auth(case, &input);
    }
    let got = run_op(case, &input).map_err(Failure)?;
    match (&case.expect.output, &case.expect.error, got) {
        (Some(want), None, Ok(out)) if *want == out => Ok(()),
        (Some(want), None, Ok(out)) => Err(Failure(format!(
            "output differs\n    want: {want}\n    got:  {out}"
        ))),
        (Some(want), None, Err(e)) => Err(Failure(format!(
            "expected output {want}\n    got error {} at {:?}: {}",
            e.kind(),
            e.pointer(),
            e.message()
        ))),
        (None, Some(want), Err(e))
            if e.kind().as_str() == want.kind && e.pointer() == want.pointer =>
        {
            Ok(())
        }
        (None, Some(want), Err(e)) => Err(Failure(format!(
            "expected error {} at {:?}\n    got error {} at {:?}: {}",
            want.kind,
            want.pointer,
            e.kind(),
            e.pointer(),
            e.message()
        ))),
        (None, Some(want), Ok(out)) => Err(Failure(format!(
            "expected error {} at {:?}\n    got output {}",
            want.kind,
            want.pointer,
            truncate(&out)
        ))),
        _ => Err(Failure(
            "expect needs exactly one of output and error".into(),
        )),
    }
}

/// Checks an `auth_flow` case, whose errors are the authorization crate's kinds.
fn check_auth(case: &Case, input: &[u8]) -> Result<(), Failure> {
    let got = ops::auth::run(input).map_err(Failure)?;
    match (&case.expect.output, &case.expect.error, got) {
        (Some(want), None, Ok(out)) if *want == out => Ok(()),
        (Some(want), None, Ok(out)) => Err(Failure(format!(
            "output differs\n    want: {want}\n    got:  {out}"
        ))),
        (None, Some(want), Err((kind, pointer)))
            if want.kind == kind && want.pointer == pointer =>
        {
            Ok(())
        }
        (want_output, want_error, got) => Err(Failure(format!(
            "expected {:?} {:?}\n    got {:?}",
            want_output.as_deref().map(truncate),
            want_error.as_ref().map(|e| (&e.kind, &e.pointer)),
            got.map(|o| truncate(&o))
        ))),
    }
}

fn truncate(s: &str) -> String {
    if s.len() <= 200 {
        s.to_string()
    } else {
        let cut = (0..=200)
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}… ({} bytes)", s.get(..cut).unwrap_or(""), s.len())
    }
}

/// An elicitation schema as a plain JSON Schema 2020-12, for a reference validator to judge
/// content by: the two rules toolnexus adds are spelt out, `additionalProperties` (false in
/// strict mode, the content types when unknown members are allowed) and `uniqueItems: true`
/// on multi-selects.
pub fn as_json_schema(schema: &serde_json::Value, allow_unknown: bool) -> serde_json::Value {
    let mut schema = schema.clone();
    let additional = if allow_unknown {
        serde_json::json!({"anyOf": [
            {"type": ["string", "number", "boolean"]},
            {"type": "array", "items": {"type": "string"}}
        ]})
    } else {
        serde_json::Value::Bool(false)
    };
    if let Some(map) = schema.as_object_mut() {
        map.insert(String::from("additionalProperties"), additional);
        if let Some(props) = map
            .get_mut("properties")
            .and_then(serde_json::Value::as_object_mut)
        {
            for prop in props.values_mut() {
                if let Some(p) = prop.as_object_mut()
                    && p.get("type").and_then(serde_json::Value::as_str) == Some("array")
                {
                    p.insert(String::from("uniqueItems"), serde_json::Value::Bool(true));
                }
            }
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::compact;

    #[test]
    fn compact_keeps_order_and_spelling_and_writes_serde_json_s_escapes() {
        let spelt = "{ \"b\": [1.0, -0, 1E2, 123456789012345678901234567890],\n \"a\": \"\\u00e9\\/ \\u001F\\n\\\" \" }";
        assert_eq!(
            compact(spelt).unwrap(),
            "{\"b\":[1.0,-0,1E2,123456789012345678901234567890],\"a\":\"é/ \\u001f\\n\\\" \"}"
        );
        assert_eq!(
            compact("\"https://example.com/\"").unwrap(),
            "\"https://example.com/\""
        );
        assert!(
            compact("\"\\ud800\"").is_err(),
            "a lone surrogate is no string"
        );
    }
}
