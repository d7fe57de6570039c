//! One interactive `toolnexus call` per era of MCP, driven through a real pseudo-terminal:
//! the Python SDK's server (2026-07-28, two input rounds), the TypeScript SDK's (handshake
//! era), and FastMCP's tasks (a task that asks twice, and Ctrl-C cancelling one). The server
//! is started by `toolnexus call` itself and stopped when it ends.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};

use common::{ENTER, Run, UP};

fn installed() -> PathBuf {
    PathBuf::from(std::env::var_os("TOOLNEXUS_TEST_SERVERS").expect(
        "TOOLNEXUS_TEST_SERVERS is not set: run `cargo xtask test cli`, which installs the test \
         servers' SDKs and sets it",
    ))
}

fn server_file(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/servers")
        .join(name)
        .display()
        .to_string()
}

fn call(tool: &str, args: &str, server: &[String]) -> Run {
    let mut argv: Vec<String> = ["call", tool, "--args", args, "--"]
        .iter()
        .map(|s| String::from(*s))
        .collect();
    argv.extend(server.iter().cloned());
    let node = installed().join("node").display().to_string();
    Run::toolnexus(&argv, &[("TOOLNEXUS_NODE_DIR", node)])
}

#[test]
fn a_person_answers_two_rounds_of_the_modern_era() {
    let python = installed().join("python/bin/python").display().to_string();
    let server = [python, server_file("py_server.py"), String::from("stdio")];
    let mut run = call("book_trip", r#"{"city":"Paris"}"#, &server);
    // Who asks, from server/discover, above the form.
    run.see("toolnexus-test-py 1.0.0")
        .see("How long is the stay?");
    run.see("Nights *").keys("3").keys(ENTER);
    // The default (no) is where the list starts; yes is above it.
    run.see("Breakfast included").keys(UP).keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    run.see("toolnexus-test-py 1.0.0")
        .see("Confirm the booking *")
        .keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    let (code, out) = run.finish();
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(r#"\"round1\": {\"trip\": {\"action\": \"accept\", \"content\": {\"breakfast\": true, \"nights\": 3}}}"#),
        "{out}"
    );
    assert!(
        out.contains(r#"\"round2\": {\"confirm\": {\"action\": \"accept\", \"content\": {\"confirm\": true}}}"#),
        "{out}"
    );
}

#[test]
fn a_person_answers_a_handshake_era_server() {
    let server = [String::from("node"), server_file("ts_server.mjs")];
    let mut run = call("ask_form", "{}", &server);
    run.see("toolnexus-test-ts 1.0.0");
    run.see("Name *").keys("A").keys(ENTER);
    run.see("at least 2 characters").keys("da").keys(ENTER);
    run.see("Age").keys("36").keys(ENTER);
    run.see("Review your answers")
        .see("Accept and send")
        .keys(ENTER);
    let (code, out) = run.finish();
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(r#"{\"action\":\"accept\",\"content\":{\"name\":\"Ada\",\"age\":36}}"#),
        "{out}"
    );
}

#[test]
fn a_server_that_withdraws_its_question_closes_the_form() {
    let server = [String::from("node"), server_file("ts_server.mjs")];
    let mut run = call("withdraw", r#"{"after_ms":800}"#, &server);
    run.see("toolnexus-test-ts 1.0.0").see("color *");
    // The person does not answer; the server withdraws its question.
    run.see("the server withdrew its question: the form is closed and nothing is sent");
    let (code, out) = run.finish();
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(r#"\"withdrew\":true"#), "{out}");
}

#[test]
fn the_timeout_does_not_run_while_a_person_answers() {
    let server = [String::from("node"), server_file("ts_server.mjs")];
    let mut argv: Vec<String> = ["call", "ask_form", "--timeout", "1", "--"]
        .iter()
        .map(|s| String::from(*s))
        .collect();
    argv.extend(server.iter().cloned());
    let node = installed().join("node").display().to_string();
    let mut run = Run::toolnexus(&argv, &[("TOOLNEXUS_NODE_DIR", node)]);
    run.see("Name *");
    // The person takes longer than the server's whole timeout.
    std::thread::sleep(std::time::Duration::from_millis(2500));
    run.keys("Ada").keys(ENTER);
    run.see("Age").keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    let (code, out) = run.finish();
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(r#"\"name\":\"Ada\""#), "{out}");
}

/// FastMCP's server whose tools run as tasks (2026-07-28), over stdio.
fn fastmcp_tasks() -> [String; 3] {
    let python = installed().join("fastmcp/bin/python").display().to_string();
    [
        python,
        server_file("fastmcp_tasks_server.py"),
        String::from("stdio"),
    ]
}

#[test]
fn a_person_answers_a_task_that_asks_twice() {
    // FastMCP takes a second or two of the server's time to start.
    let mut argv: Vec<String> = ["call", "two_questions", "--timeout", "6", "--"]
        .iter()
        .map(|s| String::from(*s))
        .collect();
    argv.extend(fastmcp_tasks());
    let mut run = Run::toolnexus(&argv, &[]);
    // The task's state, then its first question.
    run.see("toolnexus-test-fastmcp-tasks")
        .see(": working")
        .see("First question: what is your name?");
    // The person takes longer than the server's whole time: the task waits, the timeout does
    // not run.
    std::thread::sleep(std::time::Duration::from_millis(6500));
    run.see("Name *").keys("Ada").keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    run.see("Second question: your favourite colour?");
    run.see("Favourite colour *").keys("teal").keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    run.see(": completed");
    let (code, out) = run.finish();
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(r#"\"first\": {\"action\": \"accept\", \"content\": {\"name\": \"Ada\"}}"#),
        "{out}"
    );
    assert!(
        out.contains(r#"\"second\": {\"action\": \"accept\", \"content\": {\"color\": \"teal\"}}"#),
        "{out}"
    );
}

#[test]
fn ctrl_c_at_the_terminal_cancels_the_task() {
    let mut argv: Vec<String> = ["call", "slow", "--args", r#"{"seconds":20}"#, "--"]
        .iter()
        .map(|s| String::from(*s))
        .collect();
    argv.extend(fastmcp_tasks());
    let mut run = Run::toolnexus(&argv, &[]);
    run.see("working: step");
    // The terminal sends SIGINT to its foreground process group: the client, and not the
    // server, which runs in a group of its own and so lives to take the cancel.
    run.keys(common::CTRL_C);
    run.see("is cancelled").see("interrupted: the task");
    let (code, out) = run.finish();
    assert_eq!(code, 130, "{out}");
    assert!(out.is_empty(), "{out}");
}
