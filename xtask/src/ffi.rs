//! What the `kotlin` and `swift` steps share: the `toolnexus-ffi` library and the sources
//! UniFFI generates from it, which are committed and which `cargo xtask bindgen` keeps current.

use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{self, Command};

use super::{TESTED, cargo, run};

/// A language UniFFI generates bindings in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    /// Kotlin for the JVM and Android, through JNA.
    Kotlin,
    /// Swift, over a C header and its module map.
    Swift,
}

impl Language {
    /// Every language, in the order `cargo xtask bindgen` generates them.
    pub(crate) const ALL: [Language; 2] = [Language::Kotlin, Language::Swift];

    /// The name `uniffi-bindgen --language` takes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Language::Kotlin => "kotlin",
            Language::Swift => "swift",
        }
    }

    /// Each file UniFFI writes for this language (relative to its output folder) and where it
    /// is committed (relative to the workspace).
    fn files(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Language::Kotlin => &[(
                "dev/toolnexus/toolnexus_ffi.kt",
                "bindings/ffi/kotlin/src/main/kotlin/dev/toolnexus/toolnexus_ffi.kt",
            )],
            Language::Swift => &[
                (
                    "Toolnexus.swift",
                    "bindings/ffi/swift/Sources/Toolnexus/Toolnexus.swift",
                ),
                (
                    "ToolnexusFFI.h",
                    "bindings/ffi/swift/Sources/ToolnexusFFI/include/ToolnexusFFI.h",
                ),
                // The name clang looks for when it is given the folder.
                (
                    "ToolnexusFFI.modulemap",
                    "bindings/ffi/swift/Sources/ToolnexusFFI/include/module.modulemap",
                ),
            ],
        }
    }
}

/// The debug build of the library, from which the bindings are generated and which the tests
/// load.
pub(crate) fn library(root: &Path) -> PathBuf {
    library_in(&root.join("target/debug"))
}

/// The library as a build writes it into `dir`, under this platform's file name.
pub(crate) fn library_in(dir: &Path) -> PathBuf {
    dir.join(format!("{DLL_PREFIX}toolnexus_ffi{DLL_SUFFIX}"))
}

/// Builds the library and the pinned `uniffi-bindgen`.
pub(crate) fn build() -> bool {
    // Two builds: in one, `uniffi`'s `cli` feature would reach the library too. The bindgen is
    // built with the features the `test` step resolves (the workspace's, dev-dependencies
    // included), so that it reuses what that step built instead of building its own copies of
    // `uniffi_bindgen` and its dependencies.
    run(cargo().args(["build", "--quiet", "-p", "toolnexus-ffi"]))
        && run(cargo().args(["build", "--quiet"]).args(TESTED).args([
            "--tests",
            "--bin",
            "uniffi-bindgen",
        ]))
}

/// Generates the `language` (`kotlin`, `swift`) sources from the built library into a fresh
/// `out`. `--no-format` keeps the output independent of whichever formatters are installed.
pub(crate) fn generate(root: &Path, language: &str, out: &Path) -> bool {
    if out.exists()
        && let Err(e) = fs::remove_dir_all(out)
    {
        eprintln!("xtask: cannot empty {}: {e}", out.display());
        return false;
    }
    run(Command::new(root.join("target/debug/uniffi-bindgen"))
        .args(["generate", "--library"])
        .arg(library(root))
        .args(["--language", language, "--no-format", "--out-dir"])
        .arg(out)
        .current_dir(root))
}

/// `cargo xtask bindgen [--check]`: builds the library, then writes the committed bindings of
/// every language, or with `check` only compares them and names the stale ones.
pub(crate) fn bindgen(root: &Path, check: bool) -> bool {
    if !build() {
        return false;
    }
    let current = if check {
        is_current(root, &Language::ALL)
    } else {
        with_scratch(|scratch| {
            Language::ALL.iter().all(|&language| {
                generate_files(root, language, scratch).is_some_and(|generated| {
                    generated
                        .iter()
                        .all(|(text, committed)| write(root, committed, text))
                })
            })
        })
    };
    if current {
        println!("bindgen: the committed bindings are current");
    }
    current
}

/// Whether the committed bindings of `languages` are what the built library generates; names
/// each file that is stale or missing. The library must be built.
pub(crate) fn is_current(root: &Path, languages: &[Language]) -> bool {
    let stale = with_scratch(|scratch| {
        let mut stale = Vec::new();
        for &language in languages {
            for (text, committed) in generate_files(root, language, scratch)? {
                match fs::read(root.join(committed)) {
                    Ok(old) if old == text => {}
                    Ok(_) => stale.push(format!("{committed} (differs)")),
                    Err(_) => stale.push(format!("{committed} (missing)")),
                }
            }
        }
        Some(stale)
    });
    match stale {
        Some(stale) if stale.is_empty() => true,
        Some(stale) => {
            eprintln!("xtask: the committed bindings are stale; run `cargo xtask bindgen`:");
            for file in stale {
                eprintln!("  {file}");
            }
            false
        }
        None => false,
    }
}

