//! The validation keywords of JSON Schema, where each takes effect and what to write instead,
//! and the check that reports those an elicitation schema does not have.

use alloc::format;

use super::SchemaProblemKind;
use super::problems::{Problems, child};
use crate::json::Map;

/// The JSON types an instance can have, for deciding where a validation keyword takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::schema) enum Instance {
    String,
    Number,
    Boolean,
    Array,
    Object,
}

/// A JSON Schema validation keyword: where it takes effect and what to write instead.
#[derive(Debug, Clone, Copy)]
pub(in crate::schema) struct ValidationKeyword {
    pub(in crate::schema) name: &'static str,
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
pub(in crate::schema) const VALIDATION_KEYWORDS: &[ValidationKeyword] = &[
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
pub(in crate::schema) struct Context {
    pub(in crate::schema) what: &'static str,
    /// `None` when the shape is unknown: then only keywords for every type are checked.
    pub(in crate::schema) instance: Option<Instance>,
    pub(in crate::schema) own: &'static [&'static str],
}

pub(in crate::schema) const ROOT: Context = Context {
    what: "the root of an elicitation schema",
    instance: Some(Instance::Object),
    own: &["type", "properties", "required", "additionalProperties"],
};

pub(in crate::schema) const ITEMS: Context = Context {
    what: "the `items` of a multi-select",
    instance: Some(Instance::String),
    own: &["type", "enum", "anyOf"],
};

/// Reports every validation keyword of `map` that `context` does not have and that would take
/// effect there, in the order written.
pub(in crate::schema) fn check_keywords(
    map: &Map,
    at: &str,
    context: &Context,
    out: &mut Problems,
) {
    for (key, value) in map.iter() {
        if value.is_null() || context.own.contains(&key) {
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
