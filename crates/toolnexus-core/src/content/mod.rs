//! Checking submitted content against its `requestedSchema`: every violation, not only the
//! first, and pre-filling defaults.
//!
//! The specification asks both sides to check `content` against `requestedSchema` and to
//! treat it as untrusted. [`validate_content`] applies the JSON Schema 2020-12 meaning of every
//! keyword an elicitation schema has, so its verdict is the one a JSON Schema validator gives
//! for the same schema with `additionalProperties: false` (the default, strict mode) and
//! `uniqueItems: true` on multi-selects, with the four formats as [`crate::schema::format`] defines
//! them:
//!
//! | property | keyword | rule |
//! |---|---|---|
//! | any declared | `required` | present (a `null` member is present, and is no content type) |
//! | undeclared member | `additionalProperties` | refused, unless [`ContentOptions::allow_unknown`] |
//! | undeclared member, allowed | `type` | a string, number, boolean or array of strings |
//! | string | `type`, `minLength`, `maxLength`, `format` | lengths count Unicode code points |
//! | number, integer | `type`, `minimum`, `maximum` | inclusive, compared exactly from the decimal spelling; an integer has no fractional part (`3.0` is one); a value beyond the range of a double is refused |
//! | boolean | `type` | |
//! | single-select | `type`, `enum` or `oneOf` | one of the options' values |
//! | multi-select | `type`, `minItems`, `maxItems`, `uniqueItems`, `enum` or `anyOf` | an array of distinct option values |
//!
//! Violations come in a fixed order: the schema's properties in schema order (for each, its
//! keywords in the order of the table), then `required` names that no property declares, then
//! undeclared members in content order.
//!
//! ```
//! use toolnexus_core::schema::RequestedSchema;
//! use toolnexus_core::content::{validate_content, ContentOptions};
//! use toolnexus_core::{json, Limits};
//!
//! let schema = RequestedSchema::from_value(&json::parse_str(
//!     r#"{"type":"object","properties":{"email":{"type":"string","format":"email"},
//!         "age":{"type":"integer","minimum":18}},"required":["email"]}"#,
//!     &Limits::DEFAULT,
//! )?)?;
//! let content = json::parse_str(r#"{"age":17.5,"nickname":"ada"}"#, &Limits::DEFAULT)?;
//! let found: Vec<_> = validate_content(&schema, &content, &ContentOptions::STRICT)
//!     .iter()
//!     .map(|v| (v.pointer().to_owned(), v.keyword().as_str()))
//!     .collect();
//! assert_eq!(found, [
//!     ("/email".to_owned(), "required"),
//!     ("/age".to_owned(), "type"),
//!     ("/age".to_owned(), "minimum"),
//!     ("/nickname".to_owned(), "additionalProperties"),
//! ]);
//! # Ok::<(), toolnexus_core::Error>(())
//! ```

mod value;

pub use value::{Content, ContentValue};

use alloc::format;
use alloc::vec::Vec;

pub use crate::error::{Keyword, Violation};
use crate::json::pointer;
use crate::json::{Map, Value};
use crate::schema::RequestedSchema;
use crate::schema::rules::At;

/// How strictly content is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ContentOptions {
    allow_unknown: bool,
}

impl ContentOptions {
    /// The default: content may hold only the properties the schema declares.
    pub const STRICT: ContentOptions = ContentOptions {
        allow_unknown: false,
    };

    /// These options, with members the schema does not declare accepted (as long as they
    /// hold a content type) or refused.
    pub const fn allow_unknown(self, allow: bool) -> ContentOptions {
        ContentOptions {
            allow_unknown: allow,
        }
    }

    /// Whether members the schema does not declare are accepted.
    pub const fn allows_unknown(&self) -> bool {
        self.allow_unknown
    }
}

/// Every way `content` breaks `schema`, in the order the [module](self) describes; empty when
/// the content is valid. Content that is not a JSON object is one `type` violation at `""`.
pub fn validate_content(
    schema: &RequestedSchema,
    content: &Value,
    options: &ContentOptions,
) -> Vec<Violation> {
    let mut out = Vec::new();
    let Value::Object(members) = content else {
        out.push(Violation::new(
            "",
            Keyword::Type,
            format!(
                "the content must be a JSON object, not {}",
                content.type_name()
            ),
        ));
        return out;
    };
    validate_members(schema, members, options, &mut out);
    out
}

/// Fills every property that `content` leaves absent from the property's `default`, in
/// schema order after the members already there; a present value is never replaced.
///
/// A member holding `null` counts as absent, as everywhere in this crate (and `null` is no
/// content type, so keeping it could only fail validation).
pub fn apply_defaults(schema: &RequestedSchema, content: &Map) -> Map {
    let mut filled = content.clone();
    fill_defaults(schema, &mut filled);
    filled
}

