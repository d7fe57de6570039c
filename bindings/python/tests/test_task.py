"""``TaskDriver`` and its kin: a tool call the server runs as a task, followed in both eras from
its creation to its end."""

from __future__ import annotations

import json
import pickle
import threading
import typing
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import toolnexus
from toolnexus import Answer, Number, TaskCall, TaskDriver, TaskEvent, TaskInfo

CAPS = "io.modelcontextprotocol/clientCapabilities"
CREATED = {
    "resultType": "task",
    "taskId": "t1",
    "status": "working",
    "statusMessage": "Queued",
    "createdAt": "2026-07-28T10:00:00Z",
    "lastUpdatedAt": "2026-07-28T10:00:00Z",
    "ttlMs": 60000,
    "pollIntervalMs": 500,
}
# The example of the MCP 2025-11-25 specification's tasks page.
HANDSHAKE_CREATED = {
    "task": {
        "taskId": "786512e2-9e0d-44bd-8f29-789f320fe840",
        "status": "working",
        "statusMessage": "The operation is now in progress.",
        "createdAt": "2025-11-25T10:30:00Z",
        "lastUpdatedAt": "2025-11-25T10:40:00Z",
        "ttl": 60000,
        "pollInterval": 5000,
    }
}
SAMPLING = {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 50}}


def form(message: str, prop: str = "v", schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "method": "elicitation/create",
        "params": {
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {prop: schema or {"type": "string"}},
                "required": [prop],
            },
        },
    }


def response(result: dict[str, Any], id: Any = 1) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": id, "result": result})


def asking(*keys: str, task_id: str = "t1") -> dict[str, Any]:
    return {
        "resultType": "complete",
        "taskId": task_id,
        "status": "input_required",
        "inputRequests": {key: form(f"{key}?") for key in keys},
    }


def started(**options: Any) -> TaskDriver:
    driver = TaskDriver.start(response(CREATED), "modern", 1000, **options)
    assert driver is not None
    return driver


def accept(request: toolnexus.Request, value: str) -> Answer:
    return Answer(request.id, True, {"v": value})


def test_a_modern_task_from_working_to_completed() -> None:
    driver = started()
    assert (driver.era, driver.is_done, driver.poll_interval_ms) == ("modern", False, 500)
    assert (driver.next_poll_at, driver.changed_at) == (1500, 1000)
    assert not driver.poll_due(1499) and driver.poll_due(1500)
    assert driver.task.task_id == "t1"
    task = driver.task
    assert (task.status, task.status_message, task.ttl_ms, task.poll_interval_ms) == ("working", "Queued", 60000, 500)
    assert task.to_dict() == {
        "task_id": "t1",
        "status": "working",
        "status_message": "Queued",
        "created_at": "2026-07-28T10:00:00Z",
        "last_updated_at": "2026-07-28T10:00:00Z",
        "ttl_ms": 60000,
        "poll_interval_ms": 500,
    }
    assert task == driver.task and hash(task) == hash(driver.task)
    assert repr(task) == "TaskInfo(task_id='t1', status='working', status_message='Queued')"

    get = driver.get()
    assert (get.method, get.params) == ("tasks/get", {"taskId": "t1"})
    assert get.to_request(2) == '{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t1"}}'
    assert repr(get) == "TaskCall(method='tasks/get', task_id='t1')"

    working = driver.read({"resultType": "complete", "taskId": "t1", "status": "working", "statusMessage": "Queued"}, 1500)
    assert (working.type, working.changed, working.requests, working.result, working.error) == (
        "working",
        False,
        None,
        None,
        None,
    )
    assert repr(working) == "TaskEvent(type='working', changed=False)"
    moved = driver.read(response({"taskId": "t1", "status": "working", "statusMessage": "Building"}, 2), 2000)
    assert moved.changed is True and driver.changed_at == 2000
    assert driver.task.ttl_ms is None and driver.poll_interval_ms == 1000 and driver.next_poll_at == 3000

    event = driver.read(response(asking("name"), 3), 3000)
    assert event.type == "input_required" and event.changed is None
    assert event.requests is not None
    [(key, request)] = event.requests
    assert (key, request.id, request.kind, request.prompt) == ("name", "elc-bb8-1", "input", "name?")
    assert request.form is not None and [f.name for f in request.form.fields] == ["v"]
    assert driver.pending() == [("name", request)]
    form_of = driver.form(request.id)
    assert form_of is not None and form_of.schema == request.schema
    assert driver.form("elc-nope") is None

    assert driver.resolve(accept(request, "Ada"), 3100) == ("name", toolnexus.ElicitResult("accept", {"v": "Ada"}))
    update = driver.update()
    assert update is not None and update.method == "tasks/update"
    assert update.params == {"taskId": "t1", "inputResponses": {"name": {"action": "accept", "content": {"v": "Ada"}}}}
    assert driver.update() is None
    assert (driver.shown(), driver.sent()) == (["name"], ["name"])

    done = driver.read(
        {"taskId": "t1", "status": "completed", "result": {"content": [], "isError": True, "n": Number("1.50")}},
        4000,
    )
    assert done.type == "completed" and done.result is not None
    assert done.result == {"content": [], "isError": True, "n": Number("1.50")}
    assert isinstance(done.result["n"], Number) and done.result["n"].spelling == "1.50"
    assert driver.is_done and driver.task.status == "completed"
    assert repr(driver) == "TaskDriver(task_id='t1', status='completed', era='modern')"


