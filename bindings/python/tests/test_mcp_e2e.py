"""End to end with real processes: an MCP server (``mcp_servers/elicit_server.py``, built with
the ``mcp`` package) elicits over stdio, and the ``mcp`` client answers through
``toolnexus.mcp.elicitation_callback`` with a scripted host. Each test checks what the SERVER
received, which its tools return as their result.

Two server processes serve the whole module: one spoken to by ``mcp.ClientSession`` at
2025-11-25 (the server sends ``elicitation/create``), one by ``mcp.Client`` at 2026-07-28 (the
server answers ``input_required`` and the client retries).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, TextIO

import anyio
import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client, types

import toolnexus
import toolnexus.mcp
from toolnexus import Answer, Request, Violation

pytestmark = pytest.mark.anyio

SERVER = Path(__file__).parent / "mcp_servers" / "elicit_server.py"
START_TIMEOUT_S = 30
CALL_TIMEOUT_S = 20
VALID: dict[str, Any] = {
    "email": "ada@example.com",
    "age": 36,
    "newsletter": True,
    "plan": "pro",
    "topics": ["rust", "mcp"],
}
INVALID: dict[str, Any] = {"email": "ada at example", "age": 130.5, "plan": "gold", "topics": ["cobol"]}


class Host:
    """The person at the client, scripted: each ask takes the next reply."""

    def __init__(self) -> None:
        self.replies: list[Callable[[Request], Answer]] = []
        self.asked: list[tuple[Request, tuple[Violation, ...]]] = []

    def script(self, *replies: Callable[[Request], Answer]) -> None:
        self.replies = list(replies)
        self.asked = []

    async def __call__(self, request: Request, violations: Sequence[Violation]) -> Answer:
        self.asked.append((request, tuple(violations)))
        if not self.replies:
            raise RuntimeError(f"no reply scripted for {request.prompt!r}")
        return self.replies.pop(0)(request)


def accept(data: dict[str, Any] | None = None) -> Callable[[Request], Answer]:
    return lambda request: Answer(request.id, True, data)


def refuse(reason: str | None) -> Callable[[Request], Answer]:
    return lambda request: Answer(request.id, False, reason=reason)


def fail(request: Request) -> Answer:
    raise OSError("the UI went away")


class Connection:
    """A client connected to one server process, answering through ``host``."""

    def __init__(self, host: Host, callback: toolnexus.mcp.ElicitationCallback, client: ClientSession | Client) -> None:
        self.host = host
        self.callback = callback
        self.client = client

    async def call(self, tool: str, **arguments: Any) -> Any:
        """The tool's text result, read as JSON when it is."""
        with anyio.fail_after(CALL_TIMEOUT_S):
            result = await self.client.call_tool(tool, arguments)
        assert not result.is_error, result
        [content] = result.content
        assert isinstance(content, types.TextContent)
        try:
            return json.loads(content.text)
        except json.JSONDecodeError:
            return content.text


def server_parameters() -> StdioServerParameters:
    if not SERVER.is_file():
        pytest.fail(f"the test server {SERVER} is missing")
    return StdioServerParameters(command=sys.executable, args=[str(SERVER)], cwd=str(SERVER.parent))


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def legacy() -> AsyncIterator[Connection]:
    """``mcp.ClientSession`` over stdio at 2025-11-25."""
    host = Host()
    callback = toolnexus.mcp.elicitation_callback(host)
    async with AsyncExitStack() as exits:
        errlog = exits.enter_context(tempfile.TemporaryFile("w+"))

        async def connect() -> ClientSession:
            read, write = await exits.enter_async_context(stdio_client(server_parameters(), errlog=errlog))
            session = await exits.enter_async_context(
                ClientSession(read, write, elicitation_callback=callback, message_handler=callback.message_handler())
            )
            with anyio.fail_after(START_TIMEOUT_S):
                await session.initialize()
            return session

        session = await connect_or_fail(errlog, connect)
        assert session.protocol_version == "2025-11-25"
        yield Connection(host, callback, session)


@pytest.fixture(scope="module")
async def modern() -> AsyncIterator[Connection]:
    """``mcp.Client`` over stdio at 2026-07-28, driving ``input_required`` itself."""
    host = Host()
    callback = toolnexus.mcp.elicitation_callback(host)
    async with AsyncExitStack() as exits:
        errlog = exits.enter_context(tempfile.TemporaryFile("w+"))

        async def connect() -> Client:
            client = Client(
                stdio_client(server_parameters(), errlog=errlog),
                elicitation_callback=callback,
                mode="2026-07-28",
                read_timeout_seconds=START_TIMEOUT_S,
            )
            return await exits.enter_async_context(client)

        client = await connect_or_fail(errlog, connect)
        assert client.session.protocol_version == "2026-07-28"
        yield Connection(host, callback, client)


