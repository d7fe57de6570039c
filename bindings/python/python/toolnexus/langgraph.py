"""An MCP server's tools as LangGraph tools: every question the server asks is an interrupt.

``await toolnexus.langgraph.load_tools(session)`` takes an initialized ``mcp.ClientSession``
and returns one LangChain ``BaseTool`` per server tool, for ``ToolNode`` and the prebuilt
agents. When a call needs input, the tool calls ``interrupt()`` once per round with::

    {"type": "toolnexus.elicitation", "tool": "book_trip", "requests": [...], "errors": [...]}

Each entry of ``requests`` is a toolnexus ``Request`` as the contract spells it (``id``,
``kind``, ``prompt``, ``url``, ``data``, ``expiresAt``) plus what a UI needs: ``form`` (the
fields of a form request, as ``FormField.to_dict()`` writes them) or ``urlReview`` (the review
of a URL request, as ``UrlReview.to_dict()`` writes it). ``errors`` is there only when the
previous answers were refused. The run goes on with ``Command(resume={request_id: answer,
...})``, each answer an ``Answer`` or its dict (``{"id", "ok", "data"?, "reason"?}``).

Every answer is checked by the core before anything is sent: an accept whose content breaks
the schema (or a missing, malformed or misdirected answer) interrupts again with the same
requests and ``errors`` (``request``, ``pointer``, ``keyword``, ``message`` per problem).
``ok`` is accept, ``reason: "declined"`` decline, anything else cancel; a URL accepted carries
no content.

What the checkpoint keeps, by era:

- **2026-07-28 rounds** (``input_required``): the round, as a snapshot (sealed with HMAC-SHA-256
  when ``load_tools`` is given a ``key``). A resumed run restores it and sends one retry: a
  one-question round is two ``tools/call`` requests in all, whichever process or worker
  resumes, however much later, as long as the server still honours its ``requestState``.
- **Tasks**: the task's id and what the server said of it. A 2026-07-28 task (the tasks
  extension) is resumed by its id in any process: the answers go out with ``tasks/update``.
  A 2025-11-25 task asks over its session while ``tasks/result`` is open; it is answered on
  that ``tasks/result``.
- **2025-era questions** (``elicitation/create`` while a call is open): they belong to the
  live session. The call stays open in this process while the graph waits, and the same
  interrupt answers it when the graph is resumed in this process (on the same event loop).
  Resumed anywhere else, the tool fails with ``SessionGoneError``, which says so.

Side effects run inside LangGraph tasks (``langgraph.func.task``), so a resumed run replays
them from the checkpoint instead of sending them again; the tools therefore need a graph run
with a checkpointer whenever a server asks for input. A call that asks nothing works anywhere.

For the 2025 era and for 2026-07-28 tasks the session must be built with
``session_options()``: ``ClientSession(read, write, **toolnexus.langgraph.session_options())``
(``MultiServerMCPClient`` takes the same dict as a connection's ``session_kwargs``).

This module needs ``langgraph``, ``langchain-core`` and ``mcp`` 2.x: ``pip install
'toolnexus[langgraph]'``.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast

from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.config import get_config
from langgraph.func import task as durable_task
from langgraph.types import interrupt
from mcp import ClientSession, types
from mcp.client.extension import ClaimContext, ResultClaim
from mcp.client.session import ClientRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ConfigDict, Field

from ._errors import Error, InvalidContentError
from ._native import (
    Answer,
    ElicitResult,
    InputRound,
    Request,
    Session,
    TaskDriver,
    refusal_code,
    review_url,
)

__all__ = [
    "INTERRUPT_TYPE",
    "TASKS_EXTENSION",
    "AnswerProblem",
    "ElicitationInterrupt",
    "SessionGoneError",
    "load_tools",
    "session_options",
]

INTERRUPT_TYPE: Literal["toolnexus.elicitation"] = "toolnexus.elicitation"
"""The ``type`` of every interrupt payload these tools raise."""

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
"""The 2026-07-28 tasks extension, which ``session_options()`` declares."""

RELATED_TASK = "io.modelcontextprotocol/related-task"

DEFAULT_TASK_TIMEOUT_S = 600.0
"""How long a task is polled between two questions before the tool gives up."""


class AnswerProblem(TypedDict):
    """One reason a resumed answer was refused."""

    request: str
    pointer: str
    keyword: str
    message: str


class ElicitationInterrupt(TypedDict, total=False):
    """The payload of each interrupt: ``type``, ``tool`` and ``requests`` always, ``errors``
    when the previous answers were refused."""

    type: Literal["toolnexus.elicitation"]
    tool: str
    requests: list[dict[str, Any]]
    errors: list[AnswerProblem]


class SessionGoneError(ToolException):
    """A 2025-era question was resumed where the session that asked it is not held."""


def session_options(*, rules: Session | None = None) -> dict[str, Any]:
    """Keyword arguments for ``mcp.ClientSession`` that let these tools answer every era.

    ``elicitation_callback`` hands each 2025-era ``elicitation/create`` to the tool call it
    belongs to (and declares both elicitation modes); ``extensions`` and ``result_claims``
    declare the 2026-07-28 tasks extension, so a server may run a call as a task. ``rules``
    sets how 2025-era questions are read and answered (modes, defaults, unknown members,
    secrets); by default ``toolnexus.Session()``.
    """
    claim = ResultClaim(
        result_type="task",
        model=_TaskCreated,
        resolve=_unresolved_task,
        protocol_versions=frozenset(MODERN_PROTOCOL_VERSIONS),
    )
    return {
        "elicitation_callback": _Elicitations(rules if rules is not None else Session()),
        "extensions": {TASKS_EXTENSION: {}},
        "result_claims": {TASKS_EXTENSION: [claim]},
    }


async def load_tools(
    session: ClientSession,
    *,
    key: bytes | str | None = None,
    keys: Sequence[bytes | str] = (),
    rules: Mapping[str, Any] | None = None,
    task_timeout_s: float = DEFAULT_TASK_TIMEOUT_S,
) -> list[BaseTool]:
    """LangChain tools for every tool the server lists (all pages).

    ``session`` is initialized: ``initialize()`` for the 2025 era, ``discover()`` for
    2026-07-28. ``key`` (at least 32 bytes) seals each round kept in a checkpoint; ``keys``
    are older keys a kept round may still be sealed with. ``rules`` are the options of the
    2026-07-28 rounds and tasks (``modes``, ``apply_defaults``, ``allow_unknown``,
    ``reject_secrets``, as ``InputRound.start`` takes them). ``task_timeout_s`` bounds how
    long a task is followed between two questions.
    """
    if session.protocol_version is None:
        raise ValueError("the session is not initialized: call initialize() or discover() first")
    listed: list[types.Tool] = []
    cursor: str | None = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        page = await session.list_tools(params=params)
        listed.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    seal = _Seal(key, tuple(keys))
    options = dict(rules or {})
    return [
        _McpTool(session, tool, seal, options, task_timeout_s).as_langchain_tool() for tool in listed
    ]


# What a call has come to, as the checkpoint keeps it: plain values and bytes only.
Stage = dict[str, Any]


@dataclass(frozen=True)
class _Seal:
    key: bytes | str | None
    keys: tuple[bytes | str, ...]

    def opening_keys(self) -> list[bytes | str]:
        return ([self.key] if self.key is not None else []) + list(self.keys)


@dataclass
class _Checked:
    """The answers of one round, each accepted by the core, or why not."""

    errors: list[AnswerProblem] = field(default_factory=list)
    results: dict[str, ElicitResult] = field(default_factory=dict)
    answers: list[Answer] = field(default_factory=list)
    round: InputRound | None = None
    driver: TaskDriver | None = None


class _McpTool:
    """One server tool and how to call it."""

    def __init__(
        self,
        session: ClientSession,
        tool: types.Tool,
        seal: _Seal,
        rules: dict[str, Any],
        task_timeout_s: float,
    ) -> None:
        self.session = session
        self.tool = tool
        self.seal = seal
        self.rules = rules
        self.task_timeout_s = task_timeout_s
        support = tool.execution.task_support if tool.execution is not None else None
        self.task_required = support == "required"

    @property
    def modern(self) -> bool:
        return self.session.protocol_version in MODERN_PROTOCOL_VERSIONS

    def as_langchain_tool(self) -> BaseTool:
        async def call(**arguments: Any) -> Any:
            return await self.call(arguments)

        schema: dict[str, Any] = dict(self.tool.input_schema) if self.tool.input_schema else {"type": "object"}
        schema.setdefault("properties", {})
        return StructuredTool(
            name=self.tool.name,
            description=self.tool.description or "",
            args_schema=schema,
            coroutine=call,
            response_format="content_and_artifact",
            metadata={"mcp": {"tool": self.tool.name}},
        )

    # The call, as a sequence of durable steps and interrupts.

    async def call(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        stage = await _durable(self._start, arguments)
        errors: list[AnswerProblem] = []
        while stage["stage"] != "done":
            if stage["stage"] == "failed":
                raise ToolException(stage["message"])
            if not _in_graph():
                raise ToolException(
                    f"the MCP tool {self.tool.name!r} asked for input, which needs a LangGraph run "
                    "with a checkpointer (the answer comes back through interrupt())"
                )
            payload: ElicitationInterrupt = {
                "type": INTERRUPT_TYPE,
                "tool": self.tool.name,
                "requests": stage["requests"],
            }
            if errors:
                payload["errors"] = errors
            resume = interrupt(payload)
            checked = self._check(stage, resume)
            if checked.errors:
                errors = checked.errors
                continue
            errors = []
            stage = await _durable(self._continue, stage, checked)
        return _output(stage["result"])

    async def _start(self, arguments: dict[str, Any]) -> Stage:
        if not self.modern:
            return await _Live.open(self.session, lambda live: self._handshake_call(arguments, live))
        result = await self.session.call_tool(
            self.tool.name, arguments, allow_input_required=True, allow_claimed=True
        )
        return await self._modern_stage(result, arguments, None, 1)

    async def _continue(self, stage: Stage, checked: _Checked) -> Stage:
        kind = stage["stage"]
        if kind == "round":
            assert checked.round is not None
            rpc_id = cast(int, checked.round.answered_id) + 1
            retry = json.loads(checked.round.retry(rpc_id))["params"]
            result = await self.session.call_tool(
                retry["name"],
                retry.get("arguments"),
                input_responses=retry.get("inputResponses"),
                request_state=retry.get("requestState"),
                allow_input_required=True,
                allow_claimed=True,
            )
            return await self._modern_stage(result, retry.get("arguments") or {}, checked.round, rpc_id)
        if kind == "task":
            assert checked.driver is not None
            update = checked.driver.update()
            if update is not None:
                await self._send_task(update.method, update.params)
            *earlier, last = stage["history"]
            answered = {**last, "answers": [json.loads(a.to_json()) for a in checked.answers]}
            return await self._follow(checked.driver, stage["created"], [*earlier, answered])
        live = _Live.held(stage["call"])
        live.deliver(checked.results)
        return await live.next_stage()

    async def _modern_stage(
        self, result: types.Result, arguments: dict[str, Any], previous: InputRound | None, rpc_id: int
    ) -> Stage:
        if isinstance(result, types.CallToolResult):
            return _done(result)
        if isinstance(result, types.InputRequiredResult):
            response = {
                "jsonrpc": "2.0",
                "id": rpc_id,
                "result": result.model_dump(by_alias=True, mode="json", exclude_none=True),
            }
            if previous is None:
                request = {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": self.tool.name, "arguments": arguments},
                }
                round, asked = InputRound.start(request, response, _now_ms(), **self.rules)
            else:
                round, asked = previous.next_round(response, _now_ms())
            unhandled = [f"{r.key} ({r.method})" for r in round.unhandled()]
            if unhandled:
                return _failed(
                    f"the MCP tool {self.tool.name!r} asked for input these tools cannot give: "
                    + ", ".join(unhandled)
                )
            if not asked:
                return _failed(f"the MCP tool {self.tool.name!r} asked for input without a question")
            return {
                "stage": "round",
                "snapshot": round.snapshot(key=self.seal.key),
                "requests": [_describe(request) for _, request in asked],
            }
        if isinstance(result, _TaskCreated):
            created = result.model_dump(by_alias=True, mode="json", exclude_none=True)
            driver = TaskDriver.start(created, "modern", _now_ms(), **self.rules)
            if driver is None:
                return _failed(f"the MCP tool {self.tool.name!r} answered with a task it did not describe")
            return await self._follow(driver, created, [])
        return _failed(f"the MCP tool {self.tool.name!r} answered with a result these tools cannot read")

    # 2026-07-28 tasks.

    async def _follow(self, driver: TaskDriver, created: dict[str, Any], history: list[Any]) -> Stage:
        """Polls the task until it asks, ends or runs out of time."""
        deadline = time.monotonic() + self.task_timeout_s
        while True:
            now = _now_ms()
            wait = max(0, driver.next_poll_at - now) / 1000
            if time.monotonic() + wait > deadline:
                await self._send_task(driver.cancel().method, driver.cancel().params)
                return _failed(
                    f"the task of the MCP tool {self.tool.name!r} did not finish or ask within "
                    f"{self.task_timeout_s:g} s; it was cancelled"
                )
            await asyncio.sleep(wait)
            call = driver.get()
            polled = await self._send_task(call.method, call.params)
            now = _now_ms()
            event = driver.read(polled, now)
            if event.type == "input_required":
                requests = event.requests or []
                if driver.unhandled():
                    names = ", ".join(f"{r.key} ({r.method})" for r in driver.unhandled())
                    await self._send_task(driver.cancel().method, driver.cancel().params)
                    return _failed(
                        f"the MCP tool {self.tool.name!r} asked for input these tools cannot give: {names}"
                    )
                if not requests:
                    continue
                return {
                    "stage": "task",
                    "created": created,
                    "history": [*history, {"polled": polled, "now": now}],
                    "requests": [_describe(request) for _, request in requests],
                }
            if event.type == "completed":
                return {"stage": "done", "result": event.result or {"content": []}}
            if event.type == "failed":
                return _failed(
                    f"the task of the MCP tool {self.tool.name!r} failed: {json.dumps(event.error)}"
                )
            if event.type == "cancelled":
                return _failed(f"the task of the MCP tool {self.tool.name!r} was cancelled")

    async def _send_task(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        request = _TaskRequest(method=method, params=params)
        return (await self.session.send_request(request, _RawResult)).model_dump()

    def _replay(self, stage: Stage, resumes: list[Any]) -> TaskDriver:
        """The task's driver as it was when the stage was kept: every poll read again and
        every earlier round answered again, with the same clock, so the same request ids."""
        history = stage["history"]
        driver = TaskDriver.start(stage["created"], "modern", history[0]["now"], **self.rules)
        if driver is None:
            raise ToolException("the kept task cannot be read again")
        for step, answers in zip(history[:-1], resumes):
            driver.read(step["polled"], step["now"])
            for answer in answers:
                driver.resolve(answer, step["now"])
            driver.update()
        driver.read(history[-1]["polled"], history[-1]["now"])
        return driver

    # 2025-11-25 calls, held open by this process.

    async def _handshake_call(
        self, arguments: dict[str, Any], live: _Live
    ) -> types.CallToolResult | dict[str, Any]:
        if not self.task_required:
            return await self.session.call_tool(self.tool.name, arguments)
        created = await _task_augmented_call(self.session, {"name": self.tool.name, "arguments": arguments, "task": {}})
        driver = TaskDriver.start(created, "handshake", _now_ms())
        if driver is None:
            return created
        live.task_id = driver.task.task_id
        deadline = time.monotonic() + self.task_timeout_s
        while not driver.is_done:
            wait = max(0, driver.next_poll_at - _now_ms()) / 1000
            if time.monotonic() + wait > deadline:
                raise ToolException(f"the task of the MCP tool {self.tool.name!r} did not finish in time")
            await asyncio.sleep(wait)
            call = driver.get()
            event = driver.read(await self._send_task(call.method, call.params), _now_ms())
            if event.type == "input_required":
                # Its questions arrive as elicitation/create while tasks/result is open.
                call = driver.result()
                return await self._send_task(call.method, call.params)
            if event.type == "completed" and event.result is not None:
                return event.result
            if event.type in ("completed", "failed", "cancelled"):
                call = driver.result()
                return await self._send_task(call.method, call.params)
        call = driver.result()
        return await self._send_task(call.method, call.params)

    # Checking a resumed value.

    def _check(self, stage: Stage, resume: Any) -> _Checked:
        requests = stage["requests"]
        answers, checked = _read_resume(requests, resume)
        checked.answers = answers
        if checked.errors:
            return checked
        kind = stage["stage"]
        if kind == "round":
            round = InputRound.restore(stage["snapshot"], keys=self.seal.opening_keys())
            checked.round = round
            for answer in answers:
                _resolve(checked, answer, lambda a: round.resolve(a, _now_ms())[1])
        elif kind == "task":
            earlier = _earlier_answers(stage)
            driver = self._replay(stage, earlier)
            checked.driver = driver
            for answer in answers:
                _resolve(checked, answer, lambda a: driver.resolve(a, _now_ms())[1])
        else:
            live = _Live.held(stage["call"])
            for answer in answers:
                _resolve(checked, answer, live.resolve)
        return checked


def _earlier_answers(stage: Stage) -> list[list[Answer]]:
    return [[Answer.from_json(json.dumps(a)) for a in step.get("answers", [])] for step in stage["history"][:-1]]


def _resolve(checked: _Checked, answer: Answer, resolve: Callable[[Answer], ElicitResult]) -> None:
    try:
        checked.results[answer.id] = resolve(answer)
    except InvalidContentError as invalid:
        for violation in invalid.violations:
            checked.errors.append(
                {
                    "request": answer.id,
                    "pointer": violation.pointer,
                    "keyword": violation.keyword,
                    "message": violation.message,
                }
            )
    except Error as refused:
        checked.errors.append(
            {"request": answer.id, "pointer": refused.pointer, "keyword": refused.kind, "message": refused.message}
        )


def _read_resume(requests: list[dict[str, Any]], resume: Any) -> tuple[list[Answer], _Checked]:
    """The resumed value read as one ``Answer`` per request, or what is wrong with it."""
    checked = _Checked()
    ids = [request["id"] for request in requests]
    if not isinstance(resume, Mapping):
        for id in ids:
            checked.errors.append(
                {
                    "request": id,
                    "pointer": "",
                    "keyword": "type",
                    "message": "resume with {request_id: answer, ...}, not " + type(resume).__name__,
                }
            )
        return [], checked
    answers = []
    for id in ids:
        if id not in resume:
            checked.errors.append({"request": id, "pointer": "", "keyword": "required", "message": "no answer"})
            continue
        given = resume[id]
        try:
            answer = given if isinstance(given, Answer) else Answer.from_json(json.dumps(given))
        except (TypeError, ValueError) as bad:
            kind = bad.kind if isinstance(bad, Error) else "type"
            pointer = bad.pointer if isinstance(bad, Error) else ""
            checked.errors.append({"request": id, "pointer": pointer, "keyword": kind, "message": str(bad)})
            continue
        if answer.id != id:
            checked.errors.append(
                {
                    "request": id,
                    "pointer": "/id",
                    "keyword": "const",
                    "message": f"the answer to {id!r} names {answer.id!r}",
                }
            )
            continue
        answers.append(answer)
    for other in resume:
        if other not in ids:
            checked.errors.append(
                {"request": str(other), "pointer": "", "keyword": "unknown", "message": "no such request in this round"}
            )
    return answers, checked


# The 2025 era: calls held open by this process.


class _Live:
    """A call on a 2025-era session that stays open while the graph waits for answers."""

    _held: dict[str, _Live] = {}
    _by_session: weakref.WeakKeyDictionary[ClientSession, list[_Live]] = weakref.WeakKeyDictionary()

    def __init__(self, session: ClientSession) -> None:
        self.id = uuid.uuid4().hex
        self.session = session
        self.task_id: str | None = None
        self.events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.waiting: dict[str, tuple[asyncio.Future[ElicitResult], _Elicitations]] = {}
        self.outcomes: dict[tuple[str, str], ElicitResult | Error] = {}
        self.runner: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, session: ClientSession, call: Callable[[_Live], Awaitable[Any]]) -> Stage:
        live = cls(session)
        cls._held[live.id] = live
        cls._by_session.setdefault(session, []).append(live)

        async def run() -> None:
            try:
                result = await call(live)
            except Exception as failed:  # the call's own failure ends it, as a tool error
                await live.events.put(("failed", failed))
            else:
                await live.events.put(("done", result))

        live.runner = asyncio.get_running_loop().create_task(run())
        return await live.next_stage()

    @classmethod
    def held(cls, call_id: str) -> _Live:
        live = cls._held.get(call_id)
        if live is None:
            raise SessionGoneError(
                "the server asked this question over a 2025-era session, which belongs to the process "
                "that made it; this process does not hold it, so the answer cannot be sent (resume the "
                "graph in the process that was interrupted, or call the tool again)"
            )
        return live

    @classmethod
    def for_question(cls, session: ClientSession, meta: Mapping[str, Any] | None) -> _Live | None:
        calls = [live for live in cls._by_session.get(session, []) if live.runner is not None]
        related = (meta or {}).get(RELATED_TASK)
        if isinstance(related, Mapping):
            for live in calls:
                if live.task_id is not None and live.task_id == related.get("taskId"):
                    return live
        return calls[-1] if len(calls) == 1 else None

    def resolve(self, answer: Answer) -> ElicitResult:
        """The answer checked by the rules that began its request. Each outcome is kept, so
        a resumed run that replays earlier answers meets the same outcomes again."""
        seen = (answer.id, answer.to_json())
        if seen not in self.outcomes:
            waiting = self.waiting.get(answer.id)
            if waiting is None:
                raise ToolException(f"request {answer.id!r} is no longer waiting for an answer")
            try:
                self.outcomes[seen] = waiting[1].rules.resolve(answer, _now_ms())
            except Error as refused:
                self.outcomes[seen] = refused
        outcome = self.outcomes[seen]
        if isinstance(outcome, Error):
            raise outcome
        return outcome

    def deliver(self, results: Mapping[str, ElicitResult]) -> None:
        for id, result in results.items():
            waiting = self.waiting.pop(id, None)
            if waiting is not None and not waiting[0].done():
                waiting[0].set_result(result)

    async def ask(self, rules: _Elicitations, request: Request) -> ElicitResult:
        future: asyncio.Future[ElicitResult] = asyncio.get_running_loop().create_future()
        self.waiting[request.id] = (future, rules)
        await self.events.put(("ask", request))
        return await future

    async def next_stage(self) -> Stage:
        kind, value = await self.events.get()
        if kind == "ask":
            asked = [value]
            while not self.events.empty():
                more = self.events.get_nowait()
                if more[0] != "ask":
                    self.events.put_nowait(more)
                    break
                asked.append(more[1])
            return {
                "stage": "live",
                "call": self.id,
                "task": self.task_id,
                "requests": [_describe(request) for request in asked],
            }
        self.close()
        if kind == "failed":
            return _failed(str(value) or type(value).__name__)
        if isinstance(value, types.CallToolResult):
            return _done(value)
        return {"stage": "done", "result": value}

    def close(self) -> None:
        self._held.pop(self.id, None)
        calls = self._by_session.get(self.session)
        if calls is not None and self in calls:
            calls.remove(self)
        self.runner = None


class _Elicitations:
    """The ``elicitation_callback`` of ``session_options()``: hands each 2025-era question to
    the open call it belongs to."""

    def __init__(self, rules: Session) -> None:
        self.rules = rules

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        meta = context.meta if isinstance(context.meta, Mapping) else None
        live = _Live.for_question(context.session, meta)
        if live is None:
            return types.ErrorData(
                code=types.INTERNAL_ERROR,
                message="no tool call of this client is waiting for this question",
            )
        try:
            request = self.rules.begin(params, None, _now_ms())
        except Error as refused:
            return types.ErrorData(
                code=refusal_code(refused.kind),
                message=str(refused),
                data={"kind": refused.kind, "pointer": refused.pointer},
            )
        try:
            result = await live.ask(self, request)
        finally:
            self.rules.withdraw(request.id)
        reply = types.ElicitResult.model_validate_json(result.to_json())
        related = (meta or {}).get(RELATED_TASK)
        if isinstance(related, Mapping):
            reply = reply.model_copy(update={"meta": {RELATED_TASK: dict(related)}})
        return reply


# Wire helpers.


class _TaskCreated(types.Result):
    """A 2026-07-28 ``tools/call`` answered with a task, every member kept."""

    model_config = ConfigDict(extra="allow")

    result_type: Literal["task"] = Field(alias="resultType")


async def _unresolved_task(created: _TaskCreated, context: ClaimContext) -> types.CallToolResult:
    raise ToolException("a task is followed by toolnexus.langgraph's tools, not by call_tool")


class _TaskRequest(types.Request[dict[str, Any], str]):
    """A task request (``tasks/get``, ``tasks/update``, ``tasks/cancel``, ``tasks/result``)."""

    name_param = "taskId"


class _RawResult(BaseModel):
    """A task method's result as the server wrote it, every member kept."""

    model_config = ConfigDict(extra="allow")


