//! The `kotlin` step: runs the conformance suite and the API tests on the JVM through the
//! committed Kotlin bindings of `toolnexus-ffi`, then the official MCP conformance suite's
//! authorization scenarios with `AuthClient.kt` as their client.
//!
//! It builds the cdylib and the pinned `uniffi-bindgen`, fails when the committed Kotlin source
//! (`bindings/ffi/kotlin/`) is not what the library generates, fetches `kotlinc` from the npm
//! package `kotlin-compiler` into `target/kotlin/` and JNA from Debian (`libjna-java`, which
//! needs root) when missing, compiles the committed source with the tests in
//! `bindings/ffi/tests/kotlin/` and the README's Kotlin example, and runs them. The suite is
//! installed under `target/test-servers` by the CLI's script. Anything that cannot run fails
//! the step with a message saying what to do.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::ffi::{self, Language};
use super::{apt, auth_suite, python, run, run_parts};

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
/// The memory run's entry point: `main` in `Memory.kt`.
const MEMORY_CLASS: &str = "MemoryKt";
/// The client of the suite's authorization scenarios: `main` in `AuthClient.kt`.
const AUTH_CLIENT_CLASS: &str = "AuthClientKt";

/// Runs the whole step; `false` if any part fails.
pub(crate) fn kotlin(root: &Path) -> bool {
    let build = Build::new(root, "tests.jar");
    let library = ffi::library(root);
    let library_dir = library.parent().unwrap_or(root);
    let servers = root.join("target/test-servers");
    let parts: [(&str, &dyn Fn() -> bool); 9] = [
        ("jna", &ensure_jna),
        ("kotlinc", &|| build.ensure_kotlinc()),
        ("cdylib", &ffi::build),
        ("bindgen", &|| ffi::is_current(root, &[Language::Kotlin])),
        ("compile", &|| build.compile(root)),
        ("suite", &|| {
            run(build
                .java(CONFORMANCE_CLASS, library_dir)
                .arg(root.join("conformance/v1")))
        }),
        ("api", &|| run(&mut build.java(API_CLASS, library_dir))),
        ("test servers", &|| {
            python::install_test_servers(root, &servers)
        }),
        ("auth suite", &|| {
            // A JVM per scenario: compiled quickly, a small heap collected simply, it starts in
            // about half the time.
            let quick = [
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xshare:auto",
            ];
            let client = build.java_with(&quick, AUTH_CLIENT_CLASS, library_dir);
            auth_suite::run(
                "kotlin",
                &servers,
                &root.join("target/kotlin/auth-suite"),
                &client,
            )
        }),
    ];
    run_parts("kotlin", &parts)
}

/// Runs the Kotlin benchmark (`Bench.kt`) against the library in `library_dir`, timing calls
/// over the payloads of the core's benchmark; `false` if it cannot run.
pub(crate) fn bench(root: &Path, library_dir: &Path) -> bool {
    // A jar of its own, so that the benchmark and the test step can run side by side.
    let build = Build::new(root, "bench.jar");
    ensure_jna()
        && build.ensure_kotlinc()
        && build.compile(root)
        && run(build
            .java(BENCH_CLASS, library_dir)
            .arg(root.join("crates/toolnexus-core/benches/payloads")))
}

/// Runs the memory check (`Memory.kt`): every entry point 100,000 times against the library
/// in `library_dir`, the resident set size reported; `false` if it grew or cannot run.
pub(crate) fn memory(root: &Path, library_dir: &Path) -> bool {
    let build = Build::new(root, "bench.jar");
    ensure_jna()
        && build.ensure_kotlinc()
        && build.compile(root)
        // A heap of fixed size, touched at start: what the RSS then gains is the library's.
        && run(&mut build.java_with(
            &["-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"],
            MEMORY_CLASS,
            library_dir,
        ))
}

