//! The diagnostics of [`crate::error`] written as JSON values, for bindings and for servers.

use super::{Map, Value};
use crate::error::{SchemaProblem, Violation};

impl Violation {
    /// The violation as the JSON object `{"pointer", "keyword", "message"}`: what a binding
    /// returns and what a client tells a server.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("pointer", Value::from(self.pointer()));
        map.insert("keyword", Value::from(self.keyword().as_str()));
        map.insert("message", Value::from(self.message()));
        Value::Object(map)
    }
}

impl SchemaProblem {
    /// The problem as the JSON object `{"kind", "pointer", "message"}`, in that order.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("kind", Value::from(self.kind().as_str()));
        map.insert("pointer", Value::from(self.pointer()));
        map.insert("message", Value::from(self.message()));
        Value::Object(map)
    }
}
