//! `toolnexus elicit` driven as a person drives it: through a real pseudo-terminal, keys in,
//! screen out, with the reply read from standard output (a file) after the process ends.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{BACKSPACE, CTRL_C, CTRL_D, DOWN, ENTER, ESC, Run};
use expectrl::Expect;

const CONTACT: &str = r#"{"message":"Who are you?","requestedSchema":{"type":"object","properties":{
    "name":{"type":"string","title":"Name","minLength":2},
    "age":{"type":"integer","title":"Age","minimum":18,"maximum":120}},"required":["name"]}}"#;

#[test]
fn the_sample_form_is_filled_corrected_changed_and_sent() {
    let mut run = Run::start(None);
    run.see("Plan your stay");
    // A wrong value is refused in place with the core's message, then corrected.
    run.see("Full name *").keys("A").keys(ENTER);
    run.see("at least 2 characters");
    run.keys(BACKSPACE).keys("Ada Lovelace").keys(ENTER);
    run.see("Email *").keys("ada@example.com").keys(ENTER);
    run.see("Website").keys(ENTER);
    run.see("Arrival date").keys(ENTER);
    run.see("Call me back at").keys(ENTER);
    // The default is pre-filled.
    run.see("Guests *").see("1–9").keys(ENTER);
    run.see("Budget per night").keys(ENTER);
    run.see("Breakfast included").keys(ENTER);
    run.see("Room").see("Double room").keys(ENTER);
    run.see("Floor").keys(ENTER);
    run.see("Extras")
        .see("choose up to 2")
        .keys(" ")
        .keys(ENTER);
    // A field that seems to ask for a secret: warned about, and masked.
    run.see("servers must not ask for secrets in a form");
    run.see("Door code PIN").keys("4321").keys(ENTER);
    run.see("Review your answers");
    run.see("Door code PIN: ••••••");
    // Change the email on the review screen.
    run.see("Accept and send").keys(DOWN).keys(ENTER);
    run.see("Which answer?").keys(DOWN).keys(ENTER);
    run.see("Email *");
    for _ in 0.."ada@example.com".len() {
        run.keys(BACKSPACE);
    }
    run.keys("grace@example.com").keys(ENTER);
    run.see("grace@example.com");
    run.see("Accept and send").keys(ENTER);
    // Then the URL request: shown in full, consented to.
    run.see("asks you to open a link");
    run.see("https://auth.example.com/oauth/authorize?client_id=toolnexus-sample&state=stay-42");
    run.see("Host: auth.example.com");
    run.see("I will open it (consent)").keys(ENTER);
    let (code, out) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(
        out,
        concat!(
            r#"{"action":"accept","content":{"name":"Ada Lovelace","email":"grace@example.com","guests":2,"breakfast":false,"room":"double","floor":"low","extras":["parking"],"doorCode":"4321"}}"#,
            "\n",
            r#"{"action":"accept"}"#,
            "\n"
        )
    );
}

#[test]
fn the_masked_secret_never_shows_on_screen() {
    let mut run = Run::start(Some(
        r#"{"message":"Log in","requestedSchema":{"type":"object","properties":{"password":{"type":"string"}},"required":["password"]}}"#,
    ));
    run.see("seems to ask for a password").see("password *");
    run.keys("hunter2").keys(ENTER);
    run.see("Review your answers");
    run.see("Accept and send").keys(ENTER);
    let (code, out) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"action\":\"accept\",\"content\":{\"password\":\"hunter2\"}}\n"
    );
    // What the person saw: the typed secret is not in it.
    let mut check = Run::start(Some(
        r#"{"message":"Log in","requestedSchema":{"type":"object","properties":{"password":{"type":"string"}},"required":["password"]}}"#,
    ));
    check.see("password *").keys("hunter2");
    let shown = check.session.expect("*******").unwrap();
    assert!(!String::from_utf8_lossy(shown.before()).contains("hunter2"));
    check.keys(CTRL_C);
    assert_eq!(
        check.finish(),
        (0, String::from("{\"action\":\"cancel\"}\n"))
    );
}

#[test]
fn an_empty_required_field_is_asked_again_not_declined() {
    let mut run = Run::start(Some(CONTACT));
    run.see("Name *").keys(ENTER);
    run.see("Name is required");
    run.keys("Ada").keys(ENTER);
    run.see("Age").keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    assert_eq!(
        run.finish(),
        (
            0,
            String::from("{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}\n")
        )
    );
}