def test_keys_are_shown_once_and_answers_sent_once() -> None:
    driver = started()
    first = driver.read(asking("a", "b"), 1500)
    assert first.requests is not None
    (_, a), (_, b) = first.requests
    assert (a.id, b.id) == ("elc-5dc-1", "elc-5dc-2")
    assert driver.update(partial=True) is None
    with pytest.raises(toolnexus.MissingResponsesError) as missing:
        driver.update()
    assert missing.value.kind == "missing_responses" and missing.value.pointer == ""

    driver.resolve(accept(a, "x"), 1600)
    partial = driver.update(partial=True)
    assert partial is not None and list(partial.params["inputResponses"]) == ["a"]
    assert [key for key, _ in driver.pending()] == ["b"]

    again = driver.read(asking("a", "b", "c"), 1700)
    assert again.requests is not None
    [(key, c)] = again.requests
    assert (key, c.id) == ("c", "elc-6a4-3")
    assert driver.read(asking("a", "b", "c"), 1800).requests == []
    assert driver.shown() == ["a", "b", "c"] and driver.sent() == ["a"]

    driver.resolve(accept(c, "z"), 1900)
    driver.resolve(accept(b, "y"), 1900)
    rest = driver.update()
    assert rest is not None
    assert rest.to_request("u-2") == (
        '{"jsonrpc":"2.0","id":"u-2","method":"tasks/update","params":{"taskId":"t1","inputResponses":'
        '{"b":{"action":"accept","content":{"v":"y"}},"c":{"action":"accept","content":{"v":"z"}}}}}'
    )
    assert driver.sent() == ["a", "b", "c"] and driver.update(partial=True) is None
    with pytest.raises(toolnexus.UnknownRequestError) as unknown:
        driver.resolve(accept(a, "again"), 2000)
    assert unknown.value.pointer == "/id"


def test_the_handshake_era_reads_the_nested_task() -> None:
    driver = TaskDriver.start(response(HANDSHAKE_CREATED), "handshake", 0)
    assert driver is not None and driver.era == "handshake"
    task = driver.task
    assert (task.task_id, task.ttl_ms, task.poll_interval_ms) == ("786512e2-9e0d-44bd-8f29-789f320fe840", 60000, 5000)
    assert (task.created_at, task.last_updated_at) == ("2025-11-25T10:30:00Z", "2025-11-25T10:40:00Z")
    assert task.status_message == "The operation is now in progress."
    assert driver.next_poll_at == 5000
    assert driver.result().to_request(3) == (
        '{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840"}}'
    )
    # Input arrives as elicitation/create while tasks/result is open: polls show no requests.
    waiting = driver.read({"taskId": task.task_id, "status": "input_required", "inputRequests": {"k": form("k?")}}, 5000)
    assert (waiting.type, waiting.requests) == ("input_required", [])
    assert driver.shown() == [] and driver.pending() == []
    done = driver.read({"taskId": task.task_id, "status": "completed"}, 10000)
    assert (done.type, done.result) == ("completed", None)
    failed = TaskDriver.start(HANDSHAKE_CREATED, "handshake", 0)
    assert failed is not None
    event = failed.read({"taskId": task.task_id, "status": "failed"}, 1)
    assert (event.type, event.error) == ("failed", None)
    # The handshake era declares no extension in the _meta it is given.
    failed.set_meta({"progressToken": "p"})
    assert failed.cancel().params == {"_meta": {"progressToken": "p"}, "taskId": task.task_id}


def test_failed_and_cancelled_tasks_end() -> None:
    driver = started()
    failure = {"code": -32603, "message": "API rate limit exceeded"}
    event = driver.read({"resultType": "task", "taskId": "t1", "status": "failed", "error": failure}, 1500)
    assert (event.type, event.error, event.result) == ("failed", failure, None)
    assert driver.is_done
    other = started()
    assert other.cancel().method == "tasks/cancel"
    cancelled = other.read('{"taskId":"t1","status":"cancelled"}', 1500)
    assert cancelled.type == "cancelled" and repr(cancelled) == "TaskEvent(type='cancelled')"
    assert other.is_done and other.task.status == "cancelled"


