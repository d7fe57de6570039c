//! The one error every function throws: a Kotlin exception, a Swift `Error`.

use toolnexus_core as core;
use toolnexus_core::ErrorKind as CoreErrorKind;

use crate::mirror::mirror_enum;

mirror_enum! {
    /// What went wrong, one case per kind the core reports.
    pub enum ErrorKind mirrors CoreErrorKind, newer
        /// A kind newer than this binding; the message says what went wrong.
        Other => "error"
    {
        /// The input is not JSON (syntax error, empty input, trailing characters).
        InvalidJson,
        /// The input bytes are not valid UTF-8.
        InvalidUtf8,
        /// A `\uXXXX` escape names half of a surrogate pair without the other half.
        LoneSurrogate,
        /// An object names the same key twice.
        DuplicateKey,
        /// The input is longer than the limits allow.
        TooLarge,
        /// Arrays and objects nest deeper than the limits allow.
        TooDeep,
        /// An object has more members than the limits allow.
        TooManyMembers,
        /// An array has more items than the limits allow.
        TooManyItems,
        /// A required field is absent.
        MissingField,
        /// A field holds the wrong JSON type.
        WrongType,
        /// A contract object holds a key its type does not define.
        UnknownField,
        /// A field has the right type but a value outside what it allows.
        InvalidValue,
        /// A form asks for what looks like a secret and the policy refuses such forms.
        SensitiveField,
        /// An answer names a request that is not pending.
        UnknownRequest,
        /// A request is begun with the id of one that is still pending.
        DuplicateRequest,
        /// Beginning one more request would exceed the bound on pending requests.
        TooManyPending,
        /// Accepted content breaks the form's schema; the error's violations list every way.
        InvalidContent,
        /// The server asked for an elicitation mode the host did not advertise.
        ModeNotSupported,
        /// A retry is built before every input request has its response.
        MissingResponses,
        /// A sealed snapshot's seal does not check out: a byte was changed or cut, it was
        /// sealed with a key the restore was not given or for another kind of snapshot, or a
        /// sealed snapshot was restored without keys (or an unsealed one with keys). Always at
        /// `""`, whatever went wrong, so the error tells an attacker nothing.
        InvalidSeal,
        /// What a snapshot holds expired before it was restored (at `/expiresAtMs`): the
        /// answer comes too late, and the server has given up waiting for it.
        Expired,
    }
}

/// One way accepted content breaks its schema.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Violation {
    /// The RFC 6901 JSON pointer of the value at fault, relative to the content.
    pub pointer: String,
    /// The JSON Schema keyword that is broken (`required`, `minLength`, `format`, …).
    pub keyword: String,
    /// What is wrong, in words a person filling in the form understands.
    pub message: String,
}

impl Violation {
    /// The core's violation.
    pub(crate) fn from_core(violation: &core::Violation) -> Violation {
        Violation {
            pointer: violation.pointer().into(),
            keyword: violation.keyword().as_str().into(),
            message: violation.message().into(),
        }
    }
}

/// A failure of any toolnexus function: its kind, where in the input it is (an RFC 6901 JSON
/// pointer, `""` for the whole input), a message a person can read and, for
/// `InvalidContent`, every violation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum ToolnexusError {
    /// The input or the call was refused.
    #[error("{}", describe(kind.core_name(), pointer, detail))]
    Failed {
        /// What went wrong.
        kind: ErrorKind,
        /// Where: an RFC 6901 JSON pointer into the input, `""` for the whole input.
        pointer: String,
        /// What went wrong, in words (`detail`, since Kotlin exceptions own `message`).
        detail: String,
        /// For `InvalidContent`, every way the content breaks its schema; empty otherwise.
        violations: Vec<Violation>,
    },
}

/// An error's text: its kind's stable name, where, and what.
pub(crate) fn describe(name: &str, pointer: &str, message: &str) -> String {
    if pointer.is_empty() {
        format!("{name}: {message}")
    } else {
        format!("{name} at {pointer}: {message}")
    }
}

impl From<core::Error> for ToolnexusError {
    fn from(error: core::Error) -> ToolnexusError {
        ToolnexusError::Failed {
            kind: ErrorKind::from_core(error.kind()),
            pointer: error.pointer().into(),
            detail: error.message().into(),
            violations: error
                .violations()
                .iter()
                .map(Violation::from_core)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of the core has a case of its own, and its name survives the trip.
    #[test]
    fn every_core_kind_is_named() {
        for kind in core::ErrorKind::ALL {
            let mine = ErrorKind::from_core(kind);
            assert_ne!(mine, ErrorKind::Other, "{kind:?}");
            assert_eq!(mine.as_str(), kind.as_str());
        }
    }
}
