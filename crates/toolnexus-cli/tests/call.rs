//! `toolnexus call` against real servers built with the official SDKs, started by each test
//! and stopped by their process ids: one with the Python `mcp` package (2026-07-28, stdio and
//! streamable HTTP on 127.0.0.1), one with the TypeScript SDK (handshake era only, so the probe
//! must fall back), and two that run tools as tasks: FastMCP with `fastmcp-tasks` (the
//! 2026-07-28 tasks extension) and the TypeScript SDK's experimental tasks (2025-11-25). Each
//! test asserts what the server received.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::servers::{
    HttpServer, fastmcp_tasks, installed, py_server, servers, ts_server, ts_tasks,
};
use toolnexus_core::{Limits, Value, json};

static FILES: AtomicUsize = AtomicUsize::new(0);

fn answers(text: &str) -> PathBuf {
    let n = FILES.fetch_add(1, Ordering::SeqCst);
    let path = std::env::temp_dir().join(format!("toolnexus-call-{}-{n}.json", std::process::id()));
    fs::write(&path, text).unwrap();
    path
}

/// `toolnexus call TOOL --args ARGS --answers ANSWERS [EXTRA…] -- SERVER…`, with no terminal.
fn call(tool: &str, args: &str, answers_text: &str, extra: &[&str], server: &[String]) -> Output {
    let file = answers(answers_text);
    let mut command = Command::new("setsid");
    command
        .arg(env!("CARGO_BIN_EXE_toolnexus"))
        .args(["call", tool, "--args", args, "--answers"])
        .arg(&file)
        .args(extra)
        .env("TOOLNEXUS_NODE_DIR", installed().join("node"))
        .stdin(Stdio::null());
    if !server.is_empty() {
        command.arg("--").args(server);
    }
    let out = command.output().unwrap();
    let _ = fs::remove_file(file);
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `CallToolResult` printed on standard output.
fn result(out: &Output) -> Value {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    json::parse_str(text.trim_end(), &Limits::DEFAULT).unwrap_or_else(|e| {
        panic!(
            "not a CallToolResult: {text:?} ({e}); stderr: {}",
            stderr(out)
        )
    })
}

/// What the server reported it received: the JSON of the result's first text.
fn received(out: &Output) -> Value {
    let result = result(out);
    let text = result
        .as_object()
        .and_then(|r| r.get("content"))
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .and_then(|c| c.as_object()?.get("text")?.as_str().map(String::from))
        .unwrap_or_else(|| panic!("no text content in {}", result.to_json()));
    json::parse_str(&text, &Limits::DEFAULT).unwrap_or(Value::from(text))
}

fn at<'v>(value: &'v Value, path: &[&str]) -> &'v Value {
    path.iter().fold(value, |v, key| {
        v.as_object()
            .and_then(|m| m.get(key))
            .unwrap_or_else(|| panic!("no {key:?} in {}", v.to_json()))
    })
}

// --- The Python SDK's server: the 2026-07-28 era ---

