"""Types of ``toolnexus._native``, the Rust half of toolnexus. Import ``toolnexus`` instead."""

from typing import Any, Callable, ClassVar, Final, Literal, Protocol, final

from typing_extensions import Self, TypeAlias

from collections.abc import Iterable, Mapping

from ._number import Number as _RpcNumber

__all__ = [
    "Answer",
    "ERROR_KINDS",
    "ElicitResult",
    "Limits",
    "Request",
    "Violation",
    "answer_to_elicit_result",
    "elicitation_to_request",
    "format_id",
    "next_id",
    "__version__",
    # Schemas, content, forms, secrets and URL review.
    "Constraints",
    "FieldOption",
    "Form",
    "FormField",
    "SchemaProblem",
    "SensitiveField",
    "UrlFinding",
    "UrlReview",
    "apply_defaults",
    "check_schema",
    "form_fields",
    "from_json",
    "parse_field_input",
    "prepare_content",
    "reject_secrets",
    "review_url",
    "sensitive_fields",
    "to_json",
    "validate_content",
    # The form on a web page.
    "html_stylesheet",
    # Server text on a terminal.
    "terminal_json",
    "terminal_text",
    # The session and the two wires.
    "ClientRequest",
    "Incoming",
    "InputRequest",
    "InputRequired",
    "InputRound",
    "ReverseBridge",
    "ServerResult",
    "Session",
    "classify_result",
    "refusal_code",
    "with_client_capabilities",
    # Tasks.
    "TaskInfo",
    "TaskCall",
    "TaskDriver",
    "TaskEvent",
    # Authorization.
    "AUTH_ERROR_KINDS",
    "AuthConfig",
    "AuthDecision",
    "AuthFlow",
    "AuthPolicy",
    "Authorize",
    "Challenge",
    "DeviceCode",
    "Done",
    "Fetch",
    "Grant",
    "Poll",
    "parse_challenge",
]

__version__: Final[str]
ERROR_KINDS: Final[tuple[str, ...]]
"""The snake_case name of every kind of error the core reports, in its order."""
AUTH_ERROR_KINDS: Final[tuple[str, ...]]
"""The ``kind`` of every ``AuthError`` an authorization flow raises, in its order."""

_JsonObject: TypeAlias = dict[str, Any]
"""A JSON object as Python holds it: ``str`` keys, values ``None``, ``bool``, ``int``,
``float`` (``toolnexus.Number`` keeps a spelling), ``str``, ``list``/``tuple`` or such a dict."""

_JsonText: TypeAlias = str | bytes | bytearray
"""JSON text, read by the core within the limits."""

class _ModelDump(Protocol):
    """A pydantic model, such as the ``ElicitRequestParams`` of the ``mcp`` package."""

    def model_dump(self, *, by_alias: bool, exclude_none: bool) -> dict[str, Any]: ...

class _FromJson:
    """A class read from JSON: ``from_dict`` and ``from_json`` (text as ``str``, ``bytes`` or
    ``bytearray``), within ``limits``, ending in the core's reading."""

    @classmethod
    def from_dict(cls, value: _JsonObject, *, limits: Limits | None = None) -> Self: ...
    @classmethod
    def from_json(cls, text: _JsonText, *, limits: Limits | None = None) -> Self: ...

class _JsonClass(_FromJson):
    """A class read from and written as JSON: equal, hashed and pickled by its exact JSON."""

    def to_dict(self) -> _JsonObject: ...
    def to_json(self) -> str: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[str], Self], tuple[str]]: ...

class _Unhashable:
    """Equal by value, and not hashable: it holds JSON as received."""

    def __eq__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

class _PlainData:
    """A few attributes: ``to_dict`` by name, equal and hashed by value, pickled through the
    constructor."""

    def to_dict(self) -> dict[str, str]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Self], tuple[str, ...]]: ...

@final
class Limits:
    """Bounds every JSON input is read within; each one exceeded is a typed error."""

    DEFAULT: ClassVar[Limits]
    DEPTH_CEILING: ClassVar[int]
    def __new__(
        cls,
        *,
        max_input_bytes: int = 4194304,
        max_depth: int = 64,
        max_object_members: int = 1000,
        max_array_items: int = 10000,
    ) -> Limits: ...
    @property
    def max_input_bytes(self) -> int: ...
    @property
    def max_depth(self) -> int: ...
    @property
    def max_object_members(self) -> int: ...
    @property
    def max_array_items(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[], Limits], tuple[()]]: ...

@final
class Violation(_PlainData):
    """One way content breaks its form's schema."""

    def __new__(cls, pointer: str, keyword: str, message: str) -> Violation: ...
    @property
    def pointer(self) -> str: ...
    @property
    def keyword(self) -> str: ...
    @property
    def message(self) -> str: ...

