"""``toolnexus.langgraph`` in real graphs: LangGraph with its SQLite checkpointer, a fake chat
model from ``langchain-core`` that calls one tool, and real MCP servers on 127.0.0.1 (the
official Python SDK at 2026-07-28 and in the 2025 era, FastMCP with the tasks extension, the
official TypeScript SDK's 2025-11-25 tasks and questions), each stopped by its own process id.
Where a run is resumed "in another process", it is: ``langgraph_run.py`` runs in a fresh
interpreter for every step and finds the run in the SQLite file.

The last test runs the same graphs with ``langchain.mcp``'s interrupt mode and checks that the
comparison table in the Python README says what was measured.
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from langchain_core.tools import ToolException

import toolnexus.langgraph
from langgraph_run import run

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
RUNNER = HERE / "langgraph_run.py"
README = ROOT / "bindings" / "python" / "README.md"
SERVERS = pathlib.Path(os.environ.get("TOOLNEXUS_TEST_SERVERS", ROOT / "target" / "test-servers"))

Events = list[dict[str, Any]]


class Server:
    """A test MCP server started by its launcher; its standard error goes to a file."""

    def __init__(self, launcher: str, *args: str, port: int | None = None) -> None:
        path = SERVERS / "bin" / launcher
        if not path.is_file():
            pytest.fail(
                f"{path} is missing: the LangGraph tests need the test servers "
                f"(crates/toolnexus-cli/tests/servers/install.sh {SERVERS}; `cargo xtask test python` runs it)"
            )
        self.log = tempfile.NamedTemporaryFile(prefix=f"{launcher}-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [str(path), *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log
        )
        self.url = self._wait(port)

    def _wait(self, port: int | None) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited with {self.process.returncode}:\n{self.text()}")
            if port is None:
                found = re.search(r"listening on (http://127\.0\.0\.1:\d+/mcp)", self.text())
                if found:
                    return found.group(1)
            else:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    return f"http://127.0.0.1:{port}/mcp"
                except OSError:
                    pass
            time.sleep(0.1)
        self.stop()
        pytest.fail(f"the server did not start in 60 s:\n{self.text()}")

    def text(self) -> str:
        return pathlib.Path(self.log.name).read_text(encoding="utf-8", errors="replace")

    def calls(self, tool: str) -> int:
        """How many ``tools/call`` of ``tool`` reached the server (``py_server.py`` logs each)."""
        return self.text().count(f"py_server: tools/call {tool}\n")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()
        os.unlink(self.log.name)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def py_server() -> Iterator[Server]:
    """The official Python SDK (``mcp`` 2.3.0), both eras, over HTTP: it stays up, so the
    ``requestState`` it seals with a key of its own process stays good across our processes."""
    port = free_port()
    server = Server("py-server", "http", str(port), port=port)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def fastmcp_tasks() -> Iterator[Server]:
    """FastMCP 4.1.6 with the 2026-07-28 tasks extension."""
    server = Server("fastmcp-tasks-server", "http", "0")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def ts_tasks() -> Iterator[Server]:
    """The official TypeScript SDK's 2025-11-25 tasks."""
    server = Server("ts-tasks-server", "http", "0")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def ts_http() -> Iterator[Server]:
    """The official TypeScript SDK, handshake era only."""
    server = Server("ts-http-server", "0")
    yield server
    server.stop()


