"""Writes the larger benchmark payloads from `every_kind.json`, and the content of each payload.

The Rust and Python benchmarks (`cargo xtask bench`) share this folder: each `NAME.json` is the
compact params of an `elicitation/create` as a server sends them, and `content/NAME.json` what
a person would answer, valid against its schema. `contact.json` (the specification's example)
and `every_kind.json` (one field of every kind the specification allows) are written by hand;
`fields_N.json` repeat the kinds of `every_kind.json` in turn until the form has N fields, each
field named after its kind and its place, so that a cost can be followed as a form grows.

Run it again (`python3 generate.py`) after changing `every_kind.json`; the output is the same
on every run.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

CONTENT = {
    "contact": {"name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30},
    "every_kind": {
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
}

SIZES = (10, 100, 1000)


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def grown(every_kind: dict, size: int) -> tuple[dict, dict]:
    schema = every_kind["requestedSchema"]
    kinds = list(schema["properties"].items())
    required = set(schema["required"])
    properties, names, content = {}, [], {}
    for place in range(size):
        kind, prop = kinds[place % len(kinds)]
        name = f"{kind}{place}"
        field = dict(prop)
        if "title" in field:
            field["title"] = f"{field['title']} {place}"
        properties[name] = field
        if kind in required:
            names.append(name)
        content[name] = CONTENT["every_kind"][kind]
    params = {
        "mode": "form",
        "message": f"A form of {size} fields",
        "requestedSchema": {"type": "object", "properties": properties, "required": names},
    }
    return params, content


def main() -> None:
    every_kind = json.loads((HERE / "every_kind.json").read_text(encoding="utf-8"))
    written = dict(CONTENT)
    for size in SIZES:
        params, content = grown(every_kind, size)
        (HERE / f"fields_{size}.json").write_text(compact(params) + "\n", encoding="utf-8")
        written[f"fields_{size}"] = content
    for name, content in written.items():
        (HERE / "content" / f"{name}.json").write_text(compact(content) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