@final
class Request(_JsonClass):
    """What a suspended tool call asks its host to resolve."""

    def __new__(
        cls,
        id: str,
        kind: str,
        prompt: str,
        url: str | None = None,
        data: _JsonObject | None = None,
        expires_at: str | None = None,
    ) -> Request: ...
    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def prompt(self) -> str: ...
    @property
    def url(self) -> str | None: ...
    @property
    def data(self) -> _JsonObject | None: ...
    @property
    def expires_at(self) -> str | None: ...
    @property
    def schema(self) -> _JsonObject | None: ...
    @property
    def form(self) -> Form | None: ...
    def to_html(
        self,
        *,
        form_data: _FormData | None = None,
        error: _Error | None = None,
        asker: str | None = None,
        class_prefix: str = "tn-",
        hidden: _HiddenFields | None = None,
        action: str | None = None,
        utc_offset: str = "Z",
        apply_defaults: bool = False,
        allow_unknown: bool = False,
        limits: Limits | None = None,
    ) -> str:
        """The request as an HTML fragment, one ``<form method="post">``: a form request's
        fields or a URL request's consent. With ``form_data`` (what was posted) and ``error``
        (what ``answer_from_form_data`` raised for it), the same form again with the values
        kept and each problem beside its field. ``asker`` is who asks, as the host verified it
        (never the server's own words); ``hidden`` the host's own hidden fields (a CSRF
        token); ``action`` where the form posts (by default, the page's own address);
        ``utc_offset`` the person's offset for ``date-time`` fields. A refused option raises
        ``InvalidValueError``; a request with neither a schema nor a URL
        ``MissingFieldError``."""
    def answer_from_form_data(
        self,
        data: _FormData,
        *,
        utc_offset: str = "Z",
        apply_defaults: bool = False,
        allow_unknown: bool = False,
        hidden: _HiddenNames | None = None,
        limits: Limits | None = None,
    ) -> Answer:
        """The ``Answer`` from what the browser posted to the page ``to_html`` wrote: accept
        with the content read and validated, decline or cancel. ``data`` is the urlencoded body
        (``bytes`` or ``str``) or the ``(name, value)`` pairs a framework decoded (Starlette's
        ``form.multi_items()``); ``hidden`` names the host's own fields, which are skipped.
        Content that breaks the form raises ``InvalidContentError`` (pass it to ``to_html`` as
        ``error``); a post the page never wrote raises the ``Error`` of its kind."""

@final
class Answer(_JsonClass):
    """How a host resolved a ``Request``."""

    def __new__(
        cls,
        id: str,
        ok: bool,
        data: _JsonObject | None = None,
        reason: str | None = None,
    ) -> Answer: ...
    @property
    def id(self) -> str: ...
    @property
    def ok(self) -> bool: ...
    @property
    def data(self) -> _JsonObject | None: ...
    @property
    def reason(self) -> str | None: ...

@final
class ElicitResult(_JsonClass):
    """MCP's ``ElicitResult``, the client's reply to ``elicitation/create``."""

    def __new__(
        cls,
        action: str,
        content: _JsonObject | None = None,
        *,
        meta: _JsonObject | None = None,
    ) -> ElicitResult: ...
    @property
    def action(self) -> Literal["accept", "decline", "cancel"]: ...
    @property
    def content(self) -> _JsonObject | None: ...
    @property
    def meta(self) -> _JsonObject | None: ...

def elicitation_to_request(
    params: _JsonObject | _JsonText | _ModelDump,
    *,
    id: str | None = None,
    limits: Limits | None = None,
) -> Request:
    """Maps the parameters of an MCP ``elicitation/create`` onto a ``Request``."""

def answer_to_elicit_result(
    answer: Answer | _JsonObject | _JsonText, *, limits: Limits | None = None
) -> ElicitResult:
    """Maps a resolved ``Answer`` (or its dict or JSON text) onto MCP's ``ElicitResult``."""

def format_id(unix_ms: int, sequence: int) -> str:
    """The id ``elc-<unix_ms in lower hex>-<sequence>``."""

def next_id() -> str:
    """A fresh id from the system clock and a process-wide sequence."""

# Schemas, content, forms, secrets and URL review.

from ._literals import SecretKind as _SecretKind
from ._literals import Severity as _Severity
from ._literals import Verdict as _Verdict
from ._literals import Widget as _Widget
from ._number import Number as _Number

_Schema: TypeAlias = _JsonObject | _JsonText
"""A ``requestedSchema``: a dict, or JSON text read within the limits."""

@final
class SchemaProblem(_PlainData):
    """One problem with a schema: a stable kind, a JSON pointer into the schema, a message."""

    KINDS: ClassVar[tuple[str, ...]]
    def __new__(cls, kind: str, pointer: str, message: str) -> SchemaProblem: ...
    @property
    def kind(self) -> str: ...
    @property
    def pointer(self) -> str: ...
    @property
    def message(self) -> str: ...

def check_schema(schema: Any, *, limits: Limits | None = None) -> list[SchemaProblem]:
    """Every problem with ``schema`` as an MCP ``requestedSchema``; empty when well-formed."""

