//! The `swift` step: builds the committed Swift package (`bindings/ffi/swift`) with SwiftPM
//! against the library built here, and runs the Swift tests (`bindings/ffi/tests/swift/
//! ToolnexusTests`, a package that depends on it as an app does): the conformance suite, then
//! the API tests, then the official MCP conformance suite's authorization scenarios with its
//! `auth-client` (URLSession, FoundationNetworking) as their client, run in the chroot against
//! the suite's servers outside it (one network, 127.0.0.1).
//!
//! Swift 6 comes from Debian trixie's `swiftlang`, installed in a minimal trixie chroot that the
//! step makes once with debootstrap and keeps under `target/swift/chroot` (about a minute and
//! 3 GB; root needed). Each run first checks that the committed bindings are what the library
//! generates, then mirrors both packages, the library and the suite into the chroot (unchanged
//! files keep their times, so SwiftPM rebuilds only what changed), builds there and runs.
//! Anything that cannot run fails the step with a message saying what to do.
//!
//! `cargo xtask bench ffi` uses the same chroot for the `bench` executable: built for release
//! against the library apps ship, it times calls over the core's benchmark payloads.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::ffi::{self, Language};
use super::{apt, auth_suite, python, run, run_parts};

/// The Debian release whose `swiftlang` the step uses.
const SUITE: &str = "trixie";
/// What the chroot needs to compile and link Swift.
const PACKAGES: &[&str] = &["swiftlang", "libc6-dev", "libstdc++-14-dev"];
/// Where the step works inside the chroot.
const STAGE: &str = "work-toolnexus";
/// The Swift package of the bindings.
const PACKAGE: &str = "bindings/ffi/swift";
/// The package of the Swift tests, which depends on [`PACKAGE`] by its relative path.
const TESTS: &str = "bindings/ffi/tests/swift/ToolnexusTests";
/// SwiftPM's build folder, under the stage.
const SCRATCH: &str = "build";
/// The test executables, in the order they run, with their arguments inside the stage.
const RUNS: [(&str, &str); 2] = [("conformance", "suite"), ("api", "")];
/// Where the stage holds the debug library the tests link, and the library apps ship.
const DEBUG_LIB: &str = "lib";
const MOBILE_LIB: &str = "lib-mobile";
/// The core's benchmark payloads, and where the stage holds them.
const PAYLOADS: &str = "crates/toolnexus-core/benches/payloads";
const STAGED_PAYLOADS: &str = "payloads";

/// Runs the whole step; `false` if any part fails.
pub(crate) fn swift(root: &Path) -> bool {
    let chroot = root.join("target/swift/chroot");
    let stage = chroot.join(STAGE);
    let log = root.join("target/swift/build.log");
    let servers = root.join("target/test-servers");
    let parts: [(&str, &dyn Fn() -> bool); 8] = [
        ("chroot", &|| ensure_chroot(&chroot)),
        ("cdylib", &ffi::build),
        ("bindings", &|| ffi::is_current(root, &[Language::Swift])),
        ("stage", &|| {
            stage_files(root, &stage, &ffi::library(root), DEBUG_LIB)
        }),
        ("build", &|| {
            with_proc(&chroot, || build(&chroot, &log, DEBUG_LIB, &[]))
        }),
        ("run", &|| with_proc(&chroot, || run_tests(&chroot))),
        ("test servers", &|| {
            python::install_test_servers(root, &servers)
        }),
        ("auth suite", &|| {
            with_proc(&chroot, || {
                let client = staged(&chroot, DEBUG_LIB, "debug", "auth-client");
                let output = root.join("target/swift/auth-suite");
                auth_suite::run("swift", &servers, &output, &client)
            })
        }),
    ];
    run_parts("swift", &parts)
}

