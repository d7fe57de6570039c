//! The layout of the case files, which `cargo xtask cases` writes and the lint holds them to.
//!
//! Two-space indentation; a value on one line when it fits within [`WIDTH`] columns where it
//! stands (`{ "a": 1, "b": [1, 2] }`), else one member or item per line; strings with
//! serde_json's escapes and raw UTF-8 otherwise; numbers as spelt; members in their order; a
//! final newline. The text is read with the core's reader, so its spellings and order are kept
//! and a duplicate key is refused.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use toolnexus_core::{Limits, Value, json};

/// The widest a line may be when a value is written on one line (a string longer than that
/// still has one line of its own).
pub const WIDTH: usize = 100;

/// The command that rewrites the case files as [`format`] writes them.
pub const COMMAND: &str = "cargo xtask cases";

/// The limits a case file is read within: as wide as the core allows, so that only a fault of
/// the text itself refuses it.
pub fn wide_limits() -> Limits {
    Limits::DEFAULT
        .with_max_input_bytes(usize::MAX)
        .with_max_depth(Limits::DEPTH_CEILING)
        .with_max_object_members(usize::MAX)
        .with_max_array_items(usize::MAX)
}

/// `text`, one JSON document, in the suite's layout; an error when it is not JSON.
pub fn format(text: &str) -> Result<String, String> {
    let value = json::parse_str(text, &wide_limits()).map_err(|e| e.to_string())?;
    let mut out = String::with_capacity(text.len());
    write(&mut out, &value, 0, 0, 0);
    out.push('\n');
    Ok(out)
}

/// Why the file `name`, whose text is `text`, is not as [`format`] writes it; `None` when it is.
pub fn problem(name: &str, text: &str) -> Option<String> {
    match format(text) {
        Ok(formatted) if formatted == text => None,
        Ok(formatted) => {
            let line = text
                .lines()
                .zip(formatted.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| text.lines().count().min(formatted.lines().count()))
                + 1;
            Some(format!(
                "{name}: not laid out as the formatter writes it (first at line {line}); run `{COMMAND}`"
            ))
        }
        Err(e) => Some(format!("{name}: {e}")),
    }
}

/// The case files under `dir` (`<area>/*.json`), sorted.
pub fn files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut paths = Vec::new();
    let areas = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for area in areas {
        let area = area.map_err(|e| e.to_string())?.path();
        if !area.is_dir() {
            continue;
        }
        for file in fs::read_dir(&area).map_err(|e| format!("{}: {e}", area.display()))? {
            let file = file.map_err(|e| e.to_string())?.path();
            if file.extension().is_some_and(|e| e == "json") {
                paths.push(file);
            }
        }
    }
    paths.sort();
    Ok(paths)
}

/// Lays out every case file under `dir`; with `check`, only says which are not laid out.
/// Returns the problems found (with `check`) or the files rewritten (without).
pub fn format_suite(dir: &Path, check: bool) -> Result<Vec<String>, String> {
    let mut reported = Vec::new();
    for path in files(dir)? {
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.display().to_string();
        if check {
            reported.extend(problem(&name, &text));
            continue;
        }
        let formatted = format(&text).map_err(|e| format!("{name}: {e}"))?;
        if formatted != text {
            fs::write(&path, formatted).map_err(|e| format!("{name}: {e}"))?;
            reported.push(name);
        }
    }
    Ok(reported)
}

/// Writes `value`, which starts `column` columns into its line and is followed there by
/// `after` columns (a comma), its lines inside indented by `indent` + 2.
fn write(out: &mut String, value: &Value, indent: usize, column: usize, after: usize) {
    let fits = width_within(value, WIDTH.saturating_sub(column + after)).is_some();
    match value {
        Value::Object(map) if !fits && !map.is_empty() => {
            out.push_str("{\n");
            for (i, (key, member)) in map.iter().enumerate() {
                let key = Value::String(key.into()).to_json();
                pad(out, indent + 2);
                out.push_str(&key);
                out.push_str(": ");
                let last = i + 1 == map.len();
                let column = indent + 2 + key.chars().count() + 2;
                write(out, member, indent + 2, column, usize::from(!last));
                out.push_str(if last { "\n" } else { ",\n" });
            }
            pad(out, indent);
            out.push('}');
        }
        Value::Array(items) if !fits && !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                pad(out, indent + 2);
                let last = i + 1 == items.len();
                write(out, item, indent + 2, indent + 2, usize::from(!last));
                out.push_str(if last { "\n" } else { ",\n" });
            }
            pad(out, indent);
            out.push(']');
        }
        _ => out.push_str(&one_line(value)),
    }
}

