"""``toolnexus.from_json`` and ``toolnexus.to_json``: JSON text with the core's exact rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolnexus
from toolnexus import Number


@pytest.mark.parametrize(
    "text",
    [
        '{"b":1,"a":[1.0,-0,1e2,1.50,12345678901234567890123]}',
        '"caf\\u00e9 \\ud83d\\ude00"',
        '[null,true,false,"",{}]',
        "-0.0",
        '{"":{"~/":[[]]}}',
    ],
)
def test_text_comes_back_with_every_spelling(text: str) -> None:
    value = toolnexus.from_json(text)
    assert toolnexus.to_json(value) == toolnexus.to_json(toolnexus.from_json(text.encode()))
    again = toolnexus.to_json(value)
    assert toolnexus.to_json(toolnexus.from_json(again)) == again


def test_numbers_keep_their_spelling() -> None:
    value = toolnexus.from_json('{"a":1.0,"b":-0,"c":1e2,"d":7}')
    assert value == {"a": 1.0, "b": 0, "c": 100, "d": 7}
    assert [type(v) for v in value.values()] == [Number, Number, Number, int]
    assert toolnexus.to_json(value) == '{"a":1.0,"b":-0,"c":1e2,"d":7}'


def test_to_json_writes_python_values() -> None:
    value: Any = {"t": (1, 2.5, True, None), "n": Number("1.50"), "big": 10**30, "s": "\u2028\x01\"\\"}
    assert toolnexus.to_json(value) == (
        '{"t":[1,2.5,true,null],"n":1.50,"big":1000000000000000000000000000000,'
        '"s":"\u2028\\u0001\\"\\\\"}'
    )
    assert toolnexus.to_json("x") == '"x"' and toolnexus.to_json(None) == "null"
    assert json.loads(toolnexus.to_json(value))["big"] == 10**30


def test_to_json_refuses_what_json_cannot_hold() -> None:
    with pytest.raises(toolnexus.InvalidValueError):
        toolnexus.to_json(float("nan"))
    with pytest.raises(toolnexus.WrongTypeError) as caught:
        toolnexus.to_json({"a": [object()]})
    assert caught.value.pointer == "/a/0"
    with pytest.raises(toolnexus.WrongTypeError):
        toolnexus.to_json({1: "x"})
    with pytest.raises(toolnexus.LoneSurrogateError):
        toolnexus.to_json("\ud800")
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(toolnexus.TooDeepError):
        toolnexus.to_json(looped)
    with pytest.raises(toolnexus.TooManyItemsError):
        toolnexus.to_json([1, 2], limits=toolnexus.Limits(max_array_items=1))


def test_from_json_refuses_what_the_core_refuses() -> None:
    with pytest.raises(toolnexus.InvalidJsonError):
        toolnexus.from_json("")
    with pytest.raises(toolnexus.DuplicateKeyError) as caught:
        toolnexus.from_json('{"a":1,"a":2}')
    assert caught.value.pointer == "/a"
    with pytest.raises(toolnexus.InvalidUtf8Error):
        toolnexus.from_json(b'"\xff"')
    with pytest.raises(toolnexus.LoneSurrogateError):
        toolnexus.from_json('"\\ud800"')
    with pytest.raises(toolnexus.TooLargeError):
        toolnexus.from_json("[1]", limits=toolnexus.Limits(max_input_bytes=2))
    with pytest.raises(TypeError):
        toolnexus.from_json({"a": 1})  # type: ignore[arg-type]
