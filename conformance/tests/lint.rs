//! Tidy checks on the case files: the schema, the layout `cargo xtask cases` writes, unique ids
//! and descriptions, explained flags, and coverage of every operation and every error kind;
//! and the table of error kinds in `conformance/README.md`, held to `ErrorKind::ALL`.

// A failed check is meant to stop the test: its helpers, not only its `#[test]`s, may panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use toolnexus_auth::AuthErrorKind;
use toolnexus_conformance::{LoadedFile, Op, format, load_suite, suite_dir};
use toolnexus_core::{ErrorKind, json as tn_json};

fn suite() -> Vec<LoadedFile> {
    match load_suite(&suite_dir()) {
        Ok(files) => files,
        Err(e) => panic!("cannot load the suite: {e}"),
    }
}

/// `value`, read by the core, as the validator takes it. A number a double cannot hold (an
/// `input` may give `1e400`, which the schema leaves free) becomes the string of its spelling.
fn to_serde(value: &tn_json::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match value {
        tn_json::Value::Null => J::Null,
        tn_json::Value::Bool(b) => J::Bool(*b),
        tn_json::Value::Number(n) => {
            serde_json::from_str(n.as_str()).unwrap_or_else(|_| J::String(n.as_str().into()))
        }
        tn_json::Value::String(s) => J::String(s.as_str().into()),
        tn_json::Value::Array(items) => J::Array(items.iter().map(to_serde).collect()),
        tn_json::Value::Object(map) => J::Object(
            map.iter()
                .map(|(k, v)| (k.to_owned(), to_serde(v)))
                .collect(),
        ),
    }
}

#[test]
fn every_file_follows_the_case_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root.join("case.schema.json")).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut problems = Vec::new();
    for loaded in suite() {
        let path = suite_dir().join(&loaded.path);
        let text = fs::read_to_string(&path).unwrap();
        let doc = to_serde(&tn_json::parse_str(&text, &format::wide_limits()).unwrap());
        for err in validator.iter_errors(&doc) {
            problems.push(format!(
                "{}: {} at {}",
                loaded.path,
                err,
                err.instance_path()
            ));
        }
        assert_eq!(
            loaded.file.schema, "../../case.schema.json",
            "{}: $schema must point at the case schema",
            loaded.path
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_file_is_laid_out_as_the_formatter_writes_it() {
    let mut problems = Vec::new();
    for loaded in suite() {
        let text = fs::read_to_string(suite_dir().join(&loaded.path)).unwrap();
        let name = format!("conformance/v1/{}", loaded.path);
        problems.extend(format::problem(&name, &text));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_file_not_laid_out_is_reported_with_its_name_and_the_fix() {
    let name = "conformance/v1/json/crowded.json";
    let crowded = "{\"$schema\":\"../../case.schema.json\",\"cases\":[]}\n";
    let problem = format::problem(name, crowded).expect("a crowded file is reported");
    assert!(problem.starts_with(name), "{problem}");
    assert!(problem.contains("run `cargo xtask cases`"), "{problem}");
    let laid_out = format::format(crowded).unwrap();
    assert_eq!(format::problem(name, &laid_out), None, "{laid_out}");
    // A final newline is part of the layout.
    assert!(format::problem(name, laid_out.trim_end()).is_some());
}

#[test]
fn ids_and_descriptions_are_unique() {
    let mut ids = BTreeMap::new();
    let mut descriptions = BTreeMap::new();
    for loaded in suite() {
        for case in &loaded.file.cases {
            if let Some(other) = ids.insert(case.id, loaded.path.clone()) {
                panic!("id {} is used in {} and {}", case.id, other, loaded.path);
            }
            let key = case.description.to_lowercase();
            if let Some(other) = descriptions.insert(key, loaded.path.clone()) {
                panic!(
                    "description {:?} is used in {} and {}",
                    case.description, other, loaded.path
                );
            }
        }
    }
    assert!(ids.len() >= 60, "the suite has only {} cases", ids.len());
}

#[test]
fn every_flag_is_explained_and_every_note_used() {
    for loaded in suite() {
        let used: BTreeSet<&str> = loaded
            .file
            .cases
            .iter()
            .flat_map(|c| c.flags.iter().map(String::as_str))
            .collect();
        let noted: BTreeSet<&str> = loaded.file.notes.keys().map(String::as_str).collect();
        assert_eq!(
            used, noted,
            "{}: flags used vs flags explained in notes",
            loaded.path
        );
    }
}

#[test]
fn every_error_kind_is_covered() {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for case in suite().iter().flat_map(|f| f.file.cases.iter()) {
        // An authorization flow's errors are the authorization crate's kinds.
        if case.op == Op::AuthFlow {
            if let Some(e) = &case.expect.error {
                assert!(
                    AuthErrorKind::from_name(&e.kind).is_some(),
                    "case {}: unknown authorization error kind {}",
                    case.id,
                    e.kind
                );
            }
            continue;
        }
        if let Some(e) = &case.expect.error {
            seen.insert(e.kind.clone());
        }
        // Script operations report each step's error inside their output.
        if let Some(output) = &case.expect.output
            && let Ok(value) = serde_json::from_str::<serde_json::Value>(output)
        {
            collect_step_error_kinds(&value, &mut seen);
        }
    }
    for kind in ErrorKind::ALL {
        assert!(
            seen.contains(kind.as_str()),
            "no case expects the error kind {kind}"
        );
    }
    for kind in &seen {
        assert!(
            ErrorKind::from_name(kind).is_some(),
            "unknown error kind {kind}"
        );
    }
}

/// The `kind` of every `{"error": {"kind": ...}}` step outcome within `value`.
fn collect_step_error_kinds(value: &serde_json::Value, seen: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            if let Some(kind) = map
                .get("error")
                .and_then(|e| e.get("kind"))
                .and_then(|k| k.as_str())
            {
                seen.insert(kind.to_owned());
            }
            map.values().for_each(|v| collect_step_error_kinds(v, seen));
        }
        serde_json::Value::Array(items) => {
            items.iter().for_each(|v| collect_step_error_kinds(v, seen));
        }
        _ => {}
    }
}

#[test]
fn every_operation_has_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root.join("case.schema.json")).unwrap()).unwrap();
    let ops = schema["$defs"]["case"]["properties"]["op"]["enum"]
        .as_array()
        .expect("the case schema lists the operations");
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for loaded in suite() {
        for case in &loaded.file.cases {
            let name = serde_json::to_value(case.op).unwrap();
            *counts.entry(name.as_str().unwrap().to_owned()).or_default() += 1;
        }
    }
    for op in ops {
        let op = op.as_str().unwrap();
        let n = counts.get(op).copied().unwrap_or(0);
        assert!(
            n >= 3,
            "the operation {op} has {n} cases; every operation needs at least 3"
        );
    }
}

