"""``InputRound`` and its kin: the MCP 2026-07-28 multi round-trip, from ``input_required`` to
the exact retry."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import toolnexus
from toolnexus import Answer, ClientRequest, InputRequired, InputRound, Number

CAPS = '"io.modelcontextprotocol/clientCapabilities"'
CALL = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"}}}'
REGION = {
    "method": "elicitation/create",
    "params": {
        "message": "Which region?",
        "requestedSchema": {
            "type": "object",
            "properties": {"region": {"type": "string", "enum": ["eu", "us"]}},
            "required": ["region"],
        },
    },
}
LOGIN = {"method": "elicitation/create", "params": {"mode": "url", "message": "Sign in", "url": "https://a.example/x"}}
SAMPLING = {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 50}}


def input_required(id: Any = 1, state: str | None = "st-1", **requests: Any) -> str:
    result: dict[str, Any] = {"resultType": "input_required", "inputRequests": requests}
    if state is not None:
        result["requestState"] = state
    return json.dumps({"jsonrpc": "2.0", "id": id, "result": result})


def test_a_whole_form_conversation() -> None:
    round, requests = InputRound.start(CALL, input_required(region=REGION), 0)
    [(key, request)] = requests
    assert (key, request.id, request.kind, request.prompt) == ("region", "elc-0-1", "input", "Which region?")
    assert round.pending() == [("region", request)]
    assert round.missing() == ["region"] and round.unhandled() == []
    assert round.request_state == "st-1" and round.answered_id == 1

    with pytest.raises(toolnexus.InvalidContentError) as invalid:
        round.resolve(Answer(request.id, True, {"region": "mars"}), 1)
    assert [v.keyword for v in invalid.value.violations] == ["enum"]
    with pytest.raises(toolnexus.MissingResponsesError) as missing:
        round.retry(2)
    assert '"region"' in missing.value.message

    key, result = round.resolve({"id": request.id, "ok": True, "data": {"region": "eu"}}, 2)
    assert (key, result.to_json()) == ("region", '{"action":"accept","content":{"region":"eu"}}')
    assert round.pending() == [] and round.missing() == []
    retry = round.retry(2)
    assert retry == (
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{' + CAPS + ':{"elicitation":'
        '{"form":{},"url":{}}}},"name":"deploy","arguments":{"env":"prod"},"inputResponses":{"region":'
        '{"action":"accept","content":{"region":"eu"}}},"requestState":"st-1"}}'
    )

    with pytest.raises(toolnexus.InvalidValueError):
        round.retry(2)
    with pytest.raises(toolnexus.InvalidValueError):
        round.retry(Number("2.0"))
    with pytest.raises(toolnexus.InvalidValueError):
        round.retry(Number("2.5"))
    assert '"id":"again"' in round.retry("again")


def test_a_url_round_and_a_second_round() -> None:
    round, [(key, login)] = InputRound.start(
        ClientRequest.from_json(CALL), InputRequired.from_json(input_required(login=LOGIN, state=None)), 1000
    )
    assert (key, login.id, login.kind, login.url) == ("login", "elc-3e8-1", "authorization", "https://a.example/x")
    assert round.request_state is None
    round.resolve(Answer(login.id, True, {"ignored": True}), 1000)
    with pytest.raises(toolnexus.InvalidValueError):
        round.next_round(input_required(2, region=REGION), 1001)
    retry = round.retry("r2")
    assert retry.endswith('"inputResponses":{"login":{"action":"accept"}}}}')

    second, [(key, region)] = round.next_round(input_required("r2", state="st-2", region=REGION), 2000)
    assert (key, region.id) == ("region", "elc-7d0-2"), "ids go on counting"
    assert second.answered_id == "r2" and second.request_state == "st-2"
    second.resolve(Answer(region.id, False, reason="declined"), 2001)
    with pytest.raises(toolnexus.InvalidValueError):
        second.retry(1)
    final = second.retry(3)
    assert '"inputResponses":{"region":{"action":"decline"}},"requestState":"st-2"' in final
    with pytest.raises(toolnexus.InvalidValueError) as wrong_id:
        second.next_round(input_required(99, region=REGION), 0)
    assert wrong_id.value.pointer == "/id"


def test_unhandled_requests_are_supplied_by_the_host() -> None:
    round, requests = InputRound.start(json.loads(CALL), input_required(region=REGION, summary=SAMPLING), 0)
    [unhandled] = round.unhandled()
    assert (unhandled.key, unhandled.method, unhandled.is_elicitation) == ("summary", "sampling/createMessage", False)
    assert unhandled.params == SAMPLING["params"]
    assert [r.is_elicitation for r in round.input_required.input_requests] == [True, False]
    with pytest.raises(toolnexus.UnknownRequestError):
        round.supply("nope", {})
    with pytest.raises(toolnexus.InvalidValueError):
        round.supply("region", {"action": "accept"})
    with pytest.raises(toolnexus.WrongTypeError):
        round.supply("summary", "text")  # type: ignore[arg-type]
    round.supply("summary", {"role": "assistant", "score": Number("0.50")})
    assert round.missing() == ["region"]
    partial = round.retry(2, partial=True)
    assert '"inputResponses":{"summary":{"role":"assistant","score":0.50}}' in partial


def test_expire_and_cancel_pending() -> None:
    two = input_required(a=REGION, b=REGION, c=LOGIN)
    round, requests = InputRound.start(CALL, two, 0, ttl_ms=10)
    assert all(r.expires_at == "1970-01-01T00:00:00.010Z" for _, r in requests)
    round.resolve(Answer(requests[0][1].id, True, {"region": "us"}), 5)
    assert [(k, r.action) for k, r in round.expire(11)] == [("b", "cancel"), ("c", "cancel")]
    round2, _ = InputRound.start(CALL, two, 0)
    assert [k for k, _ in round2.cancel_pending()] == ["a", "b", "c"]
    assert round2.missing() == []
    assert '"b":{"action":"cancel"}' in round2.retry(2)


def test_start_errors_point_into_their_text() -> None:
    with pytest.raises(toolnexus.ModeNotSupportedError) as mode:
        InputRound.start(CALL, input_required(login=LOGIN), 0, modes="form")
    assert mode.value.pointer == "/result/inputRequests/login/params/mode"
    with pytest.raises(toolnexus.InvalidValueError) as other:
        InputRound.start(CALL, input_required(7, region=REGION), 0)
    assert other.value.pointer == "/id"
    with pytest.raises(toolnexus.SensitiveFieldError):
        secret = {"method": "elicitation/create", "params": {"message": "k", "requestedSchema": {
            "type": "object", "properties": {"password": {"type": "string"}}}}}
        InputRound.start(CALL, input_required(s=secret), 0, reject_secrets=True)
    with pytest.raises(toolnexus.TooManyPendingError):
        InputRound.start(CALL, input_required(a=REGION, b=REGION), 0, max_pending=1)
    with pytest.raises(toolnexus.InvalidValueError) as complete:
        InputRequired.from_json('{"resultType":"complete"}')
    assert complete.value.pointer == "/resultType"
    with pytest.raises(toolnexus.MissingFieldError):
        ClientRequest.from_json('{"jsonrpc":"2.0","method":"x"}')
    with pytest.raises(toolnexus.InvalidJsonError):
        InputRound.start("{", input_required(region=REGION), 0)
    with pytest.raises(toolnexus.TooLargeError):
        InputRound.start(CALL, input_required(region=REGION), 0, limits=toolnexus.Limits(max_input_bytes=100))
    with pytest.raises(toolnexus.WrongTypeError) as number:
        InputRound.start(CALL, 3, 0)  # type: ignore[arg-type]
    assert number.value.pointer == ""


def test_retry_ids() -> None:
    round, _ = InputRound.start(CALL, input_required(state="s"), 0)
    with pytest.raises(toolnexus.InvalidValueError):
        round.retry(Number("1.0"))
    with pytest.raises(toolnexus.WrongTypeError):
        round.retry(True)
    with pytest.raises(toolnexus.WrongTypeError):
        round.retry([2])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        round.retry(None)  # type: ignore[arg-type]
    big = 10**30
    assert f'"id":{big},' in round.retry(big)


def test_client_request_and_capabilities() -> None:
    request = ClientRequest.from_json(CALL.replace('"id":1', '"id":1e2'))
    assert request.id == Number("1e2") and request.method == "tools/call"
    assert request.params == {"name": "deploy", "arguments": {"env": "prod"}}
    stamped = request.with_client_capabilities(modes="url")
    assert stamped.to_json().startswith('{"jsonrpc":"2.0","id":1e2,"method":"tools/call","params":{"_meta":{' + CAPS)
    assert stamped != request and ClientRequest.from_dict(toolnexus.from_json(stamped.to_json())) == stamped
    assert toolnexus.with_client_capabilities(CALL, modes=()) == (
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{' + CAPS + ':{}},'
        '"name":"deploy","arguments":{"env":"prod"}}}'
    )
    assert toolnexus.with_client_capabilities(request) == request.with_client_capabilities().to_json()
    with pytest.raises(toolnexus.WrongTypeError):
        toolnexus.with_client_capabilities('{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":3}}')
    assert repr(request) == "ClientRequest(id=Number('1e2'), method='tools/call')"


def test_classify_result() -> None:
    complete = toolnexus.classify_result('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}')
    assert (complete.type, complete.result, complete.input_required) == ("complete", {"content": []}, None)
    asked = toolnexus.classify_result(input_required(region=REGION))
    assert asked.type == "input_required" and asked.result is None
    assert asked.input_required is not None and asked.input_required.request_state == "st-1"
    assert asked.input_required.response_id == 1
    unknown = toolnexus.classify_result({"resultType": "later", "x": 1})
    assert (unknown.type, unknown.result_type, unknown.result) == ("unknown", "later", {"resultType": "later", "x": 1})
    with pytest.raises(toolnexus.InvalidValueError) as error:
        toolnexus.classify_result('{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"m"}}')
    assert error.value.pointer == "/error"
    with pytest.raises(toolnexus.LoneSurrogateError):
        toolnexus.classify_result('{"result":{"x":"\ud800"}}')
    assert repr(unknown) == "ServerResult(type='unknown', result_type='later')"


def test_threads_resolving_one_round() -> None:
    keys: dict[str, Any] = {f"k{i}": REGION for i in range(400)}
    round, requests = InputRound.start(CALL, input_required(**keys), 0, max_pending=1000)
    barrier = threading.Barrier(8)

    def resolve(share: int) -> int:
        barrier.wait()
        for _, request in requests[share::8]:
            round.resolve(Answer(request.id, True, {"region": "eu"}), 0)
            round.missing()
        return len(requests[share::8])

    with ThreadPoolExecutor(8) as pool:
        assert sum(pool.map(resolve, range(8))) == 400
    retry = json.loads(round.retry(2))
    assert list(retry["params"]["inputResponses"]) == list(keys), "responses keep the input order"
