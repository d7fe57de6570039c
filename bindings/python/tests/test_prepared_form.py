"""``Form``: a schema prepared once, ``Request.form`` and ``Session.form``."""

from __future__ import annotations

import pickle
import typing
from typing import Any

import pytest

import toolnexus
from toolnexus import Form, FormField, Number, SensitiveField

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2, "default": "Ada"},
        "age": {"type": "integer", "title": "Age", "minimum": 18},
        "score": {"type": "number", "maximum": Number("1.50")},
        "api_key": {"type": "string", "title": "API key"},
    },
    "required": ["age"],
}

PARAMS: dict[str, Any] = {"message": "Who?", "requestedSchema": SCHEMA}


def test_a_form_from_a_dict_text_or_bytes_is_the_same_form() -> None:
    text = toolnexus.to_json(SCHEMA)
    forms = [Form(SCHEMA), Form(text), Form(text.encode())]
    for form in forms:
        assert [f.to_json() for f in form.fields] == [f.to_json() for f in toolnexus.form_fields(SCHEMA)]
        assert form.schema == SCHEMA and len(form) == 4
    assert repr(forms[0]) == "Form(fields=['name', 'age', 'score', 'api_key'])"


def test_fields_and_problems_are_made_once() -> None:
    form = Form(SCHEMA)
    assert form.fields is form.fields and isinstance(form.fields, tuple)
    assert form.field("age") is form.fields[1] and form.field("nope") is None
    assert form.problems is form.problems and form.problems == ()
    odd = {**SCHEMA, "required": ["age", "gone"]}
    problems = Form(odd).problems
    assert [(p.kind, p.pointer) for p in problems] == [("unknown_required", "/required/1")]
    assert list(problems) == toolnexus.check_schema(odd)


def test_content_through_the_form_as_through_the_functions() -> None:
    form = Form(SCHEMA)
    for content in ({"age": 17, "name": "A"}, {"age": 30}, [1], {"age": 30, "x": 1}):
        assert form.validate(content) == toolnexus.validate_content(SCHEMA, content)
    assert form.validate({"age": 30, "x": "y"}, allow_unknown=True) == []
    assert form.apply_defaults({"age": 30}) == toolnexus.apply_defaults(SCHEMA, {"age": 30}) == {"age": 30, "name": "Ada"}
    assert form.prepare('{"age": 30}') == {"age": 30, "name": "Ada"}
    with pytest.raises(toolnexus.InvalidContentError) as caught:
        form.prepare({"age": 1})
    assert [(v.pointer, v.keyword) for v in caught.value.violations] == [("/age", "minimum")]
    assert form.defaults == {"name": "Ada"}


def test_parse_by_field_name() -> None:
    form = Form(SCHEMA)
    assert form.parse("age", " 42 ") == 42
    assert form.parse("name", "") is None
    assert toolnexus.parse_field_input(form.fields[1], "42") == 42
    with pytest.raises(toolnexus.InvalidValueError) as invalid:
        form.parse("age", "17")
    assert (invalid.value.pointer, invalid.value.message) == ("/age", "Age must be at least 18")
    with pytest.raises(toolnexus.UnknownFieldError) as unknown:
        form.parse("nope", "x")
    assert unknown.value.pointer == "/nope"


def test_secrets_of_the_form() -> None:
    form = Form(SCHEMA)
    assert form.sensitive_fields() == [SensitiveField("api_key", "api_key")]
    assert form.field("api_key") is not None and form.fields[3].secret_kind == "api_key"
    assert form.fields[0].secret_kind is None
    with pytest.raises(toolnexus.SensitiveFieldError) as caught:
        form.reject_secrets()
    assert caught.value.pointer == "/properties/api_key"
    Form({"type": "object", "properties": {}}).reject_secrets()


@pytest.mark.parametrize(
    ("schema", "error", "pointer"),
    [
        ([1], toolnexus.WrongTypeError, ""),
        ({"type": "object", "properties": {"a": {"title": "A"}}}, toolnexus.MissingFieldError, "/properties/a/type"),
        ({"type": "object", "properties": {"a": {"type": "object"}}}, toolnexus.InvalidValueError, "/properties/a/type"),
        ('{"type": "object", "properties": {}, "type": "x"}', toolnexus.DuplicateKeyError, "/type"),
    ],
)
def test_a_schema_that_makes_no_form_raises_as_the_functions_do(schema: Any, error: type[toolnexus.Error], pointer: str) -> None:
    with pytest.raises(error) as caught:
        Form(schema)
    assert caught.value.pointer == pointer
    if not isinstance(schema, list):
        with pytest.raises(error) as same:
            toolnexus.validate_content(schema, {})
        assert (same.value.kind, same.value.pointer) == (caught.value.kind, pointer)