/// The columns `value` takes on one line (as [`one_line`] writes it), or `None` as soon as it
/// is found to take more than `room`: a value too wide is not measured to its end, so that each
/// level of a deep document costs at most a line's worth of measuring.
fn width_within(value: &Value, room: usize) -> Option<usize> {
    let mut used = 0;
    // Takes `columns` more; the room left, or `None` when there is none.
    let mut take = |columns: usize| {
        used += columns;
        room.checked_sub(used)
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            take(4)?; // `{ ` and ` }`
            for (i, (key, member)) in map.iter().enumerate() {
                let key = Value::String(key.into()).to_json().chars().count();
                let left = take(if i > 0 { 2 } else { 0 } + key + 2)?;
                take(width_within(member, left)?)?;
            }
        }
        Value::Array(items) if !items.is_empty() => {
            take(2)?; // `[` and `]`
            for (i, item) in items.iter().enumerate() {
                let left = take(if i > 0 { 2 } else { 0 })?;
                take(width_within(item, left)?)?;
            }
        }
        Value::Object(_) | Value::Array(_) => {
            take(2)?;
        }
        scalar => {
            take(scalar.to_json().chars().count())?;
        }
    }
    Some(used)
}

/// `value` on one line: `{ "a": 1 }`, `[1, 2]`, `{}`, `[]`.
fn one_line(value: &Value) -> String {
    match value {
        Value::Object(map) if map.is_empty() => "{}".into(),
        Value::Object(map) => {
            let mut out = String::from("{ ");
            for (i, (key, member)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(
                    out,
                    "{}: {}",
                    Value::String(key.into()).to_json(),
                    one_line(member)
                );
            }
            out.push_str(" }");
            out
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(one_line).collect();
            format!("[{}]", items.join(", "))
        }
        scalar => scalar.to_json(),
    }
}

fn pad(out: &mut String, columns: usize) {
    out.extend(std::iter::repeat_n(' ', columns));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_stay_on_one_line_and_long_ones_break() {
        let long = "x".repeat(90);
        let text = format!(
            r#"{{"a":{{"b":[1,2.50,-0,1e2]}},"c":[],"d":{{}},"e":["{long}",true],"f":"\u00e9\/"}}"#
        );
        let want = format!(
            "{{\n  \"a\": {{ \"b\": [1, 2.50, -0, 1e2] }},\n  \"c\": [],\n  \"d\": {{}},\n  \"e\": [\n    \"{long}\",\n    true\n  ],\n  \"f\": \"é/\"\n}}\n"
        );
        assert_eq!(format(&text).unwrap(), want);
        assert_eq!(
            format(&want).unwrap(),
            want,
            "formatting twice changes nothing"
        );
    }

    #[test]
    fn a_line_of_exactly_the_width_fits() {
        // `  "k": "…",` is 2 + 5 + the string (2 quotes) + 1 comma columns.
        let fits = "y".repeat(WIDTH - 2 - 5 - 2 - 1);
        let text = format!(r#"{{"k":"{fits}","l":[1]}}"#);
        let formatted = format(&text).unwrap();
        assert!(formatted.lines().all(|l| l.chars().count() <= WIDTH));
        assert!(formatted.contains(&format!("  \"k\": \"{fits}\",\n")));
        let one_more = format!(r#"{{"k":["{fits}z"]}}"#);
        assert!(format(&one_more).unwrap().contains("\"k\": [\n"));
    }

    #[test]
    fn a_file_not_laid_out_is_named_with_the_command() {
        let found = problem("v1/x/y.json", "{\"a\": 1}\n").unwrap();
        assert!(found.contains("v1/x/y.json"), "{found}");
        assert!(found.contains(COMMAND), "{found}");
        assert_eq!(problem("v1/x/y.json", "{ \"a\": 1 }\n"), None);
        let duplicate = problem("v1/x/y.json", "{ \"a\": 1, \"a\": 2 }\n").unwrap();
        assert!(duplicate.contains("v1/x/y.json"), "{duplicate}");
    }
}
