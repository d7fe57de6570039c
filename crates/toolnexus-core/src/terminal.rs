//! What is safe to show on a terminal: any text a server wrote, with every character that a
//! terminal would obey instead of print made visible.
//!
//! A terminal treats some characters as orders: ESC starts a sequence that moves the cursor,
//! clears the screen, sets the window title, writes the clipboard (OSC 52) or hides text (SGR 8);
//! a carriage return goes back over what a line already said; bidi controls reorder what follows
//! them; zero-width and tag characters carry text nobody sees. [`terminal_text`] writes each of
//! them as a visible escape, so that what a person reads is exactly what the server sent:
//!
//! | characters | shown as |
//! |---|---|
//! | line feed, and CR LF | a line break where the context allows one ([`LineBreaks::Keep`]); `\n` and `\r\n` otherwise |
//! | tab | a tab where line breaks are kept (it only moves the cursor forward); `\t` otherwise |
//! | a carriage return on its own | `\r`, always: it would overwrite the start of the line |
//! | every other C0 control, DEL, every C1 control (U+0080–U+009F) | `\u{1b}`, `\u{7f}`, `\u{9b}`: the code point in lower-case hex |
//! | bidi controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069 | `\u{202e}` and so on: text cannot reorder what follows it |
//! | U+2028 and U+2029 (line and paragraph separators) | `\u{2028}`, `\u{2029}` |
//! | invisible characters that can hide or split text: the soft hyphen, U+034F, U+115F, U+1160, U+17B4, U+17B5, U+180B–U+180F, U+200B, U+2060–U+2065, U+206A–U+206F, U+3164, U+FEFF, U+FFA0, U+FFF0–U+FFFB, U+1BCA0–U+1BCA3, U+1D173–U+1D17A, tag characters U+E0000–U+E007F | `\u{200b}` and so on |
//!
//! Everything else is kept as it is: letters of every script, emoji (with their zero-width
//! joiners and variation selectors), and the backslash itself, so a server that writes the text
//! `\u{1b}` is shown that text and obeyed in nothing. Text without any of these characters is
//! returned borrowed, unchanged.
//!
//! ```
//! use toolnexus_core::terminal::{LineBreaks, terminal_text};
//!
//! // OSC 52: would have put a command on the person's clipboard.
//! let osc52 = "Copy this\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07";
//! assert_eq!(terminal_text(osc52, LineBreaks::Show), r"Copy this\u{1b}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u{7}");
//! // A line that goes back over itself, and a label that reorders what follows it.
//! assert_eq!(terminal_text("safe\rURL: evil", LineBreaks::Keep), r"safe\rURL: evil");
//! assert_eq!(terminal_text("abc\u{202e}fed", LineBreaks::Show), r"abc\u{202e}fed");
//! // Line breaks stay where the context allows them.
//! assert_eq!(terminal_text("one\r\ntwo", LineBreaks::Keep), "one\ntwo");
//! assert_eq!(terminal_text("one\ntwo", LineBreaks::Show), r"one\ntwo");
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt::Write as _;

use crate::error::closed_set;

closed_set! {
    /// Whether a text may break lines where it is shown.
    pub enum LineBreaks {
        /// A block of text (a message, a description): line feeds and CR LF are line breaks
        /// and tabs are tabs.
        Keep => "keep",
        /// One line (a label, a name, a title, a status): line feeds and tabs are shown as
        /// `\n` and `\t`.
        Show => "show",
    }
}

/// `text` as it is safe to show on a terminal: every control, escape sequence, bidi control
/// and invisible character written as a visible escape, line breaks kept only when `breaks` is
/// [`LineBreaks::Keep`]. The module documentation lists the rule.
pub fn terminal_text(text: &str, breaks: LineBreaks) -> Cow<'_, str> {
    let keep = breaks == LineBreaks::Keep;
    let Some(first) = text
        .char_indices()
        .find(|&(_, c)| !(is_plain(c) || (keep && (c == '\n' || c == '\t'))))
        .map(|(at, _)| at)
    else {
        return Cow::Borrowed(text);
    };
    let (clean, rest) = text.split_at(first);
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(clean);
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' if keep => out.push('\n'),
            '\t' if keep => out.push('\t'),
            '\r' if keep && chars.peek() == Some(&'\n') => {
                chars.next();
                out.push('\n');
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_plain(c) => out.push(c),
            // Writing to a String cannot fail.
            c => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
        }
    }
    Cow::Owned(out)
}

/// JSON text as it is safe to show on a terminal, and still the same JSON: every character
/// [`terminal_text`] would escape that the JSON writer leaves raw (DEL, the C1 controls, bidi
/// controls, the line and paragraph separators and the invisible characters, all of which can
/// only stand inside a string) written as a `\uXXXX` escape, a UTF-16 pair above U+FFFF. A
/// reader gets back the value it would have read from `json`. JSON text without them is
/// returned borrowed.
///
/// ```
/// use toolnexus_core::terminal::terminal_json;
///
/// assert_eq!(terminal_json("{\"a\":\"x\u{9b}2J\u{202e}\"}"), r#"{"a":"x\u009b2J\u202e"}"#);
/// assert_eq!(terminal_json("[\"\u{e0041}\"]"), r#"["\udb40\udc41"]"#);
/// ```
pub fn terminal_json(json: &str) -> Cow<'_, str> {
    let kept = |c: char| is_plain(c) || matches!(c, '\n' | '\r' | '\t');
    if json.chars().all(kept) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    let mut units = [0u16; 2];
    for c in json.chars() {
        // Controls below U+0020 never stand raw in JSON text; whitespace between tokens is
        // kept as the writer put it.
        if kept(c) {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut units) {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{:04x}", unit);
            }
        }
    }
    Cow::Owned(out)
}

/// Whether `c` is shown as it is, in any context.
fn is_plain(c: char) -> bool {
    !(c.is_control()
        || is_bidi_control(c)
        || is_invisible(c)
        || matches!(c, '\u{2028}' | '\u{2029}'))
}

/// The characters that change the order in which text is shown: the explicit embeddings,
/// overrides and isolates, and the implicit marks.
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// Characters that show nothing and can hide or split text. The zero-width joiner and
/// non-joiner and the variation selectors are not among them: emoji and several scripts need
/// them.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{034f}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'
            | '\u{2060}'..='\u{2065}'
            | '\u{206a}'..='\u{206f}'
            | '\u{3164}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fffb}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(
            terminal_text("plain ü 👩‍💻 text", LineBreaks::Show),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            terminal_text("two\nlines\twith tab", LineBreaks::Keep),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn every_control_is_visible() {
        for c in (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
            let text = String::from(c);
            let shown = terminal_text(&text, LineBreaks::Show);
            assert!(
                shown.chars().all(|c| c.is_ascii_graphic()),
                "{c:?} shown as {shown:?}"
            );
        }
    }

    #[test]
    fn the_escape_of_a_sequence_keeps_its_text() {
        assert_eq!(
            terminal_text(
                "\x1b[2K\r\x1b[1A  URL:  https://bank.example/login",
                LineBreaks::Keep
            ),
            r"\u{1b}[2K\r\u{1b}[1A  URL:  https://bank.example/login"
        );
        assert_eq!(terminal_text("a\r\n", LineBreaks::Show), r"a\r\n");
        assert_eq!(terminal_text("\u{9b}31m", LineBreaks::Keep), r"\u{9b}31m");
        assert_eq!(
            terminal_text("x\u{e0041}\u{feff}", LineBreaks::Keep),
            r"x\u{e0041}\u{feff}"
        );
    }
}
