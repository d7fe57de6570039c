"""toolnexus against the `mcp` package's own route, side by side in one process.

Run by `cargo xtask bench python` (or `python bench/run.py` in an environment with the
`toolnexus` wheel and the `mcp` package installed). For each payload of `payloads.py` it times

- the params of `elicitation/create` mapped onto a request, from JSON text and from a `dict`:
  `toolnexus.elicitation_to_request` against the reference route of `reference.py` (the
  package's `ElicitRequestParams` model, then the reference port's plain-Python mapping);
- an answer mapped back and written as JSON: `answer_to_elicit_result(...).to_json()` against
  building the package's `ElicitResult` model and dumping it.

Every route is a plain Python function of one argument, timed in a loop with the collector
paused (as `timeit` does); the routes of a comparison take turns, in alternating order, over
several rounds, and each ratio is the median of the rounds' ratios. Then it calls each route of
toolnexus a million times and reports the resident memory before and after.

The targets are reported, not asserted: timings depend on the machine and what else runs on
it. The script fails only when it cannot run.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import metadata
from itertools import repeat
from typing import Any

import toolnexus

from payloads import PAYLOADS, Payload

try:
    import reference
except ImportError as missing:
    sys.exit(f"bench: the reference route needs the `mcp` package ({missing})")

# Each timing lasts about this long, so that the clock's resolution and the loop don't count.
MEASURE_SECONDS = 0.05
# How many calls of each route of toolnexus the memory check makes.
RSS_CALLS = 1_000_000
# Calls of each route before the memory baseline: caches, arenas and lazy imports fill up.
WARM_UP_CALLS = 10_000

Route = Callable[[Any], object]


def ours_from_json(text: str) -> toolnexus.Request:
    return toolnexus.elicitation_to_request(text)


def ours_from_dict(params: dict[str, Any]) -> toolnexus.Request:
    return toolnexus.elicitation_to_request(params)


def ours_result_json(answer: toolnexus.Answer) -> str:
    return toolnexus.answer_to_elicit_result(answer).to_json()


@dataclass(frozen=True)
class Comparison:
    """One job done by both routes on the same input."""

    what: str
    target: float | None
    ours: Route
    ours_arg: object
    theirs: Route
    theirs_arg: object


@dataclass
class Timings:
    """Nanoseconds per call of each route, one entry per round."""

    ours: list[float]
    theirs: list[float]

    def ratio(self) -> float:
        return statistics.median(t / o for o, t in zip(self.ours, self.theirs))

    def ratio_range(self) -> tuple[float, float]:
        ratios = [t / o for o, t in zip(self.ours, self.theirs)]
        return min(ratios), max(ratios)


def comparisons(payload: Payload) -> list[Comparison]:
    ours_answer = toolnexus.Answer("elc-1", True, payload.content)
    theirs_answer = reference.Answer("elc-1", True, payload.content)
    return [
        Comparison(
            "request from JSON text",
            5.0,
            ours_from_json,
            payload.text,
            reference.request_from_json,
            payload.text,
        ),
        Comparison(
            "request from a dict",
            2.0,
            ours_from_dict,
            payload.params,
            reference.request_from_dict,
            payload.params,
        ),
        Comparison(
            "answer to ElicitResult JSON",
            None,
            ours_result_json,
            ours_answer,
            reference.result_json,
            theirs_answer,
        ),
    ]


def check_same_work(payload: Payload) -> None:
    """Both routes give the same request (its fresh id aside) and the same result JSON."""
    requests = [
        ours_from_json(payload.text).to_dict(),
        ours_from_dict(payload.params).to_dict(),
        asdict(reference.request_from_json(payload.text)),
        asdict(reference.request_from_dict(payload.params)),
    ]
    shown = [{k: v for k, v in r.items() if k != "id" and v is not None} for r in requests]
    if any(request != shown[0] for request in shown):
        raise SystemExit(f"bench: the routes map {payload.name} differently: {shown}")
    ours = ours_result_json(toolnexus.Answer("elc-1", True, payload.content))
    theirs = reference.result_json(reference.Answer("elc-1", True, payload.content))
    if ours != theirs:
        raise SystemExit(f"bench: the results differ:\n  {ours}\n  {theirs}")


def per_call_ns(route: Route, arg: object, calls: int) -> float:
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
    """How many calls take about `MEASURE_SECONDS`."""
    calls = 16
    while True:
        ns = per_call_ns(route, arg, calls)
        if ns * calls >= 10_000_000:
            return max(1, round(MEASURE_SECONDS * 1e9 / ns))
        calls *= 4


def measure(jobs: list[Comparison], rounds: int) -> list[Timings]:
    counts = [
        (calls_per_measure(c.ours, c.ours_arg), calls_per_measure(c.theirs, c.theirs_arg))
        for c in jobs
    ]
    timings = [Timings([], []) for _ in jobs]
    for round_ in range(rounds):
        for job, (ours_calls, theirs_calls), timing in zip(jobs, counts, timings):
            turns = [
                (timing.ours, job.ours, job.ours_arg, ours_calls),
                (timing.theirs, job.theirs, job.theirs_arg, theirs_calls),
            ]
            # Each route goes first in every other round, so neither always follows the other.
            for times, route, arg, calls in turns if round_ % 2 == 0 else reversed(turns):
                times.append(per_call_ns(route, arg, calls))
    return timings


def rss() -> tuple[int, str]:
    """The resident set size in bytes, or where Linux's `/proc` is missing, its peak."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE"), "RSS"
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        # Kilobytes on Linux and the BSDs, bytes on macOS.
        return (peak if sys.platform == "darwin" else peak * 1024), "peak RSS"


