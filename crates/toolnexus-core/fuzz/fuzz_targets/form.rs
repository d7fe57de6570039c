//! A `Form` prepared from a generated or arbitrary schema, then used as a host uses it:
//! fields, `parse` of what a person types, `validate`, `prepare`, defaults. Never a panic;
//! content that prepares validates, and valid content prepares when the schema has no problems; a parsed value validates as that field's value when
//! the rest of the content does; the defaults of a form without problems validate against it.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use toolnexus_core::content::ContentOptions;
use toolnexus_core::json::{Limits, parse, parse_str};
use toolnexus_core::{Form, Value};
use toolnexus_core_fuzz::{GenContent, GenText, schema_bytes};

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    let Some(bytes) = schema_bytes(&mut u, false) else {
        return;
    };
    let Ok(schema) = parse(&bytes, &Limits::DEFAULT) else {
        return;
    };
    let Ok(form) = Form::new(&schema) else { return };
    let options = ContentOptions::STRICT.allow_unknown(bool::arbitrary(&mut u).unwrap_or(false));
    let names: Vec<String> = form
        .fields()
        .iter()
        .map(|f| String::from(f.name()))
        .collect();
    assert_eq!(
        form.sensitive_fields().is_empty(),
        form.reject_secrets().is_ok()
    );

    // Whatever a person types into each field.
    let mut typed = toolnexus_core::Map::new();
    for name in &names {
        let Ok(text) = GenText::arbitrary(&mut u) else {
            break;
        };
        match form.parse(name, &text.0) {
            Ok(Some(value)) => {
                typed.insert(name.clone(), value);
            }
            Ok(None) => assert!(
                !form.schema().is_required(name) || form.defaults().contains_key(name),
                "{name} is required and has no default"
            ),
            Err(_) => {}
        }
    }
    if let Ok(other) = GenText::arbitrary(&mut u) {
        if !names.iter().any(|n| *n == other.0) {
            assert!(form.parse(&other.0, "x").is_err());
        }
    }
    let content = Value::Object(typed);
    let violations = form.validate(&content, &options);
    // A parsed value breaks no rule of its own field: only `required` and
    // unknown-member rules may fail, which a single field cannot satisfy.
    for v in &violations {
        let own = names
            .iter()
            .any(|n| v.pointer() == toolnexus_core::json::pointer::key(n));
        assert!(
            !own || v.keyword().as_str() == "required" || v.keyword().as_str() == "uniqueItems",
            "a parsed value breaks its field: {v:?} in {}",
            content.to_json()
        );
    }

    // Generated content, and the defaults.
    if let Ok(generated) = GenContent::arbitrary(&mut u) {
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        if let Ok(content) = parse_str(&generated.to_json(&refs), &Limits::DEFAULT) {
            let found = form.validate(&content, &options);
            match form.prepare(&content, &options) {
                Ok(ready) => {
                    assert!(form.validate(&Value::Object(ready), &options).is_empty());
                }
                Err(v) => assert!(!v.is_empty()),
            }
            // A default the schema's problems name may break the form once filled in.
            if found.is_empty() && form.problems().is_empty() {
                let prepared = form.prepare(&content, &options);
                assert!(
                    prepared.is_ok(),
                    "valid content fails to prepare: {prepared:?}\nschema {}\ncontent {}",
                    String::from_utf8_lossy(&bytes),
                    content.to_json()
                );
            }
            if let Value::Object(map) = &content {
                let filled = form.apply_defaults(map);
                assert!(filled.len() >= map.len());
            }
        }
    }
    if !form.problems().is_empty() {
        return;
    }
    let defaults = form.defaults();
    let violations = form.validate(&Value::Object(defaults.clone()), &options);
    assert!(
        violations
            .iter()
            .all(|v| v.keyword().as_str() == "required"),
        "the defaults break the form: {violations:?} for {}",
        defaults.to_json()
    );
});
