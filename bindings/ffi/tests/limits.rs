//! The limits hold for records and typed entries as they do for JSON text: the same error
//! kind and pointer for a 50 MB string, too many entries or too long a list.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use toolnexus_ffi::*;

fn kind_and_pointer(error: ToolnexusError) -> (ErrorKind, String) {
    match error {
        ToolnexusError::Failed { kind, pointer, .. } => (kind, pointer),
    }
}

const SCHEMA: &str = r#"{"type":"object","properties":{"t":{"type":"array","items":{"type":"string","enum":["a"]}}}}"#;

#[test]
fn a_record_string_over_the_size_limit_is_too_large_as_in_text() {
    let big = "a".repeat(50 * 1024 * 1024);
    let answer = Answer {
        id: big.clone(),
        ok: false,
        data: None,
        reason: Some(Reason::Declined),
    };
    let text = format!(r#"{{"id":"{big}","ok":false,"reason":"declined"}}"#);
    let from_text = kind_and_pointer(answer_from_json(text, None).unwrap_err());
    let from_record = kind_and_pointer(answer_to_elicit_result(&answer).unwrap_err());
    assert_eq!(from_record, (ErrorKind::TooLarge, String::new()));
    assert_eq!(from_record, from_text);

    let request = Request {
        id: String::from("r"),
        kind: String::from("input"),
        prompt: big,
        url: None,
        data: None,
        expires_at: None,
    };
    let (kind, pointer) = kind_and_pointer(request_to_json(&request).unwrap_err());
    assert_eq!((kind, pointer.as_str()), (ErrorKind::TooLarge, ""));
}

#[test]
fn too_many_entries_or_list_items_are_refused_as_in_text() {
    let entries: Vec<ContentEntry> = (0..1001)
        .map(|n| ContentEntry {
            name: format!("p{n}"),
            value: ContentValue::Boolean { value: true },
        })
        .collect();
    let (kind, pointer) = kind_and_pointer(
        validate_content_entries(SCHEMA.into(), entries, false, None).unwrap_err(),
    );
    assert_eq!((kind, pointer.as_str()), (ErrorKind::TooManyMembers, ""));

    let list = vec![ContentEntry {
        name: String::from("t"),
        value: ContentValue::TextList {
            values: vec![String::from("a"); 10_001],
        },
    }];
    let (kind, pointer) =
        kind_and_pointer(validate_content_entries(SCHEMA.into(), list, false, None).unwrap_err());
    assert_eq!((kind, pointer.as_str()), (ErrorKind::TooManyItems, "/t"));
    let text = format!(r#"{{"t":[{}]}}"#, vec![r#""a""#; 10_001].join(","));
    let (kind, pointer) =
        kind_and_pointer(validate_content(SCHEMA.into(), text, false, None).unwrap_err());
    assert_eq!((kind, pointer.as_str()), (ErrorKind::TooManyItems, "/t"));
}
