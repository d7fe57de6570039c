//! `check_schema`: every problem with a `requestedSchema`, each with a kind, a JSON pointer and
//! a message, so that a host can refuse or repair a form before a person sees it.
//!
//! [`RequestedSchema::from_value`](crate::schema::RequestedSchema::from_value) is the lenient
//! typed reading: it stops at the first problem and ignores whatever it does not need. This is
//! the strict check of everything a server sent. It never stops early and never panics, and
//! it lists problems in a fixed order, so that every run and every binding reports the same
//! list:
//!
//! 1. the root: `$schema`, `type`, `properties`, `required` (item by item),
//!    `additionalProperties`, then every other validation keyword in the order written;
//! 2. each property in the order written: `type`, `title`, `description`, the keywords of its
//!    shape in the order below, `default`, then every validation keyword the shape does not
//!    have, in the order written.
//!
//! | shape | its keywords, in checking order |
//! |---|---|
//! | free text | `minLength`, `maxLength` (then their order), `format` |
//! | number, integer | `minimum`, `maximum` (then their order) |
//! | boolean | — |
//! | single-select | `enum` then `enumNames`, or `oneOf` (each option: `const`, `title`) |
//! | multi-select | `minItems`, `maxItems` (then their order, and `minItems` against the number of options), `items` (`type`, `enum` or `anyOf`, then its other validation keywords), `uniqueItems` |
//!
//! ```
//! use toolnexus_core::check::{check_schema, SchemaProblemKind};
//! use toolnexus_core::{json, Limits};
//!
//! let schema = json::parse_str(
//!     r#"{"type":"object","properties":{"age":{"type":"integer","minimum":18,"maximum":12}},"required":["name"]}"#,
//!     &Limits::DEFAULT,
//! )?;
//! let problems = check_schema(&schema);
//! let found: Vec<_> = problems.iter().map(|p| (p.kind(), p.pointer())).collect();
//! assert_eq!(
//!     found,
//!     [
//!         (SchemaProblemKind::UnknownRequired, "/required/0"),
//!         (SchemaProblemKind::ContradictoryBounds, "/properties/age/minimum"),
//!     ]
//! );
//! # Ok::<(), toolnexus_core::Error>(())
//! ```
//!
//! # What counts as a problem
//!
//! - A member whose value is `null` counts as absent, as everywhere in this crate.
//! - Keywords that do not take part in validation are ignored wherever they are: annotations
//!   (`examples`, `deprecated`, `readOnly`, `$comment`, `$id`…), extensions (`x-…`), and
//!   `$defs`/`definitions`, which change nothing unless a `$ref` uses them (every `$ref` is
//!   reported).
//! - A validation keyword that the shape at hand does not have is reported only where it
//!   would take effect. JSON Schema applies most keywords to one JSON type: `minLength` on a
//!   number property changes nothing and is ignored, while on a single-select (a string) it
//!   would refuse some of the options and is reported. One table in this module's source,
//!   `VALIDATION_KEYWORDS`, lists every such keyword with the JSON type it constrains:
//!   references and composition (`$ref`, `$dynamicRef`, `allOf`, `anyOf`, `oneOf`, `not`,
//!   `if`/`then`/`else`), `const` and `enum`, the number keywords (`minimum`,
//!   `exclusiveMinimum`, `multipleOf`…), the string keywords (`minLength`, `pattern`,
//!   `format`, `contentEncoding`…), the array keywords (`items`, `prefixItems`, `contains`,
//!   `minItems`…) and the object keywords (`properties`, `patternProperties`,
//!   `dependentRequired`, `minProperties`…).
//! - A boolean `additionalProperties` on the root is accepted (whether content may carry
//!   members the form does not ask for is the validator's option); a schema there is not.
//! - `uniqueItems` on a multi-select may be either boolean: a selection never repeats an
//!   option, so neither value changes what a person can submit.
//! - `title` and `description` must be strings on a property and `title` on a `{const,
//!   title}` option; the root's are annotations nobody shows, and are not checked.
//! - An empty `properties` is fine (a form that only asks for confirmation), and so is an empty
//!   property name (JSON allows it; its pointer is `/properties/`).
//! - A property with no usable shape (no `type`, a `type` of the wrong JSON type or one no
//!   elicitation property has) gets that problem, any with `title` and `description`, and any
//!   keyword that would take effect whatever the type (`$ref`, `anyOf`, `const`…); its other
//!   keywords mean nothing until it has a shape.
//! - An `integer` property whose bounds admit no integer (`minimum` 1.2, `maximum` 1.8) has
//!   contradictory bounds, like a `minimum` above its `maximum`: nothing could be entered.
//! - A `default` is judged against the property's keywords that are well-formed, except bounds
//!   that contradict each other and an empty list of options: those are reported already, and
//!   no default could satisfy them.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use crate::decimal;
use crate::fields::type_name;
use crate::pointer;
use crate::schema::{Property, StringFormat};
use crate::validate;
use crate::value::{Map, Number, Value};

/// What is wrong with a schema, as a stable machine-readable kind.
///
/// The snake_case name ([`SchemaProblemKind::as_str`]) is what every binding exposes and the
/// conformance suite expects; it never changes for an existing kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemaProblemKind {
    /// A keyword holds the wrong JSON type (`"title": 5`, `"properties": []`, an item of
    /// `required` that is not a string), a property is not an object, or the schema itself is
    /// not an object.
    WrongType,
    /// A keyword the shape needs is absent: `type` on the root or a property, `properties`,
    /// `items` on a multi-select, `const` or `title` on a `{const, title}` option.
    MissingKeyword,
    /// A keyword has the right JSON type but a value it cannot have: a root `type` other than
    /// `"object"`, a length or count that is negative or fractional.
    InvalidValue,
    /// A property is none of the elicitation shapes: a nested object, a `type` list, an unknown
    /// type, an array of anything but options, a string with both `enum` and `oneOf`.
    UnsupportedShape,
    /// A JSON Schema keyword that would change validation but that an elicitation schema does
    /// not have (`$ref`, `allOf`, `pattern`, `const` on a property…).
    UnsupportedKeyword,
    /// `required` names a property that `properties` does not define.
    UnknownRequired,
    /// The same value appears twice where values must be distinct: names in `required`,
    /// options of a select.
    DuplicateValue,
    /// A select has no options to choose from.
    EmptyEnum,
    /// `enumNames` does not give exactly one title per `enum` value.
    EnumNamesLength,
    /// Bounds leave nothing to enter: a minimum above its maximum, an `integer` range without
    /// an integer, more items to choose than there are options.
    ContradictoryBounds,
    /// A `default` that its own property would refuse.
    InvalidDefault,
    /// A string `format` other than `email`, `uri`, `date` and `date-time`.
    UnknownFormat,
}

impl SchemaProblemKind {
    /// Every kind, in declaration order.
    pub const ALL: [SchemaProblemKind; 12] = [
        SchemaProblemKind::WrongType,
        SchemaProblemKind::MissingKeyword,
        SchemaProblemKind::InvalidValue,
        SchemaProblemKind::UnsupportedShape,
        SchemaProblemKind::UnsupportedKeyword,
        SchemaProblemKind::UnknownRequired,
        SchemaProblemKind::DuplicateValue,
        SchemaProblemKind::EmptyEnum,
        SchemaProblemKind::EnumNamesLength,
        SchemaProblemKind::ContradictoryBounds,
        SchemaProblemKind::InvalidDefault,
        SchemaProblemKind::UnknownFormat,
    ];

    /// The stable snake_case name of this kind.
    pub const fn as_str(self) -> &'static str {
        match self {
            SchemaProblemKind::WrongType => "wrong_type",
            SchemaProblemKind::MissingKeyword => "missing_keyword",
            SchemaProblemKind::InvalidValue => "invalid_value",
            SchemaProblemKind::UnsupportedShape => "unsupported_shape",
            SchemaProblemKind::UnsupportedKeyword => "unsupported_keyword",
            SchemaProblemKind::UnknownRequired => "unknown_required",
            SchemaProblemKind::DuplicateValue => "duplicate_value",
            SchemaProblemKind::EmptyEnum => "empty_enum",
            SchemaProblemKind::EnumNamesLength => "enum_names_length",
            SchemaProblemKind::ContradictoryBounds => "contradictory_bounds",
            SchemaProblemKind::InvalidDefault => "invalid_default",
            SchemaProblemKind::UnknownFormat => "unknown_format",
        }
    }

    /// The kind with this snake_case name, if there is one.
    pub fn from_name(name: &str) -> Option<SchemaProblemKind> {
        SchemaProblemKind::ALL
            .into_iter()
            .find(|k| k.as_str() == name)
    }
}

impl fmt::Display for SchemaProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem with a schema: its [`kind`](SchemaProblem::kind), the JSON pointer
/// ([RFC 6901]) of the keyword at fault relative to the schema root, and a message that says
/// what is wrong and how to put it right.
///
/// For an absent keyword the pointer names where it belongs (`/properties/age/type`).
///
/// [RFC 6901]: https://www.rfc-editor.org/rfc/rfc6901
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    kind: SchemaProblemKind,
    pointer: String,
    message: String,
}

impl SchemaProblem {
    /// What is wrong.
    pub fn kind(&self) -> SchemaProblemKind {
        self.kind
    }

    /// Where: an RFC 6901 JSON pointer into the schema (`""` is the schema itself).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// What is wrong and how to fix it, in words.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The problem as the JSON object `{"kind", "pointer", "message"}`, in that order.
    pub fn to_value(&self) -> Value {
        [
            ("kind", Value::from(self.kind.as_str())),
            ("pointer", Value::from(self.pointer.as_str())),
            ("message", Value::from(self.message.as_str())),
        ]
        .into_iter()
        .collect::<Map>()
        .into()
    }
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.kind, self.message)
        } else {
            write!(f, "{} at {}: {}", self.kind, self.pointer, self.message)
        }
    }
}

/// Every problem with `schema` as an MCP `requestedSchema`, in the order described in the
/// [module documentation](self); empty when the schema is well-formed.
pub fn check_schema(schema: &Value) -> Vec<SchemaProblem> {
    let mut out = Problems::default();
    match schema {
        Value::Object(root) => check_root(root, &mut out),
        other => out.add(
            SchemaProblemKind::WrongType,
            String::new(),
            format!(
                "a requestedSchema must be a JSON object such as {{\"type\": \"object\", \
                 \"properties\": {{...}}}}, not {}",
                type_name(other)
            ),
        ),
    }
    out.0
}

/// The JSON types an instance can have, for deciding where a validation keyword takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Instance {
    String,
    Number,
    Boolean,
    Array,
    Object,
}

/// A JSON Schema validation keyword: where it takes effect and what to write instead.
#[derive(Debug, Clone, Copy)]
struct ValidationKeyword {
    name: &'static str,
    /// The JSON type the keyword constrains; `None` for every type.
    applies_to: Option<Instance>,
    /// How to do without it.
    advice: &'static str,
}

