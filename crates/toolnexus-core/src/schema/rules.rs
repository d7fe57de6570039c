//! What each property admits: the rules a value for one field must keep, shared by content
//! validation, typed input and the schema reader's check of each `default`.

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

impl Property {
    /// Appends to `out` every way `value` breaks this property, in the order of the keywords
    /// in [`crate::content`]'s table; pointers start with `at`, the property's own pointer.
    pub fn violations(&self, value: &Value, at: &str, out: &mut Vec<Violation>) {
        let label = self.label();
        match self.kind() {
            PropertyKind::String(s) => string_violations(label, s, value, at, out),
            PropertyKind::Number(n) => number_violations(label, n, value, at, out),
            PropertyKind::Boolean(_) => {
                if !value.is_boolean() {
                    out.push(wrong_type(at, label, "true or false", value));
                }
            }
            PropertyKind::SingleSelect(s) => single_select_violations(label, s, value, at, out),
            PropertyKind::MultiSelect(m) => multi_select_violations(label, m, value, at, out),
        }
    }
}

fn wrong_type(at: &str, label: &str, expected: &str, found: &Value) -> Violation {
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
    at: &str,
    out: &mut Vec<Violation>,
) {
    let Value::String(text) = value else {
        out.push(wrong_type(at, label, "text", value));
        return;
    };
    // JSON Schema counts characters as Unicode code points: "é" is one whether it takes two
    // bytes in UTF-8 or one unit in UTF-16, and an emoji outside the BMP is one, not two.
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
    if let Some(f) = schema.format()
        && !super::format::matches(f, text)
    {
        out.push(Violation::new(
            at,
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
    at: &str,
    count: u64,
    (min, min_keyword, too_few): CountBound<'_>,
    (max, max_keyword, too_many): CountBound<'_>,
) {
    if let Some(min) = min.filter(|&min| count < min) {
        out.push(Violation::new(at, min_keyword, too_few(min)));
    }
    if let Some(max) = max.filter(|&max| count > max) {
        out.push(Violation::new(at, max_keyword, too_many(max)));
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
    at: &str,
    out: &mut Vec<Violation>,
) {
    let expected = if schema.is_integer() {
        "a whole number"
    } else {
        "a number"
    };
    let Value::Number(n) = value else {
        out.push(wrong_type(at, label, expected, value));
        return;
    };
    if !decimal::fits_f64(n) {
        // Valid JSON, but most hosts and servers read numbers as doubles, where this one
        // becomes infinity: a value no form can mean.
        out.push(Violation::new(
            at,
            Keyword::Type,
            format!("{label} must be a finite number; {n} is too large"),
        ));
    } else if schema.is_integer() && !decimal::is_integer(n) {
        out.push(Violation::new(
            at,
            Keyword::Type,
            format!("{label} must be a whole number, not {n}"),
        ));
    }
    if let Some(min) = schema.minimum()
        && decimal::compare(n, min) == Ordering::Less
    {
        out.push(Violation::new(
            at,
            Keyword::Minimum,
            format!("{label} must be at least {min}"),
        ));
    }
    if let Some(max) = schema.maximum()
        && decimal::compare(n, max) == Ordering::Greater
    {
        out.push(Violation::new(
            at,
            Keyword::Maximum,
            format!("{label} must be at most {max}"),
        ));
    }
}

fn single_select_violations(
    label: &str,
    schema: &SingleSelectSchema,
    value: &Value,
    at: &str,
    out: &mut Vec<Violation>,
) {
    let Value::String(chosen) = value else {
        out.push(wrong_type(at, label, "one of the options", value));
        return;
    };
    if schema.option(chosen).is_none() {
        let keyword = match schema.shape() {
            EnumShape::Titled => Keyword::OneOf,
            _ => Keyword::Enum,
        };
        out.push(Violation::new(
            at,
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
    at: &str,
    out: &mut Vec<Violation>,
) {
    let Value::Array(items) = value else {
        out.push(wrong_type(at, label, "a list of options", value));
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
    for (i, item) in items.iter().enumerate() {
        let mut item_at = String::from(at);
        pointer::push_index(&mut item_at, i);
        let Value::String(chosen) = item else {
            out.push(wrong_type(&item_at, label, "a list of options", item));
            continue;
        };
        if schema.option(chosen).is_none() {
            out.push(Violation::new(
                item_at,
                keyword,
                format!(
                    "{label} choices must be among {}; {chosen:?} is not an option",
                    option_list(schema.options())
                ),
            ));
        } else if items.iter().take(i).any(|earlier| earlier == item) {
            out.push(Violation::new(
                item_at,
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