class Host:
    """Plans for ``langgraph_run.py``: one thread in one SQLite file."""

    def __init__(self, server: Server, directory: pathlib.Path, *, peer: str = "toolnexus", era: str = "modern") -> None:
        self.base = {
            "peer": peer,
            "url": server.url,
            "era": era,
            "db": str(directory / f"{peer}-{era}.sqlite"),
            "thread": f"thread-{time.monotonic_ns()}",
        }

    def here(self, tool: str, args: dict[str, Any] | None = None, *answers: Any) -> Events:
        """Starts the run in this process and answers each interrupt in turn."""
        return self._here({"tool": tool, "args": args or {}, "start": True, "answers": list(answers)})

    def resume_here(self, *answers: Any) -> Events:
        return self._here({"tool": "", "start": False, "answers": list(answers)})

    def _here(self, plan: dict[str, Any]) -> Events:
        events: Events = []
        asyncio.run(run({**self.base, **plan}, events.append))
        return events

    def apart(self, tool: str, args: dict[str, Any] | None = None, *answers: Any) -> Events:
        """Starts the run in a process of its own."""
        return self._apart({"tool": tool, "args": args or {}, "start": True, "answers": list(answers)})

    def resume_apart(self, *answers: Any) -> Events:
        """Resumes the run in a process of its own, from the SQLite file alone."""
        return self._apart({"tool": "", "start": False, "answers": list(answers)})

    def _apart(self, plan: dict[str, Any]) -> Events:
        done = subprocess.run(
            [sys.executable, str(RUNNER), json.dumps({**self.base, **plan})],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=HERE,
        )
        assert done.returncode == 0, done.stderr
        return [json.loads(line) for line in done.stdout.splitlines()]


def accept(**data: Any) -> list[dict[str, Any]]:
    return [{"ok": True, "data": data}] if data else [{"ok": True}]


DECLINE = [{"ok": False, "reason": "declined"}]
CANCEL = [{"ok": False}]


def interrupts(events: Events) -> list[dict[str, Any]]:
    return [event["interrupt"] for event in events if "interrupt" in event]


def tool_result(events: Events) -> Any:
    """The tool's message content, read as JSON."""
    [last] = [event["tool"] for event in events if "tool" in event]
    assert last["status"] == "success", last
    return json.loads(last["content"])


def the_request(payload: dict[str, Any]) -> dict[str, Any]:
    assert payload["type"] == "toolnexus.elicitation"
    [request] = payload["requests"]
    return cast(dict[str, Any], request)


# 2026-07-28 rounds.


def test_a_url_round_resumed_in_another_process_takes_two_tools_calls(py_server: Server, tmp_path: pathlib.Path) -> None:
    host = Host(py_server, tmp_path)
    before = py_server.calls("sign_in")
    [payload] = interrupts(host.apart("sign_in"))
    request = the_request(payload)
    assert payload["tool"] == "sign_in" and "errors" not in payload
    assert request["kind"] == "authorization" and request["prompt"] == "Sign in to continue"
    assert request["url"] == "https://auth.example.com/login?state=x"
    assert request["urlReview"]["host"] == "auth.example.com" and request["urlReview"]["verdict"] == "ok"
    assert re.fullmatch(r"elc-[0-9a-f]+-[0-9a-f]+", request["id"])
    assert py_server.calls("sign_in") == before + 1

    result = tool_result(host.resume_apart(accept()))
    # Accepting a URL is consent to open it: no content goes with it.
    assert result["received"] == {"login": {"action": "accept"}}
    assert py_server.calls("sign_in") == before + 2


def test_answers_are_checked_before_anything_is_sent(py_server: Server, tmp_path: pathlib.Path) -> None:
    before = py_server.calls("book_trip")
    events = Host(py_server, tmp_path).here(
        "book_trip",
        {"city": "Oslo"},
        accept(nights=40),
        accept(nights=3),
        accept(confirm="yes"),
        accept(confirm=True),
    )
    first, again, second, second_again = interrupts(events)
    request = the_request(first)
    assert request["kind"] == "input" and request["prompt"] == "How long is the stay? (Oslo)"
    assert request["data"]["schema"]["properties"]["nights"]["maximum"] == 14
    assert [field["name"] for field in request["form"]] == ["nights", "breakfast"]
    assert "errors" not in first
    # The same request again, with why the answer was refused.
    assert again["requests"] == first["requests"]
    assert again["errors"] == [
        {"request": request["id"], "pointer": "/nights", "keyword": "maximum", "message": again["errors"][0]["message"]}
    ]
    assert "14" in again["errors"][0]["message"]
    assert the_request(second)["prompt"] == "Confirm the trip to Oslo?"
    assert [(e["pointer"], e["keyword"]) for e in second_again["errors"]] == [("/confirm", "type")]
    result = tool_result(events)
    assert result["round1"] == {"trip": {"action": "accept", "content": {"nights": 3}}}
    assert result["round2"] == {"confirm": {"action": "accept", "content": {"confirm": True}}}
    # Three tools/call in all: the call and one retry per round; no refused answer went out.
    assert py_server.calls("book_trip") == before + 3