/// Builds the test package and runs its `memory` executable: every entry point 100,000
/// times, the resident set size reported; `false` if it grew or cannot run.
pub(crate) fn memory(root: &Path) -> bool {
    let chroot = root.join("target/swift/chroot");
    let stage = chroot.join(STAGE);
    let log = root.join("target/swift/build.log");
    ensure_chroot(&chroot)
        && ffi::build()
        && stage_files(root, &stage, &ffi::library(root), DEBUG_LIB)
        && with_proc(&chroot, || build(&chroot, &log, DEBUG_LIB, &[]))
        && with_proc(&chroot, || {
            run(&mut staged(&chroot, DEBUG_LIB, "debug", "memory"))
        })
}

/// Builds the test package's `bench` executable for release against `library` (the library
/// apps ship) and runs it over the core's benchmark payloads; `false` if it cannot run.
pub(crate) fn bench(root: &Path, library: &Path) -> bool {
    let chroot = root.join("target/swift/chroot");
    let stage = chroot.join(STAGE);
    let log = root.join("target/swift/build.log");
    let release = ["-c", "release", "--product", "bench"];
    ensure_chroot(&chroot)
        && stage_files(root, &stage, library, MOBILE_LIB)
        && stage_payloads(root, &stage)
        && with_proc(&chroot, || build(&chroot, &log, MOBILE_LIB, &release))
        && with_proc(&chroot, || {
            run(staged(&chroot, MOBILE_LIB, "release", "bench")
                .arg(format!("/{STAGE}/{STAGED_PAYLOADS}")))
        })
}

/// Mirrors the core's benchmark payloads into `stage`.
fn stage_payloads(root: &Path, stage: &Path) -> bool {
    match mirror(&root.join(PAYLOADS), &stage.join(STAGED_PAYLOADS)) {
        Ok(_) => true,
        Err(e) => {
            eprintln!(
                "xtask: cannot stage the payloads in {}: {e}",
                stage.display()
            );
            false
        }
    }
}

/// Makes the chroot with swiftc unless a finished one is there (its stamp names the packages).
fn ensure_chroot(chroot: &Path) -> bool {
    let stamp = chroot.join("toolnexus-packages.txt");
    let wanted = PACKAGES.join("\n");
    if fs::read_to_string(&stamp).is_ok_and(|installed| installed == wanted) {
        return true;
    }
    if !apt::is_root() {
        eprintln!("xtask: making the Swift chroot needs root (debootstrap, chroot)");
        return false;
    }
    if which("debootstrap").is_none() && !apt::install(&["debootstrap"]) {
        return false;
    }
    if chroot.exists()
        && let Err(e) = fs::remove_dir_all(chroot)
    {
        eprintln!(
            "xtask: cannot remove the unfinished {}: {e}",
            chroot.display()
        );
        return false;
    }
    let Some(mirror) = debian_mirror() else {
        eprintln!(
            "xtask: apt's sources on this machine name no Debian mirror (a URI ending in \
             /debian in /etc/apt/sources.list or /etc/apt/sources.list.d/): the Swift chroot \
             has nowhere to come from"
        );
        return false;
    };
    // Thousands of lines nobody reads unless something fails: they go to a log.
    let log = chroot.with_file_name("chroot.log");
    if let Some(parent) = log.parent()
        && let Err(e) = fs::create_dir_all(parent)
    {
        eprintln!("xtask: cannot make {}: {e}", parent.display());
        return false;
    }
    println!(
        "swift: making a {SUITE} chroot from {mirror} (log: {})",
        log.display()
    );
    let made = run_logged(
        Command::new("debootstrap")
            .args(["--variant=minbase", SUITE])
            .arg(chroot)
            .arg(&mirror),
        &log,
    );
    if !made {
        eprintln!(
            "xtask: debootstrap {SUITE} from {mirror} failed; see {}",
            log.display()
        );
        return false;
    }
    let installed = run_logged(
        Command::new("chroot")
            .arg(chroot)
            .args(["apt-get", "install", "-y", "-q", "--no-install-recommends"])
            .args(PACKAGES)
            .env("DEBIAN_FRONTEND", "noninteractive"),
        &log,
    );
    if !installed {
        eprintln!(
            "xtask: apt-get in the chroot could not install {}; see {}",
            PACKAGES.join(" "),
            log.display()
        );
        return false;
    }
    match fs::write(&stamp, wanted) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("xtask: cannot write {}: {e}", stamp.display());
            false
        }
    }
}

