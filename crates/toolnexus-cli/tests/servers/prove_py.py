# prove_py.py: drives py_server.py with the official Python SDK client (mcp.Client) over stdio and HTTP; exit 1 on failure.
"""Proof that py_server.py works, checked by the SDK's own client, not by toolnexus.

Usage: PYTHON prove_py.py [--wire DIR]     (PYTHON: a venv with mcp==2.3.0, e.g. TARGET_DIR/python/bin/python)

Over stdio and over streamable HTTP, with `mcp.Client(mode="auto")` (which probes `server/discover` and so
lands on 2026-07-28), it calls book_trip through both rounds (and with decline/cancel), sign_in, fail and
mixed, answering every elicitation from a callback, then does one book_trip with `mode="legacy"` (initialize,
server-to-client elicitation/create). Finally it sends a few raw HTTP requests to record exactly what the
server answers. With --wire DIR the raw JSON-RPC lines (stdio) and HTTP exchanges are written to DIR.
"""

from __future__ import annotations

import argparse
import json
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CreateMessageResult, ElicitRequestURLParams, ElicitResult, TextContent

HERE = Path(__file__).resolve().parent
SERVER = HERE / "py_server.py"
failures: list[str] = []


def check(name: str, cond: bool, detail: Any = "") -> None:
    print(f"{'ok  ' if cond else 'FAIL'} {name}" + (f": {detail}" if detail != "" else ""))
    if not cond:
        failures.append(name)


class Answers:
    """Scripted answers for the elicitation callback, consumed in order; records every request seen."""

    def __init__(self) -> None:
        self.queue: list[ElicitResult] = []
        self.seen: list[Any] = []

    def script(self, *answers: ElicitResult) -> None:
        self.queue = list(answers)
        self.seen = []

    async def elicit(self, context: Any, params: Any) -> ElicitResult:
        self.seen.append(params)
        if not self.queue:
            return ElicitResult(action="cancel")
        return self.queue.pop(0)


async def sample(context: Any, params: Any) -> CreateMessageResult:
    return CreateMessageResult(role="assistant", content=TextContent(text="hello"), model="proof-model",
                               stop_reason="endTurn")


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", None) == "text")


def accept(**content: Any) -> ElicitResult:
    return ElicitResult(action="accept", content=content)


async def run_suite(label: str, make: Callable[[], Any], answers: Answers) -> None:
    """`make()` gives a fresh server argument for `Client` (a transport can be entered only once)."""
    async with Client(make(), mode="auto", elicitation_callback=answers.elicit, sampling_callback=sample) as client:
        check(f"{label}: era", client.protocol_version == "2026-07-28", client.protocol_version)
        info = client.server_info
        check(f"{label}: server info", info is not None and (info.name, info.version) == ("toolnexus-test-py", "1.0.0"),
              info and f"{info.name} {info.version}")

        answers.script(accept(nights=3, breakfast=True), accept(confirm=True))
        report = json.loads(text_of(await client.call_tool("book_trip", {"city": "Oslo"})))
        check(f"{label}: book_trip two rounds",
              report["ended"] == "complete"
              and report["round1"] == {"trip": {"action": "accept", "content": {"nights": 3, "breakfast": True}}}
              and report["round2"] == {"confirm": {"action": "accept", "content": {"confirm": True}}}
              and [s["step"] for s in report["states"]] == [1, 2]
              and len(answers.seen) == 2,
              json.dumps(report, sort_keys=True))

        answers.script(accept(nights=2), ElicitResult(action="decline"))
        report = json.loads(text_of(await client.call_tool("book_trip", {"city": "Rome"})))
        check(f"{label}: book_trip decline in round 2",
              report["ended"] == "round2" and report["action"] == "decline"
              and report["round2"] == {"confirm": {"action": "decline"}}, f"ended={report['ended']}")

        answers.script(ElicitResult(action="cancel"))
        report = json.loads(text_of(await client.call_tool("book_trip", {"city": "Bern"})))
        check(f"{label}: book_trip cancel in round 1",
              report["ended"] == "round1" and report["action"] == "cancel", f"ended={report['ended']}")

        answers.script(ElicitResult(action="accept"))
        result = await client.call_tool("sign_in", {})
        seen = answers.seen[0] if answers.seen else None
        check(f"{label}: sign_in asks URL mode",
              isinstance(seen, ElicitRequestURLParams) and seen.url == "https://auth.example.com/login?state=x"
              and seen.elicitation_id is None, seen and seen.model_dump(mode="json", exclude_none=True))
        report = json.loads(text_of(result))
        check(f"{label}: sign_in reports action", report["action"] == "accept", text_of(result))

        result = await client.call_tool("fail", {})
        check(f"{label}: fail", result.is_error is True and text_of(result) == "this tool always fails",
              f"isError={result.is_error} text={text_of(result)!r}")

        answers.script(accept(color="blue"))
        result = await client.call_tool("mixed", {})
        report = json.loads(text_of(result))
        responses = report["inputResponses"]
        check(f"{label}: mixed (sampling callback present)",
              responses["ask"] == {"action": "accept", "content": {"color": "blue"}}
              and responses["llm"]["model"] == "proof-model", json.dumps(responses, sort_keys=True))

    # The same call from a client with no sampling callback: the SDK client refuses the embedded
    # sampling/createMessage itself and fails the call; the server never sees a retry.
    answers.script(accept(color="red"))
    async with Client(make(), mode="auto", elicitation_callback=answers.elicit) as client:
        try:
            result = await client.call_tool("mixed", {})
            check(f"{label}: mixed (no sampling callback)", False, f"unexpected result {text_of(result)}")
        except MCPError as exc:
            check(f"{label}: mixed (no sampling callback) fails in the SDK client", True,
                  f"MCPError {exc.error.code} {exc.error.message!r}")


