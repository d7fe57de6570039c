//! What the `kotlin` and `swift` steps share: the `toolnexus-ffi` library and the sources
//! UniFFI generates from it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{cargo, run};

/// The debug build of the library, from which the bindings are generated and which the tests
/// load.
pub(crate) fn library(root: &Path) -> PathBuf {
    root.join("target/debug/libtoolnexus_ffi.so")
}

/// Builds the library and the pinned `uniffi-bindgen`.
pub(crate) fn build() -> bool {
    // Two builds: in one, `uniffi`'s `cli` feature would reach the library too.
    run(cargo().args(["build", "--quiet", "-p", "toolnexus-ffi"]))
        && run(cargo().args(["build", "--quiet", "-p", "toolnexus-uniffi-bindgen"]))
}

/// Generates the `language` (`kotlin`, `swift`) sources from the built library into a fresh
/// `out`.
pub(crate) fn generate(root: &Path, language: &str, out: &Path) -> bool {
    if out.exists() {
        if let Err(e) = fs::remove_dir_all(out) {
            eprintln!("xtask: cannot empty {}: {e}", out.display());
            return false;
        }
    }
    run(Command::new(root.join("target/debug/uniffi-bindgen"))
        .args(["generate", "--library"])
        .arg(library(root))
        .args(["--language", language, "--no-format", "--out-dir"])
        .arg(out)
        .current_dir(root))
}
