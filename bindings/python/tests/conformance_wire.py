"""Runners of the suite's scripted operations (``session``, ``reverse_request``, ``mrtr``,
``task``, ``snapshot``) through the public Python API.

Each runner reads the case's script with ``toolnexus.from_json`` (numbers keep their
spelling), runs every step against one ``Session``, ``ReverseBridge``, ``InputRound`` or
``TaskDriver`` (for ``snapshot``, the round or session each restore replaces), and
writes the array of step outcomes with ``toolnexus.to_json``: ``{"ok": value}`` or
``{"error": {"kind", "pointer", "violations"?}}``, each violation as ``{"pointer",
"keyword"}``. JSON-RPC text the API emits is carried as a string and so compared byte for
byte; requests and results go in through their ``to_dict()``, which keeps member order and
number spelling.
"""

from __future__ import annotations

from typing import Any, Callable

import toolnexus
from conformance_common import Runner, Text, violations

OPTION_NAMES = {
    "maxPending": "max_pending",
    "ttlMs": "ttl_ms",
    "applyDefaults": "apply_defaults",
    "allowUnknown": "allow_unknown",
    "rejectSecrets": "reject_secrets",
}

MODES: dict[str, tuple[str, ...]] = {"form": ("form",), "url": ("url",), "all": ("form", "url")}


class BrokenScript(Exception):
    """The case's script is not one the runner can run: a fault of the case, not the API."""


def options_of(script: dict[str, Any]) -> dict[str, Any]:
    """The script's ``options`` as the keyword arguments of ``Session`` and its kin."""
    options: dict[str, Any] = {}
    for key, value in script.get("options", {}).items():
        if key == "modes":
            options["modes"] = MODES[value]
        elif key in OPTION_NAMES:
            options[OPTION_NAMES[key]] = value
        else:
            raise BrokenScript(f"unknown option {key!r}")
    return options


def now_of(step: dict[str, Any]) -> int:
    now = step.get("now", 0)
    assert isinstance(now, int)
    return now


def ok(value: Any) -> dict[str, Any]:
    return {"ok": value}


def failed(error: toolnexus.Error) -> dict[str, Any]:
    """The outcome of a step that raised."""
    described: dict[str, Any] = {"kind": error.kind, "pointer": error.pointer}
    if error.violations:
        described["violations"] = violations(error.violations)
    return {"error": described}


def outcome(step: Callable[[], Any]) -> dict[str, Any]:
    """``{"ok": step()}``, or the error it raised."""
    try:
        return ok(step())
    except toolnexus.Error as error:
        return failed(error)


def run_script(
    text: Text,
    limits: toolnexus.Limits,
    make_step: Callable[[dict[str, Any]], Callable[[dict[str, Any]], dict[str, Any]]],
) -> str:
    """Reads the script within ``limits`` and writes the outcome of each of its steps."""
    script = toolnexus.from_json(text, limits=limits)
    run_step = make_step(script)
    return toolnexus.to_json([run_step(step) for step in script["steps"]])


def cancelled(pairs: list[tuple[str, toolnexus.ElicitResult]]) -> list[dict[str, Any]]:
    return [{"id": id, "result": result.to_dict()} for id, result in pairs]


# The elicitation session.


