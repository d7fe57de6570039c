//! Writing untrusted text into HTML: escaped for its context, with the characters HTML does
//! not allow replaced.

use alloc::string::String;

/// Appends `text` as HTML text content: `&`, `<` and `>` escaped.
pub(super) fn text(out: &mut String, text: &str) {
    write(out, text, false);
}

/// Appends `text` as the value of a double-quoted attribute: `&`, `<`, `>`, `"` and `'`
/// escaped, so that no quote can end the attribute whatever the host does with it.
pub(super) fn attribute(out: &mut String, text: &str) {
    write(out, text, true);
}

fn write(out: &mut String, text: &str, in_attribute: bool) {
    out.reserve(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if in_attribute => out.push_str("&quot;"),
            '\'' if in_attribute => out.push_str("&#39;"),
            // HTML allows no other C0 control and no DEL or C1 control in text; a NUL would
            // be read as U+FFFD anyway, so every one of them is written as that.
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(input: &str) -> (String, String) {
        let (mut t, mut a) = (String::new(), String::new());
        text(&mut t, input);
        attribute(&mut a, input);
        (t, a)
    }

    #[test]
    fn markup_and_quotes_cannot_escape_their_context() {
        let (t, a) = both(r#"<script>"x"&'y'</script>"#);
        assert_eq!(t, r#"&lt;script&gt;"x"&amp;'y'&lt;/script&gt;"#);
        assert_eq!(
            a,
            "&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;"
        );
    }

    #[test]
    fn controls_become_replacement_characters_and_line_breaks_stay() {
        let (t, _) = both("a\u{0}b\u{7}c\u{7f}d\u{85}e\nf\tg");
        assert_eq!(t, "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\nf\tg");
    }

    #[test]
    fn other_text_is_kept_as_is_bidi_controls_included() {
        let (t, a) = both("مرحبا \u{202E}txt.exe");
        assert_eq!(t, "مرحبا \u{202E}txt.exe");
        assert_eq!(a, t);
    }
}
