//! Content validation against an independent JSON Schema 2020-12 validator (the `jsonschema`
//! crate) whose formats are checked by other crates (`email_address`, `fluent-uri`,
//! `chrono`): on a generated, well-formed schema and generated content, both give the same
//! verdict.
//!
//! What the reference is given is the elicitation schema with toolnexus's two extra rules
//! spelt out (`additionalProperties`, and `uniqueItems` on multi-selects). Where a format
//! crate defines a format more broadly than toolnexus does on purpose, the difference is
//! named in `reference_format` (each is stated in `schema/format.rs`) and the input is left
//! out of the comparison.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use toolnexus_conformance::as_json_schema;
use toolnexus_core::content::{ContentOptions, validate_content};
use toolnexus_core::json::{Limits, parse_str};
use toolnexus_core::schema::{RequestedSchema, check_schema};
use toolnexus_core_fuzz::{GenContent, GenSchema};

/// The reference's verdict for `text` in `format`, or `None` where toolnexus defines the
/// format more narrowly by design.
fn reference_format(format: &str, text: &str) -> Option<bool> {
    match format {
        "email" => {
            // toolnexus refuses quoted local parts and comments (schema/format.rs), which
            // RFC 5322 allows and `email_address` reads.
            if text.contains('"') || text.contains('(') {
                return None;
            }
            // toolnexus refuses a domain whose last label is all digits (`a@1.2.3.4`): no
            // top-level domain is, so it is an IP address, which must be written as an
            // address literal (`a@[1.2.3.4]`, RFC 5321 §4.1.3).
            let domain = text.rsplit('@').next().unwrap_or("");
            let last = domain.rsplit('.').next().unwrap_or("");
            if !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // `email_address` takes an RFC 5322 dot-atom domain (`a@b&c`, `a@b_c`); toolnexus
            // takes a host name, as RFC 5321 does: ASCII letters, digits and hyphens (or
            // non-ASCII labels), or an address literal.
            let host_name_byte =
                |b: u8| !b.is_ascii() || b.is_ascii_alphanumeric() || b == b'-' || b == b'.';
            if !domain.starts_with('[') && !domain.bytes().all(host_name_byte) {
                return None;
            }
            Some(email_address::EmailAddress::is_valid(text))
        }
        "uri" => Some(fluent_uri::Uri::parse(text).is_ok()),
        "date" => Some(
            text.len() == 10
                && chrono::DateTime::parse_from_rfc3339(&format!("{text}T00:00:00Z")).is_ok(),
        ),
        "date-time" => {
            // A leap second: toolnexus takes `:60` only at 23:59 UTC, where one can happen;
            // chrono takes it at any minute. And chrono reads a space for the `T`, which
            // RFC 3339's grammar (the one JSON Schema names) does not allow.
            if text.contains(":60") || text.contains(' ') {
                return None;
            }
            Some(chrono::DateTime::parse_from_rfc3339(text).is_ok())
        }
        _ => Some(true),
    }
}

/// Whether the content holds a string the reference formats cannot judge.
fn undecidable(schema: &Json, content: &Json) -> bool {
    let (Some(props), Some(members)) = (schema["properties"].as_object(), content.as_object())
    else {
        return false;
    };
    members.iter().any(|(name, value)| {
        match (
            props.get(name).and_then(|p| p["format"].as_str()),
            value.as_str(),
        ) {
            (Some(format), Some(text)) => reference_format(format, text).is_none(),
            _ => false,
        }
    })
}

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    let (Ok(schema), Ok(content), Ok(allow)) = (
        GenSchema::arbitrary(&mut u),
        GenContent::arbitrary(&mut u),
        bool::arbitrary(&mut u),
    ) else {
        return;
    };
    let schema_text = schema.to_json();
    let content_text = content.to_json(&schema.names());
    let Ok(ours_schema) = parse_str(&schema_text, &Limits::DEFAULT) else {
        return;
    };
    if !check_schema(&ours_schema).is_empty() {
        return;
    }
    let Ok(model) = RequestedSchema::from_value(&ours_schema) else {
        return;
    };
    let Ok(ours_content) = parse_str(&content_text, &Limits::DEFAULT) else {
        return;
    };
    let ours = validate_content(
        &model,
        &ours_content,
        &ContentOptions::STRICT.allow_unknown(allow),
    );

    let theirs_schema: Json = serde_json::from_str(&schema_text).unwrap();
    let theirs_content: Json = serde_json::from_str(&content_text).unwrap();
    if undecidable(&theirs_schema, &theirs_content) {
        return;
    }
    let mut options = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true);
    for format in ["email", "uri", "date", "date-time"] {
        options = options.with_format(format, move |s: &str| {
            reference_format(format, s).unwrap_or(true)
        });
    }
    let validator = options
        .build(&as_json_schema(&theirs_schema, allow))
        .unwrap_or_else(|e| panic!("the reference refuses {schema_text}: {e}"));
    let theirs = validator.is_valid(&theirs_content);
    assert_eq!(
        ours.is_empty(),
        theirs,
        "schema {schema_text}\ncontent {content_text}\ntoolnexus: {ours:?}"
    );
});
