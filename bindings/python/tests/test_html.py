"""The form on a web page: ``Request.to_html``, ``Request.answer_from_form_data``,
``Form.to_html``, ``Form.read_form_data`` and ``html_stylesheet``.

Every page written here is parsed back with ``html.parser`` and its structure checked (one
form, labels tied to controls, the buttons, balanced tags); every round trip posts what a
browser would send for the controls the page holds.
"""

from __future__ import annotations

import threading
from html.parser import HTMLParser
from typing import Any, Iterator
from urllib.parse import parse_qsl, urlencode

import pytest

import toolnexus
from toolnexus import Number

VOID = {"input", "br", "meta", "link", "img", "hr"}

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Your name", "description": "As on the card", "minLength": 2},
        "email": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"},
        "born": {"type": "string", "format": "date"},
        "meet": {"type": "string", "format": "date-time"},
        "score": {"type": "number", "minimum": Number("0.5")},
        "age": {"type": "integer", "minimum": 18},
        "agree": {"type": "boolean"},
        "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
        "city": {"type": "string", "enum": ["Oslo", "Rome", "Lima", "Pune", "Kyiv", "Baku"]},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "maxItems": 2},
    },
    "required": ["name", "agree"],
}
"""A form with every kind of field: text, email, uri, date, date-time, number, integer, boolean,
a single-select shown as radios, one shown as a ``<select>`` (more than 5 options) and a
multi-select."""


def request(schema: dict[str, Any] | None = None, id: str = "r1", prompt: str = "Tell us") -> toolnexus.Request:
    return toolnexus.Request(id, "input", prompt, data={"schema": SCHEMA if schema is None else schema})


class Page(HTMLParser):
    """A fragment parsed: every element with its attributes, the text, and whether tags
    balance."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = html
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.open: list[str] = []
        self.unbalanced: list[str] = []
        self.texts: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {name: value or "" for name, value in attrs}))
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.unbalanced.append(tag)

    def handle_data(self, data: str) -> None:
        self.texts.append(data)

    @property
    def text(self) -> str:
        return "".join(self.texts)

    def all(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        return [
            a for t, a in self.elements
            if t == tag and all(a.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items())
        ]

    def by_id(self, id: str) -> dict[str, str]:
        [found] = [a for _, a in self.elements if a.get("id") == id]
        return found

    def controls(self) -> list[dict[str, str]]:
        """The controls a browser posts: inputs other than buttons, and selects."""
        return [a for t, a in self.elements if t in ("input", "select") and a.get("type") != "submit"]


def parse(html: str) -> Page:
    page = Page(html)
    assert not page.unbalanced and not page.open, f"tags do not balance: {page.unbalanced} {page.open}"
    return page


def post(*pairs: tuple[str, str], action: str = "accept", request_id: str | None = "r1") -> bytes:
    """A body as a browser encodes it: the request's id, the fields, the button pressed."""
    head = [("tn-request", request_id)] if request_id is not None else []
    return urlencode([*head, *pairs, ("tn-action", action)]).encode("ascii")


def option_value(page: Page, control_name: str, label: str) -> str:
    """The value the page wrote for the choice labelled ``label`` of the control
    ``control_name``: a radio or checkbox by its ``<label>``, a select's ``<option>`` by its
    text."""
    parser = _Choices(control_name)
    parser.feed(page.source)
    parser.close()
    return parser.values[label]


class _Choices(HTMLParser):
    """The label → value map of one control's choices."""

    def __init__(self, name: str) -> None:
        super().__init__(convert_charrefs=True)
        self.name = name
        self.values: dict[str, str] = {}
        self.ids: dict[str, str] = {}
        self.label_for: str | None = None
        self.option: str | None = None
        self.in_select = False
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and a.get("name") == self.name:
            self.ids[a["id"]] = a["value"]
        elif tag == "label" and a.get("for") in self.ids:
            self.label_for, self.text = a["for"], ""
        elif tag == "select":
            self.in_select = a.get("name") == self.name
        elif tag == "option" and self.in_select:
            self.option, self.text = a["value"], ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "label" and self.label_for is not None:
            self.values[self.text] = self.ids[self.label_for]
            self.label_for = None
        elif tag == "option" and self.option is not None:
            self.values[self.text] = self.option
            self.option = None
        elif tag == "select":
            self.in_select = False

    def handle_data(self, data: str) -> None:
        self.text += data


# The page.


