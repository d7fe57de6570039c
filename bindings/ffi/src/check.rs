//! `check_schema`: every problem with a `requestedSchema`, as typed `SchemaProblem`s.

use toolnexus_core as core;
use toolnexus_core::SchemaProblemKind as CoreKind;
use toolnexus_core::schema;

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
    json_text::string_objects(problems, |p| {
        [
            ("kind", p.kind.core_name()),
            ("pointer", p.pointer.as_str()),
            ("message", p.message.as_str()),
        ]
    })
    .to_json()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records' JSON is the core's for the same problems.
    #[test]
    fn problems_are_written_as_the_core_writes_them() {
        let schema = r#"{"type":"object","properties":{"n":{"type":"integer","minimum":5,"maximum":1},"p":{"type":"string","pattern":"a"}},"required":["r"]}"#;
        let found = schema::check_schema(&json_text::parse(schema, None).unwrap());
        assert_eq!(found.len(), 3);
        let core_json =
            core::json::Value::Array(found.iter().map(core::SchemaProblem::to_value).collect());
        assert_eq!(
            schema_problems_to_json(&problems(&found)),
            core_json.to_json()
        );
    }

    #[test]
    fn every_core_kind_has_its_case() {
        for kind in CoreKind::ALL {
            assert_eq!(SchemaProblemKind::from_core(kind).to_core(), kind);
        }
    }
}
