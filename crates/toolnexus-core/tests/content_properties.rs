//! Property tests for the content layer: validation never panics, well-formed generated schemas
//! check clean, content built from a schema's form model validates, and typed input that
//! parses always validates.

// A failed check is meant to stop the test: its helpers, not only its `#[test]`s, may panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use toolnexus_core::content::{
    ContentOptions, ContentValue, Violation, apply_defaults, prepare_content, validate_content,
};
use toolnexus_core::form::{FormField, Widget, form_fields, parse_field_input};
use toolnexus_core::schema::RequestedSchema;
use toolnexus_core::schema::check_schema;
use toolnexus_core::{Limits, Map, Number, Value, json};

/// Any JSON value, a few levels deep.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        prop::sample::select(vec!["0.5", "-1e400", "1e400", "3.0", "-0", "1E-7"])
            .prop_map(|s| Value::Number(Number::from_spelling(s).unwrap())),
        "\\PC{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,3}", inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map>())),
        ]
    })
}

/// The JSON text of one well-formed property schema, built so that its constraints can be met
/// and its default (when it has one) keeps them.
fn property_schema() -> impl Strategy<Value = String> {
    let options = prop::collection::btree_set("[a-z]{1,6}", 1..6)
        .prop_map(|set| set.into_iter().collect::<Vec<_>>());
    let title = prop::option::of("[A-Za-z ]{0,10}");
    prop_oneof![
        // Free text: lengths in order, a default of a length in between.
        (0u64..5, 0u64..5, any::<bool>(), title.clone()).prop_map(|(min, extra, dflt, title)| {
            let max = min + extra;
            let mut s = format!(r#"{{"type":"string","minLength":{min},"maxLength":{max}"#);
            if dflt {
                s += &format!(r#","default":"{}""#, "x".repeat(min as usize));
            }
            finish(s, title)
        }),
        // Formatted text.
        (
            prop::sample::select(vec![
                ("email", "ada@example.org"),
                ("uri", "https://example.org/a?b"),
                ("date", "2024-02-29"),
                ("date-time", "2024-02-29T23:59:60Z"),
            ]),
            any::<bool>()
        )
            .prop_map(|((format, sample), dflt)| {
                let mut s = format!(r#"{{"type":"string","format":"{format}""#);
                if dflt {
                    s += &format!(r#","default":"{sample}""#);
                }
                finish(s, None)
            }),
        // Numbers and integers with bounds in order.
        (any::<bool>(), -1000i64..1000, 0i64..1000, any::<bool>()).prop_map(
            |(integer, min, span, dflt)| {
                let ty = if integer { "integer" } else { "number" };
                let max = min + span;
                let mut s = format!(r#"{{"type":"{ty}","minimum":{min},"maximum":{max}"#);
                if dflt {
                    s += &format!(r#","default":{max}"#);
                }
                finish(s, None)
            }
        ),
        // Booleans.
        prop::option::of(any::<bool>()).prop_map(|dflt| {
            let mut s = String::from(r#"{"type":"boolean""#);
            if let Some(d) = dflt {
                s += &format!(r#","default":{d}"#);
            }
            finish(s, None)
        }),
        // Single-selects in each spelling.
        (options.clone(), 0u8..3, any::<bool>()).prop_map(|(opts, shape, dflt)| {
            let list = quoted(&opts);
            let mut s = match shape {
                0 => format!(r#"{{"type":"string","enum":[{list}]"#),
                1 => format!(
                    r#"{{"type":"string","enum":[{list}],"enumNames":[{}]"#,
                    quoted(&opts.iter().map(|o| o.to_uppercase()).collect::<Vec<_>>())
                ),
                _ => format!(r#"{{"type":"string","oneOf":[{}]"#, titled(&opts)),
            };
            if dflt {
                s += &format!(r#","default":"{}""#, opts[0]);
            }
            finish(s, None)
        }),
        // Multi-selects in each spelling, with counts that can be met.
        (options, any::<bool>(), any::<bool>()).prop_map(|(opts, titled_shape, dflt)| {
            let n = opts.len();
            let items = if titled_shape {
                format!(r#"{{"anyOf":[{}]}}"#, titled(&opts))
            } else {
                format!(r#"{{"type":"string","enum":[{}]}}"#, quoted(&opts))
            };
            let min = n / 2;
            let mut s =
                format!(r#"{{"type":"array","items":{items},"minItems":{min},"maxItems":{n}"#);
            if dflt {
                s += &format!(r#","default":[{}]"#, quoted(&opts[..min]));
            }
            finish(s, None)
        }),
    ]
}

fn quoted(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("\"{v}\""))
        .collect::<Vec<_>>()
        .join(",")
}

fn titled(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!(r#"{{"const":"{v}","title":"{}"}}"#, v.to_uppercase()))
        .collect::<Vec<_>>()
        .join(",")
}

fn finish(mut s: String, title: Option<String>) -> String {
    if let Some(t) = title {
        s += &format!(r#","title":"{t}""#);
    }
    s.push('}');
    s
}

/// A well-formed requestedSchema: up to six properties, each required or not.
fn schema_text() -> impl Strategy<Value = String> {
    prop::collection::vec((property_schema(), any::<bool>()), 0..7).prop_map(|props| {
        let members: Vec<String> = props
            .iter()
            .enumerate()
            .map(|(i, (p, _))| format!(r#""p{i}":{p}"#))
            .collect();
        let required: Vec<String> = props
            .iter()
            .enumerate()
            .filter(|(_, (_, r))| *r)
            .map(|(i, _)| format!(r#""p{i}""#))
            .collect();
        format!(
            r#"{{"type":"object","properties":{{{}}},"required":[{}]}}"#,
            members.join(","),
            required.join(",")
        )
    })
}

fn parse(text: &str) -> Value {
    json::parse_str(text, &Limits::DEFAULT).unwrap()
}

/// A value that keeps every constraint `field` shows, built from the form model alone.
fn value_for(field: &FormField) -> Value {
    let c = field.constraints();
    match field.widget() {
        Widget::Text => Value::from("x".repeat(c.min_length().unwrap_or(0) as usize)),
        Widget::Email => Value::from("someone@example.com"),
        Widget::Uri => Value::from("urn:isbn:0451450523"),
        Widget::Date => Value::from("2000-02-29"),
        Widget::DateTime => Value::from("1990-12-31T15:59:60-08:00"),
        Widget::Number | Widget::Integer => Value::Number(
            c.minimum()
                .or(c.maximum())
                .cloned()
                .unwrap_or_else(|| Number::from(0u64)),
        ),
        Widget::Toggle => Value::Bool(true),
        Widget::SingleSelect => Value::from(field.options()[0].value()),
        Widget::MultiSelect => Value::Array(
            field
                .options()
                .iter()
                .take(c.min_items().unwrap_or(0) as usize)
                .map(|o| Value::from(o.value()))
                .collect(),
        ),
        other => panic!("no sample value for the widget {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn generated_schemas_check_clean(text in schema_text()) {
        let schema = parse(&text);
        let problems = check_schema(&schema);
        prop_assert!(problems.is_empty(), "{text}\n{problems:?}");
    }

    #[test]
    fn content_built_from_the_form_model_validates(text in schema_text(), fill_optional in any::<bool>()) {
        let schema = RequestedSchema::from_value(&parse(&text)).unwrap();
        let mut content = apply_defaults(&schema, &Map::new());
        for field in form_fields(&schema) {
            if !content.contains_key(field.name()) && (field.required() || fill_optional) {
                content.insert(field.name(), value_for(&field));
            }
        }
        let content = Value::Object(content);
        let violations = validate_content(&schema, &content, &ContentOptions::STRICT);
        prop_assert!(violations.is_empty(), "{text}\n{}\n{violations:?}", content.to_json());
        // Defaults alone satisfy every required field that has one.
        let prepared = prepare_content(&schema, &content, &ContentOptions::STRICT);
        prop_assert!(prepared.is_ok());
    }

    #[test]
    fn validation_never_panics_and_points_into_the_content(
        text in schema_text(),
        content in any_value(),
        allow in any::<bool>(),
    ) {
        let schema = RequestedSchema::from_value(&parse(&text)).unwrap();
        let options = ContentOptions::STRICT.allow_unknown(allow);
        for v in validate_content(&schema, &content, &options) {
            prop_assert!(v.pointer().is_empty() || v.pointer().starts_with('/'));
            prop_assert!(!v.message().is_empty());
        }
        let _ = prepare_content(&schema, &content, &options);
    }

    #[test]
    fn arbitrary_schemas_never_panic(schema in any_value(), content in any_value()) {
        let _ = check_schema(&schema);
        if let Ok(schema) = RequestedSchema::from_value(&schema) {
            let _ = validate_content(&schema, &content, &ContentOptions::STRICT);
            for field in form_fields(&schema) {
                let _ = parse_field_input(&field, "1, a,true");
            }
        }
    }

    #[test]
    fn typed_input_that_parses_validates(text in schema_text(), input in "\\PC{0,16}|[0-9 +.,-]{0,8}|(yes|no|a|b)(, ?[a-z]{1,6}){0,3}") {
        let schema = RequestedSchema::from_value(&parse(&text)).unwrap();
        for field in form_fields(&schema) {
            if let Ok(Some(value)) = parse_field_input(&field, &input) {
                let mut content = Map::new();
                content.insert(field.name(), value);
                let found = validate_content(&schema, &Value::Object(content), &ContentOptions::STRICT);
                let at = format!("/{}", field.name());
                let own: Vec<_> = found
                    .iter()
                    .filter(|v| v.pointer() == at || v.pointer().starts_with(&format!("{at}/")))
                    .collect();
                prop_assert!(own.is_empty(), "{text}\n{input:?}\n{own:?}");
            }
        }
    }

    #[test]
    fn validation_is_the_plain_reading_of_its_table(
        kinds in prop::collection::vec(("[a-f]", property_schema()), 0..12),
        required in prop::collection::vec("[a-h]", 0..8),
        members in prop::collection::vec(("[a-h]", any_value()), 0..10),
        allow_unknown in any::<bool>(),
    ) {
        let properties: Vec<String> = kinds
            .iter()
            .map(|(name, schema)| format!("{name:?}:{schema}"))
            .collect();
        let text = format!(
            r#"{{"type":"object","properties":{{{}}},"required":{}}}"#,
            properties.join(","),
            serde_json::to_string(&required).unwrap(),
        );
        // Generated names may repeat: such a schema is refused as JSON, and skipped.
        let Ok(value) = json::parse_str(&text, &Limits::DEFAULT) else { return Ok(()) };
        let Ok(schema) = RequestedSchema::from_value(&value) else { return Ok(()) };
        let content: Map = members.into_iter().collect();
        let options = ContentOptions::STRICT.allow_unknown(allow_unknown);
        let found = validate_content(&schema, &Value::Object(content.clone()), &options);
        prop_assert_eq!(as_text(found), plain_validation(&schema, &content, &options));
        // Defaults: a member absent or null takes its property's default, in place or last.
        let mut filled = content.clone();
        for property in schema.properties() {
            let absent = filled.get(property.name()).is_none_or(Value::is_null);
            if absent && let Some(default) = property.default_value() {
                filled.insert(property.name(), default);
            }
        }
        prop_assert_eq!(apply_defaults(&schema, &content), filled);
    }
}

/// The order of `toolnexus_core::content`'s table, read one look-up at a time: each property
/// in schema order, then `required` names no property declares, then undeclared members.
fn plain_validation(
    schema: &RequestedSchema,
    content: &Map,
    options: &ContentOptions,
) -> Vec<(String, String, String)> {
    let mut seen = Vec::new();
    for property in schema.properties() {
        let at = format!("/{}", property.name());
        match content.get(property.name()) {
            Some(value) => {
                let mut own = Vec::new();
                property.violations(value, &at, &mut own);
                seen.extend(as_text(own));
            }
            None if schema.required().iter().any(|r| r == property.name()) => {
                let message = format!("{} is required", property.label());
                seen.push((at, "required".into(), message));
            }
            None => {}
        }
    }
    for (i, name) in schema.required().iter().enumerate() {
        let first = schema.required().iter().position(|r| r == name) == Some(i);
        if first && schema.property(name).is_none() && !content.contains_key(name) {
            seen.push((
                format!("/{name}"),
                "required".into(),
                format!("{name} is required"),
            ));
        }
    }
    for (name, value) in content.iter() {
        if schema.property(name).is_some() {
            continue;
        }
        if !options.allows_unknown() {
            let message = format!("{name} is not a field of this form");
            seen.push((format!("/{name}"), "additionalProperties".into(), message));
        } else if ContentValue::from_value(value).is_err() {
            let message = format!(
                "{name} must be text, a number, true or false, or a list of texts, not {}",
                value.type_name()
            );
            seen.push((format!("/{name}"), "type".into(), message));
        }
    }
    seen
}

/// Violations as plain text: pointer, keyword, message.
fn as_text(found: Vec<Violation>) -> Vec<(String, String, String)> {
    found
        .into_iter()
        .map(|v| {
            (
                v.pointer().to_owned(),
                v.keyword().as_str().to_owned(),
                v.message().to_owned(),
            )
        })
        .collect()
}
