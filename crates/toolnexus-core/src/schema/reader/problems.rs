//! The list of problems being built, and the pointers and quoted values its messages use.

use alloc::string::String;
use alloc::vec::Vec;

use super::{SchemaProblem, SchemaProblemKind};
pub(in crate::schema) use crate::error::quote;
use crate::error::{ErrorKind, wrong_type_message};
use crate::json::{Map, Value, pointer};

/// The problems found so far, in order.
#[derive(Default)]
pub(in crate::schema) struct Problems(Vec<SchemaProblem>);

impl Problems {
    /// A problem that leaves a form a person can fill in.
    pub(in crate::schema) fn add(
        &mut self,
        kind: SchemaProblemKind,
        pointer: String,
        message: String,
    ) {
        self.0
            .push(SchemaProblem::new(kind, pointer, message, None));
    }

    /// A problem that leaves the schema unreadable as a form; reading it as one fails with the
    /// error kind that fits `kind`.
    pub(in crate::schema) fn block(
        &mut self,
        kind: SchemaProblemKind,
        pointer: String,
        message: String,
    ) {
        let error = match kind {
            SchemaProblemKind::MissingKeyword => ErrorKind::MissingField,
            SchemaProblemKind::WrongType | SchemaProblemKind::InvalidDefault => {
                ErrorKind::WrongType
            }
            _ => ErrorKind::InvalidValue,
        };
        self.block_as(kind, error, pointer, message);
    }

    /// [`block`](Problems::block) with the error kind given: a keyword of the wrong JSON type
    /// that the check reports as a shape it does not support (a `type` list) is still a
    /// `wrong_type` error for a reader.
    pub(in crate::schema) fn block_as(
        &mut self,
        kind: SchemaProblemKind,
        error: ErrorKind,
        pointer: String,
        message: String,
    ) {
        self.0
            .push(SchemaProblem::new(kind, pointer, message, Some(error)));
    }

    /// A keyword the form needs holds the wrong JSON type: this blocks the form.
    pub(in crate::schema) fn wrong_type(
        &mut self,
        pointer: String,
        what: &str,
        expected: &str,
        found: &Value,
    ) {
        self.block(
            SchemaProblemKind::WrongType,
            pointer,
            wrong_type_message(what, expected, found.type_name()),
        );
    }

    /// A keyword that changes nothing a person can submit holds the wrong JSON type: the form
    /// is still usable.
    pub(in crate::schema) fn wrong_type_note(
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
    pub(in crate::schema) fn append(&mut self, mut later: Problems) {
        self.0.append(&mut later.0);
    }

    pub(in crate::schema) fn into_vec(self) -> Vec<SchemaProblem> {
        self.0
    }
}

/// The member `key` of `map`, unless it is absent or `null`.
pub(in crate::schema) fn member<'a>(map: &'a Map, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

/// The pointer of the member `key` of the value at `at`.
pub(in crate::schema) fn child(at: &str, key: &str) -> String {
    let mut p = String::from(at);
    pointer::push_key(&mut p, key);
    p
}

/// The pointer of item `index` of the array at `at`.
pub(in crate::schema) fn item(at: &str, index: usize) -> String {
    let mut p = String::from(at);
    pointer::push_index(&mut p, index);
    p
}