async def _task_augmented_call(session: ClientSession, params: dict[str, Any]) -> dict[str, Any]:
    """A 2025-11-25 ``tools/call`` with ``params.task``. The ``mcp`` client reads every
    ``tools/call`` result of that era as a ``CallToolResult``, which a ``CreateTaskResult`` is
    not, so this one request goes out through the session's own stamp and dispatcher, beneath
    that check (the core's ``TaskDriver`` reads the reply)."""
    stamp = getattr(session, "_stamp", None)
    dispatcher = getattr(session, "_dispatcher", None)
    send = getattr(dispatcher, "send_raw_request", None)
    if stamp is None or send is None:
        raise ToolException(
            "this version of the mcp package cannot send a 2025-11-25 task-augmented tools/call"
        )
    data: dict[str, Any] = {"method": "tools/call", "params": params}
    options: dict[str, Any] = {}
    stamp(data, options)
    return cast(dict[str, Any], await send("tools/call", data["params"], options))


def _describe(request: Request) -> dict[str, Any]:
    """The request as the contract spells it, and what a UI needs to show it."""
    described: dict[str, Any] = json.loads(request.to_json())
    form = request.form
    if form is not None:
        described["form"] = [json.loads(f.to_json()) for f in form.fields]
    if request.url is not None:
        described["urlReview"] = json.loads(review_url(request.url).to_json())
    return cast(dict[str, Any], _plain(described))