@pytest.mark.parametrize(
    ("answer", "action"),
    [(DECLINE, "decline"), (CANCEL, "cancel"), ([{"ok": False, "reason": "timeout"}], "cancel")],
)
def test_decline_and_cancel(py_server: Server, tmp_path: pathlib.Path, answer: Any, action: str) -> None:
    result = tool_result(Host(py_server, tmp_path).here("book_trip", {"city": "Rome"}, answer))
    assert (result["ended"], result["action"]) == ("round1", action)
    assert result["round1"] == {"trip": {"action": action}}


def test_resume_values_that_are_not_answers(py_server: Server, tmp_path: pathlib.Path) -> None:
    before = py_server.calls("sign_in")
    host = Host(py_server, tmp_path)
    [first] = interrupts(host.here("sign_in"))
    id = the_request(first)["id"]
    events = host.resume_here(
        {"resume": "yes"},
        {"resume": {"other": 1}},
        {"resume": {id: {"id": "elc-0-9", "ok": True}}},
        {"resume": {id: {"ok": True}}},
        {"resume": {id: {"id": id, "ok": True}, "elc-0-9": {"id": "elc-0-9", "ok": True}}},
        {"resume": {id: {"id": id, "ok": True}}},
    )
    problems = [[(e["request"], e["pointer"], e["keyword"]) for e in payload["errors"]] for payload in interrupts(events)]
    assert problems == [
        [(id, "", "type")],
        [(id, "", "required"), ("other", "", "unknown")],
        [(id, "/id", "const")],
        [(id, "/id", "missing_field")],
        [("elc-0-9", "", "unknown")],
    ]
    assert tool_result(events)["received"] == {"login": {"action": "accept"}}
    assert py_server.calls("sign_in") == before + 2


# Tasks.


def test_a_2026_task_is_resumed_by_its_id_in_other_processes(fastmcp_tasks: Server, tmp_path: pathlib.Path) -> None:
    host = Host(fastmcp_tasks, tmp_path)
    [first] = interrupts(host.apart("two_questions"))
    assert the_request(first)["prompt"] == "First question: what is your name?"
    [refused] = interrupts(host.resume_apart(accept(name=5)))
    assert [(e["pointer"], e["keyword"]) for e in refused["errors"]] == [("/name", "type")]
    [second] = interrupts(host.resume_apart(accept(name="Ada")))
    assert the_request(second)["prompt"] == "Second question: your favourite colour?"
    result = tool_result(host.resume_apart(DECLINE))
    assert result["first"] == {"action": "accept", "content": {"name": "Ada"}}
    assert result["second"] == {"action": "decline"}


def test_a_2026_task_asking_two_questions_at_once(fastmcp_tasks: Server, tmp_path: pathlib.Path) -> None:
    host = Host(fastmcp_tasks, tmp_path)
    [payload] = interrupts(host.here("pair"))
    # The server keeps its questions in a map: their order is not part of the round.
    fields = {r["id"]: r["data"]["schema"]["required"][0] for r in payload["requests"]}
    assert sorted(fields.values()) == ["color", "name"]
    given = {"name": "Ada", "color": "teal"}
    answers = {id: {"id": id, "ok": True, "data": {f: given[f]}} for id, f in fields.items()}
    events = host.resume_here({"resume": answers})
    assert interrupts(events) == []
    result = tool_result(events)
    assert (result["name"]["content"], result["color"]["content"]) == ({"name": "Ada"}, {"color": "teal"})


