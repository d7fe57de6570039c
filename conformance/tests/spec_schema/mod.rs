//! A vendored MCP `schema.json`, checking instances against its definitions. Each definition's
//! validator is compiled once per loaded schema and kept, since a test checks many instances
//! against the same few definitions.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use jsonschema::Validator;
use serde_json::Value as Json;

/// One version's schema document and the validators compiled from it so far.
pub struct SpecSchema {
    document: Json,
    validators: RefCell<BTreeMap<String, Validator>>,
}

impl SpecSchema {
    /// Reads `schema.json` in `dir`.
    pub fn load(dir: &Path) -> SpecSchema {
        let file = dir.join("schema.json");
        let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        SpecSchema {
            document: serde_json::from_str(&text).unwrap(),
            validators: RefCell::default(),
        }
    }

    /// Every error of `instance` as a `definition`, each with where it is; empty when valid.
    pub fn problems(&self, definition: &str, instance: &Json) -> Vec<String> {
        self.with_validator(definition, |validator| {
            validator
                .iter_errors(instance)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect()
        })
    }

    /// Whether `instance` is a valid `definition`.
    pub fn is_valid(&self, definition: &str, instance: &Json) -> bool {
        self.with_validator(definition, |validator| validator.is_valid(instance))
    }

    fn with_validator<T>(&self, definition: &str, check: impl FnOnce(&Validator) -> T) -> T {
        let mut validators = self.validators.borrow_mut();
        let validator = validators
            .entry(definition.to_owned())
            .or_insert_with(|| self.compile(definition));
        check(validator)
    }

    /// A validator for `definition`: the whole document, so that its internal references
    /// resolve, with a root `$ref` to the definition (the document has no `$id`).
    fn compile(&self, definition: &str) -> Validator {
        assert!(
            self.document["$defs"].get(definition).is_some(),
            "the schema has no definition {definition}"
        );
        let mut schema = self.document.clone();
        schema["$ref"] = Json::from(format!("#/$defs/{definition}"));
        jsonschema::validator_for(&schema).unwrap()
    }
}
