//! Architecture invariants, checked on the source read as Rust (with `syn`, not line by line):
//! the core's layers import only downwards, nothing below `lib.rs` reaches a type through the
//! crate root's re-exports, no modules of a crate use each other in a circle (the core's and
//! the Python binding's), and every Rust file of the workspace opens with a `//!` line.
//!
//! Every path a file names counts: `use` trees with their groups, renames and globs, and paths
//! written in code (`crate::json::parse(…)`), resolved from `crate::`, `super::`, `self::` or a
//! child module's name to the module they name.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// The core's layers, bottom up; a module may use its own layer and those before it.
const LAYERS: &[&[&str]] = &[
    &["error", "id", "rfc3339", "seal", "terminal"],
    &["json"],
    &["contract"],
    &["schema"],
    &["content"],
    &["form"],
    &["mcp", "url_review"],
    &["html", "session"],
    &["wire"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// A module path from the crate root: `["schema", "read", "property"]`; `[]` is the root.
type ModulePath = Vec<String>;

/// One source file: its module and its text.
struct Source {
    module: ModulePath,
    shown: String,
    text: String,
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

/// The sources of the crate whose `lib.rs` is in `src`, each with its module path.
fn crate_sources(src: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    files
        .iter()
        .map(|file| {
            let relative = file.strip_prefix(src).unwrap();
            let mut module: ModulePath = relative
                .components()
                .map(|c| {
                    c.as_os_str()
                        .to_string_lossy()
                        .trim_end_matches(".rs")
                        .to_owned()
                })
                .collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            Source {
                module,
                shown: relative.display().to_string(),
                text: fs::read_to_string(file).unwrap(),
            }
        })
        .collect()
}

/// Every path a file names, as segments (`crate`, `super`, `self` kept), from `use` trees and
/// from code.
#[derive(Default)]
struct Paths(Vec<Vec<String>>);

impl Paths {
    fn tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Name(name) => self.push(prefix, &name.ident.to_string()),
            syn::UseTree::Rename(rename) => self.push(prefix, &rename.ident.to_string()),
            syn::UseTree::Glob(_) => self.0.push(prefix.clone()),
            syn::UseTree::Group(group) => {
                for item in &group.items {
                    self.tree(prefix, item);
                }
            }
        }
    }

    fn push(&mut self, prefix: &[String], last: &str) {
        let mut path = prefix.to_vec();
        // `use super::{self, x}` names the module itself.
        if last != "self" {
            path.push(last.to_owned());
        }
        self.0.push(path);
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if matches!(
            segments.first().map(String::as_str),
            Some("crate" | "super" | "self")
        ) {
            self.0.push(segments);
        }
        syn::visit::visit_path(self, path);
    }
}

/// What one file uses of its crate: the modules it names, and the root re-exports it reaches
/// through (`crate::Error`).
struct Uses {
    modules: BTreeSet<ModulePath>,
    root_items: BTreeSet<String>,
}

/// Resolves the paths `source` names against the crate's `modules`.
fn uses(source: &Source, modules: &BTreeSet<ModulePath>) -> Uses {
    let file = syn::parse_file(&source.text)
        .unwrap_or_else(|e| panic!("{} is not Rust that syn reads: {e}", source.shown));
    let mut paths = Paths::default();
    paths.visit_file(&file);
    let mut found = Uses {
        modules: BTreeSet::new(),
        root_items: BTreeSet::new(),
    };
    for path in paths.0 {
        let mut at: ModulePath = source.module.clone();
        let mut rest = path.as_slice();
        match rest.first().map(String::as_str) {
            Some("crate") => {
                at.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    at.pop();
                    rest = &rest[1..];
                }
            }
            // A child module named by itself (`use problems::Problems;` in its parent).
            Some(first) => {
                let mut child = at.clone();
                child.push(first.to_owned());
                if !modules.contains(&child) {
                    continue;
                }
            }
            None => continue,
        }
        let from_root = at.is_empty();
        // The longest prefix of the rest that is a module of the crate.
        let mut named = at.clone();
        for segment in rest {
            let mut next = named.clone();
            next.push(segment.clone());
            if !modules.contains(&next) {
                break;
            }
            named = next;
        }
        if from_root && named.is_empty() {
            if let Some(item) = rest.first() {
                found.root_items.insert(item.clone());
            }
            continue;
        }
        found.modules.insert(named);
    }
    found
}

/// Whether `a` is `b` or contains it.
fn contains(a: &[String], b: &[String]) -> bool {
    b.starts_with(a)
}

