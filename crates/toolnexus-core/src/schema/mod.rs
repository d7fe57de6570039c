//! The typed model of an MCP elicitation `requestedSchema`: a flat object whose properties are
//! strings, numbers, booleans and single- or multi-select enumerations.
//!
//! The schema as received stays the source of truth (it travels verbatim in a
//! [`Request`](crate::Request)'s `data.schema`). This module is a typed *reading* of it, so that
//! code which needs to understand the form — validating submitted content, building a form for
//! a UI, pre-filling defaults — works on named fields instead of raw JSON.
//!
//! The shapes are those of the MCP specification (revisions 2025-11-25 and 2026-07-28):
//!
//! | `type` | other keywords | [`PropertyKind`] |
//! |---|---|---|
//! | `"string"` | `minLength`, `maxLength`, `format`, `default` | [`String`](PropertyKind::String) |
//! | `"number"`, `"integer"` | `minimum`, `maximum`, `default` | [`Number`](PropertyKind::Number) |
//! | `"boolean"` | `default` | [`Boolean`](PropertyKind::Boolean) |
//! | `"string"` | `enum` (+ legacy `enumNames`) or `oneOf: [{const, title}]`, `default` | [`SingleSelect`](PropertyKind::SingleSelect) |
//! | `"array"` | `items: {type: "string", enum}` or `items: {anyOf: [{const, title}]}`, `minItems`, `maxItems`, `default` | [`MultiSelect`](PropertyKind::MultiSelect) |
//!
//! Every property may also carry `title` and `description`.
//!
//! ```
//! use toolnexus_core::schema::{PropertyKind, RequestedSchema};
//! use toolnexus_core::Value;
//!
//! let raw: Value = toolnexus_core::json::parse_str(
//!     r#"{"type":"object","properties":{"age":{"type":"integer","minimum":18}},"required":["age"]}"#,
//!     &toolnexus_core::Limits::DEFAULT,
//! )?;
//! let schema = RequestedSchema::from_value(&raw)?;
//! let age = schema.property("age").unwrap();
//! assert!(schema.is_required("age"));
//! match age.kind() {
//!     PropertyKind::Number(n) => {
//!         assert!(n.is_integer());
//!         assert_eq!(n.minimum().and_then(|m| m.as_u64()), Some(18));
//!     }
//!     _ => unreachable!(),
//! }
//! # Ok::<(), toolnexus_core::Error>(())
//! ```
//!
//! # One reader
//!
//! [`read`] reads a schema once: in one strict pass it builds the typed model and lists every
//! problem with it. A problem either [blocks](SchemaProblem::blocks) the form (a property
//! without a usable `type`, a length that is not a number, a `default` content could not
//! hold…) or leaves a form a person can fill in (an unknown keyword, `required` naming a
//! missing property, bounds that contradict each other, a `default` its property refuses…).
//! [`check_schema`] is that list; [`RequestedSchema::from_value`] is that model, failing with
//! the first blocking problem; [`Form`](crate::form::Form) keeps both. One set of rules, one
//! set of messages.
//!
//! # The problems
//!
//! [`check_schema`] gives every problem with a `requestedSchema`, each with a kind, a JSON
//! pointer and a message, so that a host can refuse or repair a form before a person sees it.
//! It never panics, and it lists problems in a fixed order, so that every run and every
//! binding reports the same list:
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
//! use toolnexus_core::schema::{check_schema, SchemaProblemKind};
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

pub mod format;
mod reader;
pub(crate) mod rules;
#[cfg(test)]
mod tests;

pub use crate::error::{SchemaProblem, SchemaProblemKind};
pub use reader::check_schema;

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::{Map, Number, Value};

use crate::error::{Error, ErrorKind, closed_set};

/// Reads `schema`, any JSON value, as a `requestedSchema`, in one pass: the typed model and
/// every problem the schema has, none of which blocks the model. Fails with the first problem
/// that blocks it (see [`SchemaProblem::blocks`]), pointing into the schema.
///
/// This is the one reader of a schema: [`check_schema`] is its list of problems, and
/// [`RequestedSchema::from_value`] its model.
pub fn read(schema: &Value) -> Result<(RequestedSchema, Vec<SchemaProblem>), Error> {
    unblocked(reader::Reading::of(schema))
}

