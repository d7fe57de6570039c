# prove_fastmcp_tasks.py: drives fastmcp_tasks_server.py with FastMCP's own client (fastmcp-tasks) over stdio and HTTP; exit 1 on failure.
"""Proof that fastmcp_tasks_server.py works, checked by FastMCP's own client (its tasks support), not by toolnexus.

Usage: PYTHON prove_fastmcp_tasks.py [--wire DIR]   (PYTHON: TARGET_DIR/fastmcp/bin/python, the venv install.sh makes)

Over stdio and over streamable HTTP, `fastmcp.Client` (mode "auto": `server/discover`, then 2026-07-28 with the tasks
extension declared, which importing fastmcp_tasks turns on) calls:
  survey (accept, then decline) both transparently (`client.call_tool`, the client polls and answers from its
  elicitation handler) and through an explicit task handle (`call_tool_task`: CreateTaskResult, status, result);
  two_questions (two answers in a row); pair (answered one key at a time with hand-made `tasks/update`s: the task
  stays input_required with the other key); slow (statusMessage while working, then `tasks/cancel` -> cancelled);
  broken (failed, error kept), tool_error (completed, isError), self_cancel (cancelled by the server), quick.
Then raw JSON-RPC lines (stdio) and raw HTTP requests pin down what the server answers to clients that did not
declare the extension, to unknown task ids and to missing or wrong Mcp-Method / Mcp-Name headers.
With --wire DIR: DIR/fastmcp-tasks-stdio.log holds every JSON-RPC line of the stdio client run in order
(`+<ms> >>> ` client to server, `+<ms> <<< ` server to client), DIR/fastmcp-tasks-http.log the HTTP exchanges
(headers and JSON bodies) and DIR/fastmcp-tasks-raw.log the raw probes.

Internal: `prove_fastmcp_tasks.py --relay LOG -- CMD...` runs CMD, passing stdin/stdout through and logging each line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import mcp_types
from fastmcp import Client
from fastmcp.client.transports import StdioTransport, StreamableHttpTransport
from fastmcp.exceptions import ToolError
from fastmcp_tasks import call_tool_task
from fastmcp_tasks.client_models import UpdateTaskRequest, UpdateTaskRequestParams
from mcp_types import ElicitResult

HERE = Path(__file__).resolve().parent
SERVER = HERE / "fastmcp_tasks_server.py"
EXT = "io.modelcontextprotocol/tasks"
failures: list[str] = []


def check(name: str, cond: bool, detail: Any = "") -> None:
    print(f"{'ok  ' if cond else 'FAIL'} {name}" + (f": {detail}" if detail != "" else ""))
    if not cond:
        failures.append(name)


def relay(log: Path, cmd: list[str]) -> int:
    """Runs cmd with our stdin/stdout passed through line by line; logs each line with direction and time."""
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    lock = threading.Lock()
    start = time.monotonic()
    out = log.open("a")

    def write(arrow: str, line: bytes) -> None:
        with lock:
            out.write(f"+{int((time.monotonic() - start) * 1000)} {arrow} {line.decode().rstrip()}\n")
            out.flush()

    def upstream() -> None:
        for line in sys.stdin.buffer:
            write(">>>", line)
            proc.stdin.write(line)
            proc.stdin.flush()
        proc.stdin.close()

    threading.Thread(target=upstream, daemon=True).start()
    for line in proc.stdout:
        write("<<<", line)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    return proc.wait()


class Answers:
    """Scripted answers for the elicitation handler, consumed in order; records every request seen."""

    def __init__(self) -> None:
        self.queue: list[ElicitResult] = []
        self.seen: list[Any] = []

    def script(self, *answers: ElicitResult) -> None:
        self.queue = list(answers)
        self.seen = []

    async def handler(self, message: str, response_type: Any, params: Any, context: Any) -> ElicitResult:
        self.seen.append(params)
        if not self.queue:
            return ElicitResult(action="cancel")
        return self.queue.pop(0)


def accept(**content: Any) -> ElicitResult:
    return ElicitResult(action="accept", content=content)


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", None) == "text")


async def update(client: Client, task_id: str, responses: dict[str, Any]) -> Any:
    """A hand-made tasks/update (FastMCP's client only sends all answers at once)."""
    request = UpdateTaskRequest(params=UpdateTaskRequestParams(task_id=task_id, input_responses=responses))
    return await client.session.send_request(request, mcp_types.Result)


async def wait_for(task: Any, pred: Callable[[Any], bool], seconds: float = 10) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        status = await task.status()
        if pred(status) or time.monotonic() > deadline:
            return status
        await asyncio.sleep(0.05)


async def run_suite(label: str, make: Callable[[], Any], answers: Answers) -> None:
    async with Client(make(), mode="auto", elicitation_handler=answers.handler, timeout=60) as client:
        check(f"{label}: era", client.protocol_version == "2026-07-28", client.protocol_version)
        info = client.server_info
        check(f"{label}: server info",
              info is not None and (info.name, info.version) == ("toolnexus-test-fastmcp-tasks", "1.0.0"),
              info and f"{info.name} {info.version}")
        caps = client.server_capabilities
        exts = (caps.model_dump(by_alias=True).get("extensions") or {}) if caps else {}
        check(f"{label}: server declares the tasks extension", EXT in exts, sorted(exts))

        # survey, transparently: call_tool polls tasks/get and answers through the elicitation handler.
        answers.script(accept(name="Ada"))
        report = json.loads(text_of(await client.call_tool("survey", {})))
        check(f"{label}: survey accept",
              report == {"action": "accept", "content": {"name": "Ada"}, "legs": 2,
                         "received": {"action": "accept", "content": {"name": "Ada"}}}
              and len(answers.seen) == 1 and answers.seen[0].message == "What is your name?",
              json.dumps(report, sort_keys=True))

        answers.script(ElicitResult(action="decline"))
        report = json.loads(text_of(await client.call_tool("survey", {})))
        check(f"{label}: survey decline", report == {"action": "decline", "received": {"action": "decline"}, "legs": 2},
              json.dumps(report, sort_keys=True))

        # survey through an explicit handle: the raw CreateTaskResult, then the input_required state.
        task = await call_tool_task(client, "survey", {})
        created = task.create_result
        check(f"{label}: CreateTaskResult",
              created.result_type == "task" and created.status == "working" and created.poll_interval_ms == 200
              and created.ttl_ms == 900000 and len(created.task_id) == 43,
              created.model_dump(mode="json", by_alias=True, exclude_none=True))
        status = await wait_for(task, lambda s: s.status != "working")
        keys = list(status.input_requests or {})
        check(f"{label}: input_required with one minted key",
              status.status == "input_required" and len(keys) == 1 and keys[0].startswith(task.task_id + ":")
              and status.input_requests[keys[0]]["method"] == "elicitation/create",
              status.model_dump(mode="json", by_alias=True, exclude_none=True))
        answers.script(ElicitResult(action="cancel"))
        report = json.loads(text_of(await task.result()))
        check(f"{label}: survey cancel via handle", report.get("action") == "cancel", report)

        answers.script(accept(name="Ada"), accept(color="green"))
        report = json.loads(text_of(await client.call_tool("two_questions", {})))
        check(f"{label}: two_questions",
              report == {"first": {"action": "accept", "content": {"name": "Ada"}},
                         "second": {"action": "accept", "content": {"color": "green"}}, "legs": 3}
              and [p.message for p in answers.seen] == ["First question: what is your name?",
                                                        "Second question: your favourite colour?"],
              json.dumps(report, sort_keys=True))

        # pair: answered one key at a time.
        task = await call_tool_task(client, "pair", {})
        status = await wait_for(task, lambda s: s.status != "working")
        asked = status.input_requests or {}
        by_message = {v["params"]["message"]: k for k, v in asked.items()}
        check(f"{label}: pair asks two at once", status.status == "input_required" and len(asked) == 2,
              sorted(by_message))
        name_key = by_message.get("Pair, question 1: your name?", "")
        color_key = by_message.get("Pair, question 2: your favourite colour?", "")
        ack = await update(client, task.task_id, {name_key: {"action": "accept", "content": {"name": "Ada"}}})
        acked = ack.model_dump(by_alias=True, exclude_none=True)
        check(f"{label}: partial tasks/update acknowledged (empty result)", set(acked) <= {"_meta", "resultType"}, acked)
        status = await task.status()
        check(f"{label}: pair still input_required with the other key",
              status.status == "input_required" and list(status.input_requests or {}) == [color_key],
              status.status)
        await update(client, task.task_id, {color_key: {"action": "decline"}})
        final = await wait_for(task, lambda s: s.status in ("completed", "failed", "cancelled"))
        report = json.loads(final.result["content"][0]["text"]) if final.result else {}
        check(f"{label}: pair result",
              report == {"name": {"action": "accept", "content": {"name": "Ada"}}, "color": {"action": "decline"},
                         "legs": 2}, json.dumps(report, sort_keys=True))

        # slow, cancelled by the client.
        task = await call_tool_task(client, "slow", {"seconds": 5})
        await asyncio.sleep(0.7)
        status = await task.status()
        check(f"{label}: slow working with statusMessage",
              status.status == "working" and re.fullmatch(r"step \d+/25", status.status_message or "") is not None,
              f"{status.status} {status.status_message!r}")
        await task.cancel()
        status = await wait_for(task, lambda s: s.status != "working", 5)
        check(f"{label}: slow cancelled", status.status == "cancelled", status.status)
        try:
            await task.result()
            check(f"{label}: cancelled task result raises", False)
        except ToolError as error:
            check(f"{label}: cancelled task result raises", "was cancelled" in str(error), str(error))

        result = await client.call_tool("broken", {}, raise_on_error=False)
        check(f"{label}: broken -> failed", result.is_error and text_of(result) == "broken: this task fails on purpose",
              text_of(result))
        task = await call_tool_task(client, "broken", {})
        status = await wait_for(task, lambda s: s.status != "working")
        check(f"{label}: failed task keeps the JSON-RPC error",
              status.status == "failed"
              and status.error == {"code": -32000, "message": "broken: this task fails on purpose",
                                   "data": {"tool": "broken"}}, status.error)

        result = await client.call_tool("tool_error", {}, raise_on_error=False)
        check(f"{label}: tool_error -> completed isError",
              result.is_error and text_of(result) == "tool_error: this tool always reports an error", text_of(result))

        task = await call_tool_task(client, "self_cancel", {})
        status = await wait_for(task, lambda s: s.status != "working")
        check(f"{label}: self_cancel -> cancelled", status.status == "cancelled", status.status)

        result = await client.call_tool("quick", {"text": "hi"})
        check(f"{label}: quick", text_of(result) == "quick: hi", text_of(result))


def _stdio(log: Path | None) -> StdioTransport:
    server = [sys.executable, str(SERVER), "stdio"]
    if log is None:
        return StdioTransport(command=server[0], args=server[1:], keep_alive=False, log_file=Path("/dev/null"))
    return StdioTransport(command=sys.executable, args=[str(Path(__file__).resolve()), "--relay", str(log), "--", *server],
                          keep_alive=False, log_file=Path("/dev/null"))


def http_logging_factory(log: Path | None) -> Any:
    def factory(**kwargs: Any) -> httpx2.AsyncClient:
        client = httpx2.AsyncClient(**kwargs)
        if log is None:
            return client

        async def on_request(request: httpx2.Request) -> None:
            hdrs = {k: v for k, v in request.headers.items() if k.lower().startswith(("mcp", "accept", "content-type"))}
            with log.open("a") as f:
                f.write(f">>> {request.method} {request.url.path} {json.dumps(hdrs)}\n{request.content.decode()}\n")

        async def on_response(response: httpx2.Response) -> None:
            hdrs = {k: v for k, v in response.headers.items() if k.lower().startswith(("mcp", "content-type"))}
            body = ""
            if response.headers.get("content-type", "").startswith("application/json"):
                body = (await response.aread()).decode()
            with log.open("a") as f:
                f.write(f"<<< {response.status_code} {json.dumps(hdrs)}\n{body}\n")

        client.event_hooks = {"request": [on_request], "response": [on_response]}
        return client

    return factory


MODERN = "2026-07-28"


def envelope(tasks: bool) -> dict[str, Any]:
    caps: dict[str, Any] = {"elicitation": {"form": {}}}
    if tasks:
        caps["extensions"] = {EXT: {}}
    return {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": {"name": "prove-fastmcp-tasks-raw", "version": "1.0.0"},
            "io.modelcontextprotocol/clientCapabilities": caps}


class RawStdio:
    """The server as a subprocess spoken to line by line, to record exactly what it answers on stdio."""

    def __init__(self, out: list[str], label: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(SERVER), "stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.out = out
        self.next_id = 0
        out.append(f"### {label}")

    def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params},
                          separators=(",", ":"))
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        self.out.append(f">>> {line}")
        answer = self.proc.stdout.readline().strip()
        self.out.append(f"<<< {answer}")
        return json.loads(answer)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self.out.append("")


