# fastmcp_tasks_server.py: an MCP test server built with FastMCP 4.1.6 + fastmcp-tasks 4.1.4 (the 2026-07-28 tasks extension).
"""Test MCP server `toolnexus-test-fastmcp-tasks` 1.0.0: its tools run as tasks (`io.modelcontextprotocol/tasks`).

Usage:
    python fastmcp_tasks_server.py stdio        # newline-delimited JSON-RPC on stdin/stdout (nothing else on stdout)
    python fastmcp_tasks_server.py http PORT    # streamable HTTP on http://127.0.0.1:PORT/mcp; PORT 0 = a free port;
                                                # once listening, writes
                                                # `fastmcp_tasks_server: listening on http://127.0.0.1:PORT/mcp` to stderr

Tasks are a 2026-07-28 extension: a client must send the modern `_meta` envelope and list
`extensions["io.modelcontextprotocol/tasks"]: {}` in its per-request client capabilities. Then `tools/call` of the
task tools below answers at once `{"resultType": "task", "taskId", "status": "working", ...}`; the client polls
`tasks/get`, answers questions with `tasks/update` and may stop a task with `tasks/cancel`. Every tool but `quick` is
task-mode "required": a `tools/call` without the extension gets -32021 (Missing required client capability).
The poll interval is POLL_MS (200 ms), not FastMCP's 5 s default. Tasks run in this process (Docket, `memory://`).

Inside a task FastMCP's `ctx.elicit()` raises; a task asks by *returning* an InputRequiredResult (MRTR shape). The task
then shows `status: "input_required"` with `inputRequests` on `tasks/get`, under keys fastmcp-tasks mints itself
(`<taskId>:<16 hex>`, never the tool's own keys); once every key is answered with `tasks/update`, the tool body runs
again from the top with the answers on `ctx.input_responses` (its own keys) and `ctx.request_state`.

Tools (result texts are JSON, keys sorted; "received" values are the answers as the tool saw them, i.e. the
ElicitResult re-dumped without null fields, e.g. {"action": "decline"}):
  survey()          one form (name: string, required); result {"action", "content", "received", "legs"} ("content"
                    only when the answer has one: a decline gives {"action": "decline", "legs": 2,
                    "received": {"action": "decline"}}).
  two_questions()   a form (name), then after its answer a second form (color); result
                    {"first", "second", "legs"} (an answer to the first that is not accept ends at once:
                    {"first", "ended": "first", "legs"}).
  pair()            two questions at once (form name + form color in one inputRequests); a client may answer one
                    (partial tasks/update: the task stays input_required with the other key) and the other later;
                    result {"name", "color", "legs"}.
  slow(seconds)     works for `seconds` (float), setting statusMessage "step i/n" every 0.2 s through
                    ctx.report_progress; result "done after S s". For tasks/cancel.
  broken()          raises a JSON-RPC error (MCPError -32000 "broken: this task fails on purpose", data
                    {"tool": "broken"}): the task ends `failed` with that error.
  tool_error()      raises ToolError: the task ends `completed` with an isError result ("tool_error: ...").
  self_cancel()     after 0.3 s the task cancels itself (raises asyncio.CancelledError in the body; Docket records
                    the execution as cancelled): the task ends `cancelled` without any tasks/cancel.
  quick(text)       task-mode "optional": a task for a client that declared the extension, a plain result for one
                    that did not; returns text.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from datetime import timedelta
from typing import Any

from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.utilities.tasks import TaskConfig
from fastmcp_tasks import TasksExtension
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

POLL_MS = 200
REQUIRED = TaskConfig(mode="required", poll_interval=timedelta(milliseconds=POLL_MS))
OPTIONAL = TaskConfig(mode="optional", poll_interval=timedelta(milliseconds=POLL_MS))

NAME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"name": {"type": "string", "title": "Name"}},
    "required": ["name"],
}
COLOR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"color": {"type": "string", "title": "Favourite colour"}},
    "required": ["color"],
}

mcp = FastMCP(
    name="toolnexus-test-fastmcp-tasks",
    version="1.0.0",
    instructions="Test server for toolnexus: tools that run as tasks (survey, two_questions, pair, slow, broken, "
    "tool_error, self_cancel, quick).",
)
mcp.add_extension(TasksExtension(url="memory://"))


def task_tool(config: TaskConfig, description: str) -> Any:
    """A tool in the given task mode, with no output schema (results are plain text content)."""
    return mcp.tool(task=config, description=description, output_schema=None)


def _form(message: str, schema: dict[str, Any]) -> ElicitRequest:
    return ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))


def _ask(requests: dict[str, ElicitRequest], state: dict[str, Any]) -> InputRequiredResult:
    return InputRequiredResult(input_requests=requests, request_state=json.dumps(state, sort_keys=True))


def _answers(ctx: Context) -> dict[str, Any]:
    """The answers this leg got (keyed by the tool's own keys), as JSON."""
    got = ctx.input_responses or {}
    return {key: value.model_dump(mode="json", by_alias=True, exclude_none=True) for key, value in got.items()}


def _state(ctx: Context) -> dict[str, Any]:
    return json.loads(ctx.request_state) if ctx.request_state else {"legs": 0}


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@task_tool(REQUIRED, "Asks one form (name) inside the task; reports what it received.")
async def survey(ctx: Context) -> str | InputRequiredResult:
    state = _state(ctx)
    legs = state["legs"] + 1
    got = _answers(ctx)
    if "name" not in got:
        return _ask({"name": _form("What is your name?", NAME_SCHEMA)}, {"legs": legs})
    answer = got["name"]
    report = {"action": answer.get("action"), "received": answer, "legs": legs}
    if "content" in answer:
        report["content"] = answer["content"]
    return _text(report)


@task_tool(REQUIRED, "Asks a form (name), then after the answer a second form (color).")
async def two_questions(ctx: Context) -> str | InputRequiredResult:
    state = _state(ctx)
    legs = state["legs"] + 1
    got = _answers(ctx)
    if "first" not in state:
        if "name" not in got:
            return _ask({"name": _form("First question: what is your name?", NAME_SCHEMA)}, {"legs": legs})
        first = got["name"]
        if first.get("action") != "accept":
            return _text({"first": first, "ended": "first", "legs": legs})
        return _ask({"color": _form("Second question: your favourite colour?", COLOR_SCHEMA)},
                    {"legs": legs, "first": first})
    if "color" not in got:
        return _ask({"color": _form("Second question: your favourite colour?", COLOR_SCHEMA)}, state | {"legs": legs})
    return _text({"first": state["first"], "second": got["color"], "legs": legs})


@task_tool(REQUIRED, "Asks two forms at once (name and color); they may be answered separately.")
async def pair(ctx: Context) -> str | InputRequiredResult:
    state = _state(ctx)
    legs = state["legs"] + 1
    got = _answers(ctx)
    if "name" not in got or "color" not in got:
        return _ask({"name": _form("Pair, question 1: your name?", NAME_SCHEMA),
                     "color": _form("Pair, question 2: your favourite colour?", COLOR_SCHEMA)}, {"legs": legs})
    return _text({"name": got["name"], "color": got["color"], "legs": legs})


@task_tool(REQUIRED, "Works for `seconds` seconds with status messages (cancel it with tasks/cancel).")
async def slow(seconds: float, ctx: Context) -> str:
    steps = max(1, int(seconds / 0.2))
    for step in range(1, steps + 1):
        await ctx.report_progress(step, steps, f"step {step}/{steps}")
        await asyncio.sleep(seconds / steps)
    return f"done after {seconds} s"


@task_tool(REQUIRED, "Fails with a JSON-RPC error during execution (the task ends failed).")
async def broken() -> str:
    raise MCPError(code=-32000, message="broken: this task fails on purpose", data={"tool": "broken"})


@task_tool(REQUIRED, "Completes with a tool error (isError: true).")
async def tool_error() -> str:
    raise ToolError("tool_error: this tool always reports an error")


@task_tool(REQUIRED, "Cancels itself after 0.3 s (the task ends cancelled without tasks/cancel).")
async def self_cancel() -> str:
    await asyncio.sleep(0.3)
    raise asyncio.CancelledError("self_cancel: the server cancelled this task itself")


@task_tool(OPTIONAL, "Echoes text; a task only when the client declared the tasks extension.")
async def quick(text: str) -> str:
    return f"quick: {text}"


async def _serve_http(port: int) -> None:
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    app = mcp.http_app(path="/mcp", transport="http")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not serving.done():
        await asyncio.sleep(0.02)
    if server.started:
        bound = sock.getsockname()[1]
        print(f"fastmcp_tasks_server: listening on http://127.0.0.1:{bound}/mcp", file=sys.stderr, flush=True)
    await serving


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "stdio":
        mcp.run("stdio", show_banner=False)
        return 0
    if len(argv) == 3 and argv[1] == "http" and argv[2].isdigit():
        asyncio.run(_serve_http(int(argv[2])))
        return 0
    print("usage: fastmcp_tasks_server.py stdio | fastmcp_tasks_server.py http PORT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