/// Every circle of modules using each other, leaving out a module's use of its own ancestors
/// or descendants (a folder's `mod.rs` and its files belong together); each as its members.
fn circles(edges: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<Vec<ModulePath>> {
    // Tarjan's strongly connected components, iteratively small: the graphs are tiny.
    let nodes: Vec<&ModulePath> = edges.keys().collect();
    let index_of = |m: &ModulePath| nodes.iter().position(|n| *n == m);
    let n = nodes.len();
    let next: Vec<Vec<usize>> = nodes
        .iter()
        .map(|m| {
            edges[*m]
                .iter()
                .filter(|t| !contains(m, t) && !contains(t, m))
                .filter_map(index_of)
                .collect()
        })
        .collect();
    // Reachability by repeated search; components are pairs reachable both ways.
    let reach: Vec<BTreeSet<usize>> = (0..n)
        .map(|start| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![start];
            while let Some(at) = stack.pop() {
                for &to in &next[at] {
                    if seen.insert(to) {
                        stack.push(to);
                    }
                }
            }
            seen
        })
        .collect();
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for a in 0..n {
        if done.contains(&a) || !reach[a].contains(&a) {
            continue;
        }
        let members: Vec<usize> = (0..n)
            .filter(|b| reach[a].contains(b) && reach[*b].contains(&a))
            .collect();
        done.extend(members.iter().copied());
        found.push(members.iter().map(|i| nodes[*i].clone()).collect());
    }
    found
}

fn shown(module: &[String]) -> String {
    if module.is_empty() {
        String::from("crate")
    } else {
        module.join("::")
    }
}

/// Everything wrong with a crate's sources: with `layered`, uses of a higher layer of the
/// core and of the root's re-exports below `lib.rs`; for every crate, circles.
fn check(sources: &[Source], layered: bool) -> Vec<String> {
    let modules: BTreeSet<ModulePath> = sources.iter().map(|s| s.module.clone()).collect();
    let mut wrong = Vec::new();
    let mut edges: BTreeMap<ModulePath, BTreeSet<ModulePath>> = BTreeMap::new();
    for source in sources {
        let used = uses(source, &modules);
        if !source.module.is_empty() {
            for item in &used.root_items {
                wrong.push(format!(
                    "{} uses crate::{item}, a re-export of the crate root: name the module it \
                     lives in",
                    source.shown
                ));
            }
        }
        if layered && let Some(top) = source.module.first() {
            let own =
                layer_of(top).unwrap_or_else(|| panic!("{top} is in no layer: add it to LAYERS"));
            for module in &used.modules {
                let Some(theirs) = module.first().and_then(|m| layer_of(m)) else {
                    continue;
                };
                if theirs > own {
                    wrong.push(format!(
                        "{} uses crate::{}, a higher layer",
                        source.shown,
                        shown(module)
                    ));
                }
            }
        }
        edges
            .entry(source.module.clone())
            .or_default()
            .extend(used.modules.into_iter().filter(|m| *m != source.module));
    }
    for circle in circles(&edges) {
        let names: Vec<String> = circle.iter().map(|m| shown(m)).collect();
        wrong.push(format!(
            "modules that use each other in a circle: {}",
            names.join(" ↔ ")
        ));
    }
    wrong
}

