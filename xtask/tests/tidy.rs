//! Tidy checks: the map stays true by itself. Each check finds what it checks in the tree (the
//! workspace's members, the top-level folders, the commands of `cargo xtask`, the steps of
//! `cargo xtask test`, the benchmarks of `cargo xtask bench`, the operations of the bindings)
//! rather than keeping a list, and fails when one of them is not named where the docs say it
//! is. Each check is a function over texts, and a test shows it failing
//! on a text that leaves one out.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

#[path = "tidy/binding_operations.rs"]
mod binding_operations;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap()
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines of `text` from the heading `heading` up to the next heading of the same level.
fn section<'t>(text: &'t str, heading: &str) -> &'t str {
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no heading {heading:?}"));
    let body = &text[start + heading.len() + 2..];
    let level = heading.split(' ').next().unwrap_or("##");
    let end = body.find(&format!("\n{level} ")).unwrap_or(body.len());
    &body[..end]
}

/// The first fenced block of `text`.
fn first_block(text: &str) -> &str {
    let start = text.find("```").expect("a fenced block") + 3;
    let end = text[start..].find("```").expect("its end") + start;
    &text[start..end]
}

/// The paths of the workspace's members, as `Cargo.toml` lists them.
fn members(manifest: &str) -> Vec<String> {
    let start = manifest.find("members = [").expect("a members list");
    let list = &manifest[start..];
    let end = list.find(']').expect("its end");
    list[..end]
        .split('"')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// The variants of the enum `name` in the Rust source `source`, as clap names them on the
/// command line (lower case), whether they hold fields or not.
fn variants(source: &str, name: &str) -> Vec<String> {
    let start = source
        .find(&format!("enum {name} {{"))
        .unwrap_or_else(|| panic!("no enum {name}"));
    let body = &source[start..];
    let end = body.find("\n}").expect("its end");
    body[..end]
        .lines()
        .skip(1)
        .filter(|line| line.starts_with("    ") && !line.starts_with("     "))
        .map(str::trim)
        .filter(|line| line.starts_with(|c: char| c.is_ascii_uppercase()))
        .filter_map(|line| line.split([' ', ',', '{', '(']).next())
        .map(str::to_lowercase)
        .collect()
}

/// The commands of `commands` that neither of `docs` shows run (`cargo xtask NAME`).
fn unshown_commands(docs: &[&str], commands: &[String]) -> Vec<String> {
    commands
        .iter()
        .filter(|name| {
            let run = format!("cargo xtask {name}");
            !docs.iter().any(|doc| {
                doc.match_indices(&run).any(|(at, _)| {
                    let after = doc[at + run.len()..].chars().next();
                    !after.is_some_and(|c| c.is_alphanumeric() || c == '-')
                })
            })
        })
        .cloned()
        .collect()
}

/// The paths of `paths` that `doc` does not name in backquotes: `` `path` ``, `` `path/` ``,
/// or a longer path beginning with `path/` (a folder named by what it holds). A member is
/// named by its own path: a row for its parent folder does not name it.
fn unnamed_paths(doc: &str, paths: &[String]) -> Vec<String> {
    paths
        .iter()
        .filter(|path| {
            !(doc.contains(&format!("`{path}`"))
                || doc.contains(&format!("`{path}/`"))
                || doc.contains(&format!("`{path}/")))
        })
        .cloned()
        .collect()
}

/// The paths of `paths` that the drawing `drawing` does not show (a path, then a space, a `/`
/// or the end of a line).
fn undrawn_paths(drawing: &str, paths: &[String]) -> Vec<String> {
    paths
        .iter()
        .filter(|path| {
            !drawing.lines().any(|line| {
                line.match_indices(path.as_str()).any(|(at, _)| {
                    let after = line[at + path.len()..].chars().next();
                    matches!(after, None | Some(' ' | '/' | ')'))
                })
            })
        })
        .cloned()
        .collect()
}

/// The names of `names` that `doc` does not name in backquotes.
fn unnamed(doc: &str, names: &[String]) -> Vec<String> {
    names
        .iter()
        .filter(|name| !doc.contains(&format!("`{name}`")))
        .cloned()
        .collect()
}

/// The top-level folders of the checkout that git keeps (not hidden, not `target`).
fn top_folders() -> Vec<String> {
    let mut folders: Vec<String> = fs::read_dir(root())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| !name.starts_with('.') && name != "target")
        .collect();
    folders.sort();
    folders
}

#[test]
fn every_member_and_top_folder_is_in_the_readme_s_layout() {
    let readme = read("README.md");
    let layout = section(&readme, "## Layout");
    let mut paths = members(&read("Cargo.toml"));
    paths.extend(top_folders());
    let missing = unnamed_paths(layout, &paths);
    assert!(
        missing.is_empty(),
        "README's Layout does not name {missing:?}: add a row for each"
    );
}

#[test]
fn every_member_and_top_folder_is_in_architecture_s_drawing() {
    let architecture = read("ARCHITECTURE.md");
    let drawing = first_block(section(&architecture, "## The shape of it"));
    let mut paths = members(&read("Cargo.toml"));
    paths.extend(top_folders());
    let missing = undrawn_paths(drawing, &paths);
    assert!(
        missing.is_empty(),
        "ARCHITECTURE's drawing (\"The shape of it\") does not show {missing:?}"
    );
}

#[test]
fn every_command_is_shown_in_contributing_or_the_readme() {
    let commands = variants(&read("xtask/src/main.rs"), "Command");
    assert!(commands.len() >= 6, "found the commands {commands:?}");
    let (contributing, readme) = (read("CONTRIBUTING.md"), read("README.md"));
    let missing = unshown_commands(&[&contributing, &readme], &commands);
    assert!(
        missing.is_empty(),
        "neither CONTRIBUTING nor README shows `cargo xtask` {missing:?} run"
    );
}

