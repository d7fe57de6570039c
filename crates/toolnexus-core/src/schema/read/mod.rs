//! The one reader of a `requestedSchema`: a single strict pass that builds the typed model and
//! lists every problem, each marked as blocking the form or not. See [`crate::schema`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::error::{SchemaProblem, SchemaProblemKind};
use crate::json::{Map, Value};
use crate::schema::RequestedSchema;

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
mod shape;
mod text;

#[cfg(test)]
mod tests;

use problems::Problems;
use root::check_root;

/// Every problem with `schema` as an MCP `requestedSchema`, in the order described in the
/// [module documentation](crate::schema); empty when the schema is well-formed.
pub fn check_schema(schema: &Value) -> Vec<SchemaProblem> {
    read_value(schema).1
}

/// Reads `schema`, any JSON value: the schema as far as it could be read (`None` when it is
/// not an object) and every problem, in order.
pub(crate) fn read_value(schema: &Value) -> (Option<RequestedSchema>, Vec<SchemaProblem>) {
    match schema {
        Value::Object(root) => {
            let (model, problems) = read_map(root);
            (Some(model), problems)
        }
        other => {
            let mut out = Problems::default();
            out.block(
                SchemaProblemKind::WrongType,
                String::new(),
                format!(
                    "a requestedSchema must be a JSON object such as {{\"type\": \"object\", \
                     \"properties\": {{...}}}}, not {}",
                    other.type_name()
                ),
            );
            (None, out.into_vec())
        }
    }
}

/// Reads a schema that is an object: the schema as far as it could be read and every
/// problem, in order.
pub(crate) fn read_map(schema: &Map) -> (RequestedSchema, Vec<SchemaProblem>) {
    let mut out = Problems::default();
    let model = check_root(schema, &mut out);
    (model, out.into_vec())
}
