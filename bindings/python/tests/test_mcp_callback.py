"""``toolnexus.mcp.elicitation_callback`` called as the ``mcp`` client calls it, with the
package's own param models: what each answer of the host becomes for the server."""

from __future__ import annotations

import logging
import threading
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any

import anyio
import pytest
from mcp import ClientSession, types
from mcp.client import ClientRequestContext

import toolnexus
import toolnexus.mcp
from toolnexus import Answer, Request, Session, Violation

pytestmark = pytest.mark.anyio

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "email": {"type": "string", "format": "email"},
        "age": {"type": "integer", "minimum": 18, "maximum": 130},
        "newsletter": {"type": "boolean", "default": False},
        "plan": {"type": "string", "oneOf": [{"const": "free", "title": "Free"}, {"const": "pro", "title": "Pro"}]},
        "topics": {"type": "array", "items": {"type": "string", "enum": ["rust", "python", "mcp"]}},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
    },
    "required": ["email", "age", "plan"],
}
FORM = types.ElicitRequestFormParams(message="Register", requested_schema=SCHEMA)
URL = types.ElicitRequestURLParams(message="Sign in", url="https://auth.example.com/x", elicitation_id="e-7")
VALID: dict[str, Any] = {
    "email": "ada@example.com",
    "age": 36,
    "newsletter": True,
    "plan": "pro",
    "topics": ["rust", "mcp"],
}
INVALID: dict[str, Any] = {"email": "not an address", "age": 12, "plan": "gold"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def context() -> Iterator[ClientRequestContext]:
    send, receive = anyio.create_memory_object_stream[Any](1)
    with send, receive:
        yield ClientRequestContext(session=ClientSession(receive, send), request_id=1)


class Script:
    """A host that answers from a list, recording every ask."""

    def __init__(self, *replies: Callable[[Request], Answer]) -> None:
        self.replies = list(replies)
        self.asked: list[tuple[Request, tuple[Violation, ...]]] = []

    def __call__(self, request: Request, violations: Sequence[Violation]) -> Answer:
        self.asked.append((request, tuple(violations)))
        return self.replies.pop(0)(request)


def accept(data: dict[str, Any] | None = None) -> Callable[[Request], Answer]:
    return lambda request: Answer(request.id, True, data)


async def test_a_form_accepted_with_every_field_kind(context: ClientRequestContext) -> None:
    host = Script(accept({**VALID, "ratio": toolnexus.Number("0.50")}))
    callback = toolnexus.mcp.elicitation_callback(host)
    result = await callback(context, FORM)
    assert isinstance(result, types.ElicitResult)
    assert result.action == "accept"
    assert result.content == {**VALID, "ratio": 0.5}
    [(request, violations)] = host.asked
    assert (request.kind, request.prompt, request.schema, violations) == ("input", "Register", SCHEMA, ())
    assert request.id.startswith("elc-")
    assert len(callback.session) == 0


async def test_url_consent_never_carries_content(context: ClientRequestContext) -> None:
    host = Script(accept({"token": "secret"}))
    callback = toolnexus.mcp.elicitation_callback(host)
    result = await callback(context, URL)
    assert result == types.ElicitResult(action="accept")
    assert result.model_dump(by_alias=True, exclude_none=True) == {"action": "accept"}
    [(request, _)] = host.asked
    assert (request.kind, request.url, request.data) == ("authorization", "https://auth.example.com/x", None)
    assert callback.session.awaiting_completion() == [(request.id, "e-7")]

    handler = callback.message_handler()
    seen: list[object] = []

    async def inner(message: object) -> None:
        seen.append(message)

    done = types.ElicitCompleteNotification(params=types.ElicitCompleteNotificationParams(elicitation_id="e-7"))
    await callback.message_handler(inner)(done)
    await handler(done)
    assert callback.session.awaiting_completion() == [] and seen == [done]


@pytest.mark.parametrize(
    ("reason", "action"), [("declined", "decline"), ("closed the dialog", "cancel"), (None, "cancel")]
)
async def test_decline_and_cancel_carry_no_content(
    context: ClientRequestContext, reason: str | None, action: str
) -> None:
    for params in (FORM, URL):
        callback = toolnexus.mcp.elicitation_callback(lambda r: Answer(r.id, False, {"age": 40}, reason))
        result = await callback(context, params)
        assert result == types.ElicitResult(action=action)  # type: ignore[arg-type]
        assert len(callback.session) == 0 and callback.session.awaiting_completion() == []


async def test_invalid_then_corrected(context: ClientRequestContext) -> None:
    host = Script(accept(INVALID), accept(VALID))
    result = await toolnexus.mcp.elicitation_callback(host)(context, FORM)
    assert result == types.ElicitResult(action="accept", content=VALID)
    [(first, none), (again, violations)] = host.asked
    assert first == again and none == ()
    assert [(v.pointer, v.keyword) for v in violations] == [("/email", "format"), ("/age", "minimum"), ("/plan", "oneOf")]


async def test_invalid_every_time_is_an_error_after_the_bound(context: ClientRequestContext) -> None:
    host = Script(accept(INVALID), accept({"age": 20}))
    callback = toolnexus.mcp.elicitation_callback(host, max_attempts=2)
    assert callback.max_attempts == 2
    result = await callback(context, FORM)
    assert isinstance(result, types.ErrorData)
    assert result.code == types.INTERNAL_ERROR == -32603
    assert result.message == "the host gave no valid answer to the form in 2 attempts"
    # Each violation as Violation.to_dict() writes it: the same shape everywhere.
    sent = result.data["violations"]
    assert [(v["pointer"], v["keyword"]) for v in sent] == [("/email", "required"), ("/plan", "required")]
    assert all(list(v) == ["pointer", "keyword", "message"] and v["message"] for v in sent)
    assert len(host.asked) == 2 and len(callback.session) == 0


async def test_one_parameter_wait_for_is_asked_again_without_violations(context: ClientRequestContext) -> None:
    asked: list[Request] = []

    def wait_for(request: Request) -> Answer:
        asked.append(request)
        return Answer(request.id, True, INVALID if len(asked) == 1 else VALID)

    assert await toolnexus.mcp.elicitation_callback(wait_for)(context, FORM) == types.ElicitResult(
        action="accept", content=VALID
    )
    assert len(asked) == 2 and asked[0] == asked[1]


async def test_async_wait_for_runs_on_the_loop(context: ClientRequestContext) -> None:
    loop_thread = threading.get_ident()
    seen: list[tuple[int, tuple[Violation, ...]]] = []

    async def wait_for(request: Request, violations: Sequence[Violation] = ()) -> Answer:
        await anyio.sleep(0)
        seen.append((threading.get_ident(), tuple(violations)))
        return Answer(request.id, True, INVALID if len(seen) == 1 else VALID)

    result = await toolnexus.mcp.elicitation_callback(wait_for)(context, FORM)
    assert result == types.ElicitResult(action="accept", content=VALID)
    assert [thread for thread, _ in seen] == [loop_thread, loop_thread]
    assert seen[0][1] == () and len(seen[1][1]) == 3


async def test_sync_wait_for_runs_in_a_worker_thread(context: ClientRequestContext) -> None:
    threads: list[int] = []

    def wait_for(request: Request) -> Answer:
        threads.append(threading.get_ident())
        return Answer(request.id, True, VALID)

    await toolnexus.mcp.elicitation_callback(wait_for)(context, FORM)
    assert threads and threads[0] != threading.get_ident()


async def test_a_sync_function_returning_an_awaitable(context: ClientRequestContext) -> None:
    async def later(request: Request) -> Answer:
        return Answer(request.id, False, reason="declined")

    def wait_for(request: Request) -> Awaitable[Answer]:
        return later(request)

    assert await toolnexus.mcp.elicitation_callback(wait_for)(context, FORM) == types.ElicitResult(action="decline")


async def test_a_raising_wait_for_is_an_internal_error(
    context: ClientRequestContext, caplog: pytest.LogCaptureFixture
) -> None:
    async def wait_for(request: Request) -> Answer:
        raise RuntimeError("database password is hunter2")

    callback = toolnexus.mcp.elicitation_callback(wait_for)
    with caplog.at_level(logging.ERROR, logger="toolnexus.mcp"):
        result = await callback(context, FORM)
    assert result == types.ErrorData(code=-32603, message="the host failed while answering the elicitation")
    assert "hunter2" not in result.model_dump_json(), "the exception stays with the host"
    assert "hunter2" in caplog.text
    assert len(callback.session) == 0, "the request does not linger"

    def sync_raises(request: Request) -> Answer:
        raise KeyError(request.id)

    assert isinstance(await toolnexus.mcp.elicitation_callback(sync_raises)(context, URL), types.ErrorData)


async def test_wrong_answers_are_internal_errors(context: ClientRequestContext) -> None:
    cases: list[tuple[Callable[[Request], Any], str]] = [
        (lambda r: {"id": r.id, "ok": True}, "the host gave no answer to the elicitation"),
        (lambda r: Answer("someone-else", True, VALID), "the host answered a different elicitation"),
        (lambda r: Answer(r.id, True, {"email": {"x": 1}}), "the host gave no valid answer to the form in 1 attempt"),
    ]
    for reply, message in cases:
        result = await toolnexus.mcp.elicitation_callback(reply, max_attempts=1)(context, FORM)
        assert isinstance(result, types.ErrorData)
        assert (result.code, result.message) == (-32603, message)


async def test_an_answer_for_another_pending_request_resolves_nothing(context: ClientRequestContext) -> None:
    session = Session()
    other = session.begin({"message": "Other?", "requestedSchema": SCHEMA}, "other", 0)
    callback = toolnexus.mcp.elicitation_callback(lambda r: Answer(other.id, False), session=session)
    assert isinstance(await callback(context, FORM), types.ErrorData)
    assert [r.id for r in session.pending()] == ["other"]


async def test_the_session_sets_the_rules(context: ClientRequestContext) -> None:
    forms_only = toolnexus.mcp.elicitation_callback(accept(), session=Session(modes="form"))
    result = await forms_only(context, URL)
    assert isinstance(result, types.ErrorData)
    assert result.code == types.INVALID_PARAMS == -32602
    assert result.data == {"kind": "mode_not_supported", "pointer": "/mode"}

    secret = types.ElicitRequestFormParams(
        message="Key?", requested_schema={"type": "object", "properties": {"api_key": {"type": "string"}}}
    )
    careful = toolnexus.mcp.elicitation_callback(accept({"api_key": "k"}), session=Session(reject_secrets=True))
    refused = await careful(context, secret)
    assert isinstance(refused, types.ErrorData)
    assert (refused.code, refused.data["kind"]) == (-32602, "sensitive_field")

    broken = types.ElicitRequestFormParams(message="?", requested_schema={"type": "object", "properties": 3})
    unreadable = await toolnexus.mcp.elicitation_callback(accept())(context, broken)
    assert isinstance(unreadable, types.ErrorData)
    assert unreadable.data == {"kind": "wrong_type", "pointer": "/requestedSchema/properties"}

    defaults = toolnexus.mcp.elicitation_callback(
        accept({"email": "a@b.co", "age": 20, "plan": "free"}), session=Session(apply_defaults=True)
    )
    filled = await defaults(context, FORM)
    assert filled == types.ElicitResult(
        action="accept", content={"email": "a@b.co", "age": 20, "newsletter": False, "plan": "free"}
    )


async def test_a_full_session_is_an_internal_error(context: ClientRequestContext) -> None:
    session = Session(max_pending=1)
    session.begin(FORM, "held", 0)
    result = await toolnexus.mcp.elicitation_callback(accept(VALID), session=session)(context, FORM)
    assert isinstance(result, types.ErrorData)
    assert (result.code, result.data["kind"]) == (-32603, "too_many_pending")


async def test_an_unanswered_request_expires_as_a_cancel(context: ClientRequestContext) -> None:
    async def never(request: Request) -> Answer:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    callback = toolnexus.mcp.elicitation_callback(never, session=Session(ttl_ms=50))
    with anyio.fail_after(5):
        result = await callback(context, FORM)
    assert result == types.ElicitResult(action="cancel")
    assert len(callback.session) == 0


async def test_a_cancelled_call_leaves_nothing_pending(context: ClientRequestContext) -> None:
    started = anyio.Event()

    async def wait_for(request: Request) -> Answer:
        started.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    callback = toolnexus.mcp.elicitation_callback(wait_for)
    async with anyio.create_task_group() as group:
        group.start_soon(callback, context, FORM)
        await started.wait()
        assert len(callback.session) == 1
        group.cancel_scope.cancel()
    assert len(callback.session) == 0


async def test_concurrent_elicitations_each_get_their_answer(context: ClientRequestContext) -> None:
    async def wait_for(request: Request) -> Answer:
        await anyio.sleep(0.01)
        return Answer(request.id, True, {"email": "a@b.co", "age": len(request.prompt) + 18, "plan": "free"})

    callback = toolnexus.mcp.elicitation_callback(wait_for)
    results: dict[int, types.ElicitResult | types.ErrorData] = {}

    async def one(n: int) -> None:
        params = types.ElicitRequestFormParams(message="x" * n, requested_schema=SCHEMA)
        results[n] = await callback(context, params)

    async with anyio.create_task_group() as group:
        for n in range(1, 21):
            group.start_soon(one, n)
    for n, result in results.items():
        assert isinstance(result, types.ElicitResult) and result.content is not None
        assert result.content["age"] == n + 18
    assert len(results) == 20 and len(callback.session) == 0


def test_the_callback_fits_the_mcp_client() -> None:
    async def wait_for(request: Request) -> Answer:
        return Answer(request.id, False)

    callback = toolnexus.mcp.elicitation_callback(wait_for)
    send, receive = anyio.create_memory_object_stream[Any](1)
    with send, receive:
        ClientSession(receive, send, elicitation_callback=callback, message_handler=callback.message_handler())
    assert repr(callback) == "ElicitationCallback(session=Session(modes=('form', 'url'), pending=0), max_attempts=3)"
    assert toolnexus.mcp.__all__ == ["ElicitationCallback", "WaitFor", "elicitation_callback"]


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        toolnexus.mcp.elicitation_callback(3)  # type: ignore[arg-type]
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError):
            toolnexus.mcp.elicitation_callback(accept(), max_attempts=bad)  # type: ignore[arg-type]
