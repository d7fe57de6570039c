"""toolnexus in the official ``mcp`` client: one ``wait_for`` answers every elicitation.

``elicitation_callback(wait_for)`` is what ``mcp.ClientSession(..., elicitation_callback=...)``
and ``mcp.Client(..., elicitation_callback=...)`` take. Each ``elicitation/create`` from the
server becomes a ``toolnexus.Request`` that ``wait_for`` resolves into a ``toolnexus.Answer``;
a ``toolnexus.Session`` pairs the two, so the rules are the core's::

    import toolnexus
    import toolnexus.mcp
    from mcp import ClientSession

    async def wait_for(request: toolnexus.Request) -> toolnexus.Answer:
        ...  # show request.prompt and the form (or request.url); wait for the person
        return toolnexus.Answer(request.id, True, {"name": "Ada"})

    callback = toolnexus.mcp.elicitation_callback(wait_for)
    async with ClientSession(read, write, elicitation_callback=callback,
                             message_handler=callback.message_handler()) as session:
        ...

What reaches the server:

- A form answer is validated against its ``requestedSchema`` before anything is sent. When it
  breaks the schema, ``wait_for`` is asked again with the same ``Request`` and the violations
  (if it takes a second positional parameter), up to ``max_attempts`` asks in all; after the
  last invalid answer the server gets a JSON-RPC error ``-32603`` (internal error) whose
  ``data`` lists each violation as ``Violation.to_dict()`` writes it (``pointer``, ``keyword``,
  ``message``). Nothing half-valid is sent.
- A URL request accepted is consent to open it: the result never carries content.
- Decline and cancel carry no content.
- A ``wait_for`` that raises, returns something other than an ``Answer``, or answers another
  request's id gives the server ``-32603`` (internal error) with a fixed message; the exception
  is logged on the ``toolnexus.mcp`` logger and never sent, since it may hold host details.
- Params the session refuses (a mode it does not support, a schema it cannot read, a form that
  asks for a secret under ``reject_secrets``) give ``-32602`` (invalid params) with the core's
  message and ``data`` ``{"kind", "pointer"}``; a full session gives ``-32603``.
- With a session time to live, a request not answered in time is cancelled.

The 2026-07-28 multi round-trip needs nothing more: ``mcp.Client`` sends each elicitation of
an ``input_required`` result through this same callback (concurrently, one call per key) and
retries the original request with the results. A host that drives ``ClientSession.call_tool(...,
allow_input_required=True)`` by hand does the same through
``ClientSession.dispatch_input_request``.

This module needs the ``mcp`` package (2.x): ``pip install 'toolnexus[mcp]'``.
"""

from __future__ import annotations

import inspect
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Union, cast

import anyio
import anyio.to_thread
from mcp import types
from mcp.client import ClientRequestContext
from mcp.client.session import IncomingMessage, MessageHandlerFnT

from ._errors import Error, InvalidContentError
from ._native import Answer, Request, Session, Violation, refusal_code

__all__ = [
    "ElicitationCallback",
    "WaitFor",
    "elicitation_callback",
]

logger = logging.getLogger("toolnexus.mcp")

_AnswerOrAwaitable = Union[Answer, Awaitable[Answer]]

WaitFor = Union[
    Callable[[Request], _AnswerOrAwaitable],
    Callable[[Request, Sequence[Violation]], _AnswerOrAwaitable],
]
"""How a host resolves a ``Request``: ``wait_for(request)``, or ``wait_for(request, violations)``
to also see why its previous answer to the same request was refused (empty on the first ask).
It may be ``async``; a plain function runs in a worker thread, so it may block."""

_Ask = Callable[[Request, Sequence[Violation]], _AnswerOrAwaitable]

DEFAULT_MAX_ATTEMPTS = 3
"""How many times ``wait_for`` is asked for one request before an invalid form is an error."""


