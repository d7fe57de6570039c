//! Tests of the typed model: what each shape reads as, and the first blocking problem
//! `RequestedSchema::from_value` fails with.

use alloc::format;
use alloc::string::ToString;
use alloc::vec;

use crate::schema::*;

/// Reads JSON text with the crate's own reader, which keeps every number's spelling.
fn json(text: &str) -> Value {
    crate::json::parse_str(text, &crate::json::Limits::DEFAULT).unwrap()
}

fn read(text: &str) -> Result<RequestedSchema, Error> {
    RequestedSchema::from_value(&json(text))
}

/// A root schema with the single property `p` given as JSON text.
fn one(property: &str) -> Result<RequestedSchema, Error> {
    read(&format!(
        r#"{{"type":"object","properties":{{"p":{property}}}}}"#
    ))
}

fn kind_of(property: &str) -> PropertyKind {
    one(property)
        .unwrap()
        .properties()
        .first()
        .unwrap()
        .kind()
        .clone()
}

fn err(result: Result<RequestedSchema, Error>) -> (ErrorKind, String) {
    let e = result.unwrap_err();
    assert!(!e.message().is_empty());
    (e.kind(), e.pointer().to_string())
}

fn err_of(property: &str) -> (ErrorKind, String) {
    err(one(property))
}

fn string(kind: PropertyKind) -> StringSchema {
    match kind {
        PropertyKind::String(s) => s,
        other => panic!("expected a string, got {other:?}"),
    }
}

fn number(kind: PropertyKind) -> NumberSchema {
    match kind {
        PropertyKind::Number(n) => n,
        other => panic!("expected a number, got {other:?}"),
    }
}

fn single(kind: PropertyKind) -> SingleSelectSchema {
    match kind {
        PropertyKind::SingleSelect(s) => s,
        other => panic!("expected a single-select, got {other:?}"),
    }
}

fn multi(kind: PropertyKind) -> MultiSelectSchema {
    match kind {
        PropertyKind::MultiSelect(m) => m,
        other => panic!("expected a multi-select, got {other:?}"),
    }
}

fn option(value: &str, title: Option<&str>) -> EnumOption {
    EnumOption {
        value: value.to_string(),
        title: title.map(String::from),
    }
}

fn n(spelling: &str) -> Number {
    match json(spelling) {
        Value::Number(n) => n,
        other => panic!("{spelling} is not a number: {other:?}"),
    }
}

// --- The specification's own examples (schema/2026-07-28/examples) ---

#[test]
fn spec_elicit_request_schema() {
    let schema = read(
        r#"{"type":"object","properties":{"name":{"type":"string","title":"GitHub Username","description":"Your GitHub username"}},"required":["name"]}"#,
    )
    .unwrap();
    assert_eq!(schema.schema_uri(), None);
    assert_eq!(schema.properties().len(), 1);
    let name = schema.property("name").unwrap();
    assert_eq!(name.name(), "name");
    assert_eq!(name.title(), Some("GitHub Username"));
    assert_eq!(name.description(), Some("Your GitHub username"));
    assert_eq!(name.label(), "GitHub Username");
    assert_eq!(
        string(name.kind().clone()),
        StringSchema {
            min_length: None,
            max_length: None,
            format: None,
            default: None
        }
    );
    assert_eq!(schema.required(), ["name".to_string()]);
    assert!(schema.is_required("name"));
}

#[test]
fn spec_elicit_single_field() {
    let schema =
        read(r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#)
            .unwrap();
    let name = schema.property("name").unwrap();
    assert_eq!(name.title(), None);
    assert_eq!(name.label(), "name");
    assert_eq!(name.kind().json_type(), "string");
}

#[test]
fn spec_elicit_multiple_fields() {
    let schema = read(
        r#"{
          "type": "object",
          "properties": {
            "name": {"type": "string", "description": "Your full name"},
            "email": {"type": "string", "format": "email", "description": "Your email address"},
            "age": {"type": "number", "minimum": 18, "description": "Your age"}
          },
          "required": ["name", "email"]
        }"#,
    )
    .unwrap();
    let names: Vec<&str> = schema.properties().iter().map(Property::name).collect();
    assert_eq!(names, ["name", "email", "age"]);
    assert!(schema.is_required("name"));
    assert!(schema.is_required("email"));
    assert!(!schema.is_required("age"));
    let email = string(schema.property("email").unwrap().kind().clone());
    assert_eq!(email.format(), Some(StringFormat::Email));
    let age = number(schema.property("age").unwrap().kind().clone());
    assert!(!age.is_integer());
    assert_eq!(age.minimum(), Some(&n("18")));
    assert_eq!(age.maximum(), None);
    assert_eq!(
        schema.property("age").unwrap().description(),
        Some("Your age")
    );
}

