//! One line of text asked at the terminal with readline's keys, drawn as `inquire` draws its
//! text prompts (the same render configuration, so the same look).
//!
//! `inquire` 0.9 types the letter of any Ctrl or Alt chord (`Ctrl-A` writes `a`), and its key
//! handling, backends and terminal are private: text fields are asked here instead, on
//! crossterm. Ctrl-A and Ctrl-E go to the start and end of the line, Ctrl-B and Ctrl-F move by
//! a character, Alt-B and Alt-F by a word, Ctrl-K deletes to the end, Ctrl-U to the start,
//! Ctrl-W the word before the cursor, Alt-D the word after it, Ctrl-Y puts back what was last
//! deleted. No other chord types anything. Enter submits; Esc, Ctrl-G and Ctrl-D cancel;
//! Ctrl-C interrupts.

use std::io::{self, Write};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{
    Attribute, Color as TermColor, Print, SetAttribute, SetBackgroundColor, SetForegroundColor,
};
use crossterm::{cursor, queue, terminal};
use inquire::ui::{Attributes, Color, RenderConfig, StyleSheet};
use unicode_width::UnicodeWidthChar;

use crate::wrap;

/// A change to the line being typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// Types a character at the cursor.
    Insert(char),
    /// One character left (Left, Ctrl-B).
    Left,
    /// One character right (Right, Ctrl-F).
    Right,
    /// To the start of the line (Home, Ctrl-A).
    Home,
    /// To the end of the line (End, Ctrl-E).
    End,
    /// To the start of this or the previous word (Alt-B, Ctrl-Left).
    WordLeft,
    /// To the end of this or the next word (Alt-F, Ctrl-Right).
    WordRight,
    /// Deletes the character before the cursor (Backspace, Ctrl-H).
    Backspace,
    /// Deletes the character at the cursor (Delete).
    Delete,
    /// Deletes from the cursor to the end of the line (Ctrl-K).
    KillToEnd,
    /// Deletes from the start of the line to the cursor (Ctrl-U).
    KillToStart,
    /// Deletes the whitespace-separated word before the cursor (Ctrl-W).
    KillSpaceWord,
    /// Deletes the word before the cursor, up to punctuation (Alt-Backspace).
    KillWordBack,
    /// Deletes to the end of the word after the cursor (Alt-D, Ctrl-Delete).
    KillWordForward,
    /// Puts back the text last deleted by a kill (Ctrl-Y).
    Yank,
}

/// What a key does in a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Changes the line.
    Edit(Edit),
    /// Enter (or Ctrl-J): the line as it stands, if it is valid.
    Submit,
    /// Esc, Ctrl-G or Ctrl-D.
    Cancel,
    /// Ctrl-C.
    Interrupt,
    /// Any other key: nothing happens, and nothing is typed.
    Ignore,
}

/// What `key` does: readline's keys edit the line, a character without Ctrl or Alt is typed,
/// and every other chord is ignored.
pub fn action(key: KeyEvent) -> Action {
    let mods = key.modifiers;
    let ctrl = mods.contains(KeyModifiers::CONTROL);
    let alt = mods.intersects(KeyModifiers::ALT | KeyModifiers::META);
    let other = mods.intersects(KeyModifiers::SUPER | KeyModifiers::HYPER);
    let edit = Action::Edit;
    match key.code {
        KeyCode::Enter => Action::Submit,
        KeyCode::Esc => Action::Cancel,
        KeyCode::Char(c) if ctrl && !alt && !other => match c.to_ascii_lowercase() {
            'c' => Action::Interrupt,
            'd' | 'g' => Action::Cancel,
            'j' | 'm' => Action::Submit,
            'a' => edit(Edit::Home),
            'e' => edit(Edit::End),
            'b' => edit(Edit::Left),
            'f' => edit(Edit::Right),
            'h' => edit(Edit::Backspace),
            'k' => edit(Edit::KillToEnd),
            'u' => edit(Edit::KillToStart),
            'w' => edit(Edit::KillSpaceWord),
            'y' => edit(Edit::Yank),
            _ => Action::Ignore,
        },
        KeyCode::Char(c) if alt && !ctrl && !other => match c.to_ascii_lowercase() {
            'b' => edit(Edit::WordLeft),
            'f' => edit(Edit::WordRight),
            'd' => edit(Edit::KillWordForward),
            _ => Action::Ignore,
        },
        KeyCode::Char(c) if !ctrl && !alt && !other && !c.is_control() => edit(Edit::Insert(c)),
        // AltGr, which some terminals report as Ctrl-Alt: a character a letter key cannot
        // type by itself (`@`, `ą`) is typed; Ctrl-Alt with a letter or a digit is not.
        KeyCode::Char(c)
            if ctrl && alt && !other && !c.is_ascii_alphanumeric() && !c.is_control() =>
        {
            edit(Edit::Insert(c))
        }
        KeyCode::Backspace if ctrl || alt => edit(Edit::KillWordBack),
        KeyCode::Backspace => edit(Edit::Backspace),
        KeyCode::Delete if ctrl || alt => edit(Edit::KillWordForward),
        KeyCode::Delete => edit(Edit::Delete),
        KeyCode::Left if ctrl || alt => edit(Edit::WordLeft),
        KeyCode::Left => edit(Edit::Left),
        KeyCode::Right if ctrl || alt => edit(Edit::WordRight),
        KeyCode::Right => edit(Edit::Right),
        KeyCode::Home => edit(Edit::Home),
        KeyCode::End => edit(Edit::End),
        _ => Action::Ignore,
    }
}