const fn keyword(
    name: &'static str,
    applies_to: Option<Instance>,
    advice: &'static str,
) -> ValidationKeyword {
    ValidationKeyword {
        name,
        applies_to,
        advice,
    }
}

const ANY: Option<Instance> = None;
const STRING: Option<Instance> = Some(Instance::String);
const NUMBER: Option<Instance> = Some(Instance::Number);
const ARRAY: Option<Instance> = Some(Instance::Array);
const OBJECT: Option<Instance> = Some(Instance::Object);

// What to write instead, shared by keywords of one family.
const REFERENCES: &str = "references are not followed; write each property out in full";
const COMBINED: &str =
    "schemas are not combined; write each property as one of the elicitation shapes";
const ANY_OF: &str = "`anyOf` only lists the options of a titled multi-select \
                      (`items: {anyOf: [{const, title}]}`); to let a person leave a field empty, \
                      leave it out of `required`";
const ONE_OF: &str = "`oneOf` only lists the options of a titled single-select \
                      (`{type: \"string\", oneOf: [{const, title}]}`); a titled multi-select \
                      lists them in `items.anyOf`";
const NEGATED: &str = "negated schemas are not supported; validate such rules on the server";
const CONDITIONAL: &str =
    "conditional schemas are not supported; ask in two steps or validate on the server";
const CONST: &str = "a field with one allowed value asks nothing; drop it, or use a \
                     single-select with one option";
const ENUM: &str = "`enum` lists options only on a `type: \"string\"` property or in a \
                    multi-select's `items`";
const BOUNDS: &str = "`minimum` and `maximum` bound number and integer properties only";
const EXCLUSIVE: &str = "bounds are inclusive; use `minimum` and `maximum`";
const STEPS: &str = "steps are not supported; use `type: \"integer\"` or validate on the server";
const LENGTHS: &str = "lengths bound free-text string properties only; the options of a select \
                       are the allowed values";
const FORMAT: &str = "`format` applies to free-text string properties only; the options of a \
                      select are the allowed values";
const PATTERN: &str = "patterns are not supported; use a `format` (email, uri, date, date-time) \
                       or validate on the server";
const ENCODED: &str = "a string property holds plain text, not encoded content";
const ITEMS_ONLY: &str = "`items` belongs to a multi-select (`type: \"array\"`) only";
const TUPLES: &str = "tuples are not supported; a multi-select lists its options in `items`";
const UNEVALUATED_ITEMS: &str = "a multi-select's options are exactly those of its `items`";
const CONTAINS: &str = "`contains` is not supported; use `minItems` and `maxItems`";
const COUNTS: &str = "item counts bound multi-select properties only";
const UNIQUE: &str = "`uniqueItems` belongs to a multi-select only";
const NESTED: &str = "nested objects are not supported; list every field in the root `properties`";
const REQUIRED: &str = "list required fields in the root `required` array";
const ADDITIONAL: &str = "only `true` or `false` is allowed: members the form does not ask for \
                          are either accepted or refused";
const FIXED_MEMBERS: &str = "the members of a form are exactly those of `properties`, required \
                             or not as `required` says";
const DEPENDENT: &str =
    "fields cannot depend on each other; ask in two steps or validate on the server";

/// Every JSON Schema keyword (2020-12, with the earlier drafts' spellings) that can change
/// what validation accepts, with the JSON type it constrains.
///
/// An elicitation schema has a few of them at each place (see `Context`); any other one found
/// where it would take effect is a [`SchemaProblemKind::UnsupportedKeyword`], because a host
/// that builds the form from the elicitation shapes would accept what the server's own
/// validation then refuses. `then` and `else` are listed although they do nothing without
/// `if`: a server that writes them expects a conditional.
const VALIDATION_KEYWORDS: &[ValidationKeyword] = &[
    keyword("$ref", ANY, REFERENCES),
    keyword("$dynamicRef", ANY, REFERENCES),
    keyword("$recursiveRef", ANY, REFERENCES),
    keyword("allOf", ANY, COMBINED),
    keyword("anyOf", ANY, ANY_OF),
    keyword("oneOf", ANY, ONE_OF),
    keyword("not", ANY, NEGATED),
    keyword("if", ANY, CONDITIONAL),
    keyword("then", ANY, CONDITIONAL),
    keyword("else", ANY, CONDITIONAL),
    keyword("const", ANY, CONST),
    keyword("enum", ANY, ENUM),
    keyword("minimum", NUMBER, BOUNDS),
    keyword("maximum", NUMBER, BOUNDS),
    keyword("exclusiveMinimum", NUMBER, EXCLUSIVE),
    keyword("exclusiveMaximum", NUMBER, EXCLUSIVE),
    keyword("multipleOf", NUMBER, STEPS),
    keyword("divisibleBy", NUMBER, STEPS),
    keyword("minLength", STRING, LENGTHS),
    keyword("maxLength", STRING, LENGTHS),
    keyword("format", STRING, FORMAT),
    keyword("pattern", STRING, PATTERN),
    keyword("contentEncoding", STRING, ENCODED),
    keyword("contentMediaType", STRING, ENCODED),
    keyword("contentSchema", STRING, ENCODED),
    keyword("items", ARRAY, ITEMS_ONLY),
    keyword("prefixItems", ARRAY, TUPLES),
    keyword("additionalItems", ARRAY, TUPLES),
    keyword("unevaluatedItems", ARRAY, UNEVALUATED_ITEMS),
    keyword("contains", ARRAY, CONTAINS),
    keyword("minContains", ARRAY, CONTAINS),
    keyword("maxContains", ARRAY, CONTAINS),
    keyword("minItems", ARRAY, COUNTS),
    keyword("maxItems", ARRAY, COUNTS),
    keyword("uniqueItems", ARRAY, UNIQUE),
    keyword("properties", OBJECT, NESTED),
    keyword("required", OBJECT, REQUIRED),
    keyword("additionalProperties", OBJECT, ADDITIONAL),
    keyword("patternProperties", OBJECT, FIXED_MEMBERS),
    keyword("propertyNames", OBJECT, FIXED_MEMBERS),
    keyword("unevaluatedProperties", OBJECT, FIXED_MEMBERS),
    keyword("minProperties", OBJECT, FIXED_MEMBERS),
    keyword("maxProperties", OBJECT, FIXED_MEMBERS),
    keyword("dependentRequired", OBJECT, DEPENDENT),
    keyword("dependentSchemas", OBJECT, DEPENDENT),
    keyword("dependencies", OBJECT, DEPENDENT),
];

/// A place in the schema where validation keywords are checked: what it is (for messages),
/// the JSON type its instances have, and the validation keywords its shape has.
struct Context {
    what: &'static str,
    /// `None` when the shape is unknown: then only keywords for every type are checked.
    instance: Option<Instance>,
    own: &'static [&'static str],
}

const ROOT: Context = Context {
    what: "the root of an elicitation schema",
    instance: Some(Instance::Object),
    own: &["type", "properties", "required", "additionalProperties"],
};

const ITEMS: Context = Context {
    what: "the `items` of a multi-select",
    instance: Some(Instance::String),
    own: &["type", "enum", "anyOf"],
};

/// Which elicitation shape a property has, decided by its `type` (and, for strings, by
/// `enum` or `oneOf`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Text,
    Number,
    Integer,
    Boolean,
    SingleSelect,
    MultiSelect,
    /// No usable `type`, or one that no elicitation property has.
    Unknown,
}

impl Shape {
    fn context(self) -> Context {
        match self {
            Shape::Text => Context {
                what: "a free-text string property",
                instance: Some(Instance::String),
                own: &["type", "minLength", "maxLength", "format"],
            },
            Shape::Number => Context {
                what: "a number property",
                instance: Some(Instance::Number),
                own: &["type", "minimum", "maximum"],
            },
            Shape::Integer => Context {
                what: "an integer property",
                instance: Some(Instance::Number),
                own: &["type", "minimum", "maximum"],
            },
            Shape::Boolean => Context {
                what: "a boolean property",
                instance: Some(Instance::Boolean),
                own: &["type"],
            },
            Shape::SingleSelect => Context {
                what: "a single-select property",
                instance: Some(Instance::String),
                own: &["type", "enum", "oneOf"],
            },
            Shape::MultiSelect => Context {
                what: "a multi-select property",
                instance: Some(Instance::Array),
                own: &["type", "items", "minItems", "maxItems", "uniqueItems"],
            },
            // `enum` and `oneOf` make a select once `type` is fixed, so they are not blamed
            // for a missing type.
            Shape::Unknown => Context {
                what: "an elicitation property",
                instance: None,
                own: &["type", "enum", "oneOf"],
            },
        }
    }
}

/// The problems found so far, in order.
#[derive(Default)]
struct Problems(Vec<SchemaProblem>);

impl Problems {
    fn add(&mut self, kind: SchemaProblemKind, pointer: String, message: String) {
        self.0.push(SchemaProblem {
            kind,
            pointer,
            message,
        });
    }

    fn wrong_type(&mut self, pointer: String, what: &str, expected: &str, found: &Value) {
        self.add(
            SchemaProblemKind::WrongType,
            pointer,
            format!("{what} must be {expected}, not {}", type_name(found)),
        );
    }
}

/// The member `key` of `map`, unless it is absent or `null`.
fn member<'a>(map: &'a Map, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

/// The pointer of the member `key` of the value at `at`.
fn child(at: &str, key: &str) -> String {
    let mut p = String::from(at);
    pointer::push_key(&mut p, key);
    p
}

/// The pointer of item `index` of the array at `at`.
fn item(at: &str, index: usize) -> String {
    let mut p = String::from(at);
    pointer::push_index(&mut p, index);
    p
}

/// `text` quoted for a message, cut short if long: names and values come from the server.
fn quote(text: &str) -> String {
    const MAX_CHARS: usize = 60;
    match text.char_indices().nth(MAX_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}…", text.get(..cut).unwrap_or_default()),
    }
}

/// The number `n` as a JSON number.
fn count_number(n: usize) -> Number {
    Number::from(u64::try_from(n).unwrap_or(u64::MAX))
}

