"""``form_fields``, ``FormField``, ``FieldOption``, ``Constraints`` and ``parse_field_input``."""

from __future__ import annotations

import json
import pickle
import typing
from pathlib import Path
from typing import Any

import pytest

import toolnexus
from toolnexus import Constraints, FieldOption, FormField, Number

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "description": "As on your passport", "maxLength": 5, "default": "Ada"},
        "email": {"type": "string", "format": "email"},
        "age": {"type": "integer", "title": "Age", "minimum": 18, "maximum": Number("1.2e2")},
        "score": {"type": "number", "minimum": Number("0.5")},
        "agree": {"type": "boolean", "default": False},
        "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1, "maxItems": 2},
        "password": {"type": "string"},
    },
    "required": ["age", "email"],
}


def fields() -> dict[str, FormField]:
    return {field.name: field for field in toolnexus.form_fields(SCHEMA)}


# form_fields and FormField.


def test_fields_come_in_schema_order_from_a_dict_or_text() -> None:
    names = list(SCHEMA["properties"])
    assert [f.name for f in toolnexus.form_fields(SCHEMA)] == names
    text = toolnexus.to_json(SCHEMA)
    for schema in (text, text.encode(), bytearray(text.encode())):
        assert toolnexus.form_fields(schema) == toolnexus.form_fields(SCHEMA)


def test_field_members() -> None:
    name = fields()["name"]
    assert (name.name, name.label, name.description) == ("name", "Name", "As on your passport")
    assert (name.required, name.widget, name.options, name.default, name.sensitive) == (False, "text", [], "Ada", False)
    email = fields()["email"]
    assert (email.label, email.description, email.required, email.widget, email.default) == (
        "email", None, True, "email", None
    )
    assert fields()["password"].sensitive


def test_widgets_as_the_core_names_them() -> None:
    widgets = {name: field.widget for name, field in fields().items()}
    assert widgets == {
        "name": "text",
        "email": "email",
        "age": "integer",
        "score": "number",
        "agree": "toggle",
        "size": "single-select",
        "tags": "multi-select",
        "password": "text",
    }


def test_the_widget_literal_names_every_widget_the_suite_shows() -> None:
    suite = Path(__file__).resolve().parents[3] / "conformance" / "v1" / "form" / "form_fields.json"
    seen = {
        field["widget"]
        for case in json.loads(suite.read_text(encoding="utf-8"))["cases"]
        if "output" in case["expect"]
        for field in json.loads(case["expect"]["output"])
    }
    assert seen <= set(typing.get_args(toolnexus.Widget))
    assert len(typing.get_args(toolnexus.Widget)) == 10


def test_options_of_selects() -> None:
    assert fields()["size"].options == [FieldOption("s", "Small"), FieldOption("l", "Large")]
    assert [(o.value, o.label) for o in fields()["tags"].options] == [("a", "a"), ("b", "b")]


def test_constraints_are_exact() -> None:
    age = fields()["age"].constraints
    assert (age.minimum, age.maximum) == (18, 120)
    assert type(age.minimum) is int
    assert isinstance(age.maximum, Number) and age.maximum.spelling == "1.2e2"
    assert (age.min_length, age.max_length, age.min_items, age.max_items) == (None, None, None, None)
    assert age.to_dict() == {"minimum": 18, "maximum": 120}
    assert repr(age) == "Constraints(minimum=18, maximum=Number('1.2e2'))"
    assert fields()["name"].constraints.max_length == 5
    tags = fields()["tags"].constraints
    assert (tags.min_items, tags.max_items) == (1, 2)
    assert list(tags.to_dict()) == ["minItems", "maxItems"]


def test_constraints_are_falsy_when_none_is_set() -> None:
    none = fields()["agree"].constraints
    assert not none and none.to_dict() == {} and repr(none) == "Constraints()"
    assert fields()["age"].constraints
    assert none == fields()["size"].constraints and hash(none) == hash(fields()["size"].constraints)
    assert fields()["age"].constraints != none
    assert isinstance(none, Constraints)