/// The line being typed and where the cursor is in it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    chars: Vec<char>,
    /// An index into `chars`, at most its length.
    cursor: usize,
    /// What the last kill deleted, for Ctrl-Y.
    killed: Vec<char>,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric()
}

fn is_space(c: char) -> bool {
    c.is_whitespace()
}

impl Line {
    /// `text`, with the cursor at its end.
    pub fn new(text: &str) -> Line {
        let chars: Vec<char> = text.chars().collect();
        Line {
            cursor: chars.len(),
            chars,
            killed: Vec::new(),
        }
    }

    /// The text typed.
    pub fn text(&self) -> String {
        self.chars.iter().collect()
    }

    /// How many characters are before the cursor.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// How many characters the line has.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// Whether nothing is typed.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// Applies `edit`.
    pub fn edit(&mut self, edit: Edit) {
        let end = self.chars.len();
        match edit {
            Edit::Insert(c) => {
                self.chars.insert(self.cursor, c);
                self.cursor += 1;
            }
            Edit::Left => self.cursor = self.cursor.saturating_sub(1),
            Edit::Right => self.cursor = (self.cursor + 1).min(end),
            Edit::Home => self.cursor = 0,
            Edit::End => self.cursor = end,
            Edit::WordLeft => self.cursor = self.word_start(is_word),
            Edit::WordRight => self.cursor = self.word_end(),
            Edit::Backspace => {
                if self.cursor > 0 {
                    self.cursor -= 1;
                    self.chars.remove(self.cursor);
                }
            }
            Edit::Delete => {
                if self.cursor < end {
                    self.chars.remove(self.cursor);
                }
            }
            Edit::KillToEnd => self.kill(self.cursor, end),
            Edit::KillToStart => self.kill(0, self.cursor),
            Edit::KillSpaceWord => self.kill(self.word_start(|c| !is_space(c)), self.cursor),
            Edit::KillWordBack => self.kill(self.word_start(is_word), self.cursor),
            Edit::KillWordForward => self.kill(self.cursor, self.word_end()),
            Edit::Yank => {
                let killed = self.killed.clone();
                for c in killed {
                    self.edit(Edit::Insert(c));
                }
            }
        }
    }

    /// Deletes `from..to`, keeping it for Ctrl-Y; the cursor goes to `from`.
    fn kill(&mut self, from: usize, to: usize) {
        let to = to.min(self.chars.len());
        if from < to {
            self.killed = self.chars.drain(from..to).collect();
            self.cursor = from;
        }
    }

    /// Back from the cursor over what is not a word, then over the word (`word` says which
    /// characters make one).
    fn word_start(&self, word: impl Fn(char) -> bool) -> usize {
        let mut i = self.cursor;
        while i > 0 && self.chars.get(i - 1).is_some_and(|&c| !word(c)) {
            i -= 1;
        }
        while i > 0 && self.chars.get(i - 1).is_some_and(|&c| word(c)) {
            i -= 1;
        }
        i
    }

