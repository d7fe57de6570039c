"""Params models of the `mcp` package: read field by field, with the result of their dump."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.types import ElicitRequestFormParams, ElicitRequestURLParams

import toolnexus

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"n": {"type": "number", "minimum": 1.5}, "tags": {"type": "array", "items": {"enum": ["a"]}}},
    "required": ["n"],
}


def dumped(model: Any) -> dict[str, Any]:
    """What the model means on the wire: its dump with the wire names, unset fields left out."""
    wire: dict[str, Any] = model.model_dump(by_alias=True, exclude_none=True)
    return wire


def same_request(model: Any) -> None:
    ours = toolnexus.elicitation_to_request(model, id="r-1")
    assert ours == toolnexus.elicitation_to_request(dumped(model), id="r-1")


def test_a_form_model_maps_as_its_dump() -> None:
    same_request(ElicitRequestFormParams(message="Your number?", requested_schema=SCHEMA))


def test_a_url_model_maps_as_its_dump() -> None:
    same_request(ElicitRequestURLParams(message="Log in", url="https://example.com/a", elicitation_id="e-1"))
    same_request(ElicitRequestURLParams(message="Log in", url="https://example.com/a"))


def test_a_model_with_meta_maps_as_its_dump() -> None:
    model = ElicitRequestFormParams.model_validate(
        {"message": "m", "requestedSchema": SCHEMA, "_meta": {"progressToken": 7}}
    )
    same_request(model)


def test_a_subclass_maps_as_its_dump() -> None:
    class Mine(ElicitRequestFormParams):
        pass

    same_request(Mine(message="m", requested_schema=SCHEMA))


def test_the_schema_is_copied_not_shared() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}
    request = toolnexus.elicitation_to_request(ElicitRequestFormParams(message="m", requested_schema=schema))
    schema["properties"]["a"]["type"] = "number"
    assert request.data == {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"a": {"type": "string", "default": float("nan")}}},
        {"type": "object", "properties": {1: {"type": "string"}}},
        {"type": "object", "properties": {"a": {"type": "string", "enum": {"x"}}}},
    ],
)
def test_a_refused_model_is_refused_as_its_dump(schema: dict[Any, Any]) -> None:
    model = ElicitRequestFormParams(message="m", requested_schema=schema)
    with pytest.raises(toolnexus.Error) as ours:
        toolnexus.elicitation_to_request(model)
    with pytest.raises(toolnexus.Error) as theirs:
        toolnexus.elicitation_to_request(dumped(model))
    assert (ours.value.kind, ours.value.pointer) == (theirs.value.kind, theirs.value.pointer)
    assert ours.value.pointer.startswith("/requestedSchema/properties")


def test_the_size_limit_counts_every_field() -> None:
    model = ElicitRequestFormParams(message="x" * 600, requested_schema={"type": "object", "properties": {"a": {"type": "string", "description": "y" * 600}}})
    limits = toolnexus.Limits(max_input_bytes=1000)
    with pytest.raises(toolnexus.Error) as refused:
        toolnexus.elicitation_to_request(model, limits=limits)
    assert (refused.value.kind, refused.value.pointer) == ("too_large", "")
