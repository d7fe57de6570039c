"""Runners for the content, form, secret, URL-review and terminal operations of the conformance suite.

The ``form`` operation prepares one ``toolnexus.Form`` and runs each of its calls on it.

Each runs one operation through the public API and writes its output with ``toolnexus.to_json``
(or a ``to_json()`` of the result), so numbers keep their spelling. Inputs that hold both a
schema and content are read with ``toolnexus.from_json``; their parts then go in as Python
values when the case's input is a ``str`` and as JSON text when it is ``bytes``, so both ways
of passing an argument are held to the exact outputs.
"""

from __future__ import annotations

from typing import Any, Callable, cast

import toolnexus
from conformance_common import Runner, Text, violations
from conformance_wire import outcome


def _argument(value: Any, text: Text, limits: toolnexus.Limits) -> Any:
    """``value`` as an argument: as JSON text for ``bytes`` input (or where a ``str`` would be
    read as JSON text), else as the Python value itself."""
    if isinstance(text, bytes):
        return toolnexus.to_json(value, limits=limits).encode("utf-8")
    if isinstance(value, str):
        return toolnexus.to_json(value, limits=limits)
    return value


def _schema_and_content(text: Text, limits: toolnexus.Limits) -> tuple[Any, Any]:
    """The ``schema`` and ``content`` members of the case's input, as arguments."""
    whole = toolnexus.from_json(text, limits=limits)
    assert isinstance(whole, dict) and {"schema", "content"} <= whole.keys(), (
        "the input must be an object with `schema` and `content`"
    )
    return _argument(whole["schema"], text, limits), _argument(whole["content"], text, limits)


