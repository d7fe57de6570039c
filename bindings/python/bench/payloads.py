"""The payloads the benchmark maps: what servers send with `elicitation/create`, and answers.

`CONTACT` is the specification's own example of a form (name, email, age; MCP 2025-11-25,
`ElicitRequestFormParams`). `EVERY_KIND` is a larger form with every kind of field the
specification allows: strings with each format and length bounds, an integer and a number
with bounds and defaults, a boolean, a plain and a titled single select, the legacy
`enumNames` select, and a plain and a titled multi-select. Each form comes with the content
a person would enter for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Payload:
    """One form: its params as the compact JSON a server sends, as a `dict`, and an answer."""

    name: str
    text: str
    params: dict[str, Any]
    content: dict[str, Any]


# The params, shared with the core's own benchmark (`cargo xtask bench core`).
_PARAMS = Path(__file__).resolve().parents[3] / "crates/toolnexus-core/benches/payloads"


def _params(file: str) -> dict[str, Any]:
    params: dict[str, Any] = json.loads((_PARAMS / file).read_text(encoding="utf-8"))
    return params


def _payload(name: str, params: dict[str, Any], content: dict[str, Any]) -> Payload:
    return Payload(name, json.dumps(params, separators=(",", ":")), params, content)


CONTACT = _payload(
    "contact form (3 fields)",
    _params("contact.json"),
    {"name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30},
)

EVERY_KIND = _payload(
    "every field kind (13 fields)",
    _params("every_kind.json"),
    {
        "fullName": "Ada Lovelace",
        "email": "ada@example.com",
        "website": "https://example.com/ada",
        "departure": "2026-09-14",
        "callBackAt": "2026-09-01T09:30:00+01:00",
        "travellers": 2,
        "budget": 2500.75,
        "insurance": True,
        "cabin": "premium",
        "seat": "window",
        "meal": "veg",
        "extras": ["lounge", "wifi"],
        "alerts": ["sms", "email"],
    },
)

PAYLOADS = (CONTACT, EVERY_KIND)
