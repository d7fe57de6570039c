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
subclass with a ``kind``, a JSON ``pointer`` and a ``message``.
"""

from . import _errors
from ._errors import *  # noqa: F403 - Error, then one subclass per kind: _errors.__all__
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
from ._native import (
    Constraints,
    FieldOption,
    Form,
    FormField,
    SchemaProblem,
    SensitiveField,
    UrlFinding,
    UrlReview,
    apply_defaults,
    check_schema,
    form_fields,
    from_json,
    html_stylesheet,
    parse_field_input,
    prepare_content,
    reject_secrets,
    review_url,
    sensitive_fields,
    terminal_json,
    terminal_text,
    to_json,
    validate_content,
)
from ._native import (
    ClientRequest,
    Incoming,
    InputRequest,
    InputRequired,
    InputRound,
    ReverseBridge,
    ServerResult,
    Session,
    classify_result,
    with_client_capabilities,
)
from ._native import TaskCall, TaskDriver, TaskEvent, TaskInfo
from ._native import (
    AuthConfig,
    AuthDecision,
    AuthFlow,
    AuthPolicy,
    Authorize,
    Challenge,
    DeviceCode,
    Done,
    Fetch,
    Grant,
    Poll,
    parse_challenge,
)
from ._literals import LineBreaks, SecretKind, Severity, TaskStatus, Verdict, Widget
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
    "from_json",
    "to_json",
    # Schemas and content.
    "check_schema",
    "SchemaProblem",
    "validate_content",
    "apply_defaults",
    "prepare_content",
    # Forms and secrets.
    "Form",
    "form_fields",
    "parse_field_input",
    "FormField",
    "FieldOption",
    "Constraints",
    "Widget",
    "sensitive_fields",
    "reject_secrets",
    "SensitiveField",
    "SecretKind",
    # The form on a web page (Request.to_html, Request.answer_from_form_data, Form.to_html).
    "html_stylesheet",
    # URL mode.
    "review_url",
    "UrlReview",
    "UrlFinding",
    "Verdict",
    "Severity",
    # Server text on a terminal.
    "terminal_text",
    "terminal_json",
    "LineBreaks",
    # The session, the 2025 JSON-RPC wire and the 2026-07-28 multi round-trip.
    "Session",
    "ReverseBridge",
    "Incoming",
    "InputRound",
    "ClientRequest",
    "InputRequired",
    "InputRequest",
    "ServerResult",
    "classify_result",
    "with_client_capabilities",
    # Tasks: a tool call the server runs as a task, in either era.
    "TaskDriver",
    "TaskInfo",
    "TaskStatus",
    "TaskEvent",
    "TaskCall",
    # Authorization (OAuth 2.1 with PKCE), driven by the host's HTTP client.
    "parse_challenge",
    "Challenge",
    "AuthConfig",
    "AuthFlow",
    "AuthPolicy",
    "AuthDecision",
    "Fetch",
    "Authorize",
    "Poll",
    "DeviceCode",
    "Done",
    "Grant",
]
__all__ += _errors.__all__  # Errors: the base class, then one per kind.
