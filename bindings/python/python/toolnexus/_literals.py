"""The closed sets of names a UI switches on, as ``Literal`` types for type checkers."""

from __future__ import annotations

from typing import Literal

__all__ = ["Severity", "Verdict", "Widget"]

Widget = Literal[
    "text",
    "email",
    "uri",
    "date",
    "date-time",
    "number",
    "integer",
    "toggle",
    "single-select",
    "multi-select",
]
"""The control a form field shows (``FormField.widget``)."""

Verdict = Literal["ok", "warn", "reject"]
"""The outcome of a URL review (``UrlReview.verdict``): consent as usual, warn, or refuse."""

Severity = Literal["warn", "reject"]
"""How serious one finding of a URL review is (``UrlFinding.severity``)."""
