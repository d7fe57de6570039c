"""The MCP server the example web host talks to, over stdio, built with the official ``mcp``
SDK. Each tool asks the person something and returns, as JSON text, exactly what the client
answered (the ``ElicitResult``, or the JSON-RPC error the client sent instead), so what the
server received can be read on the host's result page.

Tools:

- ``register``: a form with every kind of field, asked with ``elicitation/create``
  (2025-11-25).
- ``register_rounds``: the same form through an ``input_required`` result (2026-07-28).
- ``login``: a URL to open (URL mode); on consent the server reports the flow complete.
- ``hostile`` and ``hostile_url``: every text the server controls is hostile (see
  ``hostile.json``), to show that a host renders it as text and never as markup.

Run by the host as ``python server.py``; it speaks MCP on standard input and output.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from mcp import MCPError
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult

COUNTRIES = [
    ("at", "Austria"),
    ("be", "Belgium"),
    ("br", "Brazil"),
    ("ca", "Canada"),
    ("de", "Germany"),
    ("es", "Spain"),
    ("fr", "France"),
    ("in", "India"),
    ("jp", "Japan"),
    ("pt", "Portugal"),
    ("gb", "United Kingdom"),
    ("us", "United States"),
]

REGISTER_MESSAGE = "Register for the beta"
REGISTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Full name", "minLength": 2, "maxLength": 40},
        "email": {"type": "string", "format": "email", "title": "Email"},
        "website": {"type": "string", "format": "uri", "title": "Website"},
        "birthday": {"type": "string", "format": "date", "title": "Date of birth"},
        "meeting": {
            "type": "string",
            "format": "date-time",
            "title": "First meeting",
            "description": "When we should call you first.",
        },
        "height": {"type": "number", "title": "Height in metres", "minimum": 0.5, "maximum": 2.5},
        "age": {"type": "integer", "title": "Age", "minimum": 18, "maximum": 130},
        "terms": {"type": "boolean", "title": "I accept the terms"},
        "newsletter": {"type": "boolean", "title": "Send me the newsletter"},
        "plan": {
            "type": "string",
            "title": "Plan",
            "oneOf": [
                {"const": "free", "title": "Free"},
                {"const": "pro", "title": "Pro"},
                {"const": "team", "title": "Team"},
            ],
        },
        "country": {
            "type": "string",
            "title": "Country",
            "oneOf": [{"const": code, "title": name} for code, name in COUNTRIES],
        },
        "topics": {
            "type": "array",
            "title": "Topics",
            "description": "One or two.",
            "items": {
                "anyOf": [
                    {"const": "rust", "title": "Rust"},
                    {"const": "python", "title": "Python"},
                    {"const": "mcp", "title": "MCP"},
                ]
            },
            "minItems": 1,
            "maxItems": 2,
        },
        "city": {"type": "string", "title": "City", "default": "Lisbon"},
        "notes": {"type": "string", "title": "Notes", "maxLength": 200},
    },
    "required": ["name", "email", "birthday", "meeting", "height", "age", "terms", "plan", "country", "topics", "city"],
}

LOGIN_URL = "https://auth.example.com/authorize?client=web-example&scope=profile"

HOSTILE: dict[str, Any] = json.loads((Path(__file__).parent / "hostile.json").read_text(encoding="utf-8"))
# A 100 KB description, made of the payloads themselves.
HOSTILE["schema"]["properties"]["big"]["description"] = ("<script>window.tnPwned=1</script>\u202e" * 3000)[:100_000]

server = MCPServer("toolnexus-web-example")


def received(result: ElicitResult) -> str:
    """What the client answered, as the server got it."""
    return json.dumps(result.model_dump(mode="json", exclude_none=True, by_alias=True))


def refused(error: MCPError) -> str:
    """The JSON-RPC error the client answered with instead, as the server got it."""
    return json.dumps({"error": error.error.model_dump(mode="json", exclude_none=True)})


@server.tool()
async def register(ctx: Context) -> str:
    """A registration form with every kind of field (2025-11-25: elicitation/create)."""
    try:
        return received(await ctx.request_context.session.elicit_form(REGISTER_MESSAGE, REGISTER_SCHEMA))
    except MCPError as error:
        return refused(error)


@server.tool()
async def register_rounds(ctx: Context) -> str | InputRequiredResult:
    """The same registration form as an input_required result (2026-07-28)."""
    responses = ctx.input_responses
    if not responses:
        form = ElicitRequestFormParams(message=REGISTER_MESSAGE, requested_schema=REGISTER_SCHEMA)
        return InputRequiredResult(input_requests={"profile": ElicitRequest(params=form)}, request_state="round-1")
    answer = responses.get("profile")
    if not isinstance(answer, ElicitResult):
        return json.dumps({"unexpected": repr(answer)})
    return received(answer)


@server.tool()
async def login(ctx: Context) -> str:
    """Asks the person to sign in on a web page (URL mode, 2025-11-25)."""
    session = ctx.request_context.session
    elicitation_id = str(uuid.uuid4())
    try:
        result = await session.elicit_url("Sign in to continue", LOGIN_URL, elicitation_id)
    except MCPError as error:
        return refused(error)
    if result.action == "accept":
        # A real server would wait for the sign-in to finish; this one says it did.
        await session.send_elicit_complete(elicitation_id)
    return received(result)


@server.tool(title=HOSTILE["schema"]["properties"]["__proto__"]["title"], description=HOSTILE["message"])
async def hostile(ctx: Context) -> str:
    """A form whose every text is hostile (2025-11-25)."""
    try:
        return received(await ctx.request_context.session.elicit_form(HOSTILE["message"], HOSTILE["schema"]))
    except MCPError as error:
        return refused(error)


@server.tool(title=HOSTILE["urlMessage"], description=HOSTILE["urlMessage"])
async def hostile_url(ctx: Context) -> str:
    """Asks to open a javascript: URL (URL mode, 2025-11-25)."""
    try:
        result = await ctx.request_context.session.elicit_url(HOSTILE["urlMessage"], HOSTILE["url"], "hostile-url")
    except MCPError as error:
        return refused(error)
    return received(result)


if __name__ == "__main__":
    server.run("stdio")