def settled_rss() -> int:
    gc.collect()
    return rss()[0]


def mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def growth(n: int) -> str:
    return f"{'+' if n >= 0 else '-'}{abs(n) / 2**10:,.0f} KiB"


def memory(payload: Payload, calls: int) -> None:
    routes: list[tuple[str, Route, object]] = [
        ("from JSON text", ours_from_json, payload.text),
        ("from a dict", ours_from_dict, payload.params),
        ("answer to JSON", ours_result_json, toolnexus.Answer("elc-1", True, payload.content)),
    ]
    label = rss()[1]
    print(f"\n{label}, {calls:,} calls of each route of toolnexus ({payload.name}):")
    before = settled_rss()
    for _, route, arg in routes:
        for _ in repeat(None, WARM_UP_CALLS):
            route(arg)
    warm = settled_rss()
    print(f"  {'before warm-up':<26}{mib(before):>10}")
    print(f"  {'after warm-up':<26}{mib(warm):>10}   ({WARM_UP_CALLS:,} calls of each route)")
    worst = 0
    for what, route, arg in routes:
        started = time.perf_counter()
        for _ in repeat(None, calls):
            route(arg)
        seconds = time.perf_counter() - started
        now = settled_rss()
        worst = max(worst, now - warm)
        print(
            f"  {'after ' + what:<26}{mib(now):>10}   ({growth(now - warm)} since warm-up, "
            f"{seconds:.1f} s)"
        )
    verdict = "flat" if worst < 2**20 else "GROWING"
    print(f"  => {verdict}: at most {growth(worst)} over {3 * calls:,} calls")


def describe_machine() -> None:
    print(
        f"toolnexus {metadata.version('toolnexus')}, mcp {metadata.version('mcp')}, "
        f"pydantic {metadata.version('pydantic')}, pydantic-core "
        f"{metadata.version('pydantic-core')}"
    )
    print(
        f"CPython {platform.python_version()} on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs"
    )


def report(payload: Payload, jobs: list[Comparison], timings: list[Timings]) -> list[str]:
    """Prints one payload's table; returns the targets it missed."""
    print(f"\n{payload.name}: {len(payload.text)} bytes of JSON")
    print(f"  {'':<29}{'toolnexus':>11}{'mcp route':>11}{'ratio':>9}  {'(range)':<14}target")
    missed = []
    for job, timing in zip(jobs, timings):
        low, high = timing.ratio_range()
        ratio = timing.ratio()
        if job.target is None:
            verdict = ""
        elif ratio >= job.target:
            verdict = f">= {job.target:g}x met"
        else:
            verdict = f">= {job.target:g}x MISSED"
            missed.append(f"{payload.name}, {job.what}: {ratio:.2f}x < {job.target:g}x")
        print(
            f"  {job.what:<29}"
            f"{statistics.median(timing.ours) / 1000:>9.2f}us"
            f"{statistics.median(timing.theirs) / 1000:>9.2f}us"
            f"{ratio:>8.1f}x  ({low:.1f}-{high:.1f}x)"
            f"{'':<{max(0, 14 - len(f'({low:.1f}-{high:.1f}x)'))}}{verdict}"
        )
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument(
        "--rss-calls",
        type=int,
        default=RSS_CALLS,
        help=f"calls of each route for the memory check (default {RSS_CALLS:,})",
    )
    args = parser.parse_args()
    describe_machine()
    print(
        f"Median time per call over {args.rounds} interleaved rounds of about "
        f"{MEASURE_SECONDS * 1000:g} ms each; ratio = mcp route / toolnexus."
    )
    missed = []
    for payload in PAYLOADS:
        check_same_work(payload)
        jobs = comparisons(payload)
        missed += report(payload, jobs, measure(jobs, args.rounds))
    memory(PAYLOADS[-1], args.rss_calls)
    print()
    if missed:
        print("Targets missed (reported, not enforced):")
        for line in missed:
            print(f"  {line}")
    else:
        print("Every target met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