#[test]
fn decline_on_the_review_screen_declines() {
    let mut run = Run::start(Some(CONTACT));
    run.see("Name *").keys("Ada").keys(ENTER);
    run.see("Age").keys("42").keys(ENTER);
    run.see("Accept and send").keys(DOWN).keys(DOWN).keys(ENTER);
    assert_eq!(
        run.finish(),
        (0, String::from("{\"action\":\"decline\"}\n"))
    );
}

#[test]
fn esc_cancels() {
    let mut run = Run::start(Some(CONTACT));
    run.see("Name *").keys("Ad").keys(ESC);
    assert_eq!(run.finish(), (0, String::from("{\"action\":\"cancel\"}\n")));
}

#[test]
fn ctrl_c_cancels() {
    let mut run = Run::start(Some(CONTACT));
    run.see("Name *").keys("Ada").keys(ENTER);
    run.see("Age").keys(CTRL_C);
    assert_eq!(run.finish(), (0, String::from("{\"action\":\"cancel\"}\n")));
}

#[test]
fn the_end_of_input_cancels() {
    let mut run = Run::start(Some(CONTACT));
    run.see("Name *").keys(CTRL_D);
    assert_eq!(run.finish(), (0, String::from("{\"action\":\"cancel\"}\n")));
}

#[test]
fn back_goes_to_the_previous_field() {
    let mut run = Run::start(Some(CONTACT));
    run.see("Name *").keys("Ada").keys(ENTER);
    run.see("Age")
        .see("< alone goes back")
        .keys("<")
        .keys(ENTER);
    run.see("Name *");
    for _ in 0.."Ada".len() {
        run.keys(BACKSPACE);
    }
    run.keys("Grace").keys(ENTER);
    run.see("Age").keys("30").keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    assert_eq!(
        run.finish(),
        (
            0,
            String::from("{\"action\":\"accept\",\"content\":{\"name\":\"Grace\",\"age\":30}}\n")
        )
    );
}

#[test]
fn a_url_is_consented_to_and_the_reply_echoes_the_json_rpc_id() {
    let mut run = Run::start(Some(
        r#"{"jsonrpc":"2.0","id":"rq-9","method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://xn--bcher-kva.example/login","elicitationId":"e1"}}"#,
    ));
    run.see("asks you to open a link");
    // The host in Unicode and as sent.
    run.see("bücher.example").see("xn--bcher-kva.example");
    run.see("I will open it (consent)").keys(ENTER);
    assert_eq!(
        run.finish(),
        (
            0,
            String::from(
                "{\"jsonrpc\":\"2.0\",\"id\":\"rq-9\",\"result\":{\"action\":\"accept\"}}\n"
            )
        )
    );
}

#[test]
fn a_rejected_url_offers_no_consent() {
    let mut run = Run::start(Some(
        r#"{"mode":"url","message":"Open this","url":"javascript:alert(1)"}"#,
    ));
    run.see("scheme_not_allowed");
    run.see("it can only be declined or cancelled");
    // The first option is Decline: there is no consent to pick.
    let screen = run.session.expect("Cancel").unwrap();
    assert!(!String::from_utf8_lossy(screen.before()).contains("consent"));
    run.keys(ENTER);
    assert_eq!(
        run.finish(),
        (0, String::from("{\"action\":\"decline\"}\n"))
    );
}

#[test]
fn several_input_requests_are_answered_in_one_go() {
    let mut run = Run::start(Some(
        r#"{"resultType":"input_required","inputRequests":{
            "region":{"method":"elicitation/create","params":{"message":"Region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}},
            "confirm":{"method":"elicitation/create","params":{"message":"Deploy now?","requestedSchema":{"type":"object","properties":{"go":{"type":"boolean","title":"Go"}},"required":["go"]}}}},
            "requestState":"opaque-7"}"#,
    ));
    run.see("request 1 of 2: region").see("Region?");
    run.see("region *").keys(DOWN).keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    run.see("request 2 of 2: confirm").see("Deploy now?");
    run.see("Go *").keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    assert_eq!(
        run.finish(),
        (
            0,
            String::from(concat!(
                r#"{"inputResponses":{"region":{"action":"accept","content":{"region":"us"}},"#,
                r#""confirm":{"action":"accept","content":{"go":true}}},"requestState":"opaque-7"}"#,
                "\n"
            ))
        )
    );
}
