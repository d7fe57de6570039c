//! The diagnostics of the core, below every other module: the one [`Error`] type with its
//! [`ErrorKind`], the [`Violation`]s of submitted content with their [`Keyword`], and the
//! [`SchemaProblem`]s of a schema with their [`SchemaProblemKind`].
//!
//! Each is data: a kind from a closed set, an RFC 6901 JSON pointer and a message a person can
//! read. Nothing here reads JSON; the JSON layer writes these as values.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Defines a closed set of names: a fieldless enum with its stable snake_case (or keyword)
/// spelling, `ALL` in declaration order, `as_str`, `from_name` and `Display`, from one list.
///
/// Adding a value is adding one line; every binding reads the names from here. Exported
/// (hidden) so that the crates built on the core define their closed sets the same way
/// (`toolnexus_core::closed_set!`); the core's own modules import it from here.
#[macro_export]
#[doc(hidden)]
macro_rules! closed_set {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];

            /// The stable name of this value, as every binding and the conformance suite spell
            /// it; it never changes for an existing value.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The value with this name, if there is one (names are case-sensitive).
            pub fn from_name(name: &str) -> Option<$name> {
                match name {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use closed_set;

closed_set! {
    /// What went wrong, as a stable machine-readable kind.
    ///
    /// The snake_case name ([`ErrorKind::as_str`]) is the value every binding exposes and the
    /// conformance suite expects.
    #[non_exhaustive]
    pub enum ErrorKind {
    /// The input is not JSON (syntax error, empty input, trailing characters).
    InvalidJson => "invalid_json",
    /// The input bytes are not valid UTF-8.
    InvalidUtf8 => "invalid_utf8",
    /// A `\uXXXX` escape names half of a surrogate pair without the other half.
    LoneSurrogate => "lone_surrogate",
    /// An object names the same key twice.
    DuplicateKey => "duplicate_key",
    /// The input is longer than [`Limits::max_input_bytes`](crate::Limits::max_input_bytes).
    TooLarge => "too_large",
    /// Arrays and objects nest deeper than [`Limits::max_depth`](crate::Limits::max_depth).
    TooDeep => "too_deep",
    /// An object has more members than [`Limits::max_object_members`](crate::Limits::max_object_members).
    TooManyMembers => "too_many_members",
    /// An array has more items than [`Limits::max_array_items`](crate::Limits::max_array_items).
    TooManyItems => "too_many_items",
    /// A required field is absent.
    MissingField => "missing_field",
    /// A field holds the wrong JSON type (a number where a string belongs, …).
    WrongType => "wrong_type",
    /// A contract object holds a key its type does not define.
    UnknownField => "unknown_field",
    /// A field has the right type but a value outside what it allows (an empty id, an
    /// unknown `mode`, an `expiresAt` that is not RFC 3339, …).
    InvalidValue => "invalid_value",
    /// A form asks for what looks like a secret (a password, an API key, a card number…)
    /// and the host's policy refuses such forms (see [`crate::form::secrets`]).
    SensitiveField => "sensitive_field",
    /// An answer names a request that is not pending: never begun, already resolved, expired
    /// or cancelled.
    UnknownRequest => "unknown_request",
    /// A request is begun with the id of one that is still pending.
    DuplicateRequest => "duplicate_request",
    /// Beginning one more request would exceed the session's bound on pending requests.
    TooManyPending => "too_many_pending",
    /// Accepted content breaks the form's schema; [`Error::violations`] lists every way.
    InvalidContent => "invalid_content",
    /// The server asked for an elicitation mode (form or URL) the host did not advertise.
    ModeNotSupported => "mode_not_supported",
    /// A retry is built before every input request has its response.
    MissingResponses => "missing_responses",
    /// A sealed snapshot's seal does not check out: it was changed, cut short, sealed with a
    /// key the restore was not given, or not sealed when a key was expected.
    InvalidSeal => "invalid_seal",
    /// What waited for a person expired before it was restored: the answer comes too late.
    Expired => "expired",
    }
}

closed_set! {
    /// The JSON Schema keyword a [`Violation`] breaks.
    #[non_exhaustive]
    pub enum Keyword {
        /// A required property is absent.
        Required => "required",
        /// A member the schema does not declare, where undeclared members are refused.
        AdditionalProperties => "additionalProperties",
        /// A value of the wrong JSON type (or content that is not an object).
        Type => "type",
        /// Text shorter than `minLength`.
        MinLength => "minLength",
        /// Text longer than `maxLength`.
        MaxLength => "maxLength",
        /// Text that is not of its `format`.
        Format => "format",
        /// A number below `minimum`.
        Minimum => "minimum",
        /// A number above `maximum`.
        Maximum => "maximum",
        /// A value outside an untitled select's `enum`.
        Enum => "enum",
        /// A value outside a titled single-select's `oneOf`.
        OneOf => "oneOf",
        /// A value outside a titled multi-select's `items.anyOf`.
        AnyOf => "anyOf",
        /// Fewer options chosen than `minItems`.
        MinItems => "minItems",
        /// More options chosen than `maxItems`.
        MaxItems => "maxItems",
        /// An option chosen twice in a multi-select.
        UniqueItems => "uniqueItems",
    }
}

/// One way content breaks its schema: where ([`pointer`](Violation::pointer)), which
/// [`Keyword`], and what is wrong in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pointer: String,
    keyword: Keyword,
    message: String,
}

impl Violation {
    /// A violation of `keyword` at `pointer` (an RFC 6901 pointer into the content), with the
    /// message to show beside the field: what a host needs to rebuild an error the core gave
    /// (a re-render of the web form) or to report a rule of its own the same way.
    pub fn new(
        pointer: impl Into<String>,
        keyword: Keyword,
        message: impl Into<String>,
    ) -> Violation {
        Violation {
            pointer: pointer.into(),
            keyword,
            message: message.into(),
        }
    }

    /// The RFC 6901 JSON pointer of the value at fault, relative to the content (`/email`,
    /// `/tags/2`; `""` is the content itself). A missing required property is reported at the
    /// pointer it would have, so a UI can mark the field.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// The JSON Schema keyword that is broken.
    pub fn keyword(&self) -> Keyword {
        self.keyword
    }

    /// What is wrong, in words a person filling in the form understands.
    pub fn message(&self) -> &str {
        &self.message
    }
}

closed_set! {
    /// What is wrong with a schema, as a stable machine-readable kind.
    ///
    /// The snake_case name ([`SchemaProblemKind::as_str`]) is what every binding exposes and the
    /// conformance suite expects.
    #[non_exhaustive]
    pub enum SchemaProblemKind {
        /// A keyword holds the wrong JSON type (`"title": 5`, `"properties": []`, an item of
        /// `required` that is not a string), a property is not an object, or the schema itself
        /// is not an object.
        WrongType => "wrong_type",
        /// A keyword the shape needs is absent: `type` on the root or a property, `properties`,
        /// `items` on a multi-select, `const` or `title` on a `{const, title}` option.
        MissingKeyword => "missing_keyword",
        /// A keyword has the right JSON type but a value it cannot have: a root `type` other
        /// than `"object"`, a length or count that is negative or fractional.
        InvalidValue => "invalid_value",
        /// A property is none of the elicitation shapes: a nested object, a `type` list, an
        /// unknown type, an array of anything but options, a string with both `enum` and
        /// `oneOf`.
        UnsupportedShape => "unsupported_shape",
        /// A JSON Schema keyword that would change validation but that an elicitation schema
        /// does not have (`$ref`, `allOf`, `pattern`, `const` on a property…).
        UnsupportedKeyword => "unsupported_keyword",
        /// `required` names a property that `properties` does not define.
        UnknownRequired => "unknown_required",
        /// The same value appears twice where values must be distinct: names in `required`,
        /// options of a select.
        DuplicateValue => "duplicate_value",
        /// A select has no options to choose from.
        EmptyEnum => "empty_enum",
        /// `enumNames` does not give exactly one title per `enum` value.
        EnumNamesLength => "enum_names_length",
        /// Bounds leave nothing to enter: a minimum above its maximum, an `integer` range
        /// without an integer, more items to choose than there are options.
        ContradictoryBounds => "contradictory_bounds",
        /// A `default` that its own property would refuse.
        InvalidDefault => "invalid_default",
        /// A string `format` other than `email`, `uri`, `date` and `date-time`.
        UnknownFormat => "unknown_format",
    }
}

/// One problem with a schema: its [`kind`](SchemaProblem::kind), the JSON pointer
/// ([RFC 6901]) of the keyword at fault relative to the schema root, and a message that says
/// what is wrong and how to put it right.
///
/// For an absent keyword the pointer names where it belongs (`/properties/age/type`).
///
/// Some problems leave the schema unreadable as a form (a property without a usable `type`, a
/// length that is not a number…): [`blocks`](SchemaProblem::blocks) says so. The others (an
/// unknown keyword, `required` naming a missing property, a `default` its property refuses…)
/// leave a form a person can fill in.
///
/// [RFC 6901]: https://www.rfc-editor.org/rfc/rfc6901
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    kind: SchemaProblemKind,
    pointer: String,
    message: String,
    blocks: Option<ErrorKind>,
}