fn check_root(root: &Map, out: &mut Problems) {
    if let Some(uri) = member(root, "$schema") {
        if !uri.is_string() {
            out.wrong_type(
                pointer::key("$schema"),
                "`$schema`",
                "a string (the URI of the JSON Schema dialect)",
                uri,
            );
        }
    }

    match member(root, "type") {
        None => out.add(
            SchemaProblemKind::MissingKeyword,
            pointer::key("type"),
            String::from("`type` is required on the root and must be \"object\""),
        ),
        Some(Value::String(ty)) if ty == "object" => {}
        Some(Value::String(ty)) => out.add(
            SchemaProblemKind::InvalidValue,
            pointer::key("type"),
            format!(
                "the root `type` must be \"object\", not {}: a form is an object of fields",
                quote(ty)
            ),
        ),
        Some(Value::Array(_)) => out.add(
            SchemaProblemKind::InvalidValue,
            pointer::key("type"),
            String::from(
                "the root `type` must be the single type \"object\", not a list: a form is an \
                 object of fields",
            ),
        ),
        Some(other) => out.wrong_type(pointer::key("type"), "`type`", "\"object\"", other),
    }

    let properties = match member(root, "properties") {
        None => {
            out.add(
                SchemaProblemKind::MissingKeyword,
                pointer::key("properties"),
                String::from(
                    "`properties` is required: an object of fields, or {} for a form that only \
                     asks for confirmation",
                ),
            );
            None
        }
        Some(Value::Object(map)) => Some(map),
        Some(other) => {
            out.wrong_type(
                pointer::key("properties"),
                "`properties`",
                "an object mapping each field name to its schema",
                other,
            );
            None
        }
    };

    if let Some(required) = member(root, "required") {
        check_required(required, properties, out);
    }

    if let Some(extra) = member(root, "additionalProperties") {
        if !extra.is_boolean() {
            out.add(
                SchemaProblemKind::UnsupportedKeyword,
                pointer::key("additionalProperties"),
                format!(
                    "`additionalProperties` must be true or false on the root, not {}: \
                     members the form does not ask for are either accepted or refused",
                    type_name(extra)
                ),
            );
        }
    }

    check_keywords(root, "", &ROOT, out);

    for (name, value) in properties.into_iter().flat_map(Map::iter) {
        check_property(name, value, out);
    }
}

fn check_required(required: &Value, properties: Option<&Map>, out: &mut Problems) {
    let at = pointer::key("required");
    let Value::Array(names) = required else {
        out.wrong_type(at, "`required`", "an array of property names", required);
        return;
    };
    let defined: Option<BTreeSet<&str>> =
        properties.map(|p| p.keys().map(String::as_str).collect());
    let mut seen = BTreeSet::new();
    for (i, name) in names.iter().enumerate() {
        let Value::String(name) = name else {
            out.wrong_type(
                item(&at, i),
                &format!("`required` item {i}"),
                "a property name (a string)",
                name,
            );
            continue;
        };
        if !seen.insert(name.as_str()) {
            out.add(
                SchemaProblemKind::DuplicateValue,
                item(&at, i),
                format!(
                    "`required` names {} twice; list each property once",
                    quote(name)
                ),
            );
        } else if defined.as_ref().is_some_and(|d| !d.contains(name.as_str())) {
            out.add(
                SchemaProblemKind::UnknownRequired,
                item(&at, i),
                format!(
                    "`required` names {}, which `properties` does not define; define it or \
                     remove it from `required`",
                    quote(name)
                ),
            );
        }
    }
}

fn check_property(name: &str, value: &Value, out: &mut Problems) {
    let at = child("/properties", name);
    let Value::Object(map) = value else {
        out.wrong_type(
            at,
            &format!("property {}", quote(name)),
            "a schema object such as {\"type\": \"string\"}",
            value,
        );
        return;
    };
    let shape = read_shape(map, &at, out);
    for annotation in ["title", "description"] {
        if let Some(v) = member(map, annotation) {
            if !v.is_string() {
                out.wrong_type(
                    child(&at, annotation),
                    &format!("`{annotation}`"),
                    "a string",
                    v,
                );
            }
        }
    }
    let reference = match shape {
        Shape::Text => Some(check_text(map, &at, out)),
        Shape::Number => Some(check_number(map, &at, false, out)),
        Shape::Integer => Some(check_number(map, &at, true, out)),
        Shape::Boolean => Some(typed("boolean")),
        Shape::SingleSelect => check_single_select(map, &at, out),
        Shape::MultiSelect => check_multi_select(map, &at, out),
        Shape::Unknown => None,
    };
    check_default(name, map, &at, shape, reference, out);
    check_keywords(map, &at, &shape.context(), out);
}

/// What every "no such shape" message says is allowed.
const SHAPES: &str = "an elicitation property is a string, number, integer, boolean or an \
                      array of enumerated strings";

/// The shape the property's `type` (and `enum`/`oneOf`) gives it; reports why there is none.
fn read_shape(map: &Map, at: &str, out: &mut Problems) -> Shape {
    let type_at = child(at, "type");
    let ty = match member(map, "type") {
        None => {
            out.add(
                SchemaProblemKind::MissingKeyword,
                type_at,
                format!("`type` is required: {SHAPES}"),
            );
            return Shape::Unknown;
        }
        Some(Value::String(ty)) => ty.as_str(),
        Some(Value::Array(_)) => {
            out.add(
                SchemaProblemKind::UnsupportedShape,
                type_at,
                format!(
                    "a property has exactly one `type`, not a list: {SHAPES}; to let a person \
                     leave the field empty, leave it out of `required` instead of adding \"null\""
                ),
            );
            return Shape::Unknown;
        }
        Some(other) => {
            out.wrong_type(
                type_at,
                "`type`",
                "a string naming the property's type",
                other,
            );
            return Shape::Unknown;
        }
    };
    match ty {
        "string" => match (member(map, "enum"), member(map, "oneOf")) {
            (None, None) => Shape::Text,
            (Some(_), Some(_)) => {
                out.add(
                    SchemaProblemKind::UnsupportedShape,
                    String::from(at),
                    String::from(
                        "a single-select lists its options in `enum` or in `oneOf`, not both: \
                         keep `oneOf: [{const, title}]` for options with titles, `enum` otherwise",
                    ),
                );
                Shape::Unknown
            }
            _ => Shape::SingleSelect,
        },
        "number" => Shape::Number,
        "integer" => Shape::Integer,
        "boolean" => Shape::Boolean,
        "array" => Shape::MultiSelect,
        "object" => {
            out.add(
                SchemaProblemKind::UnsupportedShape,
                type_at,
                format!(
                    "nested objects are not allowed: {SHAPES}; list the nested fields in the \
                     root `properties` instead"
                ),
            );
            Shape::Unknown
        }
        other => {
            out.add(
                SchemaProblemKind::UnsupportedShape,
                type_at,
                format!(
                    "unknown property type {}: {SHAPES} (type names are lower case)",
                    quote(other)
                ),
            );
            Shape::Unknown
        }
    }
}

/// A property with only its `type`: the start of the well-formed copy a default is judged
/// against.
fn typed(ty: &str) -> Map {
    [("type", Value::from(ty))].into_iter().collect()
}

fn check_text(map: &Map, at: &str, out: &mut Problems) -> Map {
    let min = count(map, at, "minLength", "characters", out);
    let max = count(map, at, "maxLength", "characters", out);
    let ordered = in_order(
        (min, "minLength"),
        (max, "maxLength"),
        at,
        "no text has a length in that range",
        out,
    );
    let format = check_format(map, at, out);

    let mut reference = typed("string");
    if ordered {
        insert_number(&mut reference, "minLength", min);
        insert_number(&mut reference, "maxLength", max);
    }
    if let Some(format) = format {
        reference.insert("format", Value::from(format.as_str()));
    }
    reference
}

fn check_format(map: &Map, at: &str, out: &mut Problems) -> Option<StringFormat> {
    let format_at = child(at, "format");
    match member(map, "format")? {
        Value::String(name) => {
            let format = StringFormat::from_name(name);
            if format.is_none() {
                out.add(
                    SchemaProblemKind::UnknownFormat,
                    format_at,
                    format!(
                        "unknown `format` {}: an elicitation schema allows \"email\", \"uri\", \
                         \"date\" and \"date-time\" (lower case)",
                        quote(name)
                    ),
                );
            }
            format
        }
        other => {
            out.wrong_type(
                format_at,
                "`format`",
                "one of the strings \"email\", \"uri\", \"date\", \"date-time\"",
                other,
            );
            None
        }
    }
}

fn check_number(map: &Map, at: &str, integer: bool, out: &mut Problems) -> Map {
    let min = number(map, at, "minimum", out);
    let max = number(map, at, "maximum", out);
    let mut consistent = in_order(
        (min, "minimum"),
        (max, "maximum"),
        at,
        "no number lies in that range",
        out,
    );
    if let (true, true, Some(lo), Some(hi)) = (consistent, integer, min, max) {
        if !admits_integer(lo, hi) {
            out.add(
                SchemaProblemKind::ContradictoryBounds,
                child(at, "minimum"),
                format!(
                    "no integer lies between `minimum` {lo} and `maximum` {hi}: widen the range \
                     or use `type: \"number\"`"
                ),
            );
            consistent = false;
        }
    }

    let mut reference = typed(if integer { "integer" } else { "number" });
    if consistent {
        insert_number(&mut reference, "minimum", min);
        insert_number(&mut reference, "maximum", max);
    }
    reference
}

fn check_single_select(map: &Map, at: &str, out: &mut Problems) -> Option<Map> {
    let options = if let Some(list) = member(map, "enum") {
        let options = check_enum(list, &child(at, "enum"), out);
        check_enum_names(map, at, list.as_array().map(Vec::len), out);
        options
    } else {
        let list = member(map, "oneOf")?;
        check_titled(list, &child(at, "oneOf"), "oneOf", out)
    };
    let mut reference = typed("string");
    // Validation depends on the option values only, so titled options are judged as `enum`.
    reference.insert("enum", option_values(options?)?);
    Some(reference)
}

fn check_multi_select(map: &Map, at: &str, out: &mut Problems) -> Option<Map> {
    let min = count(map, at, "minItems", "options", out);
    let max = count(map, at, "maxItems", "options", out);
    // The options are needed to judge `minItems`, but their problems come after it.
    let mut items_problems = Problems::default();
    let options = check_items(map, at, &mut items_problems);
    let mut consistent = in_order(
        (min, "minItems"),
        (max, "maxItems"),
        at,
        "no selection has a size in that range",
        out,
    );
    if let (true, Some(lo), Some(options)) = (consistent, min, &options) {
        let available = count_number(options.len());
        if !options.is_empty() && decimal::compare(lo, &available) == Ordering::Greater {
            out.add(
                SchemaProblemKind::ContradictoryBounds,
                child(at, "minItems"),
                format!(
                    "`minItems` {lo} is more than the {} options: nothing could be chosen; lower \
                     `minItems` or add options",
                    options.len()
                ),
            );
            consistent = false;
        }
    }
    out.0.append(&mut items_problems.0);
    if let Some(unique) = member(map, "uniqueItems") {
        if !unique.is_boolean() {
            out.wrong_type(
                child(at, "uniqueItems"),
                "`uniqueItems`",
                "a boolean",
                unique,
            );
        }
    }

    let mut reference = typed("array");
    if consistent {
        insert_number(&mut reference, "minItems", min);
        insert_number(&mut reference, "maxItems", max);
    }
    let items = [
        ("type", Value::from("string")),
        ("enum", option_values(options?)?),
    ];
    reference.insert("items", items.into_iter().collect::<Map>().into());
    Some(reference)
}

