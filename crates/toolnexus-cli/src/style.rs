//! Colour for what the person reads, where the terminal supports it and `NO_COLOR` is unset.

use std::io::IsTerminal;

/// How text for the person is styled.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    color: bool,
}

impl Style {
    /// Colour when standard error is a terminal, `NO_COLOR` is unset (or empty) and `TERM` is
    /// not `dumb`.
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        Style {
            color: !no_color && !dumb && std::io::stderr().is_terminal(),
        }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\u{1b}[{code}m{text}\u{1b}[0m")
        } else {
            String::from(text)
        }
    }

    /// Emphasis.
    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Secondary text.
    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    /// A host name to look at closely.
    pub fn host(&self, text: &str) -> String {
        self.paint("1;36", text)
    }

    /// A warning.
    pub fn warn(&self, text: &str) -> String {
        self.paint("33", text)
    }

    /// An error or a refusal.
    pub fn error(&self, text: &str) -> String {
        self.paint("1;31", text)
    }
}
