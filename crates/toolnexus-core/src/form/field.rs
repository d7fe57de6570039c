//! The fields of a form, and turning what a person typed into a field into content.
//!
//! [`form_fields`] reads a [`RequestedSchema`] into the ordered list of fields a SwiftUI view,
//! a Compose screen, a terminal prompt or a web page shows: a label, a widget, the options of a
//! select as (value, label) pairs whatever enum spelling the server used, the constraints to
//! show or enforce while typing, the default to start from, and whether the field seems to ask
//! for a secret ([`crate::form::secrets`]). [`parse_field_input`] turns the text typed into a field
//! into the typed value that content holds, or a message to show next to the field.
//!
//! ```
//! use toolnexus_core::form::{form_fields, parse_field_input, Widget};
//! use toolnexus_core::schema::RequestedSchema;
//! use toolnexus_core::{json, Limits, Value};
//!
//! let schema = RequestedSchema::from_value(&json::parse_str(
//!     r#"{"type":"object","properties":{
//!         "age":{"type":"integer","title":"Age","minimum":18},
//!         "size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]}},
//!         "required":["age"]}"#,
//!     &Limits::DEFAULT,
//! )?)?;
//! let fields = form_fields(&schema);
//! assert_eq!(fields[0].label(), "Age");
//! assert_eq!(fields[0].widget(), Widget::Integer);
//! assert_eq!(parse_field_input(&fields[0], " 42 ")?, Some(json::parse_str("42", &Limits::DEFAULT)?));
//! assert_eq!(parse_field_input(&fields[0], "17").unwrap_err().message(), "Age must be at least 18");
//! assert_eq!(parse_field_input(&fields[1], "large")?, Some(Value::from("l")));
//! # Ok::<(), toolnexus_core::Error>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::closed_set;
use crate::error::{Error, ErrorKind};
use crate::error::{Keyword, Violation};
use crate::form::secrets::{self, SecretKind};
use crate::json::pointer;
use crate::json::{Map, Number, Value};
use crate::schema::rules::At;
use crate::schema::{EnumOption, Property, PropertyKind, RequestedSchema, StringFormat};

closed_set! {
    /// The control a UI shows for a field; named in kebab case (`date-time`, `single-select`).
    #[non_exhaustive]
    pub enum Widget {
        /// Free text.
        Text => "text",
        /// An email address (`format: "email"`).
        Email => "email",
        /// An absolute URI (`format: "uri"`).
        Uri => "uri",
        /// A calendar date (`format: "date"`).
        Date => "date",
        /// A date and time with an offset (`format: "date-time"`).
        DateTime => "date-time",
        /// A number (`type: "number"`).
        Number => "number",
        /// A whole number (`type: "integer"`).
        Integer => "integer",
        /// Yes or no (`type: "boolean"`).
        Toggle => "toggle",
        /// One of a list of options.
        SingleSelect => "single-select",
        /// Any number of a list of options.
        MultiSelect => "multi-select",
    }
}

impl Widget {
    fn of(kind: &PropertyKind) -> Widget {
        match kind {
            PropertyKind::String(s) => match s.format() {
                None => Widget::Text,
                Some(StringFormat::Email) => Widget::Email,
                Some(StringFormat::Uri) => Widget::Uri,
                Some(StringFormat::Date) => Widget::Date,
                Some(StringFormat::DateTime) => Widget::DateTime,
            },
            PropertyKind::Number(n) if n.is_integer() => Widget::Integer,
            PropertyKind::Number(_) => Widget::Number,
            PropertyKind::Boolean(_) => Widget::Toggle,
            PropertyKind::SingleSelect(_) => Widget::SingleSelect,
            PropertyKind::MultiSelect(_) => Widget::MultiSelect,
        }
    }
}

/// One choice of a select field: the value content holds and the label to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldOption {
    value: String,
    label: String,
}

impl FieldOption {
    /// What content holds when this option is chosen.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// What to show: the option's title, or else its value.
    pub fn label(&self) -> &str {
        &self.label
    }
}

/// The limits a field's value must keep, for a UI to show or enforce while typing. Only the
/// ones that apply to the field's widget can be set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Constraints {
    min_length: Option<u64>,
    max_length: Option<u64>,
    minimum: Option<Number>,
    maximum: Option<Number>,
    min_items: Option<u64>,
    max_items: Option<u64>,
}

