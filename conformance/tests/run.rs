//! Runs every conformance case against the Rust core and prints `N passed, N failed`.

use std::process::ExitCode;

use toolnexus_conformance::{check, load_suite, suite_dir};

/// Cases this runner is known to fail, by id, with the reason. Kept here, never in the cases.
const EXPECTED_FAILURES: &[(u64, &str)] = &[];

fn main() -> ExitCode {
    let files = match load_suite(&suite_dir()) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("conformance: cannot load the suite: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut passed, mut failed, mut known) = (0usize, 0usize, 0usize);
    for loaded in &files {
        for case in &loaded.file.cases {
            let expected_fail = EXPECTED_FAILURES.iter().any(|(id, _)| *id == case.id);
            match (check(case), expected_fail) {
                (Ok(()), false) => passed += 1,
                (Err(_), true) => known += 1,
                (Ok(()), true) => {
                    failed += 1;
                    println!(
                        "FAIL #{} {} ({}): listed as an expected failure but passes",
                        case.id, case.description, loaded.path
                    );
                }
                (Err(why), false) => {
                    failed += 1;
                    println!(
                        "FAIL #{} {} ({})\n    {why}",
                        case.id, case.description, loaded.path
                    );
                }
            }
        }
    }
    if passed + failed + known == 0 {
        println!(
            "conformance: no cases found under {}",
            suite_dir().display()
        );
        return ExitCode::FAILURE;
    }
    if known > 0 {
        println!("conformance: {known} known failures listed in EXPECTED_FAILURES");
    }
    println!("conformance: {passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
