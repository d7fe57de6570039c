//! `toolnexus html` through the built binary: the whole document and the fragment, the two
//! shapes of input, the options, a hostile request, `-o`, and the errors with their exit codes.
//! (The shared `html` cases run through it too, byte for byte, in `batch.rs`.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use toolnexus_core::html::{HtmlOptions, request_html, stylesheet};
use toolnexus_core::{Limits, Request, Value, json};

static FILES: AtomicUsize = AtomicUsize::new(0);

fn temp(name: &str) -> PathBuf {
    let n = FILES.fetch_add(1, Ordering::SeqCst);
    std::env::temp_dir().join(format!("toolnexus-html-{}-{n}-{name}", std::process::id()))
}

/// Runs `toolnexus ARGS` with `stdin` piped in and no controlling terminal.
fn toolnexus(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new("setsid")
        .arg(env!("CARGO_BIN_EXE_toolnexus"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("setsid runs toolnexus");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The `{kind, pointer}` of the first `--json-errors` line.
fn json_error(output: &Output) -> (String, String) {
    let err = stderr(output);
    let first = err.lines().next().unwrap_or_default();
    let value = json::parse_str(first, &Limits::DEFAULT).unwrap_or_else(|e| panic!("{e}: {err}"));
    let field = |k: &str| String::from(value.get(k).and_then(Value::as_str).unwrap());
    (field("kind"), field("pointer"))
}

const FORM: &str = r#"{"id":"r1","kind":"input","prompt":"How many guests?","data":{"schema":{"type":"object","properties":{"guests":{"type":"integer","title":"Guests","minimum":1},"at":{"type":"string","format":"date-time","title":"Arrival"}},"required":["guests"]}}}"#;

/// What the core writes for `request` with no options.
fn core_fragment(request: &str) -> String {
    let request = Request::from_json(request.as_bytes(), &Limits::DEFAULT).unwrap();
    request_html(&request, &HtmlOptions::new(), None, None).unwrap()
}

#[test]
fn a_request_is_a_whole_document_around_the_core_s_fragment() {
    let out = toolnexus(&["html", "-"], FORM);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    let page = stdout(&out);
    let head = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
                <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    assert!(page.starts_with(head), "{page}");
    assert!(
        page.contains("<title>A form to fill in</title>\n"),
        "{page}"
    );
    let style = format!("<style>\n{}</style>\n", stylesheet(&HtmlOptions::new()));
    assert!(page.contains(&style), "{page}");
    let body = format!("<main>\n{}</main>\n</body>\n</html>\n", core_fragment(FORM));
    assert!(page.ends_with(&body), "{page}");
    // No script, and nothing but the inline style may load.
    assert!(!page.to_lowercase().contains("<script"), "{page}");
    assert!(page.contains("default-src 'none'"), "{page}");
}

#[test]
fn the_fragment_alone_is_the_core_s_bytes() {
    let out = toolnexus(&["html", "--fragment", "-"], FORM);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), core_fragment(FORM));
}

#[test]
fn elicit_request_params_are_mapped_with_the_id_given_or_a_fresh_one() {
    let params = r#"{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}"#;
    let out = toolnexus(&["html", "--fragment", "--id", "q-7", "-"], params);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(
        page.contains(r#"<input type="hidden" name="tn-request" value="q-7">"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<p class="tn-message" dir="auto">Your name?</p>"#),
        "{page}"
    );

    let out = toolnexus(&["html", "--fragment", "-"], params);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    let id = page
        .split(r#"name="tn-request" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    assert!(!id.is_empty() && id != "q-7", "a fresh id: {page}");

    // URL mode: the consent page, titled as a link.
    let url = r#"{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e1"}"#;
    let out = toolnexus(&["html", "--id", "u1", "-"], url);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.contains("<title>A link to open</title>"), "{page}");
    assert!(
        page.contains(r#"<form class="tn-form tn-consent""#),
        "{page}"
    );
    assert!(
        page.contains(r#"<a href="https://example.com/login" target="_blank""#),
        "{page}"
    );
}

#[test]
fn the_options_reach_the_page() {
    let out = toolnexus(
        &[
            "html",
            "--asker",
            "Acme CRM",
            "--class-prefix",
            "app-",
            "--action",
            "/answer?id=r1&step=2",
            "--utc-offset",
            "-05:00",
            "-",
        ],
        FORM,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(
        page.contains(r#"<form class="app-form app-elicitation" method="post" accept-charset="utf-8" action="/answer?id=r1&amp;step=2">"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<p class="app-asker"><bdi>Acme CRM</bdi> asks:</p>"#),
        "{page}"
    );
    assert!(page.contains("(your time, UTC-05:00)"), "{page}");
    // The style sheet follows the prefix; control names keep theirs.
    assert!(
        page.contains(".app-form{") && !page.contains(".tn-form{"),
        "{page}"
    );
    assert!(page.contains(r#"id="app-f0" name="tn-0""#), "{page}");
}

#[test]
fn a_hostile_request_is_only_text() {
    let hostile = r#"{"id":"r\"><script>alert(1)</script>","kind":"input",
        "prompt":"</style></main><script>alert(2)</script>",
        "data":{"schema":{"type":"object","properties":{
            "\"><img src=x onerror=alert(3)>":{"type":"string","title":"</title><script>alert(4)</script>",
                "description":"<iframe src=javascript:alert(5)>","default":"\" autofocus onfocus=\"alert(6)"},
            "__proto__":{"type":"string","enum":["</select><script>alert(7)</script>","b","c","d","e","f"]},
            "dir":{"type":"boolean","title":"invoice\u202Efdp.exe\u0000\u0007"}}}}}"#;
    let out = toolnexus(&["html", "--asker", "<b>x</b>", "-"], hostile);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    let lower = page.to_lowercase();
    for tag in ["<script", "<img", "<iframe", "<b>"] {
        assert!(!lower.contains(tag), "{tag} in {page}");
    }
    // Each structural tag once: the server's text closes nothing.
    for tag in ["</title>", "</style>", "</main>", "</form>", "</select>"] {
        assert_eq!(page.matches(tag).count(), 1, "{tag} in {page}");
    }
    assert!(page.contains("<title>A form to fill in</title>"), "{page}");
    assert!(
        page.contains(r#"value="r&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;""#),
        "{page}"
    );
    assert!(
        page.contains(r#"value="&quot; autofocus onfocus=&quot;alert(6)""#),
        "{page}"
    );
    assert!(
        !page.contains(" onfocus=\"") && !page.contains(" onerror="),
        "{page}"
    );
    // Element ids and names are generated; the direction override stays in its isolate and
    // control characters are replaced.
    assert!(
        page.contains(r#"<input type="text" id="tn-f0" name="tn-0""#),
        "{page}"
    );
    assert!(
        page.contains("<bdi>invoice\u{202E}fdp.exe\u{FFFD}\u{FFFD}</bdi>"),
        "{page}"
    );
    assert!(!page.contains('\u{0}') && !page.contains('\u{7}'), "{page}");

    // A javascript: URL: no link, no Accept.
    let url =
        r#"{"id":"u1","kind":"authorization","prompt":"Open it","url":"javascript:alert(8)"}"#;
    let out = toolnexus(&["html", "--fragment", "-"], url);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(
        !page.contains("<a ") && !page.contains(r#"value="accept""#),
        "{page}"
    );
    assert!(
        page.contains("This address cannot be opened from here."),
        "{page}"
    );
}

#[test]
fn dash_o_writes_the_same_bytes_and_prints_nothing() {
    let file = temp("page.html");
    let out = toolnexus(&["html", "-o", file.to_str().unwrap(), "-"], FORM);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    let written = fs::read_to_string(&file).unwrap();
    let _ = fs::remove_file(&file);
    assert_eq!(written, stdout(&toolnexus(&["html", "-"], FORM)));

    let out = toolnexus(&["html", "-o", "/nonexistent-dir/page.html", "-"], FORM);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
}

#[test]
fn a_request_it_cannot_show_is_the_core_s_typed_error() {
    let cases: [(&[&str], &str, &str, &str); 7] = [
        (
            &[],
            r#"{"id":"r1","kind":"approval","prompt":"OK?"}"#,
            "missing_field",
            "/data/schema",
        ),
        (
            &[],
            r#"{"id":"r1","kind":"input","prompt":"","extra":1}"#,
            "unknown_field",
            "/extra",
        ),
        (
            &[],
            r#"{"message":"x","requestedSchema":{"type":"object","properties":{"n":{}}}}"#,
            "missing_field",
            "/requestedSchema/properties/n/type",
        ),
        (
            &[],
            r#"{"mode":"sms","message":"x"}"#,
            "invalid_value",
            "/mode",
        ),
        (
            &["--class-prefix", "1x"],
            FORM,
            "invalid_value",
            "/classPrefix",
        ),
        (
            &["--utc-offset", "+5:30"],
            FORM,
            "invalid_value",
            "/utcOffset",
        ),
        (&[], "{\"id\":", "invalid_json", "/id"),
    ];
    for (options, input, kind, pointer) in cases {
        let mut args = vec!["--json-errors", "html"];
        args.extend_from_slice(options);
        args.push("-");
        let out = toolnexus(&args, input);
        assert_eq!(out.status.code(), Some(1), "{input}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{input}");
        assert_eq!(
            json_error(&out),
            (kind.to_owned(), pointer.to_owned()),
            "{input}"
        );
    }
    // Without --json-errors: one line, `kind at pointer: message`.
    let out = toolnexus(&["html", "--class-prefix", "a b", "-"], FORM);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("invalid_value at /classPrefix: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = toolnexus(&["html", "/nonexistent-dir/request.json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
    // --id is for params: a Request has its own.
    let out = toolnexus(&["html", "--id", "x", "-"], FORM);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--id"), "{}", stderr(&out));
    let out = toolnexus(&["html"], "");
    assert_eq!(out.status.code(), Some(2));
}
