//! `check_schema`: every problem with a `requestedSchema`, as typed `SchemaProblem`s.

use toolnexus_core as core;
use toolnexus_core::SchemaProblemKind as CoreKind;
use toolnexus_core::schema;
use toolnexus_core::{Map, Value};

use crate::error::ToolnexusError;
use crate::json_text;
use crate::limits::Limits;
use crate::mirror::mirror_enum;

mirror_enum! {
    /// What is wrong with a schema.
    pub enum SchemaProblemKind mirrors CoreKind, else UnsupportedShape {
        /// A keyword holds the wrong JSON type, a property is not an object, or the schema
        /// itself is not an object.
        WrongType,
        /// A keyword the shape needs is absent (`type`, `properties`, `items`, an option's
        /// `const` or `title`).
        MissingKeyword,
        /// A keyword has the right JSON type but a value it cannot have.
        InvalidValue,
        /// A property is none of the elicitation shapes (a nested object, a `type` list, …).
        UnsupportedShape,
        /// A JSON Schema keyword an elicitation schema does not have (`$ref`, `pattern`, …).
        UnsupportedKeyword,
        /// `required` names a property that `properties` does not define.
        UnknownRequired,
        /// The same value twice where values must be distinct.
        DuplicateValue,
        /// A select has no options to choose from.
        EmptyEnum,
        /// `enumNames` does not give exactly one title per `enum` value.
        EnumNamesLength,
        /// Bounds leave nothing to enter.
        ContradictoryBounds,
        /// A `default` that its own property would refuse.
        InvalidDefault,
        /// A string `format` other than `email`, `uri`, `date` and `date-time`.
        UnknownFormat,
    }
}

/// One problem with a schema: what is wrong, where, and how to put it right.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct SchemaProblem {
    /// What is wrong.
    pub kind: SchemaProblemKind,
    /// The RFC 6901 JSON pointer of the keyword at fault, relative to the schema (`""` is the
    /// schema); for an absent keyword, where it belongs.
    pub pointer: String,
    /// What is wrong and how to fix it, in words.
    pub message: String,
}

/// Every problem with `schema_json` as an MCP `requestedSchema`, in the core's fixed order;
/// empty when it is well-formed. Any JSON value is read: a schema that is not an object is a
/// problem, not an error. Only text that is not JSON, or exceeds `limits`, fails.
#[uniffi::export(default(limits = None))]
pub fn check_schema(
    schema_json: String,
    limits: Option<Limits>,
) -> Result<Vec<SchemaProblem>, ToolnexusError> {
    let schema = json_text::parse(&schema_json, limits)?;
    Ok(problems(&schema::check_schema(&schema)))
}

/// The core's problems as records, in their order.
pub(crate) fn problems(found: &[core::SchemaProblem]) -> Vec<SchemaProblem> {
    found
        .iter()
        .map(|p| SchemaProblem {
            kind: SchemaProblemKind::from_core(p.kind()),
            pointer: p.pointer().into(),
            message: p.message().into(),
        })
        .collect()
}

/// Problems as the core writes them: `[{"kind", "pointer", "message"}]`, compact.
#[uniffi::export]
pub fn schema_problems_to_json(problems: &[SchemaProblem]) -> String {
    let list = problems
        .iter()
        .map(|p| {
            let mut map = Map::new();
            map.insert("kind", Value::from(p.kind.core_name()));
            map.insert("pointer", Value::from(p.pointer.as_str()));
            map.insert("message", Value::from(p.message.as_str()));
            Value::Object(map)
        })
        .collect();
    Value::Array(list).to_json()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_kind_has_its_case() {
        for kind in CoreKind::ALL {
            assert_eq!(SchemaProblemKind::from_core(kind).to_core(), kind);
        }
    }
}
