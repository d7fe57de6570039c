"""The example web host: a Starlette app that runs the tools of an MCP server (``server.py``,
started over stdio) and lets a person answer each question the server asks with a plain HTML
form, rendered and read back by toolnexus. No JavaScript anywhere.

- ``GET /`` lists the server's tools, with a button per tool and a choice of protocol version:
  2025-11-25 (``mcp.ClientSession``; the server sends ``elicitation/create`` during the call) or
  2026-07-28 (``mcp.Client``; the server answers ``input_required`` and the call is retried).
- ``POST /calls`` runs the tool in the background, with a connection of its own, so each
  question belongs to exactly one call. ``toolnexus.mcp.elicitation_callback`` hands every
  question to ``Call.ask``, which keeps it pending until the person answers. The POST waits
  until a question is pending or the call has finished, then redirects (303) to the question
  or to the result.
- ``GET /ask/{id}`` shows the question: ``Request.to_html``, with the name this host gives
  the server (never the server's own words) as who asks, and a CSRF token.
- ``POST /ask/{id}`` reads the post with ``Request.answer_from_form_data``. An answer that
  breaks the form comes back (422) with the person's values kept and every problem next to
  its field; a good one goes to the server, then the host waits and redirects as above.
- ``GET /calls/{id}`` shows the call: the tool's result as text, or that it is still working.

Every response carries a Content-Security-Policy that allows no script at all.

Run: ``python app.py --port 8000`` (``--port 0`` picks a free port); the line
``listening on http://127.0.0.1:PORT`` on standard output says where.

Scaled out: ``python app.py --server-url http://127.0.0.1:P/mcp --store redis://127.0.0.1:R/0
--worker-name A --snapshot-key-file KEYS [--ttl-ms N]`` runs one worker of many that share the
server and the store (``sqlite:PATH`` when there is no Redis); see ``scaled.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import html
import logging
import os
import secrets
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

import anyio
import anyio.abc
import uvicorn
from mcp import Client, ClientSession, StdioServerParameters, stdio_client, types
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import toolnexus
import toolnexus.mcp

HERE = Path(__file__).resolve().parent

SERVER_NAME = "Example server"
"""What this host calls the server it starts: shown as who asks. A server's own name and
texts are its own claims, so they are never shown as its identity."""

SERVER = StdioServerParameters(command=sys.executable, args=[str(HERE / "server.py")], cwd=str(HERE))

ERAS = {
    "2025-11-25": "2025-11-25: the server asks during the call (elicitation/create)",
    "2026-07-28": "2026-07-28: the server answers input_required and the call is retried",
}

SETTLE_TIMEOUT_S = 30.0
"""How long a POST waits for the server to ask or finish before showing the call as working."""

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

SESSION_COOKIE = "tn_session"
CSRF_FIELD = "csrf"
FORM_TYPE = "application/x-www-form-urlencoded"

WORKER: str | None = None
"""This worker's name when the host is scaled out (``--worker-name``): every response says it,
in the ``X-Worker`` header and the page's footer."""

logger = logging.getLogger("web-host")


# --- Calls and the questions they ask ----------------------------------------------------


@dataclass(eq=False)
class Question:
    """A question the server asked, waiting for the person's answer."""

    request: toolnexus.Request
    answered: asyncio.Future[toolnexus.Answer]


@dataclass(eq=False)
class Call:
    """One tool call, run in the background, with the questions it waits on."""

    id: str
    tool: str
    era: str
    owner: str
    """The browser session that started the call: the only one that sees it."""
    by_request: dict[str, Call]
    """The host's record of which call asked each question, by request id."""
    open: list[Question] = field(default_factory=list)
    """Questions not answered yet, oldest first (at 2026-07-28 one round may ask several)."""
    done: bool = False
    failed: bool = False
    result: str = ""
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def question(self) -> Question | None:
        """The question to show next."""
        return self.open[0] if self.open else None

    def _notify(self) -> None:
        """Wakes everyone waiting for this call to change."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def ask(self, request: toolnexus.Request) -> toolnexus.Answer:
        """The ``wait_for`` of the call's elicitation callback: keeps ``request`` open until
        the person answers it through ``POST /ask/{id}``."""
        question = Question(request, asyncio.get_running_loop().create_future())
        self.by_request[request.id] = self
        self.open.append(question)
        self._notify()
        try:
            return await question.answered
        finally:
            if question in self.open:
                self.open.remove(question)

    def finish(self, result: str, *, failed: bool) -> None:
        self.result, self.failed, self.done = result, failed, True
        self.open.clear()
        self._notify()

    async def settle(self, after: Question | None = None) -> None:
        """Waits until the call has a question open other than ``after``, or has finished; at
        most ``SETTLE_TIMEOUT_S``."""
        with anyio.move_on_after(SETTLE_TIMEOUT_S):
            while not self.done and not any(question is not after for question in self.open):
                await self._changed.wait()

    def next_step(self) -> RedirectResponse:
        """Where the person goes now: the open question, or the call's page."""
        question = self.question
        if question is not None:
            return RedirectResponse(f"/ask/{quote(question.request.id, safe='')}", status_code=303)
        return RedirectResponse(f"/calls/{self.id}", status_code=303)


