"""The example web host scaled out: workers that share only a store, where each round waits.

Each 2026-07-28 round waits in the store as a sealed toolnexus snapshot, so any worker can show
a question and any other take its answer. ``app.py --server-url URL`` runs this mode. The host
speaks MCP 2026-07-28 to a server over streamable HTTP itself, one JSON-RPC request per POST,
and keeps nothing in memory between two requests of a person: several workers (processes,
machines) behind one address serve the same people.

- ``POST /calls`` sends ``tools/call``. A final result is stored with the call. An
  ``input_required`` result starts a ``toolnexus.InputRound``, whose ``snapshot`` is written to
  the store under its ``snapshot_id``; the person is sent to ``/ask/{snapshot id}``.
- ``GET /ask/{id}``, on any worker, reads the snapshot back with ``InputRound.restore`` and shows
  the question (``Request.to_html``).
- ``POST /ask/{id}``, on any worker, restores the round, reads the post
  (``Request.answer_from_form_data``) and resolves it. An answer that breaks the form comes back
  (422) and the stored round is left as it was. A good one first claims the round in the store,
  atomically: of two posts of one question (two tabs, a double click, two workers) exactly one
  goes on, the other is told that the question was already answered. The winner retries the
  call with the answers (``round.retry``); a further ``input_required`` is the next round
  (``round.next_round``), stored again; a final result is stored with the call.
- ``GET /calls/{id}`` shows where the call stands: its question, its result, or that it works.

A snapshot is sealed (HMAC-SHA-256) with a key derived from the host's key and from the round's
record: its id, its call, its owner and its tool. A snapshot edited, truncated, sealed with an
unknown key or moved to another record does not restore (``InvalidSealError``): the page says
the saved question was changed and cannot be trusted (400). A round whose questions expired
(``--ttl-ms``) does not restore either (``ExpiredError``): the page says so (410). Nothing is sent
to the server in either case.

Every response names the worker that served it: the ``X-Worker`` header and the page's footer.
Each worker logs what it serves and what it sends, one line each, on standard error.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx2
from mcp import types
from mcp.shared.inbound import encode_header_value
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import app as web
import toolnexus
from store import AlreadyAnswered, Claimed, Store, open_store

ERA = "2026-07-28"
CLIENT_INFO = {"name": "toolnexus-web-host", "version": "1.0.0"}
PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo"

ROUND_GRACE_MS = 3_600_000
"""How much longer than its questions a round's record is kept: an answer that comes late is
told that the question expired, not that there is none."""
RECORD_TTL_MS = 86_400_000
"""How long a call's record, and a round without a time to live, are kept."""

logger = logging.getLogger("web-host")


def now_ms() -> int:
    return int(time.time() * 1000)


# --- Keys ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Keys:
    """The host's keys, shared by its workers: the first seals, every one opens (so a key can
    be rotated in without refusing what the old one sealed)."""

    keys: tuple[bytes, ...]

    @classmethod
    def read(cls, path: Path) -> Keys:
        """The keys of a file: one per line, at least 32 characters each; ``#`` starts a comment."""
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
        keys = tuple(line.encode("utf-8") for line in lines if line and not line.startswith("#"))
        if not keys:
            raise ValueError(f"{path} holds no key")
        if any(len(key) < 32 for key in keys):
            raise ValueError(f"every key in {path} must be at least 32 characters long")
        return cls(keys)

    def for_round(self, round_id: str, header: bytes) -> tuple[bytes, ...]:
        """The keys a round's snapshot is sealed and opened with: each host key bound to the
        round's id and header, so a snapshot moved to another record, or a header edited, does
        not open."""
        context = b"toolnexus-web-host round\x00" + round_id.encode("utf-8") + b"\x00" + header
        return tuple(hmac.new(key, context, hashlib.sha256).digest() for key in self.keys)

    def csrf_secret(self) -> bytes:
        """The secret the forms' CSRF tokens are made with: the same on every worker."""
        return hmac.new(self.keys[0], b"toolnexus-web-host csrf", hashlib.sha256).digest()


