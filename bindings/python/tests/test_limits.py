"""``toolnexus.Limits``: the bounds untrusted JSON is read within."""

from __future__ import annotations

import copy
import pickle

import pytest

from toolnexus import Limits


def test_defaults() -> None:
    limits = Limits()
    assert (limits.max_input_bytes, limits.max_depth, limits.max_object_members, limits.max_array_items) == (
        4 * 1024 * 1024,
        64,
        1000,
        10000,
    )
    assert limits == Limits.DEFAULT and hash(limits) == hash(Limits.DEFAULT)
    assert Limits.DEPTH_CEILING == 512


def test_keyword_arguments_set_each_bound() -> None:
    limits = Limits(max_input_bytes=10, max_depth=2, max_object_members=3, max_array_items=4)
    assert (limits.max_input_bytes, limits.max_depth, limits.max_object_members, limits.max_array_items) == (10, 2, 3, 4)
    assert limits != Limits()
    assert repr(limits) == "Limits(max_input_bytes=10, max_depth=2, max_object_members=3, max_array_items=4)"
    with pytest.raises(TypeError):
        Limits(10)  # type: ignore[call-arg]


def test_depth_is_capped_at_the_ceiling() -> None:
    assert Limits(max_depth=100_000).max_depth == Limits.DEPTH_CEILING


def test_bounds_are_unsigned() -> None:
    with pytest.raises(OverflowError):
        Limits(max_depth=-1)


def test_limits_are_immutable_and_copy_and_pickle() -> None:
    limits = Limits(max_depth=3)
    with pytest.raises(AttributeError):
        limits.max_depth = 4  # type: ignore[misc]
    for copied in (copy.copy(limits), copy.deepcopy(limits), pickle.loads(pickle.dumps(limits))):
        assert copied == limits
