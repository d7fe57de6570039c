//! What each property admits: the rules a value for one field must keep, shared by content
//! validation, typed input and the schema reader's check of each `default`.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::{
    EnumOption, EnumShape, MultiSelectSchema, NumberSchema, Property, PropertyKind,
    SingleSelectSchema, StringFormat, StringSchema,
};
use crate::error::{Keyword, Violation, wrong_type_message};
use crate::json::{Value, decimal, pointer};

/// Where the value checked sits, written out as a JSON pointer only when a violation needs
/// one: most values break no rule, and then nothing is allocated for their place.
#[derive(Debug, Clone, Copy)]
pub(crate) enum At<'a> {
    /// A pointer written already.
    Pointer(&'a str),
    /// The member of this name of the content object.
    Member(&'a str),
}

impl At<'_> {
    fn pointer(self) -> String {
        match self {
            At::Pointer(pointer) => String::from(pointer),
            At::Member(name) => pointer::key(name),
        }
    }

    /// The pointer of item `index` of the array here.
    fn item(self, index: usize) -> String {
        let mut at = self.pointer();
        pointer::push_index(&mut at, index);
        at
    }
}

impl Property {
    /// Appends to `out` every way `value` breaks this property, in the order of the keywords
    /// in [`crate::content`]'s table; pointers start with `at`, the property's own pointer.
    pub fn violations(&self, value: &Value, at: &str, out: &mut Vec<Violation>) {
        self.violations_at(value, At::Pointer(at), out);
    }

    /// [`Property::violations`] at a place whose pointer is written only if needed.
    pub(crate) fn violations_at(&self, value: &Value, at: At<'_>, out: &mut Vec<Violation>) {
        let label = self.label();
        match self.kind() {
            PropertyKind::String(s) => string_violations(label, s, value, at, out),
            PropertyKind::Number(n) => number_violations(label, n, value, at, out),
            PropertyKind::Boolean(_) => {
                if !value.is_boolean() {
                    out.push(wrong_type(at.pointer(), label, "true or false", value));
                }
            }
            PropertyKind::SingleSelect(s) => single_select_violations(label, s, value, at, out),
            PropertyKind::MultiSelect(m) => multi_select_violations(label, m, value, at, out),
        }
    }
}

fn wrong_type(at: impl Into<String>, label: &str, expected: &str, found: &Value) -> Violation {
    Violation::new(
        at,
        Keyword::Type,
        wrong_type_message(label, expected, found.type_name()),
    )
}

fn string_violations(
    label: &str,
    schema: &StringSchema,
    value: &Value,
    at: At<'_>,
    out: &mut Vec<Violation>,
) {
    let Value::String(text) = value else {
        out.push(wrong_type(at.pointer(), label, "text", value));
        return;
    };
    if schema.min_length().is_some() || schema.max_length().is_some() {
        // JSON Schema counts characters as Unicode code points: "é" is one whether it takes
        // two bytes in UTF-8 or one unit in UTF-16, and an emoji outside the BMP is one.
        let length = u64::try_from(text.chars().count()).unwrap_or(u64::MAX);
        check_count(
            out,
            at,
            length,
            (schema.min_length(), Keyword::MinLength, &|n| {
                format!("{label} must be at least {}", characters(n))
            }),
            (schema.max_length(), Keyword::MaxLength, &|n| {
                format!("{label} must be at most {}", characters(n))
            }),
        );
    }
    if let Some(f) = schema.format()
        && !super::format::matches(f, text)
    {
        out.push(Violation::new(
            at.pointer(),
            Keyword::Format,
            format!("{label} must be {}", format_description(f)),
        ));
    }
}

/// What text of `format` looks like, for messages.
fn format_description(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Email => "an email address such as name@example.com",
        StringFormat::Uri => "an absolute URI such as https://example.com/page",
        StringFormat::Date => "a date such as 2024-02-29",
        StringFormat::DateTime => "a date and time with an offset, such as 2024-02-29T17:30:00Z",
    }
}

/// One inclusive bound on a count: the limit, its keyword, and the message for a count that
/// breaks it.
type CountBound<'a> = (Option<u64>, Keyword, &'a dyn Fn(u64) -> String);

/// Appends a violation for each bound `count` (a length or a number of items) breaks.
fn check_count(
    out: &mut Vec<Violation>,
    at: At<'_>,
    count: u64,
    (min, min_keyword, too_few): CountBound<'_>,
    (max, max_keyword, too_many): CountBound<'_>,
) {
    if let Some(min) = min.filter(|&min| count < min) {
        out.push(Violation::new(at.pointer(), min_keyword, too_few(min)));
    }
    if let Some(max) = max.filter(|&max| count > max) {
        out.push(Violation::new(at.pointer(), max_keyword, too_many(max)));
    }
}