/// Runs `command` with its output appended to `log`.
fn run_logged(command: &mut Command, log: &Path) -> bool {
    let opened = fs::File::options()
        .create(true)
        .append(true)
        .open(log)
        .and_then(|out| Ok((out.try_clone()?, out)));
    match opened {
        Ok((out, err)) => run(command.stdout(out).stderr(err)),
        Err(e) => {
            eprintln!("xtask: cannot write {}: {e}", log.display());
            false
        }
    }
}

/// The Debian mirror apt on this machine already uses: the first URI ending in `/debian` in
/// its sources (`sources.list`, then `sources.list.d/`, in name order); `None` when there is
/// none.
fn debian_mirror() -> Option<String> {
    let mut sources = vec![PathBuf::from("/etc/apt/sources.list")];
    if let Ok(entries) = fs::read_dir("/etc/apt/sources.list.d") {
        let mut listed: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "sources" || x == "list"))
            .collect();
        listed.sort();
        sources.extend(listed);
    }
    sources
        .iter()
        .filter_map(|path| fs::read_to_string(path).ok())
        .flat_map(|text| {
            text.lines()
                .filter(|line| !line.trim_start().starts_with('#'))
                .flat_map(str::split_whitespace)
                .filter(|word| {
                    word.starts_with("http") && word.trim_end_matches('/').ends_with("/debian")
                })
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .next()
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|path| path.is_file())
    })
}

/// Mirrors the two packages, `library` (into the stage's folder `lib_dir`) and the suite into
/// `stage`. SwiftPM may miss a source file added or removed since its last build, so then its
/// build folder starts afresh.
fn stage_files(root: &Path, stage: &Path, library: &Path, lib_dir: &str) -> bool {
    let copy = || -> std::io::Result<()> {
        let mut reshaped = false;
        // Each to the same path under the stage, so the relative path between them holds.
        for package in [PACKAGE, TESTS] {
            reshaped |= mirror(&root.join(package), &stage.join(package))?;
        }
        let scratch = stage.join(SCRATCH);
        if reshaped && scratch.exists() {
            fs::remove_dir_all(scratch)?;
        }
        let staged = stage.join(lib_dir);
        fs::create_dir_all(&staged)?;
        copy_if_changed(library, &staged.join("libtoolnexus_ffi.so"))?;
        mirror(&root.join("conformance/v1"), &stage.join("suite")).map(drop)
    };
    match copy() {
        Ok(()) => true,
        Err(e) => {
            eprintln!(
                "xtask: cannot stage the Swift build in {}: {e}",
                stage.display()
            );
            false
        }
    }
}

/// Makes `to` hold exactly what `from` holds, writing only the files that differ; `true` when
/// a file was added or removed. SwiftPM's own folders (`.build`, `.swiftpm`) are neither
/// copied nor removed.
fn mirror(from: &Path, to: &Path) -> std::io::Result<bool> {
    let skipped = |name: &std::ffi::OsStr| name == ".build" || name == ".swiftpm";
    fs::create_dir_all(to)?;
    let mut reshaped = false;
    let mut names = Vec::new();
    for entry in fs::read_dir(from)? {
        let path = entry?.path();
        let Some(name) = path.file_name().map(ToOwned::to_owned) else {
            continue;
        };
        if skipped(&name) {
            continue;
        }
        let target = to.join(&name);
        if path.is_dir() {
            reshaped |= mirror(&path, &target)?;
        } else {
            reshaped |= !target.exists();
            copy_if_changed(&path, &target)?;
        }
        names.push(name);
    }
    for entry in fs::read_dir(to)? {
        let path = entry?.path();
        let Some(name) = path.file_name() else {
            continue;
        };
        if skipped(name) || names.iter().any(|kept| kept == name) {
            continue;
        }
        reshaped = true;
        if path.is_dir() {
            fs::remove_dir_all(&path)?;
        } else {
            fs::remove_file(&path)?;
        }
    }
    Ok(reshaped)
}

