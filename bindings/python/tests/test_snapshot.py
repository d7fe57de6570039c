"""Snapshots from Python: a round and a session's pending request written down, restored
in another process's stead, and every refusal typed."""

from __future__ import annotations

import json

import pytest

import toolnexus

CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "deploy"}}
RESULT = {
    "jsonrpc": "2.0",
    "id": 1,
    "result": {
        "resultType": "input_required",
        "inputRequests": {
            "region": {
                "method": "elicitation/create",
                "params": {
                    "message": "Region?",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {
                            "region": {"type": "string", "enum": ["eu", "us"]},
                            "replicas": {"type": "integer", "minimum": 1},
                        },
                        "required": ["region"],
                    },
                },
            },
            "ok": {
                "method": "elicitation/create",
                "params": {
                    "message": "Sure?",
                    "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                },
            },
        },
        "requestState": "s-1",
    },
}
KEY = b"the current key: 32 bytes or more"
OLD_KEY = b"the retired key: 32 bytes or more"
OTHER_KEY = b"another key of 32 bytes or more!"


def start(**options: object) -> tuple[toolnexus.InputRound, dict[str, toolnexus.Request]]:
    round_, requests = toolnexus.InputRound.start(CALL, RESULT, 1_000, **options)  # type: ignore[arg-type]
    return round_, dict(requests)


def test_a_restored_round_gives_the_same_retry() -> None:
    original, requests = start(ttl_ms=60_000)
    region = requests["region"]
    answer = {"id": region.id, "ok": True, "data": {"region": "eu", "replicas": 2}}
    original.resolve(answer, 2_000)

    blob = original.snapshot(key=KEY)
    assert isinstance(blob, bytes)
    restored = toolnexus.InputRound.restore(blob, keys=[OLD_KEY, KEY], now_ms=3_000)
    assert restored.missing() == original.missing() == ["ok"]
    assert [(k, r.id) for k, r in restored.pending()] == [(k, r.id) for k, r in original.pending()]
    pending = dict(restored.pending())["ok"]
    assert pending == dict(original.pending())["ok"]
    # The restored request carries its form and renders the same page.
    assert pending.to_html() == dict(original.pending())["ok"].to_html()

    confirm = pending.answer_from_form_data([("tn-request", pending.id), ("tn-0", "true"), ("tn-action", "accept")])
    assert restored.resolve(confirm, 3_000) == original.resolve(confirm, 3_000)
    assert restored.retry(2) == original.retry(2)


def test_the_same_refusals_after_a_restore() -> None:
    original, requests = start()
    restored = toolnexus.InputRound.restore(original.snapshot(), now_ms=1_500)
    bad = {"id": requests["region"].id, "ok": True, "data": {"region": "eu", "replicas": 0}}
    errors = []
    for round_ in (original, restored):
        with pytest.raises(toolnexus.InvalidContentError) as refused:
            round_.resolve(bad, 1_500)
        errors.append((refused.value.pointer, [v.keyword for v in refused.value.violations]))
        with pytest.raises(toolnexus.MissingResponsesError):
            round_.retry(2)
    assert errors[0] == errors[1] == ("/data", ["minimum"])


def test_nothing_unsent_is_written_down() -> None:
    round_, requests = start()
    typed = {"id": requests["region"].id, "ok": True, "data": {"region": "us", "replicas": 0}}
    with pytest.raises(toolnexus.InvalidContentError):
        round_.resolve(typed, 1_500)
    document = json.loads(round_.snapshot())
    assert document["snapshot"] == "input-round" and document["version"] == 1
    assert document["responses"] == {}
    assert '"replicas": 0' not in json.dumps(document) and '"us"' not in json.dumps(document["responses"])


@pytest.mark.parametrize(
    ("edit", "keys", "error"),
    [
        (lambda b: b[:-1], (KEY,), toolnexus.InvalidSealError),
        (lambda b: b.replace(b".", b".A", 1), (KEY,), toolnexus.InvalidSealError),
        (lambda b: b, (OTHER_KEY,), toolnexus.InvalidSealError),
        (lambda b: b, (), toolnexus.InvalidSealError),
    ],
)
def test_a_changed_or_rekeyed_snapshot_is_refused(edit, keys, error) -> None:  # type: ignore[no-untyped-def]
    round_, _ = start()
    with pytest.raises(error) as refused:
        toolnexus.InputRound.restore(edit(round_.snapshot(key=KEY)), keys=keys)
    assert refused.value.kind == "invalid_seal" and refused.value.pointer == ""


def test_an_unsealed_snapshot_is_refused_where_a_seal_is_expected() -> None:
    round_, _ = start()
    with pytest.raises(toolnexus.InvalidSealError):
        toolnexus.InputRound.restore(round_.snapshot(), keys=KEY)


def test_an_expired_round_says_so() -> None:
    round_, _ = start(ttl_ms=500)
    blob = round_.snapshot(key="text keys are their UTF-8, 32 bytes or more")
    toolnexus.InputRound.restore(blob, keys=["text keys are their UTF-8, 32 bytes or more"], now_ms=1_500)
    with pytest.raises(toolnexus.ExpiredError) as expired:
        toolnexus.InputRound.restore(blob, keys=["text keys are their UTF-8, 32 bytes or more"], now_ms=1_501)
    assert expired.value.kind == "expired" and expired.value.pointer == "/expiresAtMs"
    # Without now_ms, the clock says it is long past.
    with pytest.raises(toolnexus.ExpiredError):
        toolnexus.InputRound.restore(blob, keys=["text keys are their UTF-8, 32 bytes or more"])