def test_to_json_is_the_cores_exact_field() -> None:
    assert fields()["age"].to_json() == (
        '{"name":"age","label":"Age","required":true,"widget":"integer",'
        '"constraints":{"minimum":18,"maximum":1.2e2},"sensitive":false}'
    )
    assert fields()["size"].to_json() == (
        '{"name":"size","label":"size","required":false,"widget":"single-select",'
        '"options":[{"value":"s","label":"Small"},{"value":"l","label":"Large"}],"sensitive":false}'
    )
    for field in fields().values():
        assert toolnexus.to_json(field.to_dict()) == field.to_json()


def test_form_field_is_a_frozen_value_made_by_form_fields() -> None:
    field = fields()["name"]
    assert field == toolnexus.form_fields(SCHEMA)[0] and hash(field) == hash(toolnexus.form_fields(SCHEMA)[0])
    assert field != fields()["email"]
    assert repr(field) == "FormField(name='name', label='Name', required=False, widget='text', sensitive=False)"
    assert type(field).__module__ == "toolnexus"
    with pytest.raises(AttributeError):
        field.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        FormField()


def test_field_option_is_a_frozen_value() -> None:
    option = FieldOption("s", "Small")
    assert option.to_dict() == {"value": "s", "label": "Small"}
    assert option == FieldOption("s", "Small") and hash(option) == hash(FieldOption("s", "Small"))
    assert pickle.loads(pickle.dumps(option)) == option
    assert repr(option) == "FieldOption(value='s', label='Small')"


def test_a_schema_the_core_cannot_read_raises() -> None:
    with pytest.raises(toolnexus.InvalidValueError) as caught:
        toolnexus.form_fields({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}}}})
    assert caught.value.pointer == "/properties/a/items/type"
    with pytest.raises(toolnexus.InvalidJsonError):
        toolnexus.form_fields("{")


# parse_field_input.


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("name", " Ada ", '" Ada "'),
        ("email", " ada@example.org ", '"ada@example.org"'),
        ("age", "+042", "42"),
        ("score", " 1e1 ", "1e1"),
        ("score", "+3.50", "3.50"),
        ("agree", "Yes", "true"),
        ("agree", "off", "false"),
        ("size", "large", '"l"'),
        ("tags", "a, b, a", '["a","b"]'),
    ],
)
def test_typed_text_becomes_the_content_value(name: str, text: str, expected: str) -> None:
    value = toolnexus.parse_field_input(fields()[name], text)
    assert toolnexus.to_json(value) == expected


def test_numbers_come_back_exact() -> None:
    age = toolnexus.parse_field_input(fields()["age"], "99")
    assert age == 99 and type(age) is int
    score = toolnexus.parse_field_input(fields()["score"], "2.50")
    assert isinstance(score, Number) and score.spelling == "2.50"


def test_blank_text_in_an_optional_field_or_one_with_a_default_is_none() -> None:
    assert toolnexus.parse_field_input(fields()["name"], "") is None
    assert toolnexus.parse_field_input(fields()["agree"], " \t ") is None
    assert toolnexus.parse_field_input(fields()["size"], "") is None


def test_blank_text_in_a_required_field_is_missing() -> None:
    with pytest.raises(toolnexus.MissingFieldError) as caught:
        toolnexus.parse_field_input(fields()["age"], "  ")
    assert (caught.value.pointer, caught.value.message) == ("/age", "Age is required")


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("age", "17", "Age must be at least 18"),
        ("age", "4 2", "Age must be a whole number, such as 42"),
        ("name", "Adalovelace", None),
        ("email", "ada", None),
        ("agree", "maybe", None),
        ("size", "medium", None),
        ("tags", "a, c", None),
    ],
)
def test_text_the_field_refuses_is_an_invalid_value(name: str, text: str, message: str | None) -> None:
    with pytest.raises(toolnexus.InvalidValueError) as caught:
        toolnexus.parse_field_input(fields()[name], text)
    assert caught.value.pointer == f"/{name}"
    assert caught.value.message
    if message is not None:
        assert caught.value.message == message


def test_parse_field_input_takes_a_field_and_a_str() -> None:
    with pytest.raises(TypeError):
        toolnexus.parse_field_input(fields()["age"], 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        toolnexus.parse_field_input("age", "42")  # type: ignore[arg-type]
    with pytest.raises(toolnexus.LoneSurrogateError):
        toolnexus.parse_field_input(fields()["name"], "\udc00")
