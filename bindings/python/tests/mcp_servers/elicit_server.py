"""An MCP server over stdio whose tools elicit and return, as JSON text, exactly what the
client sent back: the end-to-end tests run it as a separate process.

``register`` asks for a form with every field kind, ``login`` asks to open a URL (and then
reports the out-of-band flow complete), ``order`` uses the answer to finish its work, and
``register_rounds`` asks for the same form through the 2026-07-28 multi round-trip
(``input_required``) instead of a request of its own.
"""

from __future__ import annotations

import json
from typing import Any

from mcp import MCPError
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult

REGISTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "email": {"type": "string", "format": "email", "title": "E-mail"},
        "age": {"type": "integer", "minimum": 18, "maximum": 130},
        "newsletter": {"type": "boolean", "default": False},
        "plan": {
            "type": "string",
            "oneOf": [{"const": "free", "title": "Free"}, {"const": "pro", "title": "Pro"}],
        },
        "topics": {
            "type": "array",
            "items": {"type": "string", "enum": ["rust", "python", "mcp"]},
            "minItems": 1,
        },
    },
    "required": ["email", "age", "plan"],
}
QUANTITY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"quantity": {"type": "integer", "minimum": 1, "maximum": 10}},
    "required": ["quantity"],
}
LOGIN_URL = "https://auth.example.com/authorize?client=e2e"

server = MCPServer("toolnexus-e2e")


def received(result: ElicitResult) -> str:
    """What the client answered, as the server got it."""
    return json.dumps(result.model_dump(mode="json", exclude_none=True, by_alias=True))


def refused(error: MCPError) -> str:
    """The JSON-RPC error the client answered with, as the server got it."""
    return json.dumps({"error": error.error.model_dump(mode="json", exclude_none=True)})


@server.tool()
async def register(ctx: Context) -> str:
    """Asks for a registration form and returns the client's answer."""
    try:
        return received(await ctx.request_context.session.elicit_form("Register for the beta", REGISTER_SCHEMA))
    except MCPError as error:
        return refused(error)


@server.tool()
async def login(elicitation_id: str, ctx: Context) -> str:
    """Asks the person to open a URL; on consent, reports the out-of-band flow finished."""
    session = ctx.request_context.session
    try:
        result = await session.elicit_url("Sign in to continue", LOGIN_URL, elicitation_id)
    except MCPError as error:
        return refused(error)
    if result.action == "accept":
        await session.send_elicit_complete(elicitation_id)
    return received(result)


@server.tool()
async def order(item: str, ctx: Context) -> str:
    """Asks how many to order and orders that many."""
    result = await ctx.request_context.session.elicit_form(f"How many {item}?", QUANTITY_SCHEMA)
    if result.action != "accept" or result.content is None:
        return f"no order ({result.action})"
    return f"ordered {result.content['quantity']} x {item}"


@server.tool()
async def register_rounds(ctx: Context) -> str | InputRequiredResult:
    """The registration form through ``input_required``; the retry's answer is returned."""
    responses = ctx.input_responses
    if not responses:
        form = ElicitRequestFormParams(message="Register for the beta", requested_schema=REGISTER_SCHEMA)
        return InputRequiredResult(input_requests={"profile": ElicitRequest(params=form)}, request_state="round-1")
    answer = responses.get("profile")
    if not isinstance(answer, ElicitResult):
        return f"unexpected response: {answer!r}"
    return received(answer)


if __name__ == "__main__":
    server.run("stdio")
