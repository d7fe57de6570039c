//! Architecture invariants, checked on the source read as Rust (with `syn`, not line by line)
//! in every member of the workspace, found in its `Cargo.toml` (no list of folders here):
//! a crate whose root (`lib.rs`) groups its `mod` declarations under `// N. …` layer comments
//! imports only downwards through those layers (the core, the authorization crate); nothing
//! below a crate's root reaches a type through the root's re-exports; no modules of a crate use
//! each other in a circle; every file lists its imports in one order; and every Rust file of
//! the workspace opens with a `//!` line.
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

/// A crate's layers, bottom up, as its root file declares them; a module may use its own
/// layer and those before it.
type Layers = Vec<Vec<String>>;

fn layer_of(layers: &Layers, module: &str) -> Option<usize> {
    layers
        .iter()
        .position(|layer| layer.iter().any(|m| m == module))
}

/// The `mod` a line of a crate root declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn declared_mod(line: &str) -> Option<&str> {
    let mut rest = line.trim();
    if let Some(after) = rest.strip_prefix("pub(") {
        rest = after.split_once(')')?.1.trim_start();
    } else if let Some(after) = rest.strip_prefix("pub ") {
        rest = after.trim_start();
    }
    let name = rest.strip_prefix("mod ")?.trim().strip_suffix(';')?.trim();
    name.chars()
        .all(|c| c == '_' || c.is_ascii_alphanumeric())
        .then_some(name)
}

/// The layers the crate root `root` declares: each `// N. …` comment (0, 1, 2… in order)
/// opens layer N, and the `mod` declarations after it, up to the next, are its modules. `None`
/// for a root without such comments; an error for a module declared before the first of them,
/// a layer out of order, or a declaration the scan did not read as `syn` does.
fn declared_layers(root: &str) -> Result<Option<Layers>, String> {
    let mut layers: Layers = Vec::new();
    let mut before = Vec::new();
    for line in root.lines() {
        let comment = line.trim_start().strip_prefix("//");
        if let Some(text) = comment.filter(|c| !c.starts_with(['/', '!'])) {
            let text = text.trim_start();
            let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && text[digits..].starts_with('.') {
                let n: usize = text[..digits].parse().unwrap();
                if n != layers.len() {
                    return Err(format!(
                        "layer comment `// {n}.` comes where layer {} belongs",
                        layers.len()
                    ));
                }
                layers.push(Vec::new());
            }
        } else if let Some(name) = declared_mod(line) {
            match layers.last_mut() {
                Some(layer) => layer.push(name.to_owned()),
                None => before.push(name.to_owned()),
            }
        }
    }
    let file = syn::parse_file(root).map_err(|e| format!("not Rust that syn reads: {e}"))?;
    let mut declared: Vec<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if m.content.is_none() => Some(m.ident.to_string()),
            _ => None,
        })
        .collect();
    let mut scanned: Vec<String> = layers.iter().flatten().chain(&before).cloned().collect();
    declared.sort();
    scanned.sort();
    if declared != scanned {
        return Err(format!(
            "declares the modules {declared:?}, and the layer scan read {scanned:?}: write one \
             `mod` a line"
        ));
    }
    if layers.is_empty() {
        return Ok(None);
    }
    if !before.is_empty() {
        return Err(format!(
            "declares {} before its first layer comment (`// 0. …`): put each module in a layer",
            before.join(", ")
        ));
    }
    Ok(Some(layers))
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
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
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

/// The names a crate's root defines rather than re-exports: its own items, and the macros its
/// modules export (`#[macro_export]` puts a macro at the root, the only path that names it).
fn root_defined(sources: &[Source]) -> BTreeSet<String> {
    let mut defined = BTreeSet::new();
    for source in sources {
        let Ok(file) = syn::parse_file(&source.text) else {
            continue;
        };
        for item in &file.items {
            let exported =
                |attrs: &[syn::Attribute]| attrs.iter().any(|a| a.path().is_ident("macro_export"));
            let name = match item {
                syn::Item::Macro(m) if exported(&m.attrs) => m.ident.as_ref(),
                _ if !source.module.is_empty() => None,
                syn::Item::Const(i) => Some(&i.ident),
                syn::Item::Enum(i) => Some(&i.ident),
                syn::Item::Fn(i) => Some(&i.sig.ident),
                syn::Item::Static(i) => Some(&i.ident),
                syn::Item::Struct(i) => Some(&i.ident),
                syn::Item::Trait(i) => Some(&i.ident),
                syn::Item::Type(i) => Some(&i.ident),
                syn::Item::Union(i) => Some(&i.ident),
                _ => None,
            };
            defined.extend(name.map(ToString::to_string));
        }
    }
    defined
}

