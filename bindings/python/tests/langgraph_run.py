"""A LangGraph host in a process of its own, for the LangGraph tests: one graph (a fake chat
model that calls one MCP tool, a ``ToolNode``, the SQLite checkpointer), its tools from
``toolnexus.langgraph`` or from ``langchain.mcp`` (the peer), run against an MCP server over
streamable HTTP.

Usage: ``python langgraph_run.py PLAN``, PLAN a JSON object:

- ``peer``: ``"toolnexus"`` or ``"langchain"``; ``url``: the server; ``era``: ``"modern"``
  (``server/discover``) or ``"handshake"`` (``initialize``), for toolnexus (langchain.mcp's
  FastMCP client picks its own); ``db``: the SQLite file; ``thread``: the thread id;
- ``tool`` and ``args``: the call the model makes; ``start``: whether this process starts the
  run (else it resumes it from the checkpoint);
- ``answers``: one list per interrupt this process answers, one entry per request of the
  round, in order: ``{"ok": true, "data": {...}}``, ``{"ok": false, "reason": "declined"}``…;
  written as each peer spells an answer (toolnexus ``{request_id: Answer}``, langchain.mcp
  ``{"responses": {key: {"action", "content"}}}``); ``{"resume": VALUE}`` instead of a list
  resumes with VALUE as it is.

Writes one JSON line per event to stdout: ``{"interrupt": payload}``, then ``{"tool":
{"content", "status"}}`` when the tool's message is there, or ``{"error": {"type",
"message"}}`` when the run raised.
"""

from __future__ import annotations

import asyncio
import json
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

import toolnexus.langgraph


def printed(event: dict[str, Any]) -> None:
    print(json.dumps(event), flush=True)


@asynccontextmanager
async def toolnexus_tools(plan: dict[str, Any]) -> AsyncIterator[list[BaseTool]]:
    async with streamable_http_client(plan["url"]) as (read, write, *_):
        async with ClientSession(read, write, **toolnexus.langgraph.session_options()) as session:
            if plan["era"] == "modern":
                await session.discover()
            else:
                await session.initialize()
            yield await toolnexus.langgraph.load_tools(session)


@asynccontextmanager
async def langchain_tools(plan: dict[str, Any]) -> AsyncIterator[list[BaseTool]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from langchain.mcp import MCPAdapter

    adapter = MCPAdapter(plan["url"])
    tools = await adapter.list_tools()
    async with adapter:
        yield tools


def toolnexus_resume(payload: dict[str, Any], answers: list[dict[str, Any]]) -> Any:
    if isinstance(answers, dict):
        return answers["resume"]
    return {request["id"]: {"id": request["id"], **answer} for request, answer in zip(payload["requests"], answers)}


def langchain_resume(payload: dict[str, Any], answers: list[dict[str, Any]]) -> Any:
    if isinstance(answers, dict):
        return answers["resume"]
    responses = {}
    for request, answer in zip(payload["requests"], answers):
        if answer.get("ok"):
            response: dict[str, Any] = {"action": "accept"}
            if "data" in answer:
                response["content"] = answer["data"]
        else:
            response = {"action": "decline" if answer.get("reason") == "declined" else "cancel"}
        responses[request["key"]] = response
    return {"responses": responses}


async def run(plan: dict[str, Any], emit: Callable[[dict[str, Any]], None] = printed) -> None:
    """Runs the plan, handing each event to ``emit``."""
    peer = plan["peer"]
    tools_of = toolnexus_tools if peer == "toolnexus" else langchain_tools
    resume_of: Callable[[dict[str, Any], list[dict[str, Any]]], Any] = (
        toolnexus_resume if peer == "toolnexus" else langchain_resume
    )
    call = AIMessage("", tool_calls=[{"name": plan["tool"], "args": plan.get("args", {}), "id": "call-1"}])
    done = AIMessage("done")
    model = GenericFakeChatModel(messages=iter([call, done] if plan["start"] else [done]))

    async def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    async with tools_of(plan) as tools, AsyncSqliteSaver.from_conn_string(plan["db"]) as saver:
        graph = (
            StateGraph(MessagesState)
            .add_node("agent", agent)
            .add_node("tools", ToolNode(tools))
            .add_edge(START, "agent")
            .add_conditional_edges("agent", tools_condition)
            .add_edge("tools", "agent")
            .compile(checkpointer=saver)
        )
        config: Any = {"configurable": {"thread_id": plan["thread"]}}
        answers = list(plan.get("answers", []))
        step: Callable[[], Awaitable[Any]]
        if plan["start"]:
            first: MessagesState = {"messages": [HumanMessage("go")]}
            step = lambda: graph.ainvoke(first, config)  # noqa: E731
        else:
            payload = (await graph.aget_state(config)).interrupts[0].value
            resume = resume_of(payload, answers.pop(0))
            step = lambda: graph.ainvoke(Command(resume=resume), config)  # noqa: E731
        while True:
            try:
                out = await step()
            except Exception as error:
                emit({"error": {"type": type(error).__name__, "message": str(error)}})
                return
            if "__interrupt__" in out:
                payload = out["__interrupt__"][0].value
                emit({"interrupt": payload})
                if not answers:
                    return
                resume = resume_of(payload, answers.pop(0))
                step = lambda: graph.ainvoke(Command(resume=resume), config)  # noqa: E731
                continue
            for message in out["messages"]:
                if isinstance(message, ToolMessage):
                    emit({"tool": {"content": message.content, "status": message.status}})
            return


if __name__ == "__main__":
    asyncio.run(run(json.loads(sys.argv[1])))
