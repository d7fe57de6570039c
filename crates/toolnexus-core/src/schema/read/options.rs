//! Lists of options: plain `enum` values with their optional `enumNames`, and titled
//! `{const, title}` options.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::SchemaProblemKind;
use super::problems::{Problems, child, item, member, quote};
use crate::json::{Map, Value};

/// Checks an `enum` list at `at`; its distinct string values, if it is an array.
pub(super) fn check_enum<'a>(
    list: &'a Value,
    at: &str,
    out: &mut Problems,
) -> Option<Vec<&'a str>> {
    let list = option_list(list, at, "enum", &PLAIN, out)?;
    let mut values = Distinct::default();
    for (i, value) in list.iter().enumerate() {
        match value {
            Value::String(v) => values.add(v, item(at, i), out),
            other => out.wrong_type(
                item(at, i),
                &format!("`enum` item {i}"),
                "a string (options are strings)",
                other,
            ),
        }
    }
    Some(values.values)
}

pub(super) fn check_enum_names(map: &Map, at: &str, values: Option<usize>, out: &mut Problems) {
    let Some(names) = member(map, "enumNames") else {
        return;
    };
    let names_at = child(at, "enumNames");
    let Value::Array(names) = names else {
        out.wrong_type(
            names_at,
            "`enumNames`",
            "an array of titles (strings), one per `enum` value",
            names,
        );
        return;
    };
    if let Some(values) = values.filter(|&v| v != names.len()) {
        out.add(
            SchemaProblemKind::EnumNamesLength,
            names_at.clone(),
            format!(
                "`enumNames` has {} titles for {values} `enum` values: give exactly one title per \
                 value, in the same order (or use `oneOf: [{{const, title}}]`)",
                names.len()
            ),
        );
    }
    for (i, name) in names.iter().enumerate() {
        if !name.is_string() {
            out.wrong_type(
                item(&names_at, i),
                &format!("`enumNames` item {i}"),
                "a string",
                name,
            );
        }
    }
}

/// Checks a `[{const, title}]` list (`oneOf` or `anyOf`) at `at`; its distinct well-formed
/// option values, if it is an array.
pub(super) fn check_titled<'a>(
    list: &'a Value,
    at: &str,
    keyword: &str,
    out: &mut Problems,
) -> Option<Vec<&'a str>> {
    let list = option_list(list, at, keyword, &TITLED, out)?;
    let mut values = Distinct::default();
    for (i, option) in list.iter().enumerate() {
        let option_at = item(at, i);
        let Value::Object(option) = option else {
            out.wrong_type(
                option_at,
                &format!("`{keyword}` item {i}"),
                "an object {\"const\": value, \"title\": label}",
                option,
            );
            continue;
        };
        let const_at = child(&option_at, "const");
        match member(option, "const") {
            None => out.add(
                SchemaProblemKind::MissingKeyword,
                const_at,
                format!("option {i} has no `const`: the value content holds when it is chosen"),
            ),
            Some(Value::String(v)) => values.add(v, const_at, out),
            Some(other) => out.wrong_type(
                const_at,
                &format!("the `const` of option {i}"),
                "a string (options are strings)",
                other,
            ),
        }
        let title_at = child(&option_at, "title");
        match member(option, "title") {
            None => out.add(
                SchemaProblemKind::MissingKeyword,
                title_at,
                format!(
                    "option {i} has no `title`: titled options exist to show a title; add one, \
                     or list plain values in `enum`"
                ),
            ),
            Some(Value::String(_)) => {}
            Some(other) => out.wrong_type(
                title_at,
                &format!("the `title` of option {i}"),
                "a string",
                other,
            ),
        }
    }
    Some(values.values)
}

/// How messages describe a kind of option list: what the list is, and what one option is.
struct ListKind {
    list_of: &'static str,
    one: &'static str,
}

const PLAIN: ListKind = ListKind {
    list_of: "an array of option values (strings)",
    one: "value to choose",
};

const TITLED: ListKind = ListKind {
    list_of: "an array of {\"const\", \"title\"} options",
    one: "{\"const\", \"title\"}",
};

/// The items of the option list `keyword` at `at`, if it is an array; reports one that is not,
/// or is empty.
fn option_list<'a>(
    list: &'a Value,
    at: &str,
    keyword: &str,
    kind: &ListKind,
    out: &mut Problems,
) -> Option<&'a [Value]> {
    let Value::Array(list) = list else {
        out.wrong_type(
            String::from(at),
            &format!("`{keyword}`"),
            kind.list_of,
            list,
        );
        return None;
    };
    if list.is_empty() {
        out.add(
            SchemaProblemKind::EmptyEnum,
            String::from(at),
            format!("`{keyword}` has no options: list at least one {}", kind.one),
        );
    }
    Some(list)
}

/// The distinct option values of a list, in order; each repeat is reported where it stands.
#[derive(Default)]
struct Distinct<'a> {
    values: Vec<&'a str>,
    seen: BTreeSet<&'a str>,
}

impl<'a> Distinct<'a> {
    fn add(&mut self, value: &'a str, at: String, out: &mut Problems) {
        if self.seen.insert(value) {
            self.values.push(value);
        } else {
            out.add(
                SchemaProblemKind::DuplicateValue,
                at,
                format!(
                    "the option {} is listed twice; list each once",
                    quote(value)
                ),
            );
        }
    }
}

/// The options as the JSON array of an `enum`, or `None` when there are none to judge a
/// default against.
pub(super) fn option_values(options: Vec<&str>) -> Option<Value> {
    if options.is_empty() {
        return None;
    }
    Some(Value::Array(options.into_iter().map(Value::from).collect()))
}