def test_a_form_pickles_as_its_schema() -> None:
    form = pickle.loads(pickle.dumps(Form(SCHEMA)))
    assert form.schema == SCHEMA and [f.name for f in form.fields] == ["name", "age", "score", "api_key"]


def test_the_form_of_a_request() -> None:
    request = toolnexus.elicitation_to_request(PARAMS, id="q1")
    form = request.form
    assert form is not None and form is request.form and form.fields is request.form.fields
    assert form.schema == request.schema == SCHEMA
    url = toolnexus.elicitation_to_request({"mode": "url", "message": "Open", "url": "https://a.example", "elicitationId": "e"})
    assert url.form is None
    assert toolnexus.Request("q2", "input", "Who?").form is None
    assert toolnexus.Request("q3", "approval", "Who?", data={"schema": SCHEMA}).form is None
    broken = toolnexus.Request("q4", "input", "Who?", data={"schema": {"type": "object"}})
    with pytest.raises(toolnexus.MissingFieldError) as caught:
        broken.form
    assert caught.value.pointer == "/properties"


def test_a_session_gives_the_form_it_prepared() -> None:
    session = toolnexus.Session()
    request = session.begin(PARAMS, "q1", 0)
    assert request.form is not None and [f.name for f in request.form.fields] == ["name", "age", "score", "api_key"]
    form = session.form("q1")
    assert form is not None and form.schema == SCHEMA and form.problems == request.form.problems
    got = session.get("q1")
    assert got is not None and got.form is not None and got.form.validate({"age": 30}) == []
    assert session.form("nope") is None
    session.begin({"mode": "url", "message": "Open", "url": "https://a.example", "elicitationId": "e"}, "u1", 0)
    assert session.form("u1") is None
    session.resolve(toolnexus.Answer("q1", False), 1)
    assert session.form("q1") is None


def test_a_bridge_gives_the_form_it_prepared() -> None:
    bridge = toolnexus.ReverseBridge()
    message = toolnexus.to_json({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": PARAMS})
    incoming = bridge.receive(message, 0)
    assert incoming.request is not None and incoming.request.form is not None
    assert incoming.request.form.parse("age", "20") == 20


def test_closed_names_come_from_the_core() -> None:
    assert FormField.WIDGETS == typing.get_args(toolnexus.Widget)
    assert SensitiveField.KINDS == typing.get_args(toolnexus.SecretKind)
    with pytest.raises(toolnexus.InvalidValueError):
        SensitiveField("x", "not_a_kind")  # type: ignore[arg-type]


def test_modes_are_named_as_the_core_names_them() -> None:
    assert toolnexus.Session(modes="all").modes == ("form", "url")
    assert toolnexus.Session(modes=["url", "form"]).modes == ("form", "url")
    assert toolnexus.Session(modes="url").modes == ("url",)
    assert toolnexus.Session().max_pending == 64 and toolnexus.Session().ttl_ms is None
    with pytest.raises(toolnexus.InvalidValueError):
        toolnexus.Session(modes=["form", "email"])


def test_pending_requests_come_with_their_forms() -> None:
    session = toolnexus.Session()
    session.begin(PARAMS, "q1", 0)
    [pending] = session.pending()
    assert pending.form is not None and pending.form.parse("age", "19") == 19
    bridge = toolnexus.ReverseBridge()
    bridge.receive(toolnexus.to_json({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": PARAMS}), 0)
    [waiting] = bridge.pending()
    assert waiting.form is not None and [f.name for f in waiting.form.fields] == ["name", "age", "score", "api_key"]


def test_the_requests_of_an_input_round_come_with_their_forms() -> None:
    call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}'
    response = toolnexus.to_json(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "resultType": "input_required",
                "inputRequests": {"who": {"method": "elicitation/create", "params": PARAMS}},
            },
        }
    )
    round, [(key, request)] = toolnexus.InputRound.start(call, response, 0)
    assert key == "who" and request.form is not None and request.form.validate({"age": 30}) == []
    [(_, again)] = round.pending()
    assert again.form is not None and again.form.defaults == {"name": "Ada"}
