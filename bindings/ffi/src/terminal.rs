//! Server text on a terminal: `terminal_text` and `terminal_json`, the core's one rule for what
//! is safe to print, and `LineBreaks`.

use toolnexus_core::terminal::{self, LineBreaks as CoreLineBreaks};
use toolnexus_core::{self as core, ErrorKind as CoreKind};

use crate::error::ToolnexusError;
use crate::mirror::mirror_enum;

mirror_enum! {
    /// Whether text shown on a terminal may break lines.
    pub enum LineBreaks mirrors CoreLineBreaks, else Show {
        /// A block of text (a message, a description): line feeds and CR LF are line breaks
        /// and tabs are tabs.
        Keep,
        /// One line (a label, a name, a title, a status): line feeds, CR LF and tabs are
        /// shown as `\n`, `\r\n` and `\t`.
        Show,
    }
}

/// The `LineBreaks` named `name` (`"keep"` or `"show"`, as `asStr` spells them), or an
/// `INVALID_VALUE` error.
#[uniffi::export]
pub fn line_breaks_from_name(name: &str) -> Result<LineBreaks, ToolnexusError> {
    CoreLineBreaks::from_name(name)
        .map(LineBreaks::from_core)
        .ok_or_else(|| {
            core::Error::new(
                CoreKind::InvalidValue,
                "",
                format!("{name:?} is not a way to show line breaks (\"keep\" or \"show\")"),
            )
            .into()
        })
}

/// `text` as it is safe to show on a terminal: every control character, escape sequence
/// (`ESC`, the C1 controls), bidi control and invisible character written as a visible escape
/// such as `\u{1b}`, so what a person reads is exactly what the server sent and the terminal
/// obeys none of it. Line feeds, CR LF and tabs stay with `LineBreaks.Keep` and are shown as
/// `\n`, `\r\n` and `\t` with `LineBreaks.Show`; a lone carriage return is always shown.
/// Letters of every script, emoji and the backslash are kept. Print every string a server
/// wrote (a message, a title, a label, an error) through it.
#[uniffi::export]
pub fn terminal_text(text: &str, line_breaks: LineBreaks) -> String {
    terminal::terminal_text(text, line_breaks.to_core()).into_owned()
}

/// JSON text as it is safe to show on a terminal, and still the same JSON: every character
/// `terminalText` would escape that JSON leaves raw (DEL, the C1 controls, bidi controls, the
/// line and paragraph separators, invisible characters) written as a `\uXXXX` escape (a UTF-16
/// pair above U+FFFF). A reader gets back the value it would have read from `json`.
#[uniffi::export]
pub fn terminal_json(json: &str) -> String {
    terminal::terminal_json(json).into_owned()
}