def owner_of(session: str) -> str:
    """What the store keeps of the session that started a call: a digest, never the cookie."""
    return hashlib.sha256(session.encode("utf-8")).hexdigest()


# --- The server, over streamable HTTP -----------------------------------------------------


class ServerError(Exception):
    """The server could not be reached, or did not answer with JSON-RPC."""


class McpHttp:
    """A 2026-07-28 client of one server over streamable HTTP: one request per POST, with the
    headers that version asks for, the reply read as JSON or from an event stream."""

    def __init__(self, url: str, worker: str) -> None:
        self.url = url
        self._http = httpx2.AsyncClient(timeout=httpx2.Timeout(60.0, connect=5.0))
        self._ids = itertools.count(1)
        self._prefix = f"{worker}-{secrets.token_hex(4)}"

    def new_id(self) -> str:
        """A JSON-RPC id no other worker uses."""
        return f"{self._prefix}-{next(self._ids)}"

    def request(self, method: str, params: dict[str, Any]) -> str:
        """A request of ``method``, its ``_meta`` carrying the protocol version, this client and
        its capabilities (form and URL elicitation, stamped by toolnexus); a tool call also asks
        for progress, which the server sends on an event stream."""
        rpc_id = self.new_id()
        meta: dict[str, Any] = {PROTOCOL_VERSION_META: ERA, CLIENT_INFO_META: CLIENT_INFO}
        if method == "tools/call":
            meta["progressToken"] = rpc_id
        message = {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": {"_meta": meta, **params}}
        return toolnexus.with_client_capabilities(json.dumps(message), modes=("form", "url"))

    async def send(self, body: str) -> str:
        """Sends a request and returns the JSON-RPC response to it, as the server wrote it."""
        message = json.loads(body)
        method, rpc_id = message["method"], message["id"]
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": ERA,
            "Mcp-Method": method,
        }
        name = (message.get("params") or {}).get("name")
        if method in {"tools/call", "prompts/get"} and isinstance(name, str):
            headers["Mcp-Name"] = encode_header_value(name)
        try:
            async with self._http.stream("POST", self.url, content=body.encode("utf-8"), headers=headers) as reply:
                kind = reply.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind == "text/event-stream":
                    notifications = 0
                    async for event in httpx2.EventSource(reply):
                        if event.event != "message":
                            continue
                        try:
                            data = json.loads(event.data)
                        except ValueError:
                            continue
                        if isinstance(data, dict) and data.get("id") == rpc_id and ("result" in data or "error" in data):
                            logger.info("%s %s: reply read from an event stream, after %d notification(s)", method, rpc_id, notifications)
                            return event.data
                        notifications += 1
                    raise ServerError("the server's event stream ended before its response")
                text = (await reply.aread()).decode("utf-8")
                if kind == "application/json":
                    logger.info("%s %s: reply read as JSON", method, rpc_id)
                    return text
                raise ServerError(f"the server answered HTTP {reply.status_code} ({kind or 'no content type'})")
        except httpx2.HTTPError as error:
            raise ServerError(f"the server could not be reached: {error}") from error

    async def list_tools(self) -> list[types.Tool]:
        reply = json.loads(await self.send(self.request("tools/list", {})))
        if "error" in reply:
            raise ServerError(f"tools/list failed: {reply['error'].get('message')}")
        return [types.Tool.model_validate(tool) for tool in reply["result"]["tools"]]

    async def aclose(self) -> None:
        await self._http.aclose()


# --- Records ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """What a round's record says besides its snapshot: whose it is and where it belongs."""

    call: str
    owner: str
    tool: str
    number: int
    """Which round of the call this is, from 1."""

    def encode(self) -> bytes:
        fields = {"call": self.call, "owner": self.owner, "tool": self.tool, "round": self.number}
        return json.dumps(fields, separators=(",", ":"), sort_keys=True).encode("utf-8")

    @classmethod
    def decode(cls, data: bytes) -> Header | None:
        try:
            fields = json.loads(data)
            header = cls(fields["call"], fields["owner"], fields["tool"], fields["round"])
        except (ValueError, KeyError, TypeError):
            return None
        ok = all(isinstance(v, str) for v in (header.call, header.owner, header.tool)) and isinstance(header.number, int)
        return header if ok else None