impl SchemaProblem {
    pub(crate) fn new(
        kind: SchemaProblemKind,
        pointer: String,
        message: String,
        blocks: Option<ErrorKind>,
    ) -> SchemaProblem {
        SchemaProblem {
            kind,
            pointer,
            message,
            blocks,
        }
    }

    /// What is wrong.
    pub fn kind(&self) -> SchemaProblemKind {
        self.kind
    }

    /// Where: an RFC 6901 JSON pointer into the schema (`""` is the schema itself).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// What is wrong and how to fix it, in words.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the problem leaves the schema unreadable as a form, and if so the kind of
    /// [`Error`] that reading it as one gives.
    pub fn blocks(&self) -> Option<ErrorKind> {
        self.blocks
    }

    /// The [`Error`] reading the schema as a form gives for this problem, if it blocks.
    pub fn to_error(&self) -> Option<Error> {
        let kind = self.blocks?;
        Some(Error::new(kind, self.pointer.clone(), self.message.clone()))
    }
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        located(f, self.kind.as_str(), &self.pointer, &self.message)
    }
}

/// `kind at pointer: message`, or `kind: message` at the root: how every diagnostic reads.
fn located(f: &mut fmt::Formatter<'_>, kind: &str, pointer: &str, message: &str) -> fmt::Result {
    if pointer.is_empty() {
        write!(f, "{kind}: {message}")
    } else {
        write!(f, "{kind} at {pointer}: {message}")
    }
}

/// The message every `wrong_type` diagnostic gives: `` `what` must be expected, not a string``.
/// `found` is the JSON type met, as [`Value::type_name`](crate::Value::type_name) names it.
pub(crate) fn wrong_type_message(what: &str, expected: &str, found: &str) -> String {
    format!("{what} must be {expected}, not {found}")
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
    /// order [`validate_content`](crate::content::validate_content) gives; empty otherwise.
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
        located(f, self.0.kind.as_str(), &self.0.pointer, &self.0.message)
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
