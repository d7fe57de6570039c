"""``Session``: requests paired with answers under the core's rules, from several threads."""

from __future__ import annotations

import gc
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import toolnexus
from toolnexus import Answer, ElicitResult, Number, Session

AGE = {
    "message": "Age?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "age": {"type": "integer", "minimum": 18},
            "plan": {"type": "string", "enum": ["free", "pro"], "default": "free"},
        },
        "required": ["age", "plan"],
    },
}
LOGIN = {
    "mode": "url",
    "message": "Sign in",
    "url": "https://auth.example.com/login",
    "elicitationId": "e-1",
}
SECRET = {
    "message": "Key?",
    "requestedSchema": {"type": "object", "properties": {"api_key": {"type": "string"}}},
}


def test_a_form_conversation() -> None:
    session = Session()
    request = session.begin(AGE, "q1", 0)
    assert (request.id, request.kind, request.prompt) == ("q1", "input", "Age?")
    assert request.schema == AGE["requestedSchema"]
    assert [r.id for r in session.pending()] == ["q1"]
    assert session.get("q1") == request and session.get("q2") is None
    assert "q1" in session and len(session) == 1

    with pytest.raises(toolnexus.InvalidContentError) as raised:
        session.resolve(Answer("q1", True, {"age": 17}), 1)
    error = raised.value
    assert (error.kind, error.pointer) == ("invalid_content", "/data")
    assert [(v.pointer, v.keyword) for v in error.violations] == [("/age", "minimum"), ("/plan", "required")]
    assert "q1" in session, "invalid content leaves the request pending"

    result = session.resolve({"id": "q1", "ok": True, "data": {"age": 18, "plan": "pro"}}, 2)
    assert result == ElicitResult("accept", {"age": 18, "plan": "pro"})
    assert result.to_json() == '{"action":"accept","content":{"age":18,"plan":"pro"}}'
    assert len(session) == 0

    with pytest.raises(toolnexus.UnknownRequestError) as again:
        session.resolve('{"id":"q1","ok":true,"data":{"age":18,"plan":"pro"}}', 3)
    assert again.value.pointer == "/id"


def test_numbers_keep_their_spelling() -> None:
    session = Session()
    schema = {"type": "object", "properties": {"rate": {"type": "number", "minimum": Number("0.50")}}}
    request = session.begin({"message": "Rate?", "requestedSchema": schema}, "r", 0)
    assert '"minimum":0.50' in request.to_json()
    result = session.resolve(b'{"id":"r","ok":true,"data":{"rate":1.250}}', 0)
    assert result.to_json() == '{"action":"accept","content":{"rate":1.250}}'


def test_decline_and_cancel_carry_no_content() -> None:
    session = Session()
    session.begin(AGE, "a", 0)
    session.begin(AGE, "b", 0)
    declined = session.resolve(Answer("a", False, {"age": 30}, "declined"), 0)
    assert declined.to_json() == '{"action":"decline"}'
    cancelled = session.resolve(Answer("b", False, reason="closed the tab"), 0)
    assert cancelled.to_json() == '{"action":"cancel"}'


def test_defaults_and_unknown_members_follow_the_options() -> None:
    strict = Session()
    strict.begin(AGE, "q", 0)
    with pytest.raises(toolnexus.InvalidContentError):
        strict.resolve(Answer("q", True, {"age": 20}), 0)
    with pytest.raises(toolnexus.InvalidContentError):
        strict.resolve(Answer("q", True, {"age": 20, "plan": "pro", "extra": 1}), 0)

    lenient = Session(apply_defaults=True, allow_unknown=True)
    lenient.begin(AGE, "q", 0)
    assert lenient.resolve(Answer("q", True, {"age": 20}), 0).content == {"age": 20, "plan": "free"}
    lenient.begin(AGE, "r", 0)
    assert lenient.resolve(Answer("r", True, {"age": 20, "plan": "pro", "x": 1}), 0).content == {
        "age": 20,
        "plan": "pro",
        "x": 1,
    }


def test_url_mode_waits_for_its_completion() -> None:
    session = Session()
    request = session.begin(LOGIN, "u", 0)
    assert (request.kind, request.url, request.data) == ("authorization", LOGIN["url"], None)
    assert session.resolve(Answer("u", True, {"ignored": 1}), 0).to_json() == '{"action":"accept"}'
    assert session.awaiting_completion() == [("u", "e-1")]
    assert session.complete("e-1") == "u"
    assert session.complete("e-1") is None
    assert session.awaiting_completion() == []


def test_completion_before_the_answer_ends_the_request() -> None:
    session = Session()
    session.begin(LOGIN, "u", 0)
    assert session.complete("e-1") == "u"
    assert session.pending() == []


def test_expiry() -> None:
    session = Session(ttl_ms=1000)
    assert session.ttl_ms == 1000
    request = session.begin(AGE, "q", 500)
    assert request.expires_at == "1970-01-01T00:00:01.500Z"
    session.begin(AGE, "r", 900)
    assert session.expire(1500) == []
    lapsed = session.expire(1501)
    assert lapsed == [("q", ElicitResult("cancel"))]
    late = session.resolve(Answer("r", True, {"age": 30, "plan": "pro"}), 1901)
    assert late.action == "cancel"


def test_cancel_all() -> None:
    session = Session()
    session.begin(AGE, "a", 0)
    session.begin(LOGIN, "b", 0)
    session.resolve(Answer("b", True), 0)
    session.begin(AGE, "c", 0)
    assert session.cancel_all() == [("a", ElicitResult("cancel")), ("c", ElicitResult("cancel"))]
    assert session.pending() == [] and session.awaiting_completion() == []