@dataclass
class ScaledHost:
    """What a worker keeps: only what every worker has alike. People's rounds are in the store."""

    tools: list[types.Tool]
    store: Store
    keys: Keys
    server: McpHttp
    worker: str
    ttl_ms: int | None

    def csrf_token(self, session: str) -> str:
        """The token a session's forms carry: any worker of this host makes the same."""
        return hmac.new(self.keys.csrf_secret(), session.encode(), hashlib.sha256).hexdigest()

    def round_record_ttl(self) -> int:
        return (self.ttl_ms or RECORD_TTL_MS) + ROUND_GRACE_MS

    async def save_call(self, call_id: str, call: dict[str, Any]) -> None:
        await self.store.put_call(call_id, json.dumps(call), RECORD_TTL_MS)

    async def finish(self, call_id: str, call: dict[str, Any], result: str, *, failed: bool) -> str:
        """Stores the call's outcome; where the person goes now."""
        call.update(state="done", ask=None, result=result, failed=failed)
        await self.save_call(call_id, call)
        logger.info("call %s: %s", call_id, "failed" if failed else "done")
        return f"/calls/{call_id}"

    async def keep_round(self, call_id: str, call: dict[str, Any], round_: toolnexus.InputRound, number: int) -> str:
        """Writes the round's snapshot under its snapshot id, and the call as asking it."""
        # The snapshot's own stable id: a restore of it gives the same id again, so the record
        # and what it holds name each other, and the store claims it once under that id.
        round_id = round_.snapshot_id
        header = Header(call_id, call["owner"], call["tool"], number).encode()
        snapshot = round_.snapshot(key=self.keys.for_round(round_id, header)[0])
        await self.store.put_round(round_id, call_id, header + b"\n" + snapshot, self.round_record_ttl())
        call.update(state="asking", ask=round_id)
        await self.save_call(call_id, call)
        logger.info("call %s: round %d stored as %s (%d bytes)", call_id, number, round_id, len(snapshot))
        return f"/ask/{round_id}"

    async def advance(
        self,
        call_id: str,
        call: dict[str, Any],
        sent: str,
        previous: toolnexus.InputRound | None,
        number: int,
    ) -> str:
        """Sends ``sent`` and follows the server's reply: a result, or the next round."""
        try:
            reply = await self.server.send(sent)
        except ServerError as error:
            return await self.finish(call_id, call, f"The call failed: {error}", failed=True)
        try:
            refusal = json.loads(reply).get("error")
        except (ValueError, AttributeError):
            refusal = None
        if isinstance(refusal, dict):
            return await self.finish(call_id, call, f"The server refused the call: {refusal.get('message')}", failed=True)
        try:
            outcome = toolnexus.classify_result(reply)
            if outcome.type == "complete":
                result = outcome.result or {}
                texts = [item.get("text", "") for item in result.get("content", []) if item.get("type") == "text"]
                return await self.finish(call_id, call, "\n".join(texts), failed=bool(result.get("isError")))
            if outcome.type != "input_required":
                return await self.finish(
                    call_id, call, f"The server answered with a result this host does not follow: {outcome.result_type}",
                    failed=True,
                )
            if previous is None:
                round_, _ = toolnexus.InputRound.start(sent, reply, now_ms(), ttl_ms=self.ttl_ms)
            else:
                round_, _ = previous.next_round(reply, now_ms())
        except toolnexus.Error as error:
            return await self.finish(call_id, call, f"The server's answer could not be read: {error}", failed=True)
        unhandled = round_.unhandled()
        if unhandled:
            methods = ", ".join(sorted({request.method for request in unhandled}))
            return await self.finish(call_id, call, f"The server asked for {methods}, which this host does not answer.", failed=True)
        logger.info("call %s: input_required, round %d asks %s", call_id, number, ", ".join(round_.missing()))
        return await self.keep_round(call_id, call, round_, number)