def code_of(r: dict[str, Any]) -> Any:
    return r.get("error", {}).get("code")


def raw_stdio(out: list[str]) -> None:
    s = RawStdio(out, "stdio: modern connection, no server/discover first")
    r = s.ask("tools/call", {"name": "survey", "arguments": {}, "_meta": envelope(False)})
    check("stdio raw: required task tool without the extension -> -32021",
          code_of(r) == -32021 and r["error"]["data"] == {"requiredCapabilities": {"extensions": {EXT: {}}}}, r)
    r = s.ask("tools/call", {"name": "quick", "arguments": {"text": "x"}, "_meta": envelope(False)})
    check("stdio raw: optional tool without the extension -> plain result",
          r.get("result", {}).get("resultType") == "complete" and "content" in r["result"], r)
    r = s.ask("tools/call", {"name": "survey", "arguments": {}, "_meta": envelope(True)})
    task_id = r.get("result", {}).get("taskId", "")
    check("stdio raw: task created without server/discover", r.get("result", {}).get("resultType") == "task", r)
    r = s.ask("tasks/get", {"taskId": task_id, "_meta": envelope(False)})
    check("stdio raw: tasks/get without the extension -> -32021", code_of(r) == -32021, r)
    for method, extra in (("tasks/get", {}), ("tasks/update", {"inputResponses": {}}), ("tasks/cancel", {})):
        r = s.ask(method, {"taskId": "no-such-task", **extra, "_meta": envelope(True)})
        check(f"stdio raw: {method} of an unknown task -> -32602", code_of(r) == -32602, r)
    time.sleep(0.3)
    r = s.ask("tasks/get", {"taskId": task_id, "_meta": envelope(True)})
    key = next(iter(r.get("result", {}).get("inputRequests") or {"?": None}))
    r = s.ask("tasks/update", {"taskId": task_id, "inputResponses": {key: {"action": "maybe"}}, "_meta": envelope(True)})
    check("stdio raw: tasks/update with an invalid answer -> -32602", code_of(r) == -32602, r)
    r = s.ask("tasks/update", {"taskId": task_id, "inputResponses": {"unknown": {"action": "accept"}},
                               "_meta": envelope(True)})
    check("stdio raw: tasks/update with an unknown key -> ack", r.get("result") is not None, r)
    r = s.ask("tasks/cancel", {"taskId": task_id, "_meta": envelope(True)})
    check("stdio raw: tasks/cancel while input_required -> ack", r.get("result") is not None, r)
    r = s.ask("tasks/update", {"taskId": task_id, "inputResponses": {key: {"action": "accept", "content": {"name": "x"}}},
                               "_meta": envelope(True)})
    r = s.ask("tasks/get", {"taskId": task_id, "_meta": envelope(True)})
    check("stdio raw: an answer after the cancel changes nothing", r.get("result", {}).get("status") == "cancelled", r)
    s.close()

    s = RawStdio(out, "stdio: handshake-era connection (initialize)")
    init = {"protocolVersion": "2025-11-25", "capabilities": {"extensions": {EXT: {}}},
            "clientInfo": {"name": "raw", "version": "1"}}
    s.ask("initialize", init)
    assert s.proc.stdin is not None
    s.proc.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    s.proc.stdin.flush()
    s.out.append('>>> {"jsonrpc":"2.0","method":"notifications/initialized"}')
    r = s.ask("tools/call", {"name": "survey", "arguments": {}})
    check("stdio raw: handshake era, required task tool -> -32021", code_of(r) == -32021, r)
    r = s.ask("tasks/get", {"taskId": task_id})
    check("stdio raw: handshake era, tasks/get -> -32601", code_of(r) == -32601, r)
    s.close()