def _stdio(log: Path | None) -> StdioServerParameters:
    cmd = f"{shlex.quote(sys.executable)} {shlex.quote(str(SERVER))} stdio"
    if log is None:
        return StdioServerParameters(command=sys.executable, args=[str(SERVER), "stdio"])
    # Record the raw JSON-RPC lines in both directions.
    inp, out = shlex.quote(str(log) + ".in"), shlex.quote(str(log) + ".out")
    return StdioServerParameters(command="sh", args=["-c", f"tee -a {inp} | {cmd} | tee -a {out}"])


async def legacy_suite(label: str, make: Callable[[], Any], answers: Answers) -> None:
    answers.script(accept(nights=5), accept(confirm=True))
    async with Client(make(), mode="legacy", elicitation_callback=answers.elicit) as client:
        check(f"{label}: legacy era", client.protocol_version == "2025-11-25", client.protocol_version)
        report = json.loads(text_of(await client.call_tool("book_trip", {"city": "Lima"})))
        check(f"{label}: legacy book_trip", report["ended"] == "complete"
              and report["round1"]["trip"]["content"] == {"nights": 5}, json.dumps(report, sort_keys=True))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.time() + 20
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"http server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("http server did not start")


def http_logging_client(log: Path | None) -> httpx2.AsyncClient | None:
    if log is None:
        return None
    client = create_mcp_http_client()

    async def on_request(request: httpx2.Request) -> None:
        with log.open("a") as f:
            hdrs = {k: v for k, v in request.headers.items() if k.lower().startswith(("mcp", "accept", "content-type"))}
            f.write(f">>> {request.method} {request.url.path} {json.dumps(hdrs)}\n{request.content.decode()}\n")

    async def on_response(response: httpx2.Response) -> None:
        with log.open("a") as f:
            hdrs = {k: v for k, v in response.headers.items() if k.lower().startswith(("mcp", "content-type"))}
            f.write(f"<<< {response.status_code} {json.dumps(hdrs)}\n")

    client.event_hooks = {"request": [on_request], "response": [on_response]}
    return client


MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "prove-py-raw", "version": "1.0.0"},
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}},
}


def raw_http(url: str, log: Path | None) -> None:
    """A few hand-built requests, to pin down exactly what the server answers on HTTP."""
    base = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    out: list[str] = []

    def post(label: str, body: dict[str, Any], headers: dict[str, str]) -> httpx2.Response:
        r = httpx2.post(url, json=body, headers={**base, **headers}, timeout=10)
        out.append(f"### {label}\n>>> POST {json.dumps(headers)}\n{json.dumps(body)}\n"
                   f"<<< {r.status_code} content-type={r.headers.get('content-type')} "
                   f"mcp-session-id={r.headers.get('mcp-session-id')}\n{r.text.strip()}\n")
        return r

    modern = {"MCP-Protocol-Version": "2026-07-28"}
    r = post("server/discover", {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": MODERN_META}},
             {**modern, "Mcp-Method": "server/discover"})
    check("http raw: server/discover 200", r.status_code == 200, r.headers.get("content-type"))
    r = post("tools/call fail (modern)",
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "fail", "arguments": {}, "_meta": MODERN_META}},
             {**modern, "Mcp-Method": "tools/call", "Mcp-Name": "fail"})
    check("http raw: modern tools/call 200", r.status_code == 200)
    bad = {**MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}
    r = post("server/discover with an unknown version",
             {"jsonrpc": "2.0", "id": 3, "method": "server/discover", "params": {"_meta": bad}},
             {"MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "server/discover"})
    check("http raw: unknown version rejected", r.status_code == 400 and "-32022" in r.text, r.status_code)
    r = post("initialize (handshake era)",
             {"jsonrpc": "2.0", "id": 4, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                         "clientInfo": {"name": "prove-py-raw", "version": "1.0.0"}}}, {})
    check("http raw: initialize 200 with session", r.status_code == 200 and bool(r.headers.get("mcp-session-id")))
    r = post("tools/call without envelope or session",
             {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "fail", "arguments": {}}}, {})
    check("http raw: no envelope, no session -> 400", r.status_code == 400, r.status_code)
    envelope_only = {"jsonrpc": "2.0", "id": 6, "method": "server/discover", "params": {"_meta": MODERN_META}}
    r = post("modern body without the MCP-Protocol-Version header", envelope_only, {})
    check("http raw: no version header -> legacy path (400, no session)", r.status_code == 400, r.text.strip())
    r = post("tools/call without Mcp-Name",
             {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
              "params": {"name": "fail", "arguments": {}, "_meta": MODERN_META}},
             {**modern, "Mcp-Method": "tools/call"})
    check("http raw: missing Mcp-Name -> 400 -32020", r.status_code == 400 and "-32020" in r.text, r.text.strip())
    if log is not None:
        log.write_text("\n".join(out))