# --- Pages --------------------------------------------------------------------------------


def host_of(request: Request) -> ScaledHost:
    host: ScaledHost = request.app.state.host
    return host


def see_other(location: str) -> RedirectResponse:
    return RedirectResponse(location, status_code=303)


def changed_page() -> Response:
    body = (
        "<h1>This saved question cannot be trusted</h1>"
        "<p>The saved question was changed after this host saved it, so it cannot be trusted. "
        "Nothing was sent to the server.</p>"
        '<p><a href="/">Run the tool again</a></p>'
    )
    return web.page("Question changed", body, status=400)


def expired_page() -> Response:
    body = (
        "<h1>This question has expired</h1>"
        "<p>The time to answer this question ran out, so the answer was not sent to the server.</p>"
        '<p><a href="/">Run the tool again</a></p>'
    )
    return web.page("Question expired", body, status=410)


def answered_page(call_id: str) -> Response:
    body = (
        "<h1>This question was already answered</h1>"
        "<p>This question was already answered, from another tab or window, or by sending the form twice. "
        "Only the first answer was sent to the server.</p>"
        f'<p><a href="/calls/{quote(call_id, safe="")}">See where the call stands</a></p>'
    )
    return web.page("Already answered", body, status=409)


async def index(request: Request) -> Response:
    host = host_of(request)
    session = web.current_session(request)
    tools = "".join(
        f'<li><button type="submit" name="tool" value="{web.esc(tool.name)}" aria-describedby="tool-{i}">'
        f"Run {web.esc(tool.name)}</button> "
        f'<span id="tool-{i}">{web.about(tool)}</span></li>'
        for i, tool in enumerate(host.tools)
    )
    body = (
        "<h1>Example MCP host</h1>"
        f"<p>Run a tool of {web.esc(web.SERVER_NAME)}; answer what it asks; see what it received.</p>"
        '<form method="post" action="/calls">'
        f'<input type="hidden" name="{web.CSRF_FIELD}" value="{web.esc(host.csrf_token(session))}">'
        '<fieldset><legend>Protocol version</legend><div><input type="radio" name="era" id="era-0" '
        f'value="{ERA}" checked> <label for="era-0">{ERA}: the server answers input_required and the '
        "call is retried, by any worker</label></div></fieldset>"
        f'<h2>Tools</h2><ul class="tools">{tools}</ul>'
        "</form>"
    )
    return web.with_session(request, web.page("Tools", body))


async def start_call(request: Request) -> Response:
    host = host_of(request)
    fields = await web.read_post(request)
    if isinstance(fields, Response):
        return fields
    posted = dict(fields)
    tool = posted.get("tool", "")
    if tool not in {t.name for t in host.tools} or posted.get("era", ERA) != ERA:
        return web.page("Unknown tool", "<h1>Unknown tool</h1><p>Choose a tool.</p>", status=400)
    call_id = secrets.token_urlsafe(16)
    call: dict[str, Any] = {"owner": owner_of(web.session_of(request) or ""), "tool": tool, "state": "working"}
    await host.save_call(call_id, call)
    logger.info("call %s: tools/call %s", call_id, tool)
    sent = host.server.request("tools/call", {"name": tool, "arguments": {}})
    return see_other(await host.advance(call_id, call, sent, None, 1))


@dataclass
class Loaded:
    """A stored round, restored: the record's bytes, its header and the question to show."""

    value: bytes
    header: Header
    round: toolnexus.InputRound
    question: toolnexus.Request