def test_a_request_with_no_options_gives_a_complete_form() -> None:
    html = request().to_html()
    page = parse(html)
    [form] = page.all("form")
    assert form["method"] == "post" and "action" not in form
    assert page.all("input", type="hidden", name="tn-request") == [{"type": "hidden", "name": "tn-request", "value": "r1"}]
    assert "Tell us" in page.text
    # Every field has a control named by its index and a label (or a legend) naming it.
    names = [c["name"] for c in page.controls() if c["name"] != "tn-request"]
    assert sorted(set(names), key=lambda n: int(n[3:])) == [f"tn-{i}" for i in range(len(SCHEMA["properties"]))]
    for label in page.all("label"):
        assert page.by_id(label["for"]), "each label is tied to a control by `for`"
    assert "Your name" in page.text and "As on the card" in page.text
    name = page.by_id("tn-f0")
    assert name["minlength"] == "2" and "required" in name and name["aria-describedby"] == "tn-f0-hint"
    assert page.by_id("tn-f1")["type"] == "email"
    assert page.by_id("tn-f2")["type"] == "url"
    assert page.by_id("tn-f3")["type"] == "date"
    assert page.by_id("tn-f4")["type"] == "datetime-local"
    assert page.by_id("tn-f5")["type"] == "number" and page.by_id("tn-f5")["step"] == "any"
    assert page.by_id("tn-f6")["step"] == "1" and page.by_id("tn-f6")["min"] == "18"
    assert len(page.all("input", type="radio", name="tn-7")) == 2  # a required boolean: Yes, No
    assert len(page.all("input", type="radio", name="tn-8")) == 3  # two options and No answer
    assert [s["name"] for s in page.all("select")] == ["tn-9"]
    assert len(page.all("option")) == 7  # six cities and "No answer"
    assert len(page.all("input", type="checkbox", name="tn-10")) == 3
    buttons = page.all("button")
    assert [(b["name"], b["value"]) for b in buttons] == [("tn-action", v) for v in ("accept", "decline", "cancel")]
    assert ["formnovalidate" in b for b in buttons] == [False, True, True]
    # No script, no style, no event attribute: the page keeps a strict Content-Security-Policy.
    assert not {tag for tag, _ in page.elements} & {"script", "style"}
    assert not [n for _, a in page.elements for n in a if n == "style" or n.startswith("on")]


def test_the_same_input_gives_the_same_bytes() -> None:
    assert request().to_html() == request().to_html()
    assert request().form is not None
    form = request().form
    assert form is not None
    assert form.to_html("Tell us") == form.to_html("Tell us")


def test_a_form_renders_without_a_request_id_and_its_message() -> None:
    form = toolnexus.Form(SCHEMA)
    page = parse(form.to_html("Hello <you>"))
    assert page.all("input", name="tn-request") == []
    assert "Hello <you>" in page.text
    assert parse(form.to_html()).all("p", class_="tn-message") == []


def test_a_url_request_is_a_consent_with_its_link() -> None:
    consent = toolnexus.Request("u1", "authorization", "Sign in", url="https://example.com/login")
    page = parse(consent.to_html())
    [link] = page.all("a")
    assert link["href"] == "https://example.com/login" and link["rel"] == "noopener noreferrer"
    assert [b["value"] for b in page.all("button")] == ["accept", "decline", "cancel"]
    answer = consent.answer_from_form_data(post(action="accept", request_id="u1"))
    assert answer.to_json() == '{"id":"u1","ok":true}'
    rejected = toolnexus.Request("u2", "authorization", "", url="javascript:alert(1)")
    page = parse(rejected.to_html())
    assert page.all("a") == [] and [b["value"] for b in page.all("button")] == ["decline", "cancel"]
    with pytest.raises(toolnexus.InvalidValueError) as refused:
        rejected.answer_from_form_data(post(action="accept", request_id="u2"))
    assert refused.value.pointer == "/tn-action"


def test_a_request_with_neither_schema_nor_url_is_refused() -> None:
    bare = toolnexus.Request("r1", "approval", "Go?")
    with pytest.raises(toolnexus.MissingFieldError) as missing:
        bare.to_html()
    assert missing.value.pointer == "/data/schema"
    with pytest.raises(toolnexus.MissingFieldError):
        bare.answer_from_form_data(post())


def test_the_stylesheet_follows_the_class_prefix() -> None:
    css = toolnexus.html_stylesheet()
    assert ".tn-form{" in css and ".tn-invalid " in css
    mine = toolnexus.html_stylesheet("app-")
    assert ".app-form{" in mine and ".tn-" not in mine
    assert toolnexus.html_stylesheet(class_prefix="tn-") == css
    with pytest.raises(toolnexus.InvalidValueError) as bad:
        toolnexus.html_stylesheet("1x")
    assert bad.value.pointer == "/classPrefix"
    with pytest.raises(TypeError, match="class_prefix must be a str"):
        toolnexus.html_stylesheet(5)  # type: ignore[arg-type]


# Round trips: what the page wrote, posted as a browser posts it, read back.


