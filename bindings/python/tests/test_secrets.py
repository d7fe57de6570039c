"""``sensitive_fields``, ``SensitiveField`` and ``reject_secrets``."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import toolnexus
from toolnexus import SensitiveField

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "user": {"type": "string"},
        "password": {"type": "string"},
        "key": {"type": "string", "title": "API key"},
        "note": {"type": "string", "description": "Your card number"},
    },
}


def test_sensitive_fields_in_schema_order_with_their_kind() -> None:
    found = toolnexus.sensitive_fields(SCHEMA)
    assert found == [
        SensitiveField("password", "password"),
        SensitiveField("key", "api_key"),
        SensitiveField("note", "card_number"),
    ]
    assert found[1].to_dict() == {"name": "key", "kind": "api_key"}
    assert toolnexus.sensitive_fields(toolnexus.to_json(SCHEMA).encode()) == found


def test_a_form_without_secrets_has_none() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    assert toolnexus.sensitive_fields(schema) == []
    toolnexus.reject_secrets(schema)


def test_reject_secrets_raises_at_the_first_sensitive_field() -> None:
    with pytest.raises(toolnexus.SensitiveFieldError) as caught:
        toolnexus.reject_secrets(SCHEMA)
    error = caught.value
    assert (error.kind, error.pointer, error.violations) == ("sensitive_field", "/properties/password", [])
    assert "password" in error.message
    with pytest.raises(toolnexus.SensitiveFieldError) as escaped:
        toolnexus.reject_secrets('{"type":"object","properties":{"api/key":{"type":"string"}}}')
    assert escaped.value.pointer == "/properties/api~1key"


def test_the_form_field_says_whether_it_is_sensitive() -> None:
    flagged = [field.name for field in toolnexus.form_fields(SCHEMA) if field.sensitive]
    assert flagged == [field.name for field in toolnexus.sensitive_fields(SCHEMA)]


def test_a_schema_the_core_cannot_read_raises() -> None:
    for call in (toolnexus.sensitive_fields, toolnexus.reject_secrets):
        with pytest.raises(toolnexus.MissingFieldError):
            call({"type": "object"})
        with pytest.raises(toolnexus.InvalidJsonError):
            call(b"")


def test_sensitive_field_is_a_frozen_value() -> None:
    field = SensitiveField("pin", "pin")
    assert (field.name, field.kind) == ("pin", "pin")
    assert field == SensitiveField("pin", "pin") and hash(field) == hash(SensitiveField("pin", "pin"))
    assert field != SensitiveField("pin", "password")
    assert pickle.loads(pickle.dumps(field)) == field
    assert repr(field) == "SensitiveField(name='pin', kind='pin')"
    assert type(field).__module__ == "toolnexus"
    with pytest.raises(AttributeError):
        field.kind = "pin"  # type: ignore[misc]