async def load_round(request: Request, round_id: str, now: int) -> Loaded | Response:
    """The round the URL names, restored from the store as it stands at ``now``, or the page
    that says why not."""
    host = host_of(request)
    owner = owner_of(web.session_of(request) or "")
    stored = await host.store.get_round(round_id)
    if stored is None:
        return web.not_found()
    if isinstance(stored, AlreadyAnswered):
        logger.info("round %s: already answered", round_id)
        return await answered_or_not_found(host, stored.call_id, owner)
    header_bytes, _, snapshot = stored.partition(b"\n")
    header = Header.decode(header_bytes)
    if header is None:
        logger.warning("round %s: its record has no readable header", round_id)
        return changed_page()
    if not hmac.compare_digest(header.owner, owner):
        return web.not_found()
    try:
        round_ = toolnexus.InputRound.restore(snapshot, keys=host.keys.for_round(round_id, header_bytes), now_ms=now)
    except toolnexus.ExpiredError:
        logger.info("round %s: expired", round_id)
        return expired_page()
    except toolnexus.InvalidSealError as error:
        logger.warning("round %s: refused: %s", round_id, error)
        return changed_page()
    except toolnexus.Error as error:
        logger.warning("round %s: does not restore: %s", round_id, error)
        return changed_page()
    if not hmac.compare_digest(round_.snapshot_id, round_id):
        logger.warning("round %s: its record holds another snapshot", round_id)
        return changed_page()
    pending = round_.pending()
    if not pending:
        return see_other(f"/calls/{header.call}")
    return Loaded(stored, header, round_, pending[0][1])


async def answered_or_not_found(host: ScaledHost, call_id: str, owner: str) -> Response:
    """The "already answered" page, for the person whose call it was."""
    call = await load_call(host, call_id)
    if call is None or not hmac.compare_digest(str(call.get("owner", "")), owner):
        return web.not_found()
    return answered_page(call_id)


async def load_call(host: ScaledHost, call_id: str) -> dict[str, Any] | None:
    text = await host.store.get_call(call_id)
    if text is None:
        return None
    try:
        call = json.loads(text)
    except ValueError:
        return None
    return call if isinstance(call, dict) else None


def question_page(
    request: Request,
    loaded: Loaded,
    *,
    form_data: Sequence[tuple[str, str]] | None = None,
    error: toolnexus.InvalidContentError | None = None,
    status: int = 200,
) -> Response:
    session = web.current_session(request)
    fragment = loaded.question.to_html(
        form_data=form_data,
        error=error,
        asker=web.SERVER_NAME,
        hidden=[(web.CSRF_FIELD, host_of(request).csrf_token(session))],
    )
    tool = loaded.header.tool
    body = f"<h1>The tool {web.esc(tool)} asks</h1>{fragment}"
    title = f"{'Error: ' if error is not None else ''}{tool} asks"
    return web.with_session(request, web.page(title, body, status=status))


async def show_question(request: Request) -> Response:
    loaded = await load_round(request, request.path_params["id"], now_ms())
    if isinstance(loaded, Response):
        return loaded
    return question_page(request, loaded)


async def answer_question(request: Request) -> Response:
    host = host_of(request)
    round_id = request.path_params["id"]
    fields = await web.read_post(request)
    if isinstance(fields, Response):
        return fields
    # One time for the whole post: a round that restores at this time is answered at it too.
    now = now_ms()
    loaded = await load_round(request, round_id, now)
    if isinstance(loaded, Response):
        return loaded
    # Read and resolve on this worker's copy first: an answer that is refused changes nothing
    # in the store.
    try:
        answer = loaded.question.answer_from_form_data(fields, hidden=[web.CSRF_FIELD])
        loaded.round.resolve(answer, now)
    except toolnexus.InvalidContentError as error:
        return question_page(request, loaded, form_data=fields, error=error, status=422)
    except toolnexus.ExpiredError:
        return expired_page()
    except toolnexus.Error as error:
        body = (
            f"<h1>The answer could not be read</h1><p>{web.esc(error.message)}</p>"
            f'<p><a href="/ask/{quote(round_id, safe="")}">Back to the question</a></p>'
        )
        return web.page("Not understood", body, status=400)
    # Claim the round: from here on, this post alone answers it.
    call_id = loaded.header.call
    claim = await host.store.claim_round(round_id, call_id)
    if claim is None:
        return web.not_found()
    if isinstance(claim, AlreadyAnswered):
        logger.info("round %s: already answered: another post claimed it first", round_id)
        return answered_page(claim.call_id)
    assert isinstance(claim, Claimed)
    if claim.value != loaded.value:
        logger.warning("round %s: changed between its read and its claim", round_id)
        return changed_page()
    logger.info("call %s: round %d (%s) answered", call_id, loaded.header.number, round_id)
    call = await load_call(host, call_id) or {"owner": loaded.header.owner, "tool": loaded.header.tool}
    call["state"] = "working"
    if loaded.round.missing():
        # This round asks more than one question: the next one waits in a record of its own.
        return see_other(await host.keep_round(call_id, call, loaded.round, loaded.header.number))
    await host.save_call(call_id, call)
    retry = loaded.round.retry(host.server.new_id())
    logger.info("call %s: retry of %s sent", call_id, loaded.header.tool)
    return see_other(await host.advance(call_id, call, retry, loaded.round, loaded.header.number + 1))