impl Constraints {
    /// The fewest characters (Unicode code points) text may have.
    pub fn min_length(&self) -> Option<u64> {
        self.min_length
    }

    /// The most characters (Unicode code points) text may have.
    pub fn max_length(&self) -> Option<u64> {
        self.max_length
    }

    /// The smallest number allowed (inclusive), spelt as in the schema.
    pub fn minimum(&self) -> Option<&Number> {
        self.minimum.as_ref()
    }

    /// The largest number allowed (inclusive), spelt as in the schema.
    pub fn maximum(&self) -> Option<&Number> {
        self.maximum.as_ref()
    }

    /// The fewest options a multi-select needs.
    pub fn min_items(&self) -> Option<u64> {
        self.min_items
    }

    /// The most options a multi-select allows.
    pub fn max_items(&self) -> Option<u64> {
        self.max_items
    }

    /// Whether no constraint is set.
    pub fn is_empty(&self) -> bool {
        *self == Constraints::default()
    }

    fn of(kind: &PropertyKind) -> Constraints {
        match kind {
            PropertyKind::String(s) => Constraints {
                min_length: s.min_length(),
                max_length: s.max_length(),
                ..Constraints::default()
            },
            PropertyKind::Number(n) => Constraints {
                minimum: n.minimum().cloned(),
                maximum: n.maximum().cloned(),
                ..Constraints::default()
            },
            PropertyKind::MultiSelect(m) => Constraints {
                min_items: m.min_items(),
                max_items: m.max_items(),
                ..Constraints::default()
            },
            PropertyKind::Boolean(_) | PropertyKind::SingleSelect(_) => Constraints::default(),
        }
    }

    /// The constraints as the JSON object `{"minLength", "maxLength", "minimum", "maximum",
    /// "minItems", "maxItems"}`, keys in that order, each present only when set.
    pub fn to_value(&self) -> Value {
        let count = |n: u64| Value::Number(Number::from(n));
        let mut map = Map::new();
        if let Some(n) = self.min_length {
            map.insert("minLength", count(n));
        }
        if let Some(n) = self.max_length {
            map.insert("maxLength", count(n));
        }
        if let Some(n) = &self.minimum {
            map.insert("minimum", Value::Number(n.clone()));
        }
        if let Some(n) = &self.maximum {
            map.insert("maximum", Value::Number(n.clone()));
        }
        if let Some(n) = self.min_items {
            map.insert("minItems", count(n));
        }
        if let Some(n) = self.max_items {
            map.insert("maxItems", count(n));
        }
        Value::Object(map)
    }
}

/// One field of a form, ready for a UI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormField {
    property: Property,
    required: bool,
    widget: Widget,
    options: Vec<FieldOption>,
    constraints: Constraints,
    sensitive: Option<SecretKind>,
}

impl FormField {
    /// The property's name: its key in content.
    pub fn name(&self) -> &str {
        self.property.name()
    }

    /// What to show as the field's label: the `title`, or else the name.
    pub fn label(&self) -> &str {
        self.property.label()
    }

    /// Longer help text, if the schema gives a `description`.
    pub fn description(&self) -> Option<&str> {
        self.property.description()
    }

    /// Whether the schema's `required` lists the field.
    pub fn required(&self) -> bool {
        self.required
    }

    /// The control to show.
    pub fn widget(&self) -> Widget {
        self.widget
    }

    /// The choices of a select, in schema order; empty for other widgets.
    pub fn options(&self) -> &[FieldOption] {
        &self.options
    }

    /// The limits the value must keep.
    pub fn constraints(&self) -> &Constraints {
        &self.constraints
    }

    /// The value to start from, as content would hold it, if the schema gives a `default`.
    pub fn default_value(&self) -> Option<Value> {
        self.property.default_value()
    }

    /// Whether the field seems to ask for a secret, which servers must not do in a form (see
    /// [`crate::form::secrets`] for the heuristic and its false positives).
    pub fn sensitive(&self) -> bool {
        self.sensitive.is_some()
    }

    /// What kind of secret the field seems to ask for, if it seems to ask for one.
    pub fn secret_kind(&self) -> Option<SecretKind> {
        self.sensitive
    }

