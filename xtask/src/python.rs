//! The `python` step: builds the `toolnexus` wheel in a virtual environment and tests it.
//!
//! On a fresh machine it makes `target/python-venv` (installing Debian's `python3-venv` first
//! when the interpreter has no `venv`, which needs root), installs the pinned tools, builds the
//! abi3 wheel with maturin, installs that wheel and runs pytest (the conformance suite
//! included), `mypy.stubtest` against the built module and `mypy --strict` on the package and
//! its tests. The LangGraph tests run real MCP servers: the CLI's test servers, installed
//! under `target/test-servers` by the same script the `cli` step uses. Anything that cannot
//! run fails the step with a message saying what to do.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{apt, run, run_parts};

/// The tools the step installs into the environment, pinned; `mcp` is the official MCP SDK the
/// `toolnexus.mcp` integration plugs into (its tests run a server built with it); LangGraph
/// with its SQLite checkpointer and `langchain-core` are what `toolnexus.langgraph` plugs into,
/// and `langchain` (whose `langchain.mcp` needs `fastmcp`) is the peer its tests run beside.
const REQUIREMENTS: &str = concat!(
    "maturin==1.16.0\n",
    "pytest==9.2.0\n",
    "mypy==2.4.1\n",
    "mcp==2.3.0\n",
    "langgraph==1.2.24\n",
    "langgraph-checkpoint-sqlite==3.1.2\n",
    "langchain-core==1.8.3\n",
    "langchain==1.5.2\n",
    "fastmcp==4.2.3\n",
);

/// Runs the whole step; `false` if any part fails.
pub(crate) fn python(root: &Path) -> bool {
    let venv = root.join("target/python-venv");
    let package = root.join("bindings/python");
    let wheels = root.join("target/python-wheels");
    let python = venv.join("bin/python");
    let mypy_cache = root.join("target/python-mypy-cache");
    let servers = root.join("target/test-servers");
    let parts: [(&str, &dyn Fn() -> bool); 7] = [
        ("environment", &|| ensure_venv(&venv)),
        ("tools", &|| ensure_tools(&venv)),
        ("wheel", &|| build_wheel(&venv, &package, &wheels)),
        ("test servers", &|| install_test_servers(root, &servers)),
        ("pytest", &|| {
            run(Command::new(&python)
                .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
                .env("TOOLNEXUS_TEST_SERVERS", &servers)
                .current_dir(&package))
        }),
        ("stubtest", &|| {
            // From `target/`: stubtest leaves a `.mypy_cache` in its working directory.
            run(Command::new(&python)
                .args(["-m", "mypy.stubtest", "toolnexus._native"])
                .current_dir(root.join("target")))
        }),
        // The package as users type-check against it, and the tests, whose deliberate misuses
        // must each be refused by the stubs (`--strict` flags an unneeded `type: ignore`).
        ("mypy", &|| {
            [["-p", "toolnexus"], ["--", "tests"]].iter().all(|target| {
                run(Command::new(&python)
                    .args(["-m", "mypy", "--strict"])
                    .args(target)
                    .env("MYPY_CACHE_DIR", &mypy_cache)
                    .current_dir(&package))
            })
        }),
    ];
    run_parts("python", &parts)
}

/// The test MCP servers (built with the official Python and TypeScript SDKs and FastMCP) and
/// the official conformance suite, installed by the CLI's script under `servers`, for the
/// CLI's call tests and the LangGraph tests; it does nothing when they are there.
pub(crate) fn install_test_servers(root: &Path, servers: &Path) -> bool {
    let install = root.join("crates/toolnexus-cli/tests/servers/install.sh");
    let ok = run(Command::new("sh").arg(&install).arg(servers));
    if !ok {
        eprintln!(
            "xtask: the test servers' SDKs and the conformance suite could not be installed \
             (python3 with venv, node and npm are needed): the tests that call them cannot run"
        );
    }
    ok
}

