//! `cargo xtask`: the one entry point that builds, checks and tests the workspace.
//!
//! `cargo xtask test` runs every suite (Rust, Python, Kotlin, Swift); `cargo xtask test STEP…` runs some of them;
//! `cargo xtask bench python` measures the Python binding against the `mcp` package;
//! `cargo xtask bindgen [--check]` writes (or checks) the committed Kotlin and Swift bindings;
//! `cargo xtask demo` maps the sample elicitations and checks untrusted input. Each step says
//! what it ran and the run ends with a summary; any failed step fails the command.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

mod apt;
mod bench;
mod ffi;
mod kotlin;
mod python;
mod swift;

/// The steps of `cargo xtask test`, in the order they run.
const STEPS: &[(&str, &str)] = &[
    ("fmt", "rustfmt agrees with every file"),
    ("clippy", "clippy on every target, warnings denied"),
    (
        "test",
        "unit, doc and integration tests, the conformance suite and its lint",
    ),
    (
        "doc",
        "rustdoc of the core, with and without std, warnings denied",
    ),
    ("nostd", "the no_std probe links and runs without std"),
    (
        "python",
        "the Python wheel built in a venv: pytest with the conformance suite, stubtest, mypy",
    ),
    (
        "kotlin",
        "the UniFFI Kotlin bindings on the JVM: the conformance suite and the API tests",
    ),
    (
        "swift",
        "the Swift package built with SwiftPM in a Debian chroot: the conformance suite and the API tests",
    ),
];

/// The examples `cargo xtask demo` runs, in order: the mappings, then the checks a host runs
/// on untrusted input.
const DEMOS: [&str; 2] = ["map_seed", "review_form"];

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        usage();
        return ExitCode::FAILURE;
    };
    match command.as_str() {
        "test" => test(rest),
        "bench" => bench(rest),
        "bindgen" => bindgen(rest),
        "demo" => exit(DEMOS.iter().all(|example| {
            run(cargo().args([
                "run",
                "--quiet",
                "-p",
                "toolnexus-core",
                "--features",
                "std",
                "--example",
                example,
            ]))
        })),
        "nostd" => exit(nostd()),
        "help" | "--help" | "-h" => {
            usage();
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("xtask: unknown command {other:?}");
            usage();
            ExitCode::FAILURE
        }
    }
}

fn usage() {
    eprintln!("usage: cargo xtask <command>\n");
    eprintln!("  test [STEP…]   run every step, or the named ones:");
    for (name, what) in STEPS {
        eprintln!("                   {name:<8} {what}");
    }
    eprintln!("  bench [NAME…]  run every benchmark, or the named ones (timings are reported,");
    eprintln!("                 never enforced):");
    for (name, what) in bench::TARGETS {
        eprintln!("                   {name:<8} {what}");
    }
    eprintln!("  bindgen [--check]");
    eprintln!(
        "                 write the committed Kotlin and Swift bindings (bindings/ffi/kotlin,"
    );
    eprintln!("                 bindings/ffi/swift); --check only names the stale ones and fails");
    eprintln!(
        "  demo           map sample elicitations and answers, then check a form, its content"
    );
    eprintln!("                 and URL-mode links, printing the JSON");
    eprintln!("  nostd          build and run the no_std probe");
}

fn test(only: &[String]) -> ExitCode {
    for name in only {
        if !STEPS.iter().any(|(s, _)| s == name) {
            eprintln!("xtask: unknown step {name:?}");
            usage();
            return ExitCode::FAILURE;
        }
    }
    let mut results = Vec::new();
    for (name, what) in STEPS {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        println!("\n==> {name}: {what}");
        let started = Instant::now();
        let ok = match *name {
            "fmt" => run(cargo().args(["fmt", "--all", "--", "--check"])),
            "clippy" => run(cargo().args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--all-features",
                "--",
                "-D",
                "warnings",
            ])),
            "test" => run(cargo().args(["test", "--workspace", "--all-features"])),
            // Once as a no_std user sees it, once with every feature.
            "doc" => ["", "--all-features"].iter().all(|features| {
                run(cargo()
                    .args(["doc", "--no-deps", "-p", "toolnexus-core"])
                    .args(features.split_whitespace())
                    .env("RUSTDOCFLAGS", "-D warnings"))
            }),
            "nostd" => nostd(),
            "python" => python::python(&root()),
            "kotlin" => kotlin::kotlin(&root()),
            "swift" => swift::swift(&root()),
            _ => false,
        };
        results.push((*name, ok, started.elapsed().as_secs_f32()));
    }
    println!("\n==> summary");
    for (name, ok, secs) in &results {
        println!(
            "  {:<8} {:<6} {secs:>6.1}s",
            name,
            if *ok { "ok" } else { "FAILED" }
        );
    }
    let failed = results.iter().filter(|(_, ok, _)| !ok).count();
    println!("xtask: {} passed, {failed} failed", results.len() - failed);
    exit(failed == 0)
}

fn bench(only: &[String]) -> ExitCode {
    for name in only {
        if !bench::TARGETS.iter().any(|(t, _)| t == name) {
            eprintln!("xtask: unknown benchmark {name:?}");
            usage();
            return ExitCode::FAILURE;
        }
    }
    exit(bench::bench(&root(), only))
}

fn bindgen(args: &[String]) -> ExitCode {
    match args {
        [] => exit(ffi::bindgen(&root(), false)),
        [flag] if flag == "--check" => exit(ffi::bindgen(&root(), true)),
        _ => {
            eprintln!("xtask: bindgen takes only --check, not {args:?}");
            usage();
            ExitCode::FAILURE
        }
    }
}

/// Builds the probe in its own workspace, with LTO and `panic = "abort"`, and runs it.
fn nostd() -> bool {
    let root = root();
    let manifest = root.join("probe/no_std/Cargo.toml");
    let target = root.join("target/nostd-probe");
    let built = run(cargo()
        .args(["build", "--release", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target));
    if !built {
        eprintln!("xtask: the no_std probe did not build; std may have leaked into the core");
        return false;
    }
    run(&mut Command::new(
        target.join("release/toolnexus-nostd-probe"),
    ))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn cargo() -> Command {
    let mut command = Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(root());
    command
}

/// Runs the parts of the binding step `step` in order, printing each one's result and time, and
/// stops at the first that fails; `false` then.
fn run_parts(step: &str, parts: &[(&str, &dyn Fn() -> bool)]) -> bool {
    let width = parts.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    for (name, part) in parts {
        let started = Instant::now();
        let ok = part();
        println!(
            "{step}: {name:<width$} {:<6} {:>5.1}s",
            if ok { "ok" } else { "FAILED" },
            started.elapsed().as_secs_f32()
        );
        if !ok {
            return false;
        }
    }
    true
}

fn run(command: &mut Command) -> bool {
    match command.status() {
        Ok(status) => status.success(),
        Err(e) => {
            eprintln!("xtask: could not start {command:?}: {e}");
            false
        }
    }
}

fn exit(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