def test_every_field_kind_round_trips_through_the_page() -> None:
    r = request()
    page = parse(r.to_html(utc_offset="+02:00"))
    body = post(
        ("tn-0", "Ada Lovelace"),
        ("tn-1", "ada@example.com"),
        ("tn-2", "https://example.com/a?b=c"),
        ("tn-3", "1815-12-10"),
        ("tn-4", "2030-01-02T09:30"),
        ("tn-5", "1.50"),
        ("tn-6", "36"),
        ("tn-7", option_value(page, "tn-7", "No")),
        ("tn-8", option_value(page, "tn-8", "Large")),
        ("tn-9", option_value(page, "tn-9", "Lima")),
        ("tn-10", option_value(page, "tn-10", "c")),
        ("tn-10", option_value(page, "tn-10", "a")),
    )
    answer = r.answer_from_form_data(body, utc_offset="+02:00")
    assert answer.to_json() == (
        '{"id":"r1","ok":true,"data":{"name":"Ada Lovelace","email":"ada@example.com",'
        '"site":"https://example.com/a?b=c","born":"1815-12-10","meet":"2030-01-02T09:30:00+02:00",'
        '"score":1.50,"age":36,"agree":false,"size":"l","city":"Lima","tags":["a","c"]}}'
    )
    # The same post as pairs, and through the form alone.
    pairs = parse_qsl(body.decode(), keep_blank_values=True)
    assert r.answer_from_form_data(pairs, utc_offset="+02:00") == answer
    form = r.form
    assert form is not None
    action, content = form.read_form_data([p for p in pairs if p[0] != "tn-request"], utc_offset="+02:00")
    assert action == "accept" and content == answer.data


@pytest.mark.parametrize(
    ("field", "typed", "expected"),
    [
        ({"type": "string"}, "  spaced  ", "  spaced  "),
        ({"type": "string", "format": "email"}, "a@b.co", "a@b.co"),
        ({"type": "string", "format": "uri"}, "urn:isbn:0451450523", "urn:isbn:0451450523"),
        ({"type": "string", "format": "date"}, "2024-02-29", "2024-02-29"),
        ({"type": "string", "format": "date-time"}, "2024-02-29T23:59:58", "2024-02-29T23:59:58Z"),
        ({"type": "number"}, "-0", Number("-0")),
        ({"type": "number"}, "1e2", Number("1e2")),
        ({"type": "integer"}, "+3", 3),
        ({"type": "boolean"}, "true", True),
    ],
)
def test_each_typed_field_reads_back_its_value(field: dict[str, Any], typed: str, expected: Any) -> None:
    r = request({"type": "object", "properties": {"x": field}})
    answer = r.answer_from_form_data(post(("tn-0", typed)))
    assert answer.ok and answer.data is not None
    value = answer.data["x"]
    assert value == expected and type(value) is type(expected)
    if isinstance(expected, Number):
        assert value.spelling == expected.spelling


def test_optional_fields_left_empty_are_absent() -> None:
    r = request({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}})
    assert r.answer_from_form_data(post(("tn-0", ""), ("tn-1", ""))).to_json() == '{"id":"r1","ok":true}'


def test_defaults_fill_empty_fields_when_asked() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": 7}}, "required": ["n"]}
    page = parse(request(schema).to_html())
    assert page.by_id("tn-f0")["value"] == "7"
    with pytest.raises(toolnexus.InvalidContentError):
        request(schema).answer_from_form_data(post(("tn-0", "")))
    answer = request(schema).answer_from_form_data(post(("tn-0", "")), apply_defaults=True)
    assert answer.data == {"n": 7}


@pytest.mark.parametrize(("button", "reason"), [("decline", "declined"), ("cancel", "cancelled")])
def test_decline_and_cancel_read_no_value(button: str, reason: str) -> None:
    r = request()
    for body in (post(action=button), post(("tn-0", ""), ("tn-6", "not a number"), action=button)):
        answer = r.answer_from_form_data(body)
        assert (answer.ok, answer.reason, answer.data) == (False, reason, None)
    form = r.form
    assert form is not None
    assert form.read_form_data(post(action=button, request_id=None)) == (button, None)
    assert toolnexus.answer_to_elicit_result(answer).action == button


# A refused accept, and the page written again.


