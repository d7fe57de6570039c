"""The closed sets of names a UI switches on, as ``Literal`` types for type checkers."""

from __future__ import annotations

from typing import Literal

__all__ = ["LineBreaks", "SecretKind", "Severity", "TaskStatus", "Verdict", "Widget"]

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
"""The control a form field shows (``FormField.widget``); the core's ``FormField.WIDGETS``."""

SecretKind = Literal[
    "password",
    "pin",
    "api_key",
    "token",
    "secret",
    "private_key",
    "card_number",
    "card_security_code",
    "ssn",
    "bank_account",
]
"""The kind of secret a form field seems to ask for (``SensitiveField.kind``,
``FormField.secret_kind``); the core's ``SensitiveField.KINDS``, in its order."""

Verdict = Literal["ok", "warn", "reject"]
"""The outcome of a URL review (``UrlReview.verdict``): consent as usual, warn, or refuse."""

Severity = Literal["warn", "reject"]
"""How serious one finding of a URL review is (``UrlFinding.severity``)."""

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
"""Where a task stands (``TaskInfo.status``); the core's ``TaskInfo.STATUSES``, in its order."""

LineBreaks = Literal["keep", "show"]
"""Whether text shown on a terminal may break lines (``terminal_text``): ``"keep"`` for a block
(a message, a description), ``"show"`` for one line (a label, a name, a title)."""
