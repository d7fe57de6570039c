"""``toolnexus.Error`` and its subclasses: one per kind the core reports."""

from __future__ import annotations

import pickle
from typing import Callable
import re

import pytest

import toolnexus
from toolnexus import _errors, _native

# One class per kind of the core; `AuthError` holds every kind of the authorization flow.
SUBCLASSES = [cls for cls in toolnexus.Error.__subclasses__() if cls is not toolnexus.AuthError]


def class_name(kind: str) -> str:
    return "".join(word.capitalize() for word in kind.split("_")) + "Error"


def test_there_is_one_class_per_kind_of_the_core() -> None:
    kinds = [cls.KIND for cls in SUBCLASSES]
    assert sorted(kinds) == sorted(_native.ERROR_KINDS)  # type: ignore[type-var]
    assert len(set(kinds)) == len(kinds)


@pytest.mark.parametrize("kind", _native.ERROR_KINDS)
def test_each_kind_has_a_public_class_named_after_it(kind: str) -> None:
    cls = getattr(toolnexus, class_name(kind))
    assert cls.KIND == kind and cls.__name__ in toolnexus.__all__
    assert issubclass(cls, toolnexus.Error) and issubclass(cls, ValueError)
    error = _errors._from_native(kind, "/a~1b", "what went wrong", [])
    assert type(error) is cls
    assert (error.kind, error.pointer, error.message, error.violations) == (kind, "/a~1b", "what went wrong", [])
    assert str(error) == f"{kind} at /a~1b: what went wrong"
    assert error.args == ("what went wrong",)


def test_a_kind_this_version_does_not_know_is_a_plain_error() -> None:
    error = _errors._from_native("some_future_kind", "", "new", [])
    assert type(error) is toolnexus.Error
    assert error.kind == "some_future_kind"
    assert str(error) == "some_future_kind: new"


def test_hosts_can_raise_the_subclasses() -> None:
    error = toolnexus.InvalidValueError("bad date", pointer="/when")
    assert (error.kind, error.pointer, error.violations) == ("invalid_value", "/when", [])
    with pytest.raises(TypeError):
        toolnexus.Error("a kind is needed")
    assert toolnexus.Error("x", kind="custom").kind == "custom"


def test_invalid_content_carries_its_violations() -> None:
    violations = [
        toolnexus.Violation("/email", "format", "not an email address"),
        toolnexus.Violation("/age", "minimum", "must be at least 18"),
    ]
    error = _errors._from_native("invalid_content", "/data", "2 problems", violations)
    assert isinstance(error, toolnexus.InvalidContentError)
    assert error.violations == violations


@pytest.mark.parametrize("kind", [*_native.ERROR_KINDS, "some_future_kind"])
def test_errors_pickle(kind: str) -> None:
    error = _errors._from_native(kind, "/x", "m", [toolnexus.Violation("/x", "type", "m")])
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert (copy.kind, copy.pointer, copy.message, copy.violations) == (error.kind, error.pointer, error.message, error.violations)


def test_errors_raised_by_the_core_are_the_subclass_of_their_kind() -> None:
    raised: dict[str, toolnexus.Error] = {}
    cases: dict[str, Callable[[], object]] = {
        "invalid_json": lambda: toolnexus.Answer.from_json("{"),
        "invalid_utf8": lambda: toolnexus.Answer.from_json(b"\x80"),
        "lone_surrogate": lambda: toolnexus.Answer.from_json('"\\udc00"'),
        "duplicate_key": lambda: toolnexus.Answer.from_json('{"id":"a","id":"a"}'),
        "too_large": lambda: toolnexus.Answer.from_json("[]", limits=toolnexus.Limits(max_input_bytes=1)),
        "too_deep": lambda: toolnexus.Answer.from_json("[[]]", limits=toolnexus.Limits(max_depth=1)),
        "too_many_members": lambda: toolnexus.Answer.from_json('{"a":1,"b":2}', limits=toolnexus.Limits(max_object_members=1)),
        "too_many_items": lambda: toolnexus.Answer.from_json("[1,2]", limits=toolnexus.Limits(max_array_items=1)),
        "missing_field": lambda: toolnexus.Answer.from_json('{"id":"a"}'),
        "wrong_type": lambda: toolnexus.Answer.from_json('{"id":1,"ok":true}'),
        "unknown_field": lambda: toolnexus.Answer.from_json('{"id":"a","ok":true,"x":1}'),
        "invalid_value": lambda: toolnexus.Answer.from_json('{"id":"","ok":true}'),
    }
    for kind, make in cases.items():
        with pytest.raises(toolnexus.Error) as caught:
            make()
        assert type(caught.value).KIND == caught.value.kind == kind
        assert isinstance(caught.value, ValueError)
        assert caught.value.message and caught.value.violations == []
        raised[kind] = caught.value
    # The kinds of sessions, secrets and the wire cannot be raised by these calls.
    assert set(raised) | {"sensitive_field", "unknown_request", "duplicate_request", "too_many_pending",
                          "invalid_content", "mode_not_supported", "missing_responses",
                          "invalid_seal", "expired"} == set(_native.ERROR_KINDS)


def test_messages_are_for_people() -> None:
    with pytest.raises(toolnexus.WrongTypeError) as caught:
        toolnexus.Answer.from_json('{"id":1,"ok":true}')
    assert re.search(r"`id` must be a string", caught.value.message)
    assert str(caught.value).startswith("wrong_type at /id: ")
