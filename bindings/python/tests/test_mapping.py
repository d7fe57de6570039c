"""``elicitation_to_request``, ``answer_to_elicit_result``, ``format_id`` and ``next_id``."""

from __future__ import annotations

import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import toolnexus
from toolnexus import Answer

FORM = {
    "message": "Your name?",
    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
}
FORM_REQUEST = (
    '{"id":"r","kind":"input","prompt":"Your name?","data":{"schema":'
    '{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}'
)
ID = re.compile(r"elc-[0-9a-f]+-[0-9]+")


class Model:
    """Stands in for a pydantic model of the ``mcp`` package."""

    def __init__(self, dumped: Any) -> None:
        self.dumped = dumped
        self.calls: list[dict[str, Any]] = []

    def model_dump(self, **options: Any) -> Any:
        self.calls.append(options)
        return self.dumped


# elicitation_to_request.


@pytest.mark.parametrize("params", [FORM, json.dumps(FORM, separators=(",", ":"))])
def test_params_as_a_dict_or_json_text(params: Any) -> None:
    assert toolnexus.elicitation_to_request(params, id="r").to_json() == FORM_REQUEST
    if isinstance(params, str):
        assert toolnexus.elicitation_to_request(params.encode(), id="r").to_json() == FORM_REQUEST
        assert toolnexus.elicitation_to_request(bytearray(params.encode()), id="r").to_json() == FORM_REQUEST


def test_params_as_a_model_are_dumped_with_wire_names_and_without_nones() -> None:
    model = Model({"mode": "url", "message": "Log in", "url": "https://example.com/", "elicitationId": "e1"})
    request = toolnexus.elicitation_to_request(model, id="r")
    assert request.to_json() == '{"id":"r","kind":"authorization","prompt":"Log in","url":"https://example.com/"}'
    assert model.calls == [{"by_alias": True, "exclude_none": True}]


def test_a_model_that_fails_to_dump_raises_its_own_error() -> None:
    class Broken:
        def model_dump(self, **options: Any) -> Any:
            raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        toolnexus.elicitation_to_request(Broken())


def test_a_model_dump_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(toolnexus.WrongTypeError):
        toolnexus.elicitation_to_request(Model(["x"]))
    with pytest.raises(toolnexus.WrongTypeError) as caught:
        toolnexus.elicitation_to_request(Model({"message": {1, 2}, "requestedSchema": {}}))
    assert caught.value.pointer == "/message"


def test_a_dict_is_never_taken_for_a_model() -> None:
    class Params(dict):  # type: ignore[type-arg]
        def model_dump(self, **options: Any) -> Any:
            raise AssertionError("a dict is read as it is")

    assert toolnexus.elicitation_to_request(Params(FORM), id="r").to_json() == FORM_REQUEST


def test_without_an_id_one_is_made() -> None:
    first = toolnexus.elicitation_to_request(FORM)
    second = toolnexus.elicitation_to_request(FORM)
    assert ID.fullmatch(first.id) and ID.fullmatch(second.id)
    assert first.id != second.id
    assert int(second.id.rsplit("-", 1)[1]) > int(first.id.rsplit("-", 1)[1])


@pytest.mark.parametrize(
    ("params", "id", "error", "path"),
    [
        (FORM, "", toolnexus.InvalidValueError, "/id"),
        ({"mode": "sms", "message": "x"}, "r", toolnexus.InvalidValueError, "/mode"),
        ({"mode": "url", "message": "x"}, "r", toolnexus.MissingFieldError, "/url"),
        ({"mode": "url", "url": ""}, "r", toolnexus.InvalidValueError, "/url"),
        ({"message": "x"}, "r", toolnexus.MissingFieldError, "/requestedSchema"),
        ({"message": "x", "requestedSchema": "{}"}, "r", toolnexus.WrongTypeError, "/requestedSchema"),
        ({"message": 1, "requestedSchema": {}}, "r", toolnexus.WrongTypeError, "/message"),
        ("[]", "r", toolnexus.WrongTypeError, ""),
        ("", "r", toolnexus.InvalidJsonError, ""),
        ('{"message":"\\ud800"}', "r", toolnexus.LoneSurrogateError, "/message"),
        ("{\"message\":\"\ud800\"}", "r", toolnexus.LoneSurrogateError, ""),
        (b"{\"message\":\"\xc3\"}", "r", toolnexus.InvalidUtf8Error, ""),
        (42, "r", toolnexus.WrongTypeError, ""),
    ],
)
def test_elicitation_to_request_refuses_what_the_core_refuses(
    params: Any, id: str, error: type[toolnexus.Error], path: str
) -> None:
    with pytest.raises(error) as caught:
        toolnexus.elicitation_to_request(params, id=id)
    assert caught.value.pointer == path


def test_unknown_params_keys_are_ignored() -> None:
    request = toolnexus.elicitation_to_request({**FORM, "future": {"x": 1}, "_meta": {"a": 1}}, id="r")
    assert request.to_json() == FORM_REQUEST