def validate_content(
    schema: _Schema,
    content: Any,
    *,
    allow_unknown: bool = False,
    limits: Limits | None = None,
) -> list[Violation]:
    """Every way ``content`` breaks ``schema``; empty when the content is valid."""

def apply_defaults(
    schema: _Schema, content: _JsonObject | _JsonText, *, limits: Limits | None = None
) -> _JsonObject:
    """``content`` with every absent property filled from its ``default``."""

def prepare_content(
    schema: _Schema,
    content: Any,
    *,
    allow_unknown: bool = False,
    limits: Limits | None = None,
) -> _JsonObject:
    """Defaults filled in, then validated; raises ``InvalidContentError`` listing violations."""

@final
class FieldOption(_PlainData):
    """One choice of a select field: the value content holds and the label to show."""

    def __new__(cls, value: str, label: str) -> FieldOption: ...
    @property
    def value(self) -> str: ...
    @property
    def label(self) -> str: ...

@final
class Constraints:
    """The limits a field's value must keep; those not set are ``None``."""

    @property
    def min_length(self) -> int | None: ...
    @property
    def max_length(self) -> int | None: ...
    @property
    def minimum(self) -> int | _Number | None: ...
    @property
    def maximum(self) -> int | _Number | None: ...
    @property
    def min_items(self) -> int | None: ...
    @property
    def max_items(self) -> int | None: ...
    def to_dict(self) -> dict[str, int | _Number]: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class FormField:
    """One field of a form, ready for a UI; from ``Form.fields`` or ``form_fields``."""

    WIDGETS: ClassVar[tuple[_Widget, ...]]
    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def description(self) -> str | None: ...
    @property
    def required(self) -> bool: ...
    @property
    def widget(self) -> _Widget: ...
    @property
    def options(self) -> list[FieldOption]: ...
    @property
    def constraints(self) -> Constraints: ...
    @property
    def default(self) -> Any: ...
    @property
    def sensitive(self) -> bool: ...
    @property
    def secret_kind(self) -> _SecretKind | None: ...
    def to_dict(self) -> _JsonObject: ...
    def to_json(self) -> str: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Form:
    """A ``requestedSchema`` prepared once: its fields, its problems, and what is done with
    content, none of which reads the schema again."""

    def __new__(cls, schema: _Schema, *, limits: Limits | None = None) -> Form: ...
    @property
    def fields(self) -> tuple[FormField, ...]: ...
    def field(self, name: str) -> FormField | None: ...
    @property
    def problems(self) -> tuple[SchemaProblem, ...]: ...
    @property
    def schema(self) -> _JsonObject: ...
    def validate(
        self, content: Any, *, allow_unknown: bool = False, limits: Limits | None = None
    ) -> list[Violation]: ...
    def prepare(
        self, content: Any, *, allow_unknown: bool = False, limits: Limits | None = None
    ) -> _JsonObject: ...
    def apply_defaults(
        self, content: _JsonObject | _JsonText, *, limits: Limits | None = None
    ) -> _JsonObject: ...
    @property
    def defaults(self) -> _JsonObject: ...
    def parse(self, field_name: str, text: str) -> Any: ...
    def sensitive_fields(self) -> list[SensitiveField]: ...
    def reject_secrets(self) -> None: ...
    def to_html(
        self,
        message: str = "",
        *,
        form_data: _FormData | None = None,
        error: _Error | None = None,
        asker: str | None = None,
        class_prefix: str = "tn-",
        hidden: _HiddenFields | None = None,
        action: str | None = None,
        utc_offset: str = "Z",
        apply_defaults: bool = False,
        allow_unknown: bool = False,
        limits: Limits | None = None,
    ) -> str:
        """The form, asked with ``message``, as an HTML fragment; the options and the
        re-render (``form_data`` and the ``error`` ``read_form_data`` raised) as
        ``Request.to_html`` takes them."""
    def read_form_data(
        self,
        data: _FormData,
        *,
        utc_offset: str = "Z",
        apply_defaults: bool = False,
        allow_unknown: bool = False,
        hidden: _HiddenNames | None = None,
        limits: Limits | None = None,
    ) -> tuple[Literal["accept", "decline", "cancel"], _JsonObject | None]:
        """What the person did with the page ``to_html`` wrote: ``("accept", content)`` with
        the content read and validated, ``("decline", None)`` or ``("cancel", None)``; raising
        as ``Request.answer_from_form_data`` does."""
    def __len__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Form], tuple[_JsonObject]]: ...

# The form on a web page.

from ._errors import Error as _Error

_Pair: TypeAlias = tuple[str, str] | list[str]
"""A name and its value: a tuple, or a list of the two."""

_FormData: TypeAlias = bytes | bytearray | str | Iterable[_Pair]
"""What the browser posted: the ``application/x-www-form-urlencoded`` body (``bytes``, or a
``str`` read as its UTF-8), or its ``(name, value)`` pairs in the order posted (Starlette's
``form.multi_items()``), read within the limits."""

