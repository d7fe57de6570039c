//! `toolnexus conformance`: the shared conformance suite run through the core.

use std::path::PathBuf;

use toolnexus_conformance::{check, load_suite};

use crate::printer::{self, Output};
use crate::report::{Failure, Printed, verdict};

/// `toolnexus conformance DIR`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite's folder: `conformance/v1` in a checkout of toolnexus.
    dir: PathBuf,
}

/// Runs the suite: a line per area with its counts, then `N passed, N failed`; each failure
/// is named on standard error.
pub fn exec(args: Args) -> Printed {
    let dir = args.dir;
    let files = load_suite(&dir)
        .map_err(|e| Failure::usage(format!("cannot load the suite in {}: {e}", dir.display())))?;
    let mut areas: Vec<(String, usize, usize)> = Vec::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    for loaded in &files {
        let area = loaded
            .path
            .split('/')
            .next()
            .unwrap_or(&loaded.path)
            .to_owned();
        let index = match areas.iter().position(|(a, _, _)| *a == area) {
            Some(i) => i,
            None => {
                areas.push((area, 0, 0));
                areas.len() - 1
            }
        };
        for case in &loaded.file.cases {
            let ok = match check(case) {
                Ok(()) => true,
                Err(why) => {
                    printer::text_line(&format!(
                        "FAIL #{} {} ({})",
                        case.id, case.description, loaded.path
                    ));
                    printer::text_line(&format!("    {why}"));
                    false
                }
            };
            if let Some(row) = areas.get_mut(index) {
                if ok {
                    row.1 += 1;
                } else {
                    row.2 += 1;
                }
            }
            if ok {
                passed += 1;
            } else {
                failed += 1;
            }
        }
    }
    let mut out = format!("{:<12} {:>7} {:>7}\n", "area", "passed", "failed");
    for (area, p, f) in &areas {
        out.push_str(&format!("{area:<12} {p:>7} {f:>7}\n"));
    }
    out.push_str(&format!("{passed} passed, {failed} failed"));
    let exit = verdict(failed == 0 && passed > 0);
    Ok((Output::Text(out), exit))
}