    /// A short hint of the field's constraints and format, to show beside its label: `2–100
    /// characters`, `a whole number, 1–9`, `choose up to 3`, `an email address`; `None` when
    /// nothing constrains it.
    pub fn hint(&self) -> Option<String> {
        let parts: Vec<String> = [
            range_hint(self.widget, &self.constraints),
            format_hint(self.widget).map(String::from),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The typed property the field was read from.
    pub fn property(&self) -> &Property {
        &self.property
    }

    /// The field as a JSON object: `{"name", "label", "description"?, "required", "widget",
    /// "options"? [{"value", "label"}], "constraints"? {"minLength", "maxLength", "minimum",
    /// "maximum", "minItems", "maxItems"}, "default"?, "sensitive"}`, keys in that order,
    /// optional members present only when set (`options` for selects, `constraints` when
    /// one is set).
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("name", Value::from(self.name()));
        map.insert("label", Value::from(self.label()));
        if let Some(d) = self.description() {
            map.insert("description", Value::from(d));
        }
        map.insert("required", Value::Bool(self.required));
        map.insert("widget", Value::from(self.widget.as_str()));
        if matches!(self.widget, Widget::SingleSelect | Widget::MultiSelect) {
            let options = self
                .options
                .iter()
                .map(|o| {
                    let mut option = Map::new();
                    option.insert("value", Value::from(o.value()));
                    option.insert("label", Value::from(o.label()));
                    Value::Object(option)
                })
                .collect();
            map.insert("options", Value::Array(options));
        }
        if !self.constraints.is_empty() {
            map.insert("constraints", self.constraints.to_value());
        }
        if let Some(default) = self.default_value() {
            map.insert("default", default);
        }
        map.insert("sensitive", Value::Bool(self.sensitive.is_some()));
        Value::Object(map)
    }
}

pub(crate) fn range_hint(widget: Widget, c: &Constraints) -> Option<String> {
    match widget {
        Widget::Number | Widget::Integer => match (c.minimum(), c.maximum()) {
            (Some(lo), Some(hi)) => Some(format!("{lo}–{hi}")),
            (Some(lo), None) => Some(format!("at least {lo}")),
            (None, Some(hi)) => Some(format!("at most {hi}")),
            (None, None) => None,
        }
        .map(|range| {
            if widget == Widget::Integer {
                format!("a whole number, {range}")
            } else {
                range
            }
        })
        .or_else(|| (widget == Widget::Integer).then(|| String::from("a whole number"))),
        Widget::MultiSelect => match (c.min_items(), c.max_items()) {
            (Some(lo), Some(hi)) if lo == hi => Some(format!("choose {lo}")),
            (Some(0) | None, Some(hi)) => Some(format!("choose up to {hi}")),
            (Some(lo), Some(hi)) => Some(format!("choose {lo}–{hi}")),
            (Some(lo), None) => Some(format!("choose at least {lo}")),
            (None, None) => None,
        },
        _ => match (c.min_length(), c.max_length()) {
            (Some(lo), Some(hi)) if lo == hi => Some(characters(lo)),
            (Some(lo), Some(hi)) => Some(format!("{lo}–{}", characters(hi))),
            (Some(lo), None) => Some(format!("at least {}", characters(lo))),
            (None, Some(hi)) => Some(format!("at most {}", characters(hi))),
            (None, None) => None,
        },
    }
}

fn characters(n: u64) -> String {
    if n == 1 {
        String::from("1 character")
    } else {
        format!("{n} characters")
    }
}

fn format_hint(widget: Widget) -> Option<&'static str> {
    Some(match widget {
        Widget::Email => "an email address",
        Widget::Uri => "an absolute URI, like https://example.com",
        Widget::Date => "a date, YYYY-MM-DD",
        Widget::DateTime => "a date and time, like 2026-12-01T17:30:00Z",
        _ => return None,
    })
}

/// The fields of `schema`'s form, in the order of its properties.
pub fn form_fields(schema: &RequestedSchema) -> Vec<FormField> {
    form_fields_judged(schema, &secrets::secret_in_property)
}