def test_a_2025_task_is_answered_on_tasks_result(ts_tasks: Server, tmp_path: pathlib.Path) -> None:
    events = Host(ts_tasks, tmp_path, era="handshake").here("ask_in_task", {}, accept(name=7), accept(name="Ada"))
    first, again = interrupts(events)
    assert the_request(first)["prompt"] == "What is your name? (asked inside a task)"
    assert [(e["pointer"], e["keyword"]) for e in again["errors"]] == [("/name", "type")]
    result = json.loads(json.dumps(tool_result(events)))
    assert result["action"] == "accept" and result["content"] == {"name": "Ada"}
    assert result["echoedRelatedTask"] is True


# 2025-era questions outside a task.


def test_a_2025_question_is_answered_by_the_process_holding_the_session(py_server: Server, tmp_path: pathlib.Path) -> None:
    events = Host(py_server, tmp_path, era="handshake").here(
        "book_trip", {"city": "Lima"}, accept(nights=0), accept(nights=2), accept(confirm=True)
    )
    first, again, second = interrupts(events)
    assert [(e["pointer"], e["keyword"]) for e in again["errors"]] == [("/nights", "minimum")]
    assert the_request(second)["prompt"] == "Confirm the trip to Lima?"
    result = tool_result(events)
    assert (result["ended"], result["states"]) == ("complete", [])
    assert result["round1"]["trip"]["content"] == {"nights": 2}


def test_a_2025_question_resumed_elsewhere_says_why(py_server: Server, tmp_path: pathlib.Path) -> None:
    host = Host(py_server, tmp_path, era="handshake")
    [payload] = interrupts(host.apart("book_trip", {"city": "Kyiv"}))
    [error] = [event["error"] for event in host.resume_apart(accept(nights=2))]
    assert error["type"] == "SessionGoneError"
    assert "2025-era session" in error["message"] and "this process does not hold it" in error["message"]


# Outside a graph.


def test_outside_a_graph_a_call_that_asks_nothing_works(fastmcp_tasks: Server, py_server: Server) -> None:
    async def go() -> None:
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        async with streamable_http_client(fastmcp_tasks.url) as (read, write, *_):
            async with ClientSession(read, write, **toolnexus.langgraph.session_options()) as session:
                await session.discover()
                tools = {tool.name: tool for tool in await toolnexus.langgraph.load_tools(session)}
                # `quick` runs as a task for a client that declares the extension.
                message = await tools["quick"].ainvoke(
                    {"type": "tool_call", "name": "quick", "args": {"text": "hi"}, "id": "q"}
                )
                assert message.content == "quick: hi" and message.artifact["content"][0]["text"] == "quick: hi"
                with pytest.raises(ToolException, match="needs a LangGraph run"):
                    await tools["survey"].ainvoke({})
        async with streamable_http_client(py_server.url) as (read, write, *_):
            async with ClientSession(read, write, **toolnexus.langgraph.session_options()) as session:
                await session.discover()
                tools = {tool.name: tool for tool in await toolnexus.langgraph.load_tools(session)}
                with pytest.raises(ToolException, match="this tool always fails"):
                    await tools["fail"].ainvoke({})

    asyncio.run(go())


# Side by side with langchain.mcp.

ROWS = [
    "2026-07-28 rounds (`book_trip`, official Python SDK)",
    "2025-era question (`ask_form_related`, official TypeScript SDK)",
    "2026-07-28 task resumed in another process (`survey`, FastMCP)",
    "2025-11-25 task (`ask_in_task`, official TypeScript SDK)",
    "An answer that breaks the schema (`nights: 40`, maximum 14)",
    "A one-question round resumed in another process (`sign_in`)",
    "`tools/call` requests for that round",
]


