"""The shared conformance suite (``conformance/v1/``), run through the public Python API.

Each case's input goes in as JSON text, as ``str`` and again as ``bytes`` (bytes that are not
UTF-8 only as bytes): ``input``, a JSON value, written compact with the byte rules;
``inputText`` as it is; the output must be the exact text the case gives, errors must have its
kind and pointer. Every operation of the suite has a runner: an operation without one, or a runner
for an operation the suite does not hold, fails, so nothing is skipped unnoticed.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Union

import pytest

import toolnexus
from conformance_auth import AUTH_RUNNERS, CaseMismatch
from conformance_common import Runner, Text, compact, plain, read_spelt
from conformance_content import CONTENT_RUNNERS
from conformance_html import HTML_RUNNERS
from conformance_wire import WIRE_RUNNERS

SUITE = Path(__file__).resolve().parents[3] / "conformance" / "v1"


def _format_id(case: dict[str, Any], _text: Text, _limits: toolnexus.Limits) -> str:
    args = case["args"]
    return json.dumps(toolnexus.format_id(args["unixMs"], args["sequence"]))


RUNNERS: dict[str, Runner] = {
    "elicitation_to_request": lambda case, text, limits: toolnexus.elicitation_to_request(
        text, id=case["args"]["id"], limits=limits
    ).to_json(),
    "answer_to_elicit_result": lambda case, text, limits: toolnexus.answer_to_elicit_result(
        text, limits=limits
    ).to_json(),
    "request": lambda case, text, limits: toolnexus.Request.from_json(
        text, limits=limits
    ).to_json(),
    "answer": lambda case, text, limits: toolnexus.Answer.from_json(
        text, limits=limits
    ).to_json(),
    "elicit_result": lambda case, text, limits: toolnexus.ElicitResult.from_json(
        text, limits=limits
    ).to_json(),
    "format_id": _format_id,
    **CONTENT_RUNNERS,
    **WIRE_RUNNERS,
    **HTML_RUNNERS,
    **AUTH_RUNNERS,
}
"""How each operation runs through the Python API: JSON text in, JSON text out."""

EXPECTED_FAILURES: dict[int, str] = {}
"""Cases this runner is known to fail, by id, with the reason. Kept here, never in the cases."""

LIMIT_NAMES = {
    "maxInputBytes": "max_input_bytes",
    "maxDepth": "max_depth",
    "maxObjectMembers": "max_object_members",
    "maxArrayItems": "max_array_items",
}


@dataclass
class Loaded:
    """One case and the file it came from."""

    path: str
    case: dict[str, Any]


def load_suite() -> list[Loaded]:
    """Every case of every ``<area>/*.json`` file, sorted by path. Each file is read once with
    :func:`read_spelt`: a case's ``input`` keeps its spellings, so that its text can be written
    back byte for byte; the rest is made :func:`plain`."""
    files = sorted(SUITE.glob("*/*.json"))
    assert files, f"no case files under {SUITE}"
    loaded: list[Loaded] = []
    for path in files:
        for spelt in read_spelt(path.read_text(encoding="utf-8"))["cases"]:
            case = plain(spelt)
            if "input" in spelt:
                case["input"] = spelt["input"]
            loaded.append(Loaded(str(path.relative_to(SUITE)), case))
    return loaded


def inputs(case: dict[str, Any]) -> list[Text]:
    """The case's input as ``str`` and as ``bytes``; only bytes when it is not UTF-8."""
    if "inputBase64" in case:
        raw = base64.b64decode(case["inputBase64"])
        try:
            return [raw.decode("utf-8"), raw]
        except UnicodeDecodeError:
            return [raw]
    if "inputParts" in case:
        text = "".join(map(part_text, case["inputParts"]))
    elif "inputText" in case:
        text = case["inputText"]
    elif "input" in case:
        text = compact(case["input"])
    else:
        text = ""
    return [text, text.encode("utf-8")]


def part_text(part: dict[str, Any]) -> str:
    """One piece of an ``inputParts`` input: its text repeated, ``{n}`` numbered if asked."""
    times = part.get("times", 1)
    if part.get("numbered", False):
        return "".join(part["text"].replace("{n}", str(n)) for n in range(times))
    return str(part["text"] * times)


NATIVE_RUNNERS: dict[str, Callable[[dict[str, Any], Any, toolnexus.Limits], str]] = {
    "elicitation_to_request": lambda case, value, limits: toolnexus.elicitation_to_request(
        value, id=case["args"]["id"], limits=limits
    ).to_json(),
    "answer": lambda case, value, limits: toolnexus.Answer.from_dict(value, limits=limits).to_json(),
}
"""How a case flagged ``native`` is run again from the ``dict`` that ``json.loads`` reads: the
limits must hold for Python objects as they do for text, with the same error kind and
pointer."""


