//! The `web` step: the example web host (`examples/web-host`) in a real browser.
//!
//! On a fresh Debian machine it installs Chromium (`chromium`) and Redis (`redis-server`, for
//! the scaled-out host's tests) with apt, which needs root, and Node.js with npm when missing,
//! the pinned `playwright-core`, `axe-core` and `oidc-provider` with `npm ci` into
//! `examples/web-host/node_modules`, and into `target/python-venv` the pinned tools of the
//! `python` step, the host's pinned web framework and Redis client and the `toolnexus` wheel
//! built from this checkout, and it builds the `toolnexus` binary (`cargo build -p
//! toolnexus-cli`). Then it runs the browser tests with `node --test`: each test file
//! starts the host (which starts the example MCP server), or two workers of it behind a proxy
//! with Redis, SQLite and the server over HTTP, or the SDK's authorization and MCP servers
//! (`auth_servers.py`) that the binary signs in to, or `oidc-provider` and an SDK MCP server
//! (`oidc_device.mjs`, `oidc_resource.py`) that it signs in to with the device grant, and
//! drives `/usr/bin/chromium` through playwright-core. Anything that cannot run fails the step with a message saying what to do;
//! nothing is skipped.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{apt, cargo, python, run, run_parts};

/// The host's web framework and Redis client, pinned: what `examples/web-host/app.py` runs on
/// (`mcp` and `toolnexus` come from the `python` step's pins and this checkout).
const REQUIREMENTS: &str =
    "starlette==1.10.0\nuvicorn==0.55.0\npython-multipart==0.0.34\nredis==8.2.0\n";
/// Where Debian's `chromium` puts the browser; playwright-core is told to launch it.
const CHROMIUM: &str = "/usr/bin/chromium";
/// Where Debian's `redis-server` puts the server and its client; the scaled-out host's tests
/// start one server per run, on a free port.
const REDIS_SERVER: &str = "/usr/bin/redis-server";
const REDIS_CLI: &str = "/usr/bin/redis-cli";
/// The oldest Node.js playwright-core runs on.
const NODE_MAJOR: u32 = 20;
/// Written into `node_modules` with the lock file's text once `npm ci` has installed it.
const NPM_STAMP: &str = ".toolnexus-package-lock.json";
/// The `toolnexus` binary the authorization test runs, as `cargo build -p toolnexus-cli`
/// writes it (relative to the checkout).
const CLI_BINARY: &str = "target/debug/toolnexus";

/// Runs the whole step; `false` if any part fails.
pub(crate) fn web(root: &Path) -> bool {
    let example = root.join("examples/web-host");
    let venv = root.join("target/python-venv");
    let cli = root.join(CLI_BINARY);
    let parts: [(&str, &dyn Fn() -> bool); 9] = [
        ("chromium", &ensure_chromium),
        ("redis", &ensure_redis),
        ("node", &ensure_node),
        ("npm packages", &|| ensure_npm_packages(&example)),
        ("environment", &|| python::ensure_venv(&venv)),
        ("python packages", &|| {
            python::ensure_tools(&venv)
                && python::ensure_pins(&venv, "toolnexus-web-requirements.txt", REQUIREMENTS)
        }),
        ("wheel", &|| {
            python::build_wheel(
                &venv,
                &root.join("bindings/python"),
                &root.join("target/python-wheels"),
            )
        }),
        ("cli binary", &|| {
            run(cargo().args(["build", "--quiet", "-p", "toolnexus-cli"])) && cli.is_file()
        }),
        ("browser tests", &|| browser_tests(&example, &venv, &cli)),
    ];
    run_parts("web", &parts)
}

/// Debian's Chromium, installed unless it is there.
fn ensure_chromium() -> bool {
    if Path::new(CHROMIUM).is_file() {
        return true;
    }
    if !apt::install(&["chromium"]) {
        eprintln!("xtask: the browser tests need Chromium at {CHROMIUM}");
        return false;
    }
    Path::new(CHROMIUM).is_file()
}

/// Debian's Redis server and client, installed unless both are there.
fn ensure_redis() -> bool {
    let present = || Path::new(REDIS_SERVER).is_file() && Path::new(REDIS_CLI).is_file();
    if present() {
        return true;
    }
    if !apt::install(&["redis-server"]) {
        eprintln!(
            "xtask: the scaled-out host's tests need Redis at {REDIS_SERVER} and {REDIS_CLI}"
        );
        return false;
    }
    present()
}

/// Node.js (at least [`NODE_MAJOR`]) and npm, Debian's installed when either is missing.
fn ensure_node() -> bool {
    let has_npm = || {
        Command::new("npm")
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    };
    if (node_major().is_none() || !has_npm()) && !apt::install(&["nodejs", "npm"]) {
        eprintln!("xtask: the browser tests need Node.js {NODE_MAJOR} or later with npm");
        return false;
    }
    match node_major() {
        Some(major) if major >= NODE_MAJOR && has_npm() => true,
        Some(major) => {
            eprintln!(
                "xtask: the browser tests need Node.js {NODE_MAJOR} or later (playwright-core); \
                 this is Node.js {major}"
            );
            false
        }
        None => {
            eprintln!("xtask: `node --version` does not run");
            false
        }
    }
}

/// The major version of the `node` on the path.
fn node_major() -> Option<u32> {
    let out = Command::new("node").arg("--version").output().ok()?;
    let version = String::from_utf8(out.stdout).ok()?;
    version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// `npm ci` in the example, unless its `node_modules` holds what the lock file pins already.
fn ensure_npm_packages(example: &Path) -> bool {
    let lock = example.join("package-lock.json");
    let stamp = example.join("node_modules").join(NPM_STAMP);
    let Ok(pinned) = fs::read_to_string(&lock) else {
        eprintln!("xtask: cannot read {}", lock.display());
        return false;
    };
    if fs::read_to_string(&stamp).is_ok_and(|installed| installed == pinned) {
        return true;
    }
    let installed = run(Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        // playwright-core downloads no browser; this says so to anything that might.
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .current_dir(example));
    if !installed {
        eprintln!("xtask: `npm ci` failed in {}", example.display());
        return false;
    }
    match fs::write(&stamp, pinned) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("xtask: cannot write {}: {e}", stamp.display());
            false
        }
    }
}

/// `node --test` on every `tests/*.test.mjs`, the host run by the environment's Python, the
/// authorization test running the `toolnexus` binary `cli`.
fn browser_tests(example: &Path, venv: &Path, cli: &Path) -> bool {
    let tests = test_files(&example.join("tests"));
    if tests.is_empty() {
        eprintln!(
            "xtask: no browser tests in {}",
            example.join("tests").display()
        );
        return false;
    }
    run(Command::new("node")
        // Two files at a time: much of each test is waiting for a server process to start.
        .args(["--test", "--test-reporter=spec", "--test-concurrency=2"])
        .args(&tests)
        .env("TOOLNEXUS_PYTHON", venv.join("bin/python"))
        .env("TOOLNEXUS", cli)
        .env("TOOLNEXUS_CHROMIUM", CHROMIUM)
        .env("TOOLNEXUS_REDIS_SERVER", REDIS_SERVER)
        .env("TOOLNEXUS_REDIS_CLI", REDIS_CLI)
        .current_dir(example))
}

/// The `*.test.mjs` files of `dir`, sorted.
fn test_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.ends_with(".test.mjs"))
        })
        .collect();
    files.sort();
    files
}
