//! The one printer: every line meant for a person, and what a command prints on standard
//! output, goes through here, and nothing a server wrote reaches the terminal unshown.
//!
//! A server's text is shown by the core's rule ([`terminal_text`]): a control, an escape
//! sequence, a bidi control or an invisible character is written as a visible escape, never
//! obeyed. The printer applies the rule to the whole of every line it writes, so a message
//! cannot forget it: the toolnexus text around server text has no such character, and is left
//! as it is. The terminal's own screens (the form, the review, the URL consent) paint with
//! colour, so they apply the rule to each piece of server text they place ([`one_line`],
//! [`block`]) and write their lines with [`screen`].
//!
//! With `--json-errors`, everything written to standard error for a script (errors, notes and
//! warnings) is one JSON object a line, `{kind, pointer, message}`, and JSON on either stream
//! keeps every such character as a `\uXXXX` escape ([`terminal_json`]): the same JSON value,
//! safe on a terminal.

use std::borrow::Cow;
use std::fmt;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use toolnexus_core::{LineBreaks, Map, Value, terminal_json, terminal_text};

/// Whether standard error carries JSON objects (`--json-errors`).
static JSON_ERRORS: AtomicBool = AtomicBool::new(false);

/// What a command prints on standard output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Nothing (`html -o FILE` wrote its page): not even a line break.
    Nothing,
    /// JSON text, printed with [`terminal_json`].
    Json(String),
    /// Text for people, printed with the rule (the line breaks it has are kept).
    Text(String),
    /// An HTML page, printed as the core wrote it: markup is its own escaping (every server
    /// string in it is escaped and isolated by the core), and the one output written raw.
    Page(String),
}

/// Sets whether standard error carries JSON objects, once, before anything is printed.
pub fn json_errors(on: bool) {
    JSON_ERRORS.store(on, Ordering::Relaxed);
}

/// Whether standard error carries JSON objects.
pub fn is_json() -> bool {
    JSON_ERRORS.load(Ordering::Relaxed)
}

/// Text a server wrote, for one line (a name, a label, a title, a status): every line break
/// shown as `\n`.
pub fn one_line(text: &str) -> Cow<'_, str> {
    terminal_text(text, LineBreaks::Show)
}

/// Text a server wrote, for a block (a message, a description): line breaks kept.
pub fn block(text: &str) -> Cow<'_, str> {
    terminal_text(text, LineBreaks::Keep)
}

/// Whether `text` shows on one line as it is: no character the rule would change.
pub fn is_plain(text: &str) -> bool {
    matches!(one_line(text), Cow::Borrowed(_))
}

/// A note for the person: `toolnexus: MESSAGE` on standard error, or with `--json-errors` the
/// object `{"kind":"note","pointer":"","message":…}`. Server text in `message` is shown by the
/// rule, on one line.
pub fn note(message: fmt::Arguments<'_>) {
    emit("note", "", &message.to_string());
}

/// A warning: as [`note`], of kind `warning`.
pub fn warning(message: fmt::Arguments<'_>) {
    emit("warning", "", &message.to_string());
}

/// An error with its kind and pointer: `line` for people (`kind at pointer: message` or a
/// sentence), or the object `{kind, pointer, message}` with `--json-errors`.
pub fn error(kind: &str, pointer: &str, message: &str, line: &str) {
    if is_json() {
        json_line(&object(kind, pointer, message));
    } else {
        text_line(line);
    }
}

/// A value as one JSON line on standard error (a violation, with `--json-errors`).
pub fn json_line(value: &Value) {
    write_err(&terminal_json(&value.to_json()));
}

/// A line of the terminal's own screens, already painted, each piece of server text in it
/// shown by [`one_line`] or [`block`] when it was placed: written as it is. An empty line is a
/// blank line.
pub fn screen(line: &str) {
    write_err(line);
}

/// Gives the terminal its modes back after an abandoned prompt: bracketed paste off, the
/// cursor shown, on a new line. The one control sequence the printer writes itself.
pub fn reset_terminal() {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(b"\x1b[?2004l\x1b[?25h\r\n");
    let _ = err.flush();
}

/// A bare line for people on standard error, the rule applied, with no `toolnexus:` before
/// it (the lines of a report that a note opened).
pub fn text_line(line: &str) {
    write_err(&one_line(line));
}

/// Writes what a command prints on standard output, ending with a line break unless it is
/// [`Output::Nothing`].
pub fn stdout(output: &Output) {
    let text = match output {
        Output::Nothing => return,
        Output::Json(json) => terminal_json(json),
        Output::Text(text) => block(text),
        Output::Page(page) => Cow::Borrowed(page.as_str()),
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

fn emit(kind: &str, pointer: &str, message: &str) {
    if is_json() {
        json_line(&object(kind, pointer, message));
    } else {
        write_err(&format!("toolnexus: {}", one_line(message)));
    }
}

fn write_err(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// `{kind, pointer, message}`.
pub fn object(kind: &str, pointer: &str, message: &str) -> Value {
    let mut map = Map::new();
    map.insert("kind", Value::from(kind));
    map.insert("pointer", Value::from(pointer));
    map.insert("message", Value::from(message));
    Value::Object(map)
}

/// Prints a note: `note!("the task {id} is cancelled")`.
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => { $crate::printer::note(format_args!($($arg)*)) };
}

/// Prints a warning: `warning!("the token could not be refreshed: {why}")`.
#[macro_export]
macro_rules! warning {
    ($($arg:tt)*) => { $crate::printer::warning(format_args!($($arg)*)) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_text_is_shown_not_obeyed() {
        assert_eq!(
            one_line("a\x1b]52;c;eA==\x07\nb"),
            r"a\u{1b}]52;c;eA==\u{7}\nb"
        );
        assert_eq!(block("a\nb\u{202e}c"), "a\nb\\u{202e}c");
        assert!(is_plain("Ada Lovelace ✓"));
        assert!(!is_plain("Ada\u{9b}2J"));
    }

    #[test]
    fn objects_keep_their_order() {
        assert_eq!(
            object("note", "", "x").to_json(),
            r#"{"kind":"note","pointer":"","message":"x"}"#
        );
    }
}