def test_an_invalid_accept_is_shown_again_with_its_values_and_messages() -> None:
    r = request()
    body = post(("tn-0", "A"), ("tn-1", "not an email"), ("tn-6", "12"), ("tn-9", "3"), ("tn-10", "0"))
    with pytest.raises(toolnexus.InvalidContentError) as raised:
        r.answer_from_form_data(body)
    error = raised.value
    assert (error.kind, error.pointer) == ("invalid_content", "")
    assert [(v.pointer, v.keyword) for v in error.violations] == [
        ("/name", "minLength"),
        ("/email", "format"),
        ("/age", "minimum"),
        ("/agree", "required"),
    ]
    html = r.to_html(form_data=body, error=error)
    page = parse(html)
    # The values kept, each field at fault marked and described by its message.
    assert page.by_id("tn-f0")["value"] == "A"
    assert page.by_id("tn-f1")["value"] == "not an email"
    assert page.by_id("tn-f6")["value"] == "12"
    assert [o for o in page.all("option") if "selected" in o] == [{"value": "3", "dir": "auto", "selected": ""}]
    assert "checked" in page.by_id("tn-f10-0")
    for control in ("tn-f0", "tn-f1", "tn-f6"):
        assert page.by_id(control)["aria-invalid"] == "true"
        assert f"{control}-error" in page.by_id(control)["aria-describedby"].split()
    assert page.by_id("tn-f7-0")["aria-invalid"] == "true"  # the boolean's Yes and No
    assert "aria-invalid" not in page.by_id("tn-f2")
    for violation in error.violations:
        assert violation.message in page.text
    # The summary links to each field at fault.
    [summary] = page.all("div", class_="tn-errors")
    assert summary["role"] == "alert"
    assert [a["href"] for a in page.all("a")] == ["#tn-f0", "#tn-f1", "#tn-f6", "#tn-f7-0"]
    # The same through the form, and from pairs.
    form = r.form
    assert form is not None
    with pytest.raises(toolnexus.InvalidContentError) as again:
        form.read_form_data(body.replace(b"tn-request=r1&", b""))
    assert again.value.violations == error.violations
    assert r.to_html(form_data=parse_qsl(body.decode()), error=error) == html


def test_a_refused_post_is_shown_again_as_a_general_message() -> None:
    r = request()
    body = post(("tn-0", "Ada"), ("tn-99", "?"))
    with pytest.raises(toolnexus.UnknownFieldError) as raised:
        r.answer_from_form_data(body)
    page = parse(r.to_html(form_data=body, error=raised.value))
    assert raised.value.message in page.text
    assert page.by_id("tn-f0")["value"] == "Ada"
    assert not any("aria-invalid" in c for c in page.controls())
    # An error made in Python is taken back by its kind, pointer and message.
    made = toolnexus.UnknownRequestError("that form has expired", pointer="/tn-request")
    assert "that form has expired" in parse(r.to_html(form_data=body, error=made)).text


def test_a_sensitive_value_is_never_written_back() -> None:
    schema = {"type": "object", "properties": {"password": {"type": "string", "minLength": 12}}}
    r = request(schema)
    body = post(("tn-0", "hunter2"))
    with pytest.raises(toolnexus.InvalidContentError) as raised:
        r.answer_from_form_data(body)
    html = r.to_html(form_data=body, error=raised.value)
    assert "hunter2" not in html
    assert parse(html).by_id("tn-f0")["type"] == "password"


# What is refused, whatever the button.


REFUSED_WHATEVER_THE_BUTTON = [
    (post(("tn-11", "x")), toolnexus.UnknownFieldError, "/tn-11"),
    (post(("csrf", "x")), toolnexus.UnknownFieldError, "/csrf"),
    (post(("tn-00", "x")), toolnexus.UnknownFieldError, "/tn-00"),
    (post(("tn-0", "Ada"), ("tn-0", "Bob")), toolnexus.DuplicateKeyError, "/tn-0"),
    (b"tn-action=accept&tn-action=decline", toolnexus.DuplicateKeyError, "/tn-action"),
    (b"tn-action=submit", toolnexus.InvalidValueError, "/tn-action"),
    (b"tn-0=Ada", toolnexus.MissingFieldError, "/tn-action"),
    (b"", toolnexus.MissingFieldError, "/tn-action"),
    (post(request_id="r2"), toolnexus.UnknownRequestError, "/tn-request"),
    (b"tn-0=%4&tn-action=accept", toolnexus.InvalidValueError, "/tn-0"),
    (b"tn-%zz=1&tn-action=accept", toolnexus.InvalidValueError, ""),
    (b"tn-0=%FF&tn-action=accept", toolnexus.InvalidUtf8Error, "/tn-0"),
    (b"tn-0=%C3%28&tn-action=accept", toolnexus.InvalidUtf8Error, "/tn-0"),
]
"""Posts refused by their names, their button or their encoding, whatever the button."""