def check_schema(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    problems = toolnexus.check_schema(text, limits=limits)
    return toolnexus.to_json([{"kind": p.kind, "pointer": p.pointer} for p in problems])


def validate_content(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    schema, content = _schema_and_content(text, limits)
    allow_unknown = case.get("args", {}).get("allowUnknown", False)
    found = toolnexus.validate_content(schema, content, allow_unknown=allow_unknown, limits=limits)
    return toolnexus.to_json(violations(found))


def apply_defaults(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    schema, content = _schema_and_content(text, limits)
    return toolnexus.to_json(toolnexus.apply_defaults(schema, content, limits=limits))


def _prepared(prepare: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``{"content", "violations"}`` of a ``prepare_content`` or ``Form.prepare`` call."""
    try:
        prepared: dict[str, Any] | None = prepare()
        broken: list[toolnexus.Violation] = []
    except toolnexus.InvalidContentError as error:
        prepared, broken = None, error.violations
    return {"content": prepared, "violations": violations(broken)}


def prepare_content(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    schema, content = _schema_and_content(text, limits)
    allow_unknown = case.get("args", {}).get("allowUnknown", False)
    return toolnexus.to_json(
        _prepared(
            lambda: toolnexus.prepare_content(schema, content, allow_unknown=allow_unknown, limits=limits)
        )
    )


def form_fields(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    fields = toolnexus.form_fields(text, limits=limits)
    return "[" + ",".join(field.to_json() for field in fields) + "]"


def parse_field_input(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    args = case["args"]
    fields = {field.name: field for field in toolnexus.form_fields(text, limits=limits)}
    value = toolnexus.parse_field_input(fields[args["field"]], args["text"])
    return toolnexus.to_json(value)


def sensitive_fields(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    found = toolnexus.sensitive_fields(text, limits=limits)
    return toolnexus.to_json([field.to_dict() for field in found])


def reject_secrets(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    toolnexus.reject_secrets(text, limits=limits)
    return "null"


def review_url(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    url = toolnexus.from_json(text, limits=limits)
    if not isinstance(url, str):
        raise toolnexus.WrongTypeError("review_url takes the URL as a JSON string")
    review = toolnexus.review_url(url).to_dict()
    for finding in review["findings"]:
        del finding["message"]
    return toolnexus.to_json(review)


def _terminal_input(text: Text, limits: toolnexus.Limits, op: str, members: tuple[str, ...]) -> list[str]:
    """The string members of a ``terminal_*`` input, in order: a missing (or ``null``) one is
    the suite's ``missing_field``, one of another type ``wrong_type``, each at its member."""
    whole = toolnexus.from_json(text, limits=limits)
    if not isinstance(whole, dict):
        raise toolnexus.WrongTypeError(f"{op} takes a JSON object")
    assert set(whole) <= set(members), f"{op}: unknown input members {sorted(set(whole) - set(members))}"
    found = []
    for name in members:
        value = whole.get(name)
        if value is None:
            raise toolnexus.MissingFieldError(f"`{name}` is required", pointer=f"/{name}")
        if not isinstance(value, str):
            raise toolnexus.WrongTypeError(f"`{name}` must be a string", pointer=f"/{name}")
        found.append(value)
    return found


def terminal_text(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    shown, line_breaks = _terminal_input(text, limits, "terminal_text", ("text", "lineBreaks"))
    try:
        # Any name the case gives, unknown ones too: the binding refuses them.
        return toolnexus.to_json(toolnexus.terminal_text(shown, line_breaks=cast("toolnexus.LineBreaks", line_breaks)))
    except toolnexus.InvalidValueError as error:
        # The binding's error is about its argument; the suite places it at the member.
        raise toolnexus.InvalidValueError(error.message, pointer="/lineBreaks") from error


def terminal_json(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    (json_text,) = _terminal_input(text, limits, "terminal_json", ("json",))
    return toolnexus.to_json(toolnexus.terminal_json(json_text))


def form(case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    whole = toolnexus.from_json(text, limits=limits)
    assert isinstance(whole, dict) and {"schema", "calls"} <= whole.keys(), (
        "the input must be an object with `schema` and `calls`"
    )
    prepared = toolnexus.Form(_argument(whole["schema"], text, limits), limits=limits)
    return toolnexus.to_json([_form_call(prepared, call, text, limits) for call in whole["calls"]])


def _form_call(form: toolnexus.Form, call: dict[str, Any], text: Text, limits: toolnexus.Limits) -> dict[str, Any]:
    """One call on the form, ``{"ok": ...}`` or ``{"error": ...}``, through the public API."""
    allow_unknown = call.get("allowUnknown", False)
    [(name, arg)] = [(k, v) for k, v in call.items() if k != "allowUnknown"]
    content = _argument(arg, text, limits)
    calls: dict[str, Callable[[], Any]] = {
        "fields": lambda: [field.to_dict() for field in form.fields],
        "problems": lambda: [{"kind": p.kind, "pointer": p.pointer} for p in form.problems],
        "validate": lambda: violations(form.validate(content, allow_unknown=allow_unknown, limits=limits)),
        "prepare": lambda: _prepared(lambda: form.prepare(content, allow_unknown=allow_unknown, limits=limits)),
        "applyDefaults": lambda: form.apply_defaults(content, limits=limits),
        "defaults": lambda: form.defaults,
        "parse": lambda: form.parse(arg["field"], arg["text"]),
        "sensitiveFields": lambda: [field.to_dict() for field in form.sensitive_fields()],
        "rejectSecrets": form.reject_secrets,
    }
    return outcome(calls[name])


CONTENT_RUNNERS: dict[str, Runner] = {
    "check_schema": check_schema,
    "validate_content": validate_content,
    "apply_defaults": apply_defaults,
    "prepare_content": prepare_content,
    "form_fields": form_fields,
    "parse_field_input": parse_field_input,
    "sensitive_fields": sensitive_fields,
    "reject_secrets": reject_secrets,
    "review_url": review_url,
    "form": form,
    "terminal_text": terminal_text,
    "terminal_json": terminal_json,
}
"""The operations this module runs, by name."""