/// [`apply_defaults`] in place.
fn fill_defaults(schema: &RequestedSchema, content: &mut Map) {
    // For each property, where its member is and whether that holds a value.
    let places: Vec<Option<(usize, bool)>> = members_by_property(schema, content)
        .members
        .into_iter()
        .map(|member| member.map(|(i, value)| (i, !value.is_null())))
        .collect();
    for (at, (property, place)) in schema.properties().iter().zip(places).enumerate() {
        let absent = place.is_none_or(|(_, holds_value)| !holds_value);
        if !absent || schema.position(property.name()) != Some(at) {
            continue;
        }
        let Some(default) = property.default_value() else {
            continue;
        };
        match place.and_then(|(i, _)| content.value_at_mut(i)) {
            Some(slot) => *slot = default,
            // No member has the name (a look-up would have found it), so it goes last.
            None => content.push_distinct(property.name(), default),
        }
    }
}

/// The members of `content`, sorted out by the schema: for each property, where its member
/// is and the member's value (the first, should a key repeat), and the members no property
/// declares, in content order. One binary search per member: linear in the form's size, not
/// its square.
struct Found<'a> {
    members: Vec<Option<(usize, &'a Value)>>,
    undeclared: Vec<(&'a str, &'a Value)>,
}

fn members_by_property<'a>(schema: &RequestedSchema, content: &'a Map) -> Found<'a> {
    let mut found = Found {
        members: alloc::vec![None; schema.properties().len()],
        undeclared: Vec::new(),
    };
    let mut guess = 0;
    for (i, (name, value)) in content.iter().enumerate() {
        match schema.position_guessing(name, guess) {
            Some(at) => {
                guess = at.saturating_add(1);
                if let Some(slot) = found.members.get_mut(at)
                    && slot.is_none()
                {
                    *slot = Some((i, value));
                }
            }
            None => found.undeclared.push((name, value)),
        }
    }
    found
}

/// What a host sends back on accept: `content` with defaults filled in
/// ([`apply_defaults`]) and then checked ([`validate_content`]).
///
/// Defaults go in first, so a required property that has a default is satisfied by it.
/// Returns the completed content, or every violation of it.
pub fn prepare_content(
    schema: &RequestedSchema,
    content: &Value,
    options: &ContentOptions,
) -> Result<Map, Vec<Violation>> {
    let Value::Object(members) = content else {
        return Err(validate_content(schema, content, options));
    };
    check_members(schema, members.clone(), options, true)
}

/// The members of accepted content, with defaults filled in first when `fill_in` is set, if
/// they keep to `schema`; otherwise every violation. Takes the members to fill them in place.
pub(crate) fn check_members(
    schema: &RequestedSchema,
    mut members: Map,
    options: &ContentOptions,
    fill_in: bool,
) -> Result<Map, Vec<Violation>> {
    if fill_in {
        fill_defaults(schema, &mut members);
    }
    let mut violations = Vec::new();
    validate_members(schema, &members, options, &mut violations);
    if violations.is_empty() {
        Ok(members)
    } else {
        Err(violations)
    }
}

fn validate_members(
    schema: &RequestedSchema,
    members: &Map,
    options: &ContentOptions,
    out: &mut Vec<Violation>,
) {
    let found = members_by_property(schema, members);
    for (at, (property, member)) in schema.properties().iter().zip(&found.members).enumerate() {
        match member {
            Some((_, value)) => property.violations_at(value, At::Member(property.name()), out),
            None if schema.is_required_at(at) => out.push(Violation::new(
                pointer::key(property.name()),
                Keyword::Required,
                format!("{} is required", property.label()),
            )),
            None => {}
        }
    }

    // A `required` name that no property declares still has to be present (that is what the
    // keyword means); each name is reported once however often it is listed.
    let undeclared_required = schema.undeclared_required();
    if !undeclared_required.is_empty() {
        let mut present: Vec<&str> = found.undeclared.iter().map(|(name, _)| *name).collect();
        present.sort_unstable();
        for name in undeclared_required {
            if present.binary_search(&name.as_str()).is_err() {
                out.push(Violation::new(
                    pointer::key(name),
                    Keyword::Required,
                    format!("{name} is required"),
                ));
            }
        }
    }

    for &(name, value) in &found.undeclared {
        if !options.allows_unknown() {
            out.push(Violation::new(
                pointer::key(name),
                Keyword::AdditionalProperties,
                format!("{name} is not a field of this form"),
            ));
        } else if ContentValue::from_value(value).is_err() {
            out.push(Violation::new(
                pointer::key(name),
                Keyword::Type,
                format!(
                    "{name} must be text, a number, true or false, or a list of texts, not {}",
                    value.type_name()
                ),
            ));
        }
    }
}