def _plain(value: Any) -> Any:
    """JSON values a checkpoint serializer takes: integers outside 64 bits become floats."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return value
    if isinstance(value, int):
        return value if -(2**63) <= value < 2**64 else float(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _done(result: types.CallToolResult) -> Stage:
    return {"stage": "done", "result": result.model_dump(by_alias=True, mode="json", exclude_none=True)}


def _failed(message: str) -> Stage:
    return {"stage": "failed", "message": message}


def _output(result: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The tool's content for the model (its text) and the whole result as the artifact; an
    error result raises ``ToolException`` with its text."""
    texts = [
        block.get("text", "")
        for block in result.get("content", [])
        if isinstance(block, Mapping) and block.get("type") == "text"
    ]
    text = "\n".join(t for t in texts if isinstance(t, str))
    if result.get("isError"):
        raise ToolException(text or "the MCP tool failed")
    return text, result


# What a node of a running graph finds in its config (LangGraph's own keys): where `task`
# sends its calls and where `interrupt` keeps its resume values.
_GRAPH_KEYS = ("__pregel_call", "__pregel_scratchpad")


def _in_graph() -> bool:
    """Whether this runs inside a node of a LangGraph run (not a bare ``tool.ainvoke``)."""
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:
        return False
    return all(key in configurable for key in _GRAPH_KEYS)


_Step = Callable[..., Awaitable[Stage]]


async def _durable(step: _Step, *args: Any) -> Stage:
    """Runs ``step`` as a LangGraph task inside a graph run, so a resumed run reads its
    outcome from the checkpoint instead of running it again; outside a graph, runs it."""
    if not _in_graph():
        return await step(*args)
    return await _STEP(step, *args)


async def _run_step(step: _Step, *args: Any) -> Stage:
    return await step(*args)


# `task(name=...)` leaves its type parameters unsolved for mypy; the task takes and returns
# what `_run_step` does.
_STEP: Callable[..., Awaitable[Stage]] = cast(Any, durable_task(name="toolnexus.mcp_step"))(
    _run_step
)


def _now_ms() -> int:
    return time.time_ns() // 1_000_000

