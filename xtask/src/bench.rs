//! `cargo xtask bench`: benchmarks, which report and never fail on a number.
//!
//! `bench core` times the core beside serde_json over the shared payloads (`benches/core.rs`)
//! and counts the allocations of one mapping (`benches/allocations.rs`). `bench snapshot`
//! times a round written down and restored, plain and sealed, against reading the server's
//! input-required result (`benches/snapshot.rs`).
//! `bench ffi` builds the library apps ship, reports its size, sections and crates, and times
//! calls from Kotlin and Swift.
//! `bench python` sets up the environment of the `python` test step (the venv, the pinned
//! tools with the `mcp` package, the release wheel) and installs the peers (orjson,
//! jsonschema-rs), then runs `bindings/python/bench/run.py`: toolnexus beside pydantic,
//! orjson and jsonschema-rs, side by side in one process, and the resident memory over a
//! million calls. `bench html` does the same set-up with the web form's peers (Jinja2,
//! MarkupSafe, pydantic) and runs `bindings/python/bench/web_form.py`: `Request.to_html`
//! beside a Jinja2 template writing the same markup, and the browser's post read back beside
//! a pydantic model, at 3 to 1,000 fields. Every payload comes from
//! `crates/toolnexus-core/benches/payloads/`. Each benchmark appends its targets to
//! `target/bench/targets.tsv`, printed as one table at the end. The targets are printed, not
//! enforced, since timings depend on the machine: the command fails only when a benchmark
//! cannot run.

use std::env;
use std::fs;
use std::path::Path;
use std::process::Command;

use clap::ValueEnum;

use super::{cargo, described, ffi, kotlin, python, run, swift};

/// What `cargo xtask bench` can measure, in the order it runs. Each one's doc comment is its
/// description, in the help and in the run.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Target {
    /// the core's JSON reader against serde_json's, and the whole mapping
    Core,
    /// a round written down and restored (plain and sealed) against reading the server's
    /// input-required result, from 3 to 1,000 fields
    Snapshot,
    /// the library apps ship: its stripped size, its sections and crates, and the cost of a
    /// call from Kotlin and from Swift
    Ffi,
    /// the Python binding against the mcp package's route: speed, and memory over 1M calls
    Python,
    /// the web form from Python: `Request.to_html` against a Jinja2 template, the post read
    /// back against a pydantic model, and the cost per field from 3 to 1,000 fields
    Html,
    /// every entry point of each binding called 1,000,000 (Python) or 100,000 (Kotlin, Swift)
    /// times, the resident set size before and after
    Memory,
}

/// Runs the benchmarks named in `only` (every one when it is empty); `false` if one could not
/// run.
pub(crate) fn bench(root: &Path, only: &[Target]) -> bool {
    let targets = root.join("target/bench/targets.tsv");
    if let Err(e) = targets
        .parent()
        .map_or(Ok(()), fs::create_dir_all)
        .and_then(|()| fs::write(&targets, ""))
    {
        eprintln!("xtask: cannot write {}: {e}", targets.display());
        return false;
    }
    let ran = Target::value_variants()
        .iter()
        .filter(|target| only.is_empty() || only.contains(target))
        .all(|target| {
            let (name, what) = described(target);
            println!("\n==> bench {name}: {what}");
            match target {
                Target::Core => ["core", "allocations"].iter().all(|bench| {
                    run(cargo()
                        .args(["bench", "-p", "toolnexus-core", "--bench", bench])
                        .env(TARGETS_VARIABLE, &targets))
                }),
                Target::Snapshot => run(cargo()
                    .args(["bench", "-p", "toolnexus-core", "--bench", "snapshot"])
                    .env(TARGETS_VARIABLE, &targets)),
                Target::Ffi => bench_ffi(root, &targets),
                Target::Python => bench_python(root, &targets, "bench/run.py"),
                Target::Html => bench_python(root, &targets, "bench/web_form.py"),
                Target::Memory => memory(root),
            }
        });
    summary(&targets);
    ran
}

/// The variable naming the file where each benchmark appends its targets' lines:
/// `where, target, payload, measured, wanted, verdict`, separated by tabs.
const TARGETS_VARIABLE: &str = "TOOLNEXUS_BENCH_TARGETS";

/// Appends one target's line to the summary file.
fn append_target(targets: &Path, cells: &[&str]) {
    let line = format!("{}\n", cells.join("\t"));
    let appended = fs::OpenOptions::new()
        .append(true)
        .open(targets)
        .and_then(|mut file| std::io::Write::write_all(&mut file, line.as_bytes()));
    if let Err(e) = appended {
        eprintln!("xtask: cannot write {}: {e}", targets.display());
    }
}