/// [`read`] for a schema that is a JSON object.
pub fn read_map(schema: &Map) -> Result<(RequestedSchema, Vec<SchemaProblem>), Error> {
    unblocked(reader::Reading::of_object(schema))
}

/// The model, when no problem blocks it; else the first problem that does.
fn unblocked(reading: reader::Reading) -> Result<(RequestedSchema, Vec<SchemaProblem>), Error> {
    match reading.model {
        Some(model) if reading.problems.iter().all(|p| p.blocks().is_none()) => {
            Ok((model, reading.problems))
        }
        _ => Err(first_block(&reading.problems)),
    }
}

/// The error of the first problem that blocks the model.
fn first_block(problems: &[SchemaProblem]) -> Error {
    problems
        .iter()
        .find_map(SchemaProblem::to_error)
        .unwrap_or_else(|| Error::new(ErrorKind::InvalidValue, "", "the schema cannot be read"))
}

/// A typed reading of an MCP `requestedSchema`:
/// `{$schema?: string, type: "object", properties: {NAME: schema}, required?: string[]}`.
///
/// Properties keep the order they have in the input, so a form built from them shows the fields
/// in the order the server wrote them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestedSchema {
    schema_uri: Option<String>,
    properties: Vec<Property>,
    required: Vec<String>,
    /// Made from the two above once, so that no look-up by name scans a large form.
    index: Index,
}

/// The look-ups a form makes by name, prepared when the schema is read: finding a property
/// and whether it is required take a binary search, whatever the number of properties.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Index {
    /// The positions of the properties, ordered by name (for equal names, which a map read
    /// without its checks could hold, the first property comes first).
    by_name: Vec<usize>,
    /// For each property, whether `required` lists it.
    required: Vec<bool>,
    /// The names `required` lists that no property declares, each once, in the order listed.
    undeclared: Vec<String>,
    /// Whether no two properties share a name, so that a name found at a position is the
    /// first with it.
    distinct: bool,
}

impl Index {
    fn new(properties: &[Property], required: &[String]) -> Index {
        let mut by_name: Vec<usize> = (0..properties.len()).collect();
        by_name.sort_by(|&a, &b| name_at(properties, a).cmp(name_at(properties, b)));
        let distinct = by_name.windows(2).all(
            |pair| matches!(pair, [a, b] if name_at(properties, *a) != name_at(properties, *b)),
        );
        let mut index = Index {
            by_name,
            required: alloc::vec![false; properties.len()],
            undeclared: Vec::new(),
            distinct,
        };
        let mut undeclared_seen = alloc::collections::BTreeSet::new();
        for name in required {
            match index.position(properties, name) {
                Some(at) => {
                    if let Some(flag) = index.required.get_mut(at) {
                        *flag = true;
                    }
                }
                None => {
                    if undeclared_seen.insert(name.as_str()) {
                        index.undeclared.push(name.clone());
                    }
                }
            }
        }
        index
    }

    /// The position of the (first) property called `name`.
    fn position(&self, properties: &[Property], name: &str) -> Option<usize> {
        let first = self
            .by_name
            .partition_point(|&at| name_at(properties, at) < name);
        let at = *self.by_name.get(first)?;
        (name_at(properties, at) == name).then_some(at)
    }
}

/// The name of the property at `at` (`""` past the end, which no position is).
fn name_at(properties: &[Property], at: usize) -> &str {
    properties.get(at).map_or("", |p| p.name.as_str())
}

