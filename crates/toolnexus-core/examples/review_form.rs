//! Walks a host through untrusted elicitation input: checks a server's form, shows it as a
//! form model, reads what a person typed, validates the content, and reviews a URL-mode link.
//!
//! Run with `cargo run -p toolnexus-core --features std --example review_form`.

use toolnexus_core::content::{ContentOptions, prepare_content, validate_content};
use toolnexus_core::form::secrets::reject_secrets;
use toolnexus_core::form::{form_fields, parse_field_input};
use toolnexus_core::schema::RequestedSchema;
use toolnexus_core::schema::check_schema;
use toolnexus_core::{Error, Limits, Map, Value, json, review_url};

/// The contact form of the MCP specification's examples, with a default and a select added.
const FORM: &str = r#"{"type":"object","properties":{
  "name":{"type":"string","description":"Your full name","minLength":2},
  "email":{"type":"string","format":"email","description":"Your email address"},
  "age":{"type":"integer","minimum":18,"description":"Your age"},
  "plan":{"type":"string","title":"Plan","oneOf":[{"const":"free","title":"Free"},{"const":"pro","title":"Pro"}],"default":"free"}
},"required":["name","email","plan"]}"#;

/// What a person typed into each field.
const TYPED: [(&str, &str); 4] = [
    ("name", "Ada Lovelace"),
    ("email", " ada@example.org "),
    ("age", "36"),
    ("plan", ""),
];

/// A form no client should show: nested objects, a bad reference and a password.
const BAD_FORM: &str = r#"{"type":"object","properties":{
  "address":{"type":"object","properties":{"city":{"type":"string"}}},
  "password":{"type":"string","minLength":8,"maxLength":4},
  "role":{"type":"string","enum":[]}
},"required":["name"]}"#;

/// Links a server might ask a person to open.
const LINKS: [&str; 4] = [
    "https://github.com/login/oauth/authorize?client_id=abc",
    "https://bank.example@evil.example/login",
    "http://pаypal.com/",
    "javascript:alert(1)",
];

fn main() -> Result<(), Error> {
    let limits = Limits::DEFAULT;

    println!("== a well-formed form");
    let raw = json::parse_str(FORM, &limits)?;
    println!("check_schema: {} problems", check_schema(&raw).len());
    let schema = RequestedSchema::from_value(&raw)?;
    reject_secrets(&schema)?;
    let fields = form_fields(&schema);
    let mut content = Map::new();
    for field in &fields {
        println!("field {}", field.to_value().to_json());
        let typed = TYPED
            .iter()
            .find(|(name, _)| *name == field.name())
            .map_or("", |(_, text)| *text);
        match parse_field_input(field, typed)? {
            Some(value) => {
                println!("  typed {typed:?} -> {}", value.to_json());
                content.insert(field.name(), value);
            }
            None => println!("  typed {typed:?} -> left out"),
        }
    }
    let content = Value::Object(content);
    match prepare_content(&schema, &content, &ContentOptions::STRICT) {
        Ok(ready) => println!("content to send: {}", Value::Object(ready).to_json()),
        Err(violations) => println!("{} violations", violations.len()),
    }

    println!("\n== content that breaks it");
    let bad = json::parse_str(
        r#"{"name":"A","email":"ada at example","age":17.5,"extra":true}"#,
        &limits,
    )?;
    for v in validate_content(&schema, &bad, &ContentOptions::STRICT) {
        println!("{} {}: {}", v.pointer(), v.keyword(), v.message());
    }

    println!("\n== a form no client should show");
    let bad_form = json::parse_str(BAD_FORM, &limits)?;
    for p in check_schema(&bad_form) {
        println!("{} {}: {}", p.pointer(), p.kind().as_str(), p.message());
    }

    println!("\n== links to review before consent");
    for link in LINKS {
        println!("{}", review_url(link).to_value().to_json());
    }
    Ok(())
}