_HiddenFields: TypeAlias = Iterable[_Pair] | Mapping[str, str]
"""The host's own hidden fields (a CSRF token): ``(name, value)`` pairs or a mapping; no name
may be empty, start with ``tn-`` or be given twice."""

_HiddenNames: TypeAlias = Iterable[str | _Pair] | Mapping[str, str]
"""The host's own fields a post may carry, skipped when it is read: names, or the same pairs
``to_html`` took."""

def html_stylesheet(class_prefix: str = "tn-") -> str:
    """The style sheet the HTML fragments are made for, with the classes of ``class_prefix``:
    serve it as a file of the page's own origin (``style-src 'self'``)."""

def form_fields(schema: _Schema, *, limits: Limits | None = None) -> list[FormField]:
    """The fields of ``schema``'s form, in the order of its properties."""

def parse_field_input(field: FormField, text: str) -> Any:
    """The value typed ``text`` gives ``field``, or ``None`` for a blank optional field."""

@final
class SensitiveField(_PlainData):
    """A field that seems to ask for a secret: its name and the kind of secret."""

    KINDS: ClassVar[tuple[_SecretKind, ...]]
    def __new__(cls, name: str, kind: _SecretKind) -> SensitiveField: ...
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> _SecretKind: ...

def sensitive_fields(schema: _Schema, *, limits: Limits | None = None) -> list[SensitiveField]:
    """Every property of ``schema`` that seems to ask for a secret, in schema order."""

def reject_secrets(schema: _Schema, *, limits: Limits | None = None) -> None:
    """Raises ``SensitiveFieldError`` at the first property that seems to ask for a secret."""

@final
class UrlFinding(_PlainData):
    """One thing a URL review found: a stable code, its severity and a message."""

    CODES: ClassVar[tuple[str, ...]]
    def __new__(cls, code: str, message: str) -> UrlFinding: ...
    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> _Severity: ...
    @property
    def message(self) -> str: ...

@final
class UrlReview:
    """What to show a person before they consent to open a URL; made by ``review_url``."""

    @property
    def url(self) -> str: ...
    @property
    def scheme(self) -> str | None: ...
    @property
    def host(self) -> str | None: ...
    @property
    def host_ascii(self) -> str | None: ...
    @property
    def port(self) -> int | None: ...
    @property
    def verdict(self) -> _Verdict: ...
    @property
    def findings(self) -> list[UrlFinding]: ...
    def has(self, code: str) -> bool: ...
    def to_dict(self) -> _JsonObject: ...
    def to_json(self) -> str: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def review_url(url: str) -> UrlReview:
    """Reviews ``url`` before consent: what to show and what to warn about."""

_LineBreaks: TypeAlias = Literal["keep", "show"]

def terminal_text(text: str, line_breaks: _LineBreaks = "keep") -> str:
    """``text`` as it is safe to show on a terminal: controls, escape sequences, bidi controls
    and invisible characters written as visible escapes; line breaks kept (``"keep"``) or shown
    as ``\\n`` (``"show"``)."""

def terminal_json(json: str) -> str:
    """JSON text as it is safe to show on a terminal, and still the same JSON."""

def from_json(text: _JsonText, *, limits: Limits | None = None) -> Any:
    """Reads JSON text exactly as toolnexus does: ``int``, ``Number``, ordered ``dict``."""

def to_json(value: Any, *, limits: Limits | None = None) -> str:
    """Writes a JSON-able value as compact JSON with the core's exact rules."""

# The session, the two wires and tasks.

_Modes: TypeAlias = str | Iterable[str]
"""Elicitation modes by name: ``"form"``, ``"url"``, ``"all"``, or an iterable of them."""

# The session options (``modes``, ``max_pending``, ``ttl_ms``, ``apply_defaults``,
# ``allow_unknown``, ``reject_secrets``): each one left ``None`` is the core's default (both
# modes, 64 pending requests, no time to live, no defaults filled in, no unknown members, forms
# asking for secrets allowed).

_RpcId: TypeAlias = str | int | _RpcNumber
"""A JSON-RPC id: a ``str`` or an ``int`` (a ``Number`` for an integer spelt otherwise)."""

_AnswerArg: TypeAlias = Answer | _JsonObject | _JsonText
"""An ``Answer``, its dict or its JSON text."""