async def connect_or_fail(errlog: TextIO, connect: Callable[[], Any]) -> Any:
    """``connect()``, or the tests fail loudly with the server's stderr."""
    try:
        return await connect()
    except Exception as error:
        errlog.seek(0)
        pytest.fail(f"the MCP test server did not start ({error!r}); its stderr:\n{errlog.read()}")


async def test_a_form_with_every_field_kind_accepted(legacy: Connection) -> None:
    legacy.host.script(accept(VALID))
    assert await legacy.call("register") == {"action": "accept", "content": VALID}
    [(request, violations)] = legacy.host.asked
    assert (request.kind, request.prompt, violations) == ("input", "Register for the beta", ())
    assert request.schema is not None
    assert list(request.schema["properties"]) == ["email", "age", "newsletter", "plan", "topics"]


async def test_decline(legacy: Connection) -> None:
    legacy.host.script(lambda r: Answer(r.id, False, VALID, "declined"))
    assert await legacy.call("register") == {"action": "decline"}


async def test_cancel(legacy: Connection) -> None:
    legacy.host.script(refuse("closed the dialog"))
    assert await legacy.call("register") == {"action": "cancel"}


async def test_invalid_then_corrected(legacy: Connection) -> None:
    legacy.host.script(accept(INVALID), accept(VALID))
    assert await legacy.call("register") == {"action": "accept", "content": VALID}
    [(first, none), (again, violations)] = legacy.host.asked
    assert first == again and none == ()
    assert [(v.pointer, v.keyword) for v in violations] == [
        ("/email", "format"),
        ("/age", "type"),
        ("/age", "maximum"),
        ("/plan", "oneOf"),
        ("/topics/0", "enum"),
    ]


async def test_invalid_every_time(legacy: Connection) -> None:
    legacy.host.script(accept(INVALID), accept(INVALID), accept({"email": "a@b.co"}))
    received = await legacy.call("register")
    error = received["error"]
    assert (error["code"], error["message"]) == (-32603, "the host gave no valid answer to the form in 3 attempts")
    sent = error["data"]["violations"]
    assert [(v["pointer"], v["keyword"]) for v in sent] == [("/age", "required"), ("/plan", "required")]
    assert all(list(v) == ["pointer", "keyword", "message"] and v["message"] for v in sent)
    assert len(legacy.host.asked) == 3


async def test_a_raising_host(legacy: Connection) -> None:
    legacy.host.script(fail)
    received = await legacy.call("register")
    assert received == {"error": {"code": -32603, "message": "the host failed while answering the elicitation"}}
    assert len(legacy.callback.session) == 0


async def test_url_consent(legacy: Connection) -> None:
    legacy.host.script(accept({"password": "never sent"}))
    assert await legacy.call("login", elicitation_id="login-1") == {"action": "accept"}
    [(request, _)] = legacy.host.asked
    assert (request.kind, request.url) == ("authorization", "https://auth.example.com/authorize?client=e2e")
    # The server reported the flow finished; the session let go of it.
    with anyio.fail_after(CALL_TIMEOUT_S):
        while legacy.callback.session.awaiting_completion():
            await anyio.sleep(0.01)


async def test_url_declined(legacy: Connection) -> None:
    legacy.host.script(refuse("declined"))
    assert await legacy.call("login", elicitation_id="login-2") == {"action": "decline"}
    assert legacy.callback.session.awaiting_completion() == []


async def test_a_tool_uses_the_answer(legacy: Connection) -> None:
    legacy.host.script(accept({"quantity": 11}), accept({"quantity": 3}))
    assert await legacy.call("order", item="widget") == "ordered 3 x widget"
    assert [v.keyword for v in legacy.host.asked[1][1]] == ["maximum"]
    legacy.host.script(refuse("declined"))
    assert await legacy.call("order", item="widget") == "no order (decline)"


async def test_the_multi_round_trip_uses_the_same_callback(modern: Connection) -> None:
    modern.host.script(accept(INVALID), accept(VALID))
    assert await modern.call("register_rounds") == {"action": "accept", "content": VALID}
    [(first, _), (again, violations)] = modern.host.asked
    assert first == again and first.prompt == "Register for the beta"
    assert len(violations) == 5


async def test_the_multi_round_trip_declined(modern: Connection) -> None:
    modern.host.script(refuse("declined"))
    assert await modern.call("register_rounds") == {"action": "decline"}
    assert len(modern.callback.session) == 0