/// [`form_fields`] with what `judge` finds each property asks for as its secret kind: the
/// heuristic, or the findings a snapshot carries.
pub(crate) fn form_fields_judged(
    schema: &RequestedSchema,
    judge: &dyn Fn(&Property) -> Option<SecretKind>,
) -> Vec<FormField> {
    schema
        .properties()
        .iter()
        .map(|property| {
            let kind = property.kind();
            let options = match kind {
                PropertyKind::SingleSelect(s) => field_options(s.options()),
                PropertyKind::MultiSelect(m) => field_options(m.options()),
                _ => Vec::new(),
            };
            FormField {
                required: schema.is_required(property.name()),
                widget: Widget::of(kind),
                options,
                constraints: Constraints::of(kind),
                sensitive: judge(property),
                property: property.clone(),
            }
        })
        .collect()
}

fn field_options(options: &[EnumOption]) -> Vec<FieldOption> {
    options
        .iter()
        .map(|o| FieldOption {
            value: String::from(o.value()),
            label: String::from(o.label()),
        })
        .collect()
}

/// Turns what a person typed into `field` into the value content holds.
///
/// - `Ok(None)`: the text is blank (only white space) and the field is optional or has a
///   default: leave it out of the content ([`prepare_content`](crate::content::prepare_content)
///   fills in the default).
/// - `Ok(Some(value))`: the typed value, which keeps every constraint of the field.
/// - `Err`: [`ErrorKind::MissingField`] for blank text in a required field without a
///   default, else
///   [`ErrorKind::InvalidValue`]; the pointer is the field's (`/age`) and the message is
///   meant to be shown next to it.
///
/// How text is read, by widget:
///
/// | widget | accepted text |
/// |---|---|
/// | text | kept exactly as typed, white space included |
/// | email, uri, date, date-time | trimmed, then checked against the format |
/// | number | trimmed; a JSON number, with an optional leading `+` |
/// | integer | trimmed; digits with an optional sign (`42`, `-7`, `+3`); leading zeros dropped |
/// | toggle | trimmed, any case: `true`/`false`, `yes`/`no`, `y`/`n`, `on`/`off`, `1`/`0` |
/// | single-select | trimmed; an option's value, else its label, else either ignoring case when that picks exactly one option |
/// | multi-select | a comma-separated list, each item read as for a single-select; blank items and repeats dropped |
pub fn parse_field_input(field: &FormField, text: &str) -> Result<Option<Value>, Error> {
    read_field_input(field, text).map_err(|v| {
        let kind = if v.keyword() == Keyword::Required {
            ErrorKind::MissingField
        } else {
            ErrorKind::InvalidValue
        };
        Error::new(kind, v.pointer(), v.message())
    })
}

/// `text` without the whitespace around it, as [`str::trim`] gives it: a text that starts and
/// ends with a visible ASCII character, as most do, is given back without a look inside.
pub(crate) fn trim(text: &str) -> &str {
    match (text.as_bytes().first(), text.as_bytes().last()) {
        (Some(first), Some(last)) if first.is_ascii_graphic() && last.is_ascii_graphic() => text,
        _ => text.trim(),
    }
}

/// [`parse_field_input`] with its refusal as the [`Violation`] content validation would give:
/// `required` for blank text in a required field without a default, `type` for text the
/// widget cannot read, else the first rule the value breaks.
pub(crate) fn read_field_input(field: &FormField, text: &str) -> Result<Option<Value>, Violation> {
    // Pointers are written only for a refusal: reading a valid value allocates none.
    let at = || pointer::key(field.name());
    let label = field.label();
    let trimmed = trim(text);
    if trimmed.is_empty() {
        // A default fills a field left blank (see `validate::prepare_content`), so only a
        // required field without one is missing.
        return if field.required && field.property.default_value().is_none() {
            Err(Violation::new(
                at(),
                Keyword::Required,
                format!("{label} is required"),
            ))
        } else {
            Ok(None)
        };
    }
    let value = read_text(field, text, trimmed)
        .map_err(|message| Violation::new(at(), Keyword::Type, message))?;
    field.first_violation(&value).map_or(Ok(Some(value)), Err)
}