def test_a_bad_document_is_a_typed_error() -> None:
    round_, _ = start()
    document = json.loads(round_.snapshot())
    document["version"] = 2
    with pytest.raises(toolnexus.InvalidValueError) as refused:
        toolnexus.InputRound.restore(json.dumps(document))
    assert refused.value.pointer == "/version"
    with pytest.raises(toolnexus.InvalidJsonError):
        toolnexus.InputRound.restore(b"{")
    with pytest.raises(toolnexus.TooLargeError):
        toolnexus.InputRound.restore(round_.snapshot(), limits=toolnexus.Limits(max_input_bytes=100))
    with pytest.raises(TypeError):
        toolnexus.InputRound.restore(12)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        round_.snapshot(key=5)  # type: ignore[arg-type]


def test_a_session_pending_request_moves_between_sessions() -> None:
    session = toolnexus.Session(ttl_ms=10_000, apply_defaults=True)
    params = RESULT["result"]["inputRequests"]["region"]["params"]  # type: ignore[index]
    request = session.begin(params, "q1", 0)
    blob = session.snapshot("q1", key=KEY)
    restored = toolnexus.Session.restore(blob, keys=(KEY,), now_ms=5)
    assert restored.pending() == [request]
    assert (restored.ttl_ms, restored.modes) == (session.ttl_ms, session.modes)
    answer = {"id": "q1", "ok": True, "data": {"region": "eu"}}
    assert restored.resolve(answer, 6) == session.resolve(answer, 6)
    with pytest.raises(toolnexus.UnknownRequestError):
        session.snapshot("q1")
    with pytest.raises(toolnexus.ExpiredError):
        toolnexus.Session.restore(blob, keys=(KEY,), now_ms=10_001)


@pytest.mark.parametrize("short", [b"", "", b"current key", "x" * 31, bytearray(31)])
def test_a_key_shorter_than_32_bytes_is_refused(short: bytes | str) -> None:
    round_, _ = start()
    with pytest.raises(toolnexus.InvalidValueError) as refused:
        round_.snapshot(key=short)
    assert (refused.value.kind, refused.value.pointer) == ("invalid_value", "/key")
    assert "32 bytes" in refused.value.message
    sealed = round_.snapshot(key=KEY)
    with pytest.raises(toolnexus.InvalidValueError) as refused:
        toolnexus.InputRound.restore(sealed, keys=[KEY, short])
    assert refused.value.pointer == "/keys/1"
    session = toolnexus.Session(ttl_ms=60_000)
    session.begin(RESULT["result"]["inputRequests"]["ok"]["params"], "q1", 0)  # type: ignore[index]
    with pytest.raises(toolnexus.InvalidValueError) as refused:
        session.snapshot("q1", key=short)
    assert refused.value.pointer == "/key"
    with pytest.raises(toolnexus.InvalidValueError) as refused:
        toolnexus.Session.restore(session.snapshot("q1", key=KEY), keys=short)
    assert refused.value.pointer == "/keys/0"


def test_a_snapshot_id_is_stable_and_names_one_state() -> None:
    import base64
    import hashlib

    round_, requests = start(ttl_ms=60_000)
    snapshot_id = round_.snapshot_id
    assert len(snapshot_id) == 43 and snapshot_id == round_.snapshot_id
    digest = hashlib.sha256(round_.snapshot()).digest()
    assert snapshot_id == base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    restored = toolnexus.InputRound.restore(round_.snapshot(key=KEY), keys=KEY, now_ms=2_000)
    assert restored.snapshot_id == snapshot_id
    region = requests["region"]
    restored.resolve({"id": region.id, "ok": True, "data": {"region": "eu"}}, 2_000)
    assert restored.snapshot_id != snapshot_id

    session = toolnexus.Session(ttl_ms=10_000)
    session.begin(RESULT["result"]["inputRequests"]["ok"]["params"], "q1", 0)  # type: ignore[index]
    pending_id = session.snapshot_id("q1")
    moved = toolnexus.Session.restore(session.snapshot("q1", key=KEY), keys=[KEY], now_ms=5)
    assert moved.snapshot_id("q1") == pending_id != snapshot_id
    with pytest.raises(toolnexus.UnknownRequestError) as refused:
        session.snapshot_id("q2")
    assert refused.value.pointer == "/id"


def test_a_pending_request_that_never_expires_is_not_written_down() -> None:
    session = toolnexus.Session()
    session.begin(RESULT["result"]["inputRequests"]["ok"]["params"], "q1", 0)  # type: ignore[index]
    for write in (lambda: session.snapshot("q1"), lambda: session.snapshot("q1", key=KEY), lambda: session.snapshot_id("q1")):
        with pytest.raises(toolnexus.InvalidValueError) as refused:
            write()
        assert refused.value.pointer == "/id" and "ttl_ms" in refused.value.message