#[test]
fn spec_string_schema() {
    let schema = one(
        r#"{"type":"string","title":"Display Name","description":"Description text","minLength":3,"maxLength":50,"format":"email","default":"user@example.com"}"#,
    )
    .unwrap();
    let p = &schema.properties().first().unwrap();
    assert_eq!(p.title(), Some("Display Name"));
    assert_eq!(p.description(), Some("Description text"));
    let s = string(p.kind().clone());
    assert_eq!(s.min_length(), Some(3));
    assert_eq!(s.max_length(), Some(50));
    assert_eq!(s.format(), Some(StringFormat::Email));
    assert_eq!(s.default(), Some("user@example.com"));
    assert_eq!(
        p.default_value(),
        Some(Value::String("user@example.com".into()))
    );
}

#[test]
fn spec_number_schema() {
    let schema = one(
        r#"{"type":"number","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50}"#,
    )
    .unwrap();
    let p = &schema.properties().first().unwrap();
    let num = number(p.kind().clone());
    assert!(!num.is_integer());
    assert_eq!(num.minimum(), Some(&n("0")));
    assert_eq!(num.maximum(), Some(&n("100")));
    assert_eq!(num.default(), Some(&n("50")));
    assert_eq!(p.kind().json_type(), "number");
    assert_eq!(p.default_value(), Some(json("50")));
}

#[test]
fn spec_boolean_schema() {
    let schema = one(
        r#"{"type":"boolean","title":"Display Name","description":"Description text","default":false}"#,
    )
    .unwrap();
    let p = &schema.properties().first().unwrap();
    assert_eq!(p.title(), Some("Display Name"));
    assert_eq!(
        p.kind(),
        &PropertyKind::Boolean(BooleanSchema {
            default: Some(false)
        })
    );
    assert_eq!(p.kind().json_type(), "boolean");
    assert_eq!(p.default_value(), Some(Value::Bool(false)));
}

#[test]
fn spec_untitled_single_select() {
    let schema = one(
        r#"{"type":"string","title":"Color Selection","description":"Choose your favorite color","enum":["Red","Green","Blue"],"default":"Red"}"#,
    )
    .unwrap();
    let p = &schema.properties().first().unwrap();
    assert_eq!(p.title(), Some("Color Selection"));
    assert_eq!(p.kind().json_type(), "string");
    let s = single(p.kind().clone());
    assert_eq!(s.shape(), EnumShape::Untitled);
    assert_eq!(
        s.options(),
        [
            option("Red", None),
            option("Green", None),
            option("Blue", None)
        ]
    );
    assert_eq!(s.default(), Some("Red"));
    assert_eq!(s.option("Green").unwrap().label(), "Green");
    assert_eq!(s.option("Purple"), None);
    assert_eq!(p.default_value(), Some(Value::String("Red".into())));
}

#[test]
fn spec_titled_single_select() {
    let schema = one(
        r##"{"type":"string","title":"Color Selection","description":"Choose your favorite color","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],"default":"#FF0000"}"##,
    )
    .unwrap();
    let s = single(schema.properties().first().unwrap().kind().clone());
    assert_eq!(s.shape(), EnumShape::Titled);
    assert_eq!(
        s.options(),
        [
            option("#FF0000", Some("Red")),
            option("#00FF00", Some("Green")),
            option("#0000FF", Some("Blue"))
        ]
    );
    assert_eq!(s.default(), Some("#FF0000"));
    let green = s.option("#00FF00").unwrap();
    assert_eq!(green.value(), "#00FF00");
    assert_eq!(green.title(), Some("Green"));
    assert_eq!(green.label(), "Green");
}

