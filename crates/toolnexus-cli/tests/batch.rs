//! `toolnexus` without a terminal: the JSON tools on the shared conformance inputs (exact
//! bytes out), and `elicit --answers` on the shapes an elicitation arrives in.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use toolnexus_conformance::{Case, Op, load_suite, suite_dir};
use toolnexus_core::{Limits, Map, Value, json, terminal_json};

static FILES: AtomicUsize = AtomicUsize::new(0);

fn temp(contents: &[u8]) -> PathBuf {
    let n = FILES.fetch_add(1, Ordering::SeqCst);
    let path = std::env::temp_dir().join(format!("toolnexus-batch-{}-{n}", std::process::id()));
    fs::write(&path, contents).unwrap();
    path
}

/// Runs `toolnexus ARGS` with `stdin` piped in, and no controlling terminal (`setsid`), so
/// that nothing can be asked.
fn toolnexus(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new("setsid")
        .arg(env!("CARGO_BIN_EXE_toolnexus"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("setsid runs toolnexus");
    // A command that fails at once may not read its input: a broken pipe is no failure here.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn parse(text: &str) -> Value {
    json::parse_str(text.trim_end(), &Limits::DEFAULT).unwrap()
}

/// `value` with the member `message` left out of every object in it: messages are for
/// people, and the cases do not pin them.
fn without_messages(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| k != "message")
                .map(|(k, v)| (k, without_messages(v)))
                .collect::<Map>(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_messages).collect()),
        other => other,
    }
}

/// What a case expects, as `(output, error kind and pointer)`.
fn expected(case: &Case) -> (Option<&str>, Option<(&str, &str)>) {
    let out = case.expect.output.as_deref();
    let err = case
        .expect
        .error
        .as_ref()
        .map(|e| (e.kind.as_str(), e.pointer.as_str()));
    (out, err)
}

/// Runs one case through the binary, or says why the command line cannot express it.
fn run_case(case: &Case) -> Option<Result<(), String>> {
    if case.limits.is_some() {
        return None; // The command line reads with the default limits only.
    }
    let input = case.input_bytes().ok()?;
    let (output, compare_messages) = match case.op {
        Op::ElicitationToRequest => {
            let id = case.args.id.clone()?;
            (
                toolnexus(&["--json-errors", "map", "--id", &id, "-"], &input),
                true,
            )
        }
        Op::AnswerToElicitResult => (toolnexus(&["--json-errors", "answer", "-"], &input), true),
        Op::FormFields => (toolnexus(&["--json-errors", "fields", "-"], &input), true),
        Op::CheckSchema => (
            toolnexus(&["--json-errors", "check-schema", "-"], &input),
            false,
        ),
        Op::ValidateContent => {
            let value = json::parse(&input, &Limits::DEFAULT).ok()?;
            let object = value.as_object()?;
            let schema = temp(object.get("schema")?.to_json().as_bytes());
            let content = object.get("content")?.to_json();
            let mut args = vec!["--json-errors", "validate", schema.to_str()?, "-"];
            if case.args.allow_unknown == Some(true) {
                args.push("--allow-unknown");
            }
            let out = toolnexus(&args, content.as_bytes());
            let _ = fs::remove_file(schema);
            (out, false)
        }
        Op::ReviewUrl => {
            let url = json::parse(&input, &Limits::DEFAULT).ok()?;
            let url = String::from(url.as_str()?);
            if url.starts_with('-') || url.contains('\0') {
                return None; // An option to the command line, or no argument at all.
            }
            (
                toolnexus(&["--json-errors", "review-url", &url], b""),
                false,
            )
        }
        Op::Html => {
            let value = json::parse(&input, &Limits::DEFAULT).ok()?;
            let object = value.as_object()?;
            let args = html_args(object)?;
            let request = object.get("request")?.to_json();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = toolnexus(&args, request.as_bytes());
            // The command prints the fragment, byte for byte; the case wraps it in `{"html"}`.
            let html = Value::from(stdout(&out));
            let mut map = Map::new();
            map.insert("html", html);
            let output = Output {
                stdout: format!("{}\n", Value::Object(map).to_json()).into_bytes(),
                ..out
            };
            (output, true)
        }
        _ => return None,
    };
    let (want_out, want_err) = expected(case);
    let got = stdout(&output);
    Some(match (want_out, want_err) {
        (Some(want), None) => {
            let same = if compare_messages {
                // The command line prints JSON safe on a terminal: the case's bytes, with the
                // characters a terminal would obey written as \uXXXX escapes. A page is
                // printed as the core wrote it.
                let want = match case.op {
                    Op::Html => std::borrow::Cow::Borrowed(want),
                    _ => terminal_json(want),
                };
                got == format!("{want}\n")
            } else {
                without_messages(parse(&got)) == parse(want)
            };
            if same {
                Ok(())
            } else {
                Err(format!("want {want}\n got {got} {}", stderr(&output)))
            }
        }
        (None, Some((kind, pointer))) => {
            let line = stderr(&output);
            let first = line.lines().next().unwrap_or_default();
            let error = json::parse_str(first, &Limits::DEFAULT).ok();
            let got_kind = error
                .as_ref()
                .and_then(|e| e.as_object()?.get("kind")?.as_str());
            let got_pointer = error
                .as_ref()
                .and_then(|e| e.as_object()?.get("pointer")?.as_str());
            if got_kind == Some(kind)
                && got_pointer == Some(pointer)
                && output.status.code() == Some(1)
            {
                Ok(())
            } else {
                Err(format!(
                    "want {kind} at {pointer:?}, got {first} ({:?})",
                    output.status
                ))
            }
        }
        _ => Err(String::from(
            "a case expects exactly one of output and error",
        )),
    })
}