#[test]
fn every_step_is_in_the_readme_s_list_in_its_order() {
    let steps = variants(&read("xtask/src/main.rs"), "Step");
    assert!(steps.len() > 10, "found the steps {steps:?}");
    let readme = read("README.md");
    let listed = listed_steps(&readme);
    assert_eq!(
        listed, steps,
        "README's \"Steps of cargo xtask test, in order\" must name every step of \
         xtask/src/main.rs's Step, in its order"
    );
}

/// The steps README's line `The steps of \`cargo xtask test\`, in order: …` names.
fn listed_steps(readme: &str) -> Vec<String> {
    let marker = "The steps of `cargo xtask test`, in order:";
    let start = readme.find(marker).expect("README lists the steps") + marker.len();
    let rest = &readme[start..];
    let end = rest.find('.').unwrap_or(rest.len());
    rest[..end]
        .split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

#[test]
fn every_benchmark_is_named_where_contributing_says() {
    let targets = variants(&read("xtask/src/bench.rs"), "Target");
    assert!(targets.len() >= 5, "found the benchmarks {targets:?}");
    let contributing = read("CONTRIBUTING.md");
    let line = contributing
        .lines()
        .find(|l| l.contains("# one of them:"))
        .expect("CONTRIBUTING names the benchmarks");
    let named: Vec<String> = line
        .split("one of them:")
        .nth(1)
        .unwrap_or_default()
        .split(',')
        .map(|w| String::from(w.trim()))
        .collect();
    let missing: Vec<&String> = targets.iter().filter(|t| !named.contains(t)).collect();
    assert!(
        missing.is_empty(),
        "CONTRIBUTING's `cargo xtask bench` line does not name {missing:?}"
    );
    // And the README's list of what `cargo xtask bench` measures names each in parentheses.
    let readme = read("README.md");
    let missing: Vec<&String> = targets
        .iter()
        .filter(|t| !readme.contains(&format!("({t})")))
        .collect();
    assert!(
        missing.is_empty(),
        "README's `cargo xtask bench` comment does not name {missing:?}"
    );
}

#[test]
fn every_path_a_recipe_names_exists() {
    let contributing = read("CONTRIBUTING.md");
    let missing: Vec<String> = backquoted(&contributing)
        .into_iter()
        .filter(|text| looks_like_a_path(text))
        .filter(|path| !root().join(path).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "CONTRIBUTING names paths that are not in the tree: {missing:?}"
    );
}

/// Every backquoted span of `text`.
fn backquoted(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// Whether `text` names a file or folder of the tree: a relative path with a folder and an
/// ending, no spaces, no pattern.
fn looks_like_a_path(text: &str) -> bool {
    let known = [
        "crates/",
        "bindings/",
        "conformance/",
        "xtask/",
        "probe/",
        "examples/",
    ];
    known.iter().any(|k| text.starts_with(k))
        && !text.contains([' ', '<', '>', '*', '{', '(', '$'])
        && !text.contains("NAME")
}

// The checks themselves, each shown failing on a text that leaves something out.

#[test]
fn a_member_left_out_of_the_layout_is_named() {
    let layout = "| `crates/a` | a |\n| `bindings/` | the bindings |\n";
    let paths = [
        String::from("crates/a"),
        String::from("bindings/python"),
        String::from("crates/new"),
    ];
    assert_eq!(
        unnamed_paths(layout, &paths),
        ["bindings/python", "crates/new"]
    );
}

#[test]
fn a_member_left_out_of_the_drawing_is_named() {
    let drawing = "  crates/a   the core\n  xtask/   builds\n  crates/ab-c (text)\n";
    let paths = [
        String::from("crates/a"),
        String::from("xtask"),
        String::from("crates/ab"),
    ];
    assert_eq!(undrawn_paths(drawing, &paths), ["crates/ab"]);
}

#[test]
fn a_step_or_a_benchmark_added_to_the_code_alone_is_found() {
    let source =
        "enum Step {\n    /// one\n    Fmt,\n    #[value(skip)]\n    Nostd,\n    New,\n}\n";
    let steps = variants(source, "Step");
    assert_eq!(steps, ["fmt", "nostd", "new"]);
    let readme = "The steps of `cargo xtask test`, in order: `fmt`, `nostd`.";
    assert_ne!(listed_steps(readme), steps);
    assert_eq!(unnamed("`fmt` and `nostd`", &steps), ["new"]);
}

#[test]
fn a_command_added_to_the_code_alone_is_found() {
    let source = "enum Command {\n    /// Run\n    Test {\n        /// Steps\n        \
                  #[arg(long)]\n        steps: Vec<Step>,\n    },\n    Demo,\n    Cases {\n        \
                  check: bool,\n    },\n}\n";
    let commands = variants(source, "Command");
    assert_eq!(commands, ["test", "demo", "cases"]);
    let docs = [
        "cargo xtask test fmt",
        "cargo xtask demo-all, `cargo xtask cases`",
    ];
    assert_eq!(unshown_commands(&docs, &commands), ["demo"]);
}

#[test]
fn a_recipe_naming_a_file_that_moved_is_found() {
    let text = "edit `crates/toolnexus-core/src/error.rs`, then `xtask/src/gone.rs`";
    let missing: Vec<String> = backquoted(text)
        .into_iter()
        .filter(|t| looks_like_a_path(t))
        .filter(|p| !root().join(p).exists())
        .collect();
    assert_eq!(missing, ["xtask/src/gone.rs"]);
}