class ToolClient(Protocol):
    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> types.CallToolResult: ...


@asynccontextmanager
async def connect(era: str, callback: toolnexus.mcp.ElicitationCallback) -> AsyncIterator[ToolClient]:
    """A connection to a new server process, speaking ``era``, answering through ``callback``."""
    if era == "2025-11-25":
        async with stdio_client(SERVER) as (read, write):
            async with ClientSession(
                read, write, elicitation_callback=callback, message_handler=callback.message_handler()
            ) as session:
                await session.initialize()
                yield session
    else:
        async with Client(stdio_client(SERVER), elicitation_callback=callback, mode=era) as client:
            yield client


async def run_call(call: Call) -> None:
    """Runs the call's tool and records what it returned, or why it failed."""
    callback = toolnexus.mcp.elicitation_callback(call.ask)
    try:
        async with connect(call.era, callback) as client:
            result = await client.call_tool(call.tool, {})
            texts = [item.text for item in result.content if isinstance(item, types.TextContent)]
            call.finish("\n".join(texts), failed=bool(result.is_error))
    except Exception as error:  # noqa: BLE001 - whatever went wrong is shown on the call's page
        logger.warning("the call %s of %s failed", call.id, call.tool, exc_info=True)
        if not call.done:
            call.finish(f"The call failed: {first_cause(error)}", failed=True)


def first_cause(error: BaseException) -> str:
    """The innermost error of a task group's exception group, as text."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return str(error) or type(error).__name__


async def list_tools() -> list[types.Tool]:
    """The server's tools, read once when the host starts."""
    async with stdio_client(SERVER) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return list((await session.list_tools()).tools)


@dataclass
class Host:
    """Everything the host keeps: the server's tools, the calls and their questions."""

    tools: list[types.Tool]
    tasks: anyio.abc.TaskGroup
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    calls: dict[str, Call] = field(default_factory=dict)
    by_request: dict[str, Call] = field(default_factory=dict)
    """Which call asked each question, by request id."""

    def csrf_token(self, session: str) -> str:
        """The token a session's forms carry: only this host can make it."""
        return hmac.new(self.secret, session.encode(), hashlib.sha256).hexdigest()

    def start(self, tool: str, era: str, owner: str) -> Call:
        call = Call(secrets.token_urlsafe(16), tool, era, owner, self.by_request)
        self.calls[call.id] = call
        self.tasks.start_soon(run_call, call)
        return call


# --- Pages --------------------------------------------------------------------------------


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def page(title: str, body: str, *, status: int = 200) -> HTMLResponse:
    """A whole page around ``body``: the chrome every page shares."""
    return HTMLResponse(
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · Example MCP host</title>"
        '<link rel="stylesheet" href="/toolnexus.css"><link rel="stylesheet" href="/page.css">'
        "</head><body>"
        f'<main>{body}<p class="home"><a href="/">All tools</a></p></main>'
        + (f'<footer><p class="worker">Served by worker {esc(WORKER)}</p></footer>' if WORKER else "")
        + "</body></html>\n",
        status_code=status,
    )


def host_of(request: Request) -> Host:
    host: Host = request.app.state.host
    return host


def session_of(request: Request) -> str | None:
    """The browser's session id, from its cookie, if it has a well-formed one."""
    session = request.cookies.get(SESSION_COOKIE, "")
    return session if len(session) == 43 and session.replace("-", "").replace("_", "").isalnum() else None


def with_session(request: Request, response: Response) -> Response:
    """``response``, giving the browser a session cookie if it has none."""
    if session_of(request) is None:
        response.set_cookie(
            SESSION_COOKIE, request.state.session, httponly=True, samesite="strict", path="/"
        )
    return response


def current_session(request: Request) -> str:
    """The session this request belongs to, made now for a browser that has none."""
    session = session_of(request) or secrets.token_urlsafe(32)
    request.state.session = session
    return session


