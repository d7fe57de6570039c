"""Memory of the Python binding over many calls: every entry point, each called 1,000,000 times
(``--calls``), with the resident set size sampled after a warm-up and after each entry point.
A leak of even a few bytes a call shows as megabytes; the script reports every figure and
exits non-zero when the RSS grew by more than 16 MiB. Timings are not its business."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from itertools import repeat
from typing import Any, Callable

import toolnexus

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 20},
        "age": {"type": "integer", "minimum": 18},
        "plan": {"type": "string", "enum": ["free", "pro"]},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
    },
    "required": ["name"],
}
PARAMS = {"mode": "form", "message": "Sign up", "requestedSchema": SCHEMA}
PARAMS_TEXT = json.dumps(PARAMS)
CONTENT = {"name": "Ada", "age": 36, "plan": "pro", "tags": ["a"]}
ANSWER_TEXT = json.dumps({"id": "r", "ok": True, "data": CONTENT})
FORM = toolnexus.Form(SCHEMA)
ELICIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": PARAMS})
CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}
NEEDS_INPUT = {
    "resultType": "input_required",
    "inputRequests": {"k": {"method": "elicitation/create", "params": PARAMS}},
    "requestState": "s",
}
CREATED = {"resultType": "task", "taskId": "t1", "status": "working", "pollIntervalMs": 500}
ASKING = {"taskId": "t1", "status": "input_required", "inputRequests": NEEDS_INPUT["inputRequests"]}


def refused(call: Callable[[], Any]) -> None:
    try:
        call()
    except toolnexus.Error:
        return
    raise AssertionError("expected a refusal")


def session_round_trip() -> None:
    session = toolnexus.Session(ttl_ms=60_000)
    session.begin(PARAMS, "r", 0)
    session.resolve({"id": "r", "ok": True, "data": CONTENT}, 0)


def bridge_round_trip() -> None:
    bridge = toolnexus.ReverseBridge()
    incoming = bridge.receive(ELICIT, 0)
    assert incoming.request is not None
    bridge.respond({"id": incoming.request.id, "ok": False, "reason": "declined"}, 0)


def input_round() -> None:
    round_, requests = toolnexus.InputRound.start(CALL, NEEDS_INPUT, 0)
    round_.resolve({"id": requests[0][1].id, "ok": True, "data": CONTENT}, 0)
    round_.retry(2)


KEY = b"a key of 32 bytes, as hosts use."
ROUND, ROUND_REQUESTS = toolnexus.InputRound.start(CALL, NEEDS_INPUT, 0, ttl_ms=None)
SEALED_ROUND = ROUND.snapshot(key=KEY)
FORM_REQUEST = ROUND_REQUESTS[0][1]
POST = [("tn-request", FORM_REQUEST.id), ("tn-0", "Ada"), ("tn-1", "36"), ("tn-2", "1"), ("tn-3", "0"), ("tn-action", "accept")]


def web_form() -> None:
    FORM_REQUEST.to_html()
    FORM_REQUEST.answer_from_form_data(POST)


def round_through_snapshot() -> None:
    restored = toolnexus.InputRound.restore(ROUND.snapshot(key=KEY), keys=(KEY,), now_ms=1)
    restored.pending()


def session_through_snapshot() -> None:
    session = toolnexus.Session()
    session.begin(PARAMS, "r", 0)
    toolnexus.Session.restore(session.snapshot("r"), now_ms=1).pending()


def task_followed() -> None:
    driver = toolnexus.TaskDriver.start(CREATED, "modern", 0)
    assert driver is not None
    event = driver.read(ASKING, 1)
    assert event.requests is not None
    driver.resolve({"id": event.requests[0][1].id, "ok": True, "data": CONTENT}, 2)
    update = driver.update()
    assert update is not None
    update.to_request(2)


ENTRY_POINTS: list[tuple[str, Callable[[], Any]]] = [
    ("elicitation_to_request(text)", lambda: toolnexus.elicitation_to_request(PARAMS_TEXT, id="r")),
    ("elicitation_to_request(dict)", lambda: toolnexus.elicitation_to_request(PARAMS, id="r")),
    ("Answer.from_json + to_json", lambda: toolnexus.Answer.from_json(ANSWER_TEXT).to_json()),
    ("answer_to_elicit_result", lambda: toolnexus.answer_to_elicit_result(ANSWER_TEXT).to_json()),
    ("check_schema", lambda: toolnexus.check_schema(SCHEMA)),
    ("validate_content", lambda: toolnexus.validate_content(SCHEMA, CONTENT)),
    ("Form(schema).fields", lambda: toolnexus.Form(SCHEMA).fields),
    ("form.validate", lambda: FORM.validate(CONTENT)),
    ("form.parse", lambda: FORM.parse("age", "42")),
    ("review_url", lambda: toolnexus.review_url("https://bücher.example/kaufen?x=1")),
    ("Session begin + resolve", session_round_trip),
    ("ReverseBridge receive + respond", bridge_round_trip),
    ("InputRound start + resolve + retry", input_round),
    ("TaskDriver start + read + resolve + update", task_followed),
    ("Request.to_html + answer_from_form_data", web_form),
    ("InputRound snapshot + restore, sealed", round_through_snapshot),
    ("Session snapshot + restore", session_through_snapshot),
    ("refused: a changed snapshot", lambda: refused(lambda: toolnexus.InputRound.restore(SEALED_ROUND[:-2], keys=(KEY,)))),
    ("refused: invalid JSON", lambda: refused(lambda: toolnexus.Answer.from_json('{"id":'))),
    ("refused: bad content", lambda: refused(lambda: toolnexus.Answer.from_dict({"id": "a", "ok": 1}))),
]


def rss() -> int:
    gc.collect()
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=1_000_000)
    calls = parser.parse_args().calls
    for _, call in ENTRY_POINTS:
        for _ in repeat(None, 10_000):
            call()
    warm = rss()
    print(f"memory (python): RSS {warm / 2**20:.1f} MiB after a warm-up; {calls:,} calls of each entry point")
    print("| entry point | RSS after | growth since warm-up |")
    print("|---|---|---|")
    worst = 0
    for name, call in ENTRY_POINTS:
        for _ in repeat(None, calls):
            call()
        now = rss()
        worst = max(worst, now - warm)
        print(f"| {name} | {now / 2**20:.1f} MiB | {(now - warm) / 2**10:+,.0f} KiB |")
    flat = worst <= 16 * 2**20
    print(f"memory (python): {'flat' if flat else 'GROWING'}: at most {worst / 2**10:+,.0f} KiB over {calls * len(ENTRY_POINTS):,} calls")
    return 0 if flat else 1


if __name__ == "__main__":
    sys.exit(main())
