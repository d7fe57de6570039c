//! Architecture invariants, checked on the source: the core's layers import only downwards,
//! and every Rust file of the workspace opens with a `//!` line saying what it is.

use std::fs;
use std::path::{Path, PathBuf};

/// The core's layers, bottom up; a module may use its own layer and those before it.
const LAYERS: &[&[&str]] = &[
    &["error", "id", "rfc3339"],
    &["json"],
    &["contract"],
    &["schema"],
    &["content"],
    &["form"],
    &["mcp", "url_review"],
    &["session"],
    &["wire"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "target" | ".git" | "node_modules" | ".venv") {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The first path segment after `crate::` of every use of the crate in code (not comments).
fn crate_modules(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `crate::Error` and the like are the crate root's re-exports of leaf types.
            if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                found.push(name);
            }
        }
    }
    found
}

#[test]
fn the_core_imports_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "the core's sources were not found");
    let mut upward = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs"))
            .expect("a path");
        if top == "lib" {
            continue;
        }
        let own = layer_of(top).unwrap_or_else(|| panic!("{top} is in no layer: add it to LAYERS"));
        let source = fs::read_to_string(file).expect("readable");
        for module in crate_modules(&source) {
            let Some(theirs) = layer_of(&module) else {
                continue;
            };
            if theirs > own {
                upward.push(format!("{} uses crate::{module}", relative.display()));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports from a higher layer:\n{}",
        upward.join("\n")
    );
}

#[test]
fn every_rust_file_says_what_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["crates", "bindings", "conformance", "xtask", "probe"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "the workspace's sources were not found");
    let silent: Vec<_> = files
        .iter()
        .filter(|f| {
            let text = fs::read_to_string(f).unwrap_or_default();
            !text.trim_start().starts_with("//!")
        })
        .map(|f| f.strip_prefix(&root).unwrap_or(f).display().to_string())
        .collect();
    assert!(
        silent.is_empty(),
        "files without a `//!` first line:\n{}",
        silent.join("\n")
    );
}
