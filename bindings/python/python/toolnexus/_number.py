"""``toolnexus.Number``: a JSON number that is not a plain integer, kept as it was spelt."""

from __future__ import annotations

import re
from typing import Any

from ._errors import InvalidValueError

__all__ = ["Number"]

# RFC 8259: -? int frac? exp?, ASCII digits only.
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


class Number(float):
    """A JSON number that keeps its exact spelling (``1.0``, ``1e2``, ``-0``, ``1.50``).

    It is a ``float`` (its value is the nearest double, ``inf`` beyond the range), so it takes
    part in arithmetic like one; results of arithmetic are plain floats. ``spelling`` is the
    text it was written with, and it is what toolnexus writes back out, so a number read from
    JSON leaves toolnexus spelt as it came in. Equality and hashing are those of the float:
    ``Number("1.0") == Number("1.00") == 1``.

    Integers spelt as integers come from toolnexus as ``int``; ``Number`` holds every other
    spelling, and also ``-0`` and integers too long for Python to read from decimal text.
    """

    __slots__ = ("_spelling",)

    _spelling: str

    def __new__(cls, spelling: str) -> Number:
        if not isinstance(spelling, str):
            raise TypeError(f"a Number is made from its spelling (a str), not {type(spelling).__name__}")
        if _JSON_NUMBER.fullmatch(spelling) is None:
            raise InvalidValueError(f"{spelling!r} is not a JSON number")
        number = super().__new__(cls, spelling)
        number._spelling = spelling
        return number

    @property
    def spelling(self) -> str:
        """The number as it was written, a JSON number."""
        return self._spelling

    def __repr__(self) -> str:
        return f"Number({self._spelling!r})"

    def __str__(self) -> str:
        return self._spelling

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._spelling,))
