//! Every line meant for a person goes through `src/printer.rs`: no other file of the command
//! prints with `print!`, `println!`, `eprint!`, `eprintln!` or writes to standard output, so
//! no line can skip the rule that shows server text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

/// What only the printer may write with.
const PRINTING: [&str; 6] = [
    "print!(",
    "println!(",
    "eprint!(",
    "eprintln!(",
    "io::stdout()",
    "dbg!(",
];

/// The places in `text` (a Rust file) that print without the printer, as `line: text`.
fn printing(text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| {
            PRINTING.iter().any(|p| {
                line.match_indices(p).any(|(at, _)| {
                    // `eprint!(` is inside `eprintln!(`'s name only when preceded by `e`.
                    let before = line.get(..at).and_then(|b| b.chars().last());
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
        })
        .map(|(n, line)| format!("{}: {}", n + 1, line.trim()))
        .collect()
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

#[test]
fn only_the_printer_prints() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "the walk found {} files", files.len());
    let mut found = Vec::new();
    for file in files {
        if file.ends_with("src/printer.rs") {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for place in printing(&text) {
            found.push(format!("{}:{place}", file.display()));
        }
    }
    assert!(
        found.is_empty(),
        "print through src/printer.rs (note!, warning!, printer::…):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_each_way_of_printing() {
    let made_up = "fn f() {\n    eprintln!(\"toolnexus: {x}\");\n    // println!(\"in a comment\");\n    let _ = writeln!(std::io::stdout(), \"x\");\n    print!(\"a\");\n    eprint!(\"b\");\n    println!();\n    dbg!(1);\n    note!(\"fine\");\n}\n";
    assert_eq!(
        printing(made_up),
        [
            "2: eprintln!(\"toolnexus: {x}\");",
            "4: let _ = writeln!(std::io::stdout(), \"x\");",
            "5: print!(\"a\");",
            "6: eprint!(\"b\");",
            "7: println!();",
            "8: dbg!(1);",
        ]
    );
}
