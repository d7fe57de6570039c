"""``Request``, ``Answer`` and ``ElicitResult``: immutable values with the core's checks."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import pytest

import toolnexus
from toolnexus import Answer, ElicitResult, Number, Request

SCHEMA = {"type": "object", "properties": {"age": {"type": "integer", "minimum": 1.0}}}


def full_request() -> Request:
    return Request(
        "r-1",
        "input",
        "Your age?",
        url="https://example.com/",
        data={"schema": SCHEMA},
        expires_at="2026-01-01T00:00:00Z",
    )


# Request.


def test_request_fields() -> None:
    request = full_request()
    assert (request.id, request.kind, request.prompt) == ("r-1", "input", "Your age?")
    assert request.url == "https://example.com/"
    assert request.data == {"schema": SCHEMA}
    assert request.schema == SCHEMA
    assert request.expires_at == "2026-01-01T00:00:00Z"
    minimal = Request("r-2", "approval", "")
    assert (minimal.url, minimal.data, minimal.expires_at, minimal.schema) == (None, None, None, None)


def test_request_writes_the_pinned_key_order_and_leaves_absent_optionals_out() -> None:
    assert full_request().to_json() == (
        '{"id":"r-1","kind":"input","prompt":"Your age?","url":"https://example.com/",'
        '"data":{"schema":{"type":"object","properties":{"age":{"type":"integer","minimum":1.0}}}},'
        '"expiresAt":"2026-01-01T00:00:00Z"}'
    )
    assert list(full_request().to_dict()) == ["id", "kind", "prompt", "url", "data", "expiresAt"]
    assert Request("r", "k", "p").to_dict() == {"id": "r", "kind": "k", "prompt": "p"}
    assert Request("r", "k", "p", url=None, data=None).to_json() == '{"id":"r","kind":"k","prompt":"p"}'


def test_request_reads_dicts_and_json_text() -> None:
    text = full_request().to_json()
    assert Request.from_json(text) == full_request()
    assert Request.from_json(text.encode()) == full_request()
    assert Request.from_json(bytearray(text.encode())) == full_request()
    assert Request.from_dict(full_request().to_dict()) == full_request()


@pytest.mark.parametrize(
    ("make", "error", "path"),
    [
        (lambda: Request("", "input", "p"), toolnexus.InvalidValueError, "/id"),
        (lambda: Request("r", "", "p"), toolnexus.InvalidValueError, "/kind"),
        (lambda: Request(1, "input", "p"), toolnexus.WrongTypeError, "/id"),  # type: ignore[arg-type]
        (lambda: Request("r", "input", None), toolnexus.MissingFieldError, "/prompt"),  # type: ignore[arg-type]
        (lambda: Request("r", "input", "p", data=[1]), toolnexus.WrongTypeError, "/data"),  # type: ignore[arg-type]
        (lambda: Request("r", "input", "p", expires_at="tomorrow"), toolnexus.InvalidValueError, "/expiresAt"),
        (lambda: Request("r", "input", "p", data={"x": float("nan")}), toolnexus.InvalidValueError, "/data/x"),
        (lambda: Request.from_dict({"id": "r", "kind": "k", "prompt": "p", "extra": 1}), toolnexus.UnknownFieldError, "/extra"),
        (lambda: Request.from_dict({"id": "r", "kind": "k"}), toolnexus.MissingFieldError, "/prompt"),
        (lambda: Request.from_dict(["not", "an", "object"]), toolnexus.WrongTypeError, ""),  # type: ignore[arg-type]
        (lambda: Request.from_json('{"id":"r","id":"s"}'), toolnexus.DuplicateKeyError, "/id"),
        (lambda: Request.from_json("{"), toolnexus.InvalidJsonError, ""),
        (lambda: Request.from_json(b"\xff"), toolnexus.InvalidUtf8Error, ""),
    ],
)
def test_request_refuses_what_the_core_refuses(
    make: Callable[[], object], error: type[toolnexus.Error], path: str
) -> None:
    with pytest.raises(error) as caught:
        make()
    assert caught.value.pointer == path


def test_from_json_takes_only_text() -> None:
    with pytest.raises(TypeError):
        Request.from_json({"id": "r"})  # type: ignore[arg-type]


def test_from_dict_does_not_read_text() -> None:
    with pytest.raises(toolnexus.WrongTypeError):
        Request.from_dict('{"id":"r","kind":"k","prompt":"p"}')  # type: ignore[arg-type]


# Answer.


def test_answer_fields_and_json() -> None:
    answer = Answer("r-1", True, {"age": 42, "ratio": Number("0.50")})
    assert (answer.id, answer.ok, answer.reason) == ("r-1", True, None)
    assert answer.data == {"age": 42, "ratio": 0.5}
    assert answer.to_json() == '{"id":"r-1","ok":true,"data":{"age":42,"ratio":0.50}}'
    refused = Answer("r-1", False, reason="just because")
    assert refused.reason == "just because"
    assert refused.to_dict() == {"id": "r-1", "ok": False, "reason": "just because"}
    assert list(Answer("r", True, {}, "x").to_dict()) == ["id", "ok", "data", "reason"]


@pytest.mark.parametrize(
    ("make", "error", "path"),
    [
        (lambda: Answer("", True), toolnexus.InvalidValueError, "/id"),
        (lambda: Answer("r", 1), toolnexus.WrongTypeError, "/ok"),  # type: ignore[arg-type]
        (lambda: Answer("r", None), toolnexus.MissingFieldError, "/ok"),  # type: ignore[arg-type]
        (lambda: Answer("r", True, reason=3), toolnexus.WrongTypeError, "/reason"),  # type: ignore[arg-type]
        (lambda: Answer.from_dict({"id": "r", "ok": True, "reson": "declined"}), toolnexus.UnknownFieldError, "/reson"),
        (lambda: Answer.from_json('{"id":"r","ok":true,"data":{"a":1,"a":2}}'), toolnexus.DuplicateKeyError, "/data/a"),
    ],
)
def test_answer_refuses_what_the_core_refuses(
    make: Callable[[], object], error: type[toolnexus.Error], path: str
) -> None:
    with pytest.raises(error) as caught:
        make()
    assert caught.value.pointer == path


# ElicitResult.


def test_elicit_result_fields_and_json() -> None:
    result = ElicitResult("accept", {"name": "Ada", "tags": ["a", "b"]}, meta={"trace": 1})
    assert result.action == "accept"
    assert result.content == {"name": "Ada", "tags": ["a", "b"]}
    assert result.meta == {"trace": 1}
    assert result.to_json() == '{"action":"accept","content":{"name":"Ada","tags":["a","b"]},"_meta":{"trace":1}}'
    assert list(result.to_dict()) == ["action", "content", "_meta"]
    assert ElicitResult.from_dict(result.to_dict()) == result
    decline = ElicitResult("decline")
    assert (decline.content, decline.meta, decline.to_json()) == (None, None, '{"action":"decline"}')


@pytest.mark.parametrize(
    ("make", "error", "path"),
    [
        (lambda: ElicitResult("accepted"), toolnexus.InvalidValueError, "/action"),
        (lambda: ElicitResult("cancel", {"a": "b"}), toolnexus.InvalidValueError, "/content"),
        (lambda: ElicitResult("accept", {"a": {"b": 1}}), toolnexus.WrongTypeError, "/content/a"),
        (lambda: ElicitResult("accept", {"a": ["x", 1]}), toolnexus.WrongTypeError, "/content/a/1"),
        (lambda: ElicitResult("accept", meta=[]), toolnexus.WrongTypeError, "/_meta"),  # type: ignore[arg-type]
        (lambda: ElicitResult.from_json('{"action":"accept","meta":{}}'), toolnexus.UnknownFieldError, "/meta"),
    ],
)
def test_elicit_result_refuses_what_the_core_refuses(
    make: Callable[[], object], error: type[toolnexus.Error], path: str
) -> None:
    with pytest.raises(error) as caught:
        make()
    assert caught.value.pointer == path


# What the three have in common.

VALUES: list[Any] = [
    full_request(),
    Request("r", "k", "p"),
    Answer("r", True, {"a": Number("1e2")}, "x"),
    Answer("r", False),
    ElicitResult("accept", {"a": 1}, meta={"m": [1.5]}),
    ElicitResult("cancel"),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_equal_values_have_equal_hashes_and_survive_copies_and_pickles(value: Any) -> None:
    twin = type(value).from_json(value.to_json())
    assert twin == value and hash(twin) == hash(value)
    for copied in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert copied == value and copied.to_json() == value.to_json()
    assert value != value.to_json() and value != value.to_dict()
    assert len({value, twin}) == 1


def test_different_values_are_unequal() -> None:
    for i, value in enumerate(VALUES):
        for other in VALUES[i + 1 :]:
            assert value != other

def test_equality_follows_the_json_member_order_and_spelling() -> None:
    assert Answer("r", True, {"a": 1, "b": 2}) != Answer("r", True, {"b": 2, "a": 1})
    assert Answer("r", True, {"a": Number("1.0")}) != Answer("r", True, {"a": Number("1.00")})
    assert Answer("r", True, {"a": Number("1.0")}) == Answer("r", True, {"a": 1.0})


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_values_are_immutable(value: Any) -> None:
    with pytest.raises(AttributeError):
        value.id = "other"
    with pytest.raises(AttributeError):
        value.anything = 1
    data = value.to_dict()
    data["id"] = "changed"
    assert value.to_dict() != data


def test_reprs_read_like_constructor_calls() -> None:
    assert repr(Request("r", "k", "p", data={"n": Number("1.0")})) == (
        "Request(id='r', kind='k', prompt='p', data={'n': Number('1.0')})"
    )
    assert repr(Answer("r", False, reason="declined")) == "Answer(id='r', ok=False, reason='declined')"
    assert repr(ElicitResult("accept", {}, meta={"a": None})) == "ElicitResult(action='accept', content={}, meta={'a': None})"


def test_the_classes_are_final_and_public() -> None:
    for cls in (Request, Answer, ElicitResult, toolnexus.Limits, toolnexus.Violation):
        assert cls.__module__ == "toolnexus"
        with pytest.raises(TypeError):
            type("Sub", (cls,), {})


# Violation.


def test_violation() -> None:
    violation = toolnexus.Violation("/email", "format", "not an email address")
    assert (violation.pointer, violation.keyword, violation.message) == ("/email", "format", "not an email address")
    assert violation.to_dict() == {"pointer": "/email", "keyword": "format", "message": "not an email address"}
    assert repr(violation) == "Violation(pointer='/email', keyword='format', message='not an email address')"
    assert violation == toolnexus.Violation("/email", "format", "not an email address")
    assert hash(violation) == hash(toolnexus.Violation("/email", "format", "not an email address"))
    assert violation != toolnexus.Violation("/email", "required", "not an email address")
    assert pickle.loads(pickle.dumps(violation)) == violation