    /// On from the cursor over what is not a word, then over the word.
    fn word_end(&self) -> usize {
        let mut i = self.cursor;
        while self.chars.get(i).is_some_and(|&c| !is_word(c)) {
            i += 1;
        }
        while self.chars.get(i).is_some_and(|&c| is_word(c)) {
            i += 1;
        }
        i
    }
}

/// What pasted text types: the characters, a line break at its end dropped, other line breaks
/// and tabs as spaces, other control characters left out.
pub fn pasted(text: &str) -> impl Iterator<Item = char> + '_ {
    let text = text.trim_end_matches(['\r', '\n']);
    text.chars().filter_map(|c| match c {
        '\r' | '\n' | '\t' => Some(' '),
        c if c.is_control() => None,
        c => Some(c),
    })
}

/// One line to ask for.
#[derive(Debug, Clone, Copy)]
pub struct LinePrompt<'a> {
    /// The question, before the answer.
    pub label: &'a str,
    /// Shown below, in brackets, unless empty.
    pub help: &'a str,
    /// The text the line starts with.
    pub initial: &'a str,
    /// Whether what is typed shows as mask characters.
    pub masked: bool,
}

/// How a prompt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The line submitted, which the check accepted.
    Text(String),
    /// Esc, Ctrl-G or Ctrl-D.
    Cancelled,
    /// Ctrl-C.
    Interrupted,
}

impl LinePrompt<'_> {
    /// Asks at the terminal until a line `check` accepts (else its message shows above the
    /// line) is submitted, or the person cancels.
    pub fn ask(&self, check: impl Fn(&str) -> Result<(), String>) -> io::Result<Answer> {
        let config = RenderConfig::default();
        let raw = RawMode::on()?;
        let mut screen = Screen { row: 0 };
        let mut line = Line::new(self.initial);
        let mut error: Option<String> = None;
        let mut redraw = true;
        let answer = loop {
            if redraw {
                screen.draw(&self.frame(&config, &line, error.as_deref()), false)?;
            }
            redraw = true;
            let key = match event::read()? {
                Event::Key(key) if key.kind != KeyEventKind::Release => key,
                Event::Paste(text) => {
                    pasted(&text).for_each(|c| line.edit(Edit::Insert(c)));
                    continue;
                }
                Event::Resize(..) => continue,
                _ => {
                    redraw = false;
                    continue;
                }
            };
            match action(key) {
                Action::Edit(edit) => line.edit(edit),
                Action::Submit => match check(&line.text()) {
                    Ok(()) => break Answer::Text(line.text()),
                    Err(message) => error = Some(message),
                },
                Action::Cancel => break Answer::Cancelled,
                Action::Interrupt => break Answer::Interrupted,
                Action::Ignore => redraw = false,
            }
        };
        screen.draw(&self.last_frame(&config, &answer), true)?;
        drop(raw);
        Ok(answer)
    }

    fn prompt_line<'c>(&self, config: &RenderConfig<'c>, prefix: (&'c str, StyleSheet)) -> Row {
        let mut row = vec![(String::from(prefix.0), prefix.1), plain(" ")];
        if !self.label.is_empty() {
            row.push((String::from(self.label), config.prompt));
            row.push(plain(" "));
        }
        row
    }

    /// The frame while the line is typed: the check's message, the line, the help.
    fn frame(&self, config: &RenderConfig<'_>, line: &Line, error: Option<&str>) -> Frame {
        let width = wrap::width();
        let mut rows = Vec::new();
        if let Some(error) = error {
            let e = &config.error_message;
            let prefix = e.prefix.content;
            let indent = " ".repeat(wrap::display_width(prefix) + 1);
            for (i, text) in wrap::lines(error, width.saturating_sub(indent.len()))
                .into_iter()
                .enumerate()
            {
                rows.push(if i == 0 {
                    vec![
                        (String::from(prefix), e.prefix.style),
                        (String::from(" "), e.separator),
                        (text, e.message),
                    ]
                } else {
                    vec![plain(&indent), (text, e.message)]
                });
            }
        }
        let prefix = &config.prompt_prefix;
        let mut prompt = self.prompt_line(config, (prefix.content, prefix.style));
        let before: usize = prompt.iter().map(|(t, _)| t.chars().count()).sum();
        let shown: String = if self.masked {
            std::iter::repeat_n(config.password_mask, line.len()).collect()
        } else {
            line.text()
                .chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .collect()
        };
        prompt.push((shown, config.text_input));
        // A space after the text, for the cursor to stand on at its end.
        prompt.push(plain(" "));
        let cursor = (rows.len(), before + line.cursor());
        rows.push(prompt);
        if !self.help.is_empty() {
            let style = config.help_message;
            let help = format!("{}]", self.help);
            for (i, text) in wrap::lines(&help, width.saturating_sub(1))
                .into_iter()
                .enumerate()
            {
                let open = if i == 0 { "[" } else { " " };
                rows.push(vec![(format!("{open}{text}"), style)]);
            }
        }
        Frame {
            rows,
            cursor: Some(cursor),
            width,
        }
    }

    /// What stays on the screen once the prompt ended: the answer, or that it was cancelled.
    fn last_frame(&self, config: &RenderConfig<'_>, answer: &Answer) -> Frame {
        let row = match answer {
            Answer::Text(text) => {
                let prefix = &config.answered_prompt_prefix;
                let mut row = self.prompt_line(config, (prefix.content, prefix.style));
                let shown = if self.masked {
                    String::from("********")
                } else {
                    text.clone()
                };
                row.push((shown, config.answer));
                row
            }
            Answer::Cancelled | Answer::Interrupted => {
                let prefix = &config.prompt_prefix;
                let mut row = self.prompt_line(config, (prefix.content, prefix.style));
                let cancelled = &config.canceled_prompt_indicator;
                row.push((String::from(cancelled.content), cancelled.style));
                row
            }
        };
        Frame {
            rows: vec![row],
            cursor: None,
            width: wrap::width(),
        }
    }
}

