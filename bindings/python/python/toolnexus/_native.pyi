"""Types of ``toolnexus._native``, the Rust half of toolnexus. Import ``toolnexus`` instead."""

from typing import Any, Callable, ClassVar, Final, Literal, Protocol, final

from typing_extensions import TypeAlias

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
]

__version__: Final[str]
ERROR_KINDS: Final[tuple[str, ...]]
"""The snake_case name of every kind of error the core reports, in its order."""

_JsonObject: TypeAlias = dict[str, Any]
"""A JSON object as Python holds it: ``str`` keys, values ``None``, ``bool``, ``int``,
``float`` (``toolnexus.Number`` keeps a spelling), ``str``, ``list``/``tuple`` or such a dict."""

_JsonText: TypeAlias = str | bytes | bytearray
"""JSON text, read by the core within the limits."""

class _ModelDump(Protocol):
    """A pydantic model, such as the ``ElicitRequestParams`` of the ``mcp`` package."""

    def model_dump(self, *, by_alias: bool, exclude_none: bool) -> dict[str, Any]: ...

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
class Violation:
    """One way content breaks its form's schema."""

    def __new__(cls, path: str, keyword: str, message: str) -> Violation: ...
    @property
    def path(self) -> str: ...
    @property
    def keyword(self) -> str: ...
    @property
    def message(self) -> str: ...
    def to_dict(self) -> dict[str, str]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Violation], tuple[str, str, str]]: ...

@final
class Request:
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
    @classmethod
    def from_dict(cls, value: _JsonObject, *, limits: Limits | None = None) -> Request: ...
    @classmethod
    def from_json(cls, text: _JsonText, *, limits: Limits | None = None) -> Request: ...
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
    def to_dict(self) -> _JsonObject: ...
    def to_json(self) -> str: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[str], Request], tuple[str]]: ...

@final
class Answer:
    """How a host resolved a ``Request``."""

    def __new__(
        cls,
        id: str,
        ok: bool,
        data: _JsonObject | None = None,
        reason: str | None = None,
    ) -> Answer: ...
    @classmethod
    def from_dict(cls, value: _JsonObject, *, limits: Limits | None = None) -> Answer: ...
    @classmethod
    def from_json(cls, text: _JsonText, *, limits: Limits | None = None) -> Answer: ...
    @property
    def id(self) -> str: ...
    @property
    def ok(self) -> bool: ...
    @property
    def data(self) -> _JsonObject | None: ...
    @property
    def reason(self) -> str | None: ...
    def to_dict(self) -> _JsonObject: ...
    def to_json(self) -> str: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[str], Answer], tuple[str]]: ...

@final
class ElicitResult:
    """MCP's ``ElicitResult``, the client's reply to ``elicitation/create``."""

    def __new__(
        cls,
        action: str,
        content: _JsonObject | None = None,
        *,
        meta: _JsonObject | None = None,
    ) -> ElicitResult: ...
    @classmethod
    def from_dict(cls, value: _JsonObject, *, limits: Limits | None = None) -> ElicitResult: ...
    @classmethod
    def from_json(cls, text: _JsonText, *, limits: Limits | None = None) -> ElicitResult: ...
    @property
    def action(self) -> Literal["accept", "decline", "cancel"]: ...
    @property
    def content(self) -> _JsonObject | None: ...
    @property
    def meta(self) -> _JsonObject | None: ...
    def to_dict(self) -> _JsonObject: ...
    def to_json(self) -> str: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[str], ElicitResult], tuple[str]]: ...

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