fn crate_dir(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_core_imports_only_downwards_and_in_no_circle() {
    let sources = crate_sources(&crate_dir("src"));
    assert!(sources.len() > 20, "the core's sources were not found");
    let wrong = check(&sources, true);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_python_binding_s_modules_use_each_other_in_no_circle() {
    let sources = crate_sources(&crate_dir("../../bindings/python/src"));
    assert!(
        sources.len() > 10,
        "the Python binding's sources were not found"
    );
    let wrong = check(&sources, false);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A made-up crate: `(file under src, text)` pairs.
fn fake(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(file, text)| {
            let mut module: ModulePath = file
                .trim_end_matches(".rs")
                .split('/')
                .map(String::from)
                .collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            Source {
                module,
                shown: (*file).to_owned(),
                text: (*text).to_owned(),
            }
        })
        .collect()
}

#[test]
fn each_kind_of_violation_is_caught() {
    let base = [
        (
            "lib.rs",
            "//! root\npub mod json;\npub mod wire;\npub use wire::Thing;",
        ),
        ("wire/mod.rs", "//! wire\npub struct Thing;"),
        ("wire/a.rs", "//! a"),
        ("error.rs", "//! error\npub struct E;"),
    ];
    let mut clean = base.to_vec();
    clean.push((
        "json/mod.rs",
        "//! json\nuse crate::json::x;\nfn f() -> u8 { 1 }",
    ));
    assert_eq!(check(&fake(&clean), true), Vec::<String>::new());

    // An upward import, hidden in a group.
    let mut upward = base.to_vec();
    upward.push((
        "json/mod.rs",
        "//! json\nuse crate::{error::E, wire::a::B};",
    ));
    let wrong = check(&fake(&upward), true);
    assert_eq!(wrong, ["json/mod.rs uses crate::wire::a, a higher layer"]);

    // An upward path written in code, not in a `use`.
    let mut in_code = base.to_vec();
    in_code.push(("json/mod.rs", "//! json\nfn f() { crate::wire::go(); }"));
    assert_eq!(
        check(&fake(&in_code), true),
        ["json/mod.rs uses crate::wire, a higher layer"]
    );

    // A type reached through the root's re-exports.
    let mut root = base.to_vec();
    root.push(("json/mod.rs", "//! json\nuse crate::Thing;"));
    let wrong = check(&fake(&root), true);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(wrong[0].starts_with("json/mod.rs uses crate::Thing, a re-export"));

    // Two files of one folder using each other.
    let circle = [
        ("lib.rs", "//! root\nmod s;"),
        ("s/mod.rs", "//! s\nmod p;\nmod d;"),
        ("s/p.rs", "//! p\nuse super::d::check;"),
        ("s/d.rs", "//! d\nuse super::p::Shape;"),
    ];
    assert_eq!(
        check(&fake(&circle), false),
        ["modules that use each other in a circle: s::d ↔ s::p"]
    );
    // A parent and its child belong together: no circle.
    let family = [
        ("lib.rs", "//! root\nmod s;"),
        ("s/mod.rs", "//! s\nmod p;\nuse p::f;\npub struct T;"),
        ("s/p.rs", "//! p\nuse super::T;"),
    ];
    assert_eq!(check(&fake(&family), false), Vec::<String>::new());
}

/// Which group a `use` of `first` belongs to, in the order a file lists them: the standard
/// library, other crates, then this crate (`crate`, `super`, `self`, a child module).
fn import_group(first: &str, module: &[String], modules: &BTreeSet<ModulePath>) -> u8 {
    let mut child = module.to_vec();
    child.push(first.to_owned());
    match first {
        "std" | "core" | "alloc" => 0,
        "crate" | "super" | "self" => 2,
        // A child module, or an item in scope (`use Kind::*` of an enum imported above).
        _ if modules.contains(&child) || first.starts_with(char::is_uppercase) => 2,
        _ => 1,
    }
}

/// The files of `sources` whose top-level `use` items are not grouped in that order.
fn unordered_imports(sources: &[Source]) -> Vec<String> {
    let modules: BTreeSet<ModulePath> = sources.iter().map(|s| s.module.clone()).collect();
    let mut wrong = Vec::new();
    for source in sources {
        let file = syn::parse_file(&source.text)
            .unwrap_or_else(|e| panic!("{} is not Rust that syn reads: {e}", source.shown));
        let groups: Vec<u8> = file
            .items
            .iter()
            // Re-exports (`pub use`, `pub(crate) use`) are a section of their own.
            .filter_map(|item| match item {
                syn::Item::Use(item) if matches!(item.vis, syn::Visibility::Inherited) => {
                    Some(&item.tree)
                }
                _ => None,
            })
            .filter_map(|tree| match tree {
                syn::UseTree::Path(path) => Some(path.ident.to_string()),
                syn::UseTree::Name(name) => Some(name.ident.to_string()),
                _ => None,
            })
            .map(|first| import_group(&first, &source.module, &modules))
            .collect();
        if groups.windows(2).any(|pair| pair[0] > pair[1]) {
            wrong.push(format!(
                "{}: imports out of order; list the standard library, then other crates, then \
                 this crate",
                source.shown
            ));
        }
    }
    wrong
}

#[test]
fn imports_come_in_one_order() {
    let mut wrong = Vec::new();
    for src in [
        "src",
        "tests",
        "examples",
        "benches",
        "../toolnexus-cli/src",
        "../toolnexus-cli/tests",
        "../../bindings/python/src",
        "../../bindings/ffi/src",
        "../../conformance/src",
        "../../conformance/tests",
        "../../xtask/src",
    ] {
        let dir = crate_dir(src);
        if dir.is_dir() {
            wrong.extend(
                unordered_imports(&crate_sources(&dir))
                    .into_iter()
                    .map(|w| format!("{src}/{w}")),
            );
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let out_of_order = fake(&[("lib.rs", "//! root\nmod a;\nuse a::X;\nuse std::fmt;")]);
    assert_eq!(unordered_imports(&out_of_order).len(), 1);
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
