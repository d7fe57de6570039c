//! Nobody at the keyboard: `toolnexus call --defer` keeps a call whose question nobody can
//! answer now, and `toolnexus resume ID` finishes it from another process; `--elicit` declares
//! the modes the client answers in. Against real servers (the Python SDK's, FastMCP's tasks
//! server and the TypeScript SDK's tasks server), each started by the test and stopped by its
//! process id; every assertion reads what the server received.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::fs;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::servers::{HttpServer, fastmcp_tasks, installed, py_server};
use toolnexus_core::{Limits, Value, json, seal};

/// The key the Python server seals its `requestState` with, so that the server started again
/// by `resume` reads what the first one sealed.
const STATE_KEY: &str = "a-state-key-of-at-least-32-bytes-for-py-server";

static DIRS: AtomicUsize = AtomicUsize::new(0);

/// A configuration folder of its own for one test.
fn config() -> PathBuf {
    let n = DIRS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("toolnexus-defer-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// `toolnexus ARGS…` with no terminal, the configuration folder `config`, and `stdin` on its
/// standard input.
fn toolnexus(config: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new("setsid")
        .arg(env!("CARGO_BIN_EXE_toolnexus"))
        .args(args)
        .env("TOOLNEXUS_CONFIG_DIR", config)
        .env("TOOLNEXUS_NODE_DIR", installed().join("node"))
        .env("PY_SERVER_STATE_KEY", STATE_KEY)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// `call TOOL --args ARGS --defer [EXTRA…]`, then `-- SERVER…` when a command is given.
fn call(config: &Path, tool: &str, args: &str, extra: &[&str], server: &[String]) -> Output {
    let mut all = vec!["call", tool, "--args", args, "--defer"];
    all.extend_from_slice(extra);
    if !server.is_empty() {
        all.push("--");
        all.extend(server.iter().map(String::as_str));
    }
    toolnexus(config, &all, "")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout_json(out: &Output) -> Value {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    json::parse_str(text.trim_end(), &Limits::DEFAULT)
        .unwrap_or_else(|e| panic!("not JSON: {text:?} ({e}); stderr: {}", stderr(out)))
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

/// What a deferred call printed: its id and its requests; the exit code is 5.
fn deferred(out: &Output) -> (String, Vec<Value>) {
    assert_eq!(code(out), 5, "stderr: {}", stderr(out));
    let printed = stdout_json(out);
    let object = printed.as_object().unwrap();
    assert_eq!(object.len(), 2, "{}", printed.to_json());
    let id = object.get("pending").and_then(Value::as_str).unwrap();
    let requests = object.get("requests").and_then(Value::as_array).unwrap();
    (String::from(id), requests.clone())
}

/// A request's `prompt`.
fn prompt(request: &Value) -> &str {
    request.get("prompt").and_then(Value::as_str).unwrap()
}

/// What the server reported it received: the JSON of the result's first text (exit 0).
fn received(out: &Output) -> Value {
    assert_eq!(code(out), 0, "stderr: {}", stderr(out));
    reported(out)
}

/// The JSON of the first text of the result printed, whatever the exit code.
fn reported(out: &Output) -> Value {
    let result = stdout_json(out);
    let text = result
        .get("content")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .and_then(|c| c.get("text"))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no text in {}", result.to_json()));
    json::parse_str(text, &Limits::DEFAULT).unwrap()
}

fn at<'v>(value: &'v Value, path: &[&str]) -> &'v Value {
    path.iter().fold(value, |v, key| {
        v.get(key)
            .unwrap_or_else(|| panic!("no {key:?} in {}", v.to_json()))
    })
}

/// The calls `toolnexus pending --json` lists.
fn listed(config: &Path) -> Vec<Value> {
    let out = toolnexus(config, &["pending", "--json"], "");
    assert_eq!(code(&out), 0, "stderr: {}", stderr(&out));
    stdout_json(&out).as_array().unwrap().clone()
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// `book_trip` to Oslo over stdio with nobody to answer: kept, its id and requests.
fn trip_to_oslo(config: &Path) -> (String, Vec<Value>) {
    let out = call(config, "book_trip", r#"{"city":"Oslo"}"#, &[], &py_server());
    let kept = deferred(&out);
    assert!(stderr(&out).contains(&format!("toolnexus resume {}", kept.0)));
    kept
}

#[test]
fn a_round_is_kept_and_finished_by_other_processes_with_the_server_started_again() {
    let config = config();
    // No answers: the first round's question is kept.
    let (first, requests) = trip_to_oslo(&config);
    assert_eq!(requests.len(), 1);
    assert_eq!(prompt(&requests[0]), "How long is the stay? (Oslo)");
    assert_eq!(
        requests[0].get("kind").and_then(Value::as_str),
        Some("input")
    );
    assert!(at(&requests[0], &["data", "schema", "properties", "nights"]).is_object());
    // Kept for the user alone, and listed with the server, the tool and its times.
    let pending = config.join("pending");
    assert_eq!(mode(&pending), 0o700);
    assert_eq!(mode(&pending.join(&first)), 0o600);
    assert_eq!(mode(&pending.join("key")), 0o600);
    let list = listed(&config);
    assert_eq!(list.len(), 1);
    assert_eq!(at(&list[0], &["id"]).as_str(), Some(first.as_str()));
    assert_eq!(at(&list[0], &["tool"]).as_str(), Some("book_trip"));
    assert!(
        at(&list[0], &["server"])
            .as_str()
            .unwrap()
            .ends_with("py_server.py stdio")
    );
    let asked = at(&list[0], &["askedAt"]).as_str().unwrap();
    let until = at(&list[0], &["expiresAt"]).as_str().unwrap();
    assert!(asked < until, "{asked} {until}");
    let text = toolnexus(&config, &["pending"], "");
    assert!(String::from_utf8_lossy(&text.stdout).contains(&first));

    // Another process answers the first round; the server, started again, asks the second.
    let out = toolnexus(
        &config,
        &["resume", &first, "--answers", "-"],
        r#"[{"ok":true,"data":{"nights":3}}]"#,
    );
    let (second, requests) = deferred(&out);
    assert_ne!(second, first);
    assert_eq!(requests.len(), 1);
    assert_eq!(prompt(&requests[0]), "Confirm the trip to Oslo?");
    // A resumed id is gone.
    let again = toolnexus(&config, &["resume", &first], "");
    assert_eq!(code(&again), 2, "stderr: {}", stderr(&again));
    assert!(stderr(&again).contains("no pending call"));

    // A third process finishes it: the server saw both answers and its own states.
    let out = toolnexus(
        &config,
        &["resume", &second, "--answers", "-"],
        r#"[{"ok":true,"data":{"confirm":true}}]"#,
    );
    let got = received(&out);
    assert_eq!(at(&got, &["ended"]).as_str(), Some("complete"));
    assert_eq!(
        at(&got, &["round1", "trip", "content", "nights"]).as_i64(),
        Some(3)
    );
    assert_eq!(
        at(&got, &["round2", "confirm", "content", "confirm"]),
        &Value::Bool(true)
    );
    assert_eq!(at(&got, &["states"]).as_array().map(Vec::len), Some(2));
    assert!(listed(&config).is_empty());
}

#[test]
fn answers_that_run_out_keep_the_rest_of_the_call_over_http() {
    let server = HttpServer::start();
    let config = config();
    let answers = r#"[{"ok":true,"data":{"nights":2,"breakfast":true}}]"#;
    let out = toolnexus(
        &config,
        &[
            "call",
            "book_trip",
            "--args",
            r#"{"city":"Rome"}"#,
            "--defer",
            "--answers",
            "-",
            "--url",
            &server.url,
        ],
        answers,
    );
    let (id, requests) = deferred(&out);
    assert_eq!(prompt(&requests[0]), "Confirm the trip to Rome?");
    let list = listed(&config);
    assert_eq!(
        at(&list[0], &["server"]).as_str(),
        Some(server.url.as_str())
    );
    // An answer that breaks the form is refused before anything is sent, and the call is
    // kept again.
    let out = toolnexus(
        &config,
        &["resume", &id, "--answers", "-"],
        r#"[{"ok":true,"data":{"confirm":"yes"}}]"#,
    );
    let (id, requests) = deferred(&out);
    assert_eq!(prompt(&requests[0]), "Confirm the trip to Rome?");
    assert!(stderr(&out).contains("invalid_content"), "{}", stderr(&out));
    let out = toolnexus(
        &config,
        &["resume", &id, "--answers", "-"],
        r#"[{"ok":false,"reason":"declined"}]"#,
    );
    let got = received(&out);
    assert_eq!(
        at(&got, &["round1", "trip", "content", "breakfast"]),
        &Value::Bool(true)
    );
    assert_eq!(at(&got, &["ended"]).as_str(), Some("round2"));
    assert_eq!(at(&got, &["action"]).as_str(), Some("decline"));
}

#[test]
fn a_modern_task_over_http_is_answered_from_other_processes_in_the_order_printed() {
    let server = HttpServer::fastmcp_tasks();
    let config = config();
    let out = toolnexus(
        &config,
        &["call", "pair", "--defer", "--url", &server.url],
        "",
    );
    let (id, requests) = deferred(&out);
    assert_eq!(requests.len(), 2);
    // The server lists the two questions in no fixed order: answer the first printed.
    let answer = |request: &Value| {
        if prompt(request).contains("name") {
            r#"{"ok":true,"data":{"name":"Ada"}}"#
        } else {
            r#"{"ok":true,"data":{"color":"green"}}"#
        }
    };
    let first = format!("[{}]", answer(&requests[0]));
    let out = toolnexus(&config, &["resume", &id, "--answers", "-"], &first);
    let (id, left) = deferred(&out);
    assert_eq!(left.len(), 1);
    assert_eq!(prompt(&left[0]), prompt(&requests[1]));
    let second = format!("[{}]", answer(&left[0]));
    let out = toolnexus(&config, &["resume", &id, "--answers", "-"], &second);
    let got = received(&out);
    assert_eq!(at(&got, &["name", "content", "name"]).as_str(), Some("Ada"));
    assert_eq!(
        at(&got, &["color", "content", "color"]).as_str(),
        Some("green")
    );
    assert!(listed(&config).is_empty());
}

#[test]
fn a_handshake_task_s_question_is_answered_in_its_session_from_another_process() {
    let server = HttpServer::typescript_tasks();
    let config = config();
    let out = toolnexus(
        &config,
        &["call", "ask_in_task", "--defer", "--url", &server.url],
        "",
    );
    let (id, requests) = deferred(&out);
    assert_eq!(
        prompt(&requests[0]),
        "What is your name? (asked inside a task)"
    );
    let out = toolnexus(
        &config,
        &["resume", &id, "--answers", "-"],
        r#"[{"ok":true,"data":{"name":"Grace"}}]"#,
    );
    let got = received(&out);
    assert_eq!(at(&got, &["action"]).as_str(), Some("accept"));
    assert_eq!(at(&got, &["content", "name"]).as_str(), Some("Grace"));
    assert_eq!(at(&got, &["echoedRelatedTask"]), &Value::Bool(true));
}

#[test]
fn questions_bound_to_their_connection_are_handled_now_and_said() {
    // The 2025 era outside a task: the question is cancelled as without --defer (exit 4).
    let config = config();
    let out = call(
        &config,
        "book_trip",
        r#"{"city":"Oslo"}"#,
        &["--protocol", "2025-11-25"],
        &py_server(),
    );
    assert_eq!(code(&out), 4, "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("--defer: a question of the 2025 era"),
        "{}",
        stderr(&out)
    );
    assert!(at(&stdout_json(&out), &["content"]).is_array());
    // A task over stdio ends with the server.
    let out = call(&config, "survey", "{}", &[], &fastmcp_tasks());
    assert_eq!(code(&out), 4, "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("a question of a task over stdio"),
        "{}",
        stderr(&out)
    );
    let got = reported(&out);
    assert_eq!(at(&got, &["action"]).as_str(), Some("cancel"));
    assert!(!config.join("pending").exists() || listed(&config).is_empty());
}

/// The document of the pending call `id`, opened with the folder's key.
fn opened(config: &Path, id: &str) -> (Vec<u8>, Value) {
    let key = fs::read(config.join("pending/key")).unwrap();
    let sealed = fs::read(config.join("pending").join(id)).unwrap();
    let document = seal::unseal(&sealed, b"toolnexus-pending-call", &[&key]).unwrap();
    (key, json::parse(&document, &Limits::DEFAULT).unwrap())
}

#[test]
fn an_expired_a_changed_and_an_unknown_id_are_refused() {
    let config = config();
    let (id, _) = trip_to_oslo(&config);
    let path = config.join("pending").join(&id);

    // Changed by someone without the key: refused, and left as it was.
    let sealed = fs::read(&path).unwrap();
    let mut changed = sealed.clone();
    let at_byte = seal::SEALED_PREFIX.len() + 10;
    changed[at_byte] = if changed[at_byte] == b'A' { b'B' } else { b'A' };
    fs::write(&path, &changed).unwrap();
    let out = toolnexus(&config, &["--json-errors", "resume", &id], "");
    assert_eq!(code(&out), 1, "stderr: {}", stderr(&out));
    let error = json::parse_str(stderr(&out).lines().last().unwrap(), &Limits::DEFAULT).unwrap();
    assert_eq!(at(&error, &["kind"]).as_str(), Some("invalid_seal"));
    assert_eq!(fs::read(&path).unwrap(), changed);
    let list = toolnexus(&config, &["pending", "--json"], "");
    assert_eq!(stdout_json(&list).as_array().map(Vec::len), Some(0));
    assert!(
        stderr(&list).contains("cannot be read"),
        "{}",
        stderr(&list)
    );

    // Past its time (sealed with the folder's key, as toolnexus would): refused and removed.
    fs::write(&path, &sealed).unwrap();
    let (key, document) = opened(&config, &id);
    let mut document = document.as_object().unwrap().clone();
    document.insert("expiresAtMs", Value::from(1_000u64));
    let resealed = seal::seal(
        document.to_json().as_bytes(),
        b"toolnexus-pending-call",
        &key,
    )
    .unwrap();
    fs::write(&path, resealed).unwrap();
    let out = toolnexus(&config, &["--json-errors", "resume", &id], "");
    assert_eq!(code(&out), 1, "stderr: {}", stderr(&out));
    let error = json::parse_str(stderr(&out).lines().last().unwrap(), &Limits::DEFAULT).unwrap();
    assert_eq!(at(&error, &["kind"]).as_str(), Some("expired"));
    assert!(!path.exists());

    // Unknown, or not an id at all.
    for id in [id.as_str(), "../key", "key", "-x-looks-like-an-option"] {
        let out = toolnexus(&config, &["resume", id], "");
        assert_eq!(code(&out), 2, "{id}: {}", stderr(&out));
    }
}

#[test]
fn elicit_declares_the_modes_in_both_eras() {
    let config = config();
    for version in ["2026-07-28", "2025-11-25"] {
        for (modes, declared) in [
            ("form,url", Some(r#"{"form":{},"url":{}}"#)),
            ("form", Some(r#"{"form":{}}"#)),
            ("url", Some(r#"{"url":{}}"#)),
            ("none", None),
        ] {
            let out = toolnexus(
                &config,
                &[
                    "call",
                    "capabilities",
                    "--protocol",
                    version,
                    "--elicit",
                    modes,
                    "--",
                ]
                .into_iter()
                .chain(py_server().iter().map(String::as_str))
                .collect::<Vec<_>>(),
                "",
            );
            let got = received(&out);
            assert_eq!(at(&got, &["protocolVersion"]).as_str(), Some(version));
            let capabilities = at(&got, &["clientCapabilities"]);
            assert_eq!(
                capabilities
                    .get("elicitation")
                    .map(Value::to_json)
                    .as_deref(),
                declared,
                "{version} --elicit {modes}: {}",
                capabilities.to_json()
            );
        }
    }
    // A server that asks in a mode not declared gets the protocol's refusal.
    let out = toolnexus(
        &config,
        &[
            "call",
            "book_trip",
            "--args",
            r#"{"city":"Oslo"}"#,
            "--elicit",
            "url",
            "--",
        ]
        .into_iter()
        .chain(py_server().iter().map(String::as_str))
        .collect::<Vec<_>>(),
        "",
    );
    assert_eq!(code(&out), 1, "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("mode_not_supported"),
        "{}",
        stderr(&out)
    );
    let bad = toolnexus(
        &config,
        &["call", "t", "--elicit", "forms", "--", "true"],
        "",
    );
    assert_eq!(code(&bad), 2);
}

#[test]
fn a_person_at_a_terminal_answers_what_a_job_left() {
    let config = config();
    let (id, _) = trip_to_oslo(&config);
    // The person resumes it in a real pseudo-terminal: the server's name, kept with the call,
    // stands above the form, and the server started again asks the second round there too.
    let args = [String::from("resume"), id];
    let env = [
        ("TOOLNEXUS_CONFIG_DIR", config.display().to_string()),
        ("PY_SERVER_STATE_KEY", String::from(STATE_KEY)),
    ];
    let mut run = common::Run::toolnexus(&args, &env);
    run.see("toolnexus-test-py 1.0.0")
        .see("How long is the stay? (Oslo)");
    run.see("Nights *").keys("5").keys(common::ENTER);
    run.see("Breakfast included").keys(common::ENTER);
    run.see("Accept and send").keys(common::ENTER);
    run.see("Confirm the booking *").keys(common::ENTER);
    run.see("Accept and send").keys(common::ENTER);
    let (code, out) = run.finish();
    assert_eq!(code, 0, "{out}");
    let got = json::parse_str(out.trim_end(), &Limits::DEFAULT).unwrap();
    let text = at(&got, &["content"]).as_array().unwrap()[0]
        .get("text")
        .and_then(Value::as_str)
        .unwrap()
        .to_owned();
    let got = json::parse_str(&text, &Limits::DEFAULT).unwrap();
    assert_eq!(
        at(&got, &["round1", "trip", "content", "nights"]).as_i64(),
        Some(5)
    );
    assert_eq!(at(&got, &["ended"]).as_str(), Some("complete"));
    assert!(listed(&config).is_empty());
}
