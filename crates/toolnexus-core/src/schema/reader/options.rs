//! Lists of options: plain `enum` values with their optional `enumNames`, and titled
//! `{const, title}` options.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::SchemaProblemKind;
use super::problems::{Problems, child, item, member, quote};
use crate::json::{Map, Value};
use crate::schema::EnumOption;

/// The options of a list as read: each as written, in order, and the distinct ones (the
/// first of each value), which are what validation allows.
#[derive(Default)]
pub(in crate::schema) struct OptionList {
    pub(in crate::schema) written: Vec<EnumOption>,
    pub(in crate::schema) distinct: Vec<EnumOption>,
}

impl OptionList {
    /// Titles the options by position from `titles` (the legacy `enumNames`); a missing title
    /// leaves an option untitled.
    pub(in crate::schema) fn titled_by(&mut self, titles: &[Option<String>]) {
        for (option, title) in self.written.iter_mut().zip(titles) {
            option.title.clone_from(title);
        }
        for option in &mut self.distinct {
            option.title = self
                .written
                .iter()
                .find(|o| o.value == option.value)
                .and_then(|o| o.title.clone());
        }
    }
}

/// Checks an `enum` list at `at`; its options, if it is an array.
pub(in crate::schema) fn check_enum(
    list: &Value,
    at: &str,
    out: &mut Problems,
) -> Option<OptionList> {
    let list = option_list(list, at, "enum", &PLAIN, out)?;
    let mut values = Distinct::default();
    for (i, value) in list.iter().enumerate() {
        match value {
            Value::String(v) => values.add(v, None, item(at, i), out),
            other => out.wrong_type(
                item(at, i),
                &format!("`enum` item {i}"),
                "a string (options are strings)",
                other,
            ),
        }
    }
    Some(values.options)
}

/// Checks `enumNames`; its titles by position (`None` for an item that is not a string), if
/// it is an array.
pub(in crate::schema) fn check_enum_names(
    map: &Map,
    at: &str,
    values: Option<usize>,
    out: &mut Problems,
) -> Option<Vec<Option<String>>> {
    let names = member(map, "enumNames")?;
    let names_at = child(at, "enumNames");
    let Value::Array(names) = names else {
        out.wrong_type(
            names_at,
            "`enumNames`",
            "an array of titles (strings), one per `enum` value",
            names,
        );
        return None;
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
    let mut titles = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        match name {
            Value::String(title) => titles.push(Some(String::from(title.as_str()))),
            other => {
                out.wrong_type(
                    item(&names_at, i),
                    &format!("`enumNames` item {i}"),
                    "a string",
                    other,
                );
                titles.push(None);
            }
        }
    }
    Some(titles)
}

/// Checks a `[{const, title}]` list (`oneOf` or `anyOf`) at `at`; its well-formed options, if
/// it is an array.
pub(in crate::schema) fn check_titled(
    list: &Value,
    at: &str,
    keyword: &str,
    out: &mut Problems,
) -> Option<OptionList> {
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
        let value = match member(option, "const") {
            None => {
                out.block(
                    SchemaProblemKind::MissingKeyword,
                    const_at.clone(),
                    format!("option {i} has no `const`: the value content holds when it is chosen"),
                );
                None
            }
            Some(Value::String(v)) => Some(v),
            Some(other) => {
                out.wrong_type(
                    const_at.clone(),
                    &format!("the `const` of option {i}"),
                    "a string (options are strings)",
                    other,
                );
                None
            }
        };
        let title_at = child(&option_at, "title");
        let title = match member(option, "title") {
            None => {
                out.add(
                    SchemaProblemKind::MissingKeyword,
                    title_at,
                    format!(
                        "option {i} has no `title`: titled options exist to show a title; add one, \
                     or list plain values in `enum`"
                    ),
                );
                None
            }
            Some(Value::String(title)) => Some(String::from(title.as_str())),
            Some(other) => {
                out.wrong_type(
                    title_at,
                    &format!("the `title` of option {i}"),
                    "a string",
                    other,
                );
                None
            }
        };
        if let Some(value) = value {
            values.add(value, title, const_at, out);
        }
    }
    Some(values.options)
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

/// The options of a list, in order; each repeated value is reported where it stands.
#[derive(Default)]
struct Distinct<'a> {
    options: OptionList,
    seen: BTreeSet<&'a str>,
}

impl<'a> Distinct<'a> {
    fn add(&mut self, value: &'a str, title: Option<String>, at: String, out: &mut Problems) {
        let option = EnumOption {
            value: String::from(value),
            title,
        };
        if self.seen.insert(value) {
            self.options.distinct.push(option.clone());
            self.options.written.push(option);
        } else {
            self.options.written.push(option);
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