impl FormField {
    /// The first rule `value` breaks, if it breaks one, at the field's pointer.
    pub(crate) fn first_violation(&self, value: &Value) -> Option<Violation> {
        let mut violations: Vec<Violation> = Vec::new();
        self.property
            .violations_at(value, At::Member(self.name()), &mut violations);
        violations.into_iter().next()
    }
}

/// Reads `text` (`trimmed` without its white space around it) as the widget's kind of value;
/// the error is a message for the person.
fn read_text(field: &FormField, text: &str, trimmed: &str) -> Result<Value, String> {
    let label = field.label();
    match field.widget {
        Widget::Text => Ok(Value::from(text)),
        Widget::Email | Widget::Uri | Widget::Date | Widget::DateTime => Ok(Value::from(trimmed)),
        Widget::Number => {
            let spelling = trimmed.strip_prefix('+').unwrap_or(trimmed);
            Number::from_spelling(spelling)
                .map(Value::Number)
                .ok_or_else(|| format!("{label} must be a number, such as 42 or 3.5"))
        }
        Widget::Integer => read_integer(trimmed)
            .map(Value::Number)
            .ok_or_else(|| format!("{label} must be a whole number, such as 42")),
        Widget::Toggle => read_toggle(trimmed)
            .map(Value::Bool)
            .ok_or_else(|| format!("{label} must be yes or no (true or false)")),
        Widget::SingleSelect => pick_option(&field.options, trimmed)
            .map(|o| Value::from(o.value()))
            .ok_or_else(|| not_an_option(label, &field.options, trimmed)),
        Widget::MultiSelect => {
            let mut chosen: Vec<Value> = Vec::new();
            for item in trimmed.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let option = pick_option(&field.options, item)
                    .ok_or_else(|| not_an_option(label, &field.options, item))?;
                let value = Value::from(option.value());
                if !chosen.contains(&value) {
                    chosen.push(value);
                }
            }
            Ok(Value::Array(chosen))
        }
    }
}

/// An optional sign and digits, as a canonical JSON integer (`+007` → `7`, `-0` → `0`).
fn read_integer(text: &str) -> Option<Number> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Number::from_spelling("0");
    }
    let spelling = if negative {
        format!("-{digits}")
    } else {
        String::from(digits)
    };
    Number::from_spelling(&spelling)
}

fn read_toggle(text: &str) -> Option<bool> {
    const YES: [&str; 5] = ["true", "yes", "y", "on", "1"];
    const NO: [&str; 5] = ["false", "no", "n", "off", "0"];
    if YES.iter().any(|w| w.eq_ignore_ascii_case(text)) {
        Some(true)
    } else if NO.iter().any(|w| w.eq_ignore_ascii_case(text)) {
        Some(false)
    } else {
        None
    }
}

/// The option `text` names: by exact value, then exact label, then by value or label
/// ignoring case when that matches exactly one option.
fn pick_option<'a>(options: &'a [FieldOption], text: &str) -> Option<&'a FieldOption> {
    if let Some(o) = options.iter().find(|o| o.value == text) {
        return Some(o);
    }
    if let Some(o) = options.iter().find(|o| o.label == text) {
        return Some(o);
    }
    let folded = text.to_lowercase();
    let mut matches = options
        .iter()
        .filter(|o| o.value.to_lowercase() == folded || o.label.to_lowercase() == folded);
    match (matches.next(), matches.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

fn not_an_option(label: &str, options: &[FieldOption], text: &str) -> String {
    const SHOWN: usize = 8;
    let mut list = String::new();
    for (i, o) in options.iter().take(SHOWN).enumerate() {
        if i > 0 {
            list.push_str(", ");
        }
        list.push_str(o.label());
    }
    if options.len() > SHOWN {
        list.push_str(", …");
    }
    format!("{label}: {text:?} is not one of the options ({list})")
}

#[cfg(test)]
mod tests {
    use super::trim;

    #[test]
    fn trim_is_str_trim() {
        for text in [
            "",
            " ",
            "a",
            " a",
            "a ",
            "\ta\n",
            "a b",
            "\u{a0}a",
            "a\u{2003}",
            "é",
            "aé",
            "éa",
            "\u{3000}x\u{3000}",
            "~x!",
            "x\u{85}",
        ] {
            assert_eq!(trim(text), text.trim(), "{text:?}");
        }
    }
}
