"""``ReverseBridge``: the MCP 2025 wire, JSON-RPC ``elicitation/create`` in and responses out."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import toolnexus
from toolnexus import Answer, Incoming, Number, ReverseBridge

FORM = {
    "message": "Age?",
    "requestedSchema": {
        "type": "object",
        "properties": {"age": {"type": "integer", "minimum": 18}},
        "required": ["age"],
    },
}
URL = {"mode": "url", "message": "Log in", "url": "https://example.com/auth", "elicitationId": "e-1"}


def create(id: Any, params: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": "elicitation/create", "params": params})


def notification(method: str, params: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", "method": method, "params": params})


def elicit(bridge: ReverseBridge, message: str | bytes, now: int) -> toolnexus.Request:
    incoming = bridge.receive(message, now)
    assert incoming.type == "elicit", incoming
    assert incoming.request is not None
    return incoming.request


def test_a_form_conversation_echoes_the_id_as_spelt() -> None:
    bridge = ReverseBridge()
    incoming = bridge.receive(create(1, FORM).replace('"id": 1', '"id": 1.0'), 16)
    assert incoming.type == "elicit"
    assert incoming.rpc_id == Number("1.0") and isinstance(incoming.rpc_id, Number)
    assert (incoming.reply, incoming.request_id, incoming.reason) == (None, None, None)
    request = incoming.request
    assert request is not None and request.id == "elc-10-1"
    assert bridge.rpc_id("elc-10-1") == Number("1.0")
    assert [r.id for r in bridge.pending()] == ["elc-10-1"]

    with pytest.raises(toolnexus.InvalidContentError) as invalid:
        bridge.respond(Answer("elc-10-1", True, {"age": 17}), 17)
    assert [v.keyword for v in invalid.value.violations] == ["minimum"]
    response = bridge.respond({"id": "elc-10-1", "ok": True, "data": {"age": 18}}, 18)
    assert response == '{"jsonrpc":"2.0","id":1.0,"result":{"action":"accept","content":{"age":18}}}'
    assert bridge.pending() == [] and bridge.rpc_id("elc-10-1") is None
    with pytest.raises(toolnexus.UnknownRequestError):
        bridge.respond(Answer("elc-10-1", True, {"age": 18}), 19)


def test_string_and_big_ids() -> None:
    bridge = ReverseBridge()
    assert bridge.receive(create("abc", FORM), 0).rpc_id == "abc"
    big = create(1, FORM).replace('"id": 1', '"id": 123456789012345678901234567890')
    incoming = bridge.receive(big.encode(), 0)
    assert incoming.rpc_id == 123456789012345678901234567890
    assert incoming.request is not None
    reply = bridge.respond(Answer(incoming.request.id, False, reason="declined"), 0)
    assert reply == '{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{"action":"decline"}}'


def test_a_url_conversation() -> None:
    bridge = ReverseBridge()
    request = elicit(bridge, create("u", URL), 0)
    assert (request.kind, request.url) == ("authorization", URL["url"])
    assert bridge.respond(Answer(request.id, True), 0) == '{"jsonrpc":"2.0","id":"u","result":{"action":"accept"}}'
    assert bridge.awaiting_completion() == [(request.id, "e-1")]
    done = bridge.receive(notification("notifications/elicitation/complete", {"elicitationId": "e-1"}), 1)
    assert done.type == "completed" and done.request_id == request.id and done.reply is None


def test_completion_before_the_answer_sends_a_cancel() -> None:
    bridge = ReverseBridge()
    elicit(bridge, create(3, URL), 0)
    done = bridge.receive(notification("notifications/elicitation/complete", {"elicitationId": "e-1"}), 1)
    assert (done.type, done.request_id) == ("completed", "elc-0-1")
    assert done.reply == '{"jsonrpc":"2.0","id":3,"result":{"action":"cancel"}}'
    again = bridge.receive(notification("notifications/elicitation/complete", {"elicitationId": "e-1"}), 2)
    assert (again.type, again.reason) == ("ignored", "unknown_elicitation")


def test_withdrawn_and_ignored() -> None:
    bridge = ReverseBridge()
    elicit(bridge, create(9, FORM), 0)
    withdrawn = bridge.receive(notification("notifications/cancelled", {"requestId": 9}), 0)
    assert (withdrawn.type, withdrawn.request_id) == ("withdrawn", "elc-0-1")
    assert bridge.pending() == []
    reasons = [
        bridge.receive(notification("notifications/cancelled", {"requestId": 9}), 0).reason,
        bridge.receive(notification("notifications/cancelled", {}), 0).reason,
        bridge.receive(notification("notifications/progress", {}), 0).reason,
        bridge.receive('{"jsonrpc":"2.0","id":1,"result":{}}', 0).reason,
    ]
    assert reasons == ["unknown_request", "malformed_notification", "notification", "response"]


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("{", -32700),
        (b"\xff", -32700),
        ("\ud800", -32700),
        ('{"jsonrpc":"1.0","id":1,"method":"x"}', -32600),
        ('{"jsonrpc":"2.0","id":null,"method":"x"}', -32600),
        ('{"jsonrpc":"2.0","id":1,"method":"ping"}', -32601),
        (create(1, {"requestedSchema": FORM["requestedSchema"]}), -32602),
        ('{"jsonrpc":"2.0","id":1,"method":"elicitation/create"}', -32602),
        (create(1, {"mode": "url", "message": "x", "url": "https://e.com"}), -32602),
    ],
)
def test_what_is_wrong_with_a_message_is_a_reply(message: str | bytes, code: int) -> None:
    bridge = ReverseBridge()
    incoming = bridge.receive(message, 0)
    assert incoming.type == "reply" and incoming.reply is not None
    assert json.loads(incoming.reply)["error"]["code"] == code
    assert bridge.pending() == []


def test_modes_limits_bounds_and_duplicates() -> None:
    bridge = ReverseBridge(modes=["form"], max_pending=1)
    assert bridge.modes == ("form",)
    assert bridge.capabilities() == {"elicitation": {"form": {}}}
    refused = bridge.receive(create(4, URL), 0)
    assert refused.reply == (
        '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"the server asked for url mode, '
        'but this client supports form mode only (at /params/mode)"}}'
    )
    elicit(bridge, create(5, FORM), 0)
    assert json.loads(bridge.receive(create(5, FORM), 0).reply or "")["error"]["code"] == -32600
    assert json.loads(bridge.receive(create(6, FORM), 0).reply or "")["error"]["code"] == -32603
    tight = bridge.receive(create(7, FORM), 0, limits=toolnexus.Limits(max_input_bytes=16))
    assert json.loads(tight.reply or "")["error"]["code"] == -32700
    assert ReverseBridge(modes=()).capabilities() == {}


def test_fail_expire_and_cancel_all() -> None:
    bridge = ReverseBridge(ttl_ms=100)
    first = elicit(bridge, create(1, FORM), 0)
    elicit(bridge, create(2, FORM), 50)
    third = elicit(bridge, create(3, FORM), 60)
    assert first.expires_at == "1970-01-01T00:00:00.100Z"
    assert bridge.fail(third.id, "no screen") == (
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"no screen"}}'
    )
    with pytest.raises(toolnexus.UnknownRequestError):
        bridge.fail(third.id)
    assert bridge.expire(101) == ['{"jsonrpc":"2.0","id":1,"result":{"action":"cancel"}}']
    assert bridge.cancel_all() == ['{"jsonrpc":"2.0","id":2,"result":{"action":"cancel"}}']
    assert bridge.cancel_all() == []


def url_required(*elicitations: Any) -> str:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "error": {
                "code": -32042,
                "message": "This request requires more information.",
                "data": {"elicitations": list(elicitations)},
            },
        }
    )


def test_a_url_required_error() -> None:
    bridge = ReverseBridge()
    requests = bridge.url_required(url_required(URL, dict(URL, elicitationId="e-2")), 1000)
    assert [(r.id, r.url) for r in requests] == [("elc-3e8-1", URL["url"]), ("elc-3e8-2", URL["url"])]
    assert bridge.rpc_id("elc-3e8-1") is None
    assert bridge.url_required(url_required(URL), 1001) == [], "a repeated elicitation is not begun twice"
    assert bridge.respond(Answer("elc-3e8-1", True), 1002) is None
    assert bridge.fail("elc-3e8-2", "") is None
    done = bridge.receive(notification("notifications/elicitation/complete", {"elicitationId": "e-1"}), 1003)
    assert (done.type, done.request_id, done.reply) == ("completed", "elc-3e8-1", None)


def test_url_required_errors_begin_nothing() -> None:
    bridge = ReverseBridge()
    cases: list[tuple[str | bytes, type[toolnexus.Error], str]] = [
        (url_required(URL).replace("-32042", "-32603"), toolnexus.InvalidValueError, "/error/code"),
        (url_required(FORM), toolnexus.InvalidValueError, "/error/data/elicitations/0/mode"),
        (url_required(URL, {"mode": "url", "message": "x", "url": "https://e.com"}),
         toolnexus.MissingFieldError, "/error/data/elicitations/1/elicitationId"),
        ('{"jsonrpc":"2.0","id":2,"error":{"code":-32042,"message":"m"}}', toolnexus.MissingFieldError, "/error/data"),
        (b"[", toolnexus.InvalidJsonError, "/0"),
    ]
    for text, error, path in cases:
        with pytest.raises(error) as raised:
            bridge.url_required(text, 0)
        assert raised.value.pointer == path, text
    assert bridge.pending() == []
    with pytest.raises(toolnexus.ModeNotSupportedError):
        ReverseBridge(modes="form").url_required(url_required(URL), 0)
    with pytest.raises(TypeError):
        bridge.url_required({"jsonrpc": "2.0"}, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        bridge.receive(None, 0)  # type: ignore[arg-type]


def test_incoming_is_a_frozen_value() -> None:
    bridge = ReverseBridge()
    a = bridge.receive('{"jsonrpc":"2.0","method":"x"}', 0)
    b = ReverseBridge().receive('{"jsonrpc":"2.0","method":"x"}', 0)
    assert a == b and a != bridge.receive("{", 0)
    assert repr(a) == "Incoming(type='ignored', reason='notification')"
    with pytest.raises(AttributeError):
        a.type = "reply"  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(a)
    assert type(a).__module__ == "toolnexus" and isinstance(a, Incoming)


def test_threads_sharing_one_bridge() -> None:
    bridge = ReverseBridge(max_pending=10_000)
    barrier = threading.Barrier(8)

    def converse(worker: int) -> list[str | None]:
        barrier.wait()
        replies = []
        for i in range(100):
            incoming = bridge.receive(create(f"w{worker}-{i}", FORM), worker)
            assert incoming.request is not None
            replies.append(bridge.respond(Answer(incoming.request.id, True, {"age": 20 + i}), worker))
        return replies

    with ThreadPoolExecutor(8) as pool:
        replies = [r for batch in pool.map(converse, range(8)) for r in batch]
    assert len(set(replies)) == 800
    assert all(r is not None and '"action":"accept"' in r for r in replies)
    assert bridge.pending() == []
