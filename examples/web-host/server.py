"""The MCP server the example web host talks to, over stdio or streamable HTTP, built with the
official ``mcp`` SDK. Each tool asks the person something and returns, as JSON text, exactly
what the client answered (the ``ElicitResult``, or the JSON-RPC error the client sent instead),
so what the server received can be read on the host's result page.

Tools:

- ``register``: a form with every kind of field, asked with ``elicitation/create``
  (2025-11-25).
- ``register_rounds``: the same form through an ``input_required`` result (2026-07-28).
- ``register_confirm``: the same form, then a short confirmation form: two ``input_required``
  rounds in a row (2026-07-28). The server keeps nothing between them: the first answer rides
  in ``requestState``, which the SDK seals. Before its result it reports progress, so over HTTP
  its last reply is an event stream.
- ``rsvp``: a two-field form in one ``input_required`` round (2026-07-28), for many people at
  once.
- ``login``: a URL to open (URL mode); on consent the server reports the flow complete.
- ``hostile`` and ``hostile_url``: every text the server controls is hostile (see
  ``hostile.json``), to show that a host renders it as text and never as markup.

Run by the host as ``python server.py``; it speaks MCP on standard input and output.

``python server.py --http PORT`` serves it over streamable HTTP on 127.0.0.1 instead, at
``/mcp``, stateless (no session is kept between requests; a 2026-07-28 request is answered by
itself). ``--http 0`` takes any free port; the line ``listening on http://127.0.0.1:PORT/mcp``
on standard output says which. ``--log FILE`` appends one JSON line to FILE for every tool
call that carries ``inputResponses``: ``{"tool", "round", "inputResponses"}``, the answers as
the server received them, so a test can count exactly what arrived.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
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

CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "confirm": {"type": "boolean", "title": "Send this registration"},
        "remarks": {"type": "string", "title": "Remarks", "maxLength": 100},
    },
    "required": ["confirm"],
}

RSVP_MESSAGE = "Will you come to the launch?"
RSVP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Your name", "minLength": 1, "maxLength": 60},
        "guests": {"type": "integer", "title": "Guests", "minimum": 0, "maximum": 5},
    },
    "required": ["name"],
}

LOG: Path | None = None
"""Where each call's ``inputResponses`` are appended (``--log``), if anywhere."""

server = MCPServer("toolnexus-web-example")


def received(result: ElicitResult) -> str:
    """What the client answered, as the server got it."""
    return json.dumps(result.model_dump(mode="json", exclude_none=True, by_alias=True))


def dump(result: Any) -> Any:
    """An input response as JSON data: an ``ElicitResult`` as the client wrote it."""
    if hasattr(result, "model_dump"):
        return result.model_dump(mode="json", exclude_none=True, by_alias=True)
    return result


def log_received(tool: str, round_: int, responses: dict[str, Any]) -> None:
    """Appends what a call carried to ``LOG``: one line, written at once."""
    if LOG is None:
        return
    line = json.dumps({"tool": tool, "round": round_, "inputResponses": {k: dump(v) for k, v in responses.items()}})
    fd = os.open(LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    finally:
        os.close(fd)


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
    log_received("register_rounds", 1, responses)
    answer = responses.get("profile")
    if not isinstance(answer, ElicitResult):
        return json.dumps({"unexpected": repr(answer)})
    return received(answer)


@server.tool()
async def register_confirm(ctx: Context) -> str | InputRequiredResult:
    """The registration form, then a confirmation: two input_required rounds (2026-07-28)."""
    responses = ctx.input_responses
    if not responses:
        form = ElicitRequestFormParams(message=REGISTER_MESSAGE, requested_schema=REGISTER_SCHEMA)
        state = json.dumps({"round": 1})
        return InputRequiredResult(input_requests={"profile": ElicitRequest(params=form)}, request_state=state)
    state = json.loads(ctx.request_state or "{}")
    round_ = state.get("round")
    log_received("register_confirm", round_ if isinstance(round_, int) else 0, responses)
    if round_ == 1:
        profile = responses.get("profile")
        if not isinstance(profile, ElicitResult):
            return json.dumps({"unexpected": repr(profile)})
        if profile.action != "accept":
            return json.dumps({"profile": dump(profile)})
        name = (profile.content or {}).get("name", "")
        form = ElicitRequestFormParams(message=f"Send the registration of {name}?", requested_schema=CONFIRM_SCHEMA)
        state = json.dumps({"round": 2, "profile": dump(profile)})
        return InputRequiredResult(input_requests={"confirm": ElicitRequest(params=form)}, request_state=state)
    confirm = responses.get("confirm")
    if round_ != 2 or not isinstance(confirm, ElicitResult):
        return json.dumps({"unexpected": repr(responses)})
    # A progress notification first (when the client asked for progress): over HTTP the reply
    # is then an event stream, not a plain JSON body.
    await ctx.report_progress(1, 1, "Registration saved")
    return json.dumps({"profile": state.get("profile"), "confirm": dump(confirm)})


@server.tool()
async def rsvp(ctx: Context) -> str | InputRequiredResult:
    """A two-field form in one input_required round (2026-07-28)."""
    responses = ctx.input_responses
    if not responses:
        form = ElicitRequestFormParams(message=RSVP_MESSAGE, requested_schema=RSVP_SCHEMA)
        return InputRequiredResult(input_requests={"rsvp": ElicitRequest(params=form)}, request_state="rsvp")
    log_received("rsvp", 1, responses)
    answer = responses.get("rsvp")
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


def serve_http(port: int) -> None:
    """Serves the tools over streamable HTTP on 127.0.0.1, stateless, and says where."""
    import uvicorn

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    port = listener.getsockname()[1]
    app = server.streamable_http_app(stateless_http=True, host="127.0.0.1")
    http = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))

    async def serve() -> None:
        serving = asyncio.create_task(http.serve(sockets=[listener]))
        while not http.started and not serving.done():
            await asyncio.sleep(0.05)
        if http.started:
            print(f"listening on http://127.0.0.1:{port}/mcp", flush=True)
        await serving

    asyncio.run(serve())


def main() -> None:
    global LOG
    parser = argparse.ArgumentParser(description="The example MCP server of the toolnexus web host.")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve over streamable HTTP on 127.0.0.1:PORT (0: any free one)")
    parser.add_argument("--log", type=Path, metavar="FILE", help="append each call's inputResponses to FILE, one JSON line each")
    args = parser.parse_args()
    LOG = args.log
    if args.http is None:
        server.run("stdio")
    else:
        serve_http(args.http)


if __name__ == "__main__":
    main()