def test_limits_apply_to_every_form_of_params() -> None:
    limits = toolnexus.Limits(max_object_members=1)
    text = '{"message":"x","requestedSchema":{}}'
    for params in (text, text.encode(), {"message": "x", "requestedSchema": {}}, Model({"message": "x", "requestedSchema": {}})):
        with pytest.raises(toolnexus.TooManyMembersError):
            toolnexus.elicitation_to_request(params, id="r", limits=limits)
    with pytest.raises(toolnexus.TooLargeError):
        toolnexus.elicitation_to_request(text, limits=toolnexus.Limits(max_input_bytes=len(text) - 1))
    for encoded in (text.encode(), bytearray(text.encode())):
        with pytest.raises(toolnexus.TooLargeError):
            toolnexus.elicitation_to_request(encoded, limits=toolnexus.Limits(max_input_bytes=len(text) - 1))
    assert toolnexus.elicitation_to_request(text, id="r", limits=toolnexus.Limits(max_input_bytes=len(text))).prompt == "x"


def test_the_byte_limit_counts_utf8_bytes_of_text() -> None:
    text = '{"message":"é","requestedSchema":{}}'
    assert len(text.encode()) == len(text) + 1
    with pytest.raises(toolnexus.TooLargeError):
        toolnexus.elicitation_to_request(text, limits=toolnexus.Limits(max_input_bytes=len(text)))


def test_large_inputs_are_read_while_other_threads_run() -> None:
    schema = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 100} for i in range(900)}}
    params = toolnexus.Request("r", "input", "", data={"schema": schema}).to_json()
    text = '{"message":"big","requestedSchema":' + params[params.index('{"type"') : -2] + "}"
    assert len(text) > 64 * 1024
    with ThreadPoolExecutor(4) as pool:
        requests = list(pool.map(lambda _: toolnexus.elicitation_to_request(text, id="r"), range(16)))
    assert {r.to_json() for r in requests} == {requests[0].to_json()}
    assert requests[0].schema == schema


# answer_to_elicit_result.


@pytest.mark.parametrize(
    ("answer", "result"),
    [
        (Answer("r", True, {"name": "Ada", "n": 1.5}), '{"action":"accept","content":{"name":"Ada","n":1.5}}'),
        (Answer("r", True), '{"action":"accept","content":{}}'),
        (Answer("r", False, {"x": "y"}, "declined"), '{"action":"decline"}'),
        (Answer("r", False, reason="cancelled"), '{"action":"cancel"}'),
        (Answer("r", False, reason="expired"), '{"action":"cancel"}'),
        (Answer("r", False, reason="Declined"), '{"action":"cancel"}'),
        (Answer("r", False), '{"action":"cancel"}'),
    ],
)
def test_answers_map_onto_results(answer: Answer, result: str) -> None:
    assert toolnexus.answer_to_elicit_result(answer).to_json() == result
    assert toolnexus.answer_to_elicit_result(answer.to_dict()).to_json() == result
    assert toolnexus.answer_to_elicit_result(answer.to_json()).to_json() == result
    assert toolnexus.answer_to_elicit_result(answer.to_json().encode()).to_json() == result


def test_accepted_data_must_be_content() -> None:
    answer = Answer("r", True, {"ok": "x", "nested": {"a": 1}})
    for given in (answer, answer.to_dict(), answer.to_json()):
        with pytest.raises(toolnexus.WrongTypeError) as caught:
            toolnexus.answer_to_elicit_result(given)
        assert caught.value.pointer == "/data/nested"


def test_answer_errors_point_into_the_answer() -> None:
    with pytest.raises(toolnexus.MissingFieldError) as caught:
        toolnexus.answer_to_elicit_result({"id": "r"})
    assert caught.value.pointer == "/ok"
    with pytest.raises(toolnexus.TooDeepError):
        toolnexus.answer_to_elicit_result('{"id":"r","ok":true,"data":{"a":[[]]}}', limits=toolnexus.Limits(max_depth=3))


# Ids.


@pytest.mark.parametrize(
    ("unix_ms", "sequence", "id"),
    [
        (0x18BCFE56800, 1, "elc-18bcfe56800-1"),
        (0, 0, "elc-0-0"),
        (2**64 - 1, 2**64 - 1, "elc-ffffffffffffffff-18446744073709551615"),
    ],
)
def test_format_id(unix_ms: int, sequence: int, id: str) -> None:
    assert toolnexus.format_id(unix_ms, sequence) == id


@pytest.mark.parametrize(("unix_ms", "sequence"), [(-1, 0), (0, 2**64)])
def test_format_id_takes_unsigned_64_bit_numbers(unix_ms: int, sequence: int) -> None:
    with pytest.raises(OverflowError):
        toolnexus.format_id(unix_ms, sequence)


def test_format_id_takes_ints() -> None:
    with pytest.raises(TypeError):
        toolnexus.format_id("0", 1)  # type: ignore[arg-type]


def test_next_id_is_unique_across_threads() -> None:
    barrier = threading.Barrier(8)

    def many(_: int) -> list[str]:
        barrier.wait()
        return [toolnexus.next_id() for _ in range(2000)]

    with ThreadPoolExecutor(8) as pool:
        ids = [i for batch in pool.map(many, range(8)) for i in batch]
    assert len(set(ids)) == len(ids) == 16000
    assert all(ID.fullmatch(i) for i in ids)