@final
class Session:
    """The requests a host has been asked and not yet answered, and the rules for answering
    them; safe to share between threads."""

    def __new__(
        cls,
        *,
        modes: _Modes | None = None,
        max_pending: int | None = None,
        ttl_ms: int | None = None,
        apply_defaults: bool | None = None,
        allow_unknown: bool | None = None,
        reject_secrets: bool | None = None,
    ) -> Session: ...
    def begin(
        self,
        params: _JsonObject | _JsonText | _ModelDump,
        id: str | None,
        now_ms: int,
        *,
        limits: Limits | None = None,
    ) -> Request: ...
    def resolve(
        self, answer: _AnswerArg, now_ms: int, *, limits: Limits | None = None
    ) -> ElicitResult: ...
    def pending(self) -> list[Request]: ...
    def get(self, id: str) -> Request | None: ...
    def form(self, request_id: str) -> Form | None: ...
    def __contains__(self, id: str, /) -> bool: ...
    def __len__(self) -> int: ...
    def awaiting_completion(self) -> list[tuple[str, str]]: ...
    def complete(self, elicitation_id: str) -> str | None: ...
    def withdraw(self, request_id: str) -> bool: ...
    def expire(self, now_ms: int) -> list[tuple[str, ElicitResult]]: ...
    def cancel_all(self) -> list[tuple[str, ElicitResult]]: ...
    def snapshot(self, request_id: str, *, key: bytes | str | None = None) -> bytes:
        """The pending request ``request_id`` written down with the session's options; a
        ``key`` is at least 32 bytes."""
    def snapshot_id(self, request_id: str) -> str:
        """The stable id of the snapshot of ``request_id``: keep it under this id, claim it
        once."""
    @staticmethod
    def restore(
        snapshot: bytes | bytearray | str,
        *,
        keys: Iterable[bytes | str] | bytes | str = (),
        limits: Limits | None = None,
        now_ms: int | None = None,
    ) -> Session:
        """A session holding the one pending request a ``snapshot`` wrote."""
    @property
    def modes(self) -> tuple[str, ...]: ...
    @property
    def max_pending(self) -> int: ...
    @property
    def ttl_ms(self) -> int | None: ...

@final
class Incoming(_Unhashable):
    """What a message from the server asks of the host; ``type`` says which fields are set."""

    @property
    def type(self) -> Literal["elicit", "reply", "completed", "withdrawn", "ignored"]: ...
    @property
    def rpc_id(self) -> _RpcId | None: ...
    @property
    def request(self) -> Request | None: ...
    @property
    def reply(self) -> str | None: ...
    @property
    def request_id(self) -> str | None: ...
    @property
    def reason(
        self,
    ) -> (
        Literal[
            "response",
            "notification",
            "unknown_elicitation",
            "unknown_request",
            "malformed_notification",
        ]
        | None
    ): ...

@final
class ReverseBridge:
    """One client's end of the 2025 elicitation wire (JSON-RPC ``elicitation/create``)."""

    def __new__(
        cls,
        *,
        modes: _Modes | None = None,
        max_pending: int | None = None,
        ttl_ms: int | None = None,
        apply_defaults: bool | None = None,
        allow_unknown: bool | None = None,
        reject_secrets: bool | None = None,
    ) -> ReverseBridge: ...
    def receive(
        self, message: _JsonText, now_ms: int, *, limits: Limits | None = None
    ) -> Incoming: ...
    def respond(
        self, answer: _AnswerArg, now_ms: int, *, limits: Limits | None = None
    ) -> str | None: ...
    def fail(self, request_id: str, message: str = "") -> str | None: ...
    def url_required(
        self, error_response: _JsonText, now_ms: int, *, limits: Limits | None = None
    ) -> list[Request]: ...
    def capabilities(self) -> _JsonObject: ...
    def cancel_all(self) -> list[str]: ...
    def expire(self, now_ms: int) -> list[str]: ...
    def pending(self) -> list[Request]: ...
    def awaiting_completion(self) -> list[tuple[str, str]]: ...
    def rpc_id(self, request_id: str) -> _RpcId | None: ...
    @property
    def modes(self) -> tuple[str, ...]: ...

@final
class ClientRequest(_FromJson, _Unhashable):
    """A JSON-RPC request the client sends, every member kept as received."""

    @property
    def id(self) -> _RpcId: ...
    @property
    def method(self) -> str: ...
    @property
    def params(self) -> _JsonObject | None: ...
    def with_client_capabilities(self, *, modes: _Modes | None = None) -> ClientRequest: ...
    def to_json(self) -> str: ...

