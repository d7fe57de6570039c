"""JSON values across the boundary: exact both ways, and every bad value a typed error."""

from __future__ import annotations

import enum
import sys
from collections import OrderedDict
from typing import Any

import pytest

import toolnexus
from toolnexus import Number


def through_data(data: dict[str, Any]) -> str:
    """``data`` written by the core, as the JSON of an answer's ``data``."""
    return toolnexus.Answer("a", True, data).to_json().removeprefix('{"id":"a","ok":true,"data":').removesuffix("}")


def read_data(text: str) -> Any:
    """The ``data`` of an answer read from JSON text, as Python gives it."""
    data = toolnexus.Answer.from_json(f'{{"id":"a","ok":true,"data":{text}}}').data
    assert data is not None
    return data


# Core to Python.


def test_values_become_the_python_types() -> None:
    data = read_data('{"n":null,"t":true,"f":false,"s":"x","a":[1,"y"],"o":{"k":[]}}')
    assert data == {"n": None, "t": True, "f": False, "s": "x", "a": [1, "y"], "o": {"k": []}}
    assert type(data["t"]) is bool and type(data["a"]) is list and type(data["o"]) is dict


def test_objects_keep_their_member_order() -> None:
    assert list(read_data('{"z":1,"a":2,"m":3}')) == ["z", "a", "m"]


def test_integer_spellings_become_exact_ints() -> None:
    data = read_data('{"a":0,"b":-7,"c":123456789012345678901234567890,"d":-18446744073709551617}')
    assert data == {"a": 0, "b": -7, "c": 123456789012345678901234567890, "d": -18446744073709551617}
    assert all(type(v) is int for v in data.values())


@pytest.mark.parametrize("spelling", ["1.0", "1e1", "1E+2", "-1.5e-10", "0.10", "1e400", "-0"])
def test_other_spellings_become_numbers_that_keep_them(spelling: str) -> None:
    value = read_data(f'{{"x":{spelling}}}')["x"]
    assert type(value) is Number
    assert value.spelling == spelling
    assert value == float(spelling)


def test_minus_zero_keeps_its_sign() -> None:
    value = read_data('{"x":-0}')["x"]
    assert str(value) == "-0" and repr(float(value)) == "-0.0"
    assert through_data({"x": value}) == '{"x":-0}'


def int_digit_limit() -> int:
    """How many digits Python reads from decimal text (0: no limit, as before 3.11)."""
    limit: int = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    return limit


@pytest.mark.skipif(int_digit_limit() == 0, reason="this Python reads integers of any length")
def test_an_integer_too_long_for_python_stays_a_number() -> None:
    digits = "9" * (int_digit_limit() + 1)
    value = read_data(f'{{"x":{digits}}}')["x"]
    assert type(value) is Number and value.spelling == digits
    assert through_data({"x": value}) == f'{{"x":{digits}}}'


@pytest.mark.skipif(int_digit_limit() == 0, reason="this Python writes integers of any length")
def test_an_int_too_long_for_python_to_write_is_refused() -> None:
    with pytest.raises(toolnexus.InvalidValueError) as caught:
        toolnexus.Answer("a", True, {"x": 10 ** (int_digit_limit() + 1)})
    assert caught.value.pointer == "/data/x"


# Python to core.


def test_python_values_become_json() -> None:
    data: dict[str, Any] = {"n": None, "t": True, "f": False, "i": -3, "s": "x\n\"y\"", "l": [1, [2]], "u": (1, "a"), "o": {}}
    assert through_data(data) == '{"n":null,"t":true,"f":false,"i":-3,"s":"x\\n\\"y\\"","l":[1,[2]],"u":[1,"a"],"o":{}}'


def test_bool_is_not_read_as_int() -> None:
    assert through_data({"a": True, "b": 1}) == '{"a":true,"b":1}'


def test_big_ints_keep_every_digit() -> None:
    big = 123456789012345678901234567890
    assert through_data({"a": big, "b": -big, "c": 2**64}) == f'{{"a":{big},"b":-{big},"c":{2**64}}}'


@pytest.mark.parametrize(
    ("value", "written"),
    [(0.1, "0.1"), (1.0, "1.0"), (1e16, "1e+16"), (1.5e-7, "1.5e-07"), (-0.0, "-0.0"), (2.5, "2.5")],
)
def test_floats_are_written_as_python_writes_them(value: float, written: str) -> None:
    assert repr(value) == written
    assert through_data({"x": value}) == f'{{"x":{written}}}'