async def read_post(request: Request) -> list[tuple[str, str]] | Response:
    """The fields of a form post whose CSRF token is this session's, or the response that
    refuses it."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != FORM_TYPE:
        return page("Not a form", "<h1>Not a form</h1><p>This address takes a form post.</p>", status=415)
    async with request.form() as form:
        fields = [(name, value) for name, value in form.multi_items() if isinstance(value, str)]
    session = session_of(request)
    tokens = [value for name, value in fields if name == CSRF_FIELD]
    if session is None or len(tokens) != 1 or not hmac.compare_digest(
        tokens[0].encode(), host_of(request).csrf_token(session).encode()
    ):
        return page(
            "Refused",
            "<h1>Refused</h1><p>This form did not come from this host's page. Open the page again and resend it.</p>",
            status=403,
        )
    return fields


def not_found() -> HTMLResponse:
    return page("Not found", "<h1>Not found</h1><p>There is nothing here, or it is not yours.</p>", status=404)


async def index(request: Request) -> Response:
    host = host_of(request)
    session = current_session(request)
    eras = "".join(
        f'<div><input type="radio" name="era" id="era-{i}" value="{esc(era)}"{" checked" if i == 0 else ""}>'
        f' <label for="era-{i}">{esc(label)}</label></div>'
        for i, (era, label) in enumerate(ERAS.items())
    )
    # A tool's title and description are the server's text: escaped, and isolated so that a
    # direction override in them cannot reorder the page around them.
    tools = "".join(
        f'<li><button type="submit" name="tool" value="{esc(tool.name)}" aria-describedby="tool-{i}">'
        f"Run {esc(tool.name)}</button> "
        f'<span id="tool-{i}">{about(tool)}</span></li>'
        for i, tool in enumerate(host.tools)
    )
    body = (
        "<h1>Example MCP host</h1>"
        f"<p>Run a tool of {esc(SERVER_NAME)}; answer what it asks; see what it received.</p>"
        '<form method="post" action="/calls">'
        f'<input type="hidden" name="{CSRF_FIELD}" value="{esc(host.csrf_token(session))}">'
        f'<fieldset><legend>Protocol version</legend>{eras}</fieldset>'
        f'<h2>Tools</h2><ul class="tools">{tools}</ul>'
        "</form>"
    )
    return with_session(request, page("Tools", body))


def about(tool: types.Tool) -> str:
    """A tool's title and description, as isolated text."""
    texts = [text for text in (tool.title, tool.description) if text]
    return ": ".join(f"<bdi>{esc(text)}</bdi>" for text in texts)


async def start_call(request: Request) -> Response:
    host = host_of(request)
    fields = await read_post(request)
    if isinstance(fields, Response):
        return fields
    posted = dict(fields)
    tool, era = posted.get("tool", ""), posted.get("era", "")
    if tool not in {t.name for t in host.tools} or era not in ERAS:
        return page("Unknown tool", "<h1>Unknown tool</h1><p>Choose a tool and a protocol version.</p>", status=400)
    call = host.start(tool, era, owner=session_of(request) or "")
    await call.settle()
    return call.next_step()


def question_page(
    request: Request,
    call: Call,
    question: Question,
    *,
    form_data: Sequence[tuple[str, str]] | None = None,
    error: toolnexus.InvalidContentError | None = None,
    status: int = 200,
) -> Response:
    """The question's page: the fragment toolnexus writes, inside the host's own page; with
    ``form_data`` and ``error``, the form again with the person's values and the problems."""
    host = host_of(request)
    session = current_session(request)
    fragment = question.request.to_html(
        form_data=form_data,
        error=error,
        asker=SERVER_NAME,
        hidden=[(CSRF_FIELD, host.csrf_token(session))],
    )
    body = f"<h1>The tool {esc(call.tool)} asks</h1>{fragment}"
    # The title is read first when the page loads: it says when the form came back refused.
    title = f"{'Error: ' if error is not None else ''}{call.tool} asks"
    return with_session(request, page(title, body, status=status))


def owned_question(request: Request) -> tuple[Call, Question] | Response:
    """The call and pending question the URL names, or where to go instead."""
    request_id = request.path_params["id"]
    call = host_of(request).by_request.get(request_id)
    if call is None or call.owner != session_of(request):
        return not_found()
    question = next((q for q in call.open if q.request.id == request_id), None)
    if question is None:
        return call.next_step()
    return call, question


async def show_question(request: Request) -> Response:
    found = owned_question(request)
    if isinstance(found, Response):
        return found
    call, question = found
    return question_page(request, call, question)


async def answer_question(request: Request) -> Response:
    fields = await read_post(request)
    if isinstance(fields, Response):
        return fields
    found = owned_question(request)
    if isinstance(found, Response):
        return found
    call, question = found
    try:
        answer = question.request.answer_from_form_data(fields, hidden=[CSRF_FIELD])
    except toolnexus.InvalidContentError as error:
        return question_page(request, call, question, form_data=fields, error=error, status=422)
    except toolnexus.Error as error:
        # Not a post of this form (a stale tab, a forged post): said, and nothing is sent.
        body = (
            f"<h1>The answer could not be read</h1><p>{esc(error.message)}</p>"
            f'<p><a href="/ask/{quote(question.request.id, safe="")}">Back to the question</a></p>'
        )
        return page("Not understood", body, status=400)
    if not question.answered.done():
        question.answered.set_result(answer)
    await call.settle(after=question)
    return call.next_step()


