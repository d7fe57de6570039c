//! The list of problems being built, and the pointers and quoted values its messages use.

use alloc::string::String;
use alloc::vec::Vec;

use super::{SchemaProblem, SchemaProblemKind};
pub(super) use crate::error::quote;
use crate::error::wrong_type_message;
use crate::json::pointer;
use crate::json::{Map, Value};

/// The problems found so far, in order.
#[derive(Default)]
pub(super) struct Problems(Vec<SchemaProblem>);

impl Problems {
    pub(super) fn add(&mut self, kind: SchemaProblemKind, pointer: String, message: String) {
        self.0
            .push(SchemaProblem::new(kind, pointer, message, None));
    }

    pub(super) fn wrong_type(
        &mut self,
        pointer: String,
        what: &str,
        expected: &str,
        found: &Value,
    ) {
        self.add(
            SchemaProblemKind::WrongType,
            pointer,
            wrong_type_message(what, expected, found.type_name()),
        );
    }

    /// Adds the problems of `later` after those found so far.
    pub(super) fn append(&mut self, mut later: Problems) {
        self.0.append(&mut later.0);
    }

    pub(super) fn into_vec(self) -> Vec<SchemaProblem> {
        self.0
    }
}

/// The member `key` of `map`, unless it is absent or `null`.
pub(super) fn member<'a>(map: &'a Map, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

/// The pointer of the member `key` of the value at `at`.
pub(super) fn child(at: &str, key: &str) -> String {
    let mut p = String::from(at);
    pointer::push_key(&mut p, key);
    p
}

/// The pointer of item `index` of the array at `at`.
pub(super) fn item(at: &str, index: usize) -> String {
    let mut p = String::from(at);
    pointer::push_index(&mut p, index);
    p
}
