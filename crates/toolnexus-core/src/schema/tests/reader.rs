//! Tests of the schema check: the specification's examples, each problem at its pointer, the
//! order of problems, and robustness on arbitrary values.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use proptest::prelude::*;

use crate::error::quote;
use crate::json::{Map, Number, Value};
use crate::schema::PropertyKind;
use crate::schema::reader::keywords::{ITEMS, ROOT, VALIDATION_KEYWORDS};
use crate::schema::reader::problems::Problems;
use crate::schema::reader::property::{check_shape, read_shape};
use crate::schema::reader::shape::Shape;
use crate::schema::{SchemaProblemKind, check_schema};

use SchemaProblemKind::*;

fn json(text: &str) -> Value {
    crate::json::parse_str(text, &crate::json::Limits::DEFAULT).unwrap()
}

/// The kind and pointer of every problem with the schema written `text`.
fn check(text: &str) -> Vec<(SchemaProblemKind, String)> {
    check_schema(&json(text))
        .into_iter()
        .map(|p| {
            assert!(!p.message().is_empty(), "{p:?}");
            (p.kind(), p.pointer().to_string())
        })
        .collect()
}

/// The problems of a root schema whose single property `p` is written `property`.
fn one(property: &str) -> Vec<(SchemaProblemKind, String)> {
    check(&format!(
        r#"{{"type":"object","properties":{{"p":{property}}}}}"#
    ))
}

fn at(kind: SchemaProblemKind, pointer: &str) -> (SchemaProblemKind, String) {
    (kind, pointer.to_string())
}

fn message(text: &str) -> String {
    let problems = check_schema(&json(text));
    assert_eq!(problems.len(), 1, "{problems:?}");
    problems.first().unwrap().message().to_string()
}

fn n(spelling: &str) -> Number {
    Number::from_spelling(spelling).unwrap()
}

// --- The specification's examples (2025-11-25 and 2026-07-28) ---

#[test]
fn spec_examples_are_clean() {
    let properties = [
        r#"{"type":"string","title":"Display Name","description":"Description text","minLength":3,"maxLength":50,"format":"email","default":"user@example.com"}"#,
        r#"{"type":"number","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50}"#,
        r#"{"type":"integer","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50}"#,
        r#"{"type":"boolean","title":"Display Name","description":"Description text","default":false}"#,
        r#"{"type":"string","title":"Color Selection","description":"Choose your favorite color","enum":["Red","Green","Blue"],"default":"Red"}"#,
        r##"{"type":"string","title":"Color Selection","description":"Choose your favorite color","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],"default":"#FF0000"}"##,
        r#"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}"#,
        r##"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000","#00FF00"]}"##,
        r#"{"type":"string","title":"Plan","enum":["free","pro"],"enumNames":["Free tier","Pro tier"],"default":"free"}"#,
    ];
    for property in properties {
        assert_eq!(one(property), [], "{property}");
    }
    for schema in [
        r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#,
        r#"{"type":"object","properties":{"name":{"type":"string","title":"GitHub Username","description":"Your GitHub username"}},"required":["name"]}"#,
        r#"{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","format":"email","description":"Your email address"},"age":{"type":"number","minimum":18,"description":"Your age"}},"required":["name","email"]}"#,
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{}}"#,
    ] {
        assert_eq!(check(schema), [], "{schema}");
    }
}

#[test]
fn the_2025_11_25_string_example_has_a_pattern_the_schema_does_not_define() {
    // The prose of 2025-11-25 shows `pattern`; its schema.ts (and 2026-07-28) has none.
    assert_eq!(
        one(
            r#"{"type":"string","minLength":3,"maxLength":50,"pattern":"^[A-Za-z]+$","format":"email","default":"user@example.com"}"#
        ),
        [at(UnsupportedKeyword, "/properties/p/pattern")]
    );
}

// --- The root ---

#[test]
fn a_schema_that_is_not_an_object() {
    for text in ["[]", "\"object\"", "null", "true", "3"] {
        assert_eq!(check(text), [at(WrongType, "")], "{text}");
    }
}

