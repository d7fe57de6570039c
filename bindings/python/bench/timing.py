"""What the Python benchmarks share: a route timed over a loop with the collector paused (as
``timeit`` does), the loop's length chosen to last about a measure, and each target's line
for the summary ``cargo xtask bench`` prints."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from itertools import repeat
from typing import Any

Route = Callable[[Any], object]

# Each timing lasts about this long, so that the clock's resolution and the loop don't count.
MEASURE_SECONDS = 0.04


def per_call_ns(route: Route, arg: object, calls: int) -> float:
    """Nanoseconds per call of ``route(arg)`` over ``calls`` calls, the collector paused."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter_ns()
        for _ in repeat(None, calls):
            route(arg)
        elapsed = time.perf_counter_ns() - start
    finally:
        if collecting:
            gc.enable()
    return elapsed / calls


def calls_per_measure(route: Route, arg: object) -> int:
    """How many calls take about ``MEASURE_SECONDS`` (which also warms the route up)."""
    calls = 4
    while True:
        ns = per_call_ns(route, arg, calls)
        if ns * calls >= 10_000_000:
            return max(1, round(MEASURE_SECONDS * 1e9 / ns))
        calls *= 4


def record(bench: str, what: str, payload: str, measured: str, target: str, met: bool) -> None:
    """Appends a target's line to the file ``TOOLNEXUS_BENCH_TARGETS`` names, if it is set."""
    path = os.environ.get("TOOLNEXUS_BENCH_TARGETS")
    if path:
        verdict = "met" if met else "MISSED"
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{bench}\t{what}\t{payload}\t{measured}\t{target}\t{verdict}\n")
