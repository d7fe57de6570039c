"""Adversarial input given as Python objects: the limits and refusals of JSON text hold for
``dict``, ``list`` and ``str`` values too, with the same error kind and pointer."""

from __future__ import annotations

from typing import Any

import pytest

import toolnexus


def error_of(call: Any) -> tuple[str, str]:
    with pytest.raises(toolnexus.Error) as caught:
        call()
    return caught.value.kind, caught.value.pointer


def test_a_raw_lone_surrogate_in_a_value_or_a_key() -> None:
    as_text = error_of(lambda: toolnexus.Answer.from_json('{"id":"\\ud800","ok":true}'))
    as_dict = error_of(lambda: toolnexus.Answer.from_dict({"id": "\ud800", "ok": True}))
    assert as_dict == as_text == ("lone_surrogate", "/id")
    key = error_of(lambda: toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": {"\udc00": 1}}))
    assert key[0] == "lone_surrogate"


def test_a_50_mb_string_is_too_large_as_text_or_as_a_dict() -> None:
    big = "a" * (50 * 1024 * 1024)
    params = {"message": big, "requestedSchema": {"type": "object"}}
    as_dict = error_of(lambda: toolnexus.elicitation_to_request(params, id="r"))
    text = '{"message":"' + big + '","requestedSchema":{"type":"object"}}'
    as_text = error_of(lambda: toolnexus.elicitation_to_request(text, id="r"))
    assert as_dict == as_text == ("too_large", "")


def test_escapes_count_toward_the_size_as_they_are_written() -> None:
    limits = toolnexus.Limits(max_input_bytes=24)
    # {"id":"\n\n","ok":true} is 24 bytes once written; one more newline is over.
    toolnexus.Answer.from_dict({"id": "\n\n", "ok": True}, limits=limits)
    assert error_of(lambda: toolnexus.Answer.from_dict({"id": "\n\n\n", "ok": True}, limits=limits)) == (
        "too_large",
        "",
    )


def test_a_list_that_contains_itself_is_too_deep() -> None:
    loop: list[Any] = []
    loop.append(loop)
    kind, pointer = error_of(lambda: toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": {"x": loop}}))
    assert kind == "too_deep"
    assert pointer.startswith("/data/x/0/0")


def test_100_000_members_or_1_000_000_items() -> None:
    members = {f"p{n}": {"type": "string"} for n in range(100_000)}
    params = {"message": "m", "requestedSchema": {"type": "object", "properties": members}}
    assert error_of(lambda: toolnexus.elicitation_to_request(params, id="r")) == (
        "too_many_members",
        "/requestedSchema/properties",
    )
    answer = {"id": "a", "ok": True, "data": {"l": [0] * 1_000_000}}
    assert error_of(lambda: toolnexus.Answer.from_dict(answer)) == ("too_many_items", "/data/l")


def test_non_finite_floats_have_no_json_spelling() -> None:
    for value in (float("nan"), float("inf"), float("-inf")):
        assert error_of(lambda: toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": {"n": value}})) == (
            "invalid_value",
            "/data/n",
        )


def test_proto_keys_are_plain_members() -> None:
    answer = toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": {"__proto__": {"admin": True}}})
    assert answer.to_json() == '{"id":"a","ok":true,"data":{"__proto__":{"admin":true}}}'
