//! The person at the terminal: each field of a form asked in turn with `inquire`, a review
//! screen, and URL consent. Everything is written to the terminal (standard error), never to
//! standard output, which carries only the reply.

use std::fs::OpenOptions;
use std::io::IsTerminal;

use inquire::list_option::ListOption;
use inquire::validator::Validation;
use inquire::{InquireError, MultiSelect, Select};
use toolnexus_core::form::{Form, FormField, Widget, parse_field_input};
use toolnexus_core::url_review::{Severity, Verdict};
use toolnexus_core::{Error, UrlReview, Value};

use crate::ask::{Ask, Asker, Reply};
use crate::form_steps::{Choice, FormFlow, Outcome, Step, show};
use crate::line::{Answer, LinePrompt};
use crate::printer::{self, block, is_plain, one_line};
use crate::style::Style;
use crate::wrap;

/// Asks a person at the terminal.
#[derive(Debug, Clone, Copy)]
pub struct Terminal {
    style: Style,
}

/// The person stopped: Esc, Ctrl-C, or the end of input. The form is cancelled.
struct Stopped;

/// What was entered for a field.
enum Entry {
    /// A value, or `None` for a field left blank.
    Value(Option<Value>),
    /// Back to the previous field.
    Back,
}

/// What a person types, or picks, to go back one field.
const BACK: &str = "<";
/// The option that goes back one field in a list.
const BACK_OPTION: &str = "← back";

impl From<InquireError> for Stopped {
    fn from(_: InquireError) -> Stopped {
        Stopped
    }
}

impl Terminal {
    /// The terminal, if there is one to ask on: standard error must be a terminal and the
    /// controlling terminal must open (keys are read from it, so standard input may be a file).
    pub fn open() -> Option<Terminal> {
        let tty = OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .is_ok();
        (tty && std::io::stderr().is_terminal()).then(|| Terminal {
            style: Style::detect(),
        })
    }

    fn header(&self, ask: &Ask<'_>, what: &str) {
        let s = &self.style;
        printer::screen("");
        let who = ask.who.map_or_else(
            || String::from("The server"),
            |w| format!("The server {}", s.bold(&one_line(w))),
        );
        let place = match (ask.position, ask.key.map(one_line)) {
            ((1, 1), None) => String::new(),
            ((1, 1), Some(key)) => format!(" (input request {key})"),
            ((n, count), Some(key)) => format!(" (request {n} of {count}: {key})"),
            ((n, count), None) => format!(" (request {n} of {count})"),
        };
        say("", &format!("{} {}{place}:", who, s.dim(what)), |l| {
            l.to_owned()
        });
        let prompt = ask.request.prompt();
        if !prompt.is_empty() {
            say("  ", &block(prompt), |l| s.bold(l));
        }
        say("  ", "Esc, Ctrl-C or Ctrl-D cancels.", |l| s.dim(l));
    }

    fn refused(&self, refused: Option<&Error>) {
        let Some(error) = refused else {
            return;
        };
        let s = &self.style;
        if error.violations().is_empty() {
            say("", &block(error.message()), |l| s.error(l));
        } else {
            say("", "The answers do not fit the form:", |l| s.error(l));
            for v in error.violations() {
                say("  ", &block(v.message()), |l| s.error(l));
            }
        }
    }

    fn field(&self, flow: &FormFlow<'_>, index: usize) -> Result<Entry, Stopped> {
        let Some(field) = flow.form().fields().get(index) else {
            return Ok(Entry::Value(None));
        };
        let s = &self.style;
        let total = flow.form().fields().len();
        let star = if field.required() { " *" } else { "" };
        let label = format!("{}{star} ({}/{total})", one_line(field.label()), index + 1);
        let mut help: Vec<String> = Vec::new();
        if let Some(d) = field.description() {
            help.push(block(d).into_owned());
        }
        if let Some(h) = field.hint() {
            help.push(one_line(&h).into_owned());
        }
        if !field.required() {
            help.push(String::from("optional: leave empty to skip"));
        }
        let left = flow.required_left();
        if left > 0 {
            help.push(format!("{left} required left"));
        }
        let back = index > 0;
        if back
            && !matches!(
                field.widget(),
                Widget::SingleSelect | Widget::MultiSelect | Widget::Toggle
            )
        {
            help.push(format!("{BACK} alone goes back"));
        }
        let help = help.join(" · ");
        if let Some(kind) = field.secret_kind() {
            let warning = format!(
                "⚠ {} seems to ask for {}: servers must not ask for secrets in a form. \
                 Your typing is hidden; think twice before you send it.",
                one_line(field.label()),
                kind.describe()
            );
            say("", &warning, |l| s.warn(l));
        }
        let current = flow.value(index).cloned().or_else(|| field.default_value());
        let prompt = Prompt {
            field,
            label: &label,
            help: &help,
            current: current.as_ref(),
            back,
        };
        match field.widget() {
            Widget::Toggle => toggle(&prompt),
            Widget::SingleSelect => single_select(&prompt),
            Widget::MultiSelect => multi_select(&prompt),
            _ => text(&prompt),
        }
    }