/// The pinned compiler under `target/kotlin/` and the jar it compiles the bindings and the
/// tests into.
struct Build {
    compiler: PathBuf,
    jar: PathBuf,
}

impl Build {
    fn new(root: &Path, jar: &str) -> Build {
        let work = root.join("target/kotlin");
        Build {
            compiler: work.join(format!("kotlin-compiler-{KOTLIN_VERSION}")),
            jar: work.join(jar),
        }
    }

    /// `java` running `class` from the jar, with JNA loading the library from `library_dir`.
    fn java(&self, class: &str, library_dir: &Path) -> Command {
        self.java_with(&[], class, library_dir)
    }

    /// [`Build::java`] with flags for the JVM itself.
    fn java_with(&self, flags: &[&str], class: &str, library_dir: &Path) -> Command {
        let classpath = join_paths(&[
            self.jar.clone(),
            PathBuf::from(JNA_JAR),
            self.compiler.join("package/lib/kotlin-stdlib.jar"),
        ]);
        let mut java = Command::new("java");
        java.args(flags)
            .arg(format!("-Djna.library.path={}", library_dir.display()))
            .arg("-cp")
            .arg(classpath)
            .arg(class);
        java
    }

    /// Unpacks the npm package `kotlin-compiler` into its folder unless its `kotlinc` is there.
    fn ensure_kotlinc(&self) -> bool {
        let dir = &self.compiler;
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
            eprintln!(
                "xtask: `npm pack kotlin-compiler@{KOTLIN_VERSION}` failed; is npm installed?"
            );
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

    /// Compiles the committed bindings, the tests and the README's Kotlin example into the
    /// jar.
    fn compile(&self, root: &Path) -> bool {
        let readme = root.join("target/kotlin/readme");
        if let Err(e) = write_readme_example(root, &readme) {
            eprintln!("xtask: {e}");
            return false;
        }
        let sources = [
            root.join(SOURCES),
            root.join("bindings/ffi/tests/kotlin"),
            readme,
        ];
        run(Command::new(self.compiler.join("package/bin/kotlinc"))
            .args(&sources)
            .arg("-cp")
            .arg(JNA_JAR)
            // The generated code warns about its own idioms.
            .arg("-nowarn")
            .arg("-d")
            .arg(&self.jar))
    }
}

/// Writes the README's Kotlin example into `dir` as `ReadmeExample.kt`: its imports, then its
/// body as `fun readmeExample(paramsJson: String, contentJson: String)`, which the API tests
/// call, so the example compiles and runs against the bindings as a reader would copy it.
fn write_readme_example(root: &Path, dir: &Path) -> Result<(), String> {
    let readme = root.join("README.md");
    let text = fs::read_to_string(&readme)
        .map_err(|e| format!("cannot read {}: {e}", readme.display()))?;
    let block: Vec<&str> = text
        .lines()
        .skip_while(|line| !line.starts_with("```kotlin"))
        .skip(1)
        .take_while(|line| !line.starts_with("```"))
        .collect();
    if block.is_empty() {
        return Err(String::from(
            "README.md has no ```kotlin example to compile",
        ));
    }
    let (imports, body): (Vec<&str>, Vec<&str>) =
        block.iter().partition(|line| line.starts_with("import "));
    let mut source = String::from(
        "// ReadmeExample.kt: README.md's Kotlin example, written by cargo xtask as it stands there.\n",
    );
    for line in imports {
        source.push_str(line);
        source.push('\n');
    }
    source.push_str("\nfun readmeExample(paramsJson: String, contentJson: String) {\n");
    for line in body {
        source.push_str("    ");
        source.push_str(line);
        source.push('\n');
    }
    source.push_str("}\n");
    fs::create_dir_all(dir)
        .and_then(|()| fs::write(dir.join("ReadmeExample.kt"), source))
        .map_err(|e| {
            format!(
                "cannot write the README's example into {}: {e}",
                dir.display()
            )
        })
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

fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|path| path.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}
