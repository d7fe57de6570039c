//! Server text on a terminal: `terminal_text` and `terminal_json`, the core's one rule for
//! what is safe to print (`toolnexus_core::terminal`).

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::PyString;
use toolnexus_core::terminal::{self, LineBreaks};

use crate::errors::{OrRaise, named};
use crate::text::str_of;

/// `text` as it is safe to show on a terminal: every control character, escape sequence, bidi
/// control and invisible character written as a visible escape (`\u{1b}`), so what a person
/// reads is exactly what the server sent and the terminal obeys none of it.
///
/// `line_breaks` is `"keep"` for a block of text (a message, a description: line feeds, CR LF
/// and tabs stay) or `"show"` for one line (a label, a name, a title: they are shown as `\n`,
/// `\r\n` and `\t`); another name raises `InvalidValueError`. Text with nothing to escape is
/// returned as the same `str`.
#[pyfunction]
#[pyo3(signature = (text, line_breaks = None), text_signature = "(text, line_breaks='keep')")]
pub(crate) fn terminal_text<'py>(
    text: &Bound<'py, PyAny>,
    line_breaks: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = text.py();
    let breaks = match line_breaks {
        None => LineBreaks::Keep,
        Some(name) => {
            let name = str_of(name, "line_breaks").or_raise(py)?;
            named(
                py,
                name,
                LineBreaks::from_name,
                "a way to show line breaks (\"keep\" or \"show\")",
            )?
        }
    };
    let shown = terminal::terminal_text(str_of(text, "text").or_raise(py)?, breaks);
    Ok(same_or_new(text, shown))
}

/// JSON text as it is safe to show on a terminal, and still the same JSON: every character
/// `terminal_text` would escape that JSON leaves raw (DEL, C1 controls, bidi controls, the line
/// and paragraph separators, invisible characters) written as a `\uXXXX` escape. Print
/// `to_json`'s output through it. Text with nothing to escape is returned as the same `str`.
#[pyfunction]
pub(crate) fn terminal_json<'py>(json: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = json.py();
    let shown = terminal::terminal_json(str_of(json, "json").or_raise(py)?);
    Ok(same_or_new(json, shown))
}

/// The argument itself when the core borrowed it unchanged, else a new `str`.
fn same_or_new<'py>(argument: &Bound<'py, PyAny>, shown: Cow<'_, str>) -> Bound<'py, PyAny> {
    match shown {
        Cow::Borrowed(_) => argument.clone(),
        Cow::Owned(text) => PyString::new(argument.py(), &text).into_any(),
    }
}