/// Pieces of text, each with its style, on one line.
type Row = Vec<(String, StyleSheet)>;

fn plain(text: &str) -> (String, StyleSheet) {
    (String::from(text), StyleSheet::empty())
}

/// What a prompt shows.
struct Frame {
    rows: Vec<Row>,
    /// The row and the character in it where the cursor stands; `None` for after the end.
    cursor: Option<(usize, usize)>,
    /// The terminal's width when the frame was made.
    width: usize,
}

/// Where text lands on the terminal: `(row, column)` of the cursor, and how many screen rows
/// the frame takes.
fn layout(frame: &Frame) -> ((usize, usize), usize) {
    let width = frame.width.max(1);
    let mut row = 0;
    let mut at = None;
    for (r, pieces) in frame.rows.iter().enumerate() {
        if r > 0 {
            row += 1;
        }
        let mut col = 0;
        for (index, c) in pieces.iter().flat_map(|(text, _)| text.chars()).enumerate() {
            let w = c.width().unwrap_or(0);
            if col + w > width && col > 0 {
                row += 1;
                col = 0;
            }
            if frame.cursor == Some((r, index)) {
                at = Some((row, col));
            }
            col += w;
        }
    }
    (at.unwrap_or((row, 0)), row + 1)
}

/// The prompt's place on the screen: a frame is drawn over the last one.
struct Screen {
    /// The screen row, from the frame's top, the cursor is on.
    row: usize,
}

impl Screen {
    /// Draws `frame` over the last one; a `last` frame leaves the cursor on the line below.
    fn draw(&mut self, frame: &Frame, last: bool) -> io::Result<()> {
        let mut out = io::stderr().lock();
        queue!(out, cursor::Hide)?;
        if let Some(up) = u16::try_from(self.row).ok().filter(|&n| n > 0) {
            queue!(out, cursor::MoveUp(up))?;
        }
        queue!(
            out,
            Print("\r"),
            terminal::Clear(terminal::ClearType::FromCursorDown)
        )?;
        for (i, row) in frame.rows.iter().enumerate() {
            if i > 0 {
                queue!(out, Print("\r\n"))?;
            }
            for (text, style) in row {
                paint(&mut out, text, *style)?;
            }
        }
        let ((row, col), rows) = layout(frame);
        if last {
            queue!(out, Print("\r\n"))?;
            self.row = 0;
        } else {
            let up = rows.saturating_sub(1).saturating_sub(row);
            if let Some(up) = u16::try_from(up).ok().filter(|&n| n > 0) {
                queue!(out, cursor::MoveUp(up))?;
            }
            queue!(
                out,
                cursor::MoveToColumn(u16::try_from(col).unwrap_or(u16::MAX))
            )?;
            self.row = row;
        }
        queue!(out, cursor::Show)?;
        out.flush()
    }
}

