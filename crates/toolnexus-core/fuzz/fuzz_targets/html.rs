//! The web form: a `Form` from a generated or arbitrary schema written as HTML with any message
//! and options, then posts of any names and values (pairs, or a raw urlencoded body) read back
//! and re-rendered; and the URL consent of any text. Never a panic; the HTML holds only the
//! fragment's own elements and attributes (so no server text became markup, a script, a style
//! or an event handler); accepted content validates; the same input writes the same bytes.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use toolnexus_core::html::{
    FormData, HtmlOptions, Submission, consent_html, form_html, read_consent_post, read_form_post,
};
use toolnexus_core::json::{Limits, parse};
use toolnexus_core::{ErrorKind, Form, Value};
use toolnexus_core_fuzz::{GenText, limits, schema_bytes, take_bytes};

const ELEMENTS: &[&str] = &[
    "form", "input", "p", "bdi", "div", "label", "span", "fieldset", "legend", "select", "option",
    "button", "ul", "li", "a", "dl", "dt", "dd", "br",
];
const ATTRIBUTES: &[&str] = &[
    "class",
    "method",
    "accept-charset",
    "action",
    "type",
    "name",
    "value",
    "id",
    "for",
    "dir",
    "aria-hidden",
    "aria-describedby",
    "aria-invalid",
    "role",
    "tabindex",
    "href",
    "target",
    "rel",
    "step",
    "min",
    "max",
    "minlength",
    "maxlength",
    "required",
    "checked",
    "selected",
    "autocomplete",
    "formnovalidate",
];

/// Panics unless every tag of `html` is one of the fragment's elements with only its
/// attributes, each value quoted, and every link an http(s) one.
fn only_the_fragment_s_markup(html: &str) {
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let rest_of_tag = rest.strip_prefix('/').unwrap_or(rest);
        let name_len = rest_of_tag
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest_of_tag.len());
        let name = &rest_of_tag[..name_len];
        assert!(ELEMENTS.contains(&name), "element <{name}> in {html}");
        let mut tag = &rest_of_tag[name_len..];
        loop {
            tag = tag.trim_start_matches(' ');
            if let Some(after) = tag.strip_prefix('>') {
                rest = after;
                break;
            }
            let len = tag
                .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
                .unwrap_or(tag.len());
            let attribute = &tag[..len];
            assert!(
                ATTRIBUTES.contains(&attribute),
                "attribute {attribute:?} of <{name}> in {html}"
            );
            tag = &tag[len..];
            if let Some(quoted) = tag.strip_prefix("=\"") {
                let end = quoted.find('"').expect("a quoted value ends");
                let value = &quoted[..end];
                assert!(!value.contains('<'), "< in an attribute in {html}");
                if attribute == "href" {
                    let lower = value.to_ascii_lowercase();
                    assert!(
                        lower.starts_with("https:")
                            || lower.starts_with("http:")
                            || value.starts_with('#'),
                        "a link to {value} in {html}"
                    );
                }
                tag = &quoted[end + 1..];
            }
        }
    }
}

#[derive(Debug, Arbitrary)]
enum Name {
    Field(u8),
    Action,
    Request,
    Hidden,
    Other(GenText),
}

#[derive(Debug, Arbitrary)]
enum PostValue {
    Index(u8),
    Button(u8),
    Text(GenText),
}

fn options(u: &mut Unstructured<'_>) -> HtmlOptions {
    let mut options = HtmlOptions::new();
    if let Ok(Some(asker)) = Option::<GenText>::arbitrary(u) {
        options = options.with_asker(asker.0);
    }
    if bool::arbitrary(u).unwrap_or(false) {
        options = options.with_class_prefix("x_").expect("a well-formed prefix");
    }
    if let Ok(Some(offset)) = Option::<GenText>::arbitrary(u) {
        options = options.clone().with_utc_offset(&offset.0).unwrap_or(options);
    }
    if let Ok(value) = GenText::arbitrary(u) {
        options = options
            .with_hidden("csrf", &value.0)
            .expect("a name of the host's own");
    }
    if let Ok(Some(action)) = Option::<GenText>::arbitrary(u) {
        options = options.with_action(action.0);
    }
    options
        .with_apply_defaults(bool::arbitrary(u).unwrap_or(false))
        .with_content_options(
            toolnexus_core::ContentOptions::STRICT
                .allow_unknown(bool::arbitrary(u).unwrap_or(false)),
        )
}

fn post(u: &mut Unstructured<'_>) -> Option<FormData> {
    if bool::arbitrary(u).ok()? {
        return FormData::from_urlencoded(take_bytes(u), &limits(u8::arbitrary(u).ok()?)).ok();
    }
    let pairs: Vec<(Name, PostValue)> = Arbitrary::arbitrary(u).ok()?;
    let pairs = pairs.into_iter().take(24).map(|(name, value)| {
        let name = match name {
            Name::Field(i) => format!("tn-{}", i % 12),
            Name::Action => String::from("tn-action"),
            Name::Request => String::from("tn-request"),
            Name::Hidden => String::from("csrf"),
            Name::Other(t) => t.0,
        };
        let value = match value {
            PostValue::Index(i) => (i % 9).to_string(),
            PostValue::Button(b) => String::from(["accept", "decline", "cancel", "Accept"][usize::from(b % 4)]),
            PostValue::Text(t) => t.0,
        };
        (name, value)
    });
    FormData::from_pairs(pairs, &Limits::DEFAULT).ok()
}

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    if u8::arbitrary(&mut u).unwrap_or(0) % 5 == 0 {
        // A URL consent of any text.
        let url = GenText::arbitrary(&mut u).map(|t| t.0).unwrap_or_default();
        let options = options(&mut u);
        let html = consent_html(&url, "Sign in", &options, None);
        only_the_fragment_s_markup(&html);
        assert_eq!(html, consent_html(&url, "Sign in", &options, None));
        if let Some(post) = post(&mut u) {
            match read_consent_post(&url, &post, &options) {
                Ok(Submission::Accept(content)) => assert!(content.is_empty()),
                Ok(_) => {}
                Err(e) => only_the_fragment_s_markup(&consent_html(&url, "", &options, Some(&e))),
            }
        }
        return;
    }
    let Some(bytes) = schema_bytes(&mut u, false) else {
        return;
    };
    let Ok(schema) = parse(&bytes, &Limits::DEFAULT) else {
        return;
    };
    let Ok(form) = Form::new(&schema) else { return };
    let message = GenText::arbitrary(&mut u).map(|t| t.0).unwrap_or_default();
    let options = options(&mut u);
    let html = form_html(&form, &message, &options, None, None);
    only_the_fragment_s_markup(&html);
    assert_eq!(html, form_html(&form, &message, &options, None, None));
    let Some(post) = post(&mut u) else { return };
    match read_form_post(&form, &post, &options) {
        Ok(Submission::Accept(content)) => {
            let found = form.validate(&Value::Object(content), options.content_options());
            assert!(found.is_empty(), "accepted content breaks the form: {found:?}");
        }
        Ok(Submission::Decline | Submission::Cancel) => {}
        Err(error) => {
            if error.kind() == ErrorKind::InvalidContent {
                assert!(!error.violations().is_empty());
            }
            let again = form_html(&form, &message, &options, Some(&post), Some(&error));
            only_the_fragment_s_markup(&again);
        }
    }
});
