"""``toolnexus.Number``: a float that keeps its JSON spelling."""

from __future__ import annotations

import copy
import math
import pickle

import pytest

import toolnexus
from toolnexus import Number


@pytest.mark.parametrize("spelling", ["0", "-0", "1.0", "1.50", "1e2", "1E+2", "-1.5e-10", "1e400", "12345678901234567890123"])
def test_a_number_is_its_float_and_keeps_its_spelling(spelling: str) -> None:
    number = Number(spelling)
    assert isinstance(number, float)
    assert number.spelling == spelling == str(number) == f"{number}"
    assert repr(number) == f"Number({spelling!r})"
    assert float(number) == float(spelling)


def test_arithmetic_gives_floats() -> None:
    total = Number("1.50") + 1
    assert total == 2.5 and type(total) is float
    assert math.isinf(Number("1e400"))
    assert Number("1.0") == Number("1.00") == 1.0 and hash(Number("1.0")) == hash(1)


@pytest.mark.parametrize("bad", ["", "01", "1.", ".5", "+1", "1e", "NaN", "Infinity", " 1", "1 ", "0x1", "١"])
def test_only_json_numbers_are_numbers(bad: str) -> None:
    with pytest.raises(toolnexus.InvalidValueError):
        Number(bad)


def test_a_number_is_made_from_text() -> None:
    with pytest.raises(TypeError):
        Number(1.5)  # type: ignore[arg-type]


def test_numbers_are_immutable_and_copy_and_pickle() -> None:
    number = Number("2.50")
    with pytest.raises(AttributeError):
        number.spelling = "3"  # type: ignore[misc]
    for copied in (copy.copy(number), copy.deepcopy(number), pickle.loads(pickle.dumps(number))):
        assert type(copied) is Number and copied.spelling == "2.50"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(number, protocol)).spelling == "2.50"


def test_the_core_checks_the_spelling_again() -> None:
    class Sneaky(Number):
        @property
        def spelling(self) -> str:
            return "1e"

    with pytest.raises(toolnexus.InvalidValueError) as caught:
        toolnexus.Answer("a", True, {"x": Sneaky("1")})
    assert caught.value.pointer == "/data/x"


def test_a_subclass_that_changes_the_dict_being_read_is_harmless() -> None:
    data: dict[str, object] = {}

    class Meddler(Number):
        @property
        def spelling(self) -> str:
            data.clear()
            data.update({f"k{i}": i for i in range(50)})
            return "1.5"

    data.update({"a": Meddler("1"), "b": 2})
    assert toolnexus.Answer("a", True, data).to_json() == '{"id":"a","ok":true,"data":{"a":1.5,"b":2}}'
