"""A dict can hold one key twice only through `str` subclasses; such a dict is refused."""

from __future__ import annotations

import pytest

import toolnexus


class Key(str):
    """A key the dict tells apart from the `str` of the same text."""

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


@pytest.mark.parametrize(
    "members",
    [
        [(Key("a"), 1), ("a", 2)],
        [("a", 1), (Key("a"), 2)],
        [("x", 0), (Key("a"), 1), ("b", 3), ("a", 2)],
        [(Key("a"), 1), (Key("a"), 2)],
    ],
)
def test_one_key_twice_is_refused_whichever_comes_first(members: list[tuple[str, int]]) -> None:
    twice = dict(members)
    assert len(twice) == len(members)
    with pytest.raises(toolnexus.DuplicateKeyError) as caught:
        toolnexus.to_json({"outer": twice})
    assert caught.value.pointer == "/outer/a"


def test_distinct_subclass_keys_are_read_in_order() -> None:
    assert toolnexus.to_json({Key("b"): 1, "a": 2, Key("c"): 3}) == '{"b":1,"a":2,"c":3}'