/// The command line of `toolnexus html --fragment` for an `html` case without a post, or
/// `None` when the case reads a post or sets an option the command line does not have.
fn html_args(input: &Map) -> Option<Vec<String>> {
    if input.keys().any(|k| k != "request" && k != "options") {
        return None;
    }
    let mut args: Vec<String> = ["--json-errors", "html", "--fragment"]
        .map(String::from)
        .to_vec();
    if let Some(options) = input.get("options") {
        for (key, value) in options.as_object()? {
            let flag = match key {
                "asker" => "--asker",
                "classPrefix" => "--class-prefix",
                "utcOffset" => "--utc-offset",
                "action" => "--action",
                _ => return None,
            };
            // `--flag=value`, so that a value starting with `-` stays a value.
            args.push(format!("{flag}={}", value.as_str()?));
        }
    }
    args.push(String::from("-"));
    Some(args)
}

#[test]
fn the_json_tools_give_the_suite_s_exact_outputs() {
    let files = load_suite(&suite_dir()).unwrap();
    let (mut passed, mut failures, mut html) = (0usize, Vec::new(), 0usize);
    for loaded in &files {
        for case in &loaded.file.cases {
            match run_case(case) {
                None => {}
                Some(Ok(())) => {
                    passed += 1;
                    html += usize::from(case.op == Op::Html);
                }
                Some(Err(why)) => {
                    failures.push(format!("#{} {}: {why}", case.id, case.description))
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every operation the tools cover has cases; hundreds run.
    assert!(passed > 300, "only {passed} cases ran through the binary");
    // The pages of requests with no post, under the options the command line has.
    assert!(html >= 50, "only {html} html cases ran through the binary");
    println!("cli conformance: {passed} passed, 0 failed");
}

#[test]
fn the_seed_examples_map_through_the_binary() {
    let files = load_suite(&suite_dir()).unwrap();
    let seeds: Vec<&Case> = files
        .iter()
        .filter(|f| f.path.starts_with("seeds/"))
        .flat_map(|f| &f.file.cases)
        .filter(|c| matches!(c.op, Op::ElicitationToRequest | Op::AnswerToElicitResult))
        .collect();
    assert!(seeds.len() >= 8, "the seed examples were not found");
    for case in seeds {
        assert_eq!(
            run_case(case),
            Some(Ok(())),
            "#{} {}",
            case.id,
            case.description
        );
    }
}

const NAME_FORM: &str = r#"{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","minLength":2},"n":{"type":"integer","default":3}},"required":["name"]}}"#;

#[test]
fn a_refused_answer_is_explained_and_the_next_one_used() {
    let answers = temp(br#"[{"ok":true,"data":{"name":"A"}},{"ok":true,"data":{"name":"Ada"}}]"#);
    let out = toolnexus(
        &["elicit", "-", "--answers", answers.to_str().unwrap()],
        NAME_FORM.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Defaults are filled by the session.
    assert_eq!(
        stdout(&out),
        "{\"action\":\"accept\",\"content\":{\"name\":\"Ada\",\"n\":3}}\n"
    );
    let err = stderr(&out);
    assert!(err.contains("answer 1 was refused"), "{err}");
    assert!(err.contains("minLength at /name"), "{err}");
}

#[test]
fn when_the_answers_run_out_nothing_invalid_is_sent() {
    let answers = temp(br#"[{"ok":true,"data":{"name":"A"}}]"#);
    let out = toolnexus(
        &["elicit", "-", "--answers", answers.to_str().unwrap()],
        NAME_FORM.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "{\"action\":\"cancel\"}\n");
    assert!(stderr(&out).contains("the answers ran out"));
}

#[test]
fn decline_and_cancel_answers() {
    for (answers, reply) in [
        (
            r#"[{"ok":false,"reason":"declined"}]"#,
            r#"{"action":"decline"}"#,
        ),
        (r#"[{"ok":false}]"#, r#"{"action":"cancel"}"#),
        (
            r#"[{"ok":false,"reason":"expired"}]"#,
            r#"{"action":"cancel"}"#,
        ),
    ] {
        let file = temp(answers.as_bytes());
        let out = toolnexus(
            &["elicit", "-", "--answers", file.to_str().unwrap()],
            NAME_FORM.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{answers}");
        assert_eq!(stdout(&out), format!("{reply}\n"), "{answers}");
    }
}

#[test]
fn a_json_rpc_request_is_answered_with_its_id_echoed_exactly() {
    let request = r#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}"#;
    let answers = temp(br#"[{"ok":true,"data":{"ok":true}}]"#);
    let out = toolnexus(
        &["elicit", "-", "--answers", answers.to_str().unwrap()],
        request.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,\"result\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}\n"
    );
    // A request it cannot show gets its error response, and the command fails.
    let bad = r#"{"jsonrpc":"2.0","id":"a","method":"elicitation/create","params":{"mode":"sms","message":"x"}}"#;
    let out = toolnexus(
        &["elicit", "-", "--answers", answers.to_str().unwrap()],
        bad.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with(r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32602"#));
}

#[test]
fn an_accept_of_a_rejected_url_is_refused() {
    let params = r#"{"mode":"url","message":"Open","url":"javascript:alert(1)"}"#;
    let answers = temp(br#"[{"ok":true},{"ok":false,"reason":"declined"}]"#);
    let out = toolnexus(
        &["elicit", "-", "--answers", answers.to_str().unwrap()],
        params.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "{\"action\":\"decline\"}\n");
    assert!(stderr(&out).contains("says reject"));
}

#[test]
fn input_requests_are_answered_and_other_methods_are_named() {
    let result = r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{
        "region":{"method":"elicitation/create","params":{"message":"Region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}},
        "login":{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/login"}}},
        "requestState":"st-1"}}"#;
    let answers = temp(br#"[{"ok":true,"data":{"region":"eu"}},{"ok":true}]"#);
    let out = toolnexus(
        &["elicit", "-", "--answers", answers.to_str().unwrap()],
        result.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\"inputResponses\":{\"region\":{\"action\":\"accept\",\"content\":{\"region\":\"eu\"}},\"login\":{\"action\":\"accept\"}},\"requestState\":\"st-1\"}\n"
    );
    let with_sampling = r#"{"resultType":"input_required","inputRequests":{
        "llm":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}"#;
    let out = toolnexus(
        &["elicit", "-", "--answers", answers.to_str().unwrap()],
        with_sampling.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "{\"inputResponses\":{}}\n");
    assert!(stderr(&out).contains("\"llm\" asks for sampling/createMessage"));
}

#[test]
fn without_a_terminal_or_answers_it_fails_at_once() {
    let out = toolnexus(&["elicit", "-"], NAME_FORM.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("no terminal to ask on"));
}

#[test]
fn hostile_input_gets_the_core_s_typed_errors() {
    let deep = "[".repeat(100_000);
    for (input, kind) in [
        (deep.as_bytes(), "too_deep"),
        (b"{\"a\":1,\"a\":2}".as_slice(), "duplicate_key"),
        (b"\xff\xfe".as_slice(), "invalid_utf8"),
        (b"".as_slice(), "invalid_json"),
    ] {
        let answers = temp(b"[]");
        let out = toolnexus(
            &[
                "--json-errors",
                "elicit",
                "-",
                "--answers",
                answers.to_str().unwrap(),
            ],
            input,
        );
        assert_eq!(out.status.code(), Some(1), "{kind}");
        assert!(
            stderr(&out).contains(&format!("\"kind\":\"{kind}\"")),
            "{kind}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn every_command_has_help_with_the_exit_codes() {
    for command in [
        "elicit",
        "map",
        "answer",
        "check-schema",
        "validate",
        "fields",
        "review-url",
        "html",
        "conformance",
    ] {
        let out = toolnexus(&[command, "--help"], b"");
        assert_eq!(out.status.code(), Some(0), "{command}");
        assert!(stdout(&out).contains("Exit codes:"), "{command}");
    }
    let out = toolnexus(&["no-such-command"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_conformance_command_prints_the_areas_and_the_count() {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/v1");
    let out = toolnexus(&["conformance", suite.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
    assert!(text.contains("\nform "), "{text}");
}
