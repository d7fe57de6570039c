//! How a command ends: its exit code, and errors as one line a person reads
//! (`kind at pointer: message`) or, with `--json-errors`, as `{kind, pointer, message}`, both
//! written by the printer.

use std::process::ExitCode;

use toolnexus_auth::AuthError;
use toolnexus_core::Error;

use crate::printer::{self, Output};

/// What a command prints and how it ends.
pub type Printed = Result<(Output, Exit), Failure>;

/// A command that printed `json` and is done.
pub fn done(json: String) -> Printed {
    Ok((Output::Json(json), Exit::Done))
}

/// [`Exit::Done`] when the verdict is positive, else [`Exit::Refused`].
pub fn verdict(positive: bool) -> Exit {
    if positive { Exit::Done } else { Exit::Refused }
}

/// The exit codes, as `--help` and the README list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Done.
    Done = 0,
    /// The input was refused, or the verdict is negative (problems, violations, a URL to
    /// reject, answers that ran out, an authorization the server needs declined).
    Refused = 1,
    /// The command line is wrong, or a file cannot be read.
    Usage = 2,
    /// `call` and `tools`: the server failed (could not start, closed, a protocol error, a
    /// timeout, no mutual protocol version, an authorization that failed).
    Server = 3,
    /// `call`: the server asked a person, and there was nobody to ask (no terminal, no
    /// `--answers`); the question was cancelled. `call` and `tools`: the server needs an
    /// authorization, and there was nobody to consent to it.
    Unasked = 4,
    /// `call --defer` and `resume`: the server asked what nobody could answer now; the call
    /// is kept in `pending/` to be resumed, and its id and questions are printed.
    Pending = 5,
    /// `call`: interrupted (Ctrl-C) while a task ran; the task was cancelled. 128 + SIGINT, as
    /// shells report a process Ctrl-C ended.
    Interrupted = 130,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// Why a command stopped early.
#[derive(Debug)]
pub enum Failure {
    /// The core refused the input: its typed error.
    Refused(Error),
    /// A usage problem: a message.
    Usage(String),
    /// The server failed: what happened.
    Server(String),
    /// The person interrupted (Ctrl-C): what was done about it.
    Interrupted(String),
    /// The server needs an authorization, and nobody could be asked to consent to it: why.
    Unasked(String),
    /// The person declined (or cancelled) the authorization the server needs: what was said.
    Declined(String),
    /// The authorization the server needs failed: the flow's typed error.
    Authorization(AuthError),
}

impl Failure {
    /// The core's error.
    pub fn refused(error: Error) -> Failure {
        Failure::Refused(error)
    }

    /// A usage problem.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure::Usage(message.into())
    }

    /// The server failed.
    pub fn server(message: impl Into<String>) -> Failure {
        Failure::Server(message.into())
    }

    /// The exit code it ends with.
    pub fn exit(&self) -> Exit {
        match self {
            Failure::Refused(_) => Exit::Refused,
            Failure::Usage(_) => Exit::Usage,
            Failure::Server(_) => Exit::Server,
            Failure::Interrupted(_) => Exit::Interrupted,
            Failure::Unasked(_) => Exit::Unasked,
            Failure::Declined(_) => Exit::Refused,
            Failure::Authorization(_) => Exit::Server,
        }
    }
}

impl From<AuthError> for Failure {
    fn from(error: AuthError) -> Failure {
        Failure::Authorization(error)
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure::Refused(error)
    }
}

/// Reports a failure on standard error, through the printer: one line for people, or the
/// object `{kind, pointer, message}` with `--json-errors`.
pub fn failure(failure: &Failure) {
    let line = |kind: &str, message: &str, text: String| printer::error(kind, "", message, &text);
    match failure {
        Failure::Refused(error) => self::error(error),
        Failure::Usage(message) => line("usage", message, format!("toolnexus: {message}")),
        Failure::Server(message) => line(
            "server",
            message,
            format!("toolnexus: server failed: {message}"),
        ),
        Failure::Interrupted(message) => {
            line("interrupted", message, format!("toolnexus: {message}"));
        }
        Failure::Unasked(message) => line("unasked", message, format!("toolnexus: {message}")),
        Failure::Declined(message) => line("declined", message, format!("toolnexus: {message}")),
        Failure::Authorization(error) => printer::error(
            error.kind().as_str(),
            error.pointer(),
            error.message(),
            &format!("toolnexus: the authorization failed: {error}"),
        ),
    }
}

/// Reports one of the core's errors, and each of its violations on a line of its own.
pub fn error(error: &Error) {
    printer::error(
        error.kind().as_str(),
        error.pointer(),
        error.message(),
        &error.to_string(),
    );
    for violation in error.violations() {
        if printer::is_json() {
            printer::json_line(&violation.to_value());
        } else {
            let at = match violation.pointer() {
                "" => String::new(),
                pointer => format!(" at {pointer}"),
            };
            printer::text_line(&format!(
                "  {}{at}: {}",
                violation.keyword(),
                violation.message()
            ));
        }
    }
}