#[test]
fn legacy_titled_enum() {
    let s = single(kind_of(
        r#"{"type":"string","title":"Plan","enum":["free","pro"],"enumNames":["Free tier","Pro tier"],"default":"free"}"#,
    ));
    assert_eq!(s.shape(), EnumShape::LegacyTitled);
    assert_eq!(
        s.options(),
        [
            option("free", Some("Free tier")),
            option("pro", Some("Pro tier"))
        ]
    );
    assert_eq!(s.default(), Some("free"));
}

#[test]
fn legacy_enum_names_of_another_length_pair_by_position() {
    let s = single(kind_of(
        r#"{"type":"string","enum":["a","b","c"],"enumNames":["A"]}"#,
    ));
    assert_eq!(s.shape(), EnumShape::LegacyTitled);
    assert_eq!(
        s.options(),
        [option("a", Some("A")), option("b", None), option("c", None)]
    );
    let s = single(kind_of(
        r#"{"type":"string","enum":["a"],"enumNames":["A","B"]}"#,
    ));
    assert_eq!(s.options(), [option("a", Some("A"))]);
}

#[test]
fn spec_untitled_multi_select() {
    let schema = one(
        r#"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}"#,
    )
    .unwrap();
    let p = &schema.properties().first().unwrap();
    assert_eq!(p.kind().json_type(), "array");
    assert_eq!(p.description(), Some("Choose your favorite colors"));
    let m = multi(p.kind().clone());
    assert_eq!(m.shape(), EnumShape::Untitled);
    assert_eq!(m.min_items(), Some(1));
    assert_eq!(m.max_items(), Some(2));
    assert_eq!(
        m.options(),
        [
            option("Red", None),
            option("Green", None),
            option("Blue", None)
        ]
    );
    assert_eq!(
        m.default(),
        Some(&["Red".to_string(), "Green".to_string()][..])
    );
    assert_eq!(p.default_value(), Some(json(r#"["Red","Green"]"#)));
}

#[test]
fn spec_titled_multi_select() {
    let schema = one(
        r##"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000","#00FF00"]}"##,
    )
    .unwrap();
    let m = multi(schema.properties().first().unwrap().kind().clone());
    assert_eq!(m.shape(), EnumShape::Titled);
    assert_eq!(
        m.options(),
        [
            option("#FF0000", Some("Red")),
            option("#00FF00", Some("Green")),
            option("#0000FF", Some("Blue"))
        ]
    );
    assert_eq!(m.option("#0000FF").unwrap().label(), "Blue");
    assert_eq!(
        m.default(),
        Some(&["#FF0000".to_string(), "#00FF00".to_string()][..])
    );
}

// --- Other valid shapes ---

#[test]
fn integer_schema() {
    let num = number(kind_of(
        r#"{"type":"integer","minimum":-5,"maximum":1e3,"default":7}"#,
    ));
    assert!(num.is_integer());
    assert_eq!(num.minimum().unwrap().as_str(), "-5");
    assert_eq!(num.minimum().unwrap().as_i64(), Some(-5));
    assert_eq!(num.maximum().unwrap().as_f64(), Some(1000.0));
    assert_eq!(num.default().unwrap().as_i64(), Some(7));
    assert_eq!(kind_of(r#"{"type":"integer"}"#).json_type(), "integer");
}

#[test]
fn number_spelling_survives() {
    let num = number(kind_of(
        r#"{"type":"number","minimum":0.10,"maximum":123456789012345678901234567890}"#,
    ));
    assert_eq!(num.minimum().unwrap().as_str(), "0.10");
    assert_eq!(
        num.maximum().unwrap().as_str(),
        "123456789012345678901234567890"
    );
}

#[test]
fn every_string_format() {
    for (name, format) in [
        ("email", StringFormat::Email),
        ("uri", StringFormat::Uri),
        ("date", StringFormat::Date),
        ("date-time", StringFormat::DateTime),
    ] {
        let s = string(kind_of(&format!(
            r#"{{"type":"string","format":"{name}"}}"#
        )));
        assert_eq!(s.format(), Some(format));
        assert_eq!(format.as_str(), name);
        assert_eq!(StringFormat::from_name(name), Some(format));
    }
    assert_eq!(StringFormat::from_name("Email"), None);
    assert_eq!(StringFormat::from_name("uri-reference"), None);
}

#[test]
fn minimal_shapes_have_no_constraints() {
    assert_eq!(
        kind_of(r#"{"type":"boolean"}"#),
        PropertyKind::Boolean(BooleanSchema { default: None })
    );
    let s = single(kind_of(r#"{"type":"string","enum":[]}"#));
    assert_eq!(s.options(), []);
    assert_eq!(s.default(), None);
    let m = multi(kind_of(r#"{"type":"array","items":{"anyOf":[]}}"#));
    assert_eq!(m.options(), []);
    assert_eq!(m.min_items(), None);
    assert_eq!(m.max_items(), None);
    assert_eq!(m.default(), None);
}

#[test]
fn multi_select_items_type_may_be_omitted_with_enum() {
    let m = multi(kind_of(r#"{"type":"array","items":{"enum":["a","b"]}}"#));
    assert_eq!(m.shape(), EnumShape::Untitled);
    assert_eq!(m.options(), [option("a", None), option("b", None)]);
    let m = multi(kind_of(
        r#"{"type":"array","items":{"type":"string","anyOf":[{"const":"a","title":"A"}]}}"#,
    ));
    assert_eq!(m.shape(), EnumShape::Titled);
}

#[test]
fn titled_option_without_title_is_read_without_one() {
    let s = single(kind_of(r#"{"type":"string","oneOf":[{"const":"a"}]}"#));
    assert_eq!(s.options(), [option("a", None)]);
    assert_eq!(s.options().first().unwrap().label(), "a");
}

#[test]
fn empty_properties_and_no_required() {
    let schema = read(r#"{"type":"object","properties":{}}"#).unwrap();
    assert!(schema.properties().is_empty());
    assert!(schema.required().is_empty());
    assert!(!schema.is_required("x"));
    assert_eq!(schema.property("x"), None);
    assert!(schema.defaults().is_empty());
}

#[test]
fn schema_uri_is_kept() {
    let schema = read(
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{}}"#,
    )
    .unwrap();
    assert_eq!(
        schema.schema_uri(),
        Some("https://json-schema.org/draft/2020-12/schema")
    );
}

#[test]
fn property_order_is_kept() {
    let schema = read(
        r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"},"mid":{"type":"integer"}}}"#,
    )
    .unwrap();
    let names: Vec<&str> = schema.properties().iter().map(Property::name).collect();
    assert_eq!(names, ["zeta", "alpha", "mid"]);
}

#[test]
fn unknown_keywords_are_ignored() {
    let schema = read(
        r#"{
          "type": "object",
          "title": "Form",
          "additionalProperties": false,
          "x-vendor": {"anything": [1, 2]},
          "properties": {
            "s": {"type": "string", "pattern": "^a", "examples": ["a"], "x-ui": 5, "enumNames": 7},
            "n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": "odd"},
            "b": {"type": "boolean", "const": true},
            "e": {"type": "string", "enum": ["a"], "minLength": "not read for a select", "format": 9},
            "m": {"type": "array", "uniqueItems": true, "items": {"enum": ["a"], "x": 1}}
          }
        }"#,
    )
    .unwrap();
    assert_eq!(schema.properties().len(), 5);
    assert_eq!(
        string(schema.property("s").unwrap().kind().clone()),
        StringSchema {
            min_length: None,
            max_length: None,
            format: None,
            default: None
        }
    );
}

#[test]
fn null_members_count_as_absent() {
    let schema = read(
        r#"{"$schema":null,"type":"object","properties":{"p":{"type":"string","title":null,"minLength":null,"format":null,"default":null}},"required":null}"#,
    )
    .unwrap();
    assert_eq!(schema.schema_uri(), None);
    assert!(schema.required().is_empty());
    let p = &schema.properties().first().unwrap();
    assert_eq!(p.title(), None);
    assert_eq!(string(p.kind().clone()).min_length(), None);
    assert_eq!(p.default_value(), None);
}

#[test]
fn cross_field_problems_are_not_this_readings_business() {
    let schema = read(
        r#"{
          "type": "object",
          "properties": {
            "s": {"type": "string", "minLength": 10, "maxLength": 2, "default": "way too long for it"},
            "n": {"type": "integer", "minimum": 10, "maximum": 1.5, "default": 0.5},
            "e": {"type": "string", "enum": ["a", "a"], "default": "z"},
            "m": {"type": "array", "minItems": 5, "maxItems": 1, "items": {"enum": ["a"]}, "default": ["b", "b"]}
          },
          "required": ["missing", "s", "s"]
        }"#,
    )
    .unwrap();
    assert_eq!(schema.required().len(), 3);
    assert!(schema.is_required("missing"));
    assert_eq!(schema.property("missing"), None);
    let e = single(schema.property("e").unwrap().kind().clone());
    assert_eq!(e.options(), [option("a", None), option("a", None)]);
    assert_eq!(e.default(), Some("z"));
}

#[test]
fn defaults_collects_every_default_in_order() {
    let schema = read(
        r#"{"type":"object","properties":{
          "b": {"type": "boolean", "default": true},
          "none": {"type": "string"},
          "n": {"type": "number", "default": 2.50},
          "s": {"type": "string", "default": "x"},
          "e": {"type": "string", "oneOf": [{"const": "k", "title": "K"}], "default": "k"},
          "m": {"type": "array", "items": {"enum": ["a", "b"]}, "default": ["b"]}
        }}"#,
    )
    .unwrap();
    let defaults = Value::Object(schema.defaults());
    assert_eq!(
        serde_json::to_string(&defaults).unwrap(),
        r#"{"b":true,"n":2.50,"s":"x","e":"k","m":["b"]}"#
    );
}

#[test]
fn from_map_and_from_value_agree() {
    let value = json(r#"{"type":"object","properties":{"a":{"type":"string"}}}"#);
    let map = value.as_object().unwrap();
    assert_eq!(
        RequestedSchema::from_map(map).unwrap(),
        RequestedSchema::from_value(&value).unwrap()
    );
}

// --- Errors: kind and pointer ---

#[test]
fn root_must_be_an_object() {
    for text in ["[]", "\"object\"", "5", "true", "null"] {
        assert_eq!(err(read(text)), (ErrorKind::WrongType, String::new()));
    }
}

#[test]
fn root_type() {
    assert_eq!(
        err(read(r#"{"properties":{}}"#)),
        (ErrorKind::MissingField, "/type".into())
    );
    assert_eq!(
        err(read(r#"{"type":null,"properties":{}}"#)),
        (ErrorKind::MissingField, "/type".into())
    );
    assert_eq!(
        err(read(r#"{"type":["object"],"properties":{}}"#)),
        (ErrorKind::WrongType, "/type".into())
    );
    for ty in ["array", "string", "Object", ""] {
        assert_eq!(
            err(read(&format!(r#"{{"type":"{ty}","properties":{{}}}}"#))),
            (ErrorKind::InvalidValue, "/type".into())
        );
    }
}

#[test]
fn root_schema_uri_type() {
    assert_eq!(
        err(read(r#"{"$schema":1,"type":"object","properties":{}}"#)),
        (ErrorKind::WrongType, "/$schema".into())
    );
}

#[test]
fn root_properties() {
    assert_eq!(
        err(read(r#"{"type":"object"}"#)),
        (ErrorKind::MissingField, "/properties".into())
    );
    assert_eq!(
        err(read(r#"{"type":"object","properties":[]}"#)),
        (ErrorKind::WrongType, "/properties".into())
    );
}

#[test]
fn root_required() {
    assert_eq!(
        err(read(r#"{"type":"object","properties":{},"required":"x"}"#)),
        (ErrorKind::WrongType, "/required".into())
    );
    assert_eq!(
        err(read(
            r#"{"type":"object","properties":{},"required":["a",1]}"#
        )),
        (ErrorKind::WrongType, "/required/1".into())
    );
    assert_eq!(
        err(read(
            r#"{"type":"object","properties":{},"required":["a","b",null]}"#
        )),
        (ErrorKind::WrongType, "/required/2".into())
    );
}

#[test]
fn property_must_be_an_object() {
    for p in [r#""string""#, "true", "[]", "3"] {
        assert_eq!(err_of(p), (ErrorKind::WrongType, "/properties/p".into()));
    }
}

#[test]
fn property_type() {
    assert_eq!(
        err_of(r#"{"title":"No type"}"#),
        (ErrorKind::MissingField, "/properties/p/type".into())
    );
    assert_eq!(
        err_of(r#"{"type":["string","null"]}"#),
        (ErrorKind::WrongType, "/properties/p/type".into())
    );
    for ty in ["null", "text", "String", "int"] {
        assert_eq!(
            err_of(&format!(r#"{{"type":"{ty}"}}"#)),
            (ErrorKind::InvalidValue, "/properties/p/type".into())
        );
    }
}

#[test]
fn nested_objects_are_refused_with_a_clear_message() {
    let e = one(r#"{"type":"object","properties":{"street":{"type":"string"}}}"#).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert_eq!(e.pointer(), "/properties/p/type");
    assert!(e.message().contains("nested objects are not allowed"));
}

#[test]
fn title_and_description_types() {
    assert_eq!(
        err_of(r#"{"type":"string","title":5}"#),
        (ErrorKind::WrongType, "/properties/p/title".into())
    );
    assert_eq!(
        err_of(r#"{"type":"boolean","description":{}}"#),
        (ErrorKind::WrongType, "/properties/p/description".into())
    );
}

#[test]
fn string_keyword_types() {
    assert_eq!(
        err_of(r#"{"type":"string","minLength":"3"}"#),
        (ErrorKind::WrongType, "/properties/p/minLength".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","maxLength":true}"#),
        (ErrorKind::WrongType, "/properties/p/maxLength".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","format":5}"#),
        (ErrorKind::WrongType, "/properties/p/format".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","default":5}"#),
        (ErrorKind::WrongType, "/properties/p/default".into())
    );
}

#[test]
fn unknown_format() {
    for format in ["phone", "uuid", "Date", "", "datetime"] {
        let e = one(&format!(r#"{{"type":"string","format":"{format}"}}"#)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert_eq!(e.pointer(), "/properties/p/format");
        assert!(e.message().contains("date-time"));
    }
}

#[test]
fn lengths_and_counts_must_be_non_negative_integers() {
    for bad in [
        "-1",
        "2.5",
        "0.1",
        "-3.0",
        "1e-1",
        "3.0000000000000001",
        "1e-400",
    ] {
        assert_eq!(
            err_of(&format!(r#"{{"type":"string","minLength":{bad}}}"#)),
            (ErrorKind::InvalidValue, "/properties/p/minLength".into()),
            "minLength {bad}"
        );
        assert_eq!(
            err_of(&format!(
                r#"{{"type":"array","maxItems":{bad},"items":{{"enum":[]}}}}"#
            )),
            (ErrorKind::InvalidValue, "/properties/p/maxItems".into()),
            "maxItems {bad}"
        );
    }
    assert_eq!(
        err_of(r#"{"type":"array","minItems":"1","items":{"enum":[]}}"#),
        (ErrorKind::WrongType, "/properties/p/minItems".into())
    );
}

#[test]
fn integral_spellings_all_count() {
    for (spelling, value) in [
        ("0", 0),
        ("3", 3),
        ("3.0", 3),
        ("3.000", 3),
        ("0.3e1", 3),
        ("30e-1", 3),
        ("1e2", 100),
        ("1E+2", 100),
        ("-0", 0),
        ("-0.0", 0),
        ("0e-5", 0),
        ("18446744073709551615", u64::MAX),
    ] {
        let s = string(kind_of(&format!(
            r#"{{"type":"string","minLength":{spelling}}}"#
        )));
        assert_eq!(s.min_length(), Some(value), "{spelling}");
    }
}

#[test]
fn counts_beyond_u64_saturate() {
    for spelling in [
        "18446744073709551616",
        "1e20",
        "1e400",
        "123456789012345678901234567890.0",
        "1e999999999999999999999",
    ] {
        assert_eq!(
            crate::json::decimal::saturating_u64(spelling),
            Some(u64::MAX),
            "{spelling}"
        );
    }
}

#[test]
fn count_reads_spellings_exactly() {
    assert_eq!(crate::json::decimal::saturating_u64("120"), Some(120));
    assert_eq!(crate::json::decimal::saturating_u64("1.20e2"), Some(120));
    assert_eq!(crate::json::decimal::saturating_u64("0.0012e5"), Some(120));
    assert_eq!(crate::json::decimal::saturating_u64("0012"), Some(12));
    assert_eq!(crate::json::decimal::saturating_u64("1.5"), None);
    assert_eq!(crate::json::decimal::saturating_u64("-1"), None);
    assert_eq!(
        crate::json::decimal::saturating_u64("-1e-999999999999999999999"),
        None
    );
    assert_eq!(
        crate::json::decimal::saturating_u64("1e-999999999999999999999"),
        None
    );
    // Not number spellings at all.
    for junk in [
        "", "-", ".5", "5.", "1e", "1e+", "x", "1.2.3", "0x10", "1_000",
    ] {
        assert_eq!(crate::json::decimal::saturating_u64(junk), None, "{junk:?}");
    }
}

#[test]
fn number_keyword_types() {
    assert_eq!(
        err_of(r#"{"type":"number","minimum":"3"}"#),
        (ErrorKind::WrongType, "/properties/p/minimum".into())
    );
    assert_eq!(
        err_of(r#"{"type":"integer","maximum":[1]}"#),
        (ErrorKind::WrongType, "/properties/p/maximum".into())
    );
    assert_eq!(
        err_of(r#"{"type":"number","default":"50"}"#),
        (ErrorKind::WrongType, "/properties/p/default".into())
    );
}

#[test]
fn boolean_default_type() {
    assert_eq!(
        err_of(r#"{"type":"boolean","default":"true"}"#),
        (ErrorKind::WrongType, "/properties/p/default".into())
    );
}

#[test]
fn single_select_errors() {
    assert_eq!(
        err_of(r#"{"type":"string","enum":"a"}"#),
        (ErrorKind::WrongType, "/properties/p/enum".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","enum":["a",1]}"#),
        (ErrorKind::WrongType, "/properties/p/enum/1".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","enum":["a"],"enumNames":"A"}"#),
        (ErrorKind::WrongType, "/properties/p/enumNames".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","enum":["a"],"enumNames":[false]}"#),
        (ErrorKind::WrongType, "/properties/p/enumNames/0".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","enum":["a"],"default":["a"]}"#),
        (ErrorKind::WrongType, "/properties/p/default".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","oneOf":{"const":"a","title":"A"}}"#),
        (ErrorKind::WrongType, "/properties/p/oneOf".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","oneOf":[{"const":"a","title":"A"},"b"]}"#),
        (ErrorKind::WrongType, "/properties/p/oneOf/1".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","oneOf":[{"title":"A"}]}"#),
        (
            ErrorKind::MissingField,
            "/properties/p/oneOf/0/const".into()
        )
    );
    assert_eq!(
        err_of(r#"{"type":"string","oneOf":[{"const":1,"title":"One"}]}"#),
        (ErrorKind::WrongType, "/properties/p/oneOf/0/const".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b","title":2}]}"#),
        (ErrorKind::WrongType, "/properties/p/oneOf/1/title".into())
    );
    assert_eq!(
        err_of(r#"{"type":"string","oneOf":[{"const":"a","title":"A"}],"default":1}"#),
        (ErrorKind::WrongType, "/properties/p/default".into())
    );
}

#[test]
fn enum_and_one_of_together_fit_no_shape() {
    assert_eq!(
        err_of(r#"{"type":"string","enum":["a"],"oneOf":[{"const":"a","title":"A"}]}"#),
        (ErrorKind::InvalidValue, "/properties/p".into())
    );
}

#[test]
fn multi_select_errors() {
    assert_eq!(
        err_of(r#"{"type":"array"}"#),
        (ErrorKind::MissingField, "/properties/p/items".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":"string"}"#),
        (ErrorKind::WrongType, "/properties/p/items".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":[{"type":"string"}]}"#),
        (ErrorKind::WrongType, "/properties/p/items".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"type":"string"}}"#),
        (ErrorKind::InvalidValue, "/properties/p/items".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{}}"#),
        (ErrorKind::InvalidValue, "/properties/p/items".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"type":"object","properties":{}}}"#),
        (ErrorKind::InvalidValue, "/properties/p/items/type".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"type":"number","enum":[1,2]}}"#),
        (ErrorKind::InvalidValue, "/properties/p/items/type".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"type":7,"enum":["a"]}}"#),
        (ErrorKind::WrongType, "/properties/p/items/type".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"enum":["a"],"anyOf":[{"const":"a","title":"A"}]}}"#),
        (ErrorKind::InvalidValue, "/properties/p/items".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"type":"string","enum":["a",null]}}"#),
        (ErrorKind::WrongType, "/properties/p/items/enum/1".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"anyOf":[{"const":"a","title":"A"},{"title":"B"}]}}"#),
        (
            ErrorKind::MissingField,
            "/properties/p/items/anyOf/1/const".into()
        )
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"anyOf":"a"}}"#),
        (ErrorKind::WrongType, "/properties/p/items/anyOf".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"enum":["a"]},"default":"a"}"#),
        (ErrorKind::WrongType, "/properties/p/default".into())
    );
    assert_eq!(
        err_of(r#"{"type":"array","items":{"enum":["a"]},"default":["a",1]}"#),
        (ErrorKind::WrongType, "/properties/p/default/1".into())
    );
}

#[test]
fn property_names_are_escaped_in_pointers() {
    let e = read(r#"{"type":"object","properties":{"a/b~c":{"type":"string","title":1}}}"#)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::WrongType);
    assert_eq!(e.pointer(), "/properties/a~1b~0c/title");
    let e = read(
        r#"{"type":"object","properties":{"ok":{"type":"string"},"~/":{"type":"array","items":{"anyOf":[{"const":0}]}}}}"#,
    )
    .unwrap_err();
    assert_eq!(e.pointer(), "/properties/~0~1/items/anyOf/0/const");
    // The name itself is kept unescaped.
    let schema = read(r#"{"type":"object","properties":{"a/b~c":{"type":"string"}}}"#).unwrap();
    assert_eq!(schema.properties().first().unwrap().name(), "a/b~c");
    assert!(schema.property("a/b~c").is_some());
}

#[test]
fn the_first_blocking_problem_in_check_order_is_reported() {
    // The root's keywords come before the properties, as in `check_schema`.
    let e = read(
        r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"nope"},"c":{"type":"object"}},"required":5}"#,
    )
    .unwrap_err();
    assert_eq!(e.pointer(), "/required");
    // Then the properties in the order written.
    let e = read(
        r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"nope"},"c":{"type":"object"}}}"#,
    )
    .unwrap_err();
    assert_eq!(e.pointer(), "/properties/b/type");
    // Problems that leave a usable form do not count.
    let e = read(
        r#"{"type":"object","properties":{"a":{"type":"string","pattern":"x"},"b":{"type":"nope"}},"required":["z"]}"#,
    )
    .unwrap_err();
    assert_eq!(e.pointer(), "/properties/b/type");
}

#[test]
fn messages_name_what_was_found() {
    let e = one(r#"{"type":"string","minLength":"3"}"#).unwrap_err();
    assert!(e.message().contains("minLength"), "{}", e.message());
    assert!(e.message().contains("a string"), "{}", e.message());
    let e = one(r#"{"type":"string","minLength":-2}"#).unwrap_err();
    assert!(e.message().contains("-2"), "{}", e.message());
    let e = read(r#"{"type":"object","properties":{},"required":["a",1]}"#).unwrap_err();
    assert!(e.message().contains("item 1"), "{}", e.message());
}

#[test]
fn json_type_of_each_kind() {
    let cases = vec![
        (r#"{"type":"string"}"#, "string"),
        (r#"{"type":"string","enum":["a"]}"#, "string"),
        (r#"{"type":"number"}"#, "number"),
        (r#"{"type":"integer"}"#, "integer"),
        (r#"{"type":"boolean"}"#, "boolean"),
        (r#"{"type":"array","items":{"enum":["a"]}}"#, "array"),
    ];
    for (property, ty) in cases {
        assert_eq!(kind_of(property).json_type(), ty, "{property}");
    }
}