/// Checks the `items` of a multi-select; the distinct well-formed option values, if its
/// options could be read at all.
fn check_items<'a>(map: &'a Map, at: &str, out: &mut Problems) -> Option<Vec<&'a str>> {
    let items_at = child(at, "items");
    let items = match member(map, "items") {
        None => {
            out.add(
                SchemaProblemKind::MissingKeyword,
                items_at,
                String::from(
                    "a multi-select needs `items`: {\"type\": \"string\", \"enum\": [...]} or \
                     {\"anyOf\": [{\"const\": ..., \"title\": ...}, ...]}",
                ),
            );
            return None;
        }
        Some(Value::Object(items)) => items,
        Some(other) => {
            out.wrong_type(
                items_at,
                "`items`",
                "an object listing the options, {\"type\": \"string\", \"enum\": [...]} or \
                 {\"anyOf\": [{\"const\": ..., \"title\": ...}, ...]}",
                other,
            );
            return None;
        }
    };

    let type_at = child(&items_at, "type");
    match member(items, "type") {
        None => {}
        Some(Value::String(ty)) if ty == "string" => {}
        Some(Value::String(ty)) => {
            out.add(
                SchemaProblemKind::UnsupportedShape,
                type_at,
                format!(
                    "the items of an array property are strings, not {}: an array property is a \
                     multi-select of options; arrays of objects, numbers or arrays are not allowed",
                    quote(ty)
                ),
            );
            return None;
        }
        Some(Value::Array(_)) => {
            out.add(
                SchemaProblemKind::UnsupportedShape,
                type_at,
                String::from(
                    "the items of an array property have the one type \"string\", not a list: an \
                     array property is a multi-select of options",
                ),
            );
            return None;
        }
        Some(other) => out.wrong_type(type_at, "`items.type`", "\"string\"", other),
    }

    let options = match (member(items, "enum"), member(items, "anyOf")) {
        (Some(list), None) => check_enum(list, &child(&items_at, "enum"), out),
        (None, Some(list)) => check_titled(list, &child(&items_at, "anyOf"), "anyOf", out),
        (Some(_), Some(_)) => {
            out.add(
                SchemaProblemKind::UnsupportedShape,
                items_at,
                String::from(
                    "a multi-select lists its options in `items.enum` or in `items.anyOf`, not \
                     both: keep `anyOf: [{const, title}]` for options with titles, `enum` otherwise",
                ),
            );
            return None;
        }
        (None, None) => {
            out.add(
                SchemaProblemKind::UnsupportedShape,
                items_at,
                String::from(
                    "an array property is a multi-select: its `items` must be \
                     {\"type\": \"string\", \"enum\": [...]} or \
                     {\"anyOf\": [{\"const\": ..., \"title\": ...}, ...]}",
                ),
            );
            return None;
        }
    };
    check_keywords(items, &items_at, &ITEMS, out);
    options
}

/// Checks an `enum` list at `at`; its distinct string values, if it is an array.
fn check_enum<'a>(list: &'a Value, at: &str, out: &mut Problems) -> Option<Vec<&'a str>> {
    let Value::Array(list) = list else {
        out.wrong_type(
            String::from(at),
            "`enum`",
            "an array of option values (strings)",
            list,
        );
        return None;
    };
    if list.is_empty() {
        out.add(
            SchemaProblemKind::EmptyEnum,
            String::from(at),
            String::from("`enum` has no options: list at least one value to choose"),
        );
    }
    let mut values = Vec::with_capacity(list.len());
    let mut seen = BTreeSet::new();
    for (i, value) in list.iter().enumerate() {
        match value {
            Value::String(v) if seen.insert(v.as_str()) => values.push(v.as_str()),
            Value::String(v) => out.add(
                SchemaProblemKind::DuplicateValue,
                item(at, i),
                format!("the option {} is listed twice; list each once", quote(v)),
            ),
            other => out.wrong_type(
                item(at, i),
                &format!("`enum` item {i}"),
                "a string (options are strings)",
                other,
            ),
        }
    }
    Some(values)
}

fn check_enum_names(map: &Map, at: &str, values: Option<usize>, out: &mut Problems) {
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
fn check_titled<'a>(
    list: &'a Value,
    at: &str,
    keyword: &str,
    out: &mut Problems,
) -> Option<Vec<&'a str>> {
    let Value::Array(list) = list else {
        out.wrong_type(
            String::from(at),
            &format!("`{keyword}`"),
            "an array of {\"const\", \"title\"} options",
            list,
        );
        return None;
    };
    if list.is_empty() {
        out.add(
            SchemaProblemKind::EmptyEnum,
            String::from(at),
            format!("`{keyword}` has no options: list at least one {{\"const\", \"title\"}}"),
        );
    }
    let mut values = Vec::with_capacity(list.len());
    let mut seen = BTreeSet::new();
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
            Some(Value::String(v)) if seen.insert(v.as_str()) => values.push(v.as_str()),
            Some(Value::String(v)) => out.add(
                SchemaProblemKind::DuplicateValue,
                const_at,
                format!("the option {} is listed twice; list each once", quote(v)),
            ),
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
    Some(values)
}

/// The options as the JSON array of an `enum`, or `None` when there are none to judge a
/// default against.
fn option_values(options: Vec<&str>) -> Option<Value> {
    if options.is_empty() {
        return None;
    }
    Some(Value::Array(options.into_iter().map(Value::from).collect()))
}

/// Checks the `default` against the property's shape, then against the well-formed copy of
/// the property in `reference`.
fn check_default(
    name: &str,
    map: &Map,
    at: &str,
    shape: Shape,
    reference: Option<Map>,
    out: &mut Problems,
) {
    let Some(default) = member(map, "default") else {
        return;
    };
    let default_at = child(at, "default");
    if let Some(problem) = default_type_problem(shape, default) {
        out.add(SchemaProblemKind::InvalidDefault, default_at, problem);
        return;
    }
    let Some(mut reference) = reference else {
        return;
    };
    // Validation messages name the field by its label: here the field is the default itself.
    reference.insert("title", Value::from("the `default`"));
    let Ok(property) = Property::read(name, &Value::Object(reference)) else {
        return;
    };
    let mut violations = Vec::new();
    validate::property_violations(&property, default, &default_at, &mut violations);
    for violation in violations {
        out.add(
            SchemaProblemKind::InvalidDefault,
            default_at.clone(),
            String::from(violation.message()),
        );
    }
}

/// Why `default` has the wrong JSON type for `shape`, if it has.
fn default_type_problem(shape: Shape, default: &Value) -> Option<String> {
    let expected = match shape {
        Shape::Text | Shape::SingleSelect if !default.is_string() => "a string",
        Shape::Number if !default.is_number() => "a number",
        Shape::Integer if !default.is_number() => "an integer",
        Shape::Boolean if !default.is_boolean() => "a boolean",
        Shape::MultiSelect => {
            let Value::Array(values) = default else {
                return Some(format!(
                    "`default` must be an array of option values, not {}",
                    type_name(default)
                ));
            };
            let (i, bad) = values.iter().enumerate().find(|(_, v)| !v.is_string())?;
            return Some(format!(
                "`default` must list option values, which are strings, but item {i} is {}",
                type_name(bad)
            ));
        }
        _ => return None,
    };
    Some(format!(
        "`default` must be {expected}, like the values this property accepts, not {}",
        type_name(default)
    ))
}

/// Reports every validation keyword of `map` that `context` does not have and that would take
/// effect there, in the order written.
fn check_keywords(map: &Map, at: &str, context: &Context, out: &mut Problems) {
    for (key, value) in map.iter() {
        if value.is_null() || context.own.contains(&key.as_str()) {
            continue;
        }
        let Some(keyword) = VALIDATION_KEYWORDS.iter().find(|k| k.name == key) else {
            continue;
        };
        if keyword
            .applies_to
            .is_some_and(|t| Some(t) != context.instance)
        {
            continue;
        }
        out.add(
            SchemaProblemKind::UnsupportedKeyword,
            child(at, key),
            format!(
                "`{key}` is not part of {}: {}",
                context.what, keyword.advice
            ),
        );
    }
}

/// The member `key` as a length or count: a non-negative integer (`3`, `3.0`, `0.3e1`).
fn count<'a>(
    map: &'a Map,
    at: &str,
    key: &str,
    unit: &str,
    out: &mut Problems,
) -> Option<&'a Number> {
    let key_at = child(at, key);
    match member(map, key)? {
        Value::Number(n) => {
            let zero = Number::from(0u64);
            if decimal::is_integer(n) && decimal::compare(n, &zero) != Ordering::Less {
                Some(n)
            } else {
                out.add(
                    SchemaProblemKind::InvalidValue,
                    key_at,
                    format!("`{key}` must be a whole number of {unit}, 0 or more, not {n}"),
                );
                None
            }
        }
        other => {
            out.wrong_type(key_at, &format!("`{key}`"), "a non-negative integer", other);
            None
        }
    }
}

/// The member `key` as a JSON number.
fn number<'a>(map: &'a Map, at: &str, key: &str, out: &mut Problems) -> Option<&'a Number> {
    match member(map, key)? {
        Value::Number(n) => Some(n),
        other => {
            out.wrong_type(child(at, key), &format!("`{key}`"), "a number", other);
            None
        }
    }
}

/// Whether the lower bound is at most the upper one (or either is absent); reports it at the
/// lower bound when not.
fn in_order(
    (lo, lo_key): (Option<&Number>, &str),
    (hi, hi_key): (Option<&Number>, &str),
    at: &str,
    consequence: &str,
    out: &mut Problems,
) -> bool {
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return true;
    };
    if decimal::compare(lo, hi) != Ordering::Greater {
        return true;
    }
    out.add(
        SchemaProblemKind::ContradictoryBounds,
        child(at, lo_key),
        format!("`{lo_key}` {lo} is greater than `{hi_key}` {hi}: {consequence}; swap or fix them"),
    );
    false
}

fn insert_number(map: &mut Map, key: &str, n: Option<&Number>) {
    if let Some(n) = n {
        map.insert(key, Value::Number(n.clone()));
    }
}

/// Whether some integer lies in `[lo, hi]` (with `lo <= hi`): the largest integer not above
/// `hi` is at least `lo`.
fn admits_integer(lo: &Number, hi: &Number) -> bool {
    floor(hi).is_none_or(|f| decimal::compare(&f, lo) != Ordering::Less)
}