def test_begin_errors_change_nothing() -> None:
    session = Session(modes="form", max_pending=2, reject_secrets=True)
    assert session.modes == ("form",) and session.max_pending == 2
    with pytest.raises(toolnexus.ModeNotSupportedError) as mode:
        session.begin(LOGIN, "u", 0)
    assert mode.value.pointer == "/mode"
    with pytest.raises(toolnexus.SensitiveFieldError) as secret:
        session.begin(SECRET, "s", 0)
    assert secret.value.pointer.startswith("/requestedSchema")
    with pytest.raises(toolnexus.WrongTypeError) as schema:
        session.begin({"message": "x", "requestedSchema": {"type": "object", "properties": 3}}, "x", 0)
    assert schema.value.pointer == "/requestedSchema/properties"
    session.begin(AGE, "a", 0)
    with pytest.raises(toolnexus.DuplicateRequestError):
        session.begin(AGE, "a", 0)
    session.begin(AGE, "b", 0)
    with pytest.raises(toolnexus.TooManyPendingError):
        session.begin(AGE, "c", 0)
    assert [r.id for r in session.pending()] == ["a", "b"]


def test_bad_arguments() -> None:
    session = Session()
    with pytest.raises(toolnexus.InvalidJsonError):
        session.begin("{", "x", 0)
    with pytest.raises(toolnexus.TooLargeError):
        session.begin('{"message":"x"}', "x", 0, limits=toolnexus.Limits(max_input_bytes=4))
    with pytest.raises(toolnexus.MissingFieldError):
        session.resolve({"ok": True}, 0)
    with pytest.raises(toolnexus.InvalidValueError):
        Session(modes=("form", "sms"))
    with pytest.raises(TypeError):
        Session(modes=[1])  # type: ignore[list-item]
    with pytest.raises(OverflowError):
        session.begin(AGE, "x", -1)
    with pytest.raises(OverflowError):
        Session(max_pending=-1)


def test_generated_ids_and_mcp_like_models() -> None:
    class Params:
        def model_dump(self, *, by_alias: bool, exclude_none: bool) -> dict[str, Any]:
            assert by_alias and exclude_none
            return AGE

    session = Session(modes=())
    assert session.modes == ()
    with pytest.raises(toolnexus.ModeNotSupportedError):
        session.begin(Params(), None, 0)
    request = Session().begin(Params(), None, 0)
    assert request.id.startswith("elc-")


def test_many_threads_resolving_at_once() -> None:
    session = Session(max_pending=10_000)
    ids = [f"q{i}" for i in range(800)]
    for id in ids:
        session.begin(AGE, id, 0)
    barrier = threading.Barrier(8)

    def resolve_share(share: int) -> list[str]:
        barrier.wait()
        actions: list[str] = []
        for id in ids[share::8]:
            with pytest.raises(toolnexus.InvalidContentError):
                session.resolve(Answer(id, True, {"age": 1}), 0)
            actions.append(session.resolve(Answer(id, True, {"age": 40, "plan": "pro"}), 0).action)
            len(session)
        return actions

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(resolve_share, range(8)))
    assert sum(len(r) for r in results) == len(ids)
    assert all(action == "accept" for r in results for action in r)
    assert len(session) == 0


def test_threads_racing_for_one_request_resolve_it_once() -> None:
    session = Session()
    for round in range(50):
        session.begin(AGE, f"r{round}", 0)
        barrier = threading.Barrier(6)

        def race(_: int, id: str = f"r{round}") -> bool:
            barrier.wait()
            try:
                session.resolve(Answer(id, True, {"age": 20, "plan": "free"}), 0)
                return True
            except toolnexus.UnknownRequestError:
                return False

        with ThreadPoolExecutor(6) as pool:
            assert sum(pool.map(race, range(6))) == 1


def test_a_finalizer_calling_back_does_not_deadlock() -> None:
    """Python code run while the session works (here, by the collector) may use it too."""
    session = Session(max_pending=100_000)

    class Calls:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            session.pending()
            len(session)

    gc.collect()
    threshold = gc.get_threshold()
    gc.set_threshold(1)
    try:
        for i in range(300):
            Calls()
            session.begin(AGE, f"g{i}", 0)
            session.pending()
    finally:
        gc.set_threshold(*threshold)
    assert len(session) == 300


def test_repr() -> None:
    session = Session(modes=["url"])
    session.begin(LOGIN, "u", 0)
    assert repr(session) == "Session(modes=('url',), pending=1)"
    assert type(session).__module__ == "toolnexus"


def test_withdraw_removes_a_pending_request_without_an_answer() -> None:
    session = Session()
    request = session.begin(AGE, "w1", 0)
    assert session.withdraw(request.id) is True
    assert request.id not in session
    assert session.withdraw(request.id) is False
    with pytest.raises(toolnexus.UnknownRequestError):
        session.resolve(Answer(request.id, False), 0)


def test_a_refused_elicitation_gets_the_core_s_code() -> None:
    from toolnexus._native import refusal_code

    assert refusal_code("too_many_pending") == -32603
    assert refusal_code("duplicate_request") == -32603
    assert refusal_code("mode_not_supported") == -32602
    assert refusal_code("sensitive_field") == -32602
    with pytest.raises(ValueError, match="no error kind"):
        refusal_code("no_such_kind")
