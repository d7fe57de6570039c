"""What the conformance runners share: the input they take, the shape of a runner and the
suite's form of a violation."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Union

import toolnexus

Text = Union[str, bytes]
"""A case's input: JSON text as ``str``, or as ``bytes``."""

Runner = Callable[[dict[str, Any], Text, toolnexus.Limits], str]
"""How one operation runs through the Python API: the case, its input and limits in, the exact
output text out."""


def violations(found: list[toolnexus.Violation]) -> list[dict[str, str]]:
    """Violations as the suite pins them: pointer and keyword (messages are wording)."""
    return [{"pointer": v.pointer, "keyword": v.keyword} for v in found]


@dataclass(frozen=True)
class Spelt:
    """A JSON number as a case file spells it (``1.0``, ``1e2``, ``-0`` and every digit kept)."""

    text: str


def _members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members: dict[str, Any] = {}
    for key, value in pairs:
        if key in members:
            raise ValueError(f"duplicate key {key!r}")
        members[key] = value
    return members


def _not_json(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


def read_spelt(text: str) -> Any:
    """JSON text as Python values that keep what the byte rules keep: members in order (a
    duplicate key refused) and each number as spelt, a :class:`Spelt`."""
    return json.loads(
        text,
        object_pairs_hook=_members,
        parse_int=Spelt,
        parse_float=Spelt,
        parse_constant=_not_json,
    )


def plain(value: Any) -> Any:
    """``value`` (as :func:`read_spelt` reads it) as ``json.loads`` would have read it: each
    :class:`Spelt` number an ``int`` or a ``float``."""
    if isinstance(value, Spelt):
        return json.loads(value.text)
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(member) for key, member in value.items()}
    return value


def compact(value: Any) -> str:
    """``value`` (as :func:`read_spelt` reads it) as compact JSON text with the suite's byte
    rules: members in order, numbers as spelt, strings with serde_json's escapes (``json.dumps``
    with ``ensure_ascii=False`` escapes the same characters the same way)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, Spelt):
        return value.text
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(map(compact, value)) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{compact(key)}:{compact(member)}" for key, member in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