    fn review(&self, flow: &mut FormFlow<'_>) -> Result<Option<Outcome>, Stopped> {
        let s = &self.style;
        let form = flow.form();
        printer::screen("");
        printer::screen(&s.bold("Review your answers:"));
        let defaults = form.defaults();
        for (i, field) in form.fields().iter().enumerate() {
            let shown = match (flow.value(i), defaults.get(field.name())) {
                (Some(_), _) if field.sensitive() => String::from("••••••"),
                (Some(v), _) => one_line(&show(field, v)).into_owned(),
                (None, Some(d)) => format!("{} {}", one_line(&show(field, d)), s.dim("(default)")),
                (None, None) => s.dim("(empty)"),
            };
            say(
                "  ",
                &format!("{}: {shown}", one_line(field.label())),
                |l| l.to_owned(),
            );
        }
        let problems = flow.problems();
        for v in &problems {
            say("  ", &block(v.message()), |l| s.error(l));
        }
        let mut options = Vec::new();
        if problems.is_empty() {
            options.push("Accept and send");
        }
        if !form.fields().is_empty() {
            options.push("Change an answer");
        }
        options.push("Decline");
        options.push("Cancel");
        let picked = Select::new("What now?", options)
            .without_filtering()
            .with_help_message(&boxed(
                "Decline tells the server no; Cancel dismisses the request",
            ))
            .prompt()?;
        let choice = match picked {
            "Accept and send" => Choice::Accept,
            "Change an answer" => {
                let labels: Vec<String> = form
                    .fields()
                    .iter()
                    .enumerate()
                    .map(|(i, f)| format!("{}. {}", i + 1, one_line(f.label())))
                    .collect();
                let picked = Select::new("Which answer?", labels).raw_prompt()?;
                Choice::Change(picked.index)
            }
            "Decline" => Choice::Decline,
            _ => Choice::Cancel,
        };
        Ok(flow.choose(choice))
    }
}

impl Asker for Terminal {
    fn interactive(&self) -> bool {
        true
    }

    fn form(&mut self, ask: &Ask<'_>, form: &Form, refused: Option<&Error>) -> Option<Reply> {
        self.header(ask, "asks you to fill in a form");
        for problem in form.problems() {
            say("  ", &format!("note: {}", block(problem.message())), |l| {
                self.style.dim(l)
            });
        }
        self.refused(refused);
        let mut flow = FormFlow::new(form);
        let outcome = loop {
            let step = match flow.step() {
                Step::Field(i) => self.field(&flow, i).map(|entry| {
                    match entry {
                        Entry::Value(v) => flow.enter(v),
                        Entry::Back => flow.back(),
                    }
                    None
                }),
                Step::Review => self.review(&mut flow),
            };
            match step {
                Ok(Some(outcome)) => break outcome,
                Ok(None) => {}
                Err(Stopped) => break Outcome::Cancel,
            }
        };
        Some(match outcome {
            Outcome::Accept(content) => Reply::accept(Some(content)),
            Outcome::Decline => Reply::decline(),
            Outcome::Cancel => {
                printer::screen(&self.style.dim("Cancelled."));
                Reply::cancel("cancelled")
            }
        })
    }

    fn url(&mut self, ask: &Ask<'_>, review: &UrlReview, refused: Option<&Error>) -> Option<Reply> {
        self.link(ask, review, refused, false)
    }

    fn authorization(
        &mut self,
        ask: &Ask<'_>,
        review: &UrlReview,
        refused: Option<&Error>,
    ) -> Option<Reply> {
        self.link(ask, review, refused, true)
    }
}

