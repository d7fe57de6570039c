//! `cargo xtask`: the one entry point that builds, checks and tests the workspace.
//!
//! `cargo xtask test` runs every suite (Rust, Python, Kotlin, Swift); `cargo xtask test STEP…` runs some of them;
//! `cargo xtask bench python` measures the Python binding against the `mcp` package;
//! `cargo xtask bindgen [--check]` writes (or checks) the committed Kotlin and Swift bindings;
//! `cargo xtask cases [--check]` lays out (or checks) the conformance case files;
//! `cargo xtask demo` maps the sample elicitations and checks untrusted input. Each step says
//! what it ran and the run ends with a summary; any failed step fails the command.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{self, ExitCode};
use std::time::Instant;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

mod apt;
mod auth_suite;
mod bench;
mod cli;
mod ffi;
mod fuzz;
mod kotlin;
mod python;
mod swift;
mod web;

/// Builds, checks and tests the toolnexus workspace.
#[derive(Parser)]
#[command(bin_name = "cargo xtask", arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands of `cargo xtask`; each one's doc comment is its help.
#[derive(Subcommand)]
enum Command {
    /// Run every step, or the named ones (listed below)
    Test {
        /// The steps to run; they run in the order of the list, whatever the order named
        #[arg(value_name = "STEP")]
        steps: Vec<Step>,
    },
    /// Run every benchmark, or the named ones (listed below): timings are reported, never
    /// enforced
    Bench {
        /// The benchmarks to run
        #[arg(value_name = "NAME")]
        targets: Vec<bench::Target>,
    },
    /// Write the committed Kotlin and Swift bindings (bindings/ffi/kotlin, bindings/ffi/swift)
    Bindgen {
        /// Only name the stale ones, and fail if there are any
        #[arg(long)]
        check: bool,
    },
    /// Lay out the conformance case files (conformance/v1) as the lint holds them: two-space
    /// indents, a value on one line when it fits in 100 columns
    Cases {
        /// Only name the files not laid out, and fail if there are any
        #[arg(long)]
        check: bool,
    },
    /// Map sample elicitations and answers, then check a form, its content and URL-mode links,
    /// printing the JSON
    Demo,
    /// Build and run the no_std probe
    Nostd,
    /// Fuzz every target, or the one named (listed below), with cargo-fuzz on nightly, then
    /// print per target its executions, rate, coverage and findings
    Fuzz {
        /// The target to fuzz
        #[arg(value_name = "TARGET")]
        target: Option<fuzz::Target>,
        /// Seconds to run each target
        #[arg(long, default_value_t = 60)]
        time: u64,
    },
}

/// The steps of `cargo xtask test`, in the order they run. Each one's doc comment is its
/// description, in the help and in the run; `Step::run` says what it does.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Step {
    /// rustfmt agrees with every file
    Fmt,
    /// clippy on every target, warnings denied
    Clippy,
    /// unit, doc and integration tests, the conformance suite and its lint
    Test,
    /// rustdoc of the core, with and without std, warnings denied
    Doc,
    /// the no_std probe links and runs without std
    Nostd,
    /// every fuzz target replays its seeds and kept corpus (nightly and cargo-fuzz needed)
    Fuzz,
    /// the core's and the conformance runner's tests under LeakSanitizer (nightly needed)
    Leaks,
    /// the crates users install (the core, the conformance runner, the authorization crate, the
    /// CLI) package, each built from its package alone
    Package,
    /// the toolnexus CLI: its unit tests, the JSON tools on the shared cases, elicit through a
    /// real pseudo-terminal, call against servers built with the official SDKs, and the
    /// official MCP conformance suite's client scenarios
    Cli,
    /// the Python wheel built in a venv: pytest with the conformance suite, stubtest, mypy
    Python,
    /// the example web host in a real browser: Chromium driven by playwright-core, axe-core, a
    /// hostile server
    Web,
    /// the UniFFI Kotlin bindings on the JVM: the conformance suite and the API tests
    Kotlin,
    /// the Swift package built with SwiftPM in a Debian chroot: the conformance suite and the
    /// API tests
    Swift,
}