/// The largest integer not above `n`, computed exactly from the spelling (no rounding through
/// `f64`); `None` if `n` is not spelled as a JSON number.
fn floor(n: &Number) -> Option<Number> {
    let spelling = n.as_str();
    let (negative, unsigned) = match spelling.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, spelling),
    };
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, exponent_value(e)?),
        None => (unsigned, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = || int_part.bytes().chain(frac_part.bytes());
    if !digits().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let len = int_part.len().saturating_add(frac_part.len());
    // Where the decimal point falls among the digits once the exponent is applied.
    let point = i64::try_from(int_part.len())
        .unwrap_or(i64::MAX)
        .saturating_add(exponent);
    let whole_len = usize::try_from(point.max(0)).unwrap_or(usize::MAX).min(len);
    if digits().skip(whole_len).all(|b| b == b'0') {
        return Some(n.clone());
    }
    let mut whole: Vec<u8> = digits()
        .take(whole_len)
        .skip_while(|&b| b == b'0')
        .collect();
    if negative {
        // Below zero the floor is one further from zero than the truncated value.
        increment(&mut whole);
    }
    if whole.is_empty() {
        whole.push(b'0');
    }
    let text = String::from_utf8(whole).ok()?;
    let text = if negative { format!("-{text}") } else { text };
    Number::from_spelling(&text)
}

/// Adds one to the decimal digits in `digits` (empty is zero).
fn increment(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d = d.saturating_add(1);
            return;
        }
    }
    digits.insert(0, b'1');
}