def raw_http(url: str, out: list[str]) -> None:
    base = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
            "MCP-Protocol-Version": MODERN}
    next_id = [0]

    def post(label: str, method: str, params: dict[str, Any], headers: dict[str, str]) -> httpx2.Response:
        next_id[0] += 1
        body = {"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params}
        r = httpx2.post(url, json=body, headers={**base, **headers}, timeout=10)
        out.append(f"### {label}\n>>> POST {json.dumps(headers)}\n{json.dumps(body)}\n"
                   f"<<< {r.status_code} content-type={r.headers.get('content-type')} "
                   f"mcp-session-id={r.headers.get('mcp-session-id')}\n{r.text.strip()}\n")
        return r

    r = post("tools/call survey", "tools/call", {"name": "survey", "arguments": {}, "_meta": envelope(True)},
             {"Mcp-Method": "tools/call", "Mcp-Name": "survey"})
    task_id = r.json().get("result", {}).get("taskId", "")
    check("http raw: task created (no server/discover first)", r.status_code == 200 and bool(task_id), r.text)
    get = {"taskId": task_id, "_meta": envelope(True)}
    r = post("tasks/get with Mcp-Name", "tasks/get", get, {"Mcp-Method": "tasks/get", "Mcp-Name": task_id})
    check("http raw: tasks/get with Mcp-Name -> 200", r.status_code == 200, r.status_code)
    r = post("tasks/get without Mcp-Name", "tasks/get", get, {"Mcp-Method": "tasks/get"})
    check("http raw: tasks/get without Mcp-Name -> 200 (not required)", r.status_code == 200, r.status_code)
    r = post("tasks/get with a wrong Mcp-Name", "tasks/get", get, {"Mcp-Method": "tasks/get", "Mcp-Name": "other"})
    check("http raw: wrong Mcp-Name -> 400 -32020", r.status_code == 400 and r.json()["error"]["code"] == -32020, r.text)
    r = post("tasks/get without Mcp-Method", "tasks/get", get, {"Mcp-Name": task_id})
    check("http raw: missing Mcp-Method -> 400 -32020", r.status_code == 400 and r.json()["error"]["code"] == -32020,
          r.text)
    r = post("tasks/cancel", "tasks/cancel", get, {"Mcp-Method": "tasks/cancel", "Mcp-Name": task_id})
    check("http raw: tasks/cancel -> 200 ack", r.status_code == 200 and "result" in r.json(), r.text)
    r = post("tools/call survey without the extension", "tools/call",
             {"name": "survey", "arguments": {}, "_meta": envelope(False)}, {"Mcp-Method": "tools/call", "Mcp-Name": "survey"})
    check("http raw: no extension -> -32021", r.json().get("error", {}).get("code") == -32021, f"{r.status_code} {r.text}")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wire", type=Path, help="write raw wire logs into this folder")
    parser.add_argument("--relay", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("command", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.relay is not None:
        return relay(args.relay, args.command)
    wire: Path | None = args.wire
    if wire is not None:
        wire.mkdir(parents=True, exist_ok=True)
        for old in wire.glob("fastmcp-tasks-*"):
            old.unlink()
    answers = Answers()
    await run_suite("stdio", lambda: _stdio(wire / "fastmcp-tasks-stdio.log" if wire else None), answers)

    raw: list[str] = []
    raw_stdio(raw)
    proc = subprocess.Popen([sys.executable, str(SERVER), "http", "0"], stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            found = re.search(r"fastmcp_tasks_server: listening on (http://127\.0\.0\.1:\d+/mcp)", line)
            url = found.group(1) if found else None
        check("http: listening line on stderr", url is not None, url or "")
        if url is not None:
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()  # keep draining
            factory = http_logging_factory(wire / "fastmcp-tasks-http.log" if wire else None)
            await run_suite("http", lambda: StreamableHttpTransport(url, httpx_client_factory=factory), answers)
            raw_http(url, raw)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    if wire is not None:
        (wire / "fastmcp-tasks-raw.log").write_text("\n".join(raw))
        print(f"wire logs in {wire}")
    print(f"{len(failures)} failed" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