class RawStdio:
    """The server as a subprocess spoken to line by line, to record exactly what it answers on stdio."""

    def __init__(self, out: list[str], label: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(SERVER), "stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.out = out
        out.append(f"### {label}")

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        line = json.dumps(message, separators=(",", ":"))
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        self.out.append(f">>> {line}")
        if "id" not in message:
            return {}
        answer = self.proc.stdout.readline().strip()
        self.out.append(f"<<< {answer}")
        return json.loads(answer)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self.out.append("")


def raw_stdio(log: Path | None) -> None:
    out: list[str] = []
    bad = {**MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}

    s = RawStdio(out, "modern connection (the first request carries the 2026-07-28 envelope)")
    r = s.ask({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": bad}})
    check("stdio raw: unknown version -> -32022",
          r.get("error", {}).get("code") == -32022 and r["error"]["data"]["supported"] == ["2026-07-28"], r)
    r = s.ask({"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {"_meta": MODERN_META}})
    check("stdio raw: server/discover", r.get("result", {}).get("supportedVersions") == ["2026-07-28"], r)
    r = s.ask({"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": init})
    check("stdio raw: initialize on a modern connection -> -32022", r.get("error", {}).get("code") == -32022, r)
    r = s.ask({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "sign_in", "arguments": {}, "requestState": "v1.altered",
        "inputResponses": {"login": {"action": "accept"}}, "_meta": MODERN_META}})
    check("stdio raw: altered requestState -> -32602", r.get("error", {}).get("code") == -32602, r)
    r = s.ask({"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"_meta": MODERN_META}})
    check("stdio raw: modern ping -> -32601", r.get("error", {}).get("code") == -32601, r)
    call = {"name": "book_trip", "arguments": {"city": "Oslo"}, "_meta": MODERN_META}
    r = s.ask({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": call})
    state = r.get("result", {}).get("requestState")
    r = s.ask({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {**call, "requestState": state}})
    check("stdio raw: retry without the answer is asked again",
          r.get("result", {}).get("resultType") == "input_required" and "trip" in r["result"].get("inputRequests", {}),
          r.get("result", {}).get("resultType"))
    r = s.ask({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
               "params": {**call, "arguments": {"city": "Rome"}, "requestState": state,
                          "inputResponses": {"trip": {"action": "accept", "content": {"nights": 1}}}}})
    check("stdio raw: requestState replayed on other arguments -> -32602", r.get("error", {}).get("code") == -32602, r)
    s.close()

    s = RawStdio(out, "legacy connection (the first request has no envelope)")
    r = s.ask({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}})
    check("stdio raw: server/discover without envelope -> -32601", r.get("error", {}).get("code") == -32601, r)
    r = s.ask({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {**init, "protocolVersion": "2026-07-28"}})
    check("stdio raw: initialize(2026-07-28) -> 2025-11-25",
          r.get("result", {}).get("protocolVersion") == "2025-11-25", r)
    s.ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
    r = s.ask({"jsonrpc": "2.0", "id": 3, "method": "server/discover", "params": {"_meta": MODERN_META}})
    check("stdio raw: envelope on a legacy connection -> -32600", r.get("error", {}).get("code") == -32600, r)
    s.close()
    if log is not None:
        log.write_text("\n".join(out))


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wire", type=Path, help="write raw wire logs into this folder")
    args = parser.parse_args()
    wire: Path | None = args.wire
    if wire is not None:
        wire.mkdir(parents=True, exist_ok=True)
        for old in wire.glob("py-*"):
            old.unlink()
    answers = Answers()

    with anyio.fail_after(120):
        await run_suite("stdio", lambda: _stdio(wire / "py-stdio" if wire else None), answers)
        await legacy_suite("stdio", lambda: _stdio(wire / "py-stdio-legacy" if wire else None), answers)
    raw_stdio(wire / "py-stdio-raw.log" if wire else None)

    port = free_port()
    proc = subprocess.Popen([sys.executable, str(SERVER), "http", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        url = f"http://127.0.0.1:{port}/mcp"
        with anyio.fail_after(120):
            http_client = http_logging_client(wire / "py-http.log" if wire else None)
            if http_client is None:
                await run_suite("http", lambda: url, answers)
                await legacy_suite("http", lambda: url, answers)
            else:
                async with http_client:
                    def make() -> Any:
                        return streamable_http_client(url, http_client=http_client)

                    await run_suite("http", make, answers)
                    await legacy_suite("http", make, answers)
        raw_http(url, wire / "py-http-raw.log" if wire else None)
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    if wire is not None:
        print(f"wire logs in {wire}")
    if failures:
        print(f"{len(failures)} check(s) failed: {', '.join(failures)}")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