fn paint(out: &mut impl Write, text: &str, style: StyleSheet) -> io::Result<()> {
    if let Some(fg) = style.fg {
        queue!(out, SetForegroundColor(term_color(fg)))?;
    }
    if let Some(bg) = style.bg {
        queue!(out, SetBackgroundColor(term_color(bg)))?;
    }
    if style.att.contains(Attributes::BOLD) {
        queue!(out, SetAttribute(Attribute::Bold))?;
    }
    if style.att.contains(Attributes::ITALIC) {
        queue!(out, SetAttribute(Attribute::Italic))?;
    }
    queue!(out, Print(text))?;
    if !style.is_empty() {
        queue!(out, SetAttribute(Attribute::Reset))?;
    }
    Ok(())
}

/// The crossterm colour `inquire` draws `color` with.
fn term_color(color: Color) -> TermColor {
    match color {
        Color::Black => TermColor::Black,
        Color::LightRed => TermColor::Red,
        Color::DarkRed => TermColor::DarkRed,
        Color::LightGreen => TermColor::Green,
        Color::DarkGreen => TermColor::DarkGreen,
        Color::LightYellow => TermColor::Yellow,
        Color::DarkYellow => TermColor::DarkYellow,
        Color::LightBlue => TermColor::Blue,
        Color::DarkBlue => TermColor::DarkBlue,
        Color::LightMagenta => TermColor::Magenta,
        Color::DarkMagenta => TermColor::DarkMagenta,
        Color::LightCyan => TermColor::Cyan,
        Color::DarkCyan => TermColor::DarkCyan,
        Color::White => TermColor::White,
        Color::Grey => TermColor::Grey,
        Color::DarkGrey => TermColor::DarkGrey,
        Color::Rgb { r, g, b } => TermColor::Rgb { r, g, b },
        Color::AnsiValue(v) => TermColor::AnsiValue(v),
    }
}

/// Raw mode and bracketed paste for as long as it lives.
struct RawMode;