#[test]
fn root_type() {
    assert_eq!(check(r#"{"properties":{}}"#), [at(MissingKeyword, "/type")]);
    assert_eq!(
        check(r#"{"type":null,"properties":{}}"#),
        [at(MissingKeyword, "/type")]
    );
    for ty in [r#""array""#, r#""Object""#, r#""""#, r#"["object"]"#] {
        assert_eq!(
            check(&format!(r#"{{"type":{ty},"properties":{{}}}}"#)),
            [at(InvalidValue, "/type")],
            "{ty}"
        );
    }
    assert_eq!(
        check(r#"{"type":1,"properties":{}}"#),
        [at(WrongType, "/type")]
    );
}

#[test]
fn root_schema_uri_and_properties() {
    assert_eq!(
        check(r#"{"$schema":7,"type":"object","properties":{}}"#),
        [at(WrongType, "/$schema")]
    );
    assert_eq!(
        check(r#"{"type":"object"}"#),
        [at(MissingKeyword, "/properties")]
    );
    assert_eq!(
        check(r#"{"type":"object","properties":[]}"#),
        [at(WrongType, "/properties")]
    );
    assert_eq!(check(r#"{"type":"object","properties":{}}"#), []);
}

#[test]
fn required() {
    assert_eq!(
        check(r#"{"type":"object","properties":{},"required":"a"}"#),
        [at(WrongType, "/required")]
    );
    assert_eq!(
        check(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a",1]}"#),
        [at(WrongType, "/required/1")]
    );
    assert_eq!(
        check(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["b","a","a"]}"#),
        [
            at(UnknownRequired, "/required/0"),
            at(DuplicateValue, "/required/2")
        ]
    );
    // An unknown name listed twice is unknown once, then a duplicate.
    assert_eq!(
        check(r#"{"type":"object","properties":{},"required":["x","x"]}"#),
        [
            at(UnknownRequired, "/required/0"),
            at(DuplicateValue, "/required/1")
        ]
    );
    // Without readable `properties`, names cannot be judged unknown.
    assert_eq!(
        check(r#"{"type":"object","required":["x"]}"#),
        [at(MissingKeyword, "/properties")]
    );
    assert_eq!(
        check(r#"{"type":"object","properties":{},"required":[]}"#),
        []
    );
}

#[test]
fn additional_properties_on_the_root() {
    for flag in ["true", "false"] {
        assert_eq!(
            check(&format!(
                r#"{{"type":"object","properties":{{}},"additionalProperties":{flag}}}"#
            )),
            []
        );
    }
    assert_eq!(
        check(r#"{"type":"object","properties":{},"additionalProperties":{"type":"string"}}"#),
        [at(UnsupportedKeyword, "/additionalProperties")]
    );
}

#[test]
fn root_validation_keywords() {
    assert_eq!(
        check(
            r##"{"type":"object","$ref":"#/$defs/a","properties":{},"allOf":[],"patternProperties":{},"minProperties":1,"dependentRequired":{},"if":{},"then":{},"else":{},"propertyNames":{},"unevaluatedProperties":false,"maxProperties":3,"dependentSchemas":{},"not":{},"enum":[{}],"const":{}}"##
        ),
        [
            at(UnsupportedKeyword, "/$ref"),
            at(UnsupportedKeyword, "/allOf"),
            at(UnsupportedKeyword, "/patternProperties"),
            at(UnsupportedKeyword, "/minProperties"),
            at(UnsupportedKeyword, "/dependentRequired"),
            at(UnsupportedKeyword, "/if"),
            at(UnsupportedKeyword, "/then"),
            at(UnsupportedKeyword, "/else"),
            at(UnsupportedKeyword, "/propertyNames"),
            at(UnsupportedKeyword, "/unevaluatedProperties"),
            at(UnsupportedKeyword, "/maxProperties"),
            at(UnsupportedKeyword, "/dependentSchemas"),
            at(UnsupportedKeyword, "/not"),
            at(UnsupportedKeyword, "/enum"),
            at(UnsupportedKeyword, "/const"),
        ]
    );
}

#[test]
fn keywords_that_change_nothing_are_ignored() {
    assert_eq!(
        check(
            r##"{"$id":"urn:x","$comment":"c","title":5,"description":[],"examples":[{}],"x-ui":{"$ref":"#"},"$defs":{"a":{"type":"object"}},"definitions":{},"type":"object","minLength":3,"items":{},"properties":{"a":{"type":"string","deprecated":true,"readOnly":true,"examples":["x"],"x-order":1,"minimum":3,"minItems":2,"required":true,"additionalProperties":false,"enumNames":["A"]},"b":{"type":"number","format":"email","minLength":1,"pattern":"x"}}}"##
        ),
        []
    );
}

// --- Properties ---

#[test]
fn a_property_that_is_not_an_object() {
    for p in ["\"string\"", "true", "[]", "3", "null"] {
        assert_eq!(one(p), [at(WrongType, "/properties/p")], "{p}");
    }
}

#[test]
fn property_type() {
    assert_eq!(one("{}"), [at(MissingKeyword, "/properties/p/type")]);
    assert_eq!(
        one(r#"{"type":["string","null"]}"#),
        [at(UnsupportedShape, "/properties/p/type")]
    );
    for ty in ["null", "text", "String", "int", ""] {
        assert_eq!(
            one(&format!(r#"{{"type":"{ty}"}}"#)),
            [at(UnsupportedShape, "/properties/p/type")],
            "{ty}"
        );
    }
    assert_eq!(
        one(r#"{"type":{"name":"string"}}"#),
        [at(WrongType, "/properties/p/type")]
    );
}

#[test]
fn nested_objects_say_what_is_allowed() {
    let text = r#"{"type":"object","properties":{"p":{"type":"object","properties":{"street":{"type":"string"}},"required":["street"],"additionalProperties":false}}}"#;
    assert_eq!(check(text), [at(UnsupportedShape, "/properties/p/type")]);
    let m = message(text);
    assert!(m.contains("nested objects are not allowed"), "{m}");
    assert!(
        m.contains("string, number, integer, boolean or an array of enumerated strings"),
        "{m}"
    );
}

#[test]
fn a_property_without_a_shape_still_reports_what_applies_to_any_type() {
    // The usual spelling of an optional field in generated schemas.
    assert_eq!(
        one(r#"{"anyOf":[{"type":"string"},{"type":"null"}],"title":3}"#),
        [
            at(MissingKeyword, "/properties/p/type"),
            at(WrongType, "/properties/p/title"),
            at(UnsupportedKeyword, "/properties/p/anyOf"),
        ]
    );
    assert_eq!(
        one(r##"{"$ref":"#/$defs/Address"}"##),
        [
            at(MissingKeyword, "/properties/p/type"),
            at(UnsupportedKeyword, "/properties/p/$ref"),
        ]
    );
    // `enum` and `oneOf` become a select once `type` is written.
    assert_eq!(
        one(r#"{"enum":["a"],"minLength":1}"#),
        [at(MissingKeyword, "/properties/p/type")]
    );
}

#[test]
fn title_and_description_must_be_strings() {
    assert_eq!(
        one(r#"{"type":"string","title":5,"description":{}}"#),
        [
            at(WrongType, "/properties/p/title"),
            at(WrongType, "/properties/p/description"),
        ]
    );
    assert_eq!(one(r#"{"type":"boolean","title":null}"#), []);
}

#[test]
fn empty_and_escaped_property_names() {
    assert_eq!(
        check(r#"{"type":"object","properties":{"":{"type":"string"}},"required":[""]}"#),
        []
    );
    assert_eq!(
        check(r#"{"type":"object","properties":{"":{"type":"object"}}}"#),
        [at(UnsupportedShape, "/properties//type")]
    );
    assert_eq!(
        check(r#"{"type":"object","properties":{"a/b~c":{"type":"string","format":"phone"}}}"#),
        [at(UnknownFormat, "/properties/a~1b~0c/format")]
    );
}

// --- Free text ---

#[test]
fn lengths() {
    assert_eq!(
        one(r#"{"type":"string","minLength":"3","maxLength":true}"#),
        [
            at(WrongType, "/properties/p/minLength"),
            at(WrongType, "/properties/p/maxLength"),
        ]
    );
    for bad in ["-1", "2.5", "1e-1", "-3.0", "3.0000000000000001", "1e-400"] {
        assert_eq!(
            one(&format!(r#"{{"type":"string","minLength":{bad}}}"#)),
            [at(InvalidValue, "/properties/p/minLength")],
            "{bad}"
        );
    }
    for good in ["0", "3.0", "0.3e1", "-0", "1e400"] {
        assert_eq!(
            one(&format!(r#"{{"type":"string","maxLength":{good}}}"#)),
            [],
            "{good}"
        );
    }
    assert_eq!(
        one(r#"{"type":"string","minLength":5,"maxLength":3}"#),
        [at(ContradictoryBounds, "/properties/p/minLength")]
    );
    assert_eq!(
        one(r#"{"type":"string","minLength":3,"maxLength":3.0}"#),
        []
    );
    assert_eq!(
        one(r#"{"type":"string","minLength":1e20,"maxLength":99999999999999999999}"#),
        [at(ContradictoryBounds, "/properties/p/minLength")]
    );
}

#[test]
fn formats() {
    for format in ["email", "uri", "date", "date-time"] {
        assert_eq!(
            one(&format!(r#"{{"type":"string","format":"{format}"}}"#)),
            []
        );
    }
    for format in ["Email", "phone", "uuid", "datetime", "", "uri-reference"] {
        assert_eq!(
            one(&format!(r#"{{"type":"string","format":"{format}"}}"#)),
            [at(UnknownFormat, "/properties/p/format")],
            "{format}"
        );
    }
    assert_eq!(
        one(r#"{"type":"string","format":["email"]}"#),
        [at(WrongType, "/properties/p/format")]
    );
    let m = message(r#"{"type":"object","properties":{"p":{"type":"string","format":"Email"}}}"#);
    assert!(m.contains("date-time"), "{m}");
}

// --- Numbers ---

#[test]
fn number_bounds() {
    assert_eq!(
        one(r#"{"type":"number","minimum":"0","maximum":[]}"#),
        [
            at(WrongType, "/properties/p/minimum"),
            at(WrongType, "/properties/p/maximum"),
        ]
    );
    assert_eq!(
        one(r#"{"type":"number","minimum":10,"maximum":9.99}"#),
        [at(ContradictoryBounds, "/properties/p/minimum")]
    );
    // Compared exactly, not through f64.
    assert_eq!(
        one(r#"{"type":"number","minimum":9007199254740993,"maximum":9007199254740992}"#),
        [at(ContradictoryBounds, "/properties/p/minimum")]
    );
    assert_eq!(one(r#"{"type":"number","minimum":1.0,"maximum":1}"#), []);
    assert_eq!(one(r#"{"type":"number","minimum":1.2,"maximum":1.8}"#), []);
    assert_eq!(
        one(r#"{"type":"number","minimum":-1e400,"maximum":1e400}"#),
        []
    );
}

#[test]
fn integer_bounds_must_admit_an_integer() {
    for (lo, hi) in [
        ("1.2", "1.8"),
        ("-1.8", "-1.2"),
        ("0.1", "0.9"),
        ("12e-1", "0.18e1"),
    ] {
        assert_eq!(
            one(&format!(
                r#"{{"type":"integer","minimum":{lo},"maximum":{hi}}}"#
            )),
            [at(ContradictoryBounds, "/properties/p/minimum")],
            "{lo}..{hi}"
        );
    }
    for (lo, hi) in [
        ("1.2", "2"),
        ("-0.5", "0.5"),
        ("1", "1"),
        ("1.5", "2.5"),
        ("-1.5", "-0.9"),
        ("1e-400", "1"),
    ] {
        assert_eq!(
            one(&format!(
                r#"{{"type":"integer","minimum":{lo},"maximum":{hi}}}"#
            )),
            [],
            "{lo}..{hi}"
        );
    }
}

// --- Single-selects ---

#[test]
fn enum_lists() {
    assert_eq!(
        one(r#"{"type":"string","enum":[]}"#),
        [at(EmptyEnum, "/properties/p/enum")]
    );
    assert_eq!(
        one(r#"{"type":"string","enum":"a"}"#),
        [at(WrongType, "/properties/p/enum")]
    );
    assert_eq!(
        one(r#"{"type":"string","enum":["a",1,"b","a",null,"b"]}"#),
        [
            at(WrongType, "/properties/p/enum/1"),
            at(DuplicateValue, "/properties/p/enum/3"),
            at(WrongType, "/properties/p/enum/4"),
            at(DuplicateValue, "/properties/p/enum/5"),
        ]
    );
}

#[test]
fn enum_names() {
    assert_eq!(
        one(r#"{"type":"string","enum":["a","b","c"],"enumNames":["A"]}"#),
        [at(EnumNamesLength, "/properties/p/enumNames")]
    );
    assert_eq!(
        one(r#"{"type":"string","enum":["a"],"enumNames":["A","B"]}"#),
        [at(EnumNamesLength, "/properties/p/enumNames")]
    );
    assert_eq!(
        one(r#"{"type":"string","enum":["a","b"],"enumNames":["A",2,3]}"#),
        [
            at(EnumNamesLength, "/properties/p/enumNames"),
            at(WrongType, "/properties/p/enumNames/1"),
            at(WrongType, "/properties/p/enumNames/2"),
        ]
    );
    assert_eq!(
        one(r#"{"type":"string","enum":["a"],"enumNames":"A"}"#),
        [at(WrongType, "/properties/p/enumNames")]
    );
    // Without `enum` the names title nothing and mean nothing.
    assert_eq!(
        one(r#"{"type":"string","oneOf":[{"const":"a","title":"A"}],"enumNames":[1,2]}"#),
        []
    );
}

#[test]
fn titled_options() {
    assert_eq!(
        one(r#"{"type":"string","oneOf":[]}"#),
        [at(EmptyEnum, "/properties/p/oneOf")]
    );
    assert_eq!(
        one(r#"{"type":"string","oneOf":{"const":"a","title":"A"}}"#),
        [at(WrongType, "/properties/p/oneOf")]
    );
    assert_eq!(
        one(
            r#"{"type":"string","oneOf":[{"const":"a","title":"A"},"b",{"title":"C"},{"const":"d"},{"const":1,"title":false},{"const":"a","title":"A again"}]}"#
        ),
        [
            at(WrongType, "/properties/p/oneOf/1"),
            at(MissingKeyword, "/properties/p/oneOf/2/const"),
            at(MissingKeyword, "/properties/p/oneOf/3/title"),
            at(WrongType, "/properties/p/oneOf/4/const"),
            at(WrongType, "/properties/p/oneOf/4/title"),
            at(DuplicateValue, "/properties/p/oneOf/5/const"),
        ]
    );
}

#[test]
fn enum_and_one_of_together_fit_no_shape() {
    assert_eq!(
        one(
            r#"{"type":"string","enum":["a"],"oneOf":[{"const":"a","title":"A"}],"minLength":1,"const":"a"}"#
        ),
        [
            at(UnsupportedShape, "/properties/p"),
            at(UnsupportedKeyword, "/properties/p/const"),
        ]
    );
}

#[test]
fn string_keywords_on_a_select_would_refuse_options() {
    assert_eq!(
        one(r#"{"type":"string","enum":["a","bb"],"minLength":2,"format":"email","pattern":"b"}"#),
        [
            at(UnsupportedKeyword, "/properties/p/minLength"),
            at(UnsupportedKeyword, "/properties/p/format"),
            at(UnsupportedKeyword, "/properties/p/pattern"),
        ]
    );
}

// --- Multi-selects ---

#[test]
fn multi_select_items() {
    assert_eq!(
        one(r#"{"type":"array"}"#),
        [at(MissingKeyword, "/properties/p/items")]
    );
    assert_eq!(
        one(r#"{"type":"array","items":[{"type":"string"}]}"#),
        [at(WrongType, "/properties/p/items")]
    );
    for items in [
        r#"{"type":"object","properties":{}}"#,
        r#"{"type":"number","enum":[1,2]}"#,
        r#"{"type":["string","null"],"enum":["a"]}"#,
    ] {
        assert_eq!(
            one(&format!(r#"{{"type":"array","items":{items}}}"#)),
            [at(UnsupportedShape, "/properties/p/items/type")],
            "{items}"
        );
    }
    for items in [
        r#"{"type":"string"}"#,
        "{}",
        r#"{"enum":["a"],"anyOf":[{"const":"a","title":"A"}]}"#,
        r#"{"oneOf":[{"const":"a","title":"A"}]}"#,
    ] {
        assert_eq!(
            one(&format!(r#"{{"type":"array","items":{items}}}"#)),
            [at(UnsupportedShape, "/properties/p/items")],
            "{items}"
        );
    }
    assert_eq!(
        one(
            r#"{"type":"array","items":{"type":7,"enum":["a","a"],"pattern":"x","const":"a","title":1}}"#
        ),
        [
            at(WrongType, "/properties/p/items/type"),
            at(DuplicateValue, "/properties/p/items/enum/1"),
            at(UnsupportedKeyword, "/properties/p/items/pattern"),
            at(UnsupportedKeyword, "/properties/p/items/const"),
        ]
    );
    assert_eq!(
        one(r#"{"type":"array","items":{"anyOf":[{"const":"a"},{"const":"a","title":"A"}]}}"#),
        [
            at(MissingKeyword, "/properties/p/items/anyOf/0/title"),
            at(DuplicateValue, "/properties/p/items/anyOf/1/const"),
        ]
    );
    assert_eq!(
        one(r#"{"type":"array","items":{"anyOf":[]}}"#),
        [at(EmptyEnum, "/properties/p/items/anyOf")]
    );
}

#[test]
fn multi_select_counts() {
    let items = r#""items":{"enum":["a","b","c"]}"#;
    assert_eq!(
        one(&format!(
            r#"{{"type":"array","minItems":-1,"maxItems":"2",{items}}}"#
        )),
        [
            at(InvalidValue, "/properties/p/minItems"),
            at(WrongType, "/properties/p/maxItems"),
        ]
    );
    assert_eq!(
        one(&format!(
            r#"{{"type":"array","minItems":3,"maxItems":2,{items}}}"#
        )),
        [at(ContradictoryBounds, "/properties/p/minItems")]
    );
    assert_eq!(
        one(&format!(r#"{{"type":"array","minItems":4,{items}}}"#)),
        [at(ContradictoryBounds, "/properties/p/minItems")]
    );
    assert_eq!(
        one(&format!(r#"{{"type":"array","minItems":3,{items}}}"#)),
        []
    );
    // Repeated options are one option: two distinct ones cannot make three choices.
    assert_eq!(
        one(r#"{"type":"array","minItems":3,"items":{"enum":["a","b","a"]}}"#),
        [
            at(ContradictoryBounds, "/properties/p/minItems"),
            at(DuplicateValue, "/properties/p/items/enum/2"),
        ]
    );
    // No options is reported once, as such.
    assert_eq!(
        one(r#"{"type":"array","minItems":1,"items":{"enum":[]}}"#),
        [at(EmptyEnum, "/properties/p/items/enum")]
    );
}

#[test]
fn unique_items() {
    for unique in ["true", "false"] {
        assert_eq!(
            one(&format!(
                r#"{{"type":"array","uniqueItems":{unique},"items":{{"enum":["a"]}}}}"#
            )),
            []
        );
    }
    assert_eq!(
        one(r#"{"type":"array","uniqueItems":"yes","items":{"enum":["a"]}}"#),
        [at(WrongType, "/properties/p/uniqueItems")]
    );
    assert_eq!(one(r#"{"type":"string","uniqueItems":true}"#), []);
}

#[test]
fn array_keywords_the_multi_select_lacks() {
    assert_eq!(
        one(
            r#"{"type":"array","items":{"enum":["a"]},"contains":{"const":"a"},"minContains":1,"prefixItems":[],"enum":[["a"]]}"#
        ),
        [
            at(UnsupportedKeyword, "/properties/p/contains"),
            at(UnsupportedKeyword, "/properties/p/minContains"),
            at(UnsupportedKeyword, "/properties/p/prefixItems"),
            at(UnsupportedKeyword, "/properties/p/enum"),
        ]
    );
}

// --- Validation keywords on properties ---

#[test]
fn number_keywords_the_shape_lacks() {
    assert_eq!(
        one(
            r#"{"type":"number","exclusiveMinimum":0,"multipleOf":0.5,"const":1,"enum":[1,2],"oneOf":[{"const":1,"title":"One"}]}"#
        ),
        [
            at(UnsupportedKeyword, "/properties/p/exclusiveMinimum"),
            at(UnsupportedKeyword, "/properties/p/multipleOf"),
            at(UnsupportedKeyword, "/properties/p/const"),
            at(UnsupportedKeyword, "/properties/p/enum"),
            at(UnsupportedKeyword, "/properties/p/oneOf"),
        ]
    );
}

#[test]
fn unsupported_keyword_messages_say_what_to_do() {
    let m = message(r#"{"type":"object","properties":{"p":{"type":"string","pattern":"^a"}}}"#);
    assert!(m.contains("`pattern`") && m.contains("format"), "{m}");
    let m = message(r#"{"type":"object","properties":{"p":{"type":"boolean","allOf":[]}}}"#);
    assert!(m.contains("a boolean property"), "{m}");
}

#[test]
fn the_keyword_table_has_each_keyword_once() {
    let names: BTreeSet<&str> = VALIDATION_KEYWORDS.iter().map(|k| k.name).collect();
    assert_eq!(names.len(), VALIDATION_KEYWORDS.len());
    for context in [ROOT, ITEMS].into_iter().chain(
        [
            Shape::Text,
            Shape::Number,
            Shape::Integer,
            Shape::Boolean,
            Shape::SingleSelect,
            Shape::MultiSelect,
            Shape::Unknown,
        ]
        .map(Shape::context),
    ) {
        // `type` is checked on its own everywhere.
        for own in context.own.iter().filter(|k| **k != "type") {
            assert!(names.contains(own), "{own} is not in the table");
        }
    }
}

// --- Defaults ---

#[test]
fn defaults_of_the_wrong_type() {
    for property in [
        r#"{"type":"string","default":5}"#,
        r#"{"type":"string","enum":["a"],"default":["a"]}"#,
        r#"{"type":"number","default":"50"}"#,
        r#"{"type":"integer","default":true}"#,
        r#"{"type":"boolean","default":"false"}"#,
        r#"{"type":"array","items":{"enum":["a"]},"default":"a"}"#,
    ] {
        assert_eq!(
            one(property),
            [at(InvalidDefault, "/properties/p/default")],
            "{property}"
        );
    }
    // A default of a property without a shape is not judged.
    assert_eq!(
        one(r#"{"type":"object","default":5}"#),
        [at(UnsupportedShape, "/properties/p/type")]
    );
    assert_eq!(one(r#"{"type":"string","default":null}"#), []);
    // A list holding something else is reported at the item.
    assert_eq!(
        one(r#"{"type":"array","items":{"enum":["a"]},"default":["a",1]}"#),
        [at(InvalidDefault, "/properties/p/default/1")]
    );
}

#[test]
fn defaults_that_break_their_own_property() {
    let cases: [(&str, usize); 14] = [
        (r#"{"type":"string","minLength":3,"default":"ab"}"#, 1),
        (r#"{"type":"string","maxLength":1,"default":"ab"}"#, 1),
        (
            r#"{"type":"string","format":"date","default":"2024-13-01"}"#,
            1,
        ),
        (
            r#"{"type":"string","format":"email","default":"not an address"}"#,
            1,
        ),
        (
            r#"{"type":"number","minimum":0,"maximum":100,"default":101}"#,
            1,
        ),
        (r#"{"type":"integer","default":2.5}"#, 1),
        (r#"{"type":"integer","minimum":3,"default":2.5}"#, 2),
        (r#"{"type":"string","enum":["a","b"],"default":"c"}"#, 1),
        (
            r#"{"type":"string","oneOf":[{"const":"a","title":"A"}],"default":"A"}"#,
            1,
        ),
        (
            r#"{"type":"array","items":{"enum":["a","b"]},"default":["a","c"]}"#,
            1,
        ),
        (
            r#"{"type":"array","items":{"enum":["a","b"]},"default":["a","a"]}"#,
            1,
        ),
        (
            r#"{"type":"array","minItems":2,"items":{"enum":["a","b"]},"default":["a"]}"#,
            1,
        ),
        (
            r#"{"type":"array","maxItems":1,"items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]},"default":["a","b"]}"#,
            1,
        ),
        // Judged against the well-formed keywords even when others are broken.
        (
            r#"{"type":"string","minLength":3,"format":"phone","default":"ab"}"#,
            1,
        ),
    ];
    for (property, violations) in cases {
        let found = one(property);
        let defaults = found
            .iter()
            .filter(|p| **p == at(InvalidDefault, "/properties/p/default"))
            .count();
        assert_eq!(defaults, violations, "{property}: {found:?}");
    }
    let m = message(
        r#"{"type":"object","properties":{"p":{"type":"string","minLength":3,"default":"ab"}}}"#,
    );
    assert!(m.starts_with("the `default` must be at least 3"), "{m}");
    // Bounds that contradict each other, or no options, leave the default unjudged.
    assert_eq!(
        one(r#"{"type":"string","minLength":5,"maxLength":2,"default":"abc"}"#),
        [at(ContradictoryBounds, "/properties/p/minLength")]
    );
    assert_eq!(
        one(r#"{"type":"string","enum":[],"default":"a"}"#),
        [at(EmptyEnum, "/properties/p/enum")]
    );
    for property in [
        r#"{"type":"string","minLength":2,"maxLength":2,"format":"date","default":"ab"}"#,
        r#"{"type":"integer","minimum":1.5,"maximum":2.5,"default":2}"#,
        r#"{"type":"number","minimum":-1e400,"default":-0.0}"#,
        r#"{"type":"array","minItems":0,"maxItems":0,"items":{"enum":["a"]},"default":[]}"#,
    ] {
        let found = one(property);
        let expected: &[(SchemaProblemKind, String)] = if property.contains("date") {
            &[(InvalidDefault, String::from("/properties/p/default"))]
        } else {
            &[]
        };
        assert_eq!(found, expected, "{property}");
    }
}

/// The well-formed copy a default is judged against, for the property written `text`, written
/// as the JSON schema of a property (options as `enum`).
fn reference(text: &str) -> Option<Value> {
    let Value::Object(map) = json(text) else {
        panic!("not an object: {text}");
    };
    let mut out = Problems::default();
    let shape = read_shape(&map, "", &mut out);
    check_shape(shape, &map, "", &mut out)
        .and_then(|shaped| shaped.judge)
        .map(|kind| judge_value(&kind))
}

fn judge_value(kind: &PropertyKind) -> Value {
    let mut map = Map::new();
    map.insert("type", Value::from(kind.json_type()));
    let count = |n: u64| Value::Number(Number::from(n));
    let values = |options: &[crate::schema::EnumOption]| {
        Value::Array(options.iter().map(|o| Value::from(o.value())).collect())
    };
    match kind {
        PropertyKind::String(s) => {
            if let Some(n) = s.min_length() {
                map.insert("minLength", count(n));
            }
            if let Some(n) = s.max_length() {
                map.insert("maxLength", count(n));
            }
            if let Some(f) = s.format() {
                map.insert("format", Value::from(f.as_str()));
            }
        }
        PropertyKind::Number(n) => {
            if let Some(min) = n.minimum() {
                map.insert("minimum", Value::Number(min.clone()));
            }
            if let Some(max) = n.maximum() {
                map.insert("maximum", Value::Number(max.clone()));
            }
        }
        PropertyKind::Boolean(_) => {}
        PropertyKind::SingleSelect(s) => {
            map.insert("enum", values(s.options()));
        }
        PropertyKind::MultiSelect(m) => {
            if let Some(n) = m.min_items() {
                map.insert("minItems", count(n));
            }
            if let Some(n) = m.max_items() {
                map.insert("maxItems", count(n));
            }
            let items: Map = [
                ("type", Value::from("string")),
                ("enum", values(m.options())),
            ]
            .into_iter()
            .collect();
            map.insert("items", Value::Object(items));
        }
    }
    Value::Object(map)
}

#[test]
fn defaults_are_judged_against_the_well_formed_keywords() {
    let cases = [
        (
            r#"{"type":"string","title":1,"minLength":2,"maxLength":-1,"format":"Email","default":"x"}"#,
            Some(r#"{"type":"string","minLength":2}"#),
        ),
        (
            r#"{"type":"string","minLength":5,"maxLength":2,"format":"date"}"#,
            Some(r#"{"type":"string","format":"date"}"#),
        ),
        (
            r#"{"type":"integer","minimum":1.2,"maximum":1.8}"#,
            Some(r#"{"type":"integer"}"#),
        ),
        (
            r#"{"type":"number","minimum":"1","maximum":1.8}"#,
            Some(r#"{"type":"number","maximum":1.8}"#),
        ),
        (
            r##"{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b"},{"title":"C"},{"const":"a","title":"A"}]}"##,
            Some(r#"{"type":"string","enum":["a","b"]}"#),
        ),
        (
            r#"{"type":"string","enum":["a",1,"a"],"enumNames":[]}"#,
            Some(r#"{"type":"string","enum":["a"]}"#),
        ),
        (r#"{"type":"string","enum":[]}"#, None),
        (r#"{"type":"string","enum":[1]}"#, None),
        (
            r#"{"type":"array","minItems":1,"maxItems":2,"items":{"type":7,"anyOf":[{"const":"x","title":"X"}]}}"#,
            Some(
                r#"{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["x"]}}"#,
            ),
        ),
        (
            r#"{"type":"array","minItems":2,"items":{"enum":["x"]}}"#,
            Some(r#"{"type":"array","items":{"type":"string","enum":["x"]}}"#),
        ),
        (
            r#"{"type":"array","minItems":2,"items":{"type":"number"}}"#,
            None,
        ),
        (
            r#"{"type":"boolean","default":3}"#,
            Some(r#"{"type":"boolean"}"#),
        ),
        (r#"{"type":"object"}"#, None),
    ];
    for (property, expected) in cases {
        assert_eq!(reference(property), expected.map(json), "{property}");
    }
}

// --- Order, output and robustness ---

#[test]
fn problems_come_in_a_fixed_order() {
    let text = r#"{
        "$schema": 1,
        "type": "array",
        "properties": {
            "b": {"type": "string", "pattern": "x", "minLength": 2.5, "title": 1, "default": 3},
            "a": {"title": "A"}
        },
        "required": ["c", "b", "b"],
        "allOf": [],
        "additionalProperties": {}
    }"#;
    assert_eq!(
        check(text),
        [
            at(WrongType, "/$schema"),
            at(InvalidValue, "/type"),
            at(UnknownRequired, "/required/0"),
            at(DuplicateValue, "/required/2"),
            at(UnsupportedKeyword, "/additionalProperties"),
            at(UnsupportedKeyword, "/allOf"),
            at(WrongType, "/properties/b/title"),
            at(InvalidValue, "/properties/b/minLength"),
            at(InvalidDefault, "/properties/b/default"),
            at(UnsupportedKeyword, "/properties/b/pattern"),
            at(MissingKeyword, "/properties/a/type"),
        ]
    );
    let value = json(text);
    assert_eq!(check_schema(&value), check_schema(&value));
}

#[test]
fn problem_as_json_and_text() {
    let problems = check_schema(&json(
        r#"{"type":"object","properties":{},"required":["x"]}"#,
    ));
    let p = problems.first().unwrap();
    let value = p.to_value();
    let keys: Vec<&str> = value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["kind", "pointer", "message"]);
    assert_eq!(value.get("kind"), Some(&Value::from("unknown_required")));
    assert_eq!(value.get("pointer"), Some(&Value::from("/required/0")));
    assert_eq!(
        p.to_string(),
        format!("unknown_required at /required/0: {}", p.message())
    );
    assert!(p.message().contains("\"x\""), "{}", p.message());
    let root = check_schema(&Value::Null);
    assert!(
        root.first()
            .unwrap()
            .to_string()
            .starts_with("wrong_type: ")
    );
}

#[test]
fn kind_names() {
    let names: BTreeSet<&str> = SchemaProblemKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(names.len(), SchemaProblemKind::ALL.len());
    for kind in SchemaProblemKind::ALL {
        assert_eq!(SchemaProblemKind::from_name(kind.as_str()), Some(kind));
        assert_eq!(kind.to_string(), kind.as_str());
    }
    assert_eq!(SchemaProblemKind::from_name("WrongType"), None);
}

#[test]
fn long_values_are_cut_short_in_messages() {
    let long = "x".repeat(10_000);
    let m = message(&format!(
        r#"{{"type":"object","properties":{{"p":{{"type":"string","format":"{long}"}}}}}}"#
    ));
    assert!(m.len() < 400, "{m}");
    assert!(m.contains('…'));
    assert_eq!(quote("é".repeat(61).as_str()).chars().count(), 63);
}

#[test]
fn many_options_and_names_stay_fast() {
    let options: Vec<String> = (0..10_000).map(|i| format!("\"o{}\"", i % 5000)).collect();
    let text = format!(
        r#"{{"type":"object","properties":{{"p":{{"type":"string","enum":[{}]}}}},"required":[{}]}}"#,
        options.join(","),
        options.join(",")
    );
    let problems = check(&text);
    // Each list repeats 5000 values, and the 5000 required names are unknown.
    assert_eq!(problems.len(), 15_000);
}

/// The value at `pointer` in `value` (RFC 6901).
fn resolve<'a>(value: &'a Value, pointer: &str) -> Option<&'a Value> {
    if pointer.is_empty() {
        return Some(value);
    }
    let mut current = value;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        current = match current {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// The pointer of the value that holds the one at `pointer`.
fn parent(pointer: &str) -> &str {
    pointer.rsplit_once('/').map_or("", |(p, _)| p)
}

const KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "title",
    "description",
    "default",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "const",
    "items",
    "minLength",
    "maxLength",
    "format",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "uniqueItems",
    "$ref",
    "additionalProperties",
    "pattern",
    "$schema",
    "p",
    "q",
    "a/b~",
];
const WORDS: &[&str] = &[
    "object",
    "string",
    "number",
    "integer",
    "boolean",
    "array",
    "null",
    "email",
    "uri",
    "date",
    "date-time",
    "Email",
    "a",
    "b",
    "p",
    "q",
    "",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "2.5",
    "3.0",
    "1e400",
    "-0",
    "1e-400",
    "0.3e1",
    "1.2",
    "1.8",
    "100",
    "18446744073709551616",
];

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        prop::sample::select(NUMBERS).prop_map(|s| Value::Number(n(s))),
        prop::sample::select(WORDS).prop_map(Value::from),
        ".{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..8)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Schema-like values: a root with the right `type` and arbitrary properties.
fn arb_schema() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec((prop::sample::select(KEYS), arb_value()), 0..5),
        prop::option::of(arb_value()),
    )
        .prop_map(|(properties, required)| {
            let mut root = Map::new();
            root.insert("type", Value::from("object"));
            root.insert(
                "properties",
                Value::Object(properties.into_iter().collect()),
            );
            if let Some(required) = required {
                root.insert("required", required);
            }
            Value::Object(root)
        })
}

fn pointers_resolve(value: &Value) {
    for problem in check_schema(value) {
        let pointer = problem.pointer();
        if problem.kind() == MissingKeyword {
            let holder = resolve(value, parent(pointer));
            assert!(holder.is_some_and(Value::is_object), "{problem} in {value}");
            assert!(
                resolve(value, pointer).is_none_or(Value::is_null),
                "{problem} in {value}"
            );
        } else {
            assert!(resolve(value, pointer).is_some(), "{problem} in {value}");
        }
    }
}

proptest! {
    #[test]
    fn any_value_is_checked_without_panic(value in arb_value()) {
        pointers_resolve(&value);
    }

    #[test]
    fn schema_like_values_point_at_what_is_wrong(value in arb_schema()) {
        pointers_resolve(&value);
    }

    #[test]
    fn a_clean_schema_reads(value in arb_schema()) {
        if check_schema(&value).is_empty() {
            let read = crate::schema::RequestedSchema::from_value(&value);
            prop_assert!(read.is_ok(), "{value}: {read:?}");
        }
    }
}

#[test]
fn deep_values_inside_a_schema_are_not_walked() {
    // Cloning or dropping such a value recurses, so it is built twice and taken apart
    // without recursion.
    let deep = || {
        let mut deep = Value::from("x");
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        deep
    };
    let mut property = Map::new();
    property.insert("type", Value::from("string"));
    property.insert("examples", deep());
    property.insert("allOf", deep());
    let mut properties = Map::new();
    properties.insert("p", Value::Object(property));
    let mut root = Map::new();
    root.insert("type", Value::from("object"));
    root.insert("properties", Value::Object(properties));
    let root = Value::Object(root);
    let problems = check_schema(&root);
    assert_eq!(
        problems
            .iter()
            .map(|p| (p.kind(), p.pointer()))
            .collect::<Vec<_>>(),
        [(UnsupportedKeyword, "/properties/p/allOf")]
    );
    dismantle(root);
}

/// Drops `value` one container at a time, however deep it is.
fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(mut map) => {
                let keys: Vec<String> = map.keys().map(String::from).collect();
                stack.extend(keys.iter().filter_map(|k| map.remove(k)));
            }
            _ => {}
        }
    }
}