/// Everything wrong with a crate's sources: with `layers`, modules in no layer and uses of a
/// higher layer; uses of the root's re-exports below the root; circles.
fn check(sources: &[Source], layers: Option<&Layers>) -> Vec<String> {
    let modules: BTreeSet<ModulePath> = sources.iter().map(|s| s.module.clone()).collect();
    let defined = root_defined(sources);
    let mut wrong = Vec::new();
    let mut unlayered = BTreeSet::new();
    let mut edges: BTreeMap<ModulePath, BTreeSet<ModulePath>> = BTreeMap::new();
    for source in sources {
        let used = uses(source, &modules);
        if !source.module.is_empty() {
            for item in used.root_items.difference(&defined) {
                wrong.push(format!(
                    "{} uses crate::{item}, a re-export of the crate root: name the module it \
                     lives in",
                    source.shown
                ));
            }
        }
        if let Some(layers) = layers
            && let Some(top) = source.module.first()
        {
            match layer_of(layers, top) {
                None if unlayered.insert(top.clone()) => wrong.push(format!(
                    "{} is in no layer: declare `mod {top};` under a layer comment of the crate \
                     root",
                    source.shown
                )),
                None => {}
                Some(own) => {
                    for module in &used.modules {
                        let theirs = module.first().and_then(|m| layer_of(layers, m));
                        if theirs.is_some_and(|theirs| theirs > own) {
                            wrong.push(format!(
                                "{} uses crate::{}, a higher layer",
                                source.shown,
                                shown(module)
                            ));
                        }
                    }
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

fn workspace_root() -> PathBuf {
    crate_dir("../..")
}

/// The members a workspace manifest lists (`members` of its `[workspace]` table), in order.
fn workspace_members(manifest: &str) -> Vec<String> {
    let Some((_, table)) = manifest.split_once("[workspace]") else {
        return Vec::new();
    };
    // The table ends where the next one begins.
    let table = table.split("\n[").next().unwrap_or_default();
    let Some(at) = table
        .lines()
        .position(|line| line.trim_start().starts_with("members"))
    else {
        return Vec::new();
    };
    let from: String = table
        .lines()
        .skip(at)
        // A comment may hold anything, quotes and brackets among it.
        .map(|line| line.split('#').next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let list = from
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .unwrap_or_default();
    list.split(',')
        .map(str::trim)
        .filter_map(|item| item.strip_prefix('"')?.strip_suffix('"'))
        .map(|member| {
            assert!(
                !member.contains(['*', '?']),
                "{member}: the architecture test reads members one by one, not as a pattern"
            );
            member.to_owned()
        })
        .collect()
}

/// Walks every member of the workspace at `root`, as its `Cargo.toml` lists them: the crate
/// of its `src` (the library when it has one, the binary beside it using it by name; else the
/// binary) is checked for layers (when its root declares them), re-exports and circles, and
/// every file of its `src`, `tests`, `examples` and `benches` for the order of its imports.
/// The members found, and everything wrong, each line naming the member.
fn walk(root: &Path) -> (Vec<String>, Vec<String>) {
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = workspace_members(&manifest);
    let mut wrong = Vec::new();
    for member in &members {
        let dir = root.join(member);
        assert!(
            dir.join("Cargo.toml").is_file(),
            "{member} is listed as a member and has no Cargo.toml"
        );
        let src = dir.join("src");
        if let Some(root_file) = ["lib.rs", "main.rs"]
            .into_iter()
            .find(|file| src.join(file).is_file())
        {
            let sources: Vec<Source> = crate_sources(&src)
                .into_iter()
                .filter(|s| {
                    root_file == "main.rs" || !(s.shown == "main.rs" || s.shown.starts_with("bin/"))
                })
                .collect();
            let text = fs::read_to_string(src.join(root_file)).unwrap();
            match declared_layers(&text) {
                Err(e) => wrong.push(format!("{member}/src/{root_file} {e}")),
                Ok(layers) => wrong.extend(
                    check(&sources, layers.as_ref())
                        .into_iter()
                        .map(|w| format!("{member}/src: {w}")),
                ),
            }
        }
        for part in ["src", "tests", "examples", "benches"] {
            let files = dir.join(part);
            if files.is_dir() {
                wrong.extend(
                    unordered_imports(&crate_sources(&files))
                        .into_iter()
                        .map(|w| format!("{member}/{part}/{w}")),
                );
            }
        }
    }
    (members, wrong)
}

#[test]
fn every_member_imports_downwards_in_no_circle_and_in_order() {
    let root = workspace_root();
    let (members, wrong) = walk(&root);
    for member in [
        "crates/toolnexus-core",
        "crates/toolnexus-auth",
        "crates/toolnexus-cli",
        "bindings/python",
    ] {
        assert!(
            members.iter().any(|m| m == member),
            "{member} was not found: {members:?}"
        );
    }
    // The crates with layers declare them, and are held to them.
    for (member, at_least) in [("crates/toolnexus-core", 9), ("crates/toolnexus-auth", 5)] {
        let text = fs::read_to_string(root.join(member).join("src/lib.rs")).unwrap();
        let layers = declared_layers(&text).unwrap().unwrap_or_default();
        assert!(
            layers.len() >= at_least,
            "{member}'s lib.rs declares {} layers",
            layers.len()
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_walk_finds_a_new_member() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("architecture-walk-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    let write = |path: &str, text: &str| {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write("crates/old/Cargo.toml", "[package]\nname = \"old\"\n");
    write("crates/old/src/lib.rs", "//! old\n// 0. Leaves\nmod a;\n");
    write("crates/old/src/a.rs", "//! a\n");
    write("crates/new/Cargo.toml", "[package]\nname = \"new\"\n");
    write(
        "crates/new/src/lib.rs",
        "//! new\n// 0. Leaves\nmod low;\n\n// 1. Above them\npub mod high;\n",
    );
    write(
        "crates/new/src/low.rs",
        "//! low\nuse crate::high::Thing;\n",
    );
    write("crates/new/src/high.rs", "//! high\npub struct Thing;\n");
    write("Cargo.toml", "[workspace]\nmembers = [\"crates/old\"]\n");
    let (members, wrong) = walk(&root);
    assert_eq!((members, wrong), (vec![String::from("crates/old")], vec![]));

    // One more line in the manifest, and the new member is read with the others.
    write(
        "Cargo.toml",
        "[workspace]\nresolver = \"3\"\nmembers = [\n    \"crates/old\",\n    \"crates/new\", # [\"x\"]\n]\n\
         default-members = [\"crates/old\"]\n\n[workspace.package]\nversion = \"0.1.0\"\n",
    );
    let (members, wrong) = walk(&root);
    assert_eq!(members, ["crates/old", "crates/new"]);
    assert_eq!(
        wrong,
        ["crates/new/src: low.rs uses crate::high, a higher layer"]
    );
    fs::remove_dir_all(&root).unwrap();
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

/// What `check` finds in a made-up crate, with the layers its `lib.rs` declares.
fn check_fake(files: &[(&str, &str)]) -> Vec<String> {
    let root = files
        .iter()
        .find(|(file, _)| *file == "lib.rs")
        .map(|(_, text)| *text)
        .unwrap_or_default();
    let layers = declared_layers(root).unwrap();
    check(&fake(files), layers.as_ref())
}

#[test]
fn each_kind_of_violation_is_caught() {
    let base = [
        (
            "lib.rs",
            "//! root\n// 0. Leaves\npub mod error;\n\n// 1. JSON\npub mod json;\n\n\
             // 2. The wire, above it\n#[doc(hidden)]\npub(crate) mod wire;\npub use wire::Thing;",
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
    assert_eq!(check_fake(&clean), Vec::<String>::new());
    assert_eq!(
        declared_layers(clean[0].1).unwrap(),
        Some(vec![
            vec![String::from("error")],
            vec![String::from("json")],
            vec![String::from("wire")]
        ])
    );

    // An upward import, hidden in a group.
    let mut upward = base.to_vec();
    upward.push((
        "json/mod.rs",
        "//! json\nuse crate::{error::E, wire::a::B};",
    ));
    let wrong = check_fake(&upward);
    assert_eq!(wrong, ["json/mod.rs uses crate::wire::a, a higher layer"]);

    // An upward path written in code, not in a `use`.
    let mut in_code = base.to_vec();
    in_code.push(("json/mod.rs", "//! json\nfn f() { crate::wire::go(); }"));
    assert_eq!(
        check_fake(&in_code),
        ["json/mod.rs uses crate::wire, a higher layer"]
    );

    // A type reached through the root's re-exports.
    let mut root = base.to_vec();
    root.push(("json/mod.rs", "//! json\nuse crate::Thing;"));
    let wrong = check_fake(&root);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(wrong[0].starts_with("json/mod.rs uses crate::Thing, a re-export"));

    // An item the root defines, and a macro a module exports, are named from the root.
    let mut own = base.to_vec();
    own[0].1 = "//! root\n// 0. Leaves\npub mod error;\n// 1. JSON\npub mod json;\n\
                // 2. The wire\npub mod wire;\npub fn run() {}";
    own.push((
        "json/mod.rs",
        "//! json\n#[macro_export]\nmacro_rules! note { () => {} }\nfn f() { crate::run(); }",
    ));
    own[3].1 = "//! error\npub struct E;\nfn g() { crate::note!(); }";
    assert_eq!(check_fake(&own), Vec::<String>::new());

    // A module of a layered crate in no layer.
    let mut stray = base.to_vec();
    stray.push(("json/mod.rs", "//! json"));
    stray.push(("extra.rs", "//! extra"));
    assert_eq!(
        check_fake(&stray),
        ["extra.rs is in no layer: declare `mod extra;` under a layer comment of the crate root"]
    );
    // A root that declares a module before its first layer, or its layers out of order.
    let before = "//! root\nmod early;\n// 0. Leaves\nmod error;";
    assert!(
        declared_layers(before)
            .unwrap_err()
            .contains("declares early before")
    );
    let skipped = "//! root\n// 0. Leaves\nmod error;\n// 2. JSON\nmod json;";
    assert!(declared_layers(skipped).unwrap_err().contains("`// 2.`"));

    // Two files of one folder using each other.
    let circle = [
        ("lib.rs", "//! root\nmod s;"),
        ("s/mod.rs", "//! s\nmod p;\nmod d;"),
        ("s/p.rs", "//! p\nuse super::d::check;"),
        ("s/d.rs", "//! d\nuse super::p::Shape;"),
    ];
    assert_eq!(
        check_fake(&circle),
        ["modules that use each other in a circle: s::d ↔ s::p"]
    );
    // A parent and its child belong together: no circle.
    let family = [
        ("lib.rs", "//! root\nmod s;"),
        ("s/mod.rs", "//! s\nmod p;\nuse p::f;\npub struct T;"),
        ("s/p.rs", "//! p\nuse super::T;"),
    ];
    assert_eq!(check_fake(&family), Vec::<String>::new());
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
fn imports_out_of_order_are_caught() {
    let out_of_order = fake(&[("lib.rs", "//! root\nmod a;\nuse a::X;\nuse std::fmt;")]);
    assert_eq!(unordered_imports(&out_of_order).len(), 1);
    let in_order = fake(&[("lib.rs", "//! root\nmod a;\nuse std::fmt;\nuse a::X;")]);
    assert_eq!(unordered_imports(&in_order), Vec::<String>::new());
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
