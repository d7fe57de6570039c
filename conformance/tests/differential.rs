//! Checks that `validate_content` gives the verdict of a JSON Schema 2020-12 validator: on
//! every `validate_content` case of the suite, and on generated content against a schema that
//! holds every keyword an elicitation schema has.
//!
//! The schema the reference validator sees is the elicitation schema with the two rules
//! toolnexus adds made explicit: `additionalProperties` (false in strict mode, content types
//! when unknown members are allowed) and `uniqueItems: true` on multi-selects. The four
//! formats are registered as toolnexus defines them, so what is compared is the meaning of
//! every other keyword.

// A failed check is meant to stop the test: its helpers, not only its `#[test]`s, may panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use serde_json::Value as Json;
use toolnexus_conformance::{Op, as_json_schema, load_suite, suite_dir};
use toolnexus_core::content::{ContentOptions, validate_content};
use toolnexus_core::schema::check_schema;
use toolnexus_core::schema::format;
use toolnexus_core::schema::{RequestedSchema, StringFormat};
use toolnexus_core::{Limits, json as tn_json};

/// Cases where the reference validator, which reads numbers as doubles, cannot see the exact
/// value: toolnexus compares decimal spellings exactly, as JSON Schema defines numbers. The
/// test checks that the reference does disagree on these, so the list stays true.
const DOUBLE_ROUNDING: &[(u64, &str)] = &[
    (1325, "36.0000000000000001 reads as the double 36.0"),
    (1328, "-1.50000000000000000001 reads as the double -1.5"),
    (1329, "100.0000000000000000001 reads as the double 100.0"),
];

fn reference_verdict(schema: &Json, allow_unknown: bool, content: &Json) -> bool {
    let mut options = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true);
    for f in StringFormat::ALL {
        options = options.with_format(f.as_str(), move |s: &str| format::matches(f, s));
    }
    let validator = options
        .build(&as_json_schema(schema, allow_unknown))
        .unwrap_or_else(|e| panic!("the reference validator refuses {schema}: {e}"));
    validator.is_valid(content)
}

fn toolnexus_verdict(schema_text: &str, allow_unknown: bool, content_text: &str) -> bool {
    let schema = tn_json::parse_str(schema_text, &Limits::DEFAULT).unwrap();
    let schema = RequestedSchema::from_value(&schema).unwrap();
    let content = tn_json::parse_str(content_text, &Limits::DEFAULT).unwrap();
    let options = ContentOptions::STRICT.allow_unknown(allow_unknown);
    validate_content(&schema, &content, &options).is_empty()
}

#[test]
fn every_validate_content_case_agrees_with_json_schema() {
    let (mut compared, mut beyond_f64, mut rounded, mut malformed, mut generated) = (0, 0, 0, 0, 0);
    for loaded in load_suite(&suite_dir()).unwrap() {
        for case in &loaded.file.cases {
            if case.op != Op::ValidateContent || case.expect.output.is_none() {
                continue;
            }
            // A generated input (`inputParts`) is about limits, not a verdict to compare.
            let text = match (&case.input, &case.input_text) {
                (Some(value), _) => value.get(),
                (None, Some(text)) => text.as_str(),
                (None, None) => {
                    generated += 1;
                    continue;
                }
            };
            let input: Json = match serde_json::from_str(text) {
                Ok(input) => input,
                Err(_) => {
                    // Numbers a double cannot hold: serde_json, and so the reference
                    // validator, cannot read these; the case file must say so.
                    assert!(
                        case.flags.iter().any(|f| f == "beyond-f64"),
                        "#{}: serde_json cannot read the input",
                        case.id
                    );
                    beyond_f64 += 1;
                    continue;
                }
            };
            // A schema check_schema finds fault with has no single meaning to agree on (the
            // reference validator refuses a `required` that repeats a name, for one).
            let schema_value =
                tn_json::parse_str(&input["schema"].to_string(), &Limits::DEFAULT).unwrap();
            if !check_schema(&schema_value).is_empty() {
                malformed += 1;
                continue;
            }
            let allow = case.args.allow_unknown.unwrap_or(false);
            let expected_valid = case.expect.output.as_deref() == Some("[]");
            let reference = reference_verdict(&input["schema"], allow, &input["content"]);
            if DOUBLE_ROUNDING.iter().any(|(id, _)| *id == case.id) {
                assert_ne!(
                    reference, expected_valid,
                    "#{}: listed as beyond a double's precision, yet the reference agrees",
                    case.id
                );
                rounded += 1;
                continue;
            }
            assert_eq!(
                reference, expected_valid,
                "#{} {}: the reference validator says valid={reference}",
                case.id, case.description
            );
            compared += 1;
        }
    }
    println!(
        "compared {compared} cases; {beyond_f64} hold numbers beyond a double's range, \
         {rounded} beyond its precision; {malformed} have a malformed schema; {generated} \
         are generated"
    );
    assert_eq!(rounded, DOUBLE_ROUNDING.len());
    assert!(compared >= 80, "only {compared} cases were compared");
}

