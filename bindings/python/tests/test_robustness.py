"""Whatever comes in, the answer is a value or a ``toolnexus.Error``: never a crash, a panic
or another exception."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import toolnexus

SEED_TEXTS = [
    '{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}',
    '{"mode":"url","message":"Log in","url":"https://example.com/auth","elicitationId":"e"}',
    '{"id":"r","ok":true,"data":{"name":"Ada","n":1.0e2,"tags":["a","b"]},"reason":"declined"}',
    '{"id":"r","kind":"input","prompt":"p","url":"u","data":{"x":-0},"expiresAt":"2026-01-01T00:00:00Z"}',
    '{"action":"accept","content":{"a":[\"\\ud83d\\ude00\"]},"_meta":{"k":null}}',
]

CALLS: list[Callable[[Any], object]] = [
    lambda x: toolnexus.elicitation_to_request(x, id="r"),
    toolnexus.answer_to_elicit_result,
    toolnexus.Request.from_json,
    toolnexus.Answer.from_json,
    toolnexus.ElicitResult.from_json,
]
DICT_CALLS: list[Callable[[Any], object]] = [
    lambda x: toolnexus.elicitation_to_request(x, id="r"),
    toolnexus.answer_to_elicit_result,
    toolnexus.Request.from_dict,
    toolnexus.Answer.from_dict,
    toolnexus.ElicitResult.from_dict,
]


def mutate(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        at = rng.randrange(len(out) + 1)
        if choice < 0.4 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif choice < 0.7:
            out[at:at] = bytes(rng.choice([b"{", b"}", b"[", b"]", b'"', b",", b":", b"\\u", b"\xff", b"1e9", b"null"]))
        else:
            del out[at : at + rng.randint(1, 8)]
    return bytes(out)


def random_value(rng: random.Random, depth: int = 0) -> Any:
    leaves: list[Callable[[], Any]] = [
        lambda: None,
        lambda: rng.random() < 0.5,
        lambda: rng.randint(-(2**80), 2**80),
        lambda: rng.choice([0.5, -0.0, 1e300, float("nan"), float("inf")]),
        lambda: toolnexus.Number(rng.choice(["1.0", "1e400", "-0", "2.50"])),
        lambda: rng.choice(["", "x", "\ud800", "é", "a/b~c"]),
        lambda: rng.choice([b"bytes", {1, 2}, object(), 3j]),
    ]
    if depth > 6 or rng.random() < 0.4:
        return rng.choice(leaves)()
    if rng.random() < 0.5:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["id", "ok", "data", "reason", "kind", "prompt", "url", "mode", "message", "requestedSchema", "action", "content", "_meta", 7]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def only_typed_errors(call: Callable[[Any], object], argument: Any) -> None:
    try:
        call(argument)
    except toolnexus.Error:
        pass


def test_mutated_json_text_gives_values_or_typed_errors() -> None:
    rng = random.Random(20260728)
    seeds = [text.encode() for text in SEED_TEXTS]
    for _ in range(4000):
        data = mutate(rng, rng.choice(seeds))
        call = rng.choice(CALLS)
        only_typed_errors(call, data)
        try:
            only_typed_errors(call, data.decode("utf-8"))
        except UnicodeDecodeError:
            pass


def test_random_python_values_give_values_or_typed_errors() -> None:
    rng = random.Random(5)
    for _ in range(4000):
        value = random_value(rng)
        for call in DICT_CALLS:
            only_typed_errors(call, value)


def test_random_valid_documents_read_the_same_as_text_and_as_dicts() -> None:
    rng = random.Random(11)
    for _ in range(500):
        data = {f"k{i}": rng.choice([1, "s", True, None, 2.5, [1, "x"], {"n": -3}]) for i in range(rng.randint(0, 6))}
        answer = {"id": "r", "ok": rng.random() < 0.5, "data": data}
        text = json.dumps(answer, separators=(",", ":"))
        assert toolnexus.Answer.from_json(text) == toolnexus.Answer.from_dict(answer)
        assert toolnexus.Answer.from_json(text).to_json() == text
