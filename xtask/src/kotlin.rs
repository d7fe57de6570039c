//! The `kotlin` step: runs the conformance suite and the API tests on the JVM through the
//! committed Kotlin bindings of `toolnexus-ffi`.
//!
//! It builds the cdylib and the pinned `uniffi-bindgen`, fails when the committed Kotlin source
//! (`bindings/ffi/kotlin/`) is not what the library generates, fetches `kotlinc` from the npm
//! package `kotlin-compiler` into `target/kotlin/` and JNA from Debian (`libjna-java`, which
//! needs root) when missing, compiles the committed source with the tests in
//! `bindings/ffi/tests/kotlin/` and runs them. Anything that cannot run fails the step with a
//! message saying what to do.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::ffi::{self, Language};
use super::{apt, run};

/// The Kotlin compiler release, as published on npm.
const KOTLIN_VERSION: &str = "2.4.20";
/// The Kotlin source set apps consume; its generated source is committed.
const SOURCES: &str = "bindings/ffi/kotlin/src/main/kotlin";
/// Where Debian's `libjna-java` puts JNA.
const JNA_JAR: &str = "/usr/share/java/jna.jar";
/// The conformance runner's entry point: `main` in `Conformance.kt`.
const CONFORMANCE_CLASS: &str = "ConformanceKt";
/// The API tests' entry point: `main` in `Api.kt`.
const API_CLASS: &str = "ApiKt";
/// The benchmark's entry point: `main` in `Bench.kt`.
const BENCH_CLASS: &str = "BenchKt";

/// Runs the whole step; `false` if any part fails.
pub(crate) fn kotlin(root: &Path) -> bool {
    let work = root.join("target/kotlin");
    let compiler = work.join(format!("kotlin-compiler-{KOTLIN_VERSION}"));
    let jar = work.join("tests.jar");
    let library = ffi::library(root);
    let library_dir = library.parent().unwrap_or(root);
    let classpath = join_paths(&[
        jar.clone(),
        PathBuf::from(JNA_JAR),
        compiler.join("package/lib/kotlin-stdlib.jar"),
    ]);
    let java = |class: &str| {
        let mut java = Command::new("java");
        java.arg(format!("-Djna.library.path={}", library_dir.display()))
            .arg("-cp")
            .arg(&classpath)
            .arg(class);
        java
    };
    let parts: [(&str, &dyn Fn() -> bool); 7] = [
        ("jna", &ensure_jna),
        ("kotlinc", &|| ensure_kotlinc(&compiler)),
        ("cdylib", &ffi::build),
        ("bindgen", &|| ffi::is_current(root, &[Language::Kotlin])),
        ("compile", &|| compile(root, &compiler, &jar)),
        ("suite", &|| {
            run(java(CONFORMANCE_CLASS).arg(root.join("conformance/v1")))
        }),
        ("api", &|| run(&mut java(API_CLASS))),
    ];
    for (name, part) in parts {
        let started = Instant::now();
        let ok = part();
        println!(
            "kotlin: {name:<8} {:<6} {:>5.1}s",
            if ok { "ok" } else { "FAILED" },
            started.elapsed().as_secs_f32()
        );
        if !ok {
            return false;
        }
    }
    true
}

/// Runs the Kotlin benchmark (`Bench.kt`) against the library in `library_dir`, timing calls
/// over the payloads of the core's benchmark; `false` if it cannot run.
pub(crate) fn bench(root: &Path, library_dir: &Path) -> bool {
    let work = root.join("target/kotlin");
    let compiler = work.join(format!("kotlin-compiler-{KOTLIN_VERSION}"));
    let jar = work.join("bench.jar");
    let classpath = join_paths(&[
        jar.clone(),
        PathBuf::from(JNA_JAR),
        compiler.join("package/lib/kotlin-stdlib.jar"),
    ]);
    ensure_jna()
        && ensure_kotlinc(&compiler)
        && compile(root, &compiler, &jar)
        && run(Command::new("java")
            .arg(format!("-Djna.library.path={}", library_dir.display()))
            .arg("-cp")
            .arg(&classpath)
            .arg(BENCH_CLASS)
            .arg(root.join("crates/toolnexus-core/benches/payloads")))
}

/// Installs Debian's `libjna-java` unless JNA is there; that needs root.
fn ensure_jna() -> bool {
    if Path::new(JNA_JAR).is_file() {
        return true;
    }
    let installed = apt::install(&["libjna-java"]) && Path::new(JNA_JAR).is_file();
    if !installed {
        eprintln!("xtask: JNA is needed at {JNA_JAR}");
    }
    installed
}

/// Unpacks the npm package `kotlin-compiler` into `dir` unless its `kotlinc` is there.
fn ensure_kotlinc(dir: &Path) -> bool {
    if dir.join("package/bin/kotlinc").is_file() {
        return true;
    }
    if let Err(e) = fs::create_dir_all(dir) {
        eprintln!("xtask: cannot make {}: {e}", dir.display());
        return false;
    }
    println!("kotlin: fetching kotlin-compiler@{KOTLIN_VERSION} with npm");
    let packed = run(Command::new("npm")
        .args(["pack", "--quiet"])
        .arg(format!("kotlin-compiler@{KOTLIN_VERSION}"))
        .current_dir(dir));
    let tarball = dir.join(format!("kotlin-compiler-{KOTLIN_VERSION}.tgz"));
    if !packed || !tarball.is_file() {
        eprintln!("xtask: `npm pack kotlin-compiler@{KOTLIN_VERSION}` failed; is npm installed?");
        return false;
    }
    let unpacked = run(Command::new("tar")
        .arg("xzf")
        .arg(&tarball)
        .current_dir(dir));
    if !unpacked || !dir.join("package/bin/kotlinc").is_file() {
        eprintln!("xtask: {} holds no package/bin/kotlinc", tarball.display());
        return false;
    }
    true
}

/// Compiles the committed bindings and the tests into `jar`.
fn compile(root: &Path, compiler: &Path, jar: &Path) -> bool {
    let sources = [root.join(SOURCES), root.join("bindings/ffi/tests/kotlin")];
    run(Command::new(compiler.join("package/bin/kotlinc"))
        .args(&sources)
        .arg("-cp")
        .arg(JNA_JAR)
        // The generated code warns about its own idioms.
        .arg("-nowarn")
        .arg("-d")
        .arg(jar))
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|path| path.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}