impl Step {
    /// Runs the step; `false` if it failed.
    fn run(self) -> bool {
        match self {
            Step::Fmt => run(cargo().args(["fmt", "--all", "--", "--check"])),
            Step::Clippy => run(cargo().args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--all-features",
                "--",
                "-D",
                "warnings",
            ])),
            // The CLI's tests run in their own step.
            Step::Test => run(cargo().arg("test").args(TESTED)),
            // Once as a no_std user sees it, once with every feature.
            Step::Doc => ["", "--all-features"].iter().all(|features| {
                run(cargo()
                    .args(["doc", "--no-deps", "-p", "toolnexus-core"])
                    .args(features.split_whitespace())
                    .env("RUSTDOCFLAGS", "-D warnings"))
            }),
            Step::Nostd => nostd(),
            Step::Fuzz => fuzz::replay(&root()),
            Step::Leaks => fuzz::leaks(&root()),
            Step::Package => package(),
            Step::Cli => cli::cli(&root()),
            Step::Python => python::python(&root()),
            Step::Web => web::web(&root()),
            Step::Kotlin => kotlin::kotlin(&root()),
            Step::Swift => swift::swift(&root()),
        }
    }
}

/// What the `test` step builds and tests: the workspace with every feature, but the CLI, whose
/// tests run in their own step.
const TESTED: [&str; 4] = [
    "--workspace",
    "--all-features",
    "--exclude",
    "toolnexus-cli",
];

/// The examples `cargo xtask demo` runs, in order: the mappings, then the checks a host runs
/// on untrusted input.
const DEMOS: [&str; 2] = ["map_seed", "review_form"];

fn main() -> ExitCode {
    let command = Cli::command();
    let heading = *command.get_styles().get_header();
    let lists = [
        list::<Step>(
            heading,
            "Steps of `cargo xtask test`, in the order they run:",
        ),
        list::<bench::Target>(heading, "Benchmarks of `cargo xtask bench`:"),
        list::<fuzz::Target>(heading, "Targets of `cargo xtask fuzz`:"),
    ];
    let matches = command.after_help(lists.join("\n")).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        Command::Test { steps } => test(&steps),
        Command::Bench { targets } => exit(bench::bench(&root(), &targets)),
        Command::Bindgen { check } => exit(ffi::bindgen(&root(), check)),
        Command::Cases { check } => exit(cases(check)),
        Command::Demo => exit(demo()),
        Command::Nostd => exit(nostd()),
        Command::Fuzz { target, time } => exit(fuzz::fuzz(&root(), target, time)),
    }
}

/// The name of `value` on the command line, and its description: its doc comment.
fn described<T: ValueEnum>(value: &T) -> (String, String) {
    value
        .to_possible_value()
        .map_or_else(Default::default, |value| {
            let help = value.get_help().map(ToString::to_string);
            (value.get_name().to_owned(), help.unwrap_or_default())
        })
}

/// `title` in the `style` of clap's headings, then every value of `T` with its description.
fn list<T: ValueEnum>(style: clap::builder::styling::Style, title: &str) -> String {
    let described: Vec<(String, String)> = T::value_variants().iter().map(described).collect();
    let width = described
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let values: String = described
        .iter()
        .map(|(name, what)| format!("  {name:<width$} {what}\n"))
        .collect();
    format!("{style}{title}{style:#}\n{values}")
}