def run_session(_case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    def make(script: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        session = toolnexus.Session(**options_of(script))
        return lambda step: session_step(session, step)

    return run_script(text, limits, make)


def session_step(session: toolnexus.Session, step: dict[str, Any]) -> dict[str, Any]:
    if "begin" in step:
        return outcome(lambda: session.begin(step["begin"], step["id"], now_of(step)).to_dict())
    if "resolve" in step:
        return outcome(lambda: session.resolve(step["resolve"], now_of(step)).to_dict())
    if "pending" in step:
        return ok([request.id for request in session.pending()])
    if "awaiting" in step:
        return ok(
            [
                {"requestId": request_id, "elicitationId": elicitation_id}
                for request_id, elicitation_id in session.awaiting_completion()
            ]
        )
    if "complete" in step:
        return ok(session.complete(step["complete"]))
    if "expire" in step:
        return ok(cancelled(session.expire(step["expire"])))
    if "cancelAll" in step:
        return ok(cancelled(session.cancel_all()))
    raise BrokenScript(f"unknown step {step!r}")


# The 2025 JSON-RPC wire.


def run_reverse(_case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    # The script is read within the default limits; the case's limits apply to the messages
    # its steps carry, as they would to messages off the wire.
    def make(script: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        bridge = toolnexus.ReverseBridge(**options_of(script))
        return lambda step: reverse_step(bridge, step, limits)

    return run_script(text, toolnexus.Limits(), make)


def reverse_step(
    bridge: toolnexus.ReverseBridge, step: dict[str, Any], limits: toolnexus.Limits
) -> dict[str, Any]:
    now = now_of(step)
    if "receive" in step:
        return ok(incoming_value(bridge.receive(step["receive"], now, limits=limits)))
    if "answer" in step:
        return outcome(lambda: bridge.respond(step["answer"], now))
    if "fail" in step:
        return outcome(lambda: bridge.fail(step["fail"], step.get("message", "")))
    if "urlRequired" in step:
        return outcome(
            lambda: [
                request.to_dict()
                for request in bridge.url_required(step["urlRequired"], now, limits=limits)
            ]
        )
    if "cancelAll" in step:
        return ok(bridge.cancel_all())
    if "expire" in step:
        return ok(bridge.expire(step["expire"]))
    if "capabilities" in step:
        return ok(bridge.capabilities())
    if "pending" in step:
        listed = []
        for request in bridge.pending():
            entry: dict[str, Any] = {"requestId": request.id}
            rpc_id = bridge.rpc_id(request.id)
            if rpc_id is not None:
                entry["rpcId"] = rpc_id
            listed.append(entry)
        return ok(listed)
    raise BrokenScript(f"unknown step {step!r}")


def incoming_value(incoming: toolnexus.Incoming) -> dict[str, Any]:
    """What a received message asked of the host, keyed by its type."""
    if incoming.type == "elicit":
        assert incoming.request is not None
        return {"elicit": {"rpcId": incoming.rpc_id, "request": incoming.request.to_dict()}}
    if incoming.type == "reply":
        return {"reply": incoming.reply}
    if incoming.type == "completed":
        completed: dict[str, Any] = {"requestId": incoming.request_id}
        if incoming.reply is not None:
            completed["reply"] = incoming.reply
        return {"completed": completed}
    if incoming.type == "withdrawn":
        return {"withdrawn": incoming.request_id}
    return {"ignored": incoming.reason}


# The 2026-07-28 multi round-trip.


class MrtrScript:
    """One ``mrtr`` script's state: its options, the current round and the last retry."""

    def __init__(self, options: dict[str, Any], limits: toolnexus.Limits) -> None:
        self.options = options
        self.limits = limits
        self.round: toolnexus.InputRound | None = None
        self.last_retry: str | None = None

    def current(self) -> toolnexus.InputRound:
        if self.round is None:
            raise BrokenScript("no round was started")
        return self.round

    def step(self, step: dict[str, Any]) -> dict[str, Any]:
        now = now_of(step)
        if "start" in step:
            return self.start(step["start"], now)
        if "again" in step:
            return self.begun(lambda: self.current().next_round(step["again"], now, limits=self.limits))
        if "answer" in step:
            return outcome(lambda: keyed(*self.current().resolve(step["answer"], now)))
        if "supply" in step:
            supply = step["supply"]
            return outcome(lambda: self.current().supply(supply["key"], supply.get("result")))
        if "retry" in step:
            return self.retry(step["retry"])
        if "stamp" in step:
            modes = self.options.get("modes", ("form", "url"))
            return outcome(
                lambda: toolnexus.with_client_capabilities(step["stamp"], modes=modes, limits=self.limits)
            )
        if "classify" in step:
            return outcome(lambda: classified(toolnexus.classify_result(step["classify"], limits=self.limits)))
        if "missing" in step:
            return ok(self.current().missing())
        if "pending" in step:
            return ok([key for key, _ in self.current().pending()])
        if "expire" in step:
            return ok([keyed(key, result) for key, result in self.current().expire(step["expire"])])
        if "cancelPending" in step:
            return ok([keyed(key, result) for key, result in self.current().cancel_pending()])
        raise BrokenScript(f"unknown step {step!r}")

    def start(self, start: dict[str, Any], now: int) -> dict[str, Any]:
        text = start.get("request", self.last_retry)
        if text is None:
            raise BrokenScript("start without `request` needs an earlier retry")
        try:
            request = toolnexus.ClientRequest.from_json(text, limits=self.limits)
        except toolnexus.Error as error:
            return located(error, "request")
        response = start["response"]
        return self.begun(
            lambda: toolnexus.InputRound.start(request, response, now, limits=self.limits, **self.options)
        )

    def begun(
        self, start: Callable[[], tuple[toolnexus.InputRound, list[tuple[str, toolnexus.Request]]]]
    ) -> dict[str, Any]:
        """The outcome of starting a round; a round started replaces the current one."""
        try:
            round, requests = start()
        except toolnexus.Error as error:
            return located(error, "response")
        self.round = round
        return ok(
            {
                "requests": [{"key": key, "request": request.to_dict()} for key, request in requests],
                "unhandled": [{"key": r.key, "method": r.method} for r in round.unhandled()],
                "requestState": round.request_state is not None,
            }
        )

    def retry(self, retry: dict[str, Any]) -> dict[str, Any]:
        round = self.current()
        missing = round.missing()
        try:
            text = round.retry(retry["id"], partial=retry.get("partial", False))
        except toolnexus.Error as error:
            failure = failed(error)
            if error.kind == "missing_responses":
                failure["error"]["missing"] = missing
            return failure
        self.last_retry = text
        return ok(text)


def run_mrtr(_case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    def make(script: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        return MrtrScript(options_of(script), limits).step

    return run_script(text, limits, make)


def keyed(key: str, result: toolnexus.ElicitResult) -> dict[str, Any]:
    return {"key": key, "result": result.to_dict()}


def classified(result: toolnexus.ServerResult) -> Any:
    if result.type == "unknown":
        return {"unknown": result.result_type}
    return result.type


def located(error: toolnexus.Error, text: str) -> dict[str, Any]:
    """An error outcome saying which text of a ``start`` step its pointer is in."""
    failure = failed(error)
    failure["error"]["in"] = text
    return failure


# Tasks, in either era.


class TaskScript:
    """One ``task`` script's state: its options and the driver following the task."""

    def __init__(self, options: dict[str, Any], limits: toolnexus.Limits) -> None:
        self.options = options
        self.limits = limits
        self.driver: toolnexus.TaskDriver | None = None

    def current(self) -> toolnexus.TaskDriver:
        if self.driver is None:
            raise BrokenScript("no task was started")
        return self.driver

    def step(self, step: dict[str, Any]) -> dict[str, Any]:
        now = now_of(step)
        if "start" in step:
            return outcome(lambda: self.start(step["start"], now))
        if "meta" in step:
            return outcome(lambda: self.current().set_meta(step["meta"]))
        if "poll" in step:
            return outcome(lambda: event_value(self.current().read(step["poll"], now, limits=self.limits)))
        if "answer" in step:
            return outcome(lambda: keyed(*self.current().resolve(step["answer"], now)))
        if "supply" in step:
            supply = step["supply"]
            return outcome(lambda: self.current().supply(supply["key"], supply.get("result")))
        if "update" in step:
            update = step["update"]

            def updated() -> str | None:
                call = self.current().update(partial=update.get("partial", False))
                return None if call is None else call.to_request(update["id"])

            return outcome(updated)
        for name in ("get", "cancel", "result"):
            if name in step:
                call = getattr(self.current(), name)()
                return outcome(lambda: call.to_request(step[name]))
        if "pending" in step:
            return ok([key for key, _ in self.current().pending()])
        if "unhandled" in step:
            return ok([{"key": r.key, "method": r.method} for r in self.current().unhandled()])
        if "expire" in step:
            return ok([keyed(key, result) for key, result in self.current().expire(step["expire"])])
        if "cancelPending" in step:
            return ok([keyed(key, result) for key, result in self.current().cancel_pending()])
        if "state" in step:
            return ok(task_state(self.current()))
        if "due" in step:
            return ok(self.current().poll_due(step["due"]))
        raise BrokenScript(f"unknown step {step!r}")

    def start(self, start: dict[str, Any], now: int) -> dict[str, Any] | None:
        """Follows the task the response hands over; a driver started replaces the current one."""
        driver = toolnexus.TaskDriver.start(
            start["response"], start["era"], now, limits=self.limits, **self.options
        )
        self.driver = driver
        return None if driver is None else task_state(driver)


def task_value(task: toolnexus.TaskInfo) -> dict[str, Any]:
    """A task with the suite's names, absent members left out."""
    members = {
        "taskId": task.task_id,
        "status": task.status,
        "statusMessage": task.status_message,
        "createdAt": task.created_at,
        "lastUpdatedAt": task.last_updated_at,
        "ttlMs": task.ttl_ms,
        "pollIntervalMs": task.poll_interval_ms,
    }
    return {key: value for key, value in members.items() if value is not None}


def task_state(driver: toolnexus.TaskDriver) -> dict[str, Any]:
    return {
        "task": task_value(driver.task),
        "era": driver.era,
        "done": driver.is_done,
        "pollIntervalMs": driver.poll_interval_ms,
        "nextPollAt": driver.next_poll_at,
        "changedAt": driver.changed_at,
        "shown": driver.shown(),
        "sent": driver.sent(),
    }


def event_value(event: toolnexus.TaskEvent) -> dict[str, Any]:
    """An event as ``{"kind", ...}`` with the members of its kind."""
    value: dict[str, Any] = {"kind": event.type}
    if event.type == "working":
        value["changed"] = event.changed
    elif event.type == "input_required":
        assert event.requests is not None
        value["requests"] = [{"key": key, "request": request.to_dict()} for key, request in event.requests]
    elif event.type == "completed" and event.result is not None:
        value["result"] = event.result
    elif event.type == "failed" and event.error is not None:
        value["error"] = event.error
    return value


def run_task(_case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    def make(script: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        return TaskScript(options_of(script), limits).step

    return run_script(text, limits, make)


# Snapshots of a round or of a session's pending request, and their restores.


def restore_args(restore: dict[str, Any], last: bytes | None) -> tuple[bytes, list[bytes]]:
    """A ``restore`` step's snapshot (absent: the last one written) and keys, as bytes."""
    if "snapshot" in restore:
        snapshot = restore["snapshot"].encode("utf-8")
    elif last is not None:
        snapshot = last
    else:
        raise BrokenScript("restore without `snapshot` needs one written before")
    return snapshot, [key.encode("utf-8") for key in restore.get("keys", [])]


def key_of(snapshot: dict[str, Any]) -> bytes | None:
    key = snapshot.get("key")
    return None if key is None else key.encode("utf-8")


class RoundSnapshotScript:
    """A ``snapshot`` script about a round: its options, the current round and the last
    snapshot written."""

    def __init__(self, options: dict[str, Any], limits: toolnexus.Limits) -> None:
        self.options = options
        self.limits = limits
        self.round: toolnexus.InputRound | None = None
        self.last: bytes | None = None

    def current(self) -> toolnexus.InputRound:
        if self.round is None:
            raise BrokenScript("no round was started or restored")
        return self.round

    def step(self, step: dict[str, Any]) -> dict[str, Any]:
        now = now_of(step)
        if "start" in step:
            start = step["start"]
            return self.begun(
                lambda: toolnexus.InputRound.start(start["request"], start["response"], now, **self.options)
            )
        if "again" in step:
            return self.begun(lambda: self.current().next_round(step["again"], now))
        if "answer" in step:
            return outcome(lambda: keyed(*self.current().resolve(step["answer"], now)))
        if "supply" in step:
            supply = step["supply"]
            return outcome(lambda: self.current().supply(supply["key"], supply.get("result")))
        if "retry" in step:
            retry = step["retry"]
            return outcome(lambda: self.current().retry(retry["id"], partial=retry.get("partial", False)))
        if "missing" in step:
            return ok(self.current().missing())
        if "pending" in step:
            return ok([key for key, _ in self.current().pending()])
        if "snapshot" in step:
            try:
                written = self.current().snapshot(key=key_of(step["snapshot"]))
            except toolnexus.Error as error:
                return failed(error)
            self.last = written
            return ok(written.decode("utf-8"))
        if "snapshotId" in step:
            return ok(self.current().snapshot_id)
        if "restore" in step:
            snapshot, keys = restore_args(step["restore"], self.last)
            try:
                restored = toolnexus.InputRound.restore(snapshot, keys=keys, limits=self.limits, now_ms=now)
            except toolnexus.Error as error:
                return failed(error)
            self.round = restored
            return ok(
                {
                    "pending": [{"key": key, "request": request.to_dict()} for key, request in restored.pending()],
                    "missing": restored.missing(),
                }
            )
        raise BrokenScript(f"unknown step {step!r}")

    def begun(
        self, start: Callable[[], tuple[toolnexus.InputRound, list[tuple[str, toolnexus.Request]]]]
    ) -> dict[str, Any]:
        """The outcome of starting a round; a round started replaces the current one."""
        try:
            round, requests = start()
        except toolnexus.Error as error:
            return failed(error)
        self.round = round
        return ok(
            {
                "requests": [{"key": key, "request": request.to_dict()} for key, request in requests],
                "unhandled": [{"key": r.key, "method": r.method} for r in round.unhandled()],
                "requestState": round.request_state is not None,
            }
        )


class SessionSnapshotScript:
    """A ``snapshot`` script about a session: the current session and the last snapshot
    written."""

    def __init__(self, options: dict[str, Any], limits: toolnexus.Limits) -> None:
        self.limits = limits
        self.session = toolnexus.Session(**options)
        self.last: bytes | None = None

    def step(self, step: dict[str, Any]) -> dict[str, Any]:
        if "snapshot" in step:
            snapshot = step["snapshot"]
            try:
                written = self.session.snapshot(snapshot["id"], key=key_of(snapshot))
            except toolnexus.Error as error:
                return failed(error)
            self.last = written
            return ok(written.decode("utf-8"))
        if "snapshotId" in step:
            return outcome(lambda: self.session.snapshot_id(step["snapshotId"]["id"]))
        if "restore" in step:
            snapshot, keys = restore_args(step["restore"], self.last)
            try:
                restored = toolnexus.Session.restore(snapshot, keys=keys, limits=self.limits, now_ms=now_of(step))
            except toolnexus.Error as error:
                return failed(error)
            self.session = restored
            return ok([request.to_dict() for request in restored.pending()])
        return session_step(self.session, step)


def run_snapshot(_case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    # The script is read within the default limits; the case's limits apply to the snapshots
    # its steps restore.
    def make(script: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        of = script.get("of")
        if of == "round":
            return RoundSnapshotScript(options_of(script), limits).step
        if of == "session":
            return SessionSnapshotScript(options_of(script), limits).step
        raise BrokenScript(f"`of` is 'round' or 'session', not {of!r}")

    return run_script(text, toolnexus.Limits(), make)


WIRE_RUNNERS: dict[str, Runner] = {
    "session": run_session,
    "reverse_request": run_reverse,
    "mrtr": run_mrtr,
    "task": run_task,
    "snapshot": run_snapshot,
}
"""The scripted operations, by the suite's name."""
