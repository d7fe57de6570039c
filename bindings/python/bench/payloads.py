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
from typing import Any


@dataclass(frozen=True)
class Payload:
    """One form: its params as the compact JSON a server sends, as a `dict`, and an answer."""

    name: str
    text: str
    params: dict[str, Any]
    content: dict[str, Any]


def _payload(name: str, params: dict[str, Any], content: dict[str, Any]) -> Payload:
    return Payload(name, json.dumps(params, separators=(",", ":")), params, content)


CONTACT = _payload(
    "contact form (3 fields)",
    {
        "mode": "form",
        "message": "Please provide your contact information",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Your full name"},
                "email": {
                    "type": "string",
                    "format": "email",
                    "description": "Your email address",
                },
                "age": {"type": "number", "minimum": 18, "description": "Your age"},
            },
            "required": ["name", "email"],
        },
    },
    {"name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30},
)

EVERY_KIND = _payload(
    "every field kind (13 fields)",
    {
        "mode": "form",
        "message": "Tell us about your trip so that we can book it",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "fullName": {
                    "type": "string",
                    "title": "Full name",
                    "description": "As written in your passport",
                    "minLength": 2,
                    "maxLength": 100,
                },
                "email": {"type": "string", "title": "Email", "format": "email"},
                "website": {"type": "string", "title": "Website", "format": "uri"},
                "departure": {"type": "string", "title": "Departure", "format": "date"},
                "callBackAt": {
                    "type": "string",
                    "title": "Call me back at",
                    "format": "date-time",
                },
                "travellers": {
                    "type": "integer",
                    "title": "Travellers",
                    "minimum": 1,
                    "maximum": 9,
                    "default": 1,
                },
                "budget": {
                    "type": "number",
                    "title": "Budget in euros",
                    "minimum": 0,
                    "maximum": 100000.5,
                },
                "insurance": {"type": "boolean", "title": "Travel insurance", "default": False},
                "cabin": {
                    "type": "string",
                    "title": "Cabin",
                    "enum": ["economy", "premium", "business", "first"],
                    "default": "economy",
                },
                "seat": {
                    "type": "string",
                    "title": "Seat",
                    "oneOf": [
                        {"const": "window", "title": "Window"},
                        {"const": "aisle", "title": "Aisle"},
                        {"const": "middle", "title": "Middle"},
                    ],
                },
                "meal": {
                    "type": "string",
                    "title": "Meal",
                    "enum": ["std", "veg", "vgn"],
                    "enumNames": ["Standard", "Vegetarian", "Vegan"],
                },
                "extras": {
                    "type": "array",
                    "title": "Extras",
                    "minItems": 0,
                    "maxItems": 3,
                    "items": {"type": "string", "enum": ["lounge", "wifi", "bag"]},
                },
                "alerts": {
                    "type": "array",
                    "title": "Alerts",
                    "items": {
                        "anyOf": [
                            {"const": "sms", "title": "Text message"},
                            {"const": "email", "title": "Email"},
                            {"const": "push", "title": "App notification"},
                        ]
                    },
                    "default": ["email"],
                },
            },
            "required": ["fullName", "email", "departure", "travellers", "cabin"],
        },
    },
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
