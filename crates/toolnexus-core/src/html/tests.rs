//! Tests of the web form: each decision of the module's documentation, held to.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::*;
use crate::contract::Request;
use crate::error::{ErrorKind, Keyword};
use crate::form::Form;
use crate::json::{self, Limits};

fn request(schema: &str) -> Request {
    let text = alloc::format!(
        r#"{{"id":"r1","kind":"input","prompt":"Please","data":{{"schema":{schema}}}}}"#
    );
    Request::from_json(text.as_bytes(), &Limits::DEFAULT).expect("a request")
}

fn form(schema: &str) -> Form {
    Form::new(&json::parse_str(schema, &Limits::DEFAULT).expect("JSON")).expect("a form")
}

fn body(text: &str) -> FormData {
    FormData::from_urlencoded(text.as_bytes(), &Limits::DEFAULT).expect("a post")
}

fn answer(schema: &str, post: &str, options: &HtmlOptions) -> Result<String, Error> {
    answer_from_post(&request(schema), &body(post), options).map(|a| a.to_json())
}

const EVERY_KIND: &str = r#"{"type":"object","properties":{
    "name":{"type":"string","minLength":2},
    "email":{"type":"string","format":"email"},
    "site":{"type":"string","format":"uri"},
    "day":{"type":"string","format":"date"},
    "at":{"type":"string","format":"date-time"},
    "price":{"type":"number","minimum":0.5},
    "age":{"type":"integer","minimum":18},
    "agree":{"type":"boolean"},
    "news":{"type":"boolean"},
    "plan":{"type":"string","oneOf":[{"const":"free","title":"Free"},{"const":"pro","title":"Pro"}]},
    "tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]}}},
    "required":["name","agree","plan"]}"#;

#[test]
fn every_kind_is_read_by_its_own_parser() {
    let options = HtmlOptions::new().with_utc_offset("+01:00").unwrap();
    let post = "tn-request=r1&tn-0=Ada+L&tn-1=ada%40example.com&tn-2=https%3A%2F%2Fexample.com\
                &tn-3=2026-12-01&tn-4=2026-12-01T18%3A30&tn-5=1.50&tn-6=%2B018&tn-7=false\
                &tn-8=&tn-9=1&tn-10=2&tn-10=0&tn-action=accept";
    assert_eq!(
        answer(EVERY_KIND, post, &options).unwrap(),
        r#"{"id":"r1","ok":true,"data":{"name":"Ada L","email":"ada@example.com","site":"https://example.com","day":"2026-12-01","at":"2026-12-01T18:30:00+01:00","price":1.50,"age":18,"agree":false,"plan":"pro","tags":["a","c"]}}"#
    );
}

