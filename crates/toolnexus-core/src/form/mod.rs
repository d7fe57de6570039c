//! The form: a `requestedSchema` read once into everything a host needs to show it, check what
//! a person enters and send it back.
//!
//! A [`Form`] is prepared from a schema once and then held by whoever needs it — a UI, a
//! session, a binding. It keeps the typed [`RequestedSchema`], the [`FormField`]s a UI renders
//! (label, widget, options, constraints, default, whether it seems to ask for a secret), every
//! [`SchemaProblem`] the schema has, and it validates content, fills defaults and reads typed
//! text without reading the schema again.
//!
//! ```
//! use toolnexus_core::form::{Form, Widget};
//! use toolnexus_core::{json, ContentOptions, Limits, Value};
//!
//! let form = Form::new(&json::parse_str(
//!     r#"{"type":"object","properties":{
//!         "age":{"type":"integer","title":"Age","minimum":18},
//!         "size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}],"default":"s"}},
//!         "required":["age"]}"#,
//!     &Limits::DEFAULT,
//! )?)?;
//! assert_eq!(form.fields()[0].label(), "Age");
//! assert_eq!(form.fields()[0].widget(), Widget::Integer);
//! assert!(form.problems().is_empty());
//!
//! // What a person typed, read field by field.
//! let age = form.parse("age", " 42 ")?.unwrap();
//! assert_eq!(form.parse("age", "17").unwrap_err().message(), "Age must be at least 18");
//!
//! // What is sent back: defaults filled in, then validated.
//! let mut content = toolnexus_core::Map::new();
//! content.insert("age", age);
//! let sent = form.prepare(&Value::Object(content), &ContentOptions::STRICT).unwrap();
//! assert_eq!(Value::Object(sent).to_json(), r#"{"age":42,"size":"s"}"#);
//! # Ok::<(), toolnexus_core::Error>(())
//! ```

mod field;
pub mod secrets;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use field::{Constraints, FieldOption, FormField, Widget, form_fields, parse_field_input};
pub(crate) use field::{range_hint, read_field_input, trim};

use crate::content::{self, ContentOptions};
use crate::error::{Error, ErrorKind, SchemaProblem, Violation};
use crate::json::{Map, Value, pointer};
use crate::schema::{self, RequestedSchema};
use secrets::SensitiveField;

/// A form prepared from a `requestedSchema`: its typed schema, its fields, its problems, and
/// the operations on content that need them. Made once, immutable, cheap to share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    schema: RequestedSchema,
    fields: Vec<FormField>,
    problems: Vec<SchemaProblem>,
}

impl Form {
    /// Prepares the form of `schema`, any JSON value.
    ///
    /// Fails, with the error's pointer into the schema, when the schema cannot be shown as a
    /// form at all (it is not an object, a property has no usable `type`, a keyword a field
    /// needs has the wrong type…): the first problem that [blocks](SchemaProblem::blocks) it.
    /// Problems that leave a usable form (an unknown keyword, `required` naming a property
    /// that does not exist, a `default` its own property refuses…) are kept in
    /// [`problems`](Form::problems) for the host to warn about or refuse.
    pub fn new(schema: &Value) -> Result<Form, Error> {
        let (schema, problems) = schema::read(schema)?;
        Ok(Form::from_parts(schema, problems))
    }

    /// [`Form::new`] for a schema already known to be an object.
    pub fn from_map(schema: &Map) -> Result<Form, Error> {
        let (schema, problems) = schema::read_map(schema)?;
        Ok(Form::from_parts(schema, problems))
    }

    /// [`Form::from_map`] with the fields that ask for a secret given, not found: each field
    /// named in `sensitive` has its kind, no other field is sensitive. What a restored
    /// snapshot prepares its forms with, so that they warn as the forms written did.
    pub(crate) fn from_map_carried(
        schema: &Map,
        sensitive: &[SensitiveField],
    ) -> Result<Form, Error> {
        let (schema, problems) = schema::read_map(schema)?;
        let judge = |property: &schema::Property| {
            sensitive
                .iter()
                .find(|s| s.name() == property.name())
                .map(SensitiveField::kind)
        };
        let fields = field::form_fields_judged(&schema, &judge);
        Ok(Form {
            schema,
            fields,
            problems,
        })
    }

    fn from_parts(schema: RequestedSchema, problems: Vec<SchemaProblem>) -> Form {
        let fields = form_fields(&schema);
        Form {
            schema,
            fields,
            problems,
        }
    }

    /// The typed reading of the schema.
    pub fn schema(&self) -> &RequestedSchema {
        &self.schema
    }

    /// The fields a UI renders, in the order of the schema's properties.
    pub fn fields(&self) -> &[FormField] {
        &self.fields
    }

    /// The field called `name`, if the form has one.
    pub fn field(&self, name: &str) -> Option<&FormField> {
        self.fields.iter().find(|f| f.name() == name)
    }

    /// Every problem of the schema, in the order [`check_schema`](crate::check_schema) gives;
    /// none of them blocks the form (else [`Form::new`] failed). Empty for a well-formed
    /// schema.
    pub fn problems(&self) -> &[SchemaProblem] {
        &self.problems
    }

    /// Every way `content` breaks the form, in the order
    /// [`validate_content`](crate::validate_content) describes; empty when it is valid.
    pub fn validate(&self, content: &Value, options: &ContentOptions) -> Vec<Violation> {
        content::validate_content(&self.schema, content, options)
    }

    /// `content` with every absent property filled from its `default`
    /// ([`apply_defaults`](crate::apply_defaults)).
    pub fn apply_defaults(&self, content: &Map) -> Map {
        content::apply_defaults(&self.schema, content)
    }

    /// What a host sends back on accept: defaults filled in, then validated
    /// ([`prepare_content`](crate::prepare_content)); the completed content or every
    /// violation.
    pub fn prepare(
        &self,
        content: &Value,
        options: &ContentOptions,
    ) -> Result<Map, Vec<Violation>> {
        content::prepare_content(&self.schema, content, options)
    }

    /// The `default` of every property that has one, in property order: the content a form
    /// starts from.
    pub fn defaults(&self) -> Map {
        self.schema.defaults()
    }

    /// What a person typed into the field `name`, as the value content holds
    /// ([`parse_field_input`]); `Ok(None)` for a blank optional field. A name the form does
    /// not have is an [`ErrorKind::UnknownField`] at `/name`.
    pub fn parse(&self, name: &str, text: &str) -> Result<Option<Value>, Error> {
        let field = self.field(name).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownField,
                pointer::key(name),
                format!("the form has no field {}", crate::error::quote(name)),
            )
        })?;
        parse_field_input(field, text)
    }

    /// The fields that seem to ask for a secret, which forms must not
    /// ([`sensitive_fields`](crate::sensitive_fields)).
    pub fn sensitive_fields(&self) -> Vec<SensitiveField> {
        self.fields
            .iter()
            .filter_map(|f| {
                Some(SensitiveField::new(
                    String::from(f.name()),
                    f.secret_kind()?,
                ))
            })
            .collect()
    }

    /// The reject-secrets policy ([`reject_secrets`](crate::reject_secrets)): `Ok` when no
    /// field seems to ask for a secret, else a [`ErrorKind::SensitiveField`] error at the
    /// first one.
    pub fn reject_secrets(&self) -> Result<(), Error> {
        match self.fields.iter().find(|f| f.sensitive()) {
            None => Ok(()),
            Some(field) => Err(secrets::sensitive_error(field.name(), field.secret_kind())),
        }
    }
}