def test_a_result_that_is_no_task_starts_nothing() -> None:
    assert TaskDriver.start(response({"content": []}), "modern", 0) is None
    assert TaskDriver.start({"resultType": "complete", "content": []}, "handshake", 0) is None
    assert TaskDriver.start(b'{"resultType":"input_required","inputRequests":{}}', "modern", 0) is None


def test_eras_are_named() -> None:
    with pytest.raises(toolnexus.InvalidValueError) as era:
        TaskDriver.start(CREATED, "2026-07-28", 0)  # type: ignore[arg-type]
    assert (era.value.kind, era.value.pointer) == ("invalid_value", "")
    with pytest.raises(TypeError):
        TaskDriver.start(CREATED, None, 0)  # type: ignore[arg-type]


def test_refused_replies_have_a_kind_and_a_pointer_and_change_nothing() -> None:
    driver = started()
    before = (driver.task, driver.next_poll_at, driver.changed_at)
    refused: list[tuple[Any, type[toolnexus.Error], str, str]] = [
        (response({"taskId": "t2", "status": "working"}), toolnexus.InvalidValueError, "invalid_value", "/result/taskId"),
        ({"taskId": "t1", "status": "paused"}, toolnexus.InvalidValueError, "invalid_value", "/status"),
        ({"taskId": "t1", "status": "working", "ttlMs": "1h"}, toolnexus.WrongTypeError, "wrong_type", "/ttlMs"),
        (
            response({"taskId": "t1", "status": "working", "pollIntervalMs": 1.5}),
            toolnexus.WrongTypeError,
            "wrong_type",
            "/result/pollIntervalMs",
        ),
        ({"taskId": "t1", "status": "completed"}, toolnexus.MissingFieldError, "missing_field", "/result"),
        ({"taskId": "t1", "status": "input_required", "inputRequests": []}, toolnexus.WrongTypeError, "wrong_type", "/inputRequests"),
        (
            '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Task not found"}}',
            toolnexus.InvalidValueError,
            "invalid_value",
            "/error",
        ),
        ('{"taskId":', toolnexus.InvalidJsonError, "invalid_json", "/taskId"),
        ([1, 2], toolnexus.WrongTypeError, "wrong_type", ""),
    ]
    for reply, error_class, kind, pointer in refused:
        with pytest.raises(error_class) as error:
            driver.read(reply, 5000)
        assert (error.value.kind, error.value.pointer) == (kind, pointer), reply
        assert (driver.task, driver.next_poll_at, driver.changed_at) == before
    assert driver.shown() == []

    with pytest.raises(toolnexus.WrongTypeError) as ttl:
        TaskDriver.start(response(dict(CREATED, ttlMs="1h")), "modern", 0)
    assert ttl.value.pointer == "/result/ttlMs"
    with pytest.raises(toolnexus.WrongTypeError) as nested:
        TaskDriver.start({"task": {"taskId": 7, "status": "working"}}, "handshake", 0)
    assert nested.value.pointer == "/task/taskId"
    with pytest.raises(toolnexus.TooDeepError):
        TaskDriver.start(response(CREATED), "modern", 0, limits=toolnexus.Limits(max_depth=1))


def test_the_session_s_rules_hold_for_input_requests() -> None:
    driver = started(ttl_ms=1000)
    event = driver.read(
        {"taskId": "t1", "status": "input_required", "inputRequests": {"ok": form("Deploy?", "ok", {"type": "boolean"})}},
        1500,
    )
    assert event.requests is not None
    [(_, request)] = event.requests
    assert request.expires_at == "1970-01-01T00:00:02.500Z"
    with pytest.raises(toolnexus.InvalidContentError) as invalid:
        driver.resolve({"id": request.id, "ok": True, "data": {"ok": "yes"}}, 1600)
    assert (invalid.value.kind, invalid.value.pointer) == ("invalid_content", "/data")
    assert [(v.pointer, v.keyword) for v in invalid.value.violations] == [("/ok", "type")]
    assert [key for key, _ in driver.pending()] == ["ok"]
    assert [(key, result.action) for key, result in driver.expire(2600)] == [("ok", "cancel")]
    assert driver.pending() == []
    update = driver.update()
    assert update is not None and update.params["inputResponses"] == {"ok": {"action": "cancel"}}

    form_only = started(modes="form")
    login = {"method": "elicitation/create", "params": {"mode": "url", "message": "Sign in", "url": "https://a.example/x"}}
    with pytest.raises(toolnexus.ModeNotSupportedError) as mode:
        form_only.read(response({"taskId": "t1", "status": "input_required", "inputRequests": {"login": login}}), 1500)
    assert mode.value.pointer == "/result/inputRequests/login/params/mode"
    assert form_only.shown() == []

    closing = started()
    closing.read(asking("a", "b"), 1500)
    assert [key for key, _ in closing.cancel_pending()] == ["a", "b"]
    closed = closing.update()
    assert closed is not None and closed.params["inputResponses"] == {"a": {"action": "cancel"}, "b": {"action": "cancel"}}