/// Runs the steps in `only` (every one when it is empty) in their order, then prints a summary;
/// any failed step fails the command.
fn test(only: &[Step]) -> ExitCode {
    let mut results = Vec::new();
    for step in Step::value_variants() {
        if !only.is_empty() && !only.contains(step) {
            continue;
        }
        let (name, what) = described(step);
        println!("\n==> {name}: {what}");
        let started = Instant::now();
        let ok = step.run();
        results.push((name, ok, started.elapsed().as_secs_f32()));
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

/// Lays out every case file, or with `check` names those not laid out; `false` when one is not
/// (with `check`) or a file cannot be read.
fn cases(check: bool) -> bool {
    match toolnexus_conformance::format::format_suite(&toolnexus_conformance::suite_dir(), check) {
        Ok(reported) if check => {
            for problem in &reported {
                eprintln!("{problem}");
            }
            reported.is_empty()
        }
        Ok(rewritten) => {
            for path in &rewritten {
                println!("laid out {path}");
            }
            println!("cases: {} file(s) rewritten", rewritten.len());
            true
        }
        Err(e) => {
            eprintln!("xtask: {e}");
            false
        }
    }
}

/// Runs the `DEMOS` in order; `false` at the first that fails.
fn demo() -> bool {
    DEMOS.iter().all(|example| {
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
    })
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
    run(&mut process::Command::new(
        target.join("release/toolnexus-nostd-probe"),
    ))
}

/// The crates `cargo xtask test package` packs and verifies, each built from the packed
/// copies of the others.
const PACKAGES: [&str; 4] = [
    "toolnexus-core",
    "toolnexus-conformance",
    "toolnexus-auth",
    "toolnexus-cli",
];

/// Packs the published crates and builds each from its tarball.
///
/// Cargo verifies a crate that depends on another of the workspace through a local registry
/// under `target/package`, and unpacks that registry's crates into the Cargo home under a
/// name made from the registry's path. It never unpacks a crate a second time, so a second
/// run in the same checkout would build against the first run's copy of the core; and
/// since a registry's crates never change, the build would reuse what it compiled from
/// that copy too. So the unpacked copies of this workspace's crates and their build
/// fingerprints go first; nothing else is touched.
fn package() -> bool {
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")));
    let unpacked = home.map(|home| home.join("registry").join("src"));
    for registry in unpacked
        .iter()
        .flat_map(|src| src.read_dir().into_iter().flatten())
    {
        let Ok(registry) = registry else { continue };
        // A registry with a host in its name is a remote one; local ones have none.
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for name in PACKAGES {
            let stale = registry
                .path()
                .join(format!("{name}-{}", env!("CARGO_PKG_VERSION")));
            if stale.exists()
                && let Err(e) = std::fs::remove_dir_all(&stale)
            {
                eprintln!("xtask: cannot remove {}: {e}", stale.display());
                return false;
            }
        }
    }
    let fingerprints = root().join("target").join("debug").join(".fingerprint");
    for built in fingerprints.read_dir().into_iter().flatten().flatten() {
        let name = built.file_name().to_string_lossy().into_owned();
        let ours = PACKAGES.iter().any(|package| {
            name.strip_prefix(package)
                .is_some_and(|hash| hash.starts_with('-'))
        });
        if ours && let Err(e) = std::fs::remove_dir_all(built.path()) {
            eprintln!("xtask: cannot remove {}: {e}", built.path().display());
            return false;
        }
    }
    let mut command = cargo();
    // A package's manifest carries no profile: built with the workspace's debug setting, its
    // dependencies are those the other steps built, not built again.
    if let Some(debug) = dev_debug() {
        command.env("CARGO_PROFILE_DEV_DEBUG", debug);
    }
    command.arg("package");
    for name in PACKAGES {
        command.args(["-p", name]);
    }
    run(&mut command)
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// The `debug` setting of the workspace's `[profile.dev]` (in `Cargo.toml`), as cargo's
/// environment spells it; `None` when the manifest sets none.
fn dev_debug() -> Option<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).ok()?;
    let profile = &manifest[manifest.find("\n[profile.dev]\n")? + 1..];
    profile
        .lines()
        .skip(1)
        .take_while(|line| !line.starts_with('['))
        .find_map(|line| line.strip_prefix("debug = "))
        .map(|value| value.trim().trim_matches('"').to_string())
}

fn cargo() -> process::Command {
    let mut command = process::Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
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

fn run(command: &mut process::Command) -> bool {
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

#[cfg(test)]
mod tests {
    /// The package step builds with what the workspace's manifest says: a setting it could
    /// not find would make it build every dependency again.
    #[test]
    fn the_dev_profile_s_debug_setting_is_found() {
        let manifest = std::fs::read_to_string(super::root().join("Cargo.toml")).unwrap();
        let found = super::dev_debug().expect("a debug setting in [profile.dev]");
        assert!(manifest.contains(&format!("[profile.dev]\ndebug = \"{found}\"")));
    }
}
