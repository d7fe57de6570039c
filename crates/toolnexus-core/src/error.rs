//! The one error type of the core: a kind, a JSON pointer and a message a person can read.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::validate::Violation;

/// What went wrong, as a stable machine-readable kind.
///
/// The snake_case name ([`ErrorKind::as_str`]) is the value every binding exposes and the
/// conformance suite expects; it never changes for an existing kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not JSON (syntax error, empty input, trailing characters).
    InvalidJson,
    /// The input bytes are not valid UTF-8.
    InvalidUtf8,
    /// A `\uXXXX` escape names half of a surrogate pair without the other half.
    LoneSurrogate,
    /// An object names the same key twice.
    DuplicateKey,
    /// The input is longer than [`Limits::max_input_bytes`](crate::Limits::max_input_bytes).
    TooLarge,
    /// Arrays and objects nest deeper than [`Limits::max_depth`](crate::Limits::max_depth).
    TooDeep,
    /// An object has more members than [`Limits::max_object_members`](crate::Limits::max_object_members).
    TooManyMembers,
    /// An array has more items than [`Limits::max_array_items`](crate::Limits::max_array_items).
    TooManyItems,
    /// A required field is absent.
    MissingField,
    /// A field holds the wrong JSON type (a number where a string belongs, …).
    WrongType,
    /// A contract object holds a key its type does not define.
    UnknownField,
    /// A field has the right type but a value outside what it allows (an empty id, an
    /// unknown `mode`, an `expiresAt` that is not RFC 3339, …).
    InvalidValue,
    /// A form asks for what looks like a secret (a password, an API key, a card number…)
    /// and the host's policy refuses such forms (see [`crate::secrets`]).
    SensitiveField,
    /// An answer names a request that is not pending: never begun, already resolved, expired
    /// or cancelled.
    UnknownRequest,
    /// A request is begun with the id of one that is still pending.
    DuplicateRequest,
    /// Beginning one more request would exceed the session's bound on pending requests.
    TooManyPending,
    /// Accepted content breaks the form's schema; [`Error::violations`] lists every way.
    InvalidContent,
    /// The server asked for an elicitation mode (form or URL) the host did not advertise.
    ModeNotSupported,
    /// A retry is built before every input request has its response.
    MissingResponses,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 19] = [
        ErrorKind::InvalidJson,
        ErrorKind::InvalidUtf8,
        ErrorKind::LoneSurrogate,
        ErrorKind::DuplicateKey,
        ErrorKind::TooLarge,
        ErrorKind::TooDeep,
        ErrorKind::TooManyMembers,
        ErrorKind::TooManyItems,
        ErrorKind::MissingField,
        ErrorKind::WrongType,
        ErrorKind::UnknownField,
        ErrorKind::InvalidValue,
        ErrorKind::SensitiveField,
        ErrorKind::UnknownRequest,
        ErrorKind::DuplicateRequest,
        ErrorKind::TooManyPending,
        ErrorKind::InvalidContent,
        ErrorKind::ModeNotSupported,
        ErrorKind::MissingResponses,
    ];

    /// The stable snake_case name of this kind.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidJson => "invalid_json",
            ErrorKind::InvalidUtf8 => "invalid_utf8",
            ErrorKind::LoneSurrogate => "lone_surrogate",
            ErrorKind::DuplicateKey => "duplicate_key",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::TooDeep => "too_deep",
            ErrorKind::TooManyMembers => "too_many_members",
            ErrorKind::TooManyItems => "too_many_items",
            ErrorKind::MissingField => "missing_field",
            ErrorKind::WrongType => "wrong_type",
            ErrorKind::UnknownField => "unknown_field",
            ErrorKind::InvalidValue => "invalid_value",
            ErrorKind::SensitiveField => "sensitive_field",
            ErrorKind::UnknownRequest => "unknown_request",
            ErrorKind::DuplicateRequest => "duplicate_request",
            ErrorKind::TooManyPending => "too_many_pending",
            ErrorKind::InvalidContent => "invalid_content",
            ErrorKind::ModeNotSupported => "mode_not_supported",
            ErrorKind::MissingResponses => "missing_responses",
        }
    }

    /// The kind with this snake_case name, if there is one.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A typed error: [`kind`](Error::kind), the JSON pointer ([RFC 6901]) of the value at fault
/// in the input that was given, and a message a person can read.
///
/// The pointer of the whole input is the empty string.
///
/// [RFC 6901]: https://www.rfc-editor.org/rfc/rfc6901
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Box<Details>);

/// What an [`Error`] holds, boxed: a `Result` then stays the size of its value, which every
/// step of reading untrusted JSON moves around, while errors are rare.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Details {
    kind: ErrorKind,
    pointer: String,
    message: String,
    violations: Vec<Violation>,
}

impl Error {
    /// An error of `kind` at `pointer` (an RFC 6901 JSON pointer).
    pub fn new(kind: ErrorKind, pointer: impl Into<String>, message: impl Into<String>) -> Error {
        Error(Box::new(Details {
            kind,
            pointer: pointer.into(),
            message: message.into(),
            violations: Vec::new(),
        }))
    }

    /// An [`ErrorKind::InvalidContent`] error at `pointer` carrying every violation found;
    /// its message is led by the first violation's.
    pub fn invalid_content(pointer: impl Into<String>, violations: Vec<Violation>) -> Error {
        let message = match violations.as_slice() {
            [only] => alloc::format!("the content breaks the form: {}", only.message()),
            many => alloc::format!(
                "the content breaks the form in {} ways; the first: {}",
                many.len(),
                many.first().map_or("", |v| v.message())
            ),
        };
        let mut error = Error::new(ErrorKind::InvalidContent, pointer, message);
        error.0.violations = violations;
        error
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// Where it went wrong: an RFC 6901 JSON pointer into the input (`""` is the whole input).
    pub fn pointer(&self) -> &str {
        &self.0.pointer
    }

    /// What went wrong, in words.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// For [`ErrorKind::InvalidContent`], every way the content breaks its schema, in the
    /// order [`validate_content`](crate::validate::validate_content) gives; empty otherwise.
    pub fn violations(&self) -> &[Violation] {
        &self.0.violations
    }

    /// The same error located inside the member `prefix` of a larger document: the pointer
    /// `/data` and an error at `/name` give `/data/name`.
    pub fn within(mut self, prefix: &str) -> Error {
        self.0.pointer.insert_str(0, prefix);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Details {
            kind,
            pointer,
            message,
            ..
        } = &*self.0;
        if pointer.is_empty() {
            write!(f, "{kind}: {message}")
        } else {
            write!(f, "{kind} at {pointer}: {message}")
        }
    }
}

impl core::error::Error for Error {}

/// `text` quoted for a message, cut short when it is long: names, values and methods come
/// from servers and may be anything.
pub(crate) fn quote(text: &str) -> String {
    const MAX_CHARS: usize = 64;
    match text.char_indices().nth(MAX_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}…", text.get(..cut).unwrap_or_default()),
    }
}
