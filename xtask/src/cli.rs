//! The `cli` step: installs the SDKs the CLI's test servers are built with (a venv with the
//! Python `mcp` package, the TypeScript SDK from npm) and the official MCP conformance suite
//! with the Node.js 22 it needs, all under `target/test-servers`, then runs the CLI's tests:
//! its unit tests, the JSON tools on the shared cases, `elicit` through a pseudo-terminal,
//! `call` against those servers over stdio and HTTP, and the suite's client scenarios.

use std::path::Path;
use std::process::Command;

use super::{cargo, run, run_parts};

/// Runs the whole step; `false` if any part fails.
pub(crate) fn cli(root: &Path) -> bool {
    let servers = root.join("target/test-servers");
    let install = root.join("crates/toolnexus-cli/tests/servers/install.sh");
    let parts: [(&str, &dyn Fn() -> bool); 2] = [
        ("test servers", &|| {
            let ok = run(Command::new("sh").arg(&install).arg(&servers));
            if !ok {
                eprintln!(
                    "xtask: the test servers' SDKs and the conformance suite could not be \
                     installed (python3 with venv, node and npm are needed): the call tests \
                     cannot run"
                );
            }
            ok
        }),
        ("tests", &|| {
            run(cargo()
                .args(["test", "-p", "toolnexus-cli"])
                .env("TOOLNEXUS_TEST_SERVERS", &servers))
        }),
    ];
    run_parts("cli", &parts)
}