def result_of(events: Events) -> Any:
    """The tool's result text read as JSON (either peer's content), or None."""
    for event in events:
        if "tool" in event and event["tool"]["status"] == "success":
            content = event["tool"]["content"]
            blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
            text = "".join(b.get("text", "") for b in blocks if isinstance(b, dict))
            try:
                return json.loads(text)
            except ValueError:
                return None
    return None


def outcome(events: Events, answered: Callable[[Any], bool]) -> str:
    """``answered`` when the result shows the answer reached the server, else how it failed."""
    errors = [event["error"] for event in events if "error" in event]
    if errors:
        return f"fails: {errors[0]['type']}"
    for event in events:
        if "tool" in event and event["tool"]["status"] != "success":
            content = event["tool"]["content"]
            blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
            text = "".join(b.get("text", "") for b in blocks if isinstance(b, dict))
            return f"fails: {text.split(':')[0]}"
    result = result_of(events)
    return "answered" if isinstance(result, dict) and answered(result) else "no result"


def measure(peer: str, servers: dict[str, Server], directory: pathlib.Path) -> list[str]:
    """Each row's cell for ``peer``, from what the runs did."""
    cells = []
    py, fastmcp, ts_tasks, ts_http = servers["py"], servers["fastmcp"], servers["ts_tasks"], servers["ts_http"]

    events = Host(py, directory, peer=peer).here("book_trip", {"city": "Oslo"}, accept(nights=3), accept(confirm=True))
    cells.append(outcome(events, lambda r: r.get("ended") == "complete"))

    events = Host(ts_http, directory, peer=peer, era="handshake").here("ask_form_related", {}, accept(name="Ada", age=30))
    cells.append(outcome(events, lambda r: r.get("action") == "accept"))

    host = Host(fastmcp, directory, peer=peer)
    started = host.apart("survey")
    events = host.resume_apart(accept(name="Ada")) if interrupts(started) else started
    cells.append(outcome(events, lambda r: r.get("content") == {"name": "Ada"}))

    events = Host(ts_tasks, directory, peer=peer, era="handshake").here("ask_in_task", {}, accept(name="Ada"))
    cells.append(outcome(events, lambda r: r.get("content") == {"name": "Ada"}))

    before = py.calls("book_trip")
    events = Host(py, directory, peer=peer).here("book_trip", {"city": "Oslo"}, accept(nights=40))
    sent = py.calls("book_trip") - before - 1
    payloads = interrupts(events)
    if len(payloads) == 2 and "errors" in payloads[1] and sent == 0:
        cells.append("refused, asked again with the errors; nothing sent")
    elif sent > 0:
        cells.append("sent to the server as given")
    else:
        cells.append(outcome(events, lambda r: False))

    before = py.calls("sign_in")
    host = Host(py, directory, peer=peer)
    host.apart("sign_in")
    events = host.resume_apart(accept())
    cells.append(outcome(events, lambda r: r.get("action") == "accept"))
    cells.append(str(py.calls("sign_in") - before))
    return cells


def table(rows: list[str], ours: list[str], theirs: list[str]) -> str:
    lines = ["| | `toolnexus.langgraph` | `langchain.mcp` (interrupt mode) |", "|---|---|---|"]
    lines += [f"| {row} | {a} | {b} |" for row, a, b in zip(rows, ours, theirs)]
    return "\n".join(lines)


def test_side_by_side_with_langchain_mcp(
    py_server: Server, fastmcp_tasks: Server, ts_tasks: Server, ts_http: Server, tmp_path: pathlib.Path
) -> None:
    servers = {"py": py_server, "fastmcp": fastmcp_tasks, "ts_tasks": ts_tasks, "ts_http": ts_http}
    ours = measure("toolnexus", servers, tmp_path)
    theirs = measure("langchain", servers, tmp_path)
    measured = table(ROWS, ours, theirs)
    assert measured in README.read_text(encoding="utf-8"), f"the README's table should read:\n{measured}"