impl RequestedSchema {
    /// Reads a `requestedSchema` given as any JSON value: [`read`] without the problems that
    /// leave a usable form. Fails with the first problem that blocks the form, its pointer
    /// into the schema:
    ///
    /// - [`ErrorKind::MissingField`]: no `type` on the root or on a property, no `properties`,
    ///   no `items` on an array property, no `const` on a titled option.
    /// - [`ErrorKind::WrongType`]: the schema is not an object, or a keyword the form needs
    ///   holds the wrong JSON type (`"minLength": "3"`, `"title": 5`, `"enum": "a"`,
    ///   `"required": ["a", 1]` → `/required/1`, a `default` content could not hold, a `type`
    ///   list…).
    /// - [`ErrorKind::InvalidValue`]: the root `type` is not `"object"`; a property `type`
    ///   outside `string`, `number`, `integer`, `boolean`, `array` (nested objects included);
    ///   an array whose `items` is neither select shape; a string with both `enum` and
    ///   `oneOf`; a `format` outside `email`, `uri`, `date`, `date-time`; a `minLength`,
    ///   `maxLength`, `minItems` or `maxItems` that is not a non-negative integer.
    ///
    /// Everything else is read as written, because servers add keywords of their own and
    /// refusing those would refuse forms a person could fill in: unknown and unsupported
    /// keywords, `minimum` above `maximum`, `required` naming a property that does not exist,
    /// duplicate options, `enumNames` of another length than `enum` (extra names dropped,
    /// missing ones read as no title), a titled option without `title`, a `default` that
    /// breaks its own property. [`check_schema`] reports those.
    pub fn from_value(value: &Value) -> Result<RequestedSchema, Error> {
        read(value).map(|(model, _)| model)
    }

    /// [`RequestedSchema::from_value`] for a schema that is an object.
    pub fn from_map(map: &Map) -> Result<RequestedSchema, Error> {
        read_map(map).map(|(model, _)| model)
    }

    /// The `$schema` URI, if the schema names its dialect.
    pub fn schema_uri(&self) -> Option<&str> {
        self.schema_uri.as_deref()
    }

    /// The properties, in the order the input lists them.
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }

    /// The model of `properties` and `required` as read.
    pub(crate) fn new(
        schema_uri: Option<String>,
        properties: Vec<Property>,
        required: Vec<String>,
    ) -> RequestedSchema {
        let index = Index::new(&properties, &required);
        RequestedSchema {
            schema_uri,
            properties,
            required,
            index,
        }
    }

    /// The property called `name`, if there is one.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.get(self.position(name)?)
    }

    /// Where the property called `name` sits in [`properties`](RequestedSchema::properties).
    pub fn position(&self, name: &str) -> Option<usize> {
        self.index.position(&self.properties, name)
    }

    /// [`position`](RequestedSchema::position), trying `guess` first: content usually lists
    /// its members in the order of the properties, so the place after the last one found is
    /// where the next one mostly is, found with a single comparison.
    pub(crate) fn position_guessing(&self, name: &str, guess: usize) -> Option<usize> {
        if self.index.distinct && name_at(&self.properties, guess) == name && !name.is_empty() {
            return Some(guess);
        }
        self.position(name)
    }

    /// Whether `required` lists the property at `position`.
    pub(crate) fn is_required_at(&self, position: usize) -> bool {
        self.index.required.get(position).copied().unwrap_or(false)
    }

    /// The names `required` lists that no property declares, each once, in the order listed.
    pub(crate) fn undeclared_required(&self) -> &[String] {
        &self.index.undeclared
    }

    /// The names listed in `required`, as written (possibly naming properties that do not
    /// exist, or the same one twice: see [`from_map`](RequestedSchema::from_map)).
    pub fn required(&self) -> &[String] {
        &self.required
    }

    /// Whether `required` lists `name`.
    pub fn is_required(&self, name: &str) -> bool {
        match self.position(name) {
            Some(at) => self.is_required_at(at),
            None => self.index.undeclared.iter().any(|r| r == name),
        }
    }

    /// The `default` of every property that has one, keyed by property name, in property
    /// order: the content a form starts from (the specification asks clients to pre-populate
    /// defaults).
    pub fn defaults(&self) -> Map {
        self.properties
            .iter()
            .filter_map(|p| Some((p.name.clone(), p.default_value()?)))
            .collect()
    }
}

/// One member of `properties`: its name, the `title` and `description` every shape may carry,
/// and what kind of value it asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    name: String,
    title: Option<String>,
    description: Option<String>,
    kind: PropertyKind,
}