impl RawMode {
    fn on() -> io::Result<RawMode> {
        terminal::enable_raw_mode()?;
        if let Err(e) = crossterm::execute!(io::stderr(), event::EnableBracketedPaste) {
            let _ = terminal::disable_raw_mode();
            return Err(e);
        }
        Ok(RawMode)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        let _ = crossterm::execute!(io::stderr(), event::DisableBracketedPaste, cursor::Show);
        let _ = terminal::disable_raw_mode();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    fn ctrl(c: char) -> KeyEvent {
        key(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    fn alt(c: char) -> KeyEvent {
        key(KeyCode::Char(c), KeyModifiers::ALT)
    }

    /// Types `keys` into a line starting as `start`: the text and where the cursor ends.
    fn typed(start: &str, keys: &[KeyEvent]) -> (String, usize) {
        let mut line = Line::new(start);
        for &k in keys {
            if let Action::Edit(edit) = action(k) {
                line.edit(edit);
            }
        }
        (line.text(), line.cursor())
    }

    fn text(s: &str) -> Vec<KeyEvent> {
        s.chars()
            .map(|c| key(KeyCode::Char(c), KeyModifiers::NONE))
            .collect()
    }

    fn keys(parts: &[&[KeyEvent]]) -> Vec<KeyEvent> {
        parts.concat()
    }

    #[test]
    fn no_control_or_alt_chord_types_its_letter() {
        for c in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
            for mods in [
                KeyModifiers::CONTROL,
                KeyModifiers::ALT,
                KeyModifiers::CONTROL | KeyModifiers::ALT,
                KeyModifiers::CONTROL | KeyModifiers::SHIFT,
                KeyModifiers::SUPER,
            ] {
                let a = action(key(KeyCode::Char(c), mods));
                assert!(
                    !matches!(a, Action::Edit(Edit::Insert(_))),
                    "{mods:?}+{c} types: {a:?}"
                );
            }
        }
        assert_eq!(
            action(key(KeyCode::Char(' '), KeyModifiers::CONTROL)),
            Action::Ignore
        );
        assert_eq!(
            action(key(KeyCode::Char('\u{7}'), KeyModifiers::NONE)),
            Action::Ignore
        );
        assert_eq!(
            action(key(KeyCode::Tab, KeyModifiers::NONE)),
            Action::Ignore
        );
    }

    #[test]
    fn altgr_characters_are_typed() {
        let altgr = KeyModifiers::CONTROL | KeyModifiers::ALT;
        assert_eq!(
            action(key(KeyCode::Char('@'), altgr)),
            Action::Edit(Edit::Insert('@'))
        );
        assert_eq!(
            action(key(KeyCode::Char('ą'), altgr)),
            Action::Edit(Edit::Insert('ą'))
        );
    }

    #[test]
    fn characters_are_typed_with_or_without_shift() {
        assert_eq!(
            action(key(KeyCode::Char('A'), KeyModifiers::SHIFT)),
            Action::Edit(Edit::Insert('A'))
        );
        assert_eq!(
            action(key(KeyCode::Char('é'), KeyModifiers::NONE)),
            Action::Edit(Edit::Insert('é'))
        );
        assert_eq!(typed("", &text("a<b ç")), (String::from("a<b ç"), 5));
    }

    #[test]
    fn enter_submits_and_esc_ctrl_g_ctrl_d_cancel_and_ctrl_c_interrupts() {
        assert_eq!(
            action(key(KeyCode::Enter, KeyModifiers::NONE)),
            Action::Submit
        );
        assert_eq!(action(ctrl('j')), Action::Submit);
        assert_eq!(
            action(key(KeyCode::Esc, KeyModifiers::NONE)),
            Action::Cancel
        );
        assert_eq!(action(ctrl('g')), Action::Cancel);
        assert_eq!(action(ctrl('d')), Action::Cancel);
        assert_eq!(action(ctrl('c')), Action::Interrupt);
    }

    #[test]
    fn ctrl_a_and_ctrl_e_go_to_the_start_and_the_end() {
        let k = keys(&[&text("Lovelace"), &[ctrl('a')], &text("Ada ")]);
        assert_eq!(typed("", &k), (String::from("Ada Lovelace"), 4));
        let k = keys(&[&k, &[ctrl('e')], &text("!")]);
        assert_eq!(typed("", &k), (String::from("Ada Lovelace!"), 13));
    }

    #[test]
    fn ctrl_b_and_ctrl_f_move_by_a_character_within_the_line() {
        assert_eq!(typed("ab", &[ctrl('b')]), (String::from("ab"), 1));
        assert_eq!(
            typed("ab", &[ctrl('b'), ctrl('b'), ctrl('b')]),
            (String::from("ab"), 0)
        );
        assert_eq!(
            typed("ab", &[ctrl('a'), ctrl('f'), ctrl('f'), ctrl('f')]),
            (String::from("ab"), 2)
        );
        let arrows = [
            key(KeyCode::Left, KeyModifiers::NONE),
            key(KeyCode::Char('x'), KeyModifiers::NONE),
            key(KeyCode::Home, KeyModifiers::NONE),
            key(KeyCode::Right, KeyModifiers::NONE),
            key(KeyCode::Char('y'), KeyModifiers::NONE),
            key(KeyCode::End, KeyModifiers::NONE),
        ];
        assert_eq!(typed("ab", &arrows), (String::from("ayxb"), 4));
    }

    #[test]
    fn ctrl_k_deletes_to_the_end_and_ctrl_u_to_the_start() {
        assert_eq!(
            typed("hello world", &[alt('b'), ctrl('k')]),
            (String::from("hello "), 6)
        );
        assert_eq!(
            typed("hello world", &[alt('b'), ctrl('u')]),
            (String::from("world"), 0)
        );
        assert_eq!(typed("abc", &[ctrl('k')]), (String::from("abc"), 3));
        assert_eq!(
            typed("abc", &[ctrl('a'), ctrl('u')]),
            (String::from("abc"), 0)
        );
    }

    #[test]
    fn ctrl_w_deletes_the_word_before_the_cursor_up_to_whitespace() {
        assert_eq!(
            typed("git push origin", &[ctrl('w')]),
            (String::from("git push "), 9)
        );
        // Trailing spaces go with the word, and punctuation is part of it.
        assert_eq!(
            typed("see https://x.example/a  ", &[ctrl('w')]),
            (String::from("see "), 4)
        );
        assert_eq!(
            typed("one two", &[ctrl('w'), ctrl('w'), ctrl('w')]),
            (String::new(), 0)
        );
        // In the middle of a word: the part before the cursor.
        assert_eq!(
            typed("abc def", &[ctrl('b'), ctrl('w')]),
            (String::from("abc f"), 4)
        );
    }

    #[test]
    fn word_moves_and_word_kills_stop_at_punctuation() {
        assert_eq!(
            typed("ada@example.com", &[alt('b')]),
            (String::from("ada@example.com"), 12)
        );
        assert_eq!(
            typed("ada@example.com", &[alt('b'), alt('b')]),
            (String::from("ada@example.com"), 4)
        );
        assert_eq!(
            typed("ada@example.com", &[ctrl('a'), alt('f'), alt('f')]),
            (String::from("ada@example.com"), 11)
        );
        assert_eq!(
            typed(
                "ada@example.com",
                &[key(KeyCode::Backspace, KeyModifiers::ALT)]
            ),
            (String::from("ada@example."), 12)
        );
        assert_eq!(
            typed("ada@example.com", &[ctrl('a'), alt('d')]),
            (String::from("@example.com"), 0)
        );
        assert_eq!(
            typed(
                "a b",
                &[
                    key(KeyCode::Left, KeyModifiers::CONTROL),
                    key(KeyCode::Delete, KeyModifiers::CONTROL)
                ]
            ),
            (String::from("a "), 2)
        );
    }

    #[test]
    fn ctrl_y_puts_back_what_was_killed() {
        assert_eq!(
            typed("one two", &[ctrl('w'), ctrl('a'), ctrl('y')]),
            (String::from("twoone "), 3)
        );
        assert_eq!(typed("x", &[ctrl('y')]), (String::from("x"), 1));
    }

    #[test]
    fn backspace_and_delete_remove_one_character() {
        let k = [
            key(KeyCode::Backspace, KeyModifiers::NONE),
            ctrl('a'),
            key(KeyCode::Delete, KeyModifiers::NONE),
            ctrl('h'),
        ];
        assert_eq!(typed("abcd", &k), (String::from("bc"), 0));
        assert_eq!(
            typed("", &[key(KeyCode::Backspace, KeyModifiers::NONE)]),
            (String::new(), 0)
        );
    }

    #[test]
    fn other_control_keys_change_nothing() {
        let k: Vec<KeyEvent> = "lnopqrstvxz".chars().map(ctrl).collect();
        assert_eq!(typed("abc", &k), (String::from("abc"), 3));
    }

    #[test]
    fn multi_byte_text_is_edited_by_character() {
        assert_eq!(
            typed("日本 語", &[ctrl('w'), ctrl('b'), ctrl('h')]),
            (String::from("日 "), 1)
        );
    }

    #[test]
    fn a_paste_is_typed_on_one_line() {
        assert_eq!(
            pasted("a\tb\nc\u{7}d\r\n").collect::<String>(),
            String::from("a b cd")
        );
    }

    fn frame(rows: &[&str], cursor: Option<(usize, usize)>, width: usize) -> Frame {
        Frame {
            rows: rows.iter().map(|r| vec![plain(r)]).collect(),
            cursor,
            width,
        }
    }

    #[test]
    fn the_cursor_is_placed_where_the_terminal_wraps_the_line() {
        // "? Name abc " on 80 columns: one row, the cursor after "abc".
        assert_eq!(
            layout(&frame(&["? Name abc "], Some((0, 10)), 80)),
            ((0, 10), 1)
        );
        // An error above and help below.
        assert_eq!(
            layout(&frame(&["# no", "? N x ", "[help]"], Some((1, 4)), 80)),
            ((1, 4), 3)
        );
        // Ten columns: "? N " then 7 characters and the cursor's space wrap once.
        assert_eq!(
            layout(&frame(&["? N abcdefg ", "[h]"], Some((0, 11)), 10)),
            ((1, 1), 3)
        );
        // A line that fills its row exactly takes one row; the cursor at its end goes on.
        assert_eq!(
            layout(&frame(&["? N abcde ", "[h]"], Some((0, 9)), 10)),
            ((0, 9), 2)
        );
        assert_eq!(
            layout(&frame(&["? N abcdef ", "[h]"], Some((0, 10)), 10)),
            ((1, 0), 3)
        );
        // A wide character that does not fit in the last column starts the next row.
        assert_eq!(
            layout(&frame(&["? N abcde日 "], Some((0, 9)), 10)),
            ((1, 0), 2)
        );
        assert_eq!(layout(&frame(&["? N x"], None, 10)), ((0, 0), 1));
    }
}
