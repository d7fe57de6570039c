//! The `cli` step: installs the SDKs the CLI's test servers are built with (a venv with the
//! Python `mcp` package, the TypeScript SDK from npm) and the official MCP conformance suite
//! with the Node.js 22 it needs, all under `target/test-servers`, and a Secret Service to
//! keep grants in (Debian's `gnome-keyring`, `libsecret-tools` and `dbus`, with apt, which
//! needs root), then runs the CLI's tests: its unit tests, the JSON tools on the shared
//! cases, `elicit` through a pseudo-terminal, `call` against those servers over stdio and
//! HTTP, its grants kept in that Secret Service, and the suite's client scenarios.

use std::path::Path;

use super::{apt, cargo, python, run, run_parts};

/// What the keychain tests run: a session bus, GNOME Keyring's Secret Service on it, and
/// `secret-tool` to read what the CLI kept there.
const KEYRING_PROGRAMS: [&str; 4] = [
    "/usr/bin/dbus-daemon",
    "/usr/bin/dbus-send",
    "/usr/bin/gnome-keyring-daemon",
    "/usr/bin/secret-tool",
];

/// Runs the whole step; `false` if any part fails.
pub(crate) fn cli(root: &Path) -> bool {
    let servers = root.join("target/test-servers");
    let parts: [(&str, &dyn Fn() -> bool); 3] = [
        ("test servers", &|| {
            python::install_test_servers(root, &servers)
        }),
        ("secret service", &ensure_keyring),
        ("tests", &|| {
            run(cargo()
                .args(["test", "-p", "toolnexus-cli"])
                .env("TOOLNEXUS_TEST_SERVERS", &servers))
        }),
    ];
    run_parts("cli", &parts)
}

/// Debian's GNOME Keyring, `secret-tool` and D-Bus, installed unless all are there.
fn ensure_keyring() -> bool {
    let present = || KEYRING_PROGRAMS.iter().all(|p| Path::new(p).is_file());
    if present() {
        return true;
    }
    if !apt::install(&["gnome-keyring", "libsecret-tools", "dbus"]) {
        eprintln!(
            "xtask: the keychain tests need {}",
            KEYRING_PROGRAMS.join(", ")
        );
        return false;
    }
    present()
}
