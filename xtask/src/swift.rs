//! The `swift` step: generates the Swift bindings of `toolnexus-ffi` and runs the conformance
//! suite through them, compiled with swiftc 6.
//!
//! Swift comes from Debian trixie's `swiftlang`, installed in a minimal trixie chroot that the
//! step makes once with debootstrap and keeps under `target/swift/chroot` (about a minute and
//! 3 GB; root needed). Each run copies the generated sources, the runner in
//! `bindings/ffi/tests/swift/`, the host-built library and the suite into the chroot, compiles
//! there and runs. Anything that cannot run fails the step with a message saying what to do.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::{apt, ffi, run};

/// The Debian release whose `swiftlang` the step uses.
const SUITE: &str = "trixie";
/// What the chroot needs to compile and link Swift.
const PACKAGES: &[&str] = &["swiftlang", "libc6-dev", "libstdc++-14-dev"];
/// Where the step works inside the chroot.
const STAGE: &str = "work-toolnexus";

/// Runs the whole step; `false` if any part fails.
pub(crate) fn swift(root: &Path) -> bool {
    let chroot = root.join("target/swift/chroot");
    let generated = root.join("target/swift/generated");
    let stage = chroot.join(STAGE);
    let parts: [(&str, &dyn Fn() -> bool); 5] = [
        ("chroot", &|| ensure_chroot(&chroot)),
        ("cdylib", &ffi::build),
        ("bindgen", &|| ffi::generate(root, "swift", &generated)),
        ("stage", &|| stage_files(root, &generated, &stage)),
        ("run", &|| with_proc(&chroot, || compile_and_run(&chroot))),
    ];
    for (name, part) in parts {
        let started = Instant::now();
        let ok = part();
        println!(
            "swift: {name:<8} {:<6} {:>5.1}s",
            if ok { "ok" } else { "FAILED" },
            started.elapsed().as_secs_f32()
        );
        if !ok {
            return false;
        }
    }
    true
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
    if chroot.exists() {
        if let Err(e) = fs::remove_dir_all(chroot) {
            eprintln!(
                "xtask: cannot remove the unfinished {}: {e}",
                chroot.display()
            );
            return false;
        }
    }
    let mirror = debian_mirror();
    // Thousands of lines nobody reads unless something fails: they go to a log.
    let log = chroot.with_file_name("chroot.log");
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

/// The Debian mirror apt on this machine already uses, or the public one.
fn debian_mirror() -> String {
    let sources = [
        "/etc/apt/sources.list.d/debian.sources",
        "/etc/apt/sources.list",
    ];
    sources
        .iter()
        .filter_map(|path| fs::read_to_string(path).ok())
        .flat_map(|text| {
            text.split_whitespace()
                .filter(|word| {
                    word.starts_with("http") && word.trim_end_matches('/').ends_with("/debian")
                })
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .next()
        .unwrap_or_else(|| String::from("http://deb.debian.org/debian"))
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|path| path.is_file())
    })
}

/// Copies what the compile needs into a fresh `stage` inside the chroot.
fn stage_files(root: &Path, generated: &Path, stage: &Path) -> bool {
    let copy = || -> std::io::Result<()> {
        if stage.exists() {
            fs::remove_dir_all(stage)?;
        }
        fs::create_dir_all(stage.join("src"))?;
        fs::create_dir_all(stage.join("lib"))?;
        for entry in fs::read_dir(generated)? {
            let path = entry?.path();
            if let Some(name) = path.file_name() {
                fs::copy(&path, stage.join("src").join(name))?;
            }
        }
        fs::copy(
            root.join("bindings/ffi/tests/swift/main.swift"),
            stage.join("src/main.swift"),
        )?;
        fs::copy(ffi::library(root), stage.join("lib/libtoolnexus_ffi.so"))?;
        copy_dir(&root.join("conformance/v1"), &stage.join("suite"))
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

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let path = entry?.path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_dir(&path, &target)?;
        } else {
            fs::copy(&path, &target)?;
        }
    }
    Ok(())
}

/// Runs `body` with `/proc` mounted in the chroot (swiftc needs it), unmounting after.
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

/// Compiles the generated bindings with the runner inside the chroot and runs the suite.
fn compile_and_run(chroot: &Path) -> bool {
    let script = format!(
        "set -e; cd /{STAGE}; \
         swiftc -suppress-warnings -module-name Conformance \
           -Xcc -fmodule-map-file=/{STAGE}/src/ToolnexusFFI.modulemap -I src \
           -L lib -ltoolnexus_ffi src/Toolnexus.swift src/main.swift -o swift-conformance; \
         LD_LIBRARY_PATH=lib ./swift-conformance suite"
    );
    run(Command::new("chroot")
        .arg(chroot)
        .args(["sh", "-c", &script]))
}
