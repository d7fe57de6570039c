//! The `check_schema` operation: every problem with a `requestedSchema`, each as
//! `{"kind", "pointer"}` (messages are for people and are not pinned).

use toolnexus_core::Value;
use toolnexus_core::schema::check_schema;

use super::object;

/// Lists the problems `check_schema` finds in `schema`, any JSON value, in its order; `[]` for
/// a well-formed schema.
pub(crate) fn run(schema: &Value) -> String {
    let problems = check_schema(schema)
        .iter()
        .map(|p| {
            object([
                ("kind", Value::from(p.kind().as_str())),
                ("pointer", Value::from(p.pointer())),
            ])
        })
        .collect();
    Value::Array(problems).to_json()
}