/// A schema with every keyword of every elicitation shape.
const SCHEMA: &str = r#"{"type":"object","properties":{
  "name":{"type":"string","minLength":2,"maxLength":4},
  "email":{"type":"string","format":"email"},
  "site":{"type":"string","format":"uri"},
  "day":{"type":"string","format":"date"},
  "at":{"type":"string","format":"date-time"},
  "age":{"type":"integer","minimum":-2,"maximum":2.5},
  "score":{"type":"number","minimum":-1.5,"maximum":1e2},
  "ok":{"type":"boolean"},
  "size":{"type":"string","enum":["s","m"]},
  "legacy":{"type":"string","enum":["x","y"],"enumNames":["X","Y"]},
  "color":{"type":"string","oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]},
  "tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2},
  "langs":{"type":"array","items":{"anyOf":[{"const":"en","title":"English"},{"const":"fr","title":"French"}]}}
 },"required":["name","ok"]}"#;

/// Values chosen to sit on and around every boundary of [`SCHEMA`].
fn interesting_value() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        r#""""#,
        r#""a""#,
        r#""ab""#,
        r#""abcd""#,
        r#""abcde""#,
        r#""é😀""#,
        r#""😀😀😀😀😀""#,
        r#""ada@example.org""#,
        r#""a b@x.org""#,
        r#""urn:a:b""#,
        r#""/rel""#,
        r#""2024-02-29""#,
        r#""2023-02-29""#,
        r#""2024-02-29T23:59:60Z""#,
        r#""2024-02-29T12:00:00""#,
        "-3",
        "-2",
        "-1.5",
        "-1.50000001",
        "0",
        "-0",
        "2",
        "2.0",
        "2.5",
        "3",
        "1e2",
        "100.5",
        "1E-7",
        "true",
        "false",
        "null",
        r#""s""#,
        r#""m""#,
        r#""S""#,
        r#""x""#,
        r#""X""#,
        r#""r""#,
        r#""Red""#,
        "[]",
        r#"["a"]"#,
        r#"["a","b"]"#,
        r#"["a","a"]"#,
        r#"["a","b","c"]"#,
        r#"["d"]"#,
        r#"["en"]"#,
        r#"["en","fr"]"#,
        r#"["de"]"#,
        "[1]",
        r#"{"a":1}"#,
    ])
    .prop_map(String::from)
}

fn content_text() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec![
        "name", "email", "site", "day", "at", "age", "score", "ok", "size", "legacy", "color",
        "tags", "langs", "ghost", "other",
    ]);
    prop::collection::btree_map(names, interesting_value(), 0..8).prop_map(|members| {
        let body: Vec<String> = members
            .iter()
            .map(|(k, v)| format!(r#""{k}":{v}"#))
            .collect();
        format!("{{{}}}", body.join(","))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn generated_content_agrees_with_json_schema(content in content_text(), allow in any::<bool>()) {
        let schema: Json = serde_json::from_str(SCHEMA).unwrap();
        let parsed: Json = serde_json::from_str(&content).unwrap();
        prop_assert_eq!(
            toolnexus_verdict(SCHEMA, allow, &content),
            reference_verdict(&schema, allow, &parsed),
            "content {}", content
        );
    }
}