def limits_of(case: dict[str, Any]) -> toolnexus.Limits:
    given = case.get("limits", {})
    return toolnexus.Limits(**{LIMIT_NAMES[key]: value for key, value in given.items()})


def check(case: dict[str, Any]) -> str | None:
    """Why the case fails, or ``None`` when it passes."""
    run = RUNNERS.get(case["op"])
    if run is None:
        return f"no runner for {case['op']}"
    limits = limits_of(case)
    expect = case["expect"]
    for text in inputs(case):
        shown = "bytes" if isinstance(text, bytes) else "str"
        try:
            output = run(case, text, limits)
        except CaseMismatch as mismatch:
            return f"({shown}) {mismatch}"
        except toolnexus.Error as error:
            if "error" not in expect:
                return f"({shown}) expected output {expect['output']}\n    got {error!r}: {error}"
            want = expect["error"]
            if (error.kind, error.pointer) != (want["kind"], want["pointer"]):
                return (
                    f"({shown}) expected error {want['kind']} at {want['pointer']!r}\n"
                    f"    got {error.kind} at {error.pointer!r}: {error.message}"
                )
            continue
        if "output" not in expect:
            want = expect["error"]
            return f"({shown}) expected error {want['kind']} at {want['pointer']!r}\n    got output {output[:200]}"
        if output != expect["output"]:
            return f"({shown}) output differs\n    want: {expect['output']}\n    got:  {output}"
    if "native" in case.get("flags", []):
        return check_native(case, limits)
    return None


def check_native(case: dict[str, Any], limits: toolnexus.Limits) -> str | None:
    """Why the case fails when its input is given as Python objects, or ``None``."""
    run = NATIVE_RUNNERS.get(case["op"])
    if run is None:
        return f"no native runner for {case['op']}"
    value = json.loads(inputs(case)[0])
    expect = case["expect"]
    try:
        output = run(case, value, limits)
    except toolnexus.Error as error:
        want = expect.get("error")
        if want is None or (error.kind, error.pointer) != (want["kind"], want["pointer"]):
            return f"(dict) expected {expect}\n    got {error.kind} at {error.pointer!r}: {error.message}"
        return None
    if output != expect.get("output"):
        return f"(dict) expected {expect}\n    got output {output[:200]}"
    return None


def test_suite_through_the_python_api(capsys: pytest.CaptureFixture[str]) -> None:
    passed, failures, known = 0, [], 0
    for loaded in load_suite():
        case = loaded.case
        why = check(case)
        expected_to_fail = case["id"] in EXPECTED_FAILURES
        if why is None and not expected_to_fail:
            passed += 1
        elif why is not None and expected_to_fail:
            known += 1
        elif why is None:
            failures.append(f"#{case['id']} {case['description']} ({loaded.path}): listed as an expected failure but passes")
        else:
            failures.append(f"#{case['id']} {case['description']} ({loaded.path})\n    {why}")
    with capsys.disabled():
        for failure in failures:
            print(f"\nFAIL {failure}")
        if known:
            print(f"\nconformance (python): {known} known failures listed in EXPECTED_FAILURES")
            for id, reason in sorted(EXPECTED_FAILURES.items()):
                print(f"    #{id}: {reason}")
        print(f"\nconformance (python): {passed} passed, {len(failures)} failed")
    assert passed > 0
    assert not failures, f"{len(failures)} conformance cases failed"


def test_every_op_of_the_suite_has_a_runner_and_every_runner_an_op() -> None:
    in_suite = {loaded.case["op"] for loaded in load_suite()}
    assert not in_suite - set(RUNNERS), f"ops in the suite without a Python runner: {sorted(in_suite - set(RUNNERS))}"
    assert not set(RUNNERS) - in_suite, f"runners for ops the suite does not hold: {sorted(set(RUNNERS) - in_suite)}"


_Contract = Union[type[toolnexus.Request], type[toolnexus.Answer], type[toolnexus.ElicitResult]]

ROUND_TRIPS: dict[str, _Contract] = {
    "request": toolnexus.Request,
    "answer": toolnexus.Answer,
    "elicit_result": toolnexus.ElicitResult,
    "elicitation_to_request": toolnexus.Request,
    "answer_to_elicit_result": toolnexus.ElicitResult,
}
"""The class each operation's output is, to take through ``to_dict`` and ``from_dict``."""


def test_every_expected_output_survives_a_trip_through_python_objects() -> None:
    """``to_dict`` then ``from_dict`` keeps every byte: member order and number spelling."""
    tried = 0
    for loaded in load_suite():
        case = loaded.case
        cls = ROUND_TRIPS.get(case["op"])
        output = case["expect"].get("output")
        if cls is None or output is None:
            continue
        assert cls.from_dict(cls.from_json(output).to_dict()).to_json() == output, f"#{case['id']} {case['description']}"
        tried += 1
    assert tried > 50