impl Property {
    /// The property's name: its key in `properties` and in submitted content.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The `title`, a short label for the field, if given.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The `description`, longer help text for the field, if given.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// What kind of value the property asks for, with the constraints of that kind.
    pub fn kind(&self) -> &PropertyKind {
        &self.kind
    }

    /// What to show a person as the field's label: the `title`, or else the name.
    pub fn label(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }

    /// The `default`, if any, as the JSON value that content for this property would hold: a
    /// string, a number (spelled as in the schema), a boolean or an array of strings.
    pub fn default_value(&self) -> Option<Value> {
        match &self.kind {
            PropertyKind::String(s) => s.default.as_deref().map(Value::from),
            PropertyKind::Number(n) => n.default.clone().map(Value::Number),
            PropertyKind::Boolean(b) => b.default.map(Value::Bool),
            PropertyKind::SingleSelect(s) => s.default.as_deref().map(Value::from),
            PropertyKind::MultiSelect(m) => m
                .default
                .as_ref()
                .map(|d| Value::Array(d.iter().map(|s| Value::from(s.as_str())).collect())),
        }
    }
}

/// The kinds of value an elicitation property can ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PropertyKind {
    /// Free text (`type: "string"` without `enum` or `oneOf`).
    String(StringSchema),
    /// A number (`type: "number"`) or an integer (`type: "integer"`).
    Number(NumberSchema),
    /// Yes or no (`type: "boolean"`).
    Boolean(BooleanSchema),
    /// One value out of a list (`type: "string"` with `enum` or `oneOf`).
    SingleSelect(SingleSelectSchema),
    /// Any number of values out of a list (`type: "array"`).
    MultiSelect(MultiSelectSchema),
}

impl PropertyKind {
    /// The property's `type` keyword: `"string"`, `"number"`, `"integer"`, `"boolean"` or
    /// `"array"`. Also the JSON type its content must have (a JSON number, for `"integer"`,
    /// with no fractional part).
    pub fn json_type(&self) -> &'static str {
        match self {
            PropertyKind::String(_) | PropertyKind::SingleSelect(_) => "string",
            PropertyKind::Number(n) if n.integer => "integer",
            PropertyKind::Number(_) => "number",
            PropertyKind::Boolean(_) => "boolean",
            PropertyKind::MultiSelect(_) => "array",
        }
    }
}

/// A free-text property:
/// `{type: "string", minLength?, maxLength?, format?, default?: string}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringSchema {
    min_length: Option<u64>,
    max_length: Option<u64>,
    format: Option<StringFormat>,
    default: Option<String>,
}

impl StringSchema {
    /// `minLength`: the fewest characters (Unicode code points, per JSON Schema) allowed.
    pub fn min_length(&self) -> Option<u64> {
        self.min_length
    }

    /// `maxLength`: the most characters (Unicode code points, per JSON Schema) allowed.
    pub fn max_length(&self) -> Option<u64> {
        self.max_length
    }

    /// `format`: what the text must be (an email address, a URI, a date, a date-time).
    pub fn format(&self) -> Option<StringFormat> {
        self.format
    }

    /// `default`: the text to start from.
    pub fn default(&self) -> Option<&str> {
        self.default.as_deref()
    }
}

closed_set! {
    /// The four string formats an elicitation schema may name, by the name written in a
    /// schema (names are case-sensitive, as in JSON Schema).
    #[non_exhaustive]
    pub enum StringFormat {
    /// `"email"`: an email address.
    Email => "email",
    /// `"uri"`: an absolute URI.
    Uri => "uri",
    /// `"date"`: an RFC 3339 full-date (see [`crate::rfc3339::is_full_date`]).
    Date => "date",
    /// `"date-time"`: an RFC 3339 date-time (see [`crate::rfc3339::is_date_time`]).
    DateTime => "date-time",
    }
}

/// A numeric property: `{type: "number" | "integer", minimum?, maximum?, default?: number}`.
///
/// Numbers are kept as [`Number`]s, spelled exactly as in the schema; read them with
/// [`Number::as_f64`], [`Number::as_i64`] or [`Number::as_u64`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberSchema {
    integer: bool,
    minimum: Option<Number>,
    maximum: Option<Number>,
    default: Option<Number>,
}