/// Prints every target the benchmarks of this run recorded, in one table.
fn summary(targets: &Path) {
    let Ok(lines) = fs::read_to_string(targets) else {
        return;
    };
    if lines.trim().is_empty() {
        return;
    }
    println!("\n==> targets, measured side by side in this run");
    println!("| bench | target | payload | measured | wanted | verdict |");
    println!("|---|---|---|---|---|---|");
    let (mut met, mut missed) = (0, 0);
    for line in lines.lines() {
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.last() == Some(&"met") {
            met += 1;
        } else {
            missed += 1;
        }
        println!("| {} |", cells.join(" | "));
    }
    println!("{met} met, {missed} missed (reported, never enforced)");
}

/// Builds `toolnexus-ffi` as apps get it (the `mobile` profile: optimised for size, LTO,
/// symbols stripped) and reports its size against the 1 MB target with its sections; builds
/// it again with its symbols (`target/bloat`, which only a change rebuilds) for the bytes of
/// each crate; then times calls to it from Kotlin and from Swift.
fn bench_ffi(root: &Path, targets: &Path) -> bool {
    let mobile = [
        "build",
        "--quiet",
        "-p",
        "toolnexus-ffi",
        "--profile",
        "mobile",
    ];
    if !run(cargo().args(mobile)) {
        return false;
    }
    let dir = root.join("target/mobile");
    let library = ffi::library_in(&dir);
    let size = match fs::metadata(&library) {
        Ok(meta) => meta.len(),
        Err(e) => {
            eprintln!("xtask: no library at {}: {e}", library.display());
            return false;
        }
    };
    let target = ffi::SIZE_TARGET;
    append_target(
        targets,
        &[
            "ffi",
            "stripped mobile library, bytes",
            env::consts::ARCH,
            &ffi::grouped(size),
            &format!("< {}", ffi::grouped(target)),
            if size < target { "met" } else { "MISSED" },
        ],
    );
    let verdict = if size < target {
        format!("{} bytes under", ffi::grouped(target - size))
    } else {
        format!("{} bytes over", ffi::grouped(size - target))
    };
    println!(
        "{}: {} bytes ({:.1} KiB), profile mobile, {}: {verdict} the 1 MB target ({} bytes)",
        library.display(),
        ffi::grouped(size),
        size as f64 / 1024.0,
        env::consts::ARCH,
        ffi::grouped(target),
    );
    if let Some(sections) = ffi::sections(&library) {
        println!("Sections of 1 KiB or more, in bytes:");
        for (name, bytes) in sections.iter().filter(|(_, bytes)| *bytes >= 1024) {
            println!("  {name:<20} {:>10}", ffi::grouped(*bytes));
        }
    }
    // The same build with its symbols, in a folder of its own so that neither undoes the other.
    let bloat = root.join("target/bloat");
    let symbols = run(cargo()
        .args(mobile)
        .arg("--target-dir")
        .arg(&bloat)
        .env("CARGO_PROFILE_MOBILE_STRIP", "none"));
    if let Some(crates) = symbols
        .then(|| ffi::crate_sizes(&ffi::library_in(&bloat.join("mobile"))))
        .flatten()
    {
        let named: u64 = crates.iter().map(|(_, bytes)| bytes).sum();
        println!(
            "Bytes of code and data by crate ({} in named symbols; {} with symbols kept):",
            ffi::grouped(named),
            bloat.join("mobile").display()
        );
        for (name, bytes) in crates.iter().take(15) {
            println!("  {name:<28} {:>10}", ffi::grouped(*bytes));
        }
    }
    let kotlin = kotlin::bench(root, &dir);
    let swift = swift::bench(root, &library);
    kotlin && swift
}

/// The memory runs of the three bindings; each reports its table, and all run even when one
/// finds growth.
fn memory(root: &Path) -> bool {
    let venv = root.join("target/python-venv");
    let package = root.join("bindings/python");
    let python = python::ensure_venv(&venv)
        && python::ensure_tools(&venv)
        && python::build_wheel(&venv, &package, &root.join("target/python-bench-wheels"))
        && run(Command::new(venv.join("bin/python"))
            .arg("bench/memory.py")
            .current_dir(&package));
    let library = ffi::library(root);
    let kotlin = ffi::build() && kotlin::memory(root, library.parent().unwrap_or(root));
    let swift = swift::memory(root);
    python && kotlin && swift
}

/// Sets up the Python environment of the benchmarks (the `python` test step's, with the pinned
/// peers and the release wheel), then runs `script` of `bindings/python`.
fn bench_python(root: &Path, targets: &Path, script: &str) -> bool {
    let venv = root.join("target/python-venv");
    let package = root.join("bindings/python");
    // Apart from the test step's wheels, so that the two can run side by side.
    let wheels = root.join("target/python-bench-wheels");
    let ready = python::ensure_venv(&venv)
        && python::ensure_bench_tools(&venv)
        && python::build_wheel(&venv, &package, &wheels);
    if !ready {
        eprintln!("xtask: the Python environment for the benchmark could not be set up");
        return false;
    }
    run(Command::new(venv.join("bin/python"))
        .arg(script)
        .env(TARGETS_VARIABLE, targets)
        .current_dir(&package))
}