REFUSED_ON_ACCEPT = [
    (post(("tn-10", "1"), ("tn-10", "1")), toolnexus.DuplicateKeyError, "/tags"),
    (post(("tn-8", "2")), toolnexus.InvalidValueError, "/size"),
    (post(("tn-9", "6")), toolnexus.InvalidValueError, "/city"),
    (post(("tn-9", "-1")), toolnexus.InvalidValueError, "/city"),
    (post(("tn-10", "01")), toolnexus.InvalidValueError, "/tags"),
    (post(("tn-10", "x")), toolnexus.InvalidValueError, "/tags"),
    (post(("tn-7", "yes")), toolnexus.InvalidValueError, "/agree"),
]
"""Posts whose values name a choice the page never wrote: read, and so refused, on accept."""


def _as_pairs(body: bytes) -> list[tuple[str, str]]:
    return parse_qsl(body.decode(), keep_blank_values=True)


@pytest.mark.parametrize(("body", "error", "pointer"), REFUSED_WHATEVER_THE_BUTTON)
def test_a_post_the_page_never_wrote_is_refused(body: bytes, error: type[toolnexus.Error], pointer: str) -> None:
    for button in (b"accept", b"decline", b"cancel"):
        data = body.replace(b"tn-action=accept", b"tn-action=" + button)
        with pytest.raises(error) as raised:
            request().answer_from_form_data(data)
        assert (type(raised.value), raised.value.pointer) == (error, pointer)
        if b"%" not in data:  # as pairs too, as a framework decoded them
            with pytest.raises(error):
                request().answer_from_form_data(_as_pairs(data))


@pytest.mark.parametrize(("body", "error", "pointer"), REFUSED_ON_ACCEPT)
def test_a_choice_the_page_never_wrote_is_refused(body: bytes, error: type[toolnexus.Error], pointer: str) -> None:
    for data in (body, _as_pairs(body)):
        with pytest.raises(error) as raised:
            request().answer_from_form_data(data)
        assert (type(raised.value), raised.value.pointer, raised.value.violations) == (error, pointer, [])
    # Not a content error: the re-render shows it as a general message, no field marked.
    page = parse(request().to_html(form_data=body, error=raised.value))
    assert raised.value.message in page.text
    assert not any("aria-invalid" in c for c in page.controls())


def test_a_body_over_the_limits_is_refused() -> None:
    big = post(("tn-0", "x" * (4 * 1024 * 1024)))
    with pytest.raises(toolnexus.TooLargeError) as raised:
        request().answer_from_form_data(big)
    assert raised.value.pointer == ""
    with pytest.raises(toolnexus.TooLargeError):
        request().answer_from_form_data(big.decode())
    with pytest.raises(toolnexus.TooLargeError):
        request().answer_from_form_data(bytearray(big))
    small = toolnexus.Limits(max_input_bytes=20)
    with pytest.raises(toolnexus.TooLargeError):
        request().answer_from_form_data(post(("tn-0", "Ada")), limits=small)
    with pytest.raises(toolnexus.TooLargeError):
        request().answer_from_form_data([("tn-0", "x" * 30), ("tn-action", "accept")], limits=small)
    few = toolnexus.Limits(max_object_members=2)
    with pytest.raises(toolnexus.TooManyMembersError):
        request().answer_from_form_data(post(("tn-0", "Ada")), limits=few)
    # A long body within the limits is read (the interpreter released meanwhile).
    long_name = post(("tn-0", "Ada " * 20000), ("tn-7", "true"))
    assert request().answer_from_form_data(long_name).ok


def test_pairs_stop_being_read_at_the_limit() -> None:
    taken = 0

    def endless() -> Iterator[tuple[str, str]]:
        nonlocal taken
        while True:
            taken += 1
            yield ("tn-0", "x")

    with pytest.raises(toolnexus.TooManyMembersError):
        request().answer_from_form_data(endless())
    assert taken == toolnexus.Limits().max_object_members + 1


# Pairs, bodies and the wrong Python types.


def test_pairs_come_from_a_list_a_tuple_or_a_generator() -> None:
    pairs = [("tn-request", "r1"), ("tn-0", "Ada"), ("tn-7", "true"), ("tn-action", "accept")]
    expected = '{"id":"r1","ok":true,"data":{"name":"Ada","agree":true}}'
    assert request().answer_from_form_data(pairs).to_json() == expected
    assert request().answer_from_form_data(tuple(pairs)).to_json() == expected
    as_lists: list[list[str]] = [list(p) for p in pairs]
    assert request().answer_from_form_data(as_lists).to_json() == expected
    assert request().answer_from_form_data(p for p in pairs).to_json() == expected
    assert request().answer_from_form_data(iter(pairs)).to_json() == expected
    # Pairs are taken as decoded: no + or % is read again.
    decoded = [("tn-0", "A+%41"), ("tn-7", "true"), ("tn-action", "accept")]
    assert request().answer_from_form_data(decoded).data == {"name": "A+%41", "agree": True}