impl NumberSchema {
    /// Whether the property is `type: "integer"` (a whole number) rather than `"number"`.
    pub fn is_integer(&self) -> bool {
        self.integer
    }

    /// `minimum`: the smallest value allowed (inclusive).
    pub fn minimum(&self) -> Option<&Number> {
        self.minimum.as_ref()
    }

    /// `maximum`: the largest value allowed (inclusive).
    pub fn maximum(&self) -> Option<&Number> {
        self.maximum.as_ref()
    }

    /// `default`: the value to start from.
    pub fn default(&self) -> Option<&Number> {
        self.default.as_ref()
    }
}

/// A yes-or-no property: `{type: "boolean", default?: boolean}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BooleanSchema {
    default: Option<bool>,
}

impl BooleanSchema {
    /// `default`: the value to start from.
    pub fn default(&self) -> Option<bool> {
        self.default
    }
}

/// Which of the specification's spellings a select uses for its options. The options read
/// the same way whatever the spelling; this records it for code that must write the schema
/// back or warn about the deprecated form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EnumShape {
    /// Values only: `enum: [...]` (for a multi-select, `items: {type: "string", enum: [...]}`).
    /// Options have no title.
    Untitled,
    /// Values with display titles: `oneOf: [{const, title}]` (for a multi-select,
    /// `items: {anyOf: [{const, title}]}`).
    Titled,
    /// The deprecated single-select spelling `enum: [...]` with `enumNames: [...]` giving the
    /// titles by position. Still accepted by the specification.
    LegacyTitled,
}

/// One choice of a select: the value that content holds when it is chosen, and the title to
/// show for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumOption {
    value: String,
    title: Option<String>,
}

impl EnumOption {
    /// The value (`enum` item or `const`): what the content holds when this option is chosen.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The display title (`title` or the matching `enumNames` item), if there is one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// What to show a person: the title, or else the value itself.
    pub fn label(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.value)
    }
}

/// A single-select property: `{type: "string", enum: [...], enumNames?: [...], default?}` or
/// `{type: "string", oneOf: [{const, title}], default?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SingleSelectSchema {
    shape: EnumShape,
    options: Vec<EnumOption>,
    default: Option<String>,
}

impl SingleSelectSchema {
    /// How the options were spelled.
    pub fn shape(&self) -> EnumShape {
        self.shape
    }

    /// The options, in the order the schema lists them.
    pub fn options(&self) -> &[EnumOption] {
        &self.options
    }

    /// The first option whose value is `value`, if any.
    pub fn option(&self, value: &str) -> Option<&EnumOption> {
        self.options.iter().find(|o| o.value == value)
    }

    /// `default`: the value selected to start with.
    pub fn default(&self) -> Option<&str> {
        self.default.as_deref()
    }
}

/// A multi-select property: `{type: "array", minItems?, maxItems?, items: {type: "string",
/// enum: [...]} | {anyOf: [{const, title}]}, default?: string[]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiSelectSchema {
    shape: EnumShape,
    options: Vec<EnumOption>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    default: Option<Vec<String>>,
}

impl MultiSelectSchema {
    /// How the options were spelled: [`EnumShape::Untitled`] or [`EnumShape::Titled`].
    pub fn shape(&self) -> EnumShape {
        self.shape
    }

    /// The options, in the order the schema lists them.
    pub fn options(&self) -> &[EnumOption] {
        &self.options
    }

    /// The first option whose value is `value`, if any.
    pub fn option(&self, value: &str) -> Option<&EnumOption> {
        self.options.iter().find(|o| o.value == value)
    }

    /// `minItems`: the fewest options that may be chosen.
    pub fn min_items(&self) -> Option<u64> {
        self.min_items
    }

    /// `maxItems`: the most options that may be chosen.
    pub fn max_items(&self) -> Option<u64> {
        self.max_items
    }

    /// `default`: the values selected to start with.
    pub fn default(&self) -> Option<&[String]> {
        self.default.as_deref()
    }
}