#[test]
fn decline_and_cancel_read_no_value_and_never_fail() {
    for (button, json) in [
        ("decline", r#"{"id":"r1","ok":false,"reason":"declined"}"#),
        ("cancel", r#"{"id":"r1","ok":false,"reason":"cancelled"}"#),
    ] {
        let post = alloc::format!("tn-0=&tn-6=abc&tn-9=&tn-action={button}");
        assert_eq!(
            answer(EVERY_KIND, &post, &HtmlOptions::new()).unwrap(),
            json
        );
    }
}

#[test]
fn only_accept_validates_and_its_violations_come_in_field_order() {
    let error = answer(
        EVERY_KIND,
        "tn-6=17&tn-0=A&tn-action=accept",
        &HtmlOptions::new(),
    )
    .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidContent);
    let found: Vec<(&str, Keyword)> = error
        .violations()
        .iter()
        .map(|v| (v.pointer(), v.keyword()))
        .collect();
    assert_eq!(
        found,
        [
            ("/name", Keyword::MinLength),
            ("/age", Keyword::Minimum),
            ("/agree", Keyword::Required),
            ("/plan", Keyword::Required),
        ]
    );
}

#[test]
fn a_required_boolean_is_a_yes_no_choice_and_an_optional_one_may_stay_unanswered() {
    let html = form_html(&form(EVERY_KIND), "", &HtmlOptions::new(), None, None);
    // Required: two radios, both `required`, neither checked; never a required checkbox.
    assert!(
        html.contains(r#"<input type="radio" id="tn-f7-0" name="tn-7" value="true" required>"#)
    );
    assert!(
        html.contains(r#"<input type="radio" id="tn-f7-1" name="tn-7" value="false" required>"#)
    );
    assert!(!html.contains(r#"type="checkbox" id="tn-f7"#));
    // Optional without a default: "No answer" is chosen.
    assert!(html.contains(r#"<input type="radio" id="tn-f8-2" name="tn-8" value="" checked>"#));
    assert!(html.contains("<legend class=\"tn-label\"><bdi>agree</bdi>"));
}

#[test]
fn a_multi_select_comes_back_in_option_order_and_empty_optional_is_absent() {
    let schema = r#"{"type":"object","properties":{
        "t":{"type":"array","items":{"type":"string","enum":["x","y","z"]},"maxItems":2},
        "u":{"type":"array","items":{"type":"string","enum":["x","y"]},"minItems":1}},"required":["u"]}"#;
    assert_eq!(
        answer(
            schema,
            "tn-0=2&tn-0=1&tn-1=0&tn-action=accept",
            &HtmlOptions::new()
        )
        .unwrap(),
        r#"{"id":"r1","ok":true,"data":{"t":["y","z"],"u":["x"]}}"#
    );
    // Nothing ticked: the optional one is absent; the required one is missing.
    let error = answer(schema, "tn-action=accept", &HtmlOptions::new()).unwrap_err();
    let found: Vec<_> = error
        .violations()
        .iter()
        .map(|v| (v.pointer(), v.keyword()))
        .collect();
    assert_eq!(found, [("/u", Keyword::Required)]);
    let error = answer(
        schema,
        "tn-0=0&tn-0=1&tn-0=2&tn-1=0&tn-action=accept",
        &HtmlOptions::new(),
    )
    .unwrap_err();
    assert_eq!(error.violations()[0].keyword(), Keyword::MaxItems);
}

#[test]
fn a_date_time_is_local_time_with_the_host_s_offset() {
    let schema = r#"{"type":"object","properties":{"at":{"type":"string","format":"date-time","default":"2026-12-01T17:30:00Z"}}}"#;
    let options = HtmlOptions::new().with_utc_offset("-05:30").unwrap();
    let html = form_html(&form(schema), "", &options, None, None);
    assert!(html.contains(
        r#"type="datetime-local" id="tn-f0" name="tn-0" step="1" value="2026-12-01T12:00:00""#
    ));
    assert!(html.contains("(your time, UTC-05:30)"));
    assert_eq!(
        answer(
            schema,
            "tn-0=2026-12-01T12%3A00%3A05&tn-action=accept",
            &options
        )
        .unwrap(),
        r#"{"id":"r1","ok":true,"data":{"at":"2026-12-01T12:00:05-05:30"}}"#
    );
    assert_eq!(
        answer(
            schema,
            "tn-0=2026-12-01T12%3A00&tn-action=accept",
            &HtmlOptions::new()
        )
        .unwrap(),
        r#"{"id":"r1","ok":true,"data":{"at":"2026-12-01T12:00:00Z"}}"#
    );
}

#[test]
fn defaults_fill_empty_fields_only_when_asked() {
    let schema =
        r#"{"type":"object","properties":{"n":{"type":"integer","default":3}},"required":["n"]}"#;
    let html = form_html(&form(schema), "", &HtmlOptions::new(), None, None);
    assert!(html.contains(r#"value="3""#));
    assert_eq!(
        answer(schema, "tn-0=&tn-action=accept", &HtmlOptions::new())
            .unwrap_err()
            .violations()[0]
            .keyword(),
        Keyword::Required
    );
    let filling = HtmlOptions::new().with_apply_defaults(true);
    assert_eq!(
        answer(schema, "tn-0=&tn-action=accept", &filling).unwrap(),
        r#"{"id":"r1","ok":true,"data":{"n":3}}"#
    );
}

#[test]
fn the_re_render_keeps_values_links_each_problem_and_never_echoes_a_secret() {
    let schema = r#"{"type":"object","properties":{
        "age":{"type":"integer","title":"Age","minimum":18},
        "password":{"type":"string","minLength":8}},"required":["age"]}"#;
    let request = request(schema);
    let post = body("tn-request=r1&tn-0=17&tn-1=hunter2&tn-action=accept");
    let options = HtmlOptions::new();
    let error = answer_from_post(&request, &post, &options).unwrap_err();
    let html = request_html(&request, &options, Some(&post), Some(&error)).unwrap();
    assert!(html.contains(r#"<div class="tn-errors" id="tn-errors" role="alert" tabindex="-1">"#));
    assert!(html.contains(r##"<li><a href="#tn-f0"><bdi>Age must be at least 18</bdi></a></li>"##));
    assert!(html.contains(
        r#"value="17" required aria-invalid="true" aria-describedby="tn-f0-hint tn-f0-error">"#
    ));
    assert!(html.contains(
        r#"<p class="tn-error" id="tn-f0-error"><bdi>Age must be at least 18</bdi></p>"#
    ));
    assert!(
        !html.contains("hunter2"),
        "a secret is typed again, never echoed"
    );
    assert!(html.contains(
        r#"<input type="password" id="tn-f1" name="tn-1" minlength="8" autocomplete="off""#
    ));
}

#[test]
fn an_error_that_belongs_to_no_field_is_said_in_the_summary() {
    let request = request(EVERY_KIND);
    let post = body("tn-action=accept&evil=1");
    let error = answer_from_post(&request, &post, &HtmlOptions::new()).unwrap_err();
    assert_eq!(
        (error.kind(), error.pointer()),
        (ErrorKind::UnknownField, "/evil")
    );
    let html = request_html(&request, &HtmlOptions::new(), Some(&post), Some(&error)).unwrap();
    assert!(html.contains(r#"<li><bdi>the form has no field named "evil"</bdi></li>"#));
}

#[test]
fn a_post_the_form_never_wrote_is_refused_with_its_kind_and_pointer() {
    let options = HtmlOptions::new();
    let cases: [(&str, ErrorKind, &str); 12] = [
        (
            "tn-0=a&tn-0=b&tn-action=accept",
            ErrorKind::DuplicateKey,
            "/tn-0",
        ),
        (
            "tn-action=accept&tn-action=cancel",
            ErrorKind::DuplicateKey,
            "/tn-action",
        ),
        ("tn-0=a", ErrorKind::MissingField, "/tn-action"),
        ("tn-action=submit", ErrorKind::InvalidValue, "/tn-action"),
        ("tn-9=7&tn-action=accept", ErrorKind::InvalidValue, "/plan"),
        ("tn-9=01&tn-action=accept", ErrorKind::InvalidValue, "/plan"),
        (
            "tn-7=yes&tn-action=accept",
            ErrorKind::InvalidValue,
            "/agree",
        ),
        (
            "tn-10=1&tn-10=1&tn-action=accept",
            ErrorKind::DuplicateKey,
            "/tags",
        ),
        (
            "tn-11=x&tn-action=accept",
            ErrorKind::UnknownField,
            "/tn-11",
        ),
        (
            "tn-request=r2&tn-action=accept",
            ErrorKind::UnknownRequest,
            "/tn-request",
        ),
        (
            "tn-0=%zz&tn-action=accept",
            ErrorKind::InvalidValue,
            "/tn-0",
        ),
        ("tn-0=%FF&tn-action=accept", ErrorKind::InvalidUtf8, "/tn-0"),
    ];
    for (post, kind, pointer) in cases {
        let error = FormData::from_urlencoded(post.as_bytes(), &Limits::DEFAULT)
            .and_then(|post| answer_from_post(&request(EVERY_KIND), &post, &options))
            .unwrap_err();
        assert_eq!((error.kind(), error.pointer()), (kind, pointer), "{post}");
    }
}

#[test]
fn a_post_over_the_limits_is_refused_before_it_is_read() {
    let small = Limits::DEFAULT
        .with_max_input_bytes(16)
        .with_max_object_members(2);
    let error = FormData::from_urlencoded(b"tn-0=0123456789abcdef", &small).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    let error = FormData::from_urlencoded(b"a=1&b=2&c=3", &small).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooManyMembers);
    let pairs = [("a", "1"), ("b", "2"), ("c", "3")];
    assert_eq!(
        FormData::from_pairs(pairs, &small).unwrap_err().kind(),
        ErrorKind::TooManyMembers
    );
    let long = [("a", "0123456789abcdef")];
    assert_eq!(
        FormData::from_pairs(long, &small).unwrap_err().kind(),
        ErrorKind::TooLarge
    );
}

#[test]
fn pairs_and_bodies_read_alike_and_the_host_s_hidden_fields_are_skipped() {
    let options = HtmlOptions::new().with_hidden("csrf", "t0k3n").unwrap();
    let schema = r#"{"type":"object","properties":{"q":{"type":"string"}}}"#;
    let from_body = answer_from_post(
        &request(schema),
        &body("csrf=x&tn-0=a+b%26c&tn-action=accept"),
        &options,
    );
    let pairs = [("csrf", "x"), ("tn-0", "a b&c"), ("tn-action", "accept")];
    let from_pairs = answer_from_post(
        &request(schema),
        &FormData::from_pairs(pairs, &Limits::DEFAULT).unwrap(),
        &options,
    );
    assert_eq!(from_body, from_pairs);
    assert_eq!(
        from_body.unwrap().to_json(),
        r#"{"id":"r1","ok":true,"data":{"q":"a b&c"}}"#
    );
    let html = form_html(&form(schema), "", &options, None, None);
    assert!(html.contains("<input type=\"hidden\" name=\"csrf\" value=\"t0k3n\">\n"));
}

#[test]
fn server_text_is_escaped_isolated_and_never_names_an_element() {
    let hostile = r#"{"type":"object","properties":{
        "\"><script>alert(1)</script>":{"type":"string","title":"<img src=x onerror=alert(1)>",
            "description":"' onfocus='alert(1)","default":"\"><b>x</b>"},
        "__proto__":{"type":"string","enum":["<i>a</i>","\u202Eexe.txt"]}}}"#;
    let options = HtmlOptions::new().with_asker("<b>Acme</b>");
    let html = form_html(
        &form(hostile),
        "<script>alert('hi')</script>",
        &options,
        None,
        None,
    );
    assert!(
        !html.contains("<script")
            && !html.contains("<img")
            && !html.contains("<b>")
            && !html.contains("<i>")
    );
    assert!(html.contains("&lt;script&gt;alert('hi')&lt;/script&gt;"));
    assert!(html.contains("<bdi>&lt;img src=x onerror=alert(1)&gt;</bdi>"));
    assert!(html.contains(r#"value="&quot;&gt;&lt;b&gt;x&lt;/b&gt;""#));
    assert!(html.contains("<bdi>\u{202E}exe.txt</bdi>"));
    assert!(html.contains(r#"id="tn-f0""#) && html.contains(r#"name="tn-1""#));
    // A property name is shown as the label when there is no title, as text; never as an id
    // or a control name.
    assert_eq!(
        html.matches("__proto__").count(),
        html.matches("<bdi>__proto__</bdi>").count()
    );
    assert!(
        html.contains("<p dir=\"auto\">' onfocus='alert(1)</p>"),
        "text, not an attribute"
    );
    assert!(!html.contains("style="));
}

#[test]
fn a_url_consent_shows_the_review_and_a_rejected_url_offers_no_link_and_no_accept() {
    let options = HtmlOptions::new();
    let html = consent_html(
        "https://xn--80ak6aa92e.com/a?b=1&c=\"",
        "Sign in",
        &options,
        None,
    );
    assert!(html.contains("<dd><bdi dir=\"ltr\">аррӏе.com</bdi></dd>"));
    assert!(html.contains("<dd><bdi dir=\"ltr\">xn--80ak6aa92e.com</bdi></dd>"));
    assert!(html.contains(r#"<a href="https://xn--80ak6aa92e.com/a?b=1&amp;c=&quot;" target="_blank" rel="noopener noreferrer">"#));
    assert!(html.contains(r#"value="accept""#));
    for url in ["javascript:alert(1)", "https://user@evil.example/"] {
        let html = consent_html(url, "", &options, None);
        assert!(
            !html.contains("<a ") && !html.contains(r#"value="accept""#),
            "{url}"
        );
        assert!(html.contains("tn-finding-reject"));
        let post = body("tn-action=accept");
        assert_eq!(
            read_consent_post(url, &post, &options)
                .unwrap_err()
                .pointer(),
            "/tn-action"
        );
        assert_eq!(
            read_consent_post(url, &body("tn-action=decline"), &options),
            Ok(Submission::Decline)
        );
    }
    let ok = "https://example.com/";
    assert_eq!(
        read_consent_post(ok, &body("tn-action=accept"), &options),
        Ok(Submission::Accept(json::Map::new()))
    );
    assert_eq!(
        read_consent_post(ok, &body("tn-0=x&tn-action=accept"), &options)
            .unwrap_err()
            .kind(),
        ErrorKind::UnknownField
    );
}

#[test]
fn options_out_of_shape_are_refused_with_a_pointer() {
    let bad_prefix = HtmlOptions::new()
        .with_class_prefix("1x\" onload=")
        .unwrap_err();
    assert_eq!(bad_prefix.pointer(), "/classPrefix");
    assert_eq!(
        HtmlOptions::new()
            .with_utc_offset("+25:00")
            .unwrap_err()
            .pointer(),
        "/utcOffset"
    );
    assert_eq!(
        HtmlOptions::new()
            .with_hidden("tn-action", "x")
            .unwrap_err()
            .pointer(),
        "/hidden/tn-action"
    );
    let twice = HtmlOptions::new()
        .with_hidden("a", "1")
        .unwrap()
        .with_hidden("a", "2");
    assert_eq!(twice.unwrap_err().kind(), ErrorKind::InvalidValue);
    let prefixed = HtmlOptions::new().with_class_prefix("acme_").unwrap();
    let html = form_html(&form(EVERY_KIND), "", &prefixed, None, None);
    assert!(html.contains(r#"<form class="acme_form acme_elicitation""#) && !html.contains("tn-f"));
    assert!(
        stylesheet(&prefixed).contains(".acme_form{") && !stylesheet(&prefixed).contains(".tn-")
    );
}

#[test]
fn radios_up_to_the_limit_then_a_select() {
    let options: Vec<String> = (0..=RADIO_LIMIT)
        .map(|i| alloc::format!("\"o{i}\""))
        .collect();
    let few = alloc::format!(
        r#"{{"type":"object","properties":{{"s":{{"type":"string","enum":[{}]}}}}}}"#,
        options[..RADIO_LIMIT].join(",")
    );
    let many = alloc::format!(
        r#"{{"type":"object","properties":{{"s":{{"type":"string","enum":[{}]}}}}}}"#,
        options.join(",")
    );
    assert!(
        form_html(&form(&few), "", &HtmlOptions::new(), None, None).contains(r#"type="radio""#)
    );
    let html = form_html(&form(&many), "", &HtmlOptions::new(), None, None);
    assert!(
        html.contains("<select id=\"tn-f0\" name=\"tn-0\">\n<option value=\"\">No answer</option>")
    );
    assert_eq!(
        answer(&many, "tn-0=5&tn-action=accept", &HtmlOptions::new()).unwrap(),
        r#"{"id":"r1","ok":true,"data":{"s":"o5"}}"#
    );
}

#[test]
fn a_request_without_a_form_or_a_url_is_an_error_and_the_same_input_gives_the_same_bytes() {
    let bare = Request::from_json(
        br#"{"id":"x","kind":"approval","prompt":"ok?"}"#,
        &Limits::DEFAULT,
    )
    .unwrap();
    assert_eq!(
        request_html(&bare, &HtmlOptions::new(), None, None)
            .unwrap_err()
            .pointer(),
        "/data/schema"
    );
    let once = request_html(&request(EVERY_KIND), &HtmlOptions::new(), None, None).unwrap();
    let twice = request_html(&request(EVERY_KIND), &HtmlOptions::new(), None, None).unwrap();
    assert_eq!(once, twice);
    assert_eq!(once.matches("<input").count(), 1 + 5 + 2 + 2 + 3 + 2 + 3);
    assert!(once.to_string().ends_with("</form>\n"));
}

#[test]
fn an_address_is_shown_so_that_it_cannot_reorder_itself() {
    let html = consent_html(
        "https://example.com/\u{202E}gpj.exe",
        "",
        &HtmlOptions::new(),
        None,
    );
    assert!(html.contains("<dd><bdi dir=\"ltr\">https://example.com/%E2%80%AEgpj.exe</bdi></dd>"));
    assert!(!html.contains("\u{202E}gpj"), "{html}");
}

#[test]
fn a_required_checkbox_group_left_empty_is_missing_like_blank_text() {
    let schema = r#"{"type":"object","properties":{"t":{"type":"array","items":{"type":"string","enum":["x"]}}},"required":["t"]}"#;
    let error = answer(schema, "tn-action=accept", &HtmlOptions::new()).unwrap_err();
    assert_eq!(error.violations()[0].keyword(), Keyword::Required);
    let secret_choice = r#"{"type":"object","properties":{"pin":{"type":"string","enum":["1","2"],"default":"2"}}}"#;
    let html = form_html(&form(secret_choice), "", &HtmlOptions::new(), None, None);
    assert!(
        html.contains(r#"value="1" checked"#),
        "a choice is no secret to hide: {html}"
    );
}

#[test]
fn a_prepared_form_gives_the_same_page_and_answer_as_the_request_alone() {
    let request = request(EVERY_KIND);
    let form = Form::from_map(request.schema().unwrap()).unwrap();
    let options = HtmlOptions::new();
    assert_eq!(
        request_form_html(&request, &form, &options, None, None),
        request_html(&request, &options, None, None).unwrap()
    );
    for post in [
        "tn-request=r1&tn-0=A&tn-action=accept",
        "tn-0=Ada&tn-7=true&tn-9=0&tn-action=accept",
    ] {
        let post = body(post);
        let alone = answer_from_post(&request, &post, &options);
        assert_eq!(
            answer_from_form_post(&request, &form, &post, &options),
            alone
        );
        if let Err(error) = alone {
            assert_eq!(
                request_form_html(&request, &form, &options, Some(&post), Some(&error)),
                request_html(&request, &options, Some(&post), Some(&error)).unwrap()
            );
        }
    }
}

#[test]
fn pairs_read_in_place_answer_as_a_copied_post_does() {
    let request = request(EVERY_KIND);
    let prepared = form(EVERY_KIND);
    let options = HtmlOptions::new()
        .with_hidden("csrf", "t")
        .unwrap()
        .with_utc_offset("+01:00")
        .unwrap();
    let posts: [&[(&str, &str)]; 6] = [
        // Valid, with a hidden field and a checkbox group.
        &[
            ("tn-request", "r1"),
            ("csrf", "x"),
            ("tn-0", "Ada"),
            ("tn-1", "ada@example.com"),
            ("tn-2", "https://example.com"),
            ("tn-3", "2026-12-01"),
            ("tn-4", "2026-12-01T17:30"),
            ("tn-5", "0.50"),
            ("tn-6", "18"),
            ("tn-7", "true"),
            ("tn-9", "1"),
            ("tn-10", "2"),
            ("tn-10", "0"),
            ("tn-action", "accept"),
        ],
        // Invalid content, every violation.
        &[("tn-0", "A"), ("tn-6", "17"), ("tn-action", "accept")],
        &[("tn-0", "A"), ("tn-action", "decline")],
        &[("tn-action", "cancel")],
        // Refused: another request, a name the form never wrote.
        &[("tn-request", "r2"), ("tn-action", "cancel")],
        &[("tn-99", "x"), ("tn-action", "accept")],
    ];
    for post in posts {
        let copied = FormData::from_pairs(post.iter().copied(), &Limits::DEFAULT).unwrap();
        let in_place = PostPairs::new(post, &Limits::DEFAULT).unwrap();
        assert_eq!(
            answer_from_form_pairs(&request, &prepared, in_place, &options),
            answer_from_form_post(&request, &prepared, &copied, &options),
            "{post:?}"
        );
        assert_eq!(
            answer_from_pairs(&request, in_place, &options),
            answer_from_post(&request, &copied, &options),
            "{post:?}"
        );
    }
    // The limits refuse what FormData refuses, with the same errors.
    let small = Limits::DEFAULT
        .with_max_input_bytes(16)
        .with_max_object_members(2);
    for post in [
        &[("a", "1"), ("b", "2"), ("c", "3")][..],
        &[("a", "0123456789abcdef")][..],
        &[("a", "0123456"), ("b", "012345")][..],
        &[("a", "012345"), ("b", "01234")][..],
    ] {
        assert_eq!(
            PostPairs::new(post, &small).map(|_| ()),
            FormData::from_pairs(post.iter().copied(), &small).map(|_| ()),
            "{post:?}"
        );
    }
}