/// Makes the virtual environment unless a working one is there; when `python3` or its `venv`
/// module is missing (Debian ships `venv` apart), installs them and tries again.
pub(crate) fn ensure_venv(venv: &Path) -> bool {
    if is_working(venv) {
        return true;
    }
    if make_venv(venv) {
        return true;
    }
    println!("python: `python3 -m venv` did not work");
    if !apt::install(&["python3", "python3-venv"]) {
        eprintln!(
            "xtask: python3 with the venv module is needed (or install Python 3.10+ another way)"
        );
        return false;
    }
    let made = make_venv(venv);
    if !made {
        eprintln!("xtask: `python3 -m venv {}` failed", venv.display());
    }
    made
}

fn is_working(venv: &Path) -> bool {
    venv.join("bin/python").is_file() && venv.join("bin/pip").is_file()
}

/// `python3 -m venv`, over whatever half-made environment an earlier failure left.
fn make_venv(venv: &Path) -> bool {
    if venv.exists()
        && let Err(e) = fs::remove_dir_all(venv)
    {
        eprintln!("xtask: cannot remove the broken {}: {e}", venv.display());
        return false;
    }
    run(Command::new("python3").arg("-m").arg("venv").arg(venv)) && is_working(venv)
}

/// The peers `cargo xtask bench python` and `bench html` measure the binding beside, pinned,
/// installed into the same environment by the benchmarks alone: orjson and jsonschema-rs; for
/// the web form, Jinja2 with its MarkupSafe, and pydantic (the version `mcp` resolves to).
const BENCH_REQUIREMENTS: &str = concat!(
    "orjson==3.13.0\n",
    "jsonschema-rs==0.61.2\n",
    "jinja2==3.1.6\n",
    "markupsafe==3.0.4\n",
    "pydantic==2.14.4\n",
);

/// Installs the pinned tools, unless the environment already has exactly these pins.
pub(crate) fn ensure_tools(venv: &Path) -> bool {
    ensure_pins(venv, "toolnexus-requirements.txt", REQUIREMENTS)
}

/// Installs the tools and the benchmark's peers, unless the environment has them already.
pub(crate) fn ensure_bench_tools(venv: &Path) -> bool {
    ensure_tools(venv) && ensure_pins(venv, "toolnexus-bench-requirements.txt", BENCH_REQUIREMENTS)
}

/// Installs `requirements` (one pin a line), unless the stamp file `stamp_name` in the
/// environment says that exactly these are installed.
pub(crate) fn ensure_pins(venv: &Path, stamp_name: &str, requirements: &str) -> bool {
    let stamp = venv.join(stamp_name);
    if fs::read_to_string(&stamp).is_ok_and(|installed| installed == requirements) {
        return true;
    }
    if let Err(e) = fs::write(&stamp, "") {
        eprintln!("xtask: cannot write {}: {e}", stamp.display());
        return false;
    }
    let mut pip = Command::new(venv.join("bin/python"));
    pip.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    pip.args(requirements.lines());
    if !run(&mut pip) {
        eprintln!(
            "xtask: pip could not install {}",
            requirements.replace('\n', " ")
        );
        return false;
    }
    match fs::write(&stamp, requirements) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("xtask: cannot write {}: {e}", stamp.display());
            false
        }
    }
}

/// Builds the release wheel into `wheels` and installs it into the environment.
pub(crate) fn build_wheel(venv: &Path, package: &Path, wheels: &Path) -> bool {
    if wheels.exists()
        && let Err(e) = fs::remove_dir_all(wheels)
    {
        eprintln!("xtask: cannot empty {}: {e}", wheels.display());
        return false;
    }
    let built = run(Command::new(venv.join("bin/maturin"))
        .args(["build", "--release", "--locked", "--quiet", "--interpreter"])
        .arg(venv.join("bin/python"))
        .arg("--out")
        .arg(wheels)
        .current_dir(package));
    if !built {
        eprintln!("xtask: maturin could not build the wheel");
        return false;
    }
    let Some(wheel) = the_wheel(wheels) else {
        eprintln!("xtask: expected one wheel in {}", wheels.display());
        return false;
    };
    run(Command::new(venv.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--force-reinstall",
        ])
        .arg(wheel))
}

/// The one `.whl` file in `dir`.
fn the_wheel(dir: &Path) -> Option<PathBuf> {
    let mut wheels = fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "whl"));
    let wheel = wheels.next()?;
    wheels.next().is_none().then_some(wheel)
}