def test_other_methods_are_supplied_by_the_host() -> None:
    driver = started()
    event = driver.read({"taskId": "t1", "status": "input_required", "inputRequests": {"summary": SAMPLING}}, 1500)
    assert event.requests == []
    [unhandled] = driver.unhandled()
    assert (unhandled.key, unhandled.method, unhandled.params) == ("summary", "sampling/createMessage", SAMPLING["params"])
    with pytest.raises(toolnexus.UnknownRequestError) as unknown:
        driver.supply("nope", {})
    assert (unknown.value.kind, unknown.value.pointer) == ("unknown_request", "")
    with pytest.raises(toolnexus.WrongTypeError):
        driver.supply("summary", "text")  # type: ignore[arg-type]
    driver.supply("summary", {"role": "assistant", "score": Number("0.50")})
    assert driver.unhandled() == []
    update = driver.update()
    assert update is not None
    assert update.to_request(4).endswith('"inputResponses":{"summary":{"role":"assistant","score":0.50}}}}')


def test_meta_goes_first_and_the_modern_era_declares_the_extension() -> None:
    driver = started()
    driver.set_meta(
        '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":'
        '{"elicitation":{"form":{}}}}'
    )
    assert driver.get().to_request(7) == (
        '{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":'
        '"2026-07-28","' + CAPS + '":{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}},'
        '"taskId":"t1"}}'
    )
    with pytest.raises(toolnexus.WrongTypeError) as caps:
        driver.set_meta({CAPS: []})
    assert caps.value.pointer == "/io.modelcontextprotocol~1clientCapabilities"
    with pytest.raises(toolnexus.WrongTypeError) as not_object:
        driver.set_meta("[]")
    assert not_object.value.pointer == ""
    # Refused: the _meta set before stays.
    assert list(driver.cancel().params) == ["_meta", "taskId"]


def test_request_ids() -> None:
    get = started().get()
    assert '"id":1.0,' in get.to_request(Number("1.0"))
    assert '"id":1e2,' in get.to_request(Number("1e2"))
    assert f'"id":{10**30},' in get.to_request(10**30)
    with pytest.raises(toolnexus.InvalidValueError) as fraction:
        get.to_request(Number("1.5"))
    assert (fraction.value.kind, fraction.value.pointer) == ("invalid_value", "")
    with pytest.raises(toolnexus.InvalidValueError):
        get.to_request(2.5)  # type: ignore[arg-type]
    with pytest.raises(toolnexus.WrongTypeError):
        get.to_request(True)
    with pytest.raises(TypeError):
        get.to_request(None)  # type: ignore[arg-type]


def test_the_classes_are_values() -> None:
    assert TaskInfo.STATUSES == typing.get_args(toolnexus.TaskStatus)
    assert TaskInfo.STATUSES == ("working", "input_required", "completed", "failed", "cancelled")
    driver = started()
    assert driver.get() == driver.get() and driver.get() != driver.cancel()
    with pytest.raises(TypeError):
        hash(driver.get())
    working = {"taskId": "t1", "status": "working"}
    event = driver.read(working, 1500)
    assert event == started().read(working, 1500) and event != driver.read(working, 1600)
    with pytest.raises(TypeError):
        hash(event)
    for made in (TaskInfo, TaskCall, TaskEvent, TaskDriver):
        with pytest.raises(TypeError):
            made()
    with pytest.raises(AttributeError):
        driver.task.status = "failed"  # type: ignore[misc]
    with pytest.raises((TypeError, pickle.PicklingError)):
        pickle.dumps(driver)


def test_threads_resolving_one_task() -> None:
    driver = started(max_pending=1000)
    keys = [f"k{i}" for i in range(400)]
    event = driver.read(asking(*keys), 1500)
    assert event.requests is not None and len(event.requests) == 400
    requests = event.requests
    barrier = threading.Barrier(8)

    def resolve(share: int) -> int:
        barrier.wait()
        for _, request in requests[share::8]:
            driver.resolve(accept(request, "x"), 1600)
            driver.pending()
        return len(requests[share::8])

    with ThreadPoolExecutor(8) as pool:
        assert sum(pool.map(resolve, range(8))) == 400
    update = driver.update()
    assert update is not None and list(update.params["inputResponses"]) == keys, "answers keep the input order"
