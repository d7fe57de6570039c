"""The payloads every benchmark maps, read from the folder the Rust benchmark includes.

Each is the compact params of an `elicitation/create` as a server sends them
(`crates/toolnexus-core/benches/payloads/NAME.json`) and content a person would send back,
valid against its schema (`…/payloads/content/NAME.json`): the specification's contact form,
a form with one field of every kind the specification allows, and forms of 10, 100 and 1,000
fields that repeat those kinds (written by `payloads/generate.py`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parents[3] / "crates/toolnexus-core/benches/payloads"


@dataclass(frozen=True)
class Payload:
    """One form: its params as JSON text and as a `dict`, its schema and an answer."""

    name: str
    text: str
    params: dict[str, Any]
    content: dict[str, Any]

    @property
    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = self.params["requestedSchema"]
        return schema

    @property
    def fields(self) -> int:
        return len(self.schema["properties"])


def _payload(name: str, file: str) -> Payload:
    text = (FOLDER / f"{file}.json").read_text(encoding="utf-8").strip()
    content = json.loads((FOLDER / "content" / f"{file}.json").read_text(encoding="utf-8"))
    return Payload(name, text, json.loads(text), content)


CONTACT = _payload("contact form (3 fields)", "contact")
EVERY_KIND = _payload("every field kind (13 fields)", "every_kind")
FIELDS_10 = _payload("10 fields", "fields_10")
FIELDS_100 = _payload("100 fields", "fields_100")
FIELDS_1000 = _payload("1,000 fields", "fields_1000")

PAYLOADS = (CONTACT, EVERY_KIND, FIELDS_10, FIELDS_100, FIELDS_1000)