/// The header row of the table of error kinds in `conformance/README.md`.
const KINDS_TABLE_HEADER: &str = "| kind | when |";

/// The kinds listed by the table headed [`KINDS_TABLE_HEADER`] in `readme`, in order: the first
/// cell of each row, without its backticks. `None` when no line is that header.
fn kinds_table(readme: &str) -> Option<Vec<String>> {
    let mut lines = readme
        .lines()
        .map(str::trim)
        .skip_while(|line| *line != KINDS_TABLE_HEADER);
    lines.next()?;
    let is_separator = |line: &str| line.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '));
    Some(
        lines
            .take_while(|line| line.starts_with('|'))
            .filter(|line| !is_separator(line))
            .map(|row| {
                let cell = row.trim_start_matches('|').split('|').next().unwrap_or("");
                cell.trim().trim_matches('`').to_owned()
            })
            .collect(),
    )
}

/// Each way `table` differs from `expected` (the kinds in `ErrorKind::ALL`'s order): kinds
/// missing, kinds that are none, kinds listed twice, and the first row out of order.
fn kinds_table_problems(table: &[String], expected: &[&str]) -> Vec<String> {
    let quoted = |kinds: &[&str]| {
        kinds
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let listed: BTreeSet<&str> = table.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    let missing: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|k| !listed.contains(k))
        .collect();
    if !missing.is_empty() {
        problems.push(format!("missing (no row): {}", quoted(&missing)));
    }
    let extra: Vec<&str> = table
        .iter()
        .map(String::as_str)
        .filter(|k| !expected.contains(k))
        .collect();
    if !extra.is_empty() {
        problems.push(format!("extra (no such ErrorKind): {}", quoted(&extra)));
    }
    let mut seen = BTreeSet::new();
    let twice: Vec<&str> = table
        .iter()
        .map(String::as_str)
        .filter(|k| !seen.insert(*k))
        .collect();
    if !twice.is_empty() {
        problems.push(format!("listed more than once: {}", quoted(&twice)));
    }
    // The order of the kinds both hold, each at its first row.
    let mut once = BTreeSet::new();
    let rows: Vec<&str> = table
        .iter()
        .map(String::as_str)
        .filter(|k| expected.contains(k) && once.insert(*k))
        .collect();
    let wanted: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|k| listed.contains(k))
        .collect();
    if let Some((row, want)) = rows.iter().zip(&wanted).find(|(row, want)| row != want) {
        problems.push(format!(
            "out of order: `{row}` stands where ErrorKind::ALL has `{want}`; the order is {}",
            quoted(expected)
        ));
    }
    problems
}

