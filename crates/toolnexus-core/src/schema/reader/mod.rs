//! The one reader of a `requestedSchema`: a single strict pass that builds the typed model and
//! lists every problem, each marked as blocking the form or not. See [`crate::schema`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::error::{SchemaProblem, SchemaProblemKind};
use crate::json::{Map, Value};
use crate::schema::RequestedSchema;

pub(in crate::schema) mod bounds;
pub(in crate::schema) mod defaults;
pub(in crate::schema) mod items;
pub(in crate::schema) mod keywords;
pub(in crate::schema) mod number;
pub(in crate::schema) mod options;
pub(in crate::schema) mod problems;
pub(in crate::schema) mod property;
pub(in crate::schema) mod root;
pub(in crate::schema) mod select;
pub(in crate::schema) mod shape;
pub(in crate::schema) mod text;

use problems::Problems;
use root::check_root;

/// Every problem with `schema` as an MCP `requestedSchema`, in the order described in the
/// [module documentation](crate::schema); empty when the schema is well-formed.
pub fn check_schema(schema: &Value) -> Vec<SchemaProblem> {
    Reading::of(schema).problems
}

/// What one pass over a schema found: the schema as far as it could be read (`None` when it is
/// not an object) and every problem, in order.
pub(in crate::schema) struct Reading {
    pub(in crate::schema) model: Option<RequestedSchema>,
    pub(in crate::schema) problems: Vec<SchemaProblem>,
}

impl Reading {
    /// Reads `schema`, any JSON value.
    pub(in crate::schema) fn of(schema: &Value) -> Reading {
        match schema {
            Value::Object(root) => Reading::of_object(root),
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
                Reading {
                    model: None,
                    problems: out.into_vec(),
                }
            }
        }
    }

    /// Reads a schema that is a JSON object.
    pub(in crate::schema) fn of_object(schema: &Map) -> Reading {
        let mut out = Problems::default();
        let model = check_root(schema, &mut out);
        Reading {
            model: Some(model),
            problems: out.into_vec(),
        }
    }
}