def elicitation_callback(
    wait_for: WaitFor,
    *,
    session: Session | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> ElicitationCallback:
    """The ``elicitation_callback`` for ``mcp.ClientSession`` or ``mcp.Client`` that answers
    every elicitation through ``wait_for``.

    ``session`` sets the rules (modes, defaults, unknown members, secrets, time to live,
    bound on pending requests); by default a ``toolnexus.Session()`` with both modes.
    ``max_attempts`` bounds how often ``wait_for`` is asked for one request when its answers
    break the form's schema.
    """
    return ElicitationCallback(wait_for, session=session, max_attempts=max_attempts)


class ElicitationCallback:
    """Answers ``elicitation/create`` through a host's ``wait_for``; made by
    ``elicitation_callback``. Calls may run concurrently."""

    __slots__ = ("_ask", "_session", "_max_attempts")

    def __init__(
        self,
        wait_for: WaitFor,
        *,
        session: Session | None = None,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    ) -> None:
        if not callable(wait_for):
            raise TypeError(f"wait_for must be callable, not {type(wait_for).__name__}")
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
            raise ValueError(f"max_attempts must be an int of at least 1, not {max_attempts!r}")
        self._ask = _asker(wait_for)
        self._session = session if session is not None else Session()
        self._max_attempts = max_attempts

    @property
    def session(self) -> Session:
        """The session pairing each request with its answer."""
        return self._session

    @property
    def max_attempts(self) -> int:
        """How many times ``wait_for`` is asked for one request."""
        return self._max_attempts

    def __repr__(self) -> str:
        return f"ElicitationCallback(session={self._session!r}, max_attempts={self._max_attempts})"

    async def __call__(
        self,
        context: ClientRequestContext,
        params: types.ElicitRequestParams,
    ) -> types.ElicitResult | types.ErrorData:
        """Answers one ``elicitation/create``: the result, or the error, for the server."""
        try:
            request = self._session.begin(params, None, _now_ms())
        except Error as refused:
            return _refusal(refused)
        try:
            timeout = math.inf if self._session.ttl_ms is None else self._session.ttl_ms / 1000
            with anyio.move_on_after(timeout):
                return await self._answer(request)
            logger.info("elicitation %s was not answered in time; cancelled", request.id)
            return types.ElicitResult(action="cancel")
        finally:
            self._forget(request.id)

    def message_handler(self, inner: MessageHandlerFnT | None = None) -> MessageHandlerFnT:
        """A ``message_handler`` for the ``mcp`` client that passes the server's
        ``notifications/elicitation/complete`` to the session (so an accepted URL request
        stops counting against ``max_pending``), then hands every message to ``inner``."""

        async def handle(message: IncomingMessage) -> None:
            if isinstance(message, types.ElicitCompleteNotification):
                self._session.complete(message.params.elicitation_id)
            if inner is not None:
                await inner(message)

        return handle

    async def _answer(self, request: Request) -> types.ElicitResult | types.ErrorData:
        """Asks until an answer the session accepts, or the attempts run out."""
        violations: Sequence[Violation] = ()
        for _ in range(self._max_attempts):
            try:
                answer = await self._wait(request, violations)
            except Exception:
                logger.exception("wait_for raised while answering elicitation %s", request.id)
                return _host_failure("the host failed while answering the elicitation")
            if not isinstance(answer, Answer):
                logger.error("wait_for returned %s, not a toolnexus.Answer", type(answer).__name__)
                return _host_failure("the host gave no answer to the elicitation")
            if answer.id != request.id:
                logger.error("wait_for answered %r while asked %r", answer.id, request.id)
                return _host_failure("the host answered a different elicitation")
            try:
                result = self._session.resolve(answer, _now_ms())
            except InvalidContentError as invalid:
                violations = tuple(invalid.violations)
                continue
            except Error:
                logger.exception("the answer to elicitation %s cannot be sent", request.id)
                return _host_failure("the host's answer to the elicitation cannot be sent")
            return types.ElicitResult.model_validate_json(result.to_json())
        attempts = f"{self._max_attempts} attempt{'' if self._max_attempts == 1 else 's'}"
        return types.ErrorData(
            code=types.INTERNAL_ERROR,
            message=f"the host gave no valid answer to the form in {attempts}",
            data={"violations": [v.to_dict() for v in violations]},
        )

    async def _wait(self, request: Request, violations: Sequence[Violation]) -> object:
        """Calls ``wait_for``: a coroutine function on the event loop, anything else in a
        worker thread; an awaitable it returns is awaited."""
        if _is_async(self._ask):
            outcome: object = self._ask(request, violations)
        else:
            outcome = await anyio.to_thread.run_sync(
                self._ask, request, violations, abandon_on_cancel=True
            )
        if inspect.isawaitable(outcome):
            outcome = await outcome
        return outcome

    def _forget(self, request_id: str) -> None:
        """Withdraws a request left pending (wait_for raised, ran out of attempts or was
        cancelled), so it never lingers in the session; one answered meanwhile is gone
        already."""
        self._session.withdraw(request_id)


def _asker(wait_for: WaitFor) -> _Ask:
    """``wait_for`` called as ``ask(request, violations)``, whichever form it has."""
    if _takes_two(wait_for):
        return cast(_Ask, wait_for)
    one = cast(Callable[[Request], _AnswerOrAwaitable], wait_for)
    if _is_async(wait_for):

        async def ask_async(request: Request, violations: Sequence[Violation]) -> Answer:
            return await cast(Awaitable[Answer], one(request))

        return ask_async

    def ask(request: Request, violations: Sequence[Violation]) -> _AnswerOrAwaitable:
        return one(request)

    return ask


def _takes_two(function: Callable[..., Any]) -> bool:
    """Whether ``function`` accepts a second positional argument."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = 0
    for parameter in parameters:
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            return True
        if parameter.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
            positional += 1
    return positional >= 2


def _is_async(function: Callable[..., Any]) -> bool:
    """Whether calling ``function`` gives a coroutine (a coroutine function, or an object
    whose ``__call__`` is one)."""
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
        getattr(function, "__call__", None)
    )


def _refusal(error: Error) -> types.ErrorData:
    """The error for params the session will not begin, with the core's code for its kind."""
    return types.ErrorData(
        code=refusal_code(error.kind),
        message=str(error),
        data={"kind": error.kind, "pointer": error.pointer},
    )


def _host_failure(message: str) -> types.ErrorData:
    return types.ErrorData(code=types.INTERNAL_ERROR, message=message)


def _now_ms() -> int:
    return time.time_ns() // 1_000_000
