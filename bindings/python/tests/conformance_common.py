"""What the conformance runners share: the input they take, the shape of a runner and the
suite's form of a violation."""

from __future__ import annotations

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
