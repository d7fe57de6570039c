//! The `cli` step: installs the SDKs the CLI's test servers are built with (a venv with the
//! Python `mcp` package, the TypeScript SDK from npm) and the official MCP conformance suite
//! with the Node.js 22 it needs, all under `target/test-servers`, then runs the CLI's tests:
//! its unit tests, the JSON tools on the shared cases, `elicit` through a pseudo-terminal,
//! `call` against those servers over stdio and HTTP, and the suite's client scenarios.

use std::path::Path;

use super::{cargo, python, run, run_parts};

/// Runs the whole step; `false` if any part fails.
pub(crate) fn cli(root: &Path) -> bool {
    let servers = root.join("target/test-servers");
    let parts: [(&str, &dyn Fn() -> bool); 2] = [
        ("test servers", &|| {
            python::install_test_servers(root, &servers)
        }),
        ("tests", &|| {
            run(cargo()
                .args(["test", "-p", "toolnexus-cli"])
                .env("TOOLNEXUS_TEST_SERVERS", &servers))
        }),
    ];
    run_parts("cli", &parts)
}
