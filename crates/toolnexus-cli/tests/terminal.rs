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
    // A field that seems to ask for a secret: warned about (wrapped at a word boundary to
    // the terminal's 80 columns after "in a"), and masked.
    run.see("servers must not ask for secrets in a\r\nform.");
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

// Readline's keys, as a terminal sends them.
const CTRL_A: &str = "\x01";
const CTRL_B: &str = "\x02";
const CTRL_E: &str = "\x05";
const CTRL_F: &str = "\x06";
const CTRL_K: &str = "\x0b";
const CTRL_U: &str = "\x15";
const CTRL_W: &str = "\x17";
const CTRL_Y: &str = "\x19";
/// Ctrl with L, N, O, P, Q, R, S, T, V, X, Z, and Alt-X: none of them types anything.
const OTHER_CHORDS: &str = "\x0c\x0e\x0f\x10\x11\x12\x13\x14\x16\x18\x1a\x1bx";

#[test]
fn text_is_edited_with_readline_keys_and_no_chord_types_its_letter() {
    let mut run = Run::start(Some(CONTACT));
    run.see("Name *").keys("Lovelace");
    // To the start, and back to the end.
    run.keys(CTRL_A).keys("Ada ").keys(CTRL_E).keys(" junk");
    // The word before the cursor, then the space before it.
    run.keys(CTRL_W).keys(BACKSPACE);
    // Three characters in, delete to the end, and put it back.
    run.keys(CTRL_A)
        .keys(CTRL_F)
        .keys(CTRL_F)
        .keys(CTRL_F)
        .keys(CTRL_K)
        .keys(CTRL_Y);
    run.keys(OTHER_CHORDS).keys(CTRL_B).keys(CTRL_F).keys(ENTER);
    run.see("Ada Lovelace");
    // Back to the name, pre-filled: its last word replaced.
    run.see("Age").keys("<").keys(ENTER);
    run.see("Name *").keys(CTRL_W).keys("King").keys(ENTER);
    // Ctrl-U clears what is before the cursor, Ctrl-K what is after it.
    run.see("Age").keys("99").keys(CTRL_U).keys("42 7");
    run.keys(CTRL_B).keys(CTRL_B).keys(CTRL_K).keys(ENTER);
    run.see("Review your answers");
    run.see("Accept and send").keys(ENTER);
    assert_eq!(
        run.finish(),
        (
            0,
            String::from(
                "{\"action\":\"accept\",\"content\":{\"name\":\"Ada King\",\"age\":42}}\n"
            )
        )
    );
}

#[test]
fn a_masked_secret_is_edited_with_readline_keys_too() {
    let mut run = Run::start(Some(
        r#"{"message":"Log in","requestedSchema":{"type":"object","properties":{"password":{"type":"string"}},"required":["password"]}}"#,
    ));
    run.see("password *")
        .keys("hunter2")
        .keys(CTRL_U)
        .keys("pass");
    run.keys(CTRL_A)
        .keys("x")
        .keys(OTHER_CHORDS)
        .keys(CTRL_E)
        .keys("!");
    run.keys(ENTER);
    // Everything shown while it was typed: masks, never the secret.
    let shown = run.session.expect("Accept and send").unwrap();
    let shown = String::from_utf8_lossy(shown.before());
    assert!(shown.contains("******"));
    assert!(!shown.contains("hunter") && !shown.contains("xpass"));
    run.keys(ENTER);
    assert_eq!(
        run.finish(),
        (
            0,
            String::from("{\"action\":\"accept\",\"content\":{\"password\":\"xpass!\"}}\n")
        )
    );
}

#[test]
fn a_paste_is_typed_on_one_line() {
    let mut run = Run::start(Some(CONTACT));
    // Bracketed paste, as a terminal sends it: the line break in it types a space, the one
    // at its end nothing.
    run.see("Name *")
        .keys("\x1b[200~Ada\nLovelace\n\x1b[201~")
        .keys(ENTER);
    run.see("Age").keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    assert_eq!(
        run.finish(),
        (
            0,
            String::from("{\"action\":\"accept\",\"content\":{\"name\":\"Ada Lovelace\"}}\n")
        )
    );
}

/// The text of `bytes` as a person reads it: escape sequences (colour, cursor moves) and
/// carriage returns left out.
fn plain(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => {
                if chars.next_if_eq(&'[').is_some() {
                    // Parameters, then one final byte.
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            }
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// Checks that `lines`, read one after the other, say `text` word for word, and that none is
/// wider than `width` (so every break fell between two words).
fn wrapped_at_words(lines: &[&str], text: &str, width: usize) {
    assert!(lines.len() > 1, "not wrapped: {lines:?}");
    for line in lines {
        assert!(
            line.chars().count() <= width,
            "wider than {width}: {line:?} in {lines:?}"
        );
    }
    let words: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
    assert_eq!(
        words,
        text.split_whitespace().collect::<Vec<_>>(),
        "{lines:?}"
    );
}

#[test]
fn long_text_wraps_at_word_boundaries_in_a_narrow_terminal() {
    let mut run = Run::start(Some(
        r#"{"message":"Sign in","requestedSchema":{"type":"object","properties":{
            "user":{"type":"string","title":"User"},
            "password":{"type":"string","title":"Password","description":"The password of your account on the staging cluster, which expires every ninety days"}},
            "required":["user","password"]}}"#,
    ));
    run.session
        .get_process_mut()
        .set_window_size(40, 24)
        .unwrap();
    // What follows is drawn after this key, so on 40 columns for sure. A name longer than a
    // row, edited at its start, still comes out whole.
    run.see("User *")
        .keys("a_user_name_much_longer_than_forty_columns_wide")
        .keys(CTRL_A)
        .keys("x")
        .keys(ENTER);
    // The warning: on lines of at most 40 columns, broken between words.
    run.see("⚠");
    let warning = run.session.expect("(2/2)").unwrap();
    let screen = format!("⚠{}", plain(warning.before()));
    let lines: Vec<&str> = screen.lines().take_while(|l| !l.is_empty()).collect();
    wrapped_at_words(
        &lines[..lines.len() - 1],
        "⚠ Password seems to ask for a password: servers must not ask for secrets in a form. \
         Your typing is hidden; think twice before you send it.",
        40,
    );
    // The description, in the help below the line, wrapped the same way.
    let help = run.session.expect("goes back]").unwrap();
    let screen = plain(help.before());
    let start = screen.find('[').unwrap();
    let help = format!("{}goes back]", &screen[start..]);
    let lines: Vec<&str> = help.lines().collect();
    wrapped_at_words(
        &lines,
        "[The password of your account on the staging cluster, which expires every ninety \
         days · 1 required left · < alone goes back]",
        40,
    );
    run.keys("hunter2").keys(ENTER);
    run.see("Accept and send").keys(ENTER);
    assert_eq!(
        run.finish(),
        (
            0,
            String::from(
                "{\"action\":\"accept\",\"content\":{\"user\":\"xa_user_name_much_longer_than_forty_columns_wide\",\"password\":\"hunter2\"}}\n"
            )
        )
    );
}
