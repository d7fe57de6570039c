//! `cargo xtask bench`: benchmarks, which report and never fail on a number.
//!
//! `bench core` times the core's JSON reader beside serde_json's (`benches/json_read.rs`).
//! `bench ffi` builds the library apps ship, reports its size and times calls from Kotlin.
//! `bench python` sets up the environment of the `python` test step (the venv, the pinned
//! tools with the `mcp` package, the release wheel), then runs `bindings/python/bench/run.py`:
//! toolnexus against the `mcp` package's own route, side by side in one process, and the
//! resident memory over a million calls. The targets are printed, not enforced, since
//! timings depend on the machine: the command fails only when the benchmark cannot run.

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
    /// the library apps ship: its stripped size, and the cost of a call from Kotlin
    Ffi,
    /// the Python binding against the mcp package's route: speed, and memory over 1M calls
    Python,
    /// every entry point of each binding called 1,000,000 (Python) or 100,000 (Kotlin, Swift)
    /// times, the resident set size before and after
    Memory,
}

/// Runs the benchmarks named in `only` (every one when it is empty); `false` if one could not
/// run.
pub(crate) fn bench(root: &Path, only: &[Target]) -> bool {
    Target::value_variants()
        .iter()
        .filter(|target| only.is_empty() || only.contains(target))
        .all(|target| {
            let (name, what) = described(target);
            println!("\n==> bench {name}: {what}");
            match target {
                Target::Core => {
                    run(cargo().args(["bench", "-p", "toolnexus-core", "--bench", "json_read"]))
                }
                Target::Ffi => bench_ffi(root),
                Target::Python => bench_python(root),
                Target::Memory => memory(root),
            }
        })
}

/// Builds `toolnexus-ffi` as apps get it (the `mobile` profile: optimised for size, LTO,
/// symbols stripped), reports its size and times calls to it from Kotlin.
fn bench_ffi(root: &Path) -> bool {
    if !run(cargo().args([
        "build",
        "--quiet",
        "-p",
        "toolnexus-ffi",
        "--profile",
        "mobile",
    ])) {
        return false;
    }
    let dir = root.join("target/mobile");
    let library = ffi::library_in(&dir);
    match fs::metadata(&library) {
        Ok(meta) => println!(
            "{}: {} bytes ({:.0} KiB), profile mobile, {}",
            library.display(),
            meta.len(),
            meta.len() as f64 / 1024.0,
            env::consts::ARCH
        ),
        Err(e) => {
            eprintln!("xtask: no library at {}: {e}", library.display());
            return false;
        }
    }
    kotlin::bench(root, &dir)
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

fn bench_python(root: &Path) -> bool {
    let venv = root.join("target/python-venv");
    let package = root.join("bindings/python");
    // Apart from the test step's wheels, so that the two can run side by side.
    let wheels = root.join("target/python-bench-wheels");
    let ready = python::ensure_venv(&venv)
        && python::ensure_tools(&venv)
        && python::build_wheel(&venv, &package, &wheels);
    if !ready {
        eprintln!("xtask: the Python environment for the benchmark could not be set up");
        return false;
    }
    run(Command::new(venv.join("bin/python"))
        .arg("bench/run.py")
        .current_dir(&package))
}
