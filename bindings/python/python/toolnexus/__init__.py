"""toolnexus: answer an MCP server that needs a human in the loop.

An MCP server in the middle of a ``tools/call`` may send ``elicitation/create``: a form to fill
(``requestedSchema``) or a URL to open. toolnexus maps those parameters onto one suspension
contract, a ``Request`` that a host resolves (a UI, an approval flow, another agent) into an
``Answer``, and maps the answer back to MCP's ``ElicitResult``::

    import toolnexus

    request = toolnexus.elicitation_to_request(params)   # a dict, JSON text or an mcp model
    answer = toolnexus.Answer(request.id, True, {"name": "Ada"})
    result = toolnexus.answer_to_elicit_result(answer)
    result.to_json()   # '{"action":"accept","content":{"name":"Ada"}}'

Every decision is made by the Rust core, so this package answers exactly as the other
bindings do. JSON keeps its member order and the spelling of its numbers: integers arrive as
``int``, other numbers as ``toolnexus.Number`` (a ``float`` that remembers its spelling). Input
is untrusted and read within ``Limits``; whatever is wrong with it raises a ``toolnexus.Error``
subclass with a ``kind``, a JSON pointer ``path`` and a ``message``.
"""

from ._errors import (
    DuplicateKeyError,
    DuplicateRequestError,
    Error,
    InvalidContentError,
    InvalidJsonError,
    InvalidUtf8Error,
    InvalidValueError,
    LoneSurrogateError,
    MissingFieldError,
    MissingResponsesError,
    ModeNotSupportedError,
    SensitiveFieldError,
    TooDeepError,
    TooLargeError,
    TooManyItemsError,
    TooManyMembersError,
    TooManyPendingError,
    UnknownFieldError,
    UnknownRequestError,
    WrongTypeError,
)
from ._native import (
    Answer,
    ElicitResult,
    Limits,
    Request,
    Violation,
    __version__,
    answer_to_elicit_result,
    elicitation_to_request,
    format_id,
    next_id,
)
from ._number import Number

__all__ = [
    # The contract and the mappings.
    "Request",
    "Answer",
    "ElicitResult",
    "elicitation_to_request",
    "answer_to_elicit_result",
    # Ids, bounds and exact numbers.
    "format_id",
    "next_id",
    "Limits",
    "Number",
    "Violation",
    # Errors: the base class, then one per kind.
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
]