async def show_call(request: Request) -> Response:
    host = host_of(request)
    call_id = request.path_params["id"]
    call = await load_call(host, call_id)
    if call is None or not hmac.compare_digest(str(call.get("owner", "")), owner_of(web.session_of(request) or "")):
        return web.not_found()
    tool = str(call.get("tool", ""))
    if call.get("state") == "asking" and call.get("ask"):
        return see_other(f"/ask/{quote(str(call['ask']), safe='')}")
    if call.get("state") != "done":
        body = (
            f"<h1>{web.esc(tool)} is working</h1><p>The tool has not finished yet.</p>"
            f'<p><a href="/calls/{quote(call_id, safe="")}">Check again</a></p>'
        )
        return web.page(f"{tool} is working", body)
    outcome = "reported an error" if call.get("failed") else "returned"
    body = (
        f"<h1>Result of {web.esc(tool)}</h1>"
        f"<p>Protocol {ERA}. The tool {outcome}:</p>"
        f'<pre><code dir="ltr">{web.esc(str(call.get("result", "")))}</code></pre>'
    )
    return web.page(f"Result of {tool}", body)


# --- The app ------------------------------------------------------------------------------


class AccessLog:
    """Logs every request a worker serves: method, path, status and where it redirects."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def logged(message: Message) -> None:
            if message["type"] == "http.response.start":
                location = MutableHeaders(scope=message).get("location")
                where = f" -> {location}" if location else ""
                logger.info("%s %s %d%s", scope["method"], scope["path"], message["status"], where)
            await send(message)

        await self.app(scope, receive, logged)


def scaled_app(
    *, server_url: str, store: str, worker: str, key_file: Path, ttl_ms: int | None
) -> ASGIApp:
    """The host as one worker of many: ``server_url`` the MCP server, ``store`` where rounds
    and calls are kept (``redis://…`` or ``sqlite:PATH``), ``worker`` this worker's name."""
    keys = Keys.read(key_file)
    web.WORKER = worker
    logging.basicConfig(level=logging.INFO, format=f"worker {worker}: %(message)s", force=True)
    logging.getLogger("httpx2").setLevel(logging.WARNING)

    kept = open_store(store)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server = McpHttp(server_url, worker)
        try:
            try:
                tools = await server.list_tools()
            except ServerError as error:
                logger.error("cannot list the tools of %s: %s", server_url, error)
                raise SystemExit(1) from None
            app.state.host = ScaledHost(tools, kept, keys, server, worker, ttl_ms)
            logger.info("serving %d tools of %s, rounds in %s", len(tools), server_url, kept.name)
            yield
        finally:
            await server.aclose()
            await kept.close()

    routes = [
        Route("/", index),
        Route("/calls", start_call, methods=["POST"]),
        Route("/calls/{id}", show_call),
        Route("/ask/{id}", show_question),
        Route("/ask/{id}", answer_question, methods=["POST"]),
        Route("/toolnexus.css", lambda request: web.stylesheet(web.TOOLNEXUS_CSS)),
        Route("/page.css", lambda request: web.stylesheet(web.PAGE_CSS)),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
    ]
    return web.SecurityHeaders(AccessLog(Starlette(routes=routes, lifespan=lifespan)))
