//! How a command ends: its exit code, and errors as one line a person reads
//! (`kind at pointer: message`) or, with `--json-errors`, as `{kind, pointer, message}`.

use std::process::ExitCode;

use toolnexus_auth::AuthError;
use toolnexus_core::{Error, Map, Value};

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

/// Writes errors to standard error, in the form the command line asked for.
#[derive(Debug, Clone, Copy)]
pub struct Reporter {
    json: bool,
}

impl Reporter {
    /// A reporter writing JSON objects when `json` is set, lines otherwise.
    pub fn new(json: bool) -> Reporter {
        Reporter { json }
    }

    /// Reports a failure.
    pub fn failure(&self, failure: &Failure) {
        match failure {
            Failure::Refused(error) => self.error(error),
            Failure::Usage(message) => self.line("usage", message),
            Failure::Server(message) => self.line("server", &format!("server failed: {message}")),
            Failure::Interrupted(message) => self.line("interrupted", message),
            Failure::Unasked(message) => self.line("unasked", message),
            Failure::Declined(message) => self.line("declined", message),
            Failure::Authorization(error) => {
                if self.json {
                    let object = object(error.kind().as_str(), error.pointer(), error.message());
                    eprintln!("{}", object.to_json());
                } else {
                    eprintln!("toolnexus: the authorization failed: {error}");
                }
            }
        }
    }

    fn line(&self, kind: &str, message: &str) {
        if self.json {
            eprintln!("{}", object(kind, "", message).to_json());
        } else {
            eprintln!("toolnexus: {message}");
        }
    }

    /// Reports one of the core's errors.
    pub fn error(&self, error: &Error) {
        if self.json {
            eprintln!(
                "{}",
                object(error.kind().as_str(), error.pointer(), error.message()).to_json()
            );
        } else {
            eprintln!("{error}");
        }
        for violation in error.violations() {
            if self.json {
                eprintln!("{}", violation.to_value().to_json());
            } else {
                let at = match violation.pointer() {
                    "" => String::new(),
                    pointer => format!(" at {pointer}"),
                };
                eprintln!("  {}{at}: {}", violation.keyword(), violation.message());
            }
        }
    }
}

fn object(kind: &str, pointer: &str, message: &str) -> Value {
    let mut map = Map::new();
    map.insert("kind", Value::from(kind));
    map.insert("pointer", Value::from(pointer));
    map.insert("message", Value::from(message));
    Value::Object(map)
}
