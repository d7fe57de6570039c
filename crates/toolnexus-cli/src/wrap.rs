//! Text for the person, wrapped at word boundaries to the terminal's width: descriptions,
//! warnings, notes and hints break between words, never inside one.

use unicode_width::UnicodeWidthChar;

/// The width assumed when the terminal's is unknown.
const FALLBACK_WIDTH: usize = 80;

/// The terminal's width in columns: its size as the terminal reports it, else `COLUMNS`, else
/// 80.
pub fn width() -> usize {
    match crossterm::terminal::size() {
        Ok((columns, _)) if columns > 0 => usize::from(columns),
        _ => std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|&c| c > 0)
            .unwrap_or(FALLBACK_WIDTH),
    }
}

/// The columns `text` takes on a terminal: wide characters count two, combining and control
/// characters none, and escape sequences (`ESC [ … final`, colour) nothing.
pub fn display_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // A control sequence: ESC [, parameters, then one final byte in @..=~.
            let mut rest = chars.clone();
            if rest.next() == Some('[') {
                for c in rest.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
                chars = rest;
            }
            continue;
        }
        width += c.width().unwrap_or(0);
    }
    width
}

/// `text` cut into lines of at most `width` columns, at spaces. Each line of `text` (split at
/// `\n`) is wrapped on its own and keeps its leading whitespace on its continuation lines; runs
/// of spaces inside a line are kept, and dropped where the line breaks. A word longer than the
/// width is left whole on a line of its own. Trailing whitespace is dropped.
pub fn lines(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let body = line.trim_start();
        let indent = line.strip_suffix(body).unwrap_or("");
        let room = width.saturating_sub(display_width(indent)).max(1);
        let mut current = String::from(indent);
        let mut used = 0;
        for (gap, word) in words(body) {
            let size = display_width(word);
            if used == 0 {
                // The first word of a line goes on it, however long.
                current.push_str(word);
                used = size;
            } else if used + display_width(gap) + size <= room {
                current.push_str(gap);
                current.push_str(word);
                used += display_width(gap) + size;
            } else {
                out.push(std::mem::replace(&mut current, String::from(indent)));
                current.push_str(word);
                used = size;
            }
        }
        if used == 0 {
            // A blank line stays blank.
            current.clear();
        }
        out.push(current);
    }
    out
}

/// The words of `text`, each with the whitespace before it.
fn words(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let word_at = rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
        let (gap, tail) = rest.split_at(word_at);
        let word_end = tail.find(char::is_whitespace).unwrap_or(tail.len());
        let (word, after) = tail.split_at(word_end);
        if !word.is_empty() {
            out.push((gap, word));
        }
        rest = after;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_one_line() {
        assert_eq!(lines("Esc cancels.", 80), ["Esc cancels."]);
    }

    #[test]
    fn lines_break_between_words() {
        assert_eq!(
            lines("the quick brown fox jumps over the lazy dog", 15),
            ["the quick brown", "fox jumps over", "the lazy dog"]
        );
    }

    #[test]
    fn every_line_fits_and_no_word_is_cut() {
        let text = "Door code PIN seems to ask for a password: servers must not ask for secrets \
                    in a form. Your typing is hidden; think twice before you send it.";
        for width in 12..60 {
            let wrapped = lines(text, width);
            for line in &wrapped {
                assert!(
                    display_width(line) <= width,
                    "{line:?} is wider than {width}"
                );
            }
            assert_eq!(
                wrapped.join(" ").split_whitespace().collect::<Vec<_>>(),
                text.split_whitespace().collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn a_line_may_fill_the_width_exactly() {
        assert_eq!(lines("abcde fghij", 11), ["abcde fghij"]);
        assert_eq!(lines("abcde fghij", 10), ["abcde", "fghij"]);
    }

    #[test]
    fn a_word_longer_than_the_width_stays_whole_on_its_own_line() {
        assert_eq!(
            lines("see https://example.com/a/very/long/path now", 12),
            ["see", "https://example.com/a/very/long/path", "now"]
        );
        assert_eq!(lines("abcdefghij", 4), ["abcdefghij"]);
    }

    #[test]
    fn indentation_is_kept_on_continuation_lines() {
        assert_eq!(
            lines("  one two three four", 10),
            ["  one two", "  three", "  four"]
        );
    }

    #[test]
    fn each_line_of_the_text_is_wrapped_on_its_own() {
        assert_eq!(
            lines("alpha beta gamma\n  delta epsilon\n\nzeta", 11),
            ["alpha beta", "gamma", "  delta", "  epsilon", "", "zeta"]
        );
    }

    #[test]
    fn spaces_inside_a_line_are_kept_and_trailing_ones_dropped() {
        assert_eq!(lines("URL:  x   ", 80), ["URL:  x"]);
        assert_eq!(lines("a  b", 3), ["a", "b"]);
    }

    #[test]
    fn empty_and_tiny_widths_do_not_loop() {
        assert_eq!(lines("", 10), [""]);
        assert_eq!(lines("a b", 0), ["a", "b"]);
        assert_eq!(lines("    ", 10), [""]);
    }

    #[test]
    fn wide_and_multi_byte_characters_count_by_display_width() {
        assert_eq!(display_width("héllo"), 5);
        assert_eq!(display_width("日本語"), 6);
        // Six columns each: two such words do not fit in 12 with the space between.
        assert_eq!(lines("日本語 日本語", 12), ["日本語", "日本語"]);
        assert_eq!(lines("日本語 日本語", 13), ["日本語 日本語"]);
        assert_eq!(lines("ça va très bien", 8), ["ça va", "très", "bien"]);
    }

    #[test]
    fn colour_takes_no_room() {
        let red = "\u{1b}[1;31mred\u{1b}[0m";
        assert_eq!(display_width(red), 3);
        assert_eq!(
            lines(&format!("{red} {red} {red}"), 7),
            [format!("{red} {red}"), String::from(red)]
        );
    }

    #[test]
    fn the_width_is_never_zero() {
        assert!(width() > 0);
    }
}