class Text(str):
    """A `str` subclass: read through the interpreter, not in place."""


def test_short_posts_read_in_place_answer_as_copied_ones_do() -> None:
    # A short list or tuple of plain pairs is read where its strings are; anything else is
    # copied first. Both give the same answers and the same refusals.
    posts = [
        [("tn-request", "r1"), ("tn-0", "Ada"), ("tn-7", "true"), ("tn-action", "accept")],
        [("tn-0", "A"), ("tn-7", "true"), ("tn-action", "accept")],
        [("tn-0", "Ada"), ("tn-action", "decline")],
        [("tn-request", "r2"), ("tn-action", "cancel")],
        [("tn-99", "x"), ("tn-action", "accept")],
        [("tn-0", "\udc80"), ("tn-action", "accept")],
        [("tn-0", "x" * 30), ("tn-action", "accept")],
    ]
    small = toolnexus.Limits(max_input_bytes=50)

    def outcome(data: Any) -> str:
        try:
            return request().answer_from_form_data(data, limits=small).to_json()
        except (toolnexus.Error, ValueError) as error:
            return f"{type(error).__name__} {getattr(error, 'pointer', '')}"

    for pairs in posts:
        in_place = outcome(pairs)
        assert in_place == outcome(tuple(pairs))
        assert in_place == outcome(iter(pairs)), pairs
        assert in_place == outcome([(Text(n), Text(v)) for n, v in pairs]), pairs
    assert outcome(posts[0]) == '{"id":"r1","ok":true,"data":{"name":"Ada","agree":true}}'
    assert outcome(posts[5]) == "LoneSurrogateError /tn-0"
    assert outcome(posts[6]) == "TooLargeError "
    # Past the short ones, a post is copied (and read with the interpreter released).
    many = [("tn-0", "Ada"), ("tn-7", "true")] + [("h", "x")] * 70 + [("tn-action", "accept")]
    assert request().answer_from_form_data(many, hidden=[("h", "")]).data == {"name": "Ada", "agree": True}