#[test]
fn the_readme_table_of_error_kinds_is_error_kind_all() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = fs::read_to_string(&path).unwrap();
    let Some(table) = kinds_table(&readme) else {
        panic!(
            "{}: no table of error kinds (a line `{KINDS_TABLE_HEADER}`)",
            path.display()
        );
    };
    let expected = ErrorKind::ALL.map(ErrorKind::as_str);
    let problems = kinds_table_problems(&table, &expected);
    assert!(
        problems.is_empty(),
        "conformance/README.md: the table of error kinds must list every kind of \
         ErrorKind::ALL by as_str(), in its order, and nothing else:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn the_kinds_table_check_names_each_difference() {
    let readme = "| limit | error kind |\n|---|---|\n| size | `too_large` |\n\n\
                  | kind | when |\n|---|---|\n| `b` | two |\n| `a` | one |\n| `z` | none |\n\
                  | `a` | again |\n\nAfter the table.\n| `c` | not a row of it |\n";
    let table = kinds_table(readme).unwrap();
    assert_eq!(table, ["b", "a", "z", "a"]);
    assert_eq!(
        kinds_table_problems(&table, &["a", "b", "c"]),
        [
            "missing (no row): `c`",
            "extra (no such ErrorKind): `z`",
            "listed more than once: `a`",
            "out of order: `b` stands where ErrorKind::ALL has `a`; the order is `a`, `b`, `c`",
        ]
    );
    assert!(kinds_table_problems(&table[1..2], &["a"]).is_empty());
    assert_eq!(kinds_table("no table here"), None);
}

#[test]
fn the_case_schema_s_error_kinds_are_error_kind_all() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("case.schema.json");
    let text = fs::read_to_string(&path).unwrap();
    // The `enum`s that list error kinds: those holding the first kind, the core's
    // (`$defs/errorKind`) and the authorization flow's (`$defs/authErrorKind`).
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    fn find(value: &serde_json::Value, out: &mut Vec<Vec<String>>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::Array(items)) = map.get("enum")
                    && items.iter().any(|i| i == "invalid_json")
                {
                    out.push(
                        items
                            .iter()
                            .filter_map(|i| i.as_str().map(String::from))
                            .collect(),
                    );
                }
                map.values().for_each(|v| find(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| find(v, out)),
            _ => {}
        }
    }
    let mut lists = Vec::new();
    find(&schema, &mut lists);
    assert_eq!(
        lists.len(),
        2,
        "case.schema.json must list the error kinds twice: the core's and the flow's"
    );
    let listed = |name: &str| -> Vec<String> {
        schema["$defs"][name]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("case.schema.json has no $defs/{name} enum"))
            .iter()
            .filter_map(|i| i.as_str().map(String::from))
            .collect()
    };
    let expected = ErrorKind::ALL.map(ErrorKind::as_str);
    let problems = kinds_table_problems(&listed("errorKind"), &expected);
    assert!(
        problems.is_empty(),
        "case.schema.json: the kinds a case may expect must be ErrorKind::ALL, in order:\n  {}",
        problems.join("\n  ")
    );
    let expected = AuthErrorKind::ALL.map(AuthErrorKind::as_str);
    let problems = kinds_table_problems(&listed("authErrorKind"), &expected);
    assert!(
        problems.is_empty(),
        "case.schema.json: the kinds an auth_flow case may expect must be AuthErrorKind::ALL, \
         in order:\n  {}",
        problems.join("\n  ")
    );
}
