//! Tidy check: every operation a binding exposes is in `bindings/README.md`'s table, in the
//! column of each language, and every name the table gives is one the binding exposes. The
//! operations are found in the bindings' own files, not kept in a list: Python's from the
//! package's `__all__` and its stubs, Kotlin's and Swift's from the FFI crate's exports, each
//! confirmed in that language's generated source.

use std::collections::BTreeSet;
use std::fs;

use heck::ToLowerCamelCase as _;

use super::{read, root};

const HEADING: &str = "## Every operation, per language";
const LANGUAGES: [&str; 3] = ["Python", "Kotlin", "Swift"];

/// The quoted names of the first `__all__ = [...]` list in a Python module.
fn all_list(module: &str) -> Vec<String> {
    let start = module.find("__all__ = [").expect("an __all__ list");
    let list = &module[start..];
    let end = list.find(']').expect("its end");
    list[..end]
        .lines()
        .filter_map(|line| line.trim().strip_prefix('"'))
        .filter_map(|line| line.split('"').next())
        .map(String::from)
        .collect()
}

/// A name written like a function (`load_tools`), not a class or a constant.
fn is_function_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
}

/// The classes of a stub file that have behaviour: a method of their own or of a base class
/// in the stubs, not counting dunders, `@property`s and `to_dict` (a view of plain data).
fn classes_with_methods(stubs: &str) -> BTreeSet<String> {
    let mut bases: Vec<(String, Vec<String>)> = Vec::new();
    let mut with_methods = BTreeSet::new();
    let mut property = false;
    for line in stubs.lines() {
        if let Some(rest) = line.strip_prefix("class ") {
            let name = rest.split(['(', ':']).next().unwrap_or(rest).to_string();
            let listed = rest.split_once('(').map_or("", |(_, tail)| tail);
            let listed = listed.split(')').next().unwrap_or("");
            bases.push((
                name,
                listed.split(',').map(|b| b.trim().to_string()).collect(),
            ));
            property = false;
        } else if !line.starts_with(' ') && !line.trim().is_empty() {
            bases.push((String::new(), Vec::new()));
        } else if line.trim() == "@property" {
            property = true;
        } else if let Some(rest) = line.strip_prefix("    def ") {
            let method = rest.split('(').next().unwrap_or(rest);
            if let Some((class, _)) = bases.last()
                && !property
                && !method.starts_with("__")
                && method != "to_dict"
            {
                with_methods.insert(class.clone());
            }
            property = false;
        }
    }
    // A class inherits behaviour from its bases, which the stubs declare before it.
    for (class, listed) in &bases {
        if listed.iter().any(|base| with_methods.contains(base)) {
            with_methods.insert(class.clone());
        }
    }
    with_methods.remove("");
    with_methods
}

/// What the Python package exposes: the functions of `toolnexus`, its classes that have methods,
/// and the functions of its submodules, each as `module.function`.
fn python_operations(init: &str, stubs: &str, submodules: &[(&str, &str)]) -> BTreeSet<String> {
    let classes = classes_with_methods(stubs);
    let mut found: BTreeSet<String> = all_list(init)
        .into_iter()
        .filter(|name| is_function_name(name) || classes.contains(name))
        .collect();
    for (module, source) in submodules {
        found.extend(
            all_list(source)
                .into_iter()
                .filter(|name| is_function_name(name))
                .map(|name| format!("{module}.{name}")),
        );
    }
    found
}

/// The item declared on the first line after `at` that is not an attribute or a doc comment.
fn declared_after<'s>(lines: &[&'s str], at: usize) -> Option<&'s str> {
    lines
        .iter()
        .skip(at + 1)
        .map(|line| line.trim())
        .find(|line| !line.starts_with("#[") && !line.starts_with("///") && !line.is_empty())
}

/// What the FFI crate exports: its free functions (as Kotlin and Swift name them) and its
/// objects, from the Rust sources given.
fn ffi_operations(sources: &[String]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for source in sources {
        let lines: Vec<&str> = source.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            let line = line.trim();
            let Some(item) = declared_after(&lines, at) else {
                continue;
            };
            if line.starts_with("#[uniffi::export") {
                if let Some(rest) = item.strip_prefix("pub fn ") {
                    // UniFFI names a function in Kotlin and Swift with heck, as here.
                    let name = rest.split(['(', '<']).next().unwrap_or(rest);
                    found.insert(name.to_lower_camel_case());
                }
            } else if line.starts_with("#[derive(")
                && line.contains("uniffi::Object")
                && let Some(rest) = item.strip_prefix("pub struct ")
            {
                let name = rest.split([' ', '{', '(', ';']).next().unwrap_or(rest);
                found.insert(name.to_string());
            }
        }
    }
    found
}

/// The operations of `exported` that the generated source of one language declares.
fn generated(exported: &BTreeSet<String>, source: &str, function: &str) -> BTreeSet<String> {
    exported
        .iter()
        .filter(|name| {
            let wanted = if is_function_name(name) {
                function.replace("NAME", name)
            } else {
                format!("open class {name}:")
            };
            source.contains(&wanted)
        })
        .cloned()
        .collect()
}