async def show_call(request: Request) -> Response:
    call = host_of(request).calls.get(request.path_params["id"])
    if call is None or call.owner != session_of(request):
        return not_found()
    if call.question is not None:
        return call.next_step()
    if not call.done:
        body = (
            f"<h1>{esc(call.tool)} is working</h1><p>The tool has not finished yet.</p>"
            f'<p><a href="/calls/{call.id}">Check again</a></p>'
        )
        return page(f"{call.tool} is working", body)
    outcome = "reported an error" if call.failed else "returned"
    body = (
        f"<h1>Result of {esc(call.tool)}</h1>"
        f"<p>Protocol {esc(call.era)}. The tool {outcome}:</p>"
        f'<pre><code dir="ltr">{esc(call.result)}</code></pre>'
    )
    return page(f"Result of {call.tool}", body)


def stylesheet(css: str) -> Response:
    return Response(css, media_type="text/css")


# --- The app ------------------------------------------------------------------------------


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every response, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if WORKER:
                    headers["X-Worker"] = WORKER
            await send(message)

        await self.app(scope, receive, send_with_headers)


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    tools = await list_tools()
    async with anyio.create_task_group() as tasks:
        app.state.host = Host(tools, tasks)
        yield
        tasks.cancel_scope.cancel()


TOOLNEXUS_CSS = toolnexus.html_stylesheet()
PAGE_CSS = (HERE / "page.css").read_text(encoding="utf-8")

routes = [
    Route("/", index),
    Route("/calls", start_call, methods=["POST"]),
    Route("/calls/{id}", show_call),
    Route("/ask/{id}", show_question),
    Route("/ask/{id}", answer_question, methods=["POST"]),
    Route("/toolnexus.css", lambda request: stylesheet(TOOLNEXUS_CSS)),
    Route("/page.css", lambda request: stylesheet(PAGE_CSS)),
    # Browsers ask for an icon on their own; there is none, and that is no error.
    Route("/favicon.ico", lambda request: Response(status_code=204)),
]
app = SecurityHeaders(Starlette(routes=routes, lifespan=lifespan))


def main() -> None:
    parser = argparse.ArgumentParser(description="The example web host of toolnexus.")
    parser.add_argument("--port", type=int, default=8000, help="the port on 127.0.0.1 (0: any free one)")
    scaled = parser.add_argument_group(
        "scaled out", "one worker of many: the 2026-07-28 era over HTTP, every round kept in a shared store"
    )
    scaled.add_argument("--server-url", metavar="URL", help="the MCP server's streamable HTTP endpoint")
    scaled.add_argument(
        "--store",
        metavar="STORE",
        default=os.environ.get("TOOLNEXUS_WEB_STORE"),
        help="redis://HOST:PORT/DB, or sqlite:PATH (the default: a file in the temporary directory)",
    )
    scaled.add_argument("--worker-name", metavar="NAME", help="this worker's name, on every response")
    scaled.add_argument(
        "--snapshot-key-file",
        metavar="FILE",
        type=Path,
        default=os.environ.get("TOOLNEXUS_WEB_KEY_FILE"),
        help="the keys every worker shares, one per line: the first seals the rounds, each one opens them",
    )
    scaled.add_argument("--ttl-ms", type=int, metavar="N", help="how long a question may wait for its answer")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    asgi: ASGIApp = app
    if args.server_url is not None:
        if args.snapshot_key_file is None:
            parser.error("a scaled-out worker needs --snapshot-key-file: the key all workers share")
        # scaled.py takes this module's pages and helpers by name.
        sys.modules.setdefault("app", sys.modules[__name__])
        from scaled import scaled_app

        store = args.store or f"sqlite:{Path(tempfile.gettempdir()) / 'toolnexus-web-host.db'}"
        try:
            asgi = scaled_app(
                server_url=args.server_url,
                store=store,
                worker=args.worker_name or f"pid-{os.getpid()}",
                key_file=args.snapshot_key_file,
                ttl_ms=args.ttl_ms,
            )
        except (OSError, ValueError) as error:
            parser.error(str(error))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(asgi, log_level="warning", timeout_graceful_shutdown=2))

    async def serve() -> None:
        serving = asyncio.create_task(server.serve(sockets=[listener]))
        while not server.started and not serving.done():
            await asyncio.sleep(0.05)
        if server.started:
            print(f"listening on http://127.0.0.1:{port}", flush=True)
        await serving

    asyncio.run(serve())


if __name__ == "__main__":
    main()
