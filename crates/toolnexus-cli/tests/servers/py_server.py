# py_server.py: an MCP test server built with the official Python SDK (mcp==2.3.0, MCPServer), dual era.
"""Test MCP server `toolnexus-test-py` 1.0.0.

Usage:
    python py_server.py stdio        # newline-delimited JSON-RPC on stdin/stdout
    python py_server.py http PORT    # streamable HTTP on http://127.0.0.1:PORT/mcp (the SDK's default path)

Both transports answer both protocol eras, as the SDK does:
  * 2026-07-28 (modern, stateless): `server/discover`, every request carries its `_meta` envelope, and the
    tools below ask their questions by returning an `InputRequiredResult` (multi round-trip requests); the
    answers come back on the retry as `ctx.input_responses` / `ctx.request_state`. The SDK seals every
    `requestState` on the wire (AES-GCM under a key made at start-up, bound to the tool name and arguments);
    the tool code sees only the plaintext it minted.
  * 2025-11-25 and older (handshake): `initialize`, then the same tools ask through server-to-client
    `elicitation/create` (and `sampling/createMessage`) requests while the `tools/call` is pending.

Tools:
  book_trip(city)  two rounds: a form (nights 1-14, breakfast), then a confirmation form; the result text
                   is JSON of everything the server received: {"city", "round1", "round2", "states", "ended",
                   "action"}, where round1/round2 are the `inputResponses` maps as they arrived and `states` the
                   decoded requestState plaintexts it got back ({"step": 1, ...}, {"step": 2, ...}). A decline or
                   cancel ends the call at once: "ended" is "round1" or "round2" and "action" the action received.
  sign_in()        one URL-mode elicitation (https://auth.example.com/login?state=x); reports the action.
  fail()           always an error result (isError: true, "this tool always fails").
  capabilities()   no question: the text is JSON {"protocolVersion", "clientCapabilities"}, the capabilities the
                   client declared (the `initialize` ones, or the request's `_meta` at 2026-07-28), as the SDK read them.
  mixed()          one round asking an elicitation AND a sampling/createMessage (sent whatever the client
                   declared); reports the `inputResponses` verbatim, the requestState and the client capabilities.
A retry that lacks a needed answer (book_trip, sign_in) is asked the same question again, as the spec advises.
With PY_SERVER_STATE_KEY set (at least 32 bytes), the requestState is sealed under that key instead of one made at
start-up, so another process of the server (a stdio server started again) reads it.
Every tools/call writes one line `py_server: tools/call NAME` to stderr, so a test can count the calls that reached
the server.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from mcp.server.mcpserver import Context, MCPServer, RequestStateSecurity
from mcp_types import (
    CallToolResult,
    CreateMessageRequest,
    CreateMessageRequestParams,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    InputRequiredResult,
    SamplingMessage,
    TextContent,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

# A server that is started again (a stdio server, per client process) reads the requestState it sealed
# before only when its key outlives the process: PY_SERVER_STATE_KEY (at least 32 bytes) gives one. Without
# it the SDK makes a key at start-up, and a round begun with another process of the server is refused.
_STATE_KEY = os.environ.get("PY_SERVER_STATE_KEY")

server = MCPServer(
    name="toolnexus-test-py",
    version="1.0.0",
    instructions="Test server for toolnexus: book_trip, sign_in, fail, mixed.",
    request_state_security=RequestStateSecurity(keys=[_STATE_KEY]) if _STATE_KEY else None,
)

TRIP_MESSAGE = "How long is the stay?"
TRIP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 14},
        "breakfast": {"type": "boolean", "title": "Breakfast included", "default": False},
    },
    "required": ["nights"],
}
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "title": "Confirm the booking"}},
    "required": ["confirm"],
}
SIGN_IN_URL = "https://auth.example.com/login?state=x"
SIGN_IN_MESSAGE = "Sign in to continue"
MIXED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"color": {"type": "string", "title": "Favourite colour"}},
    "required": ["color"],
}
SAMPLING_TEXT = "Say hello in one word."


def _called(name: str) -> None:
    print(f"py_server: tools/call {name}", file=sys.stderr, flush=True)


def _modern(ctx: Context) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def _text(value: Any, *, is_error: bool = False) -> CallToolResult:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return CallToolResult(content=[TextContent(text=text)], is_error=is_error)


def _raw_responses(ctx: Context) -> Any:
    """The `inputResponses` exactly as they arrived in the request params (not re-serialized models)."""
    params = ctx.request_context.params or {}
    return params.get("inputResponses")


def _form(message: str, schema: dict[str, Any]) -> ElicitRequest:
    return ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))


def _dump(result: Any) -> Any:
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


@server.tool(description="Book a trip: asks how long (form), then asks to confirm (form).")
async def book_trip(city: str, ctx: Context) -> CallToolResult | InputRequiredResult:
    _called("book_trip")
    if not _modern(ctx):
        return await _book_trip_legacy(city, ctx)
    state_text = ctx.request_state
    trip = {"trip": _form(f"{TRIP_MESSAGE} ({city})", TRIP_SCHEMA)}
    if state_text is None:
        first = json.dumps({"step": 1, "city": city}, sort_keys=True)
        return InputRequiredResult(input_requests=trip, request_state=first)
    state = json.loads(state_text)
    raw = _raw_responses(ctx) or {}
    if state.get("step") == 1:
        if "trip" not in raw:  # the answer is needed: ask again (the spec's SHOULD), same state
            return InputRequiredResult(input_requests=trip, request_state=state_text)
        answer = raw["trip"]
        if answer.get("action") != "accept":
            return _text({"city": city, "ended": "round1", "action": answer.get("action"),
                          "round1": raw, "states": [state]})
        second = json.dumps({"step": 2, "city": city, "round1": raw, "seen": [state]}, sort_keys=True)
        return InputRequiredResult(input_requests=_confirm(city), request_state=second)
    if state.get("step") == 2:
        if "confirm" not in raw:
            return InputRequiredResult(input_requests=_confirm(city), request_state=state_text)
        answer = raw["confirm"]
        report: dict[str, Any] = {"city": city, "round1": state["round1"], "round2": raw,
                                  "states": [*state["seen"], state]}
        if answer.get("action") != "accept":
            report.update(ended="round2", action=answer.get("action"))
        else:
            report.update(ended="complete", action="accept")
        return _text(report)
    return _text({"error": "unknown requestState", "requestState": state_text}, is_error=True)


def _confirm(city: str) -> dict[str, ElicitRequest]:
    return {"confirm": _form(f"Confirm the trip to {city}?", CONFIRM_SCHEMA)}


async def _book_trip_legacy(city: str, ctx: Context) -> CallToolResult:
    first = _dump(await ctx.session.elicit_form(f"{TRIP_MESSAGE} ({city})", TRIP_SCHEMA, ctx.request_id))
    if first.get("action") != "accept":
        return _text({"city": city, "ended": "round1", "action": first.get("action"),
                      "round1": {"trip": first}, "states": []})
    second = _dump(await ctx.session.elicit_form(f"Confirm the trip to {city}?", CONFIRM_SCHEMA, ctx.request_id))
    return _text({"city": city, "round1": {"trip": first}, "round2": {"confirm": second}, "states": [],
                  "ended": "complete" if second.get("action") == "accept" else "round2",
                  "action": second.get("action")})


@server.tool(description="Sign in through a URL-mode elicitation.")
async def sign_in(ctx: Context) -> CallToolResult | InputRequiredResult:
    _called("sign_in")
    if not _modern(ctx):
        got = _dump(await ctx.session.elicit_url(SIGN_IN_MESSAGE, SIGN_IN_URL, "sign-in-1", ctx.request_id))
        return _text({"action": got.get("action"), "received": got})
    login = {"login": ElicitRequest(params=ElicitRequestURLParams(message=SIGN_IN_MESSAGE, url=SIGN_IN_URL))}
    raw = _raw_responses(ctx) or {}
    if ctx.request_state is None or "login" not in raw:  # first round, or the answer is missing: ask
        return InputRequiredResult(input_requests=login, request_state="sign_in:1")
    return _text({"action": raw["login"].get("action"), "received": raw, "requestState": ctx.request_state})


@server.tool(description="Always fails.")
async def fail() -> CallToolResult:
    _called("fail")
    return _text("this tool always fails", is_error=True)


@server.tool(description="One round asking an elicitation and a sampling request together.")
async def mixed(ctx: Context) -> CallToolResult | InputRequiredResult:
    _called("mixed")
    ask = _form("What is your favourite colour?", MIXED_SCHEMA)
    llm = CreateMessageRequest(params=CreateMessageRequestParams(
        messages=[SamplingMessage(role="user", content=TextContent(text=SAMPLING_TEXT))], max_tokens=16))
    if not _modern(ctx):
        received: dict[str, Any] = {}
        received["ask"] = _dump(await ctx.session.elicit_form(ask.params.message, MIXED_SCHEMA, ctx.request_id))
        try:
            received["llm"] = _dump(await ctx.session.create_message(
                messages=llm.params.messages, max_tokens=16, related_request_id=ctx.request_id))
        except Exception as exc:  # the client may refuse sampling: report the error it sent
            received["llm"] = {"error": str(exc), "type": type(exc).__name__}
        return _text({"inputResponses": received, "requestState": None})
    if ctx.request_state is None:
        return InputRequiredResult(input_requests={"ask": ask, "llm": llm}, request_state="mixed:1")
    # Reported whatever arrived (nothing is re-asked). The sampling entry is sent even to a client that did not
    # declare sampling (a deliberate test of how the client answers a request it cannot serve).
    meta = (ctx.request_context.params or {}).get("_meta") or {}
    return _text({"inputResponses": _raw_responses(ctx), "requestState": ctx.request_state,
                  "clientCapabilities": meta.get("io.modelcontextprotocol/clientCapabilities")})


@server.tool(description="Reports the capabilities the client declared, in either era.")
async def capabilities(ctx: Context) -> CallToolResult:
    _called("capabilities")
    declared = ctx.session.client_capabilities
    dumped = declared.model_dump(by_alias=True, exclude_none=True) if declared is not None else None
    return _text({"protocolVersion": ctx.protocol_version, "clientCapabilities": dumped})


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "stdio":
        server.run("stdio")
        return 0
    if len(argv) == 3 and argv[1] == "http" and argv[2].isdigit():
        server.run("streamable-http", host="127.0.0.1", port=int(argv[2]))
        return 0
    print("usage: py_server.py stdio | py_server.py http PORT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