fn copy_if_changed(from: &Path, to: &Path) -> std::io::Result<()> {
    let text = fs::read(from)?;
    if fs::read(to).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::write(to, text)
}

/// Runs `body` with `/proc` mounted in the chroot, unmounting after: the Swift tools need it,
/// and so do Swift programs, which read their arguments from it.
fn with_proc(chroot: &Path, body: impl Fn() -> bool) -> bool {
    let proc = chroot.join("proc");
    let mounted = fs::read_to_string("/proc/mounts").is_ok_and(|mounts| {
        mounts
            .lines()
            .any(|line| line.split(' ').nth(1) == proc.to_str())
    });
    if !mounted
        && !run(Command::new("mount")
            .args(["-t", "proc", "proc"])
            .arg(&proc))
    {
        eprintln!("xtask: cannot mount /proc in {}", chroot.display());
        return false;
    }
    let ok = body();
    let unmounted = run(Command::new("umount").arg(&proc));
    if !unmounted {
        eprintln!("xtask: could not unmount {}", proc.display());
    }
    ok && unmounted
}

/// `swift build` of the tests package, and with it the Toolnexus package, inside the chroot,
/// linking the library staged in `lib_dir`, with `extra` arguments (a configuration, a
/// product). The compiler's output goes to `log`; on failure its end is shown.
fn build(chroot: &Path, log: &Path, lib_dir: &str, extra: &[&str]) -> bool {
    if let Err(e) = fs::write(log, "") {
        eprintln!("xtask: cannot write {}: {e}", log.display());
        return false;
    }
    let built = run_logged(
        Command::new("chroot")
            .arg(chroot)
            .args([
                "swift",
                "build",
                "--package-path",
                &format!("/{STAGE}/{TESTS}"),
                "--scratch-path",
                &format!("/{STAGE}/{SCRATCH}"),
                "-Xlinker",
                &format!("-L/{STAGE}/{lib_dir}"),
            ])
            .args(extra),
        log,
    );
    if !built {
        let text = fs::read_to_string(log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for line in lines.iter().skip(lines.len().saturating_sub(40)) {
            eprintln!("{line}");
        }
        eprintln!(
            "xtask: swift build failed; the whole output is in {}",
            log.display()
        );
    }
    built
}

/// The command that runs the tests package's executable `name`, built in `configuration`
/// (`debug`, `release`), inside the chroot against the library staged in `lib_dir`.
fn staged(chroot: &Path, lib_dir: &str, configuration: &str, name: &str) -> Command {
    let mut command = Command::new("chroot");
    command
        .arg(chroot)
        .arg("env")
        .arg(format!("LD_LIBRARY_PATH=/{STAGE}/{lib_dir}"))
        .arg(format!("/{STAGE}/{SCRATCH}/{configuration}/{name}"));
    command
}

/// Runs each test executable inside the chroot with the staged library; all run, and any
/// failure (or one that cannot start) fails the step.
fn run_tests(chroot: &Path) -> bool {
    let mut ok = true;
    for (name, argument) in RUNS {
        let mut command = staged(chroot, DEBUG_LIB, "debug", name);
        if !argument.is_empty() {
            command.arg(format!("/{STAGE}/{argument}"));
        }
        if !run(&mut command) {
            eprintln!("xtask: the Swift {name} tests failed");
            ok = false;
        }
    }
    ok
}