fn characters(n: u64) -> String {
    if n == 1 {
        String::from("1 character long")
    } else {
        format!("{n} characters long")
    }
}

fn number_violations(
    label: &str,
    schema: &NumberSchema,
    value: &Value,
    at: At<'_>,
    out: &mut Vec<Violation>,
) {
    let expected = if schema.is_integer() {
        "a whole number"
    } else {
        "a number"
    };
    let Value::Number(n) = value else {
        out.push(wrong_type(at.pointer(), label, expected, value));
        return;
    };
    // The nearest double, read once for every rule below.
    let near = decimal::nearest_double(n);
    if !near.is_some_and(f64::is_finite) {
        // Valid JSON, but most hosts and servers read numbers as doubles, where this one
        // becomes infinity: a value no form can mean.
        out.push(Violation::new(
            at.pointer(),
            Keyword::Type,
            format!("{label} must be a finite number; {n} is too large"),
        ));
    } else if schema.is_integer() && !decimal::is_integer_near(n, near) {
        out.push(Violation::new(
            at.pointer(),
            Keyword::Type,
            format!("{label} must be a whole number, not {n}"),
        ));
    }
    if let Some(min) = schema.minimum()
        && decimal::compare_near(n, near, min) == Ordering::Less
    {
        out.push(Violation::new(
            at.pointer(),
            Keyword::Minimum,
            format!("{label} must be at least {min}"),
        ));
    }
    if let Some(max) = schema.maximum()
        && decimal::compare_near(n, near, max) == Ordering::Greater
    {
        out.push(Violation::new(
            at.pointer(),
            Keyword::Maximum,
            format!("{label} must be at most {max}"),
        ));
    }
}

fn single_select_violations(
    label: &str,
    schema: &SingleSelectSchema,
    value: &Value,
    at: At<'_>,
    out: &mut Vec<Violation>,
) {
    let Value::String(chosen) = value else {
        out.push(wrong_type(at.pointer(), label, "one of the options", value));
        return;
    };
    if schema.option(chosen).is_none() {
        let keyword = match schema.shape() {
            EnumShape::Titled => Keyword::OneOf,
            _ => Keyword::Enum,
        };
        out.push(Violation::new(
            at.pointer(),
            keyword,
            format!(
                "{label} must be one of {}; {chosen:?} is not an option",
                option_list(schema.options())
            ),
        ));
    }
}

fn multi_select_violations(
    label: &str,
    schema: &MultiSelectSchema,
    value: &Value,
    at: At<'_>,
    out: &mut Vec<Violation>,
) {
    let Value::Array(items) = value else {
        out.push(wrong_type(at.pointer(), label, "a list of options", value));
        return;
    };
    let count = u64::try_from(items.len()).unwrap_or(u64::MAX);
    check_count(
        out,
        at,
        count,
        (schema.min_items(), Keyword::MinItems, &|n| {
            format!("{label} needs at least {}", choices(n))
        }),
        (schema.max_items(), Keyword::MaxItems, &|n| {
            format!("{label} allows at most {}", choices(n))
        }),
    );
    let keyword = match schema.shape() {
        EnumShape::Titled => Keyword::AnyOf,
        _ => Keyword::Enum,
    };
    // The options sorted once and the choices seen so far: each item costs a look-up, not a
    // scan of the options and of the items before it.
    let mut options: Vec<&str> = schema.options().iter().map(EnumOption::value).collect();
    options.sort_unstable();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for (i, item) in items.iter().enumerate() {
        let Value::String(chosen) = item else {
            out.push(wrong_type(at.item(i), label, "a list of options", item));
            continue;
        };
        if options.binary_search(&chosen.as_str()).is_err() {
            out.push(Violation::new(
                at.item(i),
                keyword,
                format!(
                    "{label} choices must be among {}; {chosen:?} is not an option",
                    option_list(schema.options())
                ),
            ));
        } else if !seen.insert(chosen.as_str()) {
            out.push(Violation::new(
                at.item(i),
                Keyword::UniqueItems,
                format!("{label} lists {chosen:?} more than once"),
            ));
        }
    }
}

fn choices(n: u64) -> String {
    if n == 1 {
        String::from("1 choice")
    } else {
        format!("{n} choices")
    }
}

/// The options' values for a message: all of them when few, else the first ones.
fn option_list(options: &[EnumOption]) -> String {
    const SHOWN: usize = 8;
    let mut list = String::new();
    for (i, option) in options.iter().take(SHOWN).enumerate() {
        if i > 0 {
            list.push_str(", ");
        }
        list.push_str(&format!("{:?}", option.value()));
    }
    if options.len() > SHOWN {
        list.push_str(&format!(" (and {} more)", options.len() - SHOWN));
    }
    if list.is_empty() {
        list.push_str("no options at all");
    }
    list
}