@final
class InputRequest(_Unhashable):
    """One entry of ``inputRequests``."""

    @property
    def key(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def params(self) -> _JsonObject | None: ...
    @property
    def is_elicitation(self) -> bool: ...

@final
class InputRequired(_FromJson, _Unhashable):
    """A result with ``resultType: "input_required"``."""

    @property
    def input_requests(self) -> list[InputRequest]: ...
    @property
    def request_state(self) -> str | None: ...
    @property
    def response_id(self) -> _RpcId | None: ...

@final
class ServerResult(_Unhashable):
    """What a server's result is, by its ``resultType``; ``type`` says which."""

    @property
    def type(self) -> Literal["complete", "input_required", "unknown"]: ...
    @property
    def result(self) -> _JsonObject | None: ...
    @property
    def result_type(self) -> str | None: ...
    @property
    def input_required(self) -> InputRequired | None: ...

@final
class InputRound:
    """One round of a 2026-07-28 multi round-trip request; safe to share between threads."""

    @staticmethod
    def start(
        request: ClientRequest | _JsonObject | _JsonText,
        response: InputRequired | _JsonObject | _JsonText,
        now_ms: int,
        *,
        modes: _Modes | None = None,
        max_pending: int | None = None,
        ttl_ms: int | None = None,
        apply_defaults: bool | None = None,
        allow_unknown: bool | None = None,
        reject_secrets: bool | None = None,
        limits: Limits | None = None,
    ) -> tuple[InputRound, list[tuple[str, Request]]]: ...
    def next_round(
        self,
        response: InputRequired | _JsonObject | _JsonText,
        now_ms: int,
        *,
        limits: Limits | None = None,
    ) -> tuple[InputRound, list[tuple[str, Request]]]: ...
    def resolve(
        self, answer: _AnswerArg, now_ms: int, *, limits: Limits | None = None
    ) -> tuple[str, ElicitResult]: ...
    def supply(self, key: str, result: _JsonObject, *, limits: Limits | None = None) -> None: ...
    def unhandled(self) -> list[InputRequest]: ...
    def missing(self) -> list[str]: ...
    def pending(self) -> list[tuple[str, Request]]: ...
    @property
    def request_state(self) -> str | None: ...
    @property
    def input_required(self) -> InputRequired: ...
    @property
    def answered_id(self) -> _RpcId: ...
    def retry(self, id: _RpcId, *, partial: bool = False) -> str: ...
    def expire(self, now_ms: int) -> list[tuple[str, ElicitResult]]: ...
    def cancel_pending(self) -> list[tuple[str, ElicitResult]]: ...
    def snapshot(self, *, key: bytes | str | None = None) -> bytes:
        """The round written down: a small versioned JSON document, sealed with HMAC-SHA-256
        when ``key`` (at least 32 bytes) is given."""
    @property
    def snapshot_id(self) -> str:
        """The stable id of the round's snapshot: keep it under this id, claim it once."""
    @staticmethod
    def restore(
        snapshot: bytes | bytearray | str,
        *,
        keys: Iterable[bytes | str] | bytes | str = (),
        limits: Limits | None = None,
        now_ms: int | None = None,
    ) -> InputRound:
        """The round a ``snapshot`` wrote, as it was; ``keys``: the keys it may be sealed with."""

def classify_result(
    response: _JsonObject | _JsonText, *, limits: Limits | None = None
) -> ServerResult:
    """Tells a server's result apart by its ``resultType``."""

def refusal_code(kind: str) -> int:
    """The JSON-RPC error code for an ``elicitation/create`` a session refuses with ``kind``."""

def with_client_capabilities(
    request: ClientRequest | _JsonObject | _JsonText,
    *,
    modes: _Modes | None = None,
    limits: Limits | None = None,
) -> str:
    """Stamps the ``elicitation`` capability for ``modes`` onto a JSON-RPC request."""

# Tasks.

from ._literals import TaskStatus as _TaskStatus

_Era: TypeAlias = Literal["modern", "handshake"]
"""The era a task is followed in: ``"modern"`` (2026-07-28) or ``"handshake"`` (2025-06-18,
2025-11-25)."""

_TaskResponse: TypeAlias = _JsonObject | _JsonText
"""A reply the server sent: the whole JSON-RPC response or its result, as a dict or JSON text."""

@final
class TaskInfo:
    """A task as the server last described it, in either era's spelling."""

    STATUSES: ClassVar[tuple[_TaskStatus, ...]]
    @property
    def task_id(self) -> str: ...
    @property
    def status(self) -> _TaskStatus: ...
    @property
    def status_message(self) -> str | None: ...
    @property
    def created_at(self) -> str | None: ...
    @property
    def last_updated_at(self) -> str | None: ...
    @property
    def ttl_ms(self) -> int | None: ...
    @property
    def poll_interval_ms(self) -> int | None: ...
    def to_dict(self) -> dict[str, str | int | None]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class TaskEvent(_Unhashable):
    """What a poll of the task says; ``kind`` says which fields are set."""

    @property
    def type(self) -> Literal["working", "input_required", "completed", "failed", "cancelled"]: ...
    @property
    def changed(self) -> bool | None: ...
    @property
    def requests(self) -> list[tuple[str, Request]] | None: ...
    @property
    def result(self) -> _JsonObject | None: ...
    @property
    def error(self) -> _JsonObject | None: ...

@final
class TaskCall(_Unhashable):
    """A request a ``TaskDriver`` asks the host to send."""

    @property
    def method(self) -> Literal["tasks/get", "tasks/update", "tasks/cancel", "tasks/result"]: ...
    @property
    def params(self) -> _JsonObject: ...
    def to_request(self, id: _RpcId) -> str: ...

@final
class TaskDriver:
    """One task, followed until it ends, in either era; safe to share between threads."""

    @staticmethod
    def start(
        response: _TaskResponse,
        era: _Era,
        now_ms: int,
        *,
        modes: _Modes | None = None,
        max_pending: int | None = None,
        ttl_ms: int | None = None,
        apply_defaults: bool | None = None,
        allow_unknown: bool | None = None,
        reject_secrets: bool | None = None,
        limits: Limits | None = None,
    ) -> TaskDriver | None: ...
    def set_meta(self, meta: _JsonObject | _JsonText, *, limits: Limits | None = None) -> None: ...
    @property
    def task(self) -> TaskInfo: ...
    @property
    def era(self) -> _Era: ...
    @property
    def is_done(self) -> bool: ...
    @property
    def poll_interval_ms(self) -> int: ...
    @property
    def next_poll_at(self) -> int: ...
    @property
    def changed_at(self) -> int: ...
    def poll_due(self, now_ms: int) -> bool: ...
    def get(self) -> TaskCall: ...
    def cancel(self) -> TaskCall: ...
    def result(self) -> TaskCall: ...
    def read(
        self, response: _TaskResponse, now_ms: int, *, limits: Limits | None = None
    ) -> TaskEvent: ...
    def resolve(
        self, answer: _AnswerArg, now_ms: int, *, limits: Limits | None = None
    ) -> tuple[str, ElicitResult]: ...
    def supply(self, key: str, result: _JsonObject, *, limits: Limits | None = None) -> None: ...
    def pending(self) -> list[tuple[str, Request]]: ...
    def unhandled(self) -> list[InputRequest]: ...
    def form(self, request_id: str) -> Form | None: ...
    def expire(self, now_ms: int) -> list[tuple[str, ElicitResult]]: ...
    def cancel_pending(self) -> list[tuple[str, ElicitResult]]: ...
    def update(self, *, partial: bool = False) -> TaskCall | None: ...
    def shown(self) -> list[str]: ...
    def sent(self) -> list[str]: ...

# Authorization (OAuth 2.1 with PKCE), driven by the host's HTTP client.

@final
class Challenge:
    """What a resource server's 401 or 403 asked for, read from its ``WWW-Authenticate``."""

    @property
    def status(self) -> int: ...
    @property
    def scheme(self) -> str: ...
    @property
    def resource_metadata(self) -> str | None: ...
    @property
    def scope(self) -> str | None: ...
    @property
    def error(self) -> str | None: ...
    @property
    def is_insufficient_scope(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def parse_challenge(status: int, www_authenticate: str | None) -> Challenge:
    """The challenge of a response of ``status`` with this ``WWW-Authenticate`` header."""

_DpopUse: TypeAlias = Literal["when-offered", "always", "never"]
"""When an ``AuthFlow`` proves its token requests with DPoP (RFC 9449)."""
_GrantName: TypeAlias = Literal[
    "authorization_code", "client_credentials", "jwt_bearer", "enterprise", "device_code"
]
"""How an ``AuthFlow`` obtains its token: a person signing in, a grant for machines, or a
person signing in on another device with a code (``device_code``, RFC 8628: beyond the MCP
specification)."""

@final
class AuthConfig:
    """The client's identity, its redirect URI and the bounds of every flow."""

    def __new__(
        cls,
        client_name: str,
        redirect_uri: str,
        *,
        client_id: str | None = None,
        client_secret: str | None = None,
        client_issuer: str | None = None,
        client_metadata_url: str | None = None,
        limits: Limits | None = None,
        max_authorizations: int = 3,
        dpop: _DpopUse = "when-offered",
        grant: _GrantName = "authorization_code",
        client_key: str | None = None,
        assertion: str | None = None,
        id_token: str | None = None,
        idp_token_endpoint: str | None = None,
        idp_client_id: str | None = None,
        idp_client_secret: str | None = None,
    ) -> AuthConfig: ...
    @property
    def client_name(self) -> str: ...
    @property
    def redirect_uri(self) -> str: ...
    @property
    def client_id(self) -> str | None: ...
    @property
    def has_client_secret(self) -> bool: ...
    @property
    def client_issuer(self) -> str | None: ...
    @property
    def client_metadata_url(self) -> str | None: ...
    @property
    def limits(self) -> Limits: ...
    @property
    def max_authorizations(self) -> int: ...
    @property
    def dpop(self) -> _DpopUse: ...
    @property
    def grant(self) -> _GrantName: ...
    @property
    def has_client_key(self) -> bool: ...
    def reuses(self, grant: Grant, resource_url: str) -> str | None: ...

@final
class Grant(_Unhashable):
    """What a flow got: the token, its expiry, what a refresh needs and, for a DPoP-bound
    token, the ``proof`` each request needs."""

    @property
    def access_token(self) -> str: ...
    @property
    def token_type(self) -> str: ...
    @property
    def authorization(self) -> str: ...
    @property
    def is_dpop(self) -> bool: ...
    def proof(
        self,
        method: str,
        url: str,
        *,
        now_ms: int | None = None,
        nonce: str | None = None,
        jti: bytes | bytearray | None = None,
    ) -> str | None: ...
    @property
    def refresh_token(self) -> str | None: ...
    @property
    def has_refresh_token(self) -> bool: ...
    @property
    def expires_at_ms(self) -> int | None: ...
    @property
    def scope(self) -> str | None: ...
    @property
    def issuer(self) -> str: ...
    @property
    def resource(self) -> str | None: ...
    @property
    def token_endpoint(self) -> str: ...
    @property
    def client_id(self) -> str: ...
    @property
    def obtained_by(self) -> _GrantName: ...
    @property
    def authorizations(self) -> int: ...
    def is_expired(self, now_ms: int | None = None) -> bool: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str | bytes | bytearray, *, limits: Limits | None = None) -> Grant: ...

@final
class Fetch(_Unhashable):
    """An HTTP request to send without following redirects; its response goes to
    ``AuthFlow.on_response``."""

    @property
    def method(self) -> Literal["GET", "POST"]: ...
    @property
    def url(self) -> str: ...
    @property
    def headers(self) -> list[tuple[str, str]]: ...
    @property
    def body(self) -> bytes: ...
    def header(self, name: str) -> str | None: ...

@final
class Authorize(_Unhashable):
    """A URL for a person to open; the redirect's query goes to ``AuthFlow.on_redirect``."""

    @property
    def url(self) -> str: ...
    @property
    def state(self) -> str: ...
    @property
    def redirect_uri(self) -> str: ...
    @property
    def request(self) -> Request: ...

@final
class DeviceCode(_Unhashable):
    """What a person is shown in the device grant (RFC 8628, beyond the MCP specification):
    the authorization server's text, to show as untrusted text, its link reviewed."""

    @property
    def user_code(self) -> str: ...
    @property
    def verification_uri(self) -> str: ...
    @property
    def verification_uri_complete(self) -> str | None: ...
    @property
    def link(self) -> str: ...
    @property
    def expires_at_ms(self) -> int: ...
    @property
    def request(self) -> Request: ...

@final
class Poll:
    """The device grant waits: show ``code`` on the first poll, send ``request`` at ``at_ms``
    or later; its response goes to ``AuthFlow.on_response``."""

    @property
    def code(self) -> DeviceCode: ...
    @property
    def at_ms(self) -> int: ...
    @property
    def attempt(self) -> int: ...
    @property
    def request(self) -> Fetch: ...

@final
class Done:
    """The flow is over: ``grant`` is what it got."""

    @property
    def grant(self) -> Grant: ...

_Next: TypeAlias = Fetch | Authorize | Poll | Done
"""What the host does next."""

_DecisionAction: TypeAlias = Literal["resend", "retry_with_nonce", "refresh", "authorize", "step_up"]

@final
class AuthDecision:
    """What a host does next about a refused request."""

    @property
    def action(self) -> _DecisionAction: ...
    @property
    def challenge(self) -> Challenge | None: ...
    @property
    def nonce(self) -> str | None: ...

@final
class AuthPolicy:
    """What to do when an MCP server refuses a request; safe to share between threads."""

    def __new__(cls, max_authorizations: int = 3) -> AuthPolicy: ...
    def decide(
        self,
        status: int,
        www_authenticate: str | None = None,
        *,
        dpop_nonce: str | None = None,
        sent: str | None = None,
        held: Grant | None = None,
        now_ms: int | None = None,
        retried_with_nonce: bool = False,
    ) -> AuthDecision: ...
    def refresh_failed(self) -> None: ...
    def holds_new_grant(self) -> None: ...
    @property
    def authorizations(self) -> int: ...

@final
class AuthFlow:
    """One authorization of one MCP server, driven by the host's HTTP client; safe to share
    between threads."""

    @staticmethod
    def start(
        resource_url: str,
        challenge: Challenge,
        config: AuthConfig,
        *,
        previous: Grant | None = None,
        entropy: bytes | bytearray | None = None,
    ) -> tuple[AuthFlow, _Next]: ...
    @staticmethod
    def refresh(
        resource_url: str,
        grant: Grant,
        config: AuthConfig,
        *,
        now_ms: int | None = None,
        entropy: bytes | bytearray | None = None,
    ) -> tuple[AuthFlow, _Next]: ...
    @staticmethod
    def refresh_untimed(resource_url: str, grant: Grant, config: AuthConfig) -> tuple[AuthFlow, _Next]: ...
    def on_response(
        self,
        status: int,
        headers: Mapping[str, str] | Iterable[tuple[str, str]],
        body: bytes | bytearray,
        *,
        now_ms: int | None = None,
    ) -> _Next: ...
    def on_redirect(self, query: str, *, now_ms: int | None = None) -> _Next: ...
    @property
    def issuer(self) -> str | None: ...
    @property
    def resource(self) -> str | None: ...
    @property
    def client_id(self) -> str | None: ...
    @property
    def scope(self) -> str | None: ...
    @property
    def authorizations(self) -> int: ...
