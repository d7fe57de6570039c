"""toolnexus from Python beside the peers a host would otherwise use, side by side in one process.

Run by `cargo xtask bench python`, which installs the peers into the bench's environment
(or `python bench/run.py` where the `toolnexus` wheel, the `mcp` package, `orjson` and
`jsonschema-rs` are installed). For each payload of `payloads.py` it times:

- a request from JSON text (`elicitation_to_request(text)`) beside the `mcp` package's own
  pydantic parse of the same text (`TypeAdapter(ElicitRequestParams).validate_json`) and
  beside `orjson.loads`, the fastest reader of JSON into Python objects;
- a request from a `dict` beside `orjson.dumps` of the same dict, a full walk of it;
- a request from the `mcp` package's params model beside the request from its dict (its
  `model_dump`, which holds the model's own strings: a dict that `json.loads` made of the
  same text reads a few percent faster, its objects laid out together);
- `Form.validate(content)` beside jsonschema-rs's compiled validator
  (`validator_for(schema)`, `list(iter_errors(content))`) on the same content;
- an answer mapped back and written as JSON beside the `mcp` route (its `ElicitResult`
  model, dumped);

then the cost per field at 1,000 fields against 10, and the resident memory over a million
calls. Every route is a plain Python function of one argument, timed in a loop with the
collector paused (as `timeit` does); the routes of a comparison take turns, in alternating
order, over several rounds, and each ratio is the median of the rounds' ratios.

The targets are reported, not asserted: timings depend on the machine and what else runs on
it. With `TOOLNEXUS_BENCH_TARGETS` set to a file, each target's line is also appended there
for the summary `cargo xtask bench` prints. The script fails only when it cannot run.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from itertools import repeat
from typing import Any

import toolnexus

import timing
from payloads import FIELDS_10, FIELDS_1000, PAYLOADS, Payload
from timing import MEASURE_SECONDS, Route, calls_per_measure, per_call_ns

try:
    import jsonschema_rs
    import orjson
    import reference
    from mcp.types import ElicitRequestParams
    from pydantic import TypeAdapter
except ImportError as missing:
    sys.exit(f"bench: the peers are missing ({missing}); `cargo xtask bench python` installs them")

# How many calls of each route of toolnexus the memory check makes.
RSS_CALLS = 1_000_000
# Calls of each route before the memory baseline: caches, arenas and lazy imports fill up.
WARM_UP_CALLS = 10_000
# The cost per field at 1,000 fields may be at most this many times the cost at 10.
GROWTH_TARGET = 1.5

PARAMS: TypeAdapter[ElicitRequestParams] = TypeAdapter(ElicitRequestParams)



@dataclass(frozen=True)
class Target:
    """What a comparison must show: `peer / ours` at least `at_least` (so 0.5 reads "within
    2x of the peer", 4.0 "at least 4x faster"), described as `text`."""

    at_least: float
    text: str


@dataclass(frozen=True)
class Comparison:
    """One job done by toolnexus and by a peer on the same input."""

    what: str
    peer: str
    target: Target | None
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

    def ours_us(self) -> float:
        return statistics.median(self.ours) / 1000

    def theirs_us(self) -> float:
        return statistics.median(self.theirs) / 1000


def comparisons(payload: Payload) -> list[Comparison]:
    model = PARAMS.validate_json(payload.text)
    form = toolnexus.Form(payload.schema)
    validator = jsonschema_rs.validator_for(payload.schema)
    return [
        Comparison(
            "request from JSON text",
            "mcp pydantic parse",
            Target(4.0, ">= 4x faster"),
            toolnexus.elicitation_to_request,
            payload.text,
            PARAMS.validate_json,
            payload.text,
        ),
        Comparison(
            "request from JSON text",
            "orjson.loads",
            Target(1 / 1.5, "within 1.5x"),
            toolnexus.elicitation_to_request,
            payload.text,
            orjson.loads,
            payload.text,
        ),
        Comparison(
            "request from a dict",
            "orjson.dumps",
            Target(0.5, "within 2x"),
            toolnexus.elicitation_to_request,
            payload.params,
            orjson.dumps,
            payload.params,
        ),
        Comparison(
            "request from an mcp model",
            "request from its dict",
            Target(1.0, "no slower"),
            toolnexus.elicitation_to_request,
            model,
            toolnexus.elicitation_to_request,
            # The model's own dict, holding the same objects as the model.
            model.model_dump(by_alias=True, exclude_none=True),
        ),
        Comparison(
            "Form.validate(content)",
            "jsonschema-rs iter_errors",
            Target(1.0, "at or below"),
            form.validate,
            payload.content,
            lambda content: list(validator.iter_errors(content)),
            payload.content,
        ),
        Comparison(
            "answer to ElicitResult JSON",
            "mcp ElicitResult dump",
            None,
            lambda answer: toolnexus.answer_to_elicit_result(answer).to_json(),
            toolnexus.Answer("elc-1", True, payload.content),
            reference.result_json,
            reference.Answer("elc-1", True, payload.content),
        ),
    ]


def check_same_work(payload: Payload) -> None:
    """Each pair of routes does the same job: the same request (its fresh id aside), no
    violations from either validator, the same result JSON."""
    model = PARAMS.validate_json(payload.text)
    requests = [
        toolnexus.elicitation_to_request(payload.text).to_dict(),
        toolnexus.elicitation_to_request(payload.params).to_dict(),
        toolnexus.elicitation_to_request(model).to_dict(),
        asdict(reference.request_from_json(payload.text)),
    ]
    shown = [{k: v for k, v in r.items() if k != "id" and v is not None} for r in requests]
    if any(request != shown[0] for request in shown):
        raise SystemExit(f"bench: the routes map {payload.name} differently")
    ours = toolnexus.Form(payload.schema).validate(payload.content)
    theirs = list(jsonschema_rs.validator_for(payload.schema).iter_errors(payload.content))
    if ours or theirs:
        raise SystemExit(f"bench: the content of {payload.name} is not valid: {ours} {theirs}")
    answer = toolnexus.answer_to_elicit_result(toolnexus.Answer("elc-1", True, payload.content))
    if answer.to_json() != reference.result_json(reference.Answer("elc-1", True, payload.content)):
        raise SystemExit(f"bench: the results of {payload.name} differ")


def measure(pairs: list[tuple[Route, object, Route, object]], rounds: int) -> list[Timings]:
    counts = [(calls_per_measure(o, oa), calls_per_measure(t, ta)) for o, oa, t, ta in pairs]
    timings = [Timings([], []) for _ in pairs]
    for round_ in range(rounds):
        for (ours, ours_arg, theirs, theirs_arg), (oc, tc), timing in zip(pairs, counts, timings):
            turns = [(timing.ours, ours, ours_arg, oc), (timing.theirs, theirs, theirs_arg, tc)]
            # Each route goes first in every other round, so neither always follows the other.
            for times, route, arg, calls in turns if round_ % 2 == 0 else reversed(turns):
                times.append(per_call_ns(route, arg, calls))
    return timings


def record(what: str, payload: str, measured: str, target: str, met: bool) -> None:
    timing.record("python", what, payload, measured, target, met)


def report(payload: Payload, jobs: list[Comparison], timings: list[Timings]) -> None:
    """Prints one payload's table and records its targets."""
    print(f"\n{payload.name}: {len(payload.text):,} bytes of params")
    print(f"  {'':<28}{'toolnexus':>11}  {'peer':<26}{'':>9}{'peer/ours':>10}  target")
    for job, timing in zip(jobs, timings):
        ratio = timing.ratio()
        verdict = ""
        if job.target is not None:
            met = ratio >= job.target.at_least
            verdict = f"{job.target.text}: {'met' if met else 'MISSED'}"
            record(f"{job.what} vs {job.peer}", payload.name, f"{ratio:.2f}x", job.target.text, met)
        print(
            f"  {job.what:<28}{timing.ours_us():>9.2f}us  {job.peer:<26}"
            f"{timing.theirs_us():>7.2f}us{ratio:>9.2f}x  {verdict}"
        )


def summary(rows: list[tuple[Payload, dict[str, float]]]) -> None:
    """The figures of every payload in one table, in microseconds."""
    columns = [
        ("ours from JSON", "json"),
        ("pydantic parse", "pydantic"),
        ("orjson.loads", "loads"),
        ("ours from dict", "dict"),
        ("ours from model", "model"),
        ("orjson.dumps", "dumps"),
        ("ours validate", "validate"),
        ("jsonschema-rs", "jsonschema"),
    ]
    print("\nEvery payload, median µs per call:")
    print("| payload | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for payload, figures in rows:
        cells = " | ".join(f"{figures[key]:,.2f}" for _, key in columns)
        print(f"| {payload.name} | {cells} |")


def growth(rows: dict[str, dict[str, float]], rounds: int) -> None:
    """The cost per field at 1,000 fields against the form of 10 fields."""
    small, large = FIELDS_10, FIELDS_1000
    timed = measure(
        [
            (toolnexus.check_schema, small.schema, toolnexus.check_schema, large.schema),
            (toolnexus.Form, small.schema, toolnexus.Form, large.schema),
        ],
        rounds,
    )
    jobs = [
        ("request from JSON text", rows[small.name]["json"], rows[large.name]["json"]),
        ("check_schema", timed[0].ours_us(), timed[0].theirs_us()),
        ("the form model (Form)", timed[1].ours_us(), timed[1].theirs_us()),
        ("Form.validate", rows[small.name]["validate"], rows[large.name]["validate"]),
    ]
    print(
        f"\nCost per field at {large.fields:,} fields against {small.fields} "
        f"(target: within {GROWTH_TARGET}x):"
    )
    for what, small_us, large_us in jobs:
        a, b = small_us * 1000 / small.fields, large_us * 1000 / large.fields
        met = b / a <= GROWTH_TARGET
        print(f"  {what:<28}{a:>9.1f} ns/field{b:>9.1f} ns/field{b / a:>7.2f}x  {'met' if met else 'MISSED'}")
        record(
            f"{what}: cost per field, 1,000 fields against 10",
            "10 and 1,000 fields",
            f"{b / a:.2f}x",
            f"<= {GROWTH_TARGET}x",
            met,
        )


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


def grown(n: int) -> str:
    return f"{'+' if n >= 0 else '-'}{abs(n) / 2**10:,.0f} KiB"


def memory(payload: Payload, calls: int) -> None:
    form = toolnexus.Form(payload.schema)
    routes: list[tuple[str, Route, object]] = [
        ("from JSON text", toolnexus.elicitation_to_request, payload.text),
        ("from a dict", toolnexus.elicitation_to_request, payload.params),
        ("validate", form.validate, payload.content),
        (
            "answer to JSON",
            lambda answer: toolnexus.answer_to_elicit_result(answer).to_json(),
            toolnexus.Answer("elc-1", True, payload.content),
        ),
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
            f"  {'after ' + what:<26}{mib(now):>10}   ({grown(now - warm)} since warm-up, "
            f"{seconds:.1f} s)"
        )
    verdict = "flat" if worst < 2**20 else "GROWING"
    print(f"  => {verdict}: at most {grown(worst)} over {len(routes) * calls:,} calls")


def describe_machine() -> None:
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("toolnexus", "mcp", "pydantic", "orjson", "jsonschema-rs")
    )
    print(versions)
    print(
        f"CPython {platform.python_version()} on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs"
    )


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
        f"{MEASURE_SECONDS * 1000:g} ms each; ratio = peer / toolnexus."
    )
    rows: list[tuple[Payload, dict[str, float]]] = []
    figures: dict[str, dict[str, float]] = {}
    for payload in PAYLOADS:
        check_same_work(payload)
        jobs = comparisons(payload)
        timings = measure([(j.ours, j.ours_arg, j.theirs, j.theirs_arg) for j in jobs], args.rounds)
        report(payload, jobs, timings)
        by_job = dict(zip(("pydantic", "loads", "dumps", "model", "validate", "result"), timings))
        figures[payload.name] = {
            "json": by_job["pydantic"].ours_us(),
            "pydantic": by_job["pydantic"].theirs_us(),
            "loads": by_job["loads"].theirs_us(),
            "dict": by_job["dumps"].ours_us(),
            "model": by_job["model"].ours_us(),
            "dumps": by_job["dumps"].theirs_us(),
            "validate": by_job["validate"].ours_us(),
            "jsonschema": by_job["validate"].theirs_us(),
        }
        rows.append((payload, figures[payload.name]))
    summary(rows)
    growth(figures, args.rounds)
    memory(PAYLOADS[1], args.rss_calls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