def test_a_body_is_bytes_or_str_read_as_utf8() -> None:
    body = "tn-0=Zo%C3%AB+%E2%80%AE&tn-7=true&tn-action=accept"
    expected = {"name": "Zoë \u202e", "agree": True}
    assert request().answer_from_form_data(body).data == expected
    assert request().answer_from_form_data(body.encode()).data == expected
    assert request().answer_from_form_data(bytearray(body.encode())).data == expected
    # A str is its UTF-8: raw non-ASCII text is read as such.
    assert request().answer_from_form_data("tn-0=Zoë&tn-7=true&tn-action=accept").data == {"name": "Zoë", "agree": True}
    with pytest.raises(toolnexus.LoneSurrogateError):
        request().answer_from_form_data("tn-0=\udc80&tn-action=accept")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (12, "form_data is the body"),
        (None, "form_data is the body"),
        ({"tn-0": "Ada", "tn-action": "accept"}, "multi_items"),
        (["tn-0=Ada"], "each item of form_data is a \\(name, value\\) pair, not str"),
        ([("tn-0", "Ada", "x")], "pair, not tuple"),
        ([("tn-0",)], "pair, not tuple"),
        ([("tn-0", 5)], 'the value of "tn-0" in form_data must be a str, not int'),
        ([("tn-0", b"Ada")], "must be a str, not bytes"),
        ([(0, "Ada")], "a name in form_data must be a str, not int"),
    ],
)
def test_the_wrong_python_types_are_a_type_error(data: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        request().answer_from_form_data(data)
    if data is not None:  # to_html's None is no post
        with pytest.raises(TypeError, match=message):
            request().to_html(form_data=data)


def test_a_starlette_form_gives_its_pairs() -> None:
    datastructures = pytest.importorskip("starlette.datastructures")
    form = datastructures.FormData([("tn-0", "Ada"), ("tn-7", "true"), ("tn-action", "accept")])
    with pytest.raises(TypeError, match="multi_items"):
        request().answer_from_form_data(form)
    assert request().answer_from_form_data(form.multi_items()).data == {"name": "Ada", "agree": True}


def test_an_exception_while_iterating_is_passed_on() -> None:
    def failing() -> Iterator[tuple[str, str]]:
        yield ("tn-0", "Ada")
        raise RuntimeError("the connection dropped")

    with pytest.raises(RuntimeError, match="the connection dropped"):
        request().answer_from_form_data(failing())


def test_error_must_be_one_toolnexus_raised() -> None:
    body = post(("tn-0", "A"))
    with pytest.raises(TypeError, match="error is the toolnexus.Error"):
        request().to_html(form_data=body, error=ValueError("no"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="error is the toolnexus.Error"):
        request().to_html(form_data=body, error="invalid_content")  # type: ignore[arg-type]
    made = toolnexus.InvalidContentError(
        "bad", violations=[toolnexus.Violation("/name", "minLength", "too short")]
    )
    # A violation made by the host is shown like the core's, by its field.
    page = request().to_html(form_data=body, error=made)
    assert "aria-invalid" in page and "too short" in page
    wrong = toolnexus.InvalidContentError("bad", violations=[toolnexus.Violation("/name", "shortness", "?")])
    with pytest.raises(toolnexus.InvalidValueError) as refused:
        request().to_html(form_data=body, error=wrong)
    assert refused.value.pointer == "/violations/0/keyword"
    odd = toolnexus.InvalidContentError("bad")
    odd.violations = ["not a violation"]  # type: ignore[list-item]
    with pytest.raises(TypeError, match="toolnexus.Violation objects, not str"):
        request().to_html(form_data=body, error=odd)
    # Content errors without violations are shown as their message.
    empty = toolnexus.InvalidContentError("the content is wrong")
    assert "the content is wrong" in request().to_html(form_data=body, error=empty)
    unknown = toolnexus.Error("?", kind="no_such_kind")
    with pytest.raises(toolnexus.InvalidValueError):
        request().to_html(form_data=body, error=unknown)


def test_a_violation_is_shown_again_after_a_copy_or_a_pickle() -> None:
    import copy
    import pickle

    body = post(("tn-0", "A"), ("tn-7", "true"))
    with pytest.raises(toolnexus.InvalidContentError) as raised:
        request().answer_from_form_data(body)
    error = raised.value
    assert copy.copy(error).violations[0] is error.violations[0]
    assert "aria-invalid" in request().to_html(form_data=body, error=copy.copy(error))
    restored = pickle.loads(pickle.dumps(error))
    assert restored.violations == error.violations  # equal by their attributes
    again = request().to_html(form_data=body, error=restored)
    assert again == request().to_html(form_data=body, error=error)


# Options.


def test_options_shape_the_page() -> None:
    html = request().to_html(
        asker="Acme Deploy",
        class_prefix="app-",
        hidden=[("csrf", 'to"ken'), ("step", "2")],
        action="/answer?x=1&y=2",
        utc_offset="z",
    )
    page = parse(html)
    [form] = page.all("form")
    assert form["class"] == "app-form app-elicitation" and form["action"] == "/answer?x=1&y=2"
    hidden = [(i["name"], i["value"]) for i in page.all("input", type="hidden")]
    assert hidden == [("csrf", 'to"ken'), ("step", "2"), ("tn-request", "r1")]
    assert "Acme Deploy asks:" in page.text
    assert page.by_id("app-f0")["name"] == "tn-0"  # ids follow the prefix, names stay tn-
    assert "UTC+00:00" in page.text
    assert request().to_html(hidden={"csrf": "t"}) == request().to_html(hidden=[("csrf", "t")])


def test_hidden_fields_are_skipped_when_read() -> None:
    body = post(("csrf", "t1"), ("tn-0", "Ada"), ("csrf", "t2"), ("tn-7", "true"))
    expected = {"name": "Ada", "agree": True}
    assert request().answer_from_form_data(body, hidden=["csrf"]).data == expected
    assert request().answer_from_form_data(body, hidden=[("csrf", "t1")]).data == expected
    assert request().answer_from_form_data(body, hidden={"csrf": "t1"}).data == expected
    with pytest.raises(toolnexus.UnknownFieldError):
        request().answer_from_form_data(body)


@pytest.mark.parametrize(
    ("options", "pointer"),
    [
        ({"class_prefix": "1tn"}, "/classPrefix"),
        ({"class_prefix": ""}, "/classPrefix"),
        ({"class_prefix": 'a"b'}, "/classPrefix"),
        ({"class_prefix": "a" * 33}, "/classPrefix"),
        ({"utc_offset": "+5:30"}, "/utcOffset"),
        ({"utc_offset": "UTC"}, "/utcOffset"),
        ({"hidden": [("tn-x", "1")]}, "/hidden/tn-x"),
        ({"hidden": [("", "1")]}, "/hidden/"),
        ({"hidden": [("a", "1"), ("a", "2")]}, "/hidden/a"),
        ({"hidden": [("tn-a/b~c", "1")]}, "/hidden/tn-a~1b~0c"),
    ],
)
def test_a_refused_option_raises_the_core_s_error(options: dict[str, Any], pointer: str) -> None:
    with pytest.raises(toolnexus.InvalidValueError) as raised:
        request().to_html(**options)
    assert raised.value.pointer == pointer
    form = request().form
    assert form is not None
    with pytest.raises(toolnexus.InvalidValueError):
        form.to_html(**options)
    reading = {k: v for k, v in options.items() if k in ("utc_offset", "hidden")}
    if reading:
        with pytest.raises(toolnexus.InvalidValueError):
            request().answer_from_form_data(post(), **reading)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"asker": 5}, "asker must be a str, not int"),
        ({"action": b"/x"}, "action must be a str, not bytes"),
        ({"class_prefix": ["tn-"]}, "class_prefix must be a str, not list"),
        ({"utc_offset": 0}, "utc_offset must be a str, not int"),
        ({"hidden": "csrf"}, "hidden is an iterable of \\(name, value\\) pairs, or a mapping, not str"),
        ({"hidden": 3}, "not int"),
        ({"hidden": ["csrf"]}, "each hidden field is a \\(name, value\\) pair, not str"),
        ({"hidden": [("csrf", 1)]}, "a hidden field's value must be a str, not int"),
        ({"apply_defaults": "yes"}, "not an instance of 'bool'"),
    ],
)
def test_options_of_the_wrong_type_are_a_type_error(options: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        request().to_html(**options)


def test_names_alone_are_hidden_fields_only_when_reading() -> None:
    form = request().form
    assert form is not None
    with pytest.raises(TypeError, match="pair or a name, not int"):
        form.read_form_data(post(), hidden=[1])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="a hidden field's name must be a str"):
        form.read_form_data(post(), hidden=[(1, "x")])  # type: ignore[list-item]


