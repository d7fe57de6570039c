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

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::error::{SchemaProblem, SchemaProblemKind};
use crate::json::{Map, Value};

mod bounds;
mod defaults;
mod items;
mod keywords;
mod number;
mod options;
mod problems;
mod property;
mod root;
mod select;
mod text;

#[cfg(test)]
mod tests;

use problems::Problems;
use root::check_root;

/// Every problem with `schema` as an MCP `requestedSchema`, in the order described in the
/// [module documentation](crate::schema); empty when the schema is well-formed.
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
                other.type_name()
            ),
        ),
    }
    out.into_vec()
}

/// [`check_schema`] for a schema that is an object.
pub(crate) fn check_map(schema: &Map) -> Vec<SchemaProblem> {
    let mut out = Problems::default();
    check_root(schema, &mut out);
    out.into_vec()
}
