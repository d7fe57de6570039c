//! Tidy checks on the case files: the schema, unique ids and descriptions, explained flags,
//! and coverage of every operation and every error kind.

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

use toolnexus_conformance::{LoadedFile, load_suite, suite_dir};
use toolnexus_core::ErrorKind;

fn suite() -> Vec<LoadedFile> {
    match load_suite(&suite_dir()) {
        Ok(files) => files,
        Err(e) => panic!("cannot load the suite: {e}"),
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
        let doc: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
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
