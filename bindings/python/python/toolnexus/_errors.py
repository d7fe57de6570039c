"""The exceptions of toolnexus: one class per kind of error the core reports.

Every error is a ``toolnexus.Error`` (a ``ValueError``) with ``kind`` (the core's stable
snake_case name), ``pointer`` (an RFC 6901 JSON pointer into the input; ``""`` is the whole
input), ``message`` (for people; it may change) and ``violations`` (for ``invalid_content``,
every way the content breaks its schema; empty otherwise). Catch ``toolnexus.Error`` for all of
them, or one subclass for one kind. An authorization flow raises ``AuthError``, one class for
all of its kinds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterable

if TYPE_CHECKING:
    from ._native import Violation

__all__ = [
    "Error",
    "InvalidJsonError",
    "InvalidUtf8Error",
    "LoneSurrogateError",
    "DuplicateKeyError",
    "TooLargeError",
    "TooDeepError",
    "TooManyMembersError",
    "TooManyItemsError",
    "MissingFieldError",
    "WrongTypeError",
    "UnknownFieldError",
    "InvalidValueError",
    "SensitiveFieldError",
    "UnknownRequestError",
    "DuplicateRequestError",
    "TooManyPendingError",
    "InvalidContentError",
    "ModeNotSupportedError",
    "MissingResponsesError",
    "InvalidSealError",
    "ExpiredError",
    "AuthError",
]


class Error(ValueError):
    """An input toolnexus refuses, or a call it cannot make: a kind, a pointer and a message.

    The subclass names the kind; a kind this version does not know yet (from a newer core)
    arrives as a plain ``Error`` with its ``kind`` set.
    """

    KIND: ClassVar[str | None] = None
    """The kind every error of this class has (``None`` on the base class)."""

    kind: str
    """The stable snake_case name of what went wrong (``"invalid_json"``, ``"wrong_type"``…)."""
    pointer: str
    """Where: an RFC 6901 JSON pointer into the input (``""`` is the whole input)."""
    message: str
    """What went wrong, in words; for people, and free to change."""
    violations: list[Violation]
    """For ``invalid_content``, every way the content breaks its schema; empty otherwise."""

    def __init__(
        self,
        message: str,
        *,
        kind: str | None = None,
        pointer: str = "",
        violations: Iterable[Violation] = (),
    ) -> None:
        kind = kind if kind is not None else type(self).KIND
        if kind is None:
            raise TypeError("toolnexus.Error needs a kind; raise one of its subclasses")
        super().__init__(message)
        self.kind = kind
        self.pointer = pointer
        self.message = message
        self.violations = list(violations)

    def __str__(self) -> str:
        if self.pointer:
            return f"{self.kind} at {self.pointer}: {self.message}"
        return f"{self.kind}: {self.message}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (type(self), self.message, self.kind), self.__dict__)


class InvalidJsonError(Error):
    """The input is not JSON: a syntax error, empty input, trailing characters."""

    KIND = "invalid_json"


class InvalidUtf8Error(Error):
    """The input bytes are not UTF-8."""

    KIND = "invalid_utf8"


class LoneSurrogateError(Error):
    """A string holds half of a surrogate pair without the other half (a ``\\uD800`` escape in
    JSON text, or such a character in a Python ``str``)."""

    KIND = "lone_surrogate"


class DuplicateKeyError(Error):
    """An object names the same key twice; ``pointer`` is the second one."""

    KIND = "duplicate_key"


class TooLargeError(Error):
    """The JSON text is longer than ``Limits.max_input_bytes``."""

    KIND = "too_large"


class TooDeepError(Error):
    """Arrays and objects nest deeper than ``Limits.max_depth`` (also: a list or dict that
    contains itself)."""

    KIND = "too_deep"


class TooManyMembersError(Error):
    """An object has more members than ``Limits.max_object_members``."""

    KIND = "too_many_members"


class TooManyItemsError(Error):
    """An array has more items than ``Limits.max_array_items``."""

    KIND = "too_many_items"


class MissingFieldError(Error):
    """A required member is absent (or ``None``)."""

    KIND = "missing_field"


class WrongTypeError(Error):
    """A member has the wrong JSON type; also a dict key that is not a ``str``, a Python value
    with no JSON form, and a content value that is not a string, number, boolean or list of
    strings."""

    KIND = "wrong_type"


class UnknownFieldError(Error):
    """A ``Request``, ``Answer`` or ``ElicitResult`` has a key its type does not define."""

    KIND = "unknown_field"


class InvalidValueError(Error):
    """Right type, wrong value: an empty id or kind, an unknown mode or action, an
    ``expiresAt`` that is not RFC 3339, content on a decline or cancel, a non-finite float, a
    ``Number`` whose spelling is not a JSON number…"""

    KIND = "invalid_value"


class SensitiveFieldError(Error):
    """A form seems to ask for a secret (a password, an API key, a card number…) and the
    host's policy refuses such forms."""

    KIND = "sensitive_field"


class UnknownRequestError(Error):
    """An answer names a request that is not pending: never begun, already resolved, expired
    or cancelled."""

    KIND = "unknown_request"


class DuplicateRequestError(Error):
    """A request is begun with the id of one that is still pending."""

    KIND = "duplicate_request"


class TooManyPendingError(Error):
    """Beginning one more request would exceed the session's bound on pending requests."""

    KIND = "too_many_pending"


class InvalidContentError(Error):
    """Accepted content breaks the form's schema; ``violations`` lists every way."""

    KIND = "invalid_content"


class ModeNotSupportedError(Error):
    """The server asked for an elicitation mode (form or URL) the host did not advertise."""

    KIND = "mode_not_supported"


class MissingResponsesError(Error):
    """A retry is built before every input request has its response."""

    KIND = "missing_responses"


class InvalidSealError(Error):
    """A sealed snapshot's seal does not check out: changed, cut short, sealed with a key the
    restore was not given, or not sealed when a key was expected."""

    KIND = "invalid_seal"


class ExpiredError(Error):
    """What waited for a person expired before it was restored: the answer comes too late."""

    KIND = "expired"


class AuthError(Error):
    """An authorization flow (``AuthFlow``, ``Grant.from_json``) refused what it was given or
    cannot go on: one class for every kind of the authorization crate, named in ``kind``
    (``"resource_mismatch"``, ``"issuer_mismatch"``, ``"insecure_endpoint"``… see
    ``toolnexus._native.AUTH_ERROR_KINDS``), with ``pointer`` into the document at fault. Its
    message never holds a token, a code, a verifier or a secret.
    """


_BY_KIND: dict[str, type[Error]] = {
    cls.KIND: cls for cls in Error.__subclasses__() if cls.KIND is not None
}


def _auth_from_native(kind: str, pointer: str, message: str) -> AuthError:
    """The exception for an error of an authorization flow (called by ``toolnexus._native``)."""
    return AuthError(message, kind=kind, pointer=pointer)


def _restore(cls: type[Error], message: str, kind: str) -> Error:
    """An error unpickled: its class, message and kind (the rest is restored as state)."""
    return cls(message, kind=kind)


def _from_native(kind: str, pointer: str, message: str, violations: list[Violation]) -> Error:
    """The exception for an error of the core (called by ``toolnexus._native``)."""
    cls = _BY_KIND.get(kind, Error)
    return cls(message, kind=kind, pointer=pointer, violations=violations)
