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
mod read;
pub(crate) mod rules;

pub use crate::error::{SchemaProblem, SchemaProblemKind};
pub use read::check_schema;

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
    match read::read_value(schema) {
        (Some(model), problems) => unblocked(model, problems),
        (None, problems) => Err(first_block(&problems)),
    }
}

/// [`read`] for a schema that is an object.
pub fn read_map(schema: &Map) -> Result<(RequestedSchema, Vec<SchemaProblem>), Error> {
    let (model, problems) = read::read_map(schema);
    unblocked(model, problems)
}

fn unblocked(
    model: RequestedSchema,
    problems: Vec<SchemaProblem>,
) -> Result<(RequestedSchema, Vec<SchemaProblem>), Error> {
    if problems.iter().any(|p| p.blocks().is_some()) {
        Err(first_block(&problems))
    } else {
        Ok((model, problems))
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;
    use alloc::vec;

    /// Reads JSON text with the crate's own reader, which keeps every number's spelling.
    fn json(text: &str) -> Value {
        crate::json::parse_str(text, &crate::json::Limits::DEFAULT).unwrap()
    }

    fn read(text: &str) -> Result<RequestedSchema, Error> {
        RequestedSchema::from_value(&json(text))
    }

    /// A root schema with the single property `p` given as JSON text.
    fn one(property: &str) -> Result<RequestedSchema, Error> {
        read(&format!(
            r#"{{"type":"object","properties":{{"p":{property}}}}}"#
        ))
    }

    fn kind_of(property: &str) -> PropertyKind {
        one(property)
            .unwrap()
            .properties()
            .first()
            .unwrap()
            .kind()
            .clone()
    }

    fn err(result: Result<RequestedSchema, Error>) -> (ErrorKind, String) {
        let e = result.unwrap_err();
        assert!(!e.message().is_empty());
        (e.kind(), e.pointer().to_string())
    }

    fn err_of(property: &str) -> (ErrorKind, String) {
        err(one(property))
    }

    fn string(kind: PropertyKind) -> StringSchema {
        match kind {
            PropertyKind::String(s) => s,
            other => panic!("expected a string, got {other:?}"),
        }
    }

    fn number(kind: PropertyKind) -> NumberSchema {
        match kind {
            PropertyKind::Number(n) => n,
            other => panic!("expected a number, got {other:?}"),
        }
    }

    fn single(kind: PropertyKind) -> SingleSelectSchema {
        match kind {
            PropertyKind::SingleSelect(s) => s,
            other => panic!("expected a single-select, got {other:?}"),
        }
    }

    fn multi(kind: PropertyKind) -> MultiSelectSchema {
        match kind {
            PropertyKind::MultiSelect(m) => m,
            other => panic!("expected a multi-select, got {other:?}"),
        }
    }

    fn option(value: &str, title: Option<&str>) -> EnumOption {
        EnumOption {
            value: value.to_string(),
            title: title.map(String::from),
        }
    }

    fn n(spelling: &str) -> Number {
        match json(spelling) {
            Value::Number(n) => n,
            other => panic!("{spelling} is not a number: {other:?}"),
        }
    }

    // --- The specification's own examples (schema/2026-07-28/examples) ---

    #[test]
    fn spec_elicit_request_schema() {
        let schema = read(
            r#"{"type":"object","properties":{"name":{"type":"string","title":"GitHub Username","description":"Your GitHub username"}},"required":["name"]}"#,
        )
        .unwrap();
        assert_eq!(schema.schema_uri(), None);
        assert_eq!(schema.properties().len(), 1);
        let name = schema.property("name").unwrap();
        assert_eq!(name.name(), "name");
        assert_eq!(name.title(), Some("GitHub Username"));
        assert_eq!(name.description(), Some("Your GitHub username"));
        assert_eq!(name.label(), "GitHub Username");
        assert_eq!(
            string(name.kind().clone()),
            StringSchema {
                min_length: None,
                max_length: None,
                format: None,
                default: None
            }
        );
        assert_eq!(schema.required(), ["name".to_string()]);
        assert!(schema.is_required("name"));
    }

    #[test]
    fn spec_elicit_single_field() {
        let schema = read(
            r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#,
        )
        .unwrap();
        let name = schema.property("name").unwrap();
        assert_eq!(name.title(), None);
        assert_eq!(name.label(), "name");
        assert_eq!(name.kind().json_type(), "string");
    }

    #[test]
    fn spec_elicit_multiple_fields() {
        let schema = read(
            r#"{
              "type": "object",
              "properties": {
                "name": {"type": "string", "description": "Your full name"},
                "email": {"type": "string", "format": "email", "description": "Your email address"},
                "age": {"type": "number", "minimum": 18, "description": "Your age"}
              },
              "required": ["name", "email"]
            }"#,
        )
        .unwrap();
        let names: Vec<&str> = schema.properties().iter().map(Property::name).collect();
        assert_eq!(names, ["name", "email", "age"]);
        assert!(schema.is_required("name"));
        assert!(schema.is_required("email"));
        assert!(!schema.is_required("age"));
        let email = string(schema.property("email").unwrap().kind().clone());
        assert_eq!(email.format(), Some(StringFormat::Email));
        let age = number(schema.property("age").unwrap().kind().clone());
        assert!(!age.is_integer());
        assert_eq!(age.minimum(), Some(&n("18")));
        assert_eq!(age.maximum(), None);
        assert_eq!(
            schema.property("age").unwrap().description(),
            Some("Your age")
        );
    }

    #[test]
    fn spec_string_schema() {
        let schema = one(
            r#"{"type":"string","title":"Display Name","description":"Description text","minLength":3,"maxLength":50,"format":"email","default":"user@example.com"}"#,
        )
        .unwrap();
        let p = &schema.properties().first().unwrap();
        assert_eq!(p.title(), Some("Display Name"));
        assert_eq!(p.description(), Some("Description text"));
        let s = string(p.kind().clone());
        assert_eq!(s.min_length(), Some(3));
        assert_eq!(s.max_length(), Some(50));
        assert_eq!(s.format(), Some(StringFormat::Email));
        assert_eq!(s.default(), Some("user@example.com"));
        assert_eq!(
            p.default_value(),
            Some(Value::String("user@example.com".into()))
        );
    }

    #[test]
    fn spec_number_schema() {
        let schema = one(
            r#"{"type":"number","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50}"#,
        )
        .unwrap();
        let p = &schema.properties().first().unwrap();
        let num = number(p.kind().clone());
        assert!(!num.is_integer());
        assert_eq!(num.minimum(), Some(&n("0")));
        assert_eq!(num.maximum(), Some(&n("100")));
        assert_eq!(num.default(), Some(&n("50")));
        assert_eq!(p.kind().json_type(), "number");
        assert_eq!(p.default_value(), Some(json("50")));
    }

    #[test]
    fn spec_boolean_schema() {
        let schema = one(
            r#"{"type":"boolean","title":"Display Name","description":"Description text","default":false}"#,
        )
        .unwrap();
        let p = &schema.properties().first().unwrap();
        assert_eq!(p.title(), Some("Display Name"));
        assert_eq!(
            p.kind(),
            &PropertyKind::Boolean(BooleanSchema {
                default: Some(false)
            })
        );
        assert_eq!(p.kind().json_type(), "boolean");
        assert_eq!(p.default_value(), Some(Value::Bool(false)));
    }

    #[test]
    fn spec_untitled_single_select() {
        let schema = one(
            r#"{"type":"string","title":"Color Selection","description":"Choose your favorite color","enum":["Red","Green","Blue"],"default":"Red"}"#,
        )
        .unwrap();
        let p = &schema.properties().first().unwrap();
        assert_eq!(p.title(), Some("Color Selection"));
        assert_eq!(p.kind().json_type(), "string");
        let s = single(p.kind().clone());
        assert_eq!(s.shape(), EnumShape::Untitled);
        assert_eq!(
            s.options(),
            [
                option("Red", None),
                option("Green", None),
                option("Blue", None)
            ]
        );
        assert_eq!(s.default(), Some("Red"));
        assert_eq!(s.option("Green").unwrap().label(), "Green");
        assert_eq!(s.option("Purple"), None);
        assert_eq!(p.default_value(), Some(Value::String("Red".into())));
    }

    #[test]
    fn spec_titled_single_select() {
        let schema = one(
            r##"{"type":"string","title":"Color Selection","description":"Choose your favorite color","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],"default":"#FF0000"}"##,
        )
        .unwrap();
        let s = single(schema.properties().first().unwrap().kind().clone());
        assert_eq!(s.shape(), EnumShape::Titled);
        assert_eq!(
            s.options(),
            [
                option("#FF0000", Some("Red")),
                option("#00FF00", Some("Green")),
                option("#0000FF", Some("Blue"))
            ]
        );
        assert_eq!(s.default(), Some("#FF0000"));
        let green = s.option("#00FF00").unwrap();
        assert_eq!(green.value(), "#00FF00");
        assert_eq!(green.title(), Some("Green"));
        assert_eq!(green.label(), "Green");
    }

    #[test]
    fn legacy_titled_enum() {
        let s = single(kind_of(
            r#"{"type":"string","title":"Plan","enum":["free","pro"],"enumNames":["Free tier","Pro tier"],"default":"free"}"#,
        ));
        assert_eq!(s.shape(), EnumShape::LegacyTitled);
        assert_eq!(
            s.options(),
            [
                option("free", Some("Free tier")),
                option("pro", Some("Pro tier"))
            ]
        );
        assert_eq!(s.default(), Some("free"));
    }

    #[test]
    fn legacy_enum_names_of_another_length_pair_by_position() {
        let s = single(kind_of(
            r#"{"type":"string","enum":["a","b","c"],"enumNames":["A"]}"#,
        ));
        assert_eq!(s.shape(), EnumShape::LegacyTitled);
        assert_eq!(
            s.options(),
            [option("a", Some("A")), option("b", None), option("c", None)]
        );
        let s = single(kind_of(
            r#"{"type":"string","enum":["a"],"enumNames":["A","B"]}"#,
        ));
        assert_eq!(s.options(), [option("a", Some("A"))]);
    }

    #[test]
    fn spec_untitled_multi_select() {
        let schema = one(
            r#"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}"#,
        )
        .unwrap();
        let p = &schema.properties().first().unwrap();
        assert_eq!(p.kind().json_type(), "array");
        assert_eq!(p.description(), Some("Choose your favorite colors"));
        let m = multi(p.kind().clone());
        assert_eq!(m.shape(), EnumShape::Untitled);
        assert_eq!(m.min_items(), Some(1));
        assert_eq!(m.max_items(), Some(2));
        assert_eq!(
            m.options(),
            [
                option("Red", None),
                option("Green", None),
                option("Blue", None)
            ]
        );
        assert_eq!(
            m.default(),
            Some(&["Red".to_string(), "Green".to_string()][..])
        );
        assert_eq!(p.default_value(), Some(json(r#"["Red","Green"]"#)));
    }

    #[test]
    fn spec_titled_multi_select() {
        let schema = one(
            r##"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000","#00FF00"]}"##,
        )
        .unwrap();
        let m = multi(schema.properties().first().unwrap().kind().clone());
        assert_eq!(m.shape(), EnumShape::Titled);
        assert_eq!(
            m.options(),
            [
                option("#FF0000", Some("Red")),
                option("#00FF00", Some("Green")),
                option("#0000FF", Some("Blue"))
            ]
        );
        assert_eq!(m.option("#0000FF").unwrap().label(), "Blue");
        assert_eq!(
            m.default(),
            Some(&["#FF0000".to_string(), "#00FF00".to_string()][..])
        );
    }

    // --- Other valid shapes ---

    #[test]
    fn integer_schema() {
        let num = number(kind_of(
            r#"{"type":"integer","minimum":-5,"maximum":1e3,"default":7}"#,
        ));
        assert!(num.is_integer());
        assert_eq!(num.minimum().unwrap().as_str(), "-5");
        assert_eq!(num.minimum().unwrap().as_i64(), Some(-5));
        assert_eq!(num.maximum().unwrap().as_f64(), Some(1000.0));
        assert_eq!(num.default().unwrap().as_i64(), Some(7));
        assert_eq!(kind_of(r#"{"type":"integer"}"#).json_type(), "integer");
    }

    #[test]
    fn number_spelling_survives() {
        let num = number(kind_of(
            r#"{"type":"number","minimum":0.10,"maximum":123456789012345678901234567890}"#,
        ));
        assert_eq!(num.minimum().unwrap().as_str(), "0.10");
        assert_eq!(
            num.maximum().unwrap().as_str(),
            "123456789012345678901234567890"
        );
    }

    #[test]
    fn every_string_format() {
        for (name, format) in [
            ("email", StringFormat::Email),
            ("uri", StringFormat::Uri),
            ("date", StringFormat::Date),
            ("date-time", StringFormat::DateTime),
        ] {
            let s = string(kind_of(&format!(
                r#"{{"type":"string","format":"{name}"}}"#
            )));
            assert_eq!(s.format(), Some(format));
            assert_eq!(format.as_str(), name);
            assert_eq!(StringFormat::from_name(name), Some(format));
        }
        assert_eq!(StringFormat::from_name("Email"), None);
        assert_eq!(StringFormat::from_name("uri-reference"), None);
    }

    #[test]
    fn minimal_shapes_have_no_constraints() {
        assert_eq!(
            kind_of(r#"{"type":"boolean"}"#),
            PropertyKind::Boolean(BooleanSchema { default: None })
        );
        let s = single(kind_of(r#"{"type":"string","enum":[]}"#));
        assert_eq!(s.options(), []);
        assert_eq!(s.default(), None);
        let m = multi(kind_of(r#"{"type":"array","items":{"anyOf":[]}}"#));
        assert_eq!(m.options(), []);
        assert_eq!(m.min_items(), None);
        assert_eq!(m.max_items(), None);
        assert_eq!(m.default(), None);
    }

    #[test]
    fn multi_select_items_type_may_be_omitted_with_enum() {
        let m = multi(kind_of(r#"{"type":"array","items":{"enum":["a","b"]}}"#));
        assert_eq!(m.shape(), EnumShape::Untitled);
        assert_eq!(m.options(), [option("a", None), option("b", None)]);
        let m = multi(kind_of(
            r#"{"type":"array","items":{"type":"string","anyOf":[{"const":"a","title":"A"}]}}"#,
        ));
        assert_eq!(m.shape(), EnumShape::Titled);
    }

    #[test]
    fn titled_option_without_title_is_read_without_one() {
        let s = single(kind_of(r#"{"type":"string","oneOf":[{"const":"a"}]}"#));
        assert_eq!(s.options(), [option("a", None)]);
        assert_eq!(s.options().first().unwrap().label(), "a");
    }

    #[test]
    fn empty_properties_and_no_required() {
        let schema = read(r#"{"type":"object","properties":{}}"#).unwrap();
        assert!(schema.properties().is_empty());
        assert!(schema.required().is_empty());
        assert!(!schema.is_required("x"));
        assert_eq!(schema.property("x"), None);
        assert!(schema.defaults().is_empty());
    }

    #[test]
    fn schema_uri_is_kept() {
        let schema = read(
            r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{}}"#,
        )
        .unwrap();
        assert_eq!(
            schema.schema_uri(),
            Some("https://json-schema.org/draft/2020-12/schema")
        );
    }

    #[test]
    fn property_order_is_kept() {
        let schema = read(
            r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"},"mid":{"type":"integer"}}}"#,
        )
        .unwrap();
        let names: Vec<&str> = schema.properties().iter().map(Property::name).collect();
        assert_eq!(names, ["zeta", "alpha", "mid"]);
    }

    #[test]
    fn unknown_keywords_are_ignored() {
        let schema = read(
            r#"{
              "type": "object",
              "title": "Form",
              "additionalProperties": false,
              "x-vendor": {"anything": [1, 2]},
              "properties": {
                "s": {"type": "string", "pattern": "^a", "examples": ["a"], "x-ui": 5, "enumNames": 7},
                "n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": "odd"},
                "b": {"type": "boolean", "const": true},
                "e": {"type": "string", "enum": ["a"], "minLength": "not read for a select", "format": 9},
                "m": {"type": "array", "uniqueItems": true, "items": {"enum": ["a"], "x": 1}}
              }
            }"#,
        )
        .unwrap();
        assert_eq!(schema.properties().len(), 5);
        assert_eq!(
            string(schema.property("s").unwrap().kind().clone()),
            StringSchema {
                min_length: None,
                max_length: None,
                format: None,
                default: None
            }
        );
    }

    #[test]
    fn null_members_count_as_absent() {
        let schema = read(
            r#"{"$schema":null,"type":"object","properties":{"p":{"type":"string","title":null,"minLength":null,"format":null,"default":null}},"required":null}"#,
        )
        .unwrap();
        assert_eq!(schema.schema_uri(), None);
        assert!(schema.required().is_empty());
        let p = &schema.properties().first().unwrap();
        assert_eq!(p.title(), None);
        assert_eq!(string(p.kind().clone()).min_length(), None);
        assert_eq!(p.default_value(), None);
    }

    #[test]
    fn cross_field_problems_are_not_this_readings_business() {
        let schema = read(
            r#"{
              "type": "object",
              "properties": {
                "s": {"type": "string", "minLength": 10, "maxLength": 2, "default": "way too long for it"},
                "n": {"type": "integer", "minimum": 10, "maximum": 1.5, "default": 0.5},
                "e": {"type": "string", "enum": ["a", "a"], "default": "z"},
                "m": {"type": "array", "minItems": 5, "maxItems": 1, "items": {"enum": ["a"]}, "default": ["b", "b"]}
              },
              "required": ["missing", "s", "s"]
            }"#,
        )
        .unwrap();
        assert_eq!(schema.required().len(), 3);
        assert!(schema.is_required("missing"));
        assert_eq!(schema.property("missing"), None);
        let e = single(schema.property("e").unwrap().kind().clone());
        assert_eq!(e.options(), [option("a", None), option("a", None)]);
        assert_eq!(e.default(), Some("z"));
    }

    #[test]
    fn defaults_collects_every_default_in_order() {
        let schema = read(
            r#"{"type":"object","properties":{
              "b": {"type": "boolean", "default": true},
              "none": {"type": "string"},
              "n": {"type": "number", "default": 2.50},
              "s": {"type": "string", "default": "x"},
              "e": {"type": "string", "oneOf": [{"const": "k", "title": "K"}], "default": "k"},
              "m": {"type": "array", "items": {"enum": ["a", "b"]}, "default": ["b"]}
            }}"#,
        )
        .unwrap();
        let defaults = Value::Object(schema.defaults());
        assert_eq!(
            serde_json::to_string(&defaults).unwrap(),
            r#"{"b":true,"n":2.50,"s":"x","e":"k","m":["b"]}"#
        );
    }

    #[test]
    fn from_map_and_from_value_agree() {
        let value = json(r#"{"type":"object","properties":{"a":{"type":"string"}}}"#);
        let map = value.as_object().unwrap();
        assert_eq!(
            RequestedSchema::from_map(map).unwrap(),
            RequestedSchema::from_value(&value).unwrap()
        );
    }

    // --- Errors: kind and pointer ---

    #[test]
    fn root_must_be_an_object() {
        for text in ["[]", "\"object\"", "5", "true", "null"] {
            assert_eq!(err(read(text)), (ErrorKind::WrongType, String::new()));
        }
    }

    #[test]
    fn root_type() {
        assert_eq!(
            err(read(r#"{"properties":{}}"#)),
            (ErrorKind::MissingField, "/type".into())
        );
        assert_eq!(
            err(read(r#"{"type":null,"properties":{}}"#)),
            (ErrorKind::MissingField, "/type".into())
        );
        assert_eq!(
            err(read(r#"{"type":["object"],"properties":{}}"#)),
            (ErrorKind::WrongType, "/type".into())
        );
        for ty in ["array", "string", "Object", ""] {
            assert_eq!(
                err(read(&format!(r#"{{"type":"{ty}","properties":{{}}}}"#))),
                (ErrorKind::InvalidValue, "/type".into())
            );
        }
    }

    #[test]
    fn root_schema_uri_type() {
        assert_eq!(
            err(read(r#"{"$schema":1,"type":"object","properties":{}}"#)),
            (ErrorKind::WrongType, "/$schema".into())
        );
    }

    #[test]
    fn root_properties() {
        assert_eq!(
            err(read(r#"{"type":"object"}"#)),
            (ErrorKind::MissingField, "/properties".into())
        );
        assert_eq!(
            err(read(r#"{"type":"object","properties":[]}"#)),
            (ErrorKind::WrongType, "/properties".into())
        );
    }

    #[test]
    fn root_required() {
        assert_eq!(
            err(read(r#"{"type":"object","properties":{},"required":"x"}"#)),
            (ErrorKind::WrongType, "/required".into())
        );
        assert_eq!(
            err(read(
                r#"{"type":"object","properties":{},"required":["a",1]}"#
            )),
            (ErrorKind::WrongType, "/required/1".into())
        );
        assert_eq!(
            err(read(
                r#"{"type":"object","properties":{},"required":["a","b",null]}"#
            )),
            (ErrorKind::WrongType, "/required/2".into())
        );
    }

    #[test]
    fn property_must_be_an_object() {
        for p in [r#""string""#, "true", "[]", "3"] {
            assert_eq!(err_of(p), (ErrorKind::WrongType, "/properties/p".into()));
        }
    }

    #[test]
    fn property_type() {
        assert_eq!(
            err_of(r#"{"title":"No type"}"#),
            (ErrorKind::MissingField, "/properties/p/type".into())
        );
        assert_eq!(
            err_of(r#"{"type":["string","null"]}"#),
            (ErrorKind::WrongType, "/properties/p/type".into())
        );
        for ty in ["null", "text", "String", "int"] {
            assert_eq!(
                err_of(&format!(r#"{{"type":"{ty}"}}"#)),
                (ErrorKind::InvalidValue, "/properties/p/type".into())
            );
        }
    }

    #[test]
    fn nested_objects_are_refused_with_a_clear_message() {
        let e = one(r#"{"type":"object","properties":{"street":{"type":"string"}}}"#).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert_eq!(e.pointer(), "/properties/p/type");
        assert!(e.message().contains("nested objects are not allowed"));
    }

    #[test]
    fn title_and_description_types() {
        assert_eq!(
            err_of(r#"{"type":"string","title":5}"#),
            (ErrorKind::WrongType, "/properties/p/title".into())
        );
        assert_eq!(
            err_of(r#"{"type":"boolean","description":{}}"#),
            (ErrorKind::WrongType, "/properties/p/description".into())
        );
    }

    #[test]
    fn string_keyword_types() {
        assert_eq!(
            err_of(r#"{"type":"string","minLength":"3"}"#),
            (ErrorKind::WrongType, "/properties/p/minLength".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","maxLength":true}"#),
            (ErrorKind::WrongType, "/properties/p/maxLength".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","format":5}"#),
            (ErrorKind::WrongType, "/properties/p/format".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","default":5}"#),
            (ErrorKind::WrongType, "/properties/p/default".into())
        );
    }

    #[test]
    fn unknown_format() {
        for format in ["phone", "uuid", "Date", "", "datetime"] {
            let e = one(&format!(r#"{{"type":"string","format":"{format}"}}"#)).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidValue);
            assert_eq!(e.pointer(), "/properties/p/format");
            assert!(e.message().contains("date-time"));
        }
    }

    #[test]
    fn lengths_and_counts_must_be_non_negative_integers() {
        for bad in [
            "-1",
            "2.5",
            "0.1",
            "-3.0",
            "1e-1",
            "3.0000000000000001",
            "1e-400",
        ] {
            assert_eq!(
                err_of(&format!(r#"{{"type":"string","minLength":{bad}}}"#)),
                (ErrorKind::InvalidValue, "/properties/p/minLength".into()),
                "minLength {bad}"
            );
            assert_eq!(
                err_of(&format!(
                    r#"{{"type":"array","maxItems":{bad},"items":{{"enum":[]}}}}"#
                )),
                (ErrorKind::InvalidValue, "/properties/p/maxItems".into()),
                "maxItems {bad}"
            );
        }
        assert_eq!(
            err_of(r#"{"type":"array","minItems":"1","items":{"enum":[]}}"#),
            (ErrorKind::WrongType, "/properties/p/minItems".into())
        );
    }

    #[test]
    fn integral_spellings_all_count() {
        for (spelling, value) in [
            ("0", 0),
            ("3", 3),
            ("3.0", 3),
            ("3.000", 3),
            ("0.3e1", 3),
            ("30e-1", 3),
            ("1e2", 100),
            ("1E+2", 100),
            ("-0", 0),
            ("-0.0", 0),
            ("0e-5", 0),
            ("18446744073709551615", u64::MAX),
        ] {
            let s = string(kind_of(&format!(
                r#"{{"type":"string","minLength":{spelling}}}"#
            )));
            assert_eq!(s.min_length(), Some(value), "{spelling}");
        }
    }

    #[test]
    fn counts_beyond_u64_saturate() {
        for spelling in [
            "18446744073709551616",
            "1e20",
            "1e400",
            "123456789012345678901234567890.0",
            "1e999999999999999999999",
        ] {
            assert_eq!(
                crate::json::decimal::saturating_u64(spelling),
                Some(u64::MAX),
                "{spelling}"
            );
        }
    }

    #[test]
    fn count_reads_spellings_exactly() {
        assert_eq!(crate::json::decimal::saturating_u64("120"), Some(120));
        assert_eq!(crate::json::decimal::saturating_u64("1.20e2"), Some(120));
        assert_eq!(crate::json::decimal::saturating_u64("0.0012e5"), Some(120));
        assert_eq!(crate::json::decimal::saturating_u64("0012"), Some(12));
        assert_eq!(crate::json::decimal::saturating_u64("1.5"), None);
        assert_eq!(crate::json::decimal::saturating_u64("-1"), None);
        assert_eq!(
            crate::json::decimal::saturating_u64("-1e-999999999999999999999"),
            None
        );
        assert_eq!(
            crate::json::decimal::saturating_u64("1e-999999999999999999999"),
            None
        );
        // Not number spellings at all.
        for junk in [
            "", "-", ".5", "5.", "1e", "1e+", "x", "1.2.3", "0x10", "1_000",
        ] {
            assert_eq!(crate::json::decimal::saturating_u64(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn number_keyword_types() {
        assert_eq!(
            err_of(r#"{"type":"number","minimum":"3"}"#),
            (ErrorKind::WrongType, "/properties/p/minimum".into())
        );
        assert_eq!(
            err_of(r#"{"type":"integer","maximum":[1]}"#),
            (ErrorKind::WrongType, "/properties/p/maximum".into())
        );
        assert_eq!(
            err_of(r#"{"type":"number","default":"50"}"#),
            (ErrorKind::WrongType, "/properties/p/default".into())
        );
    }

    #[test]
    fn boolean_default_type() {
        assert_eq!(
            err_of(r#"{"type":"boolean","default":"true"}"#),
            (ErrorKind::WrongType, "/properties/p/default".into())
        );
    }

    #[test]
    fn single_select_errors() {
        assert_eq!(
            err_of(r#"{"type":"string","enum":"a"}"#),
            (ErrorKind::WrongType, "/properties/p/enum".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","enum":["a",1]}"#),
            (ErrorKind::WrongType, "/properties/p/enum/1".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","enum":["a"],"enumNames":"A"}"#),
            (ErrorKind::WrongType, "/properties/p/enumNames".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","enum":["a"],"enumNames":[false]}"#),
            (ErrorKind::WrongType, "/properties/p/enumNames/0".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","enum":["a"],"default":["a"]}"#),
            (ErrorKind::WrongType, "/properties/p/default".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","oneOf":{"const":"a","title":"A"}}"#),
            (ErrorKind::WrongType, "/properties/p/oneOf".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","oneOf":[{"const":"a","title":"A"},"b"]}"#),
            (ErrorKind::WrongType, "/properties/p/oneOf/1".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","oneOf":[{"title":"A"}]}"#),
            (
                ErrorKind::MissingField,
                "/properties/p/oneOf/0/const".into()
            )
        );
        assert_eq!(
            err_of(r#"{"type":"string","oneOf":[{"const":1,"title":"One"}]}"#),
            (ErrorKind::WrongType, "/properties/p/oneOf/0/const".into())
        );
        assert_eq!(
            err_of(
                r#"{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b","title":2}]}"#
            ),
            (ErrorKind::WrongType, "/properties/p/oneOf/1/title".into())
        );
        assert_eq!(
            err_of(r#"{"type":"string","oneOf":[{"const":"a","title":"A"}],"default":1}"#),
            (ErrorKind::WrongType, "/properties/p/default".into())
        );
    }

    #[test]
    fn enum_and_one_of_together_fit_no_shape() {
        assert_eq!(
            err_of(r#"{"type":"string","enum":["a"],"oneOf":[{"const":"a","title":"A"}]}"#),
            (ErrorKind::InvalidValue, "/properties/p".into())
        );
    }

    #[test]
    fn multi_select_errors() {
        assert_eq!(
            err_of(r#"{"type":"array"}"#),
            (ErrorKind::MissingField, "/properties/p/items".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":"string"}"#),
            (ErrorKind::WrongType, "/properties/p/items".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":[{"type":"string"}]}"#),
            (ErrorKind::WrongType, "/properties/p/items".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{"type":"string"}}"#),
            (ErrorKind::InvalidValue, "/properties/p/items".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{}}"#),
            (ErrorKind::InvalidValue, "/properties/p/items".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{"type":"object","properties":{}}}"#),
            (ErrorKind::InvalidValue, "/properties/p/items/type".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{"type":"number","enum":[1,2]}}"#),
            (ErrorKind::InvalidValue, "/properties/p/items/type".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{"type":7,"enum":["a"]}}"#),
            (ErrorKind::WrongType, "/properties/p/items/type".into())
        );
        assert_eq!(
            err_of(
                r#"{"type":"array","items":{"enum":["a"],"anyOf":[{"const":"a","title":"A"}]}}"#
            ),
            (ErrorKind::InvalidValue, "/properties/p/items".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{"type":"string","enum":["a",null]}}"#),
            (ErrorKind::WrongType, "/properties/p/items/enum/1".into())
        );
        assert_eq!(
            err_of(
                r#"{"type":"array","items":{"anyOf":[{"const":"a","title":"A"},{"title":"B"}]}}"#
            ),
            (
                ErrorKind::MissingField,
                "/properties/p/items/anyOf/1/const".into()
            )
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{"anyOf":"a"}}"#),
            (ErrorKind::WrongType, "/properties/p/items/anyOf".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{"enum":["a"]},"default":"a"}"#),
            (ErrorKind::WrongType, "/properties/p/default".into())
        );
        assert_eq!(
            err_of(r#"{"type":"array","items":{"enum":["a"]},"default":["a",1]}"#),
            (ErrorKind::WrongType, "/properties/p/default/1".into())
        );
    }

    #[test]
    fn property_names_are_escaped_in_pointers() {
        let e = read(r#"{"type":"object","properties":{"a/b~c":{"type":"string","title":1}}}"#)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::WrongType);
        assert_eq!(e.pointer(), "/properties/a~1b~0c/title");
        let e = read(
            r#"{"type":"object","properties":{"ok":{"type":"string"},"~/":{"type":"array","items":{"anyOf":[{"const":0}]}}}}"#,
        )
        .unwrap_err();
        assert_eq!(e.pointer(), "/properties/~0~1/items/anyOf/0/const");
        // The name itself is kept unescaped.
        let schema = read(r#"{"type":"object","properties":{"a/b~c":{"type":"string"}}}"#).unwrap();
        assert_eq!(schema.properties().first().unwrap().name(), "a/b~c");
        assert!(schema.property("a/b~c").is_some());
    }

    #[test]
    fn the_first_blocking_problem_in_check_order_is_reported() {
        // The root's keywords come before the properties, as in `check_schema`.
        let e = read(
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"nope"},"c":{"type":"object"}},"required":5}"#,
        )
        .unwrap_err();
        assert_eq!(e.pointer(), "/required");
        // Then the properties in the order written.
        let e = read(
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"nope"},"c":{"type":"object"}}}"#,
        )
        .unwrap_err();
        assert_eq!(e.pointer(), "/properties/b/type");
        // Problems that leave a usable form do not count.
        let e = read(
            r#"{"type":"object","properties":{"a":{"type":"string","pattern":"x"},"b":{"type":"nope"}},"required":["z"]}"#,
        )
        .unwrap_err();
        assert_eq!(e.pointer(), "/properties/b/type");
    }

    #[test]
    fn messages_name_what_was_found() {
        let e = one(r#"{"type":"string","minLength":"3"}"#).unwrap_err();
        assert!(e.message().contains("minLength"), "{}", e.message());
        assert!(e.message().contains("a string"), "{}", e.message());
        let e = one(r#"{"type":"string","minLength":-2}"#).unwrap_err();
        assert!(e.message().contains("-2"), "{}", e.message());
        let e = read(r#"{"type":"object","properties":{},"required":["a",1]}"#).unwrap_err();
        assert!(e.message().contains("item 1"), "{}", e.message());
    }

    #[test]
    fn json_type_of_each_kind() {
        let cases = vec![
            (r#"{"type":"string"}"#, "string"),
            (r#"{"type":"string","enum":["a"]}"#, "string"),
            (r#"{"type":"number"}"#, "number"),
            (r#"{"type":"integer"}"#, "integer"),
            (r#"{"type":"boolean"}"#, "boolean"),
            (r#"{"type":"array","items":{"enum":["a"]}}"#, "array"),
        ];
        for (property, ty) in cases {
            assert_eq!(kind_of(property).json_type(), ty, "{property}");
        }
    }
}
