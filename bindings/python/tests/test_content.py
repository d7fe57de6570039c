"""``check_schema``, ``validate_content``, ``apply_defaults`` and ``prepare_content``."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

import toolnexus
from toolnexus import Number, SchemaProblem, Violation

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "email": {"type": "string", "format": "email", "title": "Email"},
        "age": {"type": "integer", "minimum": 18},
        "plan": {"type": "string", "enum": ["free", "pro"], "default": "free"},
        "score": {"type": "number", "default": Number("1.50")},
    },
    "required": ["email"],
}
SCHEMA_TEXT = json.dumps(SCHEMA, default=str)


def as_text_forms(value: Any) -> list[Any]:
    """``value`` as a Python value, JSON ``str``, ``bytes`` and ``bytearray``."""
    text = toolnexus.to_json(value)
    return [value, text, text.encode(), bytearray(text.encode())]


# check_schema.


def test_a_well_formed_schema_has_no_problems() -> None:
    for schema in as_text_forms(SCHEMA):
        assert toolnexus.check_schema(schema) == []


def test_problems_come_with_kind_pointer_and_message_in_the_cores_order() -> None:
    schema = {
        "type": "object",
        "properties": {"age": {"type": "integer", "minimum": 18, "maximum": 12}},
        "required": ["name"],
    }
    problems = toolnexus.check_schema(schema)
    assert [(p.kind, p.pointer) for p in problems] == [
        ("unknown_required", "/required/0"),
        ("contradictory_bounds", "/properties/age/minimum"),
    ]
    assert all(p.message for p in problems)
    assert problems[0].to_dict() == {
        "kind": "unknown_required",
        "pointer": "/required/0",
        "message": problems[0].message,
    }


def test_a_schema_that_is_not_an_object_is_a_problem_not_an_exception() -> None:
    not_objects: list[Any] = [[], 5, None, '"form"']
    for schema in not_objects:
        (problem,) = toolnexus.check_schema(schema)
        assert (problem.kind, problem.pointer) == ("wrong_type", "")


def test_check_schema_raises_only_for_unreadable_input() -> None:
    with pytest.raises(toolnexus.InvalidJsonError):
        toolnexus.check_schema("{")
    with pytest.raises(toolnexus.DuplicateKeyError) as caught:
        toolnexus.check_schema('{"type":"object","type":"object"}')
    assert caught.value.pointer == "/type"
    with pytest.raises(toolnexus.TooDeepError):
        toolnexus.check_schema({"a": {"b": {}}}, limits=toolnexus.Limits(max_depth=2))
    with pytest.raises(toolnexus.WrongTypeError):
        toolnexus.check_schema({"type": object()})


def test_schema_problem_is_a_frozen_value() -> None:
    problem = SchemaProblem("empty_enum", "/properties/a/enum", "no options")
    assert (problem.kind, problem.pointer, problem.message) == ("empty_enum", "/properties/a/enum", "no options")
    assert problem == SchemaProblem("empty_enum", "/properties/a/enum", "no options")
    assert problem != SchemaProblem("empty_enum", "/properties/b/enum", "no options")
    assert hash(problem) == hash(SchemaProblem("empty_enum", "/properties/a/enum", "no options"))
    assert pickle.loads(pickle.dumps(problem)) == problem
    assert repr(problem) == "SchemaProblem(kind='empty_enum', pointer='/properties/a/enum', message='no options')"
    assert type(problem).__module__ == "toolnexus"
    with pytest.raises(AttributeError):
        problem.kind = "x"  # type: ignore[misc]


def test_schema_problem_kinds_are_the_cores() -> None:
    assert len(SchemaProblem.KINDS) == 12 and "unknown_format" in SchemaProblem.KINDS
    for kind in SchemaProblem.KINDS:
        assert SchemaProblem(kind, "", "m").kind == kind
    with pytest.raises(toolnexus.InvalidValueError):
        SchemaProblem("no_such_kind", "", "m")


# validate_content.


def test_valid_content_has_no_violations() -> None:
    for schema in as_text_forms(SCHEMA):
        for content in as_text_forms({"email": "ada@example.org", "age": 30}):
            assert toolnexus.validate_content(schema, content) == []


def test_every_violation_in_the_cores_order() -> None:
    found = toolnexus.validate_content(SCHEMA, {"age": Number("17.5"), "nickname": "ada"})
    assert [(v.pointer, v.keyword) for v in found] == [
        ("/email", "required"),
        ("/age", "type"),
        ("/age", "minimum"),
        ("/nickname", "additionalProperties"),
    ]
    assert all(isinstance(v, Violation) and v.message for v in found)
    assert found[0].message == "Email is required"


def test_allow_unknown_accepts_undeclared_members_of_a_content_type() -> None:
    content = {"email": "ada@example.org", "nickname": "ada"}
    assert toolnexus.validate_content(SCHEMA, content, allow_unknown=True) == []
    found = toolnexus.validate_content(SCHEMA, {"email": "a@b.c", "x": {"y": 1}}, allow_unknown=True)
    assert [(v.pointer, v.keyword) for v in found] == [("/x", "type")]


def test_content_that_is_not_an_object_is_one_type_violation() -> None:
    not_objects: list[Any] = [[], "[]", 5, None]
    for content in not_objects:
        found = toolnexus.validate_content(SCHEMA, content)
        assert [(v.pointer, v.keyword) for v in found] == [("", "type")]


def test_a_schema_the_core_cannot_read_raises() -> None:
    with pytest.raises(toolnexus.InvalidValueError) as caught:
        toolnexus.validate_content({"type": "array"}, {})
    assert caught.value.pointer == "/type"
    with pytest.raises(toolnexus.MissingFieldError) as missing:
        toolnexus.validate_content({"type": "object"}, {})
    assert missing.value.pointer == "/properties"
    with pytest.raises(toolnexus.WrongTypeError):
        toolnexus.validate_content([], {})  # type: ignore[arg-type]


def test_content_is_read_within_the_limits() -> None:
    limits = toolnexus.Limits(max_object_members=1)
    with pytest.raises(toolnexus.TooManyMembersError):
        toolnexus.validate_content(SCHEMA, {"email": "a@b.c", "age": 20}, limits=limits)
    with pytest.raises(toolnexus.InvalidJsonError):
        toolnexus.validate_content(SCHEMA, "{")
    with pytest.raises(toolnexus.LoneSurrogateError) as caught:
        toolnexus.validate_content(SCHEMA, {"email": "\udc00"})
    assert caught.value.pointer == "/email"


# apply_defaults.


def test_defaults_fill_absent_members_after_the_present_ones() -> None:
    filled = toolnexus.apply_defaults(SCHEMA, {"age": 20})
    assert filled == {"age": 20, "plan": "free", "score": 1.5}
    assert list(filled) == ["age", "plan", "score"]
    assert isinstance(filled["score"], Number) and filled["score"].spelling == "1.50"
    assert toolnexus.to_json(filled) == '{"age":20,"plan":"free","score":1.50}'


def test_defaults_never_replace_a_value_but_fill_a_none() -> None:
    filled = toolnexus.apply_defaults(SCHEMA_TEXT, '{"plan":"pro","score":null}')
    assert filled == {"plan": "pro", "score": 1.5}


def test_defaults_need_object_content() -> None:
    not_objects: list[Any] = [[], "[]", 3]
    for content in not_objects:
        with pytest.raises(toolnexus.WrongTypeError) as caught:
            toolnexus.apply_defaults(SCHEMA, content)
        assert caught.value.pointer == ""
        assert "must be a JSON object" in caught.value.message


# prepare_content.


def test_prepare_fills_defaults_then_validates() -> None:
    prepared = toolnexus.prepare_content(SCHEMA, {"email": "ada@example.org"})
    assert toolnexus.to_json(prepared) == '{"email":"ada@example.org","plan":"free","score":1.50}'


def test_a_default_satisfies_required() -> None:
    schema = {"type": "object", "properties": {"b": {"type": "string", "default": "B"}}, "required": ["b"]}
    assert toolnexus.prepare_content(schema, {}) == {"b": "B"}


def test_prepare_raises_invalid_content_with_every_violation() -> None:
    with pytest.raises(toolnexus.InvalidContentError) as caught:
        toolnexus.prepare_content(SCHEMA, {"age": 3, "x": 1})
    error = caught.value
    assert error.kind == "invalid_content" and error.pointer == ""
    assert [(v.pointer, v.keyword) for v in error.violations] == [
        ("/email", "required"),
        ("/age", "minimum"),
        ("/x", "additionalProperties"),
    ]
    assert error.message.startswith("the content breaks the form in 3 ways; the first: Email is required")


def test_prepare_with_one_violation_names_it() -> None:
    with pytest.raises(toolnexus.InvalidContentError) as caught:
        toolnexus.prepare_content(SCHEMA, {})
    assert caught.value.message == "the content breaks the form: Email is required"
    assert len(caught.value.violations) == 1


def test_prepare_allow_unknown_keeps_undeclared_members() -> None:
    prepared = toolnexus.prepare_content(SCHEMA, {"z": 1, "email": "a@b.co"}, allow_unknown=True)
    assert list(prepared) == ["z", "email", "plan", "score"]


def test_prepare_content_that_is_not_an_object() -> None:
    with pytest.raises(toolnexus.InvalidContentError) as caught:
        toolnexus.prepare_content(SCHEMA, [1])
    assert [(v.pointer, v.keyword) for v in caught.value.violations] == [("", "type")]


# Whatever comes in: a value or a toolnexus.Error.


def test_mangled_schemas_and_content_give_a_value_or_a_typed_error() -> None:
    rng = random.Random(5)
    seed = toolnexus.to_json({"schema": SCHEMA, "content": {"email": "a@b.co", "age": 20, "tags": ["x"]}})
    for _ in range(3000):
        chars = list(seed)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(chars))
            chars[at] = rng.choice('{}[]":,0-e.\\ atx\u00e9\udc00')
        text = "".join(chars)
        try:
            whole = toolnexus.from_json(text)
        except toolnexus.Error:
            continue
        schema = whole.get("schema") if isinstance(whole, dict) else whole
        content = whole.get("content") if isinstance(whole, dict) else whole
        for call in (
            lambda: toolnexus.check_schema(toolnexus.to_json(schema)),
            lambda: toolnexus.validate_content(toolnexus.to_json(schema), toolnexus.to_json(content)),
            lambda: toolnexus.prepare_content(toolnexus.to_json(schema), toolnexus.to_json(content)),
            lambda: toolnexus.apply_defaults(toolnexus.to_json(schema), toolnexus.to_json(content)),
            lambda: [field.to_json() for field in toolnexus.form_fields(toolnexus.to_json(schema))],
            lambda: toolnexus.sensitive_fields(toolnexus.to_json(schema)),
            lambda: toolnexus.review_url(text),
        ):
            try:
                call()
            except toolnexus.Error:
                pass