impl Terminal {
    /// The consent screen of a link: the URL, its host and the review's findings, then
    /// consent, decline or cancel. `opened` says toolnexus opens it itself once consented to
    /// (an authorization), rather than leaving it to the person.
    fn link(
        &self,
        ask: &Ask<'_>,
        review: &UrlReview,
        refused: Option<&Error>,
        opened: bool,
    ) -> Option<Reply> {
        let s = &self.style;
        if opened {
            self.header(ask, "needs you to sign in before toolnexus can use it");
        } else {
            self.header(ask, "asks you to open a link");
        }
        self.refused(refused);
        printer::screen(&format!("  URL:  {}", one_line(review.url())));
        match (review.host(), review.host_ascii()) {
            (Some(host), Some(ascii)) if host != ascii => printer::screen(&format!(
                "  Host: {}  (as sent: {})",
                s.host(&one_line(host)),
                s.host(&one_line(ascii))
            )),
            (Some(host), _) => printer::screen(&format!("  Host: {}", s.host(&one_line(host)))),
            (None, _) => {}
        }
        for finding in review.findings() {
            let line = format!("{}: {}", finding.code(), block(finding.message()));
            match finding.severity() {
                Severity::Reject => say("  ", &format!("✖ {line}"), |l| s.error(l)),
                _ => say("  ", &format!("⚠ {line}"), |l| s.warn(l)),
            }
        }
        let (note, consent) = if opened {
            (
                "If you agree, toolnexus opens the link in your browser; once you sign in \
                 there, the browser comes back to toolnexus on this computer.",
                "Open it and sign in (consent)",
            )
        } else {
            (
                "toolnexus never opens or fetches the link: open it yourself if you agree.",
                "I will open it (consent)",
            )
        };
        say("  ", note, |l| s.dim(l));
        let reject = review.verdict() == Verdict::Reject;
        let mut options = Vec::new();
        if reject {
            say(
                "  ",
                "This link is refused: it can only be declined or cancelled.",
                |l| s.error(l),
            );
        } else {
            options.push(consent);
        }
        options.push("Decline");
        options.push("Cancel");
        let picked = Select::new("Open this link?", options)
            .without_filtering()
            .prompt();
        Some(match picked {
            Ok(chosen) if chosen == consent => Reply::accept(None),
            Ok("Decline") => Reply::decline(),
            _ => Reply::cancel("cancelled"),
        })
    }
}

/// Prints `text` for the person (on standard error, through the printer), every piece of
/// server text in it shown by the rule already, wrapped at word boundaries to the
/// terminal's width, `indent` before every line and each line painted by `paint`.
fn say(indent: &str, text: &str, paint: impl Fn(&str) -> String) {
    let width = wrap::width().saturating_sub(wrap::display_width(indent));
    for line in wrap::lines(text, width) {
        if line.is_empty() {
            printer::screen("");
        } else {
            printer::screen(&format!("{indent}{}", paint(&line)));
        }
    }
}

/// `help` wrapped at word boundaries for the help line of an `inquire` list, which puts it in
/// brackets: its continuation lines start under the first character after the `[`.
fn boxed(help: &str) -> String {
    wrap::lines(help, wrap::width().saturating_sub(2)).join("\n ")
}

/// The text of `value` for pre-filling a text box. A value the rule would change (a default
/// a server wrote with a control or a bidi character in it) is not pre-filled: the box would
/// show something else than it holds. Left empty, the field still gets its default.
fn initial(value: Option<&Value>) -> String {
    let text = match value {
        Some(Value::String(s)) => s.to_string(),
        Some(other) => other.to_json(),
        None => String::new(),
    };
    if is_plain(&text) { text } else { String::new() }
}

/// One field to ask: what to show and what it holds so far.
struct Prompt<'a> {
    field: &'a FormField,
    label: &'a str,
    help: &'a str,
    current: Option<&'a Value>,
    /// Whether there is a field to go back to.
    back: bool,
}

/// A text box, with readline's keys (see [`crate::line`]); a secret is masked and starts
/// empty.
fn text(p: &Prompt<'_>) -> Result<Entry, Stopped> {
    let check = |input: &str| {
        if p.back && input == BACK {
            return Ok(());
        }
        parse_field_input(p.field, input)
            .map(|_| ())
            .map_err(|e| String::from(e.message()))
    };
    let masked = p.field.sensitive();
    let start = if masked {
        String::new()
    } else {
        initial(p.current)
    };
    let prompt = LinePrompt {
        label: p.label,
        help: p.help,
        initial: &start,
        masked,
    };
    let typed = match prompt.ask(check) {
        Ok(Answer::Text(typed)) => typed,
        Ok(Answer::Cancelled | Answer::Interrupted) | Err(_) => return Err(Stopped),
    };
    if p.back && typed == BACK {
        return Ok(Entry::Back);
    }
    // The validator accepted it, so it reads.
    Ok(Entry::Value(
        parse_field_input(p.field, &typed).ok().flatten(),
    ))
}

