"""The three examples of the McpSource mapping page, in Python."""

from __future__ import annotations

import toolnexus


def test_form_mode_maps_to_kind_input_with_the_schema() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
    }

    req = toolnexus.elicitation_to_request({"message": "Your name?", "requestedSchema": schema})

    assert req.kind == "input"
    assert req.prompt == "Your name?"
    assert req.url is None, "form mode carries no url"
    assert req.data is not None
    assert req.data["schema"] == schema, "schema not carried through"
    assert req.schema == schema


def test_url_mode_maps_to_kind_authorization_with_the_url() -> None:
    req = toolnexus.elicitation_to_request(
        {"mode": "url", "message": "Log in to continue", "url": "https://example.com/auth"}
    )

    assert req.kind == "authorization"
    assert req.url == "https://example.com/auth"
    assert req.data is None, "url mode carries no schema"


def test_answer_round_trips_to_accept_decline_cancel() -> None:
    accept = toolnexus.answer_to_elicit_result(toolnexus.Answer("1", True, {"name": "Ada"}))
    assert accept.action == "accept"
    assert accept.content is not None
    assert accept.content["name"] == "Ada", "content not carried through"

    declined = toolnexus.answer_to_elicit_result(toolnexus.Answer("1", False, reason="declined"))
    assert declined.action == "decline"

    # Anything that isn't an explicit "declined" reason, no reason at all included, is a cancel.
    expired = toolnexus.answer_to_elicit_result(toolnexus.Answer("1", False, reason="expired"))
    no_reason = toolnexus.answer_to_elicit_result(toolnexus.Answer("1", False))
    assert (expired.action, no_reason.action) == ("cancel", "cancel")
    assert declined.content is None and expired.content is None