/// The names each language's column of the table gives: its backquoted words, except in a cell
/// that says a gap (it begins with `—`), whose words explain it.
fn documented(readme: &str) -> [BTreeSet<String>; 3] {
    let start = readme
        .find(&format!("\n{HEADING}\n"))
        .unwrap_or_else(|| panic!("no heading {HEADING:?}"));
    let body = &readme[start + HEADING.len() + 2..];
    let body = &body[..body.find("\n## ").unwrap_or(body.len())];
    let mut columns: [BTreeSet<String>; 3] = Default::default();
    for row in body.lines().filter(|line| line.starts_with('|')).skip(2) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        for (column, cell) in columns.iter_mut().zip(cells.iter().skip(2)) {
            if cell.starts_with('—') {
                continue;
            }
            column.extend(cell.split('`').skip(1).step_by(2).map(String::from));
        }
    }
    columns
}

/// What every language exposes, found in the tree.
fn exposed() -> [BTreeSet<String>; 3] {
    let python = python_operations(
        &read("bindings/python/python/toolnexus/__init__.py"),
        &read("bindings/python/python/toolnexus/_native.pyi"),
        &[
            ("mcp", &read("bindings/python/python/toolnexus/mcp.py")),
            (
                "langgraph",
                &read("bindings/python/python/toolnexus/langgraph.py"),
            ),
        ],
    );
    let mut sources = Vec::new();
    for entry in fs::read_dir(root().join("bindings/ffi/src")).unwrap() {
        sources.push(fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    let ffi = ffi_operations(&sources);
    let kotlin = generated(
        &ffi,
        &read("bindings/ffi/kotlin/src/main/kotlin/dev/toolnexus/toolnexus_ffi.kt"),
        "fun `NAME`(",
    );
    let swift = generated(
        &ffi,
        &read("bindings/ffi/swift/Sources/Toolnexus/Toolnexus.swift"),
        "public func NAME(",
    );
    [python, kotlin, swift]
}

/// Per language, the operations the table leaves out and the names it gives that the binding
/// does not expose. A `Class.method` the table gives names the class.
fn disagreements(
    exposed: &[BTreeSet<String>; 3],
    documented: &[BTreeSet<String>; 3],
) -> Vec<String> {
    let mut out = Vec::new();
    for ((language, exposed), documented) in LANGUAGES.iter().zip(exposed).zip(documented) {
        let documented: BTreeSet<String> = documented
            .iter()
            .map(|name| match name.split_once('.') {
                Some((class, _)) if exposed.contains(class) => class.to_string(),
                _ => name.clone(),
            })
            .collect();
        let documented = &documented;
        for name in exposed.difference(documented) {
            out.push(format!(
                "{language}: `{name}` is exposed but not in the table"
            ));
        }
        for name in documented.difference(exposed) {
            out.push(format!(
                "{language}: `{name}` is in the table but not exposed"
            ));
        }
    }
    out
}

#[test]
fn every_operation_of_every_binding_is_in_the_table() {
    let exposed = exposed();
    for (language, names) in LANGUAGES.iter().zip(&exposed) {
        assert!(
            names.len() > 20,
            "{language}: only {} operations found",
            names.len()
        );
    }
    let problems = disagreements(&exposed, &documented(&read("bindings/README.md")));
    assert!(
        problems.is_empty(),
        "bindings/README.md, {HEADING:?}:\n{}",
        problems.join("\n")
    );
}

#[test]
fn an_operation_added_to_a_binding_alone_is_found() {
    let mut exposed = exposed();
    let documented = documented(&read("bindings/README.md"));
    exposed[1].insert("frobnicate".into());
    exposed[2].remove("checkSchema");
    assert_eq!(
        disagreements(&exposed, &documented),
        [
            "Kotlin: `frobnicate` is exposed but not in the table",
            "Swift: `checkSchema` is in the table but not exposed",
        ]
    );
}

#[test]
fn the_finders_read_each_kind_of_declaration() {
    let init = "__all__ = [\n    \"Answer\",\n    \"Form\",\n    \"Violation\",\n    \"check_schema\",\n]\n";
    let stubs = "class _PlainData:\n    def to_dict(self) -> dict: ...\n\
                 class _FromJson:\n    def from_json(self) -> None: ...\n\
                 class Violation(_PlainData):\n    @property\n    def path(self) -> str: ...\n\
                 class Answer(_FromJson):\n    @property\n    def id(self) -> str: ...\n\
                 class Form:\n    def __init__(self) -> None: ...\n    def validate(self) -> None: ...\n";
    let module = "__all__ = [\n    \"INTERRUPT_TYPE\",\n    \"load_tools\",\n]\n";
    assert_eq!(
        python_operations(init, stubs, &[("langgraph", module)]),
        BTreeSet::from(
            ["Answer", "Form", "check_schema", "langgraph.load_tools"].map(String::from)
        )
    );
    let rust = "#[uniffi::export]\n/// Docs.\npub fn review_url(url: String) {}\n\
                #[derive(Debug, uniffi::Object)]\npub struct Session {}\nfn private() {}\n";
    assert_eq!(
        ffi_operations(&[rust.to_string()]),
        BTreeSet::from(["Session", "reviewUrl"].map(String::from))
    );
}
