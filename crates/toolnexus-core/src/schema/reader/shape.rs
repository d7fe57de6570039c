//! The elicitation shape of a property, decided by its `type`: what the checks of a property
//! and of its `default` both read, so that neither has to reach into the other.

use super::keywords::{Context, Instance};
use crate::schema::PropertyKind;

/// Which elicitation shape a property has, decided by its `type` (and, for strings, by
/// `enum` or `oneOf`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::schema) enum Shape {
    Text,
    Number,
    Integer,
    Boolean,
    SingleSelect,
    MultiSelect,
    /// No usable `type`, or one that no elicitation property has.
    Unknown,
}

impl Shape {
    /// Where the validation keywords of a property of this shape are checked.
    pub(in crate::schema) fn context(self) -> Context {
        match self {
            Shape::Text => Context {
                what: "a free-text string property",
                instance: Some(Instance::String),
                own: &["type", "minLength", "maxLength", "format"],
            },
            Shape::Number => Context {
                what: "a number property",
                instance: Some(Instance::Number),
                own: &["type", "minimum", "maximum"],
            },
            Shape::Integer => Context {
                what: "an integer property",
                instance: Some(Instance::Number),
                own: &["type", "minimum", "maximum"],
            },
            Shape::Boolean => Context {
                what: "a boolean property",
                instance: Some(Instance::Boolean),
                own: &["type"],
            },
            Shape::SingleSelect => Context {
                what: "a single-select property",
                instance: Some(Instance::String),
                own: &["type", "enum", "oneOf"],
            },
            Shape::MultiSelect => Context {
                what: "a multi-select property",
                instance: Some(Instance::Array),
                own: &["type", "items", "minItems", "maxItems", "uniqueItems"],
            },
            // `enum` and `oneOf` make a select once `type` is fixed, so they are not blamed
            // for a missing type.
            Shape::Unknown => Context {
                what: "an elicitation property",
                instance: None,
                own: &["type", "enum", "oneOf"],
            },
        }
    }
}

/// A property's shape as read: the kind of value it asks for, as written, and the well-formed
/// copy of that kind a `default` is judged against (without the bounds that contradict each
/// other, options listed once), if there is one to judge against.
pub(in crate::schema) struct Shaped {
    pub(in crate::schema) kind: PropertyKind,
    pub(in crate::schema) judge: Option<PropertyKind>,
}
