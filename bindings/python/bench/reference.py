"""THE REFERENCE ROUTE: what a pure-Python host does without toolnexus.

The `mcp` package (2.x) reads the params of `elicitation/create` into its pydantic models
(`ElicitRequestParams`, the union of the form and URL params), and a host maps them onto its
own request in plain Python. The mapping below is a faithful port of the original toolnexus
Python port (`elicitation_to_request` and `answer_to_elicit_result` in its `mcp_source.py`,
with its `Request` and `Answer` dataclasses), adjusted only for the 2.x field name
`requested_schema`. Going back, it builds the package's `ElicitResult` model and dumps it as
JSON with the wire names, leaving out what is unset.

It is the baseline the benchmark measures toolnexus against, not part of toolnexus.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any, Literal, Optional

from mcp.types import ElicitRequestParams, ElicitResult
from pydantic import TypeAdapter

# How the package reads a union of models: one adapter, built once.
PARAMS: TypeAdapter[ElicitRequestParams] = TypeAdapter(ElicitRequestParams)


@dataclass
class Request:
    """The reference port's suspension: fixed wire keys, `expiresAt` included."""

    id: str
    kind: str
    prompt: str
    url: Optional[str] = None
    data: Optional[dict[str, Any]] = None
    expiresAt: Optional[str] = None  # noqa: N815 (a wire key)


@dataclass
class Answer:
    """The reference port's resolution of a `Request`."""

    id: str
    ok: bool
    data: Optional[dict[str, Any]] = None
    reason: Optional[Literal["declined", "cancelled", "expired"]] = None


_sequence = itertools.count(1)


def elicitation_to_request(params: Any) -> Request:
    """Maps the package's params model onto a `Request`, as the reference port does."""
    is_url = getattr(params, "mode", None) == "url"
    message = getattr(params, "message", None)
    request = Request(
        id=f"elc-{int(time.time() * 1000):x}-{next(_sequence)}",
        kind="authorization" if is_url else "input",
        prompt=str(message) if message is not None else "",
    )
    url = getattr(params, "url", None)
    if is_url and url:
        request.url = url
    schema = getattr(params, "requested_schema", None)
    if not is_url and schema:
        request.data = {"schema": schema}
    return request


def answer_to_elicit_result(answer: Answer) -> ElicitResult:
    """Maps an `Answer` onto the package's `ElicitResult`, as the reference port does."""
    if answer.ok:
        return ElicitResult(action="accept", content=answer.data or {})
    return ElicitResult(action="decline" if answer.reason == "declined" else "cancel")


def request_from_json(text: str) -> Request:
    """The params read from JSON text by the package's model, then mapped."""
    return elicitation_to_request(PARAMS.validate_json(text))


def request_from_dict(params: dict[str, Any]) -> Request:
    """The params read from a `dict` by the package's model, then mapped."""
    return elicitation_to_request(PARAMS.validate_python(params))


def result_json(answer: Answer) -> str:
    """The answer mapped onto the package's `ElicitResult`, dumped as it goes on the wire."""
    return answer_to_elicit_result(answer).model_dump_json(by_alias=True, exclude_none=True)