def test_numbers_are_written_with_their_spelling() -> None:
    assert through_data({"a": Number("1.50"), "b": Number("1e2"), "c": Number("1e400")}) == '{"a":1.50,"b":1e2,"c":1e400}'


def test_subclasses_of_the_json_types_are_read_as_their_base() -> None:
    class Colour(enum.IntEnum):
        RED = 1

    class Text(str):
        def __str__(self) -> str:
            return "not this"

    class Real(float):
        def __repr__(self) -> str:
            return "not this"

    ordered = OrderedDict([("b", 1), ("a", 2)])
    data = {"e": Colour.RED, "big": Colour.RED * 2**70, "t": Text("x"), "r": Real(0.5), "o": ordered}
    assert through_data(data) == f'{{"e":1,"big":{2**70},"t":"x","r":0.5,"o":{{"b":1,"a":2}}}}'


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_floats_are_refused(bad: float) -> None:
    with pytest.raises(toolnexus.InvalidValueError) as caught:
        toolnexus.Answer("a", True, {"list": [1, {"x": bad}]})
    assert caught.value.pointer == "/data/list/1/x"


def test_keys_must_be_str() -> None:
    with pytest.raises(toolnexus.WrongTypeError) as caught:
        toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": {"inner": {1: "x"}}})
    assert caught.value.pointer == "/data/inner"
    assert "int" in caught.value.message


@pytest.mark.parametrize("bad", [{1, 2}, b"bytes", object(), 1j, Exception("x")])
def test_values_without_a_json_form_are_refused(bad: object) -> None:
    with pytest.raises(toolnexus.WrongTypeError) as caught:
        toolnexus.Answer("a", True, {"a/b~c": [bad]})
    assert caught.value.pointer == "/data/a~1b~0c/0"
    assert type(bad).__name__ in caught.value.message


def test_lone_surrogates_in_strings_and_keys_are_refused() -> None:
    with pytest.raises(toolnexus.LoneSurrogateError) as caught:
        toolnexus.Answer("a", True, {"s": "ok \ud800"})
    assert caught.value.pointer == "/data/s"
    with pytest.raises(toolnexus.LoneSurrogateError) as caught:
        toolnexus.Answer("a", True, {"o": {"\udc00": 1}})
    assert caught.value.pointer == "/data/o"


def test_pointers_escape_tilde_and_slash() -> None:
    with pytest.raises(toolnexus.InvalidValueError) as caught:
        toolnexus.Answer("a", True, {"~/": {"/": float("nan")}})
    assert caught.value.pointer == "/data/~0~1/~1"


# Bounds.


def nested_lists(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_depth_is_bounded_like_json_text() -> None:
    # The answer is depth 1 and data depth 2, so data may hold 62 more levels by default.
    toolnexus.Answer("a", True, {"x": nested_lists(62)})
    with pytest.raises(toolnexus.TooDeepError) as caught:
        toolnexus.Answer("a", True, {"x": nested_lists(63)})
    assert caught.value.pointer == "/data/x" + "/0" * 62
    text = '{"id":"a","ok":true,"data":{"x":' + "[" * 63 + "]" * 63 + "}}"
    with pytest.raises(toolnexus.TooDeepError) as from_text:
        toolnexus.Answer.from_json(text)
    assert from_text.value.pointer == caught.value.pointer


def test_a_dict_that_contains_itself_is_too_deep() -> None:
    loop: dict[str, Any] = {}
    loop["again"] = loop
    with pytest.raises(toolnexus.TooDeepError) as caught:
        toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": loop})
    assert caught.value.pointer == "/data" + "/again" * 63


def test_a_list_that_contains_itself_is_too_deep() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(toolnexus.TooDeepError):
        toolnexus.Answer("a", True, {"x": loop}, None)
    with pytest.raises(toolnexus.TooDeepError):
        toolnexus.Answer.from_dict(
            {"id": "a", "ok": True, "data": {"x": loop}}, limits=toolnexus.Limits(max_depth=512)
        )


def test_members_and_items_are_bounded() -> None:
    limits = toolnexus.Limits(max_object_members=3, max_array_items=2)
    toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": {"x": [1, 2]}}, limits=limits)
    with pytest.raises(toolnexus.TooManyMembersError) as members:
        toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": {"a": 1, "b": 2, "c": 3, "d": 4}}, limits=limits)
    assert members.value.pointer == "/data"
    with pytest.raises(toolnexus.TooManyItemsError) as items:
        toolnexus.Answer.from_dict({"id": "a", "ok": True, "data": {"x": (1, 2, 3)}}, limits=limits)
    assert items.value.pointer == "/data/x"
