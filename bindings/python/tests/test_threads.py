"""A ``Session``, a ``ReverseBridge`` and an ``InputRound`` each driven by 16 threads at once:
the counts of requests begun, resolved, refused and left pending add up exactly."""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any, Callable

import toolnexus

THREADS = 16
EACH = 40
SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
PARAMS = {"mode": "form", "message": "m", "requestedSchema": SCHEMA}


def run_threads(work: Callable[[int, Counter[str]], None]) -> Counter[str]:
    """Runs ``work(t, counts)`` on 16 threads started together; the sum of their counts."""
    counts = [Counter[str]() for _ in range(THREADS)]
    start = threading.Barrier(THREADS)

    def body(t: int) -> None:
        start.wait()
        work(t, counts[t])

    threads = [threading.Thread(target=body, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts, Counter[str]())


def answer_for(n: int, request_id: str) -> dict[str, Any] | None:
    """What the n-th request gets: accept, decline, invalid content (refused), or nothing."""
    return [
        {"id": request_id, "ok": True, "data": {"a": "x"}},
        {"id": request_id, "ok": False, "reason": "declined"},
        {"id": request_id, "ok": True, "data": {}},
        None,
    ][n % 4]


def settle(resolve: Callable[[dict[str, Any]], object], request_id: str, n: int, counts: Counter[str]) -> None:
    answer = answer_for(n, request_id)
    if answer is None:
        return
    try:
        resolve(answer)
        counts["resolved"] += 1
        resolve(answer)  # a second answer for the same request
        counts["resolved twice"] += 1
    except toolnexus.Error:
        counts["refused"] += 1


def test_a_session_shared_by_16_threads() -> None:
    session = toolnexus.Session(max_pending=THREADS * EACH)

    def work(t: int, counts: Counter[str]) -> None:
        for n in range(EACH):
            request = session.begin(PARAMS, f"t{t}-{n}", 0)
            counts["begun"] += 1
            try:
                session.begin(PARAMS, request.id, 0)
            except toolnexus.Error:
                counts["refused"] += 1
            settle(lambda a: session.resolve(a, 0), request.id, n, counts)

    counts = run_threads(work)
    total = THREADS * EACH
    assert counts["begun"] == total
    assert counts["resolved"] == total // 2
    assert counts["resolved twice"] == 0
    # One refused duplicate begin each, one refused second answer per resolved request, and
    # one refused invalid answer for every fourth request.
    assert counts["refused"] == total + total // 2 + total // 4
    assert len(session.pending()) == total - counts["resolved"]


def test_a_reverse_bridge_shared_by_16_threads() -> None:
    bridge = toolnexus.ReverseBridge(max_pending=THREADS * EACH)

    def work(t: int, counts: Counter[str]) -> None:
        for n in range(EACH):
            message = {"jsonrpc": "2.0", "id": t * 1000 + n, "method": "elicitation/create", "params": PARAMS}
            incoming = bridge.receive(json.dumps(message), 0)
            assert incoming.type == "elicit" and incoming.request is not None
            counts["begun"] += 1
            settle(lambda a: bridge.respond(a, 0), incoming.request.id, n, counts)

    counts = run_threads(work)
    total = THREADS * EACH
    assert counts["begun"] == total
    assert counts["resolved"] == total // 2
    assert counts["resolved twice"] == 0
    assert counts["refused"] == total // 2 + total // 4
    assert len(bridge.pending()) == total - counts["resolved"]


def test_an_input_round_shared_by_16_threads() -> None:
    keys = [f"k{t}-{n}" for t in range(THREADS) for n in range(EACH)]
    result = {
        "resultType": "input_required",
        "inputRequests": {key: {"method": "elicitation/create", "params": PARAMS} for key in keys},
        "requestState": "s",
    }
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}
    round_, requests = toolnexus.InputRound.start(request, result, 0, max_pending=len(keys))
    ids = {key: r.id for key, r in requests}

    def work(t: int, counts: Counter[str]) -> None:
        for n in range(EACH):
            counts["begun"] += 1
            settle(lambda a: round_.resolve(a, 0), ids[f"k{t}-{n}"], n, counts)

    counts = run_threads(work)
    total = THREADS * EACH
    assert counts["begun"] == total == len(requests)
    assert counts["resolved"] == total // 2
    assert counts["resolved twice"] == 0
    assert counts["refused"] == total // 2 + total // 4
    assert len(round_.missing()) == total - counts["resolved"]
    assert len(round_.pending()) == total - counts["resolved"]