# Untrusted text on the page.

HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>\'&amp;'


def test_hostile_strings_are_text_wherever_they_land() -> None:
    schema = {
        "type": "object",
        "properties": {
            HOSTILE: {"type": "string", "title": HOSTILE, "description": HOSTILE, "default": HOSTILE},
            "pick": {"type": "string", "oneOf": [{"const": HOSTILE, "title": HOSTILE}, {"const": "b", "title": "B"}]},
            "many": {"type": "string", "enum": [HOSTILE, "2", "3", "4", "5", "6"]},
        },
    }
    r = toolnexus.Request(HOSTILE, "input", HOSTILE, data={"schema": schema})
    html = r.to_html(asker=HOSTILE, action=HOSTILE, hidden=[("h", HOSTILE)])
    page = parse(html)
    tags = {tag for tag, _ in page.elements}
    assert not tags & {"script", "img"}
    assert not any(name.startswith("on") for _, attrs in page.elements for name in attrs)
    assert page.by_id("tn-f0")["value"] == HOSTILE  # the default, as a value
    assert page.all("input", name="tn-request")[0]["value"] == HOSTILE
    assert page.all("form")[0]["action"] == HOSTILE
    assert page.text.count(HOSTILE) >= 5  # prompt, asker, label, description, option labels
    # Property names never become ids or names.
    assert {c["name"] for c in page.controls()} == {"h", "tn-request", "tn-0", "tn-1", "tn-2"}
    # A hostile value posted back is escaped on the re-render, and read back exactly.
    body = urlencode([("tn-request", HOSTILE), ("tn-0", HOSTILE), ("tn-1", "0"), ("tn-action", "accept")])
    answer = r.answer_from_form_data(body)
    assert answer.data == {HOSTILE: HOSTILE, "pick": HOSTILE}
    again = parse(r.to_html(form_data=body + "&tn-9=x", error=toolnexus.UnknownFieldError("x")))
    assert again.by_id("tn-f0")["value"] == HOSTILE and not {t for t, _ in again.elements} & {"script", "img"}


def test_control_characters_never_reach_the_page() -> None:
    r = toolnexus.Request("r1", "input", "a\x00b\x07c\nd", data={"schema": SCHEMA})
    html = r.to_html()
    assert "\x00" not in html and "\x07" not in html and "a\ufffdb\ufffdc\nd" in html


# The interpreter and threads.


def test_sixteen_threads_render_and_read_at_once() -> None:
    r = request()
    expected_html = r.to_html()
    body = post(("tn-0", "Ada"), ("tn-7", "true"))
    expected_answer = r.answer_from_form_data(body)
    bad = post(("tn-0", "A"))
    results: list[bool] = []
    start = threading.Barrier(16)

    def work() -> None:
        start.wait()
        ok = True
        for _ in range(50):
            ok &= r.to_html() == expected_html
            ok &= r.answer_from_form_data(body) == expected_answer
            try:
                r.answer_from_form_data(bad)
                ok = False
            except toolnexus.InvalidContentError as error:
                ok &= "aria-invalid" in r.to_html(form_data=bad, error=error)
        results.append(ok)

    threads = [threading.Thread(target=work) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [True] * 16