#[test]
fn two_input_rounds_are_answered_with_the_exact_request_state() {
    let out = call(
        "book_trip",
        r#"{"city":"Paris"}"#,
        r#"[{"ok":true,"data":{"nights":3,"breakfast":true}},{"ok":true,"data":{"confirm":true}}]"#,
        &[],
        &py_server(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = received(&out);
    assert_eq!(
        at(&got, &["round1", "trip"]).to_json(),
        r#"{"action":"accept","content":{"breakfast":true,"nights":3}}"#
    );
    assert_eq!(
        at(&got, &["round2", "confirm"]).to_json(),
        r#"{"action":"accept","content":{"confirm":true}}"#
    );
    // The server got back, each round, the state it had sent.
    assert_eq!(at(&got, &["states"]).as_array().map(Vec::len), Some(2));
    assert_eq!(at(&got, &["ended"]).as_str(), Some("complete"));
    // It said who it is; the result is the server's, as received.
    assert_eq!(
        at(
            &result(&out),
            &["_meta", "io.modelcontextprotocol/serverInfo", "name"]
        )
        .as_str(),
        Some("toolnexus-test-py")
    );
}

#[test]
fn a_decline_and_a_cancel_reach_the_server() {
    for (answer, action) in [
        (r#"[{"ok":false,"reason":"declined"}]"#, "decline"),
        (r#"[{"ok":false}]"#, "cancel"),
    ] {
        let out = call("book_trip", r#"{"city":"Oslo"}"#, answer, &[], &py_server());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let got = received(&out);
        assert_eq!(
            at(&got, &["round1", "trip", "action"]).as_str(),
            Some(action),
            "{}",
            got.to_json()
        );
    }
}

#[test]
fn invalid_input_is_corrected_before_the_server_sees_it() {
    let out = call(
        "book_trip",
        r#"{"city":"Lima"}"#,
        r#"[{"ok":true,"data":{"nights":99}},{"ok":true,"data":{"nights":2}},{"ok":true,"data":{"confirm":false}}]"#,
        &[],
        &py_server(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("maximum at /nights"),
        "{}",
        stderr(&out)
    );
    // Only the corrected answer arrived, with the form's default filled in.
    let got = received(&out);
    assert_eq!(
        at(&got, &["round1", "trip", "content"]).to_json(),
        r#"{"breakfast":false,"nights":2}"#
    );
}

#[test]
fn a_url_consent_through_input_required() {
    let out = call("sign_in", "{}", r#"[{"ok":true}]"#, &[], &py_server());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = received(&out);
    assert!(
        got.to_json().contains(r#""action":"accept""#),
        "{}",
        got.to_json()
    );
    assert!(
        !got.to_json().contains("content"),
        "a URL consent carries no content"
    );
}

#[test]
fn a_tool_error_exits_1() {
    let out = call("fail", "{}", "[]", &[], &py_server());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        at(&result(&out), &["isError"]),
        &Value::Bool(true),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_input_request_the_client_does_not_serve_ends_the_call() {
    let out = call(
        "mixed",
        "{}",
        r#"[{"ok":true,"data":{}}]"#,
        &[],
        &py_server(),
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("sampling/createMessage"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_pinned_version_skips_the_probe() {
    let out = call(
        "book_trip",
        r#"{"city":"Rome"}"#,
        r#"[{"ok":true,"data":{"nights":1}},{"ok":true,"data":{"confirm":true}}]"#,
        &["--protocol", "2026-07-28"],
        &py_server(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(at(&received(&out), &["ended"]).as_str(), Some("complete"));
}

#[test]
fn streamable_http_in_the_modern_era() {
    let server = HttpServer::start();
    let url = ["--url", server.url.as_str()];
    let out = call(
        "book_trip",
        r#"{"city":"Kyoto"}"#,
        r#"[{"ok":true,"data":{"nights":4,"breakfast":false}},{"ok":true,"data":{"confirm":true}}]"#,
        &url,
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = received(&out);
    assert_eq!(
        at(&got, &["round1", "trip", "content"]).to_json(),
        r#"{"breakfast":false,"nights":4}"#
    );
    let out = call(
        "sign_in",
        "{}",
        r#"[{"ok":false,"reason":"declined"}]"#,
        &url,
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(received(&out).to_json().contains("decline"));
    let out = call("fail", "{}", "[]", &url, &[]);
    assert_eq!(out.status.code(), Some(1));
}

// --- The TypeScript SDK's server: the handshake era, found by falling back ---

#[test]
fn the_probe_falls_back_and_a_form_is_answered() {
    let out = call(
        "ask_form",
        "{}",
        r#"[{"ok":true,"data":{"name":"Ada","age":36}}]"#,
        &[],
        &ts_server(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        received(&out).to_json(),
        r#"{"action":"accept","content":{"name":"Ada","age":36}}"#
    );
}

#[test]
fn decline_cancel_and_a_correction_reach_the_handshake_server() {
    for (answer, want) in [
        (
            r#"[{"ok":false,"reason":"declined"}]"#,
            r#"{"action":"decline"}"#,
        ),
        (r#"[{"ok":false}]"#, r#"{"action":"cancel"}"#),
        (
            r#"[{"ok":true,"data":{"name":"Ada","age":12}},{"ok":true,"data":{"name":"Ada","age":30}}]"#,
            r#"{"action":"accept","content":{"name":"Ada","age":30}}"#,
        ),
    ] {
        let out = call("ask_form", "{}", answer, &[], &ts_server());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(received(&out).to_json(), want, "{answer}");
    }
}

#[test]
fn a_url_consent_is_completed_by_the_server() {
    let out = call("ask_url", "{}", r#"[{"ok":true}]"#, &[], &ts_server());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = received(&out);
    assert_eq!(at(&got, &["received"]).to_json(), r#"{"action":"accept"}"#);
    assert_eq!(at(&got, &["completionSent"]), &Value::Bool(true));
    assert!(stderr(&out).contains("is complete"), "{}", stderr(&out));
}

#[test]
fn the_timeout_counts_the_server_s_time() {
    let out = call(
        "slow",
        r#"{"ms":4000}"#,
        "[]",
        &["--timeout", "1"],
        &ts_server(),
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("timeout"), "{}", stderr(&out));
    let out = call(
        "slow",
        r#"{"ms":100}"#,
        "[]",
        &["--timeout", "10"],
        &ts_server(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_server_that_cannot_start_or_speaks_no_json_rpc_fails_with_3() {
    let out = call("x", "{}", "[]", &[], &[String::from("/no/such/server")]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("could not start"), "{}", stderr(&out));
    // A server that writes garbage, then exits without a word of JSON-RPC.
    let out = call(
        "x",
        "{}",
        "[]",
        &[],
        &[
            String::from("sh"),
            String::from("-c"),
            String::from("echo not json; sleep 1"),
        ],
    );
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert!(err.contains("not a JSON-RPC message"), "{err}");
}

#[test]
fn tools_are_listed_for_both_servers() {
    for (server, name, tool) in [
        (py_server(), "toolnexus-test-py", "book_trip(city*)"),
        (ts_server(), "toolnexus-test-ts", "ask_form()"),
        (
            ts_tasks(),
            "toolnexus-test-ts-tasks",
            "slow_task(ms*)  [may run as a task: --task]",
        ),
        (
            ts_tasks(),
            "toolnexus-test-ts-tasks",
            "ask_in_task()  [runs as a task]",
        ),
    ] {
        let out = Command::new("setsid")
            .arg(env!("CARGO_BIN_EXE_toolnexus"))
            .args(["tools", "--"])
            .args(&server)
            .env("TOOLNEXUS_NODE_DIR", installed().join("node"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with(name), "{text}");
        assert!(text.contains(tool), "{text}");
    }
}

#[test]
fn url_elicitation_required_is_consented_then_the_call_retried() {
    let out = call("needs_sign_in", "{}", r#"[{"ok":true}]"#, &[], &ts_server());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The server saw a second call, after the completion of the URL interaction.
    assert_eq!(received(&out).to_json(), r#"{"calls":2,"signedIn":true}"#);
    assert!(stderr(&out).contains("is complete"), "{}", stderr(&out));
    // Declined: no retry, and the command says why.
    let out = call(
        "needs_sign_in",
        "{}",
        r#"[{"ok":false,"reason":"declined"}]"#,
        &[],
        &ts_server(),
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("-32042"), "{}", stderr(&out));
}

#[test]
fn a_misbehaving_server_gets_the_protocol_s_answers_and_no_crash() {
    let server = [
        String::from("python3"),
        servers().join("misbehaving.py").display().to_string(),
    ];
    let out = call(
        "anything",
        "{}",
        r#"[{"ok":true,"data":{"ok":true}}]"#,
        &[],
        &server,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = received(&out);
    // A schema no form can show: invalid params, pointing at the fault.
    assert_eq!(at(&got, &["e1", "code"]).to_json(), "-32602");
    assert!(
        at(&got, &["e1", "message"])
            .as_str()
            .unwrap()
            .ends_with("(at /params/requestedSchema/properties/address/type)")
    );
    // A ping is answered; a request the client does not serve is -32601.
    assert_eq!(at(&got, &["p1"]).to_json(), "{}");
    assert_eq!(at(&got, &["r1", "code"]).to_json(), "-32601");
    // The valid elicitation after all that is answered as usual.
    assert_eq!(
        at(&got, &["e3"]).to_json(),
        r#"{"action":"accept","content":{"ok":true}}"#
    );
    let err = stderr(&out);
    assert!(err.contains("not a JSON-RPC message"), "{err}");
    assert!(err.contains("a request never sent (id 999)"), "{err}");
}

#[test]
fn the_handshake_era_over_streamable_http() {
    let server = HttpServer::start();
    let out = call(
        "book_trip",
        r#"{"city":"Rome"}"#,
        r#"[{"ok":true,"data":{"nights":2}},{"ok":true,"data":{"confirm":true}}]"#,
        &["--protocol", "2025-11-25", "--url", &server.url],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The elicitations came as requests on the call's event stream.
    let got = received(&out);
    assert_eq!(
        at(&got, &["round1", "trip", "content"]).to_json(),
        r#"{"breakfast":false,"nights":2}"#
    );
}

// --- The TypeScript SDK's server over streamable HTTP: questions on the GET stream ---

#[test]
fn questions_on_the_typescript_server_s_get_stream_are_answered() {
    let server = HttpServer::typescript();
    let url = ["--url", server.url.as_str()];
    for (answer, action, content) in [
        (
            r#"[{"ok":true,"data":{"name":"Ada","age":36}}]"#,
            "accept",
            Some(r#"{"name":"Ada","age":36}"#),
        ),
        (r#"[{"ok":false,"reason":"declined"}]"#, "decline", None),
        (r#"[{"ok":false}]"#, "cancel", None),
    ] {
        let out = call("ask_form", "{}", answer, &url, &[]);
        assert_eq!(out.status.code(), Some(0), "{answer}: {}", stderr(&out));
        let got = received(&out);
        assert_eq!(
            at(&got, &["action"]).as_str(),
            Some(action),
            "{}",
            got.to_json()
        );
        let wire = at(&got, &["received"]);
        assert_eq!(wire.get("action").and_then(Value::as_str), Some(action));
        assert_eq!(wire.get("content").map(Value::to_json).as_deref(), content);
        // The script's log says what was asked and what was answered.
        assert!(
            stderr(&out).contains(&format!("asked form \"Who are you?\"; answered {action}")),
            "{}",
            stderr(&out)
        );
    }
    // A question tied to the call travels on the call's own stream.
    let out = call(
        "ask_form_related",
        "{}",
        r#"[{"ok":true,"data":{"name":"Bo"}}]"#,
        &url,
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(at(&received(&out), &["action"]).as_str(), Some("accept"));
}

// --- No terminal, no answers ---

/// `toolnexus call TOOL` with no terminal (`setsid`, standard input closed) and no
/// `--answers`.
fn call_alone(tool: &str, args: &str, server: &[String]) -> Output {
    Command::new("setsid")
        .arg(env!("CARGO_BIN_EXE_toolnexus"))
        .args(["call", tool, "--args", args, "--"])
        .args(server)
        .env("TOOLNEXUS_NODE_DIR", installed().join("node"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_call_needs_no_terminal_until_the_server_asks() {
    let out = call_alone("slow", r#"{"ms":10}"#, &ts_server());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(received(&out), Value::from("done"));
    // A question with nobody to ask is cancelled, said, and ends with its own code.
    let out = call_alone("ask_form", "{}", &ts_server());
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_eq!(received(&out).to_json(), r#"{"action":"cancel"}"#);
    assert!(
        stderr(&out).contains("no terminal to ask on"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_scripted_url_consent_is_logged_with_its_url_and_host() {
    let out = call("sign_in", "{}", r#"[{"ok":true}]"#, &[], &py_server());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "asked URL consent \"login\" \"Sign in to continue\": open \
             https://auth.example.com/login?state=x (host auth.example.com); answered accept"
        ),
        "{}",
        stderr(&out)
    );
}

// --- Tools run as tasks ---

/// How many lines of `out`'s standard error contain `text`.
fn lines_with(out: &Output, text: &str) -> usize {
    stderr(out).lines().filter(|l| l.contains(text)).count()
}

/// Where each task test reaches its server: over stdio, and over streamable HTTP.
fn both_ways(http: &HttpServer, stdio: &[String]) -> [(Vec<String>, Vec<String>); 2] {
    [
        (Vec::new(), stdio.to_vec()),
        (vec![String::from("--url"), http.url.clone()], Vec::new()),
    ]
}

fn strs(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

#[test]
fn a_question_inside_a_modern_task_is_answered_and_declined() {
    let http = HttpServer::fastmcp_tasks();
    for (extra, server) in both_ways(&http, &fastmcp_tasks()) {
        for (answer, action) in [
            (r#"[{"ok":true,"data":{"name":"Ada"}}]"#, "accept"),
            (r#"[{"ok":false,"reason":"declined"}]"#, "decline"),
        ] {
            let out = call("survey", "{}", answer, &strs(&extra), &server);
            assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
            let got = received(&out);
            assert_eq!(at(&got, &["received", "action"]).as_str(), Some(action));
            if action == "accept" {
                assert_eq!(
                    at(&got, &["received", "content"]).to_json(),
                    r#"{"name":"Ada"}"#
                );
            }
            // The task's state was said while it ran, and the question asked once.
            assert!(lines_with(&out, ": working") >= 1, "{}", stderr(&out));
            assert_eq!(lines_with(&out, ": needs input"), 1, "{}", stderr(&out));
            assert_eq!(lines_with(&out, "asked form"), 1, "{}", stderr(&out));
        }
    }
}

#[test]
fn two_questions_in_a_row_and_two_at_once_with_a_partial_answer() {
    let http = HttpServer::fastmcp_tasks();
    for (extra, server) in both_ways(&http, &fastmcp_tasks()) {
        let out = call(
            "two_questions",
            "{}",
            r#"[{"ok":true,"data":{"name":"Ada"}},{"ok":true,"data":{"color":"teal"}}]"#,
            &strs(&extra),
            &server,
        );
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
        let got = received(&out);
        assert_eq!(
            at(&got, &["first", "content"]).to_json(),
            r#"{"name":"Ada"}"#
        );
        assert_eq!(
            at(&got, &["second", "content"]).to_json(),
            r#"{"color":"teal"}"#
        );
        // Each asked once, however often the server listed it.
        assert_eq!(lines_with(&out, "asked form"), 2, "{}", stderr(&out));

        // `pair` asks both at once, in an order of the server's choosing: the answers fit
        // either order (one is refused by the first form and the next one taken). Each answer
        // travels as soon as it is given, so the server sees one of the two first and keeps
        // listing the other; it is not shown again.
        let out = call(
            "pair",
            "{}",
            r#"[{"ok":true,"data":{"name":"Ada"}},{"ok":true,"data":{"color":"teal"}},{"ok":true,"data":{"name":"Ada"}}]"#,
            &strs(&extra),
            &server,
        );
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
        let got = received(&out);
        assert_eq!(
            at(&got, &["name", "content"]).to_json(),
            r#"{"name":"Ada"}"#
        );
        assert_eq!(
            at(&got, &["color", "content"]).to_json(),
            r#"{"color":"teal"}"#
        );
        assert_eq!(
            lines_with(&out, r#"your name?"; answered accept {"name":"Ada"}"#),
            1,
            "{}",
            stderr(&out)
        );
        assert_eq!(
            lines_with(&out, r#"colour?"; answered accept {"color":"teal"}"#),
            1,
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn failed_cancelled_and_erring_tasks_end_the_call_as_their_server_says() {
    let http = HttpServer::fastmcp_tasks();
    for (extra, server) in both_ways(&http, &fastmcp_tasks()) {
        let out = call("broken", "{}", "[]", &strs(&extra), &server);
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        assert_eq!(
            lines_with(
                &out,
                "failed with error -32000: broken: this task fails on purpose"
            ),
            1,
            "{}",
            stderr(&out)
        );
        let out = call("self_cancel", "{}", "[]", &strs(&extra), &server);
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        assert_eq!(lines_with(&out, "was cancelled"), 1, "{}", stderr(&out));
        let out = call("tool_error", "{}", "[]", &strs(&extra), &server);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(
            result(&out).get("isError").and_then(Value::as_bool),
            Some(true)
        );
    }
}

/// Starts `toolnexus call TOOL --args ARGS [EXTRA…] [-- SERVER…]` with standard error piped,
/// waits for a line containing `when`, then sends it SIGINT: its output once it ends.
fn interrupt(tool: &str, args: &str, extra: &[&str], server: &[String], when: &str) -> Output {
    use std::io::{BufRead, BufReader, Read};
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolnexus"));
    command
        .args(["call", tool, "--args", args, "--answers", "-"])
        .args(extra)
        .env("TOOLNEXUS_NODE_DIR", installed().join("node"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if !server.is_empty() {
        command.arg("--").args(server);
    }
    let mut child = command.spawn().unwrap();
    // The answers (none), then the end of standard input.
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"[]").unwrap();
    drop(stdin);
    let mut reader = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    let started = Instant::now();
    loop {
        let mut line = String::new();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "the call ended before {when:?}: {seen}"
        );
        seen.push_str(&line);
        if line.contains(when) {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{seen}");
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    reader.read_to_string(&mut seen).unwrap();
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    Output {
        status,
        stdout,
        stderr: seen.into_bytes(),
    }
}

#[test]
fn ctrl_c_cancels_a_running_task_with_tasks_cancel() {
    let http = HttpServer::fastmcp_tasks();
    for (extra, server) in both_ways(&http, &fastmcp_tasks()) {
        let out = interrupt(
            "slow",
            r#"{"seconds":20}"#,
            &strs(&extra),
            &server,
            "working: step",
        );
        assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
        // The server acknowledged the cancel before the client stopped.
        assert_eq!(lines_with(&out, "is cancelled"), 1, "{}", stderr(&out));
        assert_eq!(
            lines_with(&out, "interrupted: the task"),
            1,
            "{}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
    }
    let http = HttpServer::typescript_tasks();
    for (extra, server) in both_ways(&http, &ts_tasks()) {
        let mut extra = strs(&extra);
        extra.push("--task");
        let out = interrupt(
            "slow_task",
            r#"{"ms":20000}"#,
            &extra,
            &server,
            "working: step",
        );
        assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
        assert_eq!(lines_with(&out, "is cancelled"), 1, "{}", stderr(&out));
    }
}

#[test]
fn a_handshake_task_asks_through_tasks_result_with_the_related_task_echoed() {
    let http = HttpServer::typescript_tasks();
    for (extra, server) in both_ways(&http, &ts_tasks()) {
        let out = call(
            "ask_in_task",
            "{}",
            r#"[{"ok":true,"data":{"name":"Ada"}}]"#,
            &strs(&extra),
            &server,
        );
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
        let got = received(&out);
        assert_eq!(
            at(&got, &["received", "content"]).to_json(),
            r#"{"name":"Ada"}"#
        );
        // The response carried the task it belongs to, as the tasks page requires.
        assert_eq!(at(&got, &["echoedRelatedTask"]).as_bool(), Some(true));
        let task = at(&got, &["relatedTask", "taskId"]).as_str().unwrap();
        assert_eq!(
            at(
                &got,
                &[
                    "responseMeta",
                    "io.modelcontextprotocol/related-task",
                    "taskId"
                ]
            )
            .as_str(),
            Some(task)
        );
        assert_eq!(lines_with(&out, "asked form"), 1, "{}", stderr(&out));

        // A task that fails: tasks/result says how (here a tool error).
        let out = call("fail_task", "{}", "[]", &strs(&extra), &server);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(
            result(&out).get("isError").and_then(Value::as_bool),
            Some(true)
        );

        // An optional task only with --task.
        let mut with_task = strs(&extra);
        with_task.push("--task");
        let out = call("slow_task", r#"{"ms":300}"#, "[]", &with_task, &server);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            result(&out)
                .to_json()
                .contains("io.modelcontextprotocol/related-task"),
            "{}",
            result(&out).to_json()
        );
        let out = call("slow_task", r#"{"ms":300}"#, "[]", &strs(&extra), &server);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(!result(&out).to_json().contains("related-task"));
        assert_eq!(lines_with(&out, "toolnexus: task "), 0, "{}", stderr(&out));
    }
}