/// The value of an exponent spelling (`+5`, `-12`, `7`), clamped to ±10¹⁵: beyond any number
/// of digits a spelling can have, so clamping never changes where the point falls relative to
/// the digits.
fn exponent_value(e: &str) -> Option<i64> {
    const CLAMP: i64 = 1_000_000_000_000_000;
    let (negative, digits) = match e.as_bytes().first() {
        Some(b'-') => (true, e.get(1..)?),
        Some(b'+') => (false, e.get(1..)?),
        _ => (false, e),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value
            .saturating_mul(10)
            .saturating_add(i64::from(b.saturating_sub(b'0')))
            .min(CLAMP);
    }
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;
    use proptest::prelude::*;

    use SchemaProblemKind::*;

    fn json(text: &str) -> Value {
        crate::json::parse_str(text, &crate::Limits::DEFAULT).unwrap()
    }

    /// The kind and pointer of every problem with the schema written `text`.
    fn check(text: &str) -> Vec<(SchemaProblemKind, String)> {
        check_schema(&json(text))
            .into_iter()
            .map(|p| {
                assert!(!p.message().is_empty(), "{p:?}");
                (p.kind(), p.pointer().to_string())
            })
            .collect()
    }

    /// The problems of a root schema whose single property `p` is written `property`.
    fn one(property: &str) -> Vec<(SchemaProblemKind, String)> {
        check(&format!(
            r#"{{"type":"object","properties":{{"p":{property}}}}}"#
        ))
    }

    fn at(kind: SchemaProblemKind, pointer: &str) -> (SchemaProblemKind, String) {
        (kind, pointer.to_string())
    }

    fn message(text: &str) -> String {
        let problems = check_schema(&json(text));
        assert_eq!(problems.len(), 1, "{problems:?}");
        problems.first().unwrap().message().to_string()
    }

    fn n(spelling: &str) -> Number {
        Number::from_spelling(spelling).unwrap()
    }

    // --- The specification's examples (2025-11-25 and 2026-07-28) ---

    #[test]
    fn spec_examples_are_clean() {
        let properties = [
            r#"{"type":"string","title":"Display Name","description":"Description text","minLength":3,"maxLength":50,"format":"email","default":"user@example.com"}"#,
            r#"{"type":"number","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50}"#,
            r#"{"type":"integer","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50}"#,
            r#"{"type":"boolean","title":"Display Name","description":"Description text","default":false}"#,
            r#"{"type":"string","title":"Color Selection","description":"Choose your favorite color","enum":["Red","Green","Blue"],"default":"Red"}"#,
            r##"{"type":"string","title":"Color Selection","description":"Choose your favorite color","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],"default":"#FF0000"}"##,
            r#"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}"#,
            r##"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000","#00FF00"]}"##,
            r#"{"type":"string","title":"Plan","enum":["free","pro"],"enumNames":["Free tier","Pro tier"],"default":"free"}"#,
        ];
        for property in properties {
            assert_eq!(one(property), [], "{property}");
        }
        for schema in [
            r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#,
            r#"{"type":"object","properties":{"name":{"type":"string","title":"GitHub Username","description":"Your GitHub username"}},"required":["name"]}"#,
            r#"{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","format":"email","description":"Your email address"},"age":{"type":"number","minimum":18,"description":"Your age"}},"required":["name","email"]}"#,
            r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{}}"#,
        ] {
            assert_eq!(check(schema), [], "{schema}");
        }
    }

    #[test]
    fn the_2025_11_25_string_example_has_a_pattern_the_schema_does_not_define() {
        // The prose of 2025-11-25 shows `pattern`; its schema.ts (and 2026-07-28) has none.
        assert_eq!(
            one(
                r#"{"type":"string","minLength":3,"maxLength":50,"pattern":"^[A-Za-z]+$","format":"email","default":"user@example.com"}"#
            ),
            [at(UnsupportedKeyword, "/properties/p/pattern")]
        );
    }

    // --- The root ---

    #[test]
    fn a_schema_that_is_not_an_object() {
        for text in ["[]", "\"object\"", "null", "true", "3"] {
            assert_eq!(check(text), [at(WrongType, "")], "{text}");
        }
    }

    #[test]
    fn root_type() {
        assert_eq!(check(r#"{"properties":{}}"#), [at(MissingKeyword, "/type")]);
        assert_eq!(
            check(r#"{"type":null,"properties":{}}"#),
            [at(MissingKeyword, "/type")]
        );
        for ty in [r#""array""#, r#""Object""#, r#""""#, r#"["object"]"#] {
            assert_eq!(
                check(&format!(r#"{{"type":{ty},"properties":{{}}}}"#)),
                [at(InvalidValue, "/type")],
                "{ty}"
            );
        }
        assert_eq!(
            check(r#"{"type":1,"properties":{}}"#),
            [at(WrongType, "/type")]
        );
    }

    #[test]
    fn root_schema_uri_and_properties() {
        assert_eq!(
            check(r#"{"$schema":7,"type":"object","properties":{}}"#),
            [at(WrongType, "/$schema")]
        );
        assert_eq!(
            check(r#"{"type":"object"}"#),
            [at(MissingKeyword, "/properties")]
        );
        assert_eq!(
            check(r#"{"type":"object","properties":[]}"#),
            [at(WrongType, "/properties")]
        );
        assert_eq!(check(r#"{"type":"object","properties":{}}"#), []);
    }

    #[test]
    fn required() {
        assert_eq!(
            check(r#"{"type":"object","properties":{},"required":"a"}"#),
            [at(WrongType, "/required")]
        );
        assert_eq!(
            check(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a",1]}"#),
            [at(WrongType, "/required/1")]
        );
        assert_eq!(
            check(
                r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["b","a","a"]}"#
            ),
            [
                at(UnknownRequired, "/required/0"),
                at(DuplicateValue, "/required/2")
            ]
        );
        // An unknown name listed twice is unknown once, then a duplicate.
        assert_eq!(
            check(r#"{"type":"object","properties":{},"required":["x","x"]}"#),
            [
                at(UnknownRequired, "/required/0"),
                at(DuplicateValue, "/required/1")
            ]
        );
        // Without readable `properties`, names cannot be judged unknown.
        assert_eq!(
            check(r#"{"type":"object","required":["x"]}"#),
            [at(MissingKeyword, "/properties")]
        );
        assert_eq!(
            check(r#"{"type":"object","properties":{},"required":[]}"#),
            []
        );
    }

    #[test]
    fn additional_properties_on_the_root() {
        for flag in ["true", "false"] {
            assert_eq!(
                check(&format!(
                    r#"{{"type":"object","properties":{{}},"additionalProperties":{flag}}}"#
                )),
                []
            );
        }
        assert_eq!(
            check(r#"{"type":"object","properties":{},"additionalProperties":{"type":"string"}}"#),
            [at(UnsupportedKeyword, "/additionalProperties")]
        );
    }

    #[test]
    fn root_validation_keywords() {
        assert_eq!(
            check(
                r##"{"type":"object","$ref":"#/$defs/a","properties":{},"allOf":[],"patternProperties":{},"minProperties":1,"dependentRequired":{},"if":{},"then":{},"else":{},"propertyNames":{},"unevaluatedProperties":false,"maxProperties":3,"dependentSchemas":{},"not":{},"enum":[{}],"const":{}}"##
            ),
            [
                at(UnsupportedKeyword, "/$ref"),
                at(UnsupportedKeyword, "/allOf"),
                at(UnsupportedKeyword, "/patternProperties"),
                at(UnsupportedKeyword, "/minProperties"),
                at(UnsupportedKeyword, "/dependentRequired"),
                at(UnsupportedKeyword, "/if"),
                at(UnsupportedKeyword, "/then"),
                at(UnsupportedKeyword, "/else"),
                at(UnsupportedKeyword, "/propertyNames"),
                at(UnsupportedKeyword, "/unevaluatedProperties"),
                at(UnsupportedKeyword, "/maxProperties"),
                at(UnsupportedKeyword, "/dependentSchemas"),
                at(UnsupportedKeyword, "/not"),
                at(UnsupportedKeyword, "/enum"),
                at(UnsupportedKeyword, "/const"),
            ]
        );
    }

    #[test]
    fn keywords_that_change_nothing_are_ignored() {
        assert_eq!(
            check(
                r##"{"$id":"urn:x","$comment":"c","title":5,"description":[],"examples":[{}],"x-ui":{"$ref":"#"},"$defs":{"a":{"type":"object"}},"definitions":{},"type":"object","minLength":3,"items":{},"properties":{"a":{"type":"string","deprecated":true,"readOnly":true,"examples":["x"],"x-order":1,"minimum":3,"minItems":2,"required":true,"additionalProperties":false,"enumNames":["A"]},"b":{"type":"number","format":"email","minLength":1,"pattern":"x"}}}"##
            ),
            []
        );
    }

    // --- Properties ---

    #[test]
    fn a_property_that_is_not_an_object() {
        for p in ["\"string\"", "true", "[]", "3", "null"] {
            assert_eq!(one(p), [at(WrongType, "/properties/p")], "{p}");
        }
    }

    #[test]
    fn property_type() {
        assert_eq!(one("{}"), [at(MissingKeyword, "/properties/p/type")]);
        assert_eq!(
            one(r#"{"type":["string","null"]}"#),
            [at(UnsupportedShape, "/properties/p/type")]
        );
        for ty in ["null", "text", "String", "int", ""] {
            assert_eq!(
                one(&format!(r#"{{"type":"{ty}"}}"#)),
                [at(UnsupportedShape, "/properties/p/type")],
                "{ty}"
            );
        }
        assert_eq!(
            one(r#"{"type":{"name":"string"}}"#),
            [at(WrongType, "/properties/p/type")]
        );
    }

    #[test]
    fn nested_objects_say_what_is_allowed() {
        let text = r#"{"type":"object","properties":{"p":{"type":"object","properties":{"street":{"type":"string"}},"required":["street"],"additionalProperties":false}}}"#;
        assert_eq!(check(text), [at(UnsupportedShape, "/properties/p/type")]);
        let m = message(text);
        assert!(m.contains("nested objects are not allowed"), "{m}");
        assert!(
            m.contains("string, number, integer, boolean or an array of enumerated strings"),
            "{m}"
        );
    }

    #[test]
    fn a_property_without_a_shape_still_reports_what_applies_to_any_type() {
        // The usual spelling of an optional field in generated schemas.
        assert_eq!(
            one(r#"{"anyOf":[{"type":"string"},{"type":"null"}],"title":3}"#),
            [
                at(MissingKeyword, "/properties/p/type"),
                at(WrongType, "/properties/p/title"),
                at(UnsupportedKeyword, "/properties/p/anyOf"),
            ]
        );
        assert_eq!(
            one(r##"{"$ref":"#/$defs/Address"}"##),
            [
                at(MissingKeyword, "/properties/p/type"),
                at(UnsupportedKeyword, "/properties/p/$ref"),
            ]
        );
        // `enum` and `oneOf` become a select once `type` is written.
        assert_eq!(
            one(r#"{"enum":["a"],"minLength":1}"#),
            [at(MissingKeyword, "/properties/p/type")]
        );
    }

    #[test]
    fn title_and_description_must_be_strings() {
        assert_eq!(
            one(r#"{"type":"string","title":5,"description":{}}"#),
            [
                at(WrongType, "/properties/p/title"),
                at(WrongType, "/properties/p/description"),
            ]
        );
        assert_eq!(one(r#"{"type":"boolean","title":null}"#), []);
    }

    #[test]
    fn empty_and_escaped_property_names() {
        assert_eq!(
            check(r#"{"type":"object","properties":{"":{"type":"string"}},"required":[""]}"#),
            []
        );
        assert_eq!(
            check(r#"{"type":"object","properties":{"":{"type":"object"}}}"#),
            [at(UnsupportedShape, "/properties//type")]
        );
        assert_eq!(
            check(r#"{"type":"object","properties":{"a/b~c":{"type":"string","format":"phone"}}}"#),
            [at(UnknownFormat, "/properties/a~1b~0c/format")]
        );
    }

    // --- Free text ---

    #[test]
    fn lengths() {
        assert_eq!(
            one(r#"{"type":"string","minLength":"3","maxLength":true}"#),
            [
                at(WrongType, "/properties/p/minLength"),
                at(WrongType, "/properties/p/maxLength"),
            ]
        );
        for bad in ["-1", "2.5", "1e-1", "-3.0", "3.0000000000000001", "1e-400"] {
            assert_eq!(
                one(&format!(r#"{{"type":"string","minLength":{bad}}}"#)),
                [at(InvalidValue, "/properties/p/minLength")],
                "{bad}"
            );
        }
        for good in ["0", "3.0", "0.3e1", "-0", "1e400"] {
            assert_eq!(
                one(&format!(r#"{{"type":"string","maxLength":{good}}}"#)),
                [],
                "{good}"
            );
        }
        assert_eq!(
            one(r#"{"type":"string","minLength":5,"maxLength":3}"#),
            [at(ContradictoryBounds, "/properties/p/minLength")]
        );
        assert_eq!(
            one(r#"{"type":"string","minLength":3,"maxLength":3.0}"#),
            []
        );
        assert_eq!(
            one(r#"{"type":"string","minLength":1e20,"maxLength":99999999999999999999}"#),
            [at(ContradictoryBounds, "/properties/p/minLength")]
        );
    }

    #[test]
    fn formats() {
        for format in ["email", "uri", "date", "date-time"] {
            assert_eq!(
                one(&format!(r#"{{"type":"string","format":"{format}"}}"#)),
                []
            );
        }
        for format in ["Email", "phone", "uuid", "datetime", "", "uri-reference"] {
            assert_eq!(
                one(&format!(r#"{{"type":"string","format":"{format}"}}"#)),
                [at(UnknownFormat, "/properties/p/format")],
                "{format}"
            );
        }
        assert_eq!(
            one(r#"{"type":"string","format":["email"]}"#),
            [at(WrongType, "/properties/p/format")]
        );
        let m =
            message(r#"{"type":"object","properties":{"p":{"type":"string","format":"Email"}}}"#);
        assert!(m.contains("date-time"), "{m}");
    }

    // --- Numbers ---

    #[test]
    fn number_bounds() {
        assert_eq!(
            one(r#"{"type":"number","minimum":"0","maximum":[]}"#),
            [
                at(WrongType, "/properties/p/minimum"),
                at(WrongType, "/properties/p/maximum"),
            ]
        );
        assert_eq!(
            one(r#"{"type":"number","minimum":10,"maximum":9.99}"#),
            [at(ContradictoryBounds, "/properties/p/minimum")]
        );
        // Compared exactly, not through f64.
        assert_eq!(
            one(r#"{"type":"number","minimum":9007199254740993,"maximum":9007199254740992}"#),
            [at(ContradictoryBounds, "/properties/p/minimum")]
        );
        assert_eq!(one(r#"{"type":"number","minimum":1.0,"maximum":1}"#), []);
        assert_eq!(one(r#"{"type":"number","minimum":1.2,"maximum":1.8}"#), []);
        assert_eq!(
            one(r#"{"type":"number","minimum":-1e400,"maximum":1e400}"#),
            []
        );
    }

    #[test]
    fn integer_bounds_must_admit_an_integer() {
        for (lo, hi) in [
            ("1.2", "1.8"),
            ("-1.8", "-1.2"),
            ("0.1", "0.9"),
            ("12e-1", "0.18e1"),
        ] {
            assert_eq!(
                one(&format!(
                    r#"{{"type":"integer","minimum":{lo},"maximum":{hi}}}"#
                )),
                [at(ContradictoryBounds, "/properties/p/minimum")],
                "{lo}..{hi}"
            );
        }
        for (lo, hi) in [
            ("1.2", "2"),
            ("-0.5", "0.5"),
            ("1", "1"),
            ("1.5", "2.5"),
            ("-1.5", "-0.9"),
            ("1e-400", "1"),
        ] {
            assert_eq!(
                one(&format!(
                    r#"{{"type":"integer","minimum":{lo},"maximum":{hi}}}"#
                )),
                [],
                "{lo}..{hi}"
            );
        }
    }

    #[test]
    fn floor_is_exact() {
        for (spelling, floor_of) in [
            ("1.8", "1"),
            ("-1.2", "-2"),
            ("0.5", "0"),
            ("-0.5", "-1"),
            ("12e-1", "1"),
            ("-9.5", "-10"),
            ("-99.01", "-100"),
            ("1e-400", "0"),
            ("-1e-400", "-1"),
            ("123.456e1", "1234"),
        ] {
            assert_eq!(
                floor(&n(spelling)).unwrap().as_str(),
                floor_of,
                "{spelling}"
            );
        }
        // Integers are their own floor, spelled as given.
        for spelling in ["3", "3.0", "0.3e1", "1e400", "-0", "-7", "1.20e1"] {
            assert_eq!(floor(&n(spelling)).unwrap().as_str(), spelling);
        }
    }

    // --- Single-selects ---

    #[test]
    fn enum_lists() {
        assert_eq!(
            one(r#"{"type":"string","enum":[]}"#),
            [at(EmptyEnum, "/properties/p/enum")]
        );
        assert_eq!(
            one(r#"{"type":"string","enum":"a"}"#),
            [at(WrongType, "/properties/p/enum")]
        );
        assert_eq!(
            one(r#"{"type":"string","enum":["a",1,"b","a",null,"b"]}"#),
            [
                at(WrongType, "/properties/p/enum/1"),
                at(DuplicateValue, "/properties/p/enum/3"),
                at(WrongType, "/properties/p/enum/4"),
                at(DuplicateValue, "/properties/p/enum/5"),
            ]
        );
    }

    #[test]
    fn enum_names() {
        assert_eq!(
            one(r#"{"type":"string","enum":["a","b","c"],"enumNames":["A"]}"#),
            [at(EnumNamesLength, "/properties/p/enumNames")]
        );
        assert_eq!(
            one(r#"{"type":"string","enum":["a"],"enumNames":["A","B"]}"#),
            [at(EnumNamesLength, "/properties/p/enumNames")]
        );
        assert_eq!(
            one(r#"{"type":"string","enum":["a","b"],"enumNames":["A",2,3]}"#),
            [
                at(EnumNamesLength, "/properties/p/enumNames"),
                at(WrongType, "/properties/p/enumNames/1"),
                at(WrongType, "/properties/p/enumNames/2"),
            ]
        );
        assert_eq!(
            one(r#"{"type":"string","enum":["a"],"enumNames":"A"}"#),
            [at(WrongType, "/properties/p/enumNames")]
        );
        // Without `enum` the names title nothing and mean nothing.
        assert_eq!(
            one(r#"{"type":"string","oneOf":[{"const":"a","title":"A"}],"enumNames":[1,2]}"#),
            []
        );
    }

    #[test]
    fn titled_options() {
        assert_eq!(
            one(r#"{"type":"string","oneOf":[]}"#),
            [at(EmptyEnum, "/properties/p/oneOf")]
        );
        assert_eq!(
            one(r#"{"type":"string","oneOf":{"const":"a","title":"A"}}"#),
            [at(WrongType, "/properties/p/oneOf")]
        );
        assert_eq!(
            one(
                r#"{"type":"string","oneOf":[{"const":"a","title":"A"},"b",{"title":"C"},{"const":"d"},{"const":1,"title":false},{"const":"a","title":"A again"}]}"#
            ),
            [
                at(WrongType, "/properties/p/oneOf/1"),
                at(MissingKeyword, "/properties/p/oneOf/2/const"),
                at(MissingKeyword, "/properties/p/oneOf/3/title"),
                at(WrongType, "/properties/p/oneOf/4/const"),
                at(WrongType, "/properties/p/oneOf/4/title"),
                at(DuplicateValue, "/properties/p/oneOf/5/const"),
            ]
        );
    }

    #[test]
    fn enum_and_one_of_together_fit_no_shape() {
        assert_eq!(
            one(
                r#"{"type":"string","enum":["a"],"oneOf":[{"const":"a","title":"A"}],"minLength":1,"const":"a"}"#
            ),
            [
                at(UnsupportedShape, "/properties/p"),
                at(UnsupportedKeyword, "/properties/p/const"),
            ]
        );
    }

    #[test]
    fn string_keywords_on_a_select_would_refuse_options() {
        assert_eq!(
            one(
                r#"{"type":"string","enum":["a","bb"],"minLength":2,"format":"email","pattern":"b"}"#
            ),
            [
                at(UnsupportedKeyword, "/properties/p/minLength"),
                at(UnsupportedKeyword, "/properties/p/format"),
                at(UnsupportedKeyword, "/properties/p/pattern"),
            ]
        );
    }

    // --- Multi-selects ---

    #[test]
    fn multi_select_items() {
        assert_eq!(
            one(r#"{"type":"array"}"#),
            [at(MissingKeyword, "/properties/p/items")]
        );
        assert_eq!(
            one(r#"{"type":"array","items":[{"type":"string"}]}"#),
            [at(WrongType, "/properties/p/items")]
        );
        for items in [
            r#"{"type":"object","properties":{}}"#,
            r#"{"type":"number","enum":[1,2]}"#,
            r#"{"type":["string","null"],"enum":["a"]}"#,
        ] {
            assert_eq!(
                one(&format!(r#"{{"type":"array","items":{items}}}"#)),
                [at(UnsupportedShape, "/properties/p/items/type")],
                "{items}"
            );
        }
        for items in [
            r#"{"type":"string"}"#,
            "{}",
            r#"{"enum":["a"],"anyOf":[{"const":"a","title":"A"}]}"#,
            r#"{"oneOf":[{"const":"a","title":"A"}]}"#,
        ] {
            assert_eq!(
                one(&format!(r#"{{"type":"array","items":{items}}}"#)),
                [at(UnsupportedShape, "/properties/p/items")],
                "{items}"
            );
        }
        assert_eq!(
            one(
                r#"{"type":"array","items":{"type":7,"enum":["a","a"],"pattern":"x","const":"a","title":1}}"#
            ),
            [
                at(WrongType, "/properties/p/items/type"),
                at(DuplicateValue, "/properties/p/items/enum/1"),
                at(UnsupportedKeyword, "/properties/p/items/pattern"),
                at(UnsupportedKeyword, "/properties/p/items/const"),
            ]
        );
        assert_eq!(
            one(r#"{"type":"array","items":{"anyOf":[{"const":"a"},{"const":"a","title":"A"}]}}"#),
            [
                at(MissingKeyword, "/properties/p/items/anyOf/0/title"),
                at(DuplicateValue, "/properties/p/items/anyOf/1/const"),
            ]
        );
        assert_eq!(
            one(r#"{"type":"array","items":{"anyOf":[]}}"#),
            [at(EmptyEnum, "/properties/p/items/anyOf")]
        );
    }

    #[test]
    fn multi_select_counts() {
        let items = r#""items":{"enum":["a","b","c"]}"#;
        assert_eq!(
            one(&format!(
                r#"{{"type":"array","minItems":-1,"maxItems":"2",{items}}}"#
            )),
            [
                at(InvalidValue, "/properties/p/minItems"),
                at(WrongType, "/properties/p/maxItems"),
            ]
        );
        assert_eq!(
            one(&format!(
                r#"{{"type":"array","minItems":3,"maxItems":2,{items}}}"#
            )),
            [at(ContradictoryBounds, "/properties/p/minItems")]
        );
        assert_eq!(
            one(&format!(r#"{{"type":"array","minItems":4,{items}}}"#)),
            [at(ContradictoryBounds, "/properties/p/minItems")]
        );
        assert_eq!(
            one(&format!(r#"{{"type":"array","minItems":3,{items}}}"#)),
            []
        );
        // Repeated options are one option: two distinct ones cannot make three choices.
        assert_eq!(
            one(r#"{"type":"array","minItems":3,"items":{"enum":["a","b","a"]}}"#),
            [
                at(ContradictoryBounds, "/properties/p/minItems"),
                at(DuplicateValue, "/properties/p/items/enum/2"),
            ]
        );
        // No options is reported once, as such.
        assert_eq!(
            one(r#"{"type":"array","minItems":1,"items":{"enum":[]}}"#),
            [at(EmptyEnum, "/properties/p/items/enum")]
        );
    }

    #[test]
    fn unique_items() {
        for unique in ["true", "false"] {
            assert_eq!(
                one(&format!(
                    r#"{{"type":"array","uniqueItems":{unique},"items":{{"enum":["a"]}}}}"#
                )),
                []
            );
        }
        assert_eq!(
            one(r#"{"type":"array","uniqueItems":"yes","items":{"enum":["a"]}}"#),
            [at(WrongType, "/properties/p/uniqueItems")]
        );
        assert_eq!(one(r#"{"type":"string","uniqueItems":true}"#), []);
    }

    #[test]
    fn array_keywords_the_multi_select_lacks() {
        assert_eq!(
            one(
                r#"{"type":"array","items":{"enum":["a"]},"contains":{"const":"a"},"minContains":1,"prefixItems":[],"enum":[["a"]]}"#
            ),
            [
                at(UnsupportedKeyword, "/properties/p/contains"),
                at(UnsupportedKeyword, "/properties/p/minContains"),
                at(UnsupportedKeyword, "/properties/p/prefixItems"),
                at(UnsupportedKeyword, "/properties/p/enum"),
            ]
        );
    }

    // --- Validation keywords on properties ---

    #[test]
    fn number_keywords_the_shape_lacks() {
        assert_eq!(
            one(
                r#"{"type":"number","exclusiveMinimum":0,"multipleOf":0.5,"const":1,"enum":[1,2],"oneOf":[{"const":1,"title":"One"}]}"#
            ),
            [
                at(UnsupportedKeyword, "/properties/p/exclusiveMinimum"),
                at(UnsupportedKeyword, "/properties/p/multipleOf"),
                at(UnsupportedKeyword, "/properties/p/const"),
                at(UnsupportedKeyword, "/properties/p/enum"),
                at(UnsupportedKeyword, "/properties/p/oneOf"),
            ]
        );
    }

    #[test]
    fn unsupported_keyword_messages_say_what_to_do() {
        let m = message(r#"{"type":"object","properties":{"p":{"type":"string","pattern":"^a"}}}"#);
        assert!(m.contains("`pattern`") && m.contains("format"), "{m}");
        let m = message(r#"{"type":"object","properties":{"p":{"type":"boolean","allOf":[]}}}"#);
        assert!(m.contains("a boolean property"), "{m}");
    }

    #[test]
    fn the_keyword_table_has_each_keyword_once() {
        let names: BTreeSet<&str> = VALIDATION_KEYWORDS.iter().map(|k| k.name).collect();
        assert_eq!(names.len(), VALIDATION_KEYWORDS.len());
        for context in [ROOT, ITEMS].into_iter().chain(
            [
                Shape::Text,
                Shape::Number,
                Shape::Integer,
                Shape::Boolean,
                Shape::SingleSelect,
                Shape::MultiSelect,
                Shape::Unknown,
            ]
            .map(Shape::context),
        ) {
            // `type` is checked on its own everywhere.
            for own in context.own.iter().filter(|k| **k != "type") {
                assert!(names.contains(own), "{own} is not in the table");
            }
        }
    }

    // --- Defaults ---

    #[test]
    fn defaults_of_the_wrong_type() {
        for property in [
            r#"{"type":"string","default":5}"#,
            r#"{"type":"string","enum":["a"],"default":["a"]}"#,
            r#"{"type":"number","default":"50"}"#,
            r#"{"type":"integer","default":true}"#,
            r#"{"type":"boolean","default":"false"}"#,
            r#"{"type":"array","items":{"enum":["a"]},"default":"a"}"#,
            r#"{"type":"array","items":{"enum":["a"]},"default":["a",1]}"#,
        ] {
            assert_eq!(
                one(property),
                [at(InvalidDefault, "/properties/p/default")],
                "{property}"
            );
        }
        // A default of a property without a shape is not judged.
        assert_eq!(
            one(r#"{"type":"object","default":5}"#),
            [at(UnsupportedShape, "/properties/p/type")]
        );
        assert_eq!(one(r#"{"type":"string","default":null}"#), []);
    }

    #[test]
    fn defaults_that_break_their_own_property() {
        let cases: [(&str, usize); 14] = [
            (r#"{"type":"string","minLength":3,"default":"ab"}"#, 1),
            (r#"{"type":"string","maxLength":1,"default":"ab"}"#, 1),
            (
                r#"{"type":"string","format":"date","default":"2024-13-01"}"#,
                1,
            ),
            (
                r#"{"type":"string","format":"email","default":"not an address"}"#,
                1,
            ),
            (
                r#"{"type":"number","minimum":0,"maximum":100,"default":101}"#,
                1,
            ),
            (r#"{"type":"integer","default":2.5}"#, 1),
            (r#"{"type":"integer","minimum":3,"default":2.5}"#, 2),
            (r#"{"type":"string","enum":["a","b"],"default":"c"}"#, 1),
            (
                r#"{"type":"string","oneOf":[{"const":"a","title":"A"}],"default":"A"}"#,
                1,
            ),
            (
                r#"{"type":"array","items":{"enum":["a","b"]},"default":["a","c"]}"#,
                1,
            ),
            (
                r#"{"type":"array","items":{"enum":["a","b"]},"default":["a","a"]}"#,
                1,
            ),
            (
                r#"{"type":"array","minItems":2,"items":{"enum":["a","b"]},"default":["a"]}"#,
                1,
            ),
            (
                r#"{"type":"array","maxItems":1,"items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]},"default":["a","b"]}"#,
                1,
            ),
            // Judged against the well-formed keywords even when others are broken.
            (
                r#"{"type":"string","minLength":3,"format":"phone","default":"ab"}"#,
                1,
            ),
        ];
        for (property, violations) in cases {
            let found = one(property);
            let defaults = found
                .iter()
                .filter(|p| **p == at(InvalidDefault, "/properties/p/default"))
                .count();
            assert_eq!(defaults, violations, "{property}: {found:?}");
        }
        let m = message(
            r#"{"type":"object","properties":{"p":{"type":"string","minLength":3,"default":"ab"}}}"#,
        );
        assert!(m.starts_with("the `default` must be at least 3"), "{m}");
        // Bounds that contradict each other, or no options, leave the default unjudged.
        assert_eq!(
            one(r#"{"type":"string","minLength":5,"maxLength":2,"default":"abc"}"#),
            [at(ContradictoryBounds, "/properties/p/minLength")]
        );
        assert_eq!(
            one(r#"{"type":"string","enum":[],"default":"a"}"#),
            [at(EmptyEnum, "/properties/p/enum")]
        );
        for property in [
            r#"{"type":"string","minLength":2,"maxLength":2,"format":"date","default":"ab"}"#,
            r#"{"type":"integer","minimum":1.5,"maximum":2.5,"default":2}"#,
            r#"{"type":"number","minimum":-1e400,"default":-0.0}"#,
            r#"{"type":"array","minItems":0,"maxItems":0,"items":{"enum":["a"]},"default":[]}"#,
        ] {
            let found = one(property);
            let expected: &[(SchemaProblemKind, String)] = if property.contains("date") {
                &[(InvalidDefault, String::from("/properties/p/default"))]
            } else {
                &[]
            };
            assert_eq!(found, expected, "{property}");
        }
    }

    /// The well-formed copy a default is judged against, for the property written `text`.
    fn reference(text: &str) -> Option<Value> {
        let Value::Object(map) = json(text) else {
            panic!("not an object: {text}");
        };
        let mut out = Problems::default();
        let shape = read_shape(&map, "", &mut out);
        let reference = match shape {
            Shape::Text => Some(check_text(&map, "", &mut out)),
            Shape::Number => Some(check_number(&map, "", false, &mut out)),
            Shape::Integer => Some(check_number(&map, "", true, &mut out)),
            Shape::Boolean => Some(typed("boolean")),
            Shape::SingleSelect => check_single_select(&map, "", &mut out),
            Shape::MultiSelect => check_multi_select(&map, "", &mut out),
            Shape::Unknown => None,
        };
        let reference = reference.map(Value::Object);
        if let Some(r) = &reference {
            assert!(Property::read("p", r).is_ok(), "{r}");
        }
        reference
    }

    #[test]
    fn defaults_are_judged_against_the_well_formed_keywords() {
        let cases = [
            (
                r#"{"type":"string","title":1,"minLength":2,"maxLength":-1,"format":"Email","default":"x"}"#,
                Some(r#"{"type":"string","minLength":2}"#),
            ),
            (
                r#"{"type":"string","minLength":5,"maxLength":2,"format":"date"}"#,
                Some(r#"{"type":"string","format":"date"}"#),
            ),
            (
                r#"{"type":"integer","minimum":1.2,"maximum":1.8}"#,
                Some(r#"{"type":"integer"}"#),
            ),
            (
                r#"{"type":"number","minimum":"1","maximum":1.8}"#,
                Some(r#"{"type":"number","maximum":1.8}"#),
            ),
            (
                r##"{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b"},{"title":"C"},{"const":"a","title":"A"}]}"##,
                Some(r#"{"type":"string","enum":["a","b"]}"#),
            ),
            (
                r#"{"type":"string","enum":["a",1,"a"],"enumNames":[]}"#,
                Some(r#"{"type":"string","enum":["a"]}"#),
            ),
            (r#"{"type":"string","enum":[]}"#, None),
            (r#"{"type":"string","enum":[1]}"#, None),
            (
                r#"{"type":"array","minItems":1,"maxItems":2,"items":{"type":7,"anyOf":[{"const":"x","title":"X"}]}}"#,
                Some(
                    r#"{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["x"]}}"#,
                ),
            ),
            (
                r#"{"type":"array","minItems":2,"items":{"enum":["x"]}}"#,
                Some(r#"{"type":"array","items":{"type":"string","enum":["x"]}}"#),
            ),
            (
                r#"{"type":"array","minItems":2,"items":{"type":"number"}}"#,
                None,
            ),
            (
                r#"{"type":"boolean","default":3}"#,
                Some(r#"{"type":"boolean"}"#),
            ),
            (r#"{"type":"object"}"#, None),
        ];
        for (property, expected) in cases {
            assert_eq!(reference(property), expected.map(json), "{property}");
        }
    }

    // --- Order, output and robustness ---

    #[test]
    fn problems_come_in_a_fixed_order() {
        let text = r#"{
            "$schema": 1,
            "type": "array",
            "properties": {
                "b": {"type": "string", "pattern": "x", "minLength": 2.5, "title": 1, "default": 3},
                "a": {"title": "A"}
            },
            "required": ["c", "b", "b"],
            "allOf": [],
            "additionalProperties": {}
        }"#;
        assert_eq!(
            check(text),
            [
                at(WrongType, "/$schema"),
                at(InvalidValue, "/type"),
                at(UnknownRequired, "/required/0"),
                at(DuplicateValue, "/required/2"),
                at(UnsupportedKeyword, "/additionalProperties"),
                at(UnsupportedKeyword, "/allOf"),
                at(WrongType, "/properties/b/title"),
                at(InvalidValue, "/properties/b/minLength"),
                at(InvalidDefault, "/properties/b/default"),
                at(UnsupportedKeyword, "/properties/b/pattern"),
                at(MissingKeyword, "/properties/a/type"),
            ]
        );
        let value = json(text);
        assert_eq!(check_schema(&value), check_schema(&value));
    }

    #[test]
    fn problem_as_json_and_text() {
        let problems = check_schema(&json(
            r#"{"type":"object","properties":{},"required":["x"]}"#,
        ));
        let p = problems.first().unwrap();
        let value = p.to_value();
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["kind", "pointer", "message"]);
        assert_eq!(value.get("kind"), Some(&Value::from("unknown_required")));
        assert_eq!(value.get("pointer"), Some(&Value::from("/required/0")));
        assert_eq!(
            p.to_string(),
            format!("unknown_required at /required/0: {}", p.message())
        );
        assert!(p.message().contains("\"x\""), "{}", p.message());
        let root = check_schema(&Value::Null);
        assert!(
            root.first()
                .unwrap()
                .to_string()
                .starts_with("wrong_type: ")
        );
    }

    #[test]
    fn kind_names() {
        let names: BTreeSet<&str> = SchemaProblemKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(names.len(), SchemaProblemKind::ALL.len());
        for kind in SchemaProblemKind::ALL {
            assert_eq!(SchemaProblemKind::from_name(kind.as_str()), Some(kind));
            assert_eq!(kind.to_string(), kind.as_str());
        }
        assert_eq!(SchemaProblemKind::from_name("WrongType"), None);
    }

    #[test]
    fn long_values_are_cut_short_in_messages() {
        let long = "x".repeat(10_000);
        let m = message(&format!(
            r#"{{"type":"object","properties":{{"p":{{"type":"string","format":"{long}"}}}}}}"#
        ));
        assert!(m.len() < 400, "{m}");
        assert!(m.contains('…'));
        assert_eq!(quote("é".repeat(61).as_str()).chars().count(), 63);
    }

    #[test]
    fn many_options_and_names_stay_fast() {
        let options: Vec<String> = (0..10_000).map(|i| format!("\"o{}\"", i % 5000)).collect();
        let text = format!(
            r#"{{"type":"object","properties":{{"p":{{"type":"string","enum":[{}]}}}},"required":[{}]}}"#,
            options.join(","),
            options.join(",")
        );
        let problems = check(&text);
        // Each list repeats 5000 values, and the 5000 required names are unknown.
        assert_eq!(problems.len(), 15_000);
    }

    /// The value at `pointer` in `value` (RFC 6901).
    fn resolve<'a>(value: &'a Value, pointer: &str) -> Option<&'a Value> {
        if pointer.is_empty() {
            return Some(value);
        }
        let mut current = value;
        for token in pointer.strip_prefix('/')?.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            current = match current {
                Value::Object(map) => map.get(&token)?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(current)
    }

    /// The pointer of the value that holds the one at `pointer`.
    fn parent(pointer: &str) -> &str {
        pointer.rsplit_once('/').map_or("", |(p, _)| p)
    }

    const KEYS: &[&str] = &[
        "type",
        "properties",
        "required",
        "title",
        "description",
        "default",
        "enum",
        "enumNames",
        "oneOf",
        "anyOf",
        "const",
        "items",
        "minLength",
        "maxLength",
        "format",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "uniqueItems",
        "$ref",
        "additionalProperties",
        "pattern",
        "$schema",
        "p",
        "q",
        "a/b~",
    ];
    const WORDS: &[&str] = &[
        "object",
        "string",
        "number",
        "integer",
        "boolean",
        "array",
        "null",
        "email",
        "uri",
        "date",
        "date-time",
        "Email",
        "a",
        "b",
        "p",
        "q",
        "",
    ];
    const NUMBERS: &[&str] = &[
        "0",
        "1",
        "2",
        "3",
        "-1",
        "2.5",
        "3.0",
        "1e400",
        "-0",
        "1e-400",
        "0.3e1",
        "1.2",
        "1.8",
        "100",
        "18446744073709551616",
    ];

    fn arb_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            prop::sample::select(NUMBERS).prop_map(|s| Value::Number(n(s))),
            prop::sample::select(WORDS).prop_map(Value::from),
            ".{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 96, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((prop::sample::select(KEYS), inner), 0..8)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    /// Schema-like values: a root with the right `type` and arbitrary properties.
    fn arb_schema() -> impl Strategy<Value = Value> {
        (
            prop::collection::vec((prop::sample::select(KEYS), arb_value()), 0..5),
            prop::option::of(arb_value()),
        )
            .prop_map(|(properties, required)| {
                let mut root = Map::new();
                root.insert("type", Value::from("object"));
                root.insert(
                    "properties",
                    Value::Object(properties.into_iter().collect()),
                );
                if let Some(required) = required {
                    root.insert("required", required);
                }
                Value::Object(root)
            })
    }

    fn pointers_resolve(value: &Value) {
        for problem in check_schema(value) {
            let pointer = problem.pointer();
            if problem.kind() == MissingKeyword {
                let holder = resolve(value, parent(pointer));
                assert!(holder.is_some_and(Value::is_object), "{problem} in {value}");
                assert!(
                    resolve(value, pointer).is_none_or(Value::is_null),
                    "{problem} in {value}"
                );
            } else {
                assert!(resolve(value, pointer).is_some(), "{problem} in {value}");
            }
        }
    }

    proptest! {
        #[test]
        fn any_value_is_checked_without_panic(value in arb_value()) {
            pointers_resolve(&value);
        }

        #[test]
        fn schema_like_values_point_at_what_is_wrong(value in arb_schema()) {
            pointers_resolve(&value);
        }

        #[test]
        fn a_clean_schema_reads(value in arb_schema()) {
            if check_schema(&value).is_empty() {
                let read = crate::schema::RequestedSchema::from_value(&value);
                prop_assert!(read.is_ok(), "{value}: {read:?}");
            }
        }
    }

    #[test]
    fn deep_values_inside_a_schema_are_not_walked() {
        // Cloning or dropping such a value recurses, so it is built twice and leaked.
        let deep = || {
            let mut deep = Value::from("x");
            for _ in 0..100_000 {
                deep = Value::Array(vec![deep]);
            }
            deep
        };
        let mut property = Map::new();
        property.insert("type", Value::from("string"));
        property.insert("examples", deep());
        property.insert("allOf", deep());
        let mut properties = Map::new();
        properties.insert("p", Value::Object(property));
        let mut root = Map::new();
        root.insert("type", Value::from("object"));
        root.insert("properties", Value::Object(properties));
        let root = Value::Object(root);
        let problems = check_schema(&root);
        assert_eq!(
            problems
                .iter()
                .map(|p| (p.kind(), p.pointer()))
                .collect::<Vec<_>>(),
            [(UnsupportedKeyword, "/properties/p/allOf")]
        );
        core::mem::forget(root);
    }
}