/// A list to pick one item of, with "leave empty" for an optional field and "back" where
/// there is a field to go back to: the index picked among `items`, `None` for empty.
fn pick(
    p: &Prompt<'_>,
    items: Vec<String>,
    start: usize,
) -> Result<Option<Option<usize>>, Stopped> {
    let count = items.len();
    let mut labels = items;
    let empty = (!p.field.required()).then(|| {
        labels.push(String::from("(leave empty)"));
        labels.len() - 1
    });
    let back = p.back.then(|| {
        labels.push(String::from(BACK_OPTION));
        labels.len() - 1
    });
    let help = boxed(p.help);
    let picked = Select::new(p.label, labels)
        .with_help_message(&help)
        .with_starting_cursor(start)
        .raw_prompt()?;
    Ok(match picked.index {
        i if i < count => Some(Some(i)),
        i if Some(i) == empty => Some(None),
        i if Some(i) == back => None,
        _ => Some(None),
    })
}

fn toggle(p: &Prompt<'_>) -> Result<Entry, Stopped> {
    let start = match p.current.and_then(Value::as_bool) {
        Some(false) => 1,
        _ => 0,
    };
    let items = vec![String::from("yes"), String::from("no")];
    Ok(match pick(p, items, start)? {
        None => Entry::Back,
        Some(choice) => Entry::Value(choice.map(|i| Value::Bool(i == 0))),
    })
}

fn single_select(p: &Prompt<'_>) -> Result<Entry, Stopped> {
    let options = p.field.options();
    let items = options
        .iter()
        .map(|o| one_line(o.label()).into_owned())
        .collect();
    let start = p
        .current
        .and_then(Value::as_str)
        .and_then(|v| options.iter().position(|o| o.value() == v))
        .unwrap_or(0);
    Ok(match pick(p, items, start)? {
        None => Entry::Back,
        Some(choice) => Entry::Value(
            choice
                .and_then(|i| options.get(i))
                .map(|o| Value::from(o.value())),
        ),
    })
}

fn multi_select(p: &Prompt<'_>) -> Result<Entry, Stopped> {
    let field = p.field;
    let mut labels: Vec<String> = field
        .options()
        .iter()
        .map(|o| one_line(o.label()).into_owned())
        .collect();
    let count = labels.len();
    if p.back {
        labels.push(String::from(BACK_OPTION));
    }
    let chosen: Vec<usize> = match p.current {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .filter_map(|v| field.options().iter().position(|o| o.value() == v))
            .collect(),
        _ => Vec::new(),
    };
    let c = field.constraints();
    let (min, max, required) = (c.min_items(), c.max_items(), field.required());
    let name = one_line(field.label()).into_owned();
    let validator = move |picked: &[ListOption<&String>]| {
        if picked.iter().any(|o| o.index >= count) {
            return Ok(Validation::Valid);
        }
        let n = u64::try_from(picked.len()).unwrap_or(u64::MAX);
        Ok(match (min, max) {
            (Some(lo), _) if n < lo && (n > 0 || required) => {
                Validation::Invalid(format!("choose at least {lo}").into())
            }
            (_, Some(hi)) if n > hi => Validation::Invalid(format!("choose at most {hi}").into()),
            _ if n == 0 && required && min.is_none() => {
                Validation::Invalid(format!("{name} is required: choose at least one").into())
            }
            _ => Validation::Valid,
        })
    };
    let help = boxed(&format!("{} · space toggles, enter confirms", p.help));
    let picked = MultiSelect::new(p.label, labels)
        .with_help_message(&help)
        .with_default(&chosen)
        .with_validator(validator)
        .raw_prompt()?;
    if picked.iter().any(|o| o.index >= count) {
        return Ok(Entry::Back);
    }
    if picked.is_empty() && !required {
        return Ok(Entry::Value(None));
    }
    let values = picked
        .iter()
        .filter_map(|o| field.options().get(o.index))
        .map(|o| Value::from(o.value()))
        .collect();
    Ok(Entry::Value(Some(Value::Array(values))))
}

/// Gives the terminal back after a prompt was abandoned (the server withdrew its question):
/// out of raw mode, bracketed paste off, the cursor shown, on a new line.
pub fn restore() {
    let _ = crossterm::terminal::disable_raw_mode();
    printer::reset_terminal();
}