/// Generates `language` into `scratch` and reads each file with its committed path; `None`
/// (after saying why) when generation fails or UniFFI writes other files than expected.
fn generate_files(
    root: &Path,
    language: Language,
    scratch: &Path,
) -> Option<Vec<(Vec<u8>, &'static str)>> {
    let out = scratch.join(language.name());
    if !generate(root, language.name(), &out) {
        return None;
    }
    let expected = language.files();
    let written = files_under(&out);
    let unexpected: Vec<_> = written
        .iter()
        .filter(|file| {
            !expected
                .iter()
                .any(|(name, _)| Path::new(name) == file.as_path())
        })
        .collect();
    if !unexpected.is_empty() {
        eprintln!(
            "xtask: uniffi-bindgen wrote {unexpected:?} for {}, which xtask/src/ffi.rs does not place",
            language.name()
        );
        return None;
    }
    expected
        .iter()
        .map(|(name, committed)| match fs::read(out.join(name)) {
            Ok(text) => Some((text, *committed)),
            Err(e) => {
                eprintln!(
                    "xtask: uniffi-bindgen wrote no {name} for {}: {e}",
                    language.name()
                );
                None
            }
        })
        .collect()
}

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                files.push(relative.to_path_buf());
            }
        }
    }
    files
}

/// Writes `text` to the committed file unless it holds it already, saying when it does.
fn write(root: &Path, committed: &str, text: &[u8]) -> bool {
    let path = root.join(committed);
    if fs::read(&path).is_ok_and(|old| old == text) {
        return true;
    }
    let written = path
        .parent()
        .map_or(Ok(()), fs::create_dir_all)
        .and_then(|()| fs::write(&path, text));
    match written {
        Ok(()) => {
            println!("bindgen: wrote {committed}");
            true
        }
        Err(e) => {
            eprintln!("xtask: cannot write {}: {e}", path.display());
            false
        }
    }
}

/// Runs `work` with a folder of its own in the system's temporary folder, removed afterwards,
/// so that steps running at once in one workspace do not generate over each other.
fn with_scratch<T>(work: impl FnOnce(&Path) -> T) -> T {
    let scratch = std::env::temp_dir().join(format!("toolnexus-bindgen-{}", process::id()));
    let result = work(&scratch);
    // A leftover folder in the temporary folder harms nothing.
    let _ = fs::remove_dir_all(&scratch);
    result
}

/// What `cargo xtask bench ffi` aims the stripped library of the `mobile` profile under: 1 MB
/// read as 1,000,000 bytes.
pub(crate) const SIZE_TARGET: u64 = 1_000_000;

/// The library's sections with their sizes in bytes, largest first, as `size -A` lists them;
/// `None` (after saying why) when it cannot run.
pub(crate) fn sections(library: &Path) -> Option<Vec<(String, u64)>> {
    let text = output(Command::new("size").arg("-A").arg(library))?;
    let mut sections: Vec<(String, u64)> = text
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next()?;
            let size = words.next()?.parse().ok()?;
            name.starts_with('.').then(|| (name.to_string(), size))
        })
        .collect();
    sections.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Some(sections)
}

/// The bytes the symbols of each crate take in `library`, which must keep its symbols, largest
/// first, as `nm -S -C` lists them (each address counted once). A generic function counts for
/// the crate that defines it, wherever it was instantiated; symbols that are no Rust path (the
/// C functions and statics UniFFI exports) count under `(exported by name)`. Data without a
/// symbol of its own (string literals, Unicode tables) is in no crate's figure.
pub(crate) fn crate_sizes(library: &Path) -> Option<Vec<(String, u64)>> {
    let text = output(Command::new("nm").args(["-S", "-C"]).arg(library))?;
    let mut seen = std::collections::BTreeSet::new();
    let mut crates = std::collections::BTreeMap::<String, u64>::new();
    for line in text.lines() {
        let mut words = line.splitn(4, ' ');
        let (Some(address), Some(size), Some(_kind), Some(name)) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            continue;
        };
        let Ok(size) = u64::from_str_radix(size, 16) else {
            continue;
        };
        if !seen.insert(address.to_string()) {
            continue;
        }
        *crates.entry(crate_of(name)).or_default() += size;
    }
    let mut crates: Vec<(String, u64)> = crates.into_iter().collect();
    crates.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Some(crates)
}

/// The crate a demangled symbol belongs to: the first segment of its path, the type's in
/// `<Type as Trait>::f`.
fn crate_of(name: &str) -> String {
    let path = name
        .trim_start_matches(['<', '&', '*'])
        .trim_start_matches("mut ")
        .trim_start_matches("dyn ");
    if !path.contains("::") {
        return String::from("(exported by name)");
    }
    let first = path
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default();
    match first {
        "" => String::from("(other)"),
        // Methods of primitive types (`<str>::…`, `<[T]>::…`) are the standard library's.
        "str" | "char" | "u8" | "u16" | "u32" | "u64" | "usize" | "i32" | "i64" | "isize"
        | "f32" | "f64" | "bool" => String::from("core"),
        // `<T as Trait>::f`: a blanket implementation, of whichever crate declares it.
        "T" => String::from("(blanket impls)"),
        crate_name => crate_name.to_string(),
    }
}

/// The standard output of `command`, or `None` after saying why it did not run.
fn output(command: &mut Command) -> Option<String> {
    match command.output() {
        Ok(out) if out.status.success() => Some(String::from_utf8_lossy(&out.stdout).into_owned()),
        Ok(out) => {
            eprintln!(
                "xtask: {:?} failed: {}",
                command.get_program(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
            None
        }
        Err(e) => {
            eprintln!("xtask: cannot run {:?}: {e}", command.get_program());
            None
        }
    }
}

/// `n` with its thousands grouped by commas: `1,487,968`.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
