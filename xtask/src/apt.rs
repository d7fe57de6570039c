//! Debian packages the binding steps install on a fresh machine, which needs root.

use std::process::Command;

use super::run;

/// Whether this process runs as root.
pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// `apt-get update` then `apt-get install -y PACKAGES`; `false` with a message saying what to
/// run when this is not root or apt-get fails.
pub(crate) fn install(packages: &[&str]) -> bool {
    if !is_root() {
        eprintln!(
            "xtask: as root run `apt-get install -y {}`",
            packages.join(" ")
        );
        return false;
    }
    println!("xtask: installing {} with apt-get", packages.join(" "));
    let apt = |args: &[&str]| {
        run(Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive"))
    };
    let installed = apt(&["update", "-q"]) && apt(&[&["install", "-y", "-q"], packages].concat());
    if !installed {
        eprintln!("xtask: apt-get could not install {}", packages.join(" "));
    }
    installed
}
