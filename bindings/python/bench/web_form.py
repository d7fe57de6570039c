"""The web form from Python: toolnexus beside the Jinja2 template and pydantic model of a host.

Run by `cargo xtask bench html`, which installs the peers into the bench's environment (or
`python bench/web_form.py` where the `toolnexus` wheel, Jinja2 and pydantic are installed).
For the contact form (3 fields) and the forms of 10, 100 and 1,000 fields of `payloads.py`
(which repeat every kind of field in turn), it times, side by side in one process:

- **Render**: `Request.to_html()` (through the form the request reads once, on first use)
  and `Form.to_html()` (a form read once) beside `web_form.html.j2`, a Jinja2 template that
  writes the same markup: compiled once by an `Environment` with autoescape on, rendered with
  the field model a host has at hand, the schema's properties as dicts.
- **Read-back**: `Request.answer_from_form_data(pairs)` (through the same form, as
  above) and `Form.read_form_data(pairs)` beside a pydantic v2 model made once with
  `create_model` from the schema's fields (`Field(min_length=…, ge=…)`, `Literal` options,
  `date`, `AnyUrl`, a `datetime` given the person's offset, an email as a `str` with a
  pattern: email-validator is not installed), fed the post turned into a dict as a host does
  (a checkbox group's values as a list, empty values dropped). Each side reads the post its
  own form sends for the same answers: `(name, value)` pairs as Starlette's `multi_items()`
  gives them. The model's `model_validate` of the ready dict is shown alone too.

Before timing, each size is checked to do the same work on both sides: once the names and
option values are mapped, the two fragments hold the same elements with the same attributes
and the same text; each post names only controls its form has; both read the valid post into
the same content, and both refuse a post with a value out of range. When the core's markup
changes, the template follows it: the check names the first element that differs.

Every route is a function of one argument, timed in a loop with the collector paused (as
`timeit` does), after a warm-up; the seven routes of a size take turns, in alternating order,
over several rounds. As `timeit` advises, each route's time is its best round (the others
only add what else ran on the machine), and each ratio is of two best rounds. The targets
are reported, not asserted: with `TOOLNEXUS_BENCH_TARGETS` set to a file, each target's line
is appended there for the summary `cargo xtask bench` prints. The script fails only when it
cannot run or the two sides do different work.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from html.parser import HTMLParser
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn, Optional

import toolnexus

import timing
from payloads import CONTACT, FIELDS_10, FIELDS_100, FIELDS_1000, Payload
from timing import MEASURE_SECONDS, Route, calls_per_measure, per_call_ns

try:
    import jinja2
    from pydantic import AfterValidator, AnyUrl, BaseModel, ConfigDict, Field, ValidationError, create_model
except ImportError as missing:
    sys.exit(f"bench: the peers are missing ({missing}); `cargo xtask bench html` installs them")

HERE = Path(__file__).resolve().parent
SIZES = (CONTACT, FIELDS_10, FIELDS_100, FIELDS_1000)

# What toolnexus must show against each peer: peer time / toolnexus time, at least.
RENDER_TARGET = 5.0
READ_TARGET = 3.0
# The cost per field at 1,000 fields may be at most this many times the cost at 100.
GROWTH_TARGET = 1.5

# The person's offset from UTC, which a `datetime-local` control leaves out: both sides are told.
UTC_OFFSET = "+01:00"
OFFSET = timezone(timedelta(hours=1))

# The 1,000-field form posts more pairs than the default limit of 1,000 members (a checkbox
# group posts a pair per box ticked): the host raises it, as it would Starlette's `max_fields`.
LIMITS = toolnexus.Limits(max_object_members=4_000)
# What toolnexus is told when it writes a form and when it reads one back.
WRITING: dict[str, Any] = {"utc_offset": UTC_OFFSET}
READING: dict[str, Any] = {"utc_offset": UTC_OFFSET, "limits": LIMITS}



# --- The host's side: a Jinja2 template and a pydantic model ------------------------------


def choices(prop: dict[str, Any]) -> list[tuple[str, str]]:
    """A select's (value, label) pairs, in each spelling the specification allows."""
    source = prop["items"] if prop.get("type") == "array" else prop
    if "enum" in source:
        values = source["enum"]
        return list(zip(values, prop.get("enumNames") or values))
    return [(o["const"], o.get("title", o["const"])) for o in source.get("oneOf") or source.get("anyOf") or ()]


def environment() -> jinja2.Environment:
    """The host's Jinja2 environment: the template folder, autoescape on, tidy whitespace."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(
        choices=choices,
        format_hints={
            "email": "an email address",
            "uri": "an absolute URI, like https://example.com",
            "date-time": "a date and time",
        },
        input_types={"email": "email", "uri": "url", "date": "date", "date-time": "datetime-local"},
    )
    return env


TEMPLATE = environment().get_template("web_form.html.j2")


def jinja_render(params: dict[str, Any]) -> str:
    """The host's page for an `elicitation/create`: its params, as the mcp package hands them."""
    schema = params["requestedSchema"]
    return TEMPLATE.render(
        message=params.get("message", ""),
        request_id=params["id"],
        properties=schema["properties"],
        required=set(schema.get("required", ())),
        utc_offset=UTC_OFFSET,
    )


EMAIL_PATTERN = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"


def with_offset(moment: datetime) -> datetime:
    """A `datetime-local` value is the person's wall-clock time: give it their offset."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=OFFSET)


LocalDateTime = Annotated[datetime, AfterValidator(with_offset)]


def annotation(prop: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The Python type of one property and the constraints `Field` takes for it."""
    kind = prop.get("type")
    if kind == "array":
        values = tuple(value for value, _ in choices(prop))
        bounds = {"min_length": prop.get("minItems"), "max_length": prop.get("maxItems")}
        return list[Literal[values]], bounds  # type: ignore[valid-type]
    if kind == "boolean":
        return bool, {}
    if kind in ("integer", "number"):
        bounds = {"ge": prop.get("minimum"), "le": prop.get("maximum")}
        return (int if kind == "integer" else float), bounds
    options = choices(prop)
    if options:
        return Literal[tuple(value for value, _ in options)], {}
    lengths = {"min_length": prop.get("minLength"), "max_length": prop.get("maxLength")}
    fmt = prop.get("format")
    if fmt == "email":
        return str, {**lengths, "pattern": EMAIL_PATTERN}
    if fmt == "uri":
        return AnyUrl, {}
    if fmt == "date":
        return date, {}
    if fmt == "date-time":
        return LocalDateTime, {}
    return str, lengths


def host_model(schema: dict[str, Any]) -> type[BaseModel]:
    """The model a host writes for the schema, made once: `create_model` from its fields."""
    required = set(schema.get("required", ()))
    fields: dict[str, Any] = {}
    for name, prop in schema["properties"].items():
        kind, constraints = annotation(prop)
        given = {key: value for key, value in constraints.items() if value is not None}
        if name in required:
            fields[name] = (kind, Field(**given))
        else:
            fields[name] = (Optional[kind], Field(None, **given))
    return create_model("Answers", __config__=ConfigDict(extra="forbid"), **fields)


@dataclass(frozen=True)
class HostReader:
    """The host's handler of the post: the pairs into a dict, then the model."""

    model: type[BaseModel]
    lists: frozenset[str]
    request_id: str

    def as_dict(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        """The post as the model takes it: a checkbox group's values as a list, what was
        left empty dropped (a browser posts an empty text box as "")."""
        data: dict[str, Any] = {}
        for name, value in pairs:
            if name in self.lists:
                data.setdefault(name, []).append(value)
            elif value:
                data[name] = value
        return data

    def __call__(self, pairs: list[tuple[str, str]]) -> BaseModel | str:
        data = self.as_dict(pairs)
        action = data.pop("action", None)
        if data.pop("request", None) != self.request_id:
            raise ValueError("the post answers another request")
        if action != "accept":
            return action or "cancel"
        return self.model.model_validate(data)


# --- The posts: the same answers, as each form sends them ----------------------------------


def posted_text(widget: str, value: Any) -> str:
    """What the browser sends for one value of a control."""
    if widget == "toggle":
        return "true" if value else "false"
    if widget == "date-time":
        # A `datetime-local` control holds the wall-clock time, to the minute when the seconds are 0.
        moment = datetime.fromisoformat(value).astimezone(OFFSET)
        return moment.strftime("%Y-%m-%dT%H:%M" if moment.second == 0 else "%Y-%m-%dT%H:%M:%S")
    return str(value)


def posts(form: toolnexus.Form, content: dict[str, Any], request_id: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The pairs toolnexus's form posts (names `tn-N`, choices by index) and the pairs the
    template's form posts (property names, choices by value), for the same answers."""
    ours = [("tn-request", request_id)]
    theirs = [("request", request_id)]
    for index, field in enumerate(form.fields):
        if field.name not in content:
            continue
        value = content[field.name]
        values = [option.value for option in field.options]
        if field.widget == "multi-select":
            for item in value:
                ours.append((f"tn-{index}", str(values.index(item))))
                theirs.append((field.name, item))
        elif field.widget == "single-select":
            ours.append((f"tn-{index}", str(values.index(value))))
            theirs.append((field.name, value))
        else:
            text = posted_text(field.widget, value)
            ours.append((f"tn-{index}", text))
            theirs.append((field.name, text))
    ours.append(("tn-action", "accept"))
    theirs.append(("action", "accept"))
    return ours, theirs


# --- The check that both sides do the same work -----------------------------------------


class Markup(HTMLParser):
    """The elements of a fragment (tag and attributes) and its text, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def markup(html: str) -> Markup:
    parsed = Markup()
    parsed.feed(html)
    parsed.close()
    return parsed


def normalized(
    elements: list[tuple[str, dict[str, str | None]]],
    names: dict[str, str],
    values: dict[str, list[str]],
) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """The elements with each control's name and choice values as the template writes them
    (the property name, the option's value instead of its index): what must be equal."""
    out = []
    select = None
    for tag, given in elements:
        attrs = dict(given)
        name = attrs.get("name")
        if tag == "select":
            select = name
        options = values.get((select if tag == "option" else name) or "")
        choice = tag == "option" or attrs.get("type") in ("radio", "checkbox")
        if options and choice and attrs.get("value"):
            attrs["value"] = options[int(attrs["value"] or "")]
        if name in names:
            attrs["name"] = names[name]
        out.append((tag, sorted(attrs.items())))
    return out


def fail(payload: Payload, what: str) -> NoReturn:
    raise SystemExit(f"bench: {payload.name}: {what}")


def check_same_work(payload: Payload, request: toolnexus.Request, form: toolnexus.Form, reader: HostReader) -> None:
    """Both sides render the same form, and read the same post into the same content."""
    params = {**payload.params, "id": request.id}
    ours_html, theirs_html = request.to_html(**WRITING), jinja_render(params)
    if form.to_html(request.prompt, **WRITING) != ours_html.replace(
        f'<input type="hidden" name="tn-request" value="{request.id}">\n', ""
    ):
        fail(payload, "Form.to_html and Request.to_html write different forms")
    names = {f"tn-{i}": field.name for i, field in enumerate(form.fields)}
    names.update({"tn-request": "request", "tn-action": "action"})
    values = {f"tn-{i}": [o.value for o in field.options] for i, field in enumerate(form.fields) if field.widget != "toggle"}
    ours, theirs = markup(ours_html), markup(theirs_html)
    a, b = normalized(ours.elements, names, values), normalized(theirs.elements, {}, {})
    if a != b:
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        fail(payload, f"the fragments differ at element {at}: {a[at:at + 1]} against {b[at:at + 1]}")
    if " ".join("".join(ours.text).split()) != " ".join("".join(theirs.text).split()):
        fail(payload, "the fragments say different things")
    controlled = {
        dict(attrs)["name"] for tag, attrs in b if tag in ("input", "select") and ("type", "hidden") not in attrs
    }
    if controlled != set(payload.schema["properties"]):
        fail(payload, "not every field has a control")

    ours_post, theirs_post = posts(form, payload.content, request.id)
    for html, post in ((a, ours_post), (b, theirs_post)):
        offered = {dict(attrs).get("name") for _, attrs in html}
        if any(names.get(name, name) not in offered for name, _ in post):
            fail(payload, "a post names a control its form does not have")
    answer = request.answer_from_form_data(ours_post, **READING)
    # A form alone has no request: its post carries no request id.
    action, content = form.read_form_data(ours_post[1:], **READING)
    model = reader(theirs_post)
    if not answer.ok or action != "accept" or not isinstance(model, BaseModel):
        fail(payload, "the valid post is not accepted by both")
    theirs_content = model.model_dump(mode="json", exclude_unset=True)
    if not (answer.data == content == theirs_content == payload.content):
        fail(payload, f"the content read differs: {answer.data} / {theirs_content}")

    # Both refuse a value out of range: the first number below its minimum.
    index, field = next(
        (i, f) for i, f in enumerate(form.fields) if f.widget in ("number", "integer") and f.constraints.minimum is not None
    )
    low = str(int(field.constraints.minimum or 0) - 1)
    try:
        request.answer_from_form_data([(n, low if n == f"tn-{index}" else v) for n, v in ours_post], **READING)
        fail(payload, "toolnexus accepts a value out of range")
    except toolnexus.InvalidContentError:
        pass
    try:
        reader([(n, low if n == field.name else v) for n, v in theirs_post])
        fail(payload, "the pydantic model accepts a value out of range")
    except ValidationError:
        pass


# --- Timing ----------------------------------------------------------------------------


def measure(routes: list[tuple[Route, object]], rounds: int) -> list[list[float]]:
    """Nanoseconds per call of each route, one entry per round; the routes take turns, in
    reversed order every other round."""
    counts = [calls_per_measure(route, arg) for route, arg in routes]
    times: list[list[float]] = [[] for _ in routes]
    order = list(range(len(routes)))
    for round_ in range(rounds):
        for i in order if round_ % 2 == 0 else reversed(order):
            route, arg = routes[i]
            times[i].append(per_call_ns(route, arg, counts[i]))
    return times


def best_us(times: list[float]) -> float:
    return min(times) / 1000


def ratio(ours: list[float], theirs: list[float]) -> float:
    return min(theirs) / min(ours)


def record(what: str, payload: str, measured: str, target: str, met: bool) -> None:
    timing.record("html", what, payload, measured, target, met)


# --- The run ---------------------------------------------------------------------------


@dataclass
class Row:
    """One size's figures: the rounds' nanoseconds per call of each route."""

    payload: Payload
    times: dict[str, list[float]]

    def us(self, route: str) -> float:
        return best_us(self.times[route])

    def per_field(self, route: str) -> float:
        return min(self.times[route]) / self.payload.fields

    def ratio(self, ours: str, theirs: str) -> float:
        return ratio(self.times[ours], self.times[theirs])


def run_size(payload: Payload, rounds: int) -> Row:
    request = toolnexus.elicitation_to_request(payload.params)
    form = request.form
    assert form is not None
    schema = payload.schema
    reader = HostReader(
        host_model(schema),
        frozenset(name for name, prop in schema["properties"].items() if prop.get("type") == "array"),
        request.id,
    )
    check_same_work(payload, request, form, reader)
    params = {**payload.params, "id": request.id}
    ours_post, theirs_post = posts(form, payload.content, request.id)
    ready = reader.as_dict(theirs_post)
    del ready["action"], ready["request"]
    message = payload.params["message"]
    routes: dict[str, tuple[Route, object]] = {
        # Timed as a host writes the calls: keyword arguments, not a dict unpacked each time.
        "request_html": (lambda r: r.to_html(utc_offset=UTC_OFFSET), request),
        "form_html": (lambda f: f.to_html(message, utc_offset=UTC_OFFSET), form),
        "jinja": (jinja_render, params),
        "request_read": (lambda p: request.answer_from_form_data(p, utc_offset=UTC_OFFSET, limits=LIMITS), ours_post),
        # A form alone has no request: its post carries no request id.
        "form_read": (lambda p: form.read_form_data(p, utc_offset=UTC_OFFSET, limits=LIMITS), ours_post[1:]),
        "host_read": (reader, theirs_post),
        "validate": (reader.model.model_validate, ready),
    }
    names = list(routes)
    return Row(payload, dict(zip(names, measure([routes[n] for n in names], rounds))))


def size_name(payload: Payload) -> str:
    return f"{payload.fields:,} fields"


def report(rows: list[Row]) -> None:
    """The two tables, with each target recorded."""
    print("\nRender: the form as an HTML fragment; best µs per call (ns per field); ratio = Jinja2 / toolnexus")
    print("| fields | Request.to_html | Form.to_html | Jinja2 template | ratio, Request | ratio, Form | target |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        against = row.ratio("request_html", "jinja")
        met = against >= RENDER_TARGET
        print(
            f"| {row.payload.fields:,} | {cell(row, 'request_html')} | {cell(row, 'form_html')} | "
            f"{cell(row, 'jinja')} | **{against:.1f}x** | {row.ratio('form_html', 'jinja'):.1f}x | "
            f">= {RENDER_TARGET:g}x: {verdict(met)} |"
        )
        record("render: Request.to_html vs Jinja2", size_name(row.payload), f"{against:.2f}x", f">= {RENDER_TARGET:g}x faster", met)
    print(
        "\nRead-back: the valid post, (name, value) pairs, to checked content; best µs per call "
        "(ns per field); ratio = host / toolnexus"
    )
    print(
        "| fields | Request.answer_from_form_data | Form.read_form_data | host: dict + pydantic | "
        "(model_validate alone) | ratio, Request | ratio, Form | target |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        against = row.ratio("request_read", "host_read")
        met = against >= READ_TARGET
        print(
            f"| {row.payload.fields:,} | {cell(row, 'request_read')} | {cell(row, 'form_read')} | "
            f"{cell(row, 'host_read')} | {cell(row, 'validate')} | **{against:.2f}x** | "
            f"{row.ratio('form_read', 'host_read'):.2f}x | >= {READ_TARGET:g}x: {verdict(met)} |"
        )
        record(
            "read-back: answer_from_form_data vs pydantic",
            size_name(row.payload),
            f"{against:.2f}x",
            f">= {READ_TARGET:g}x faster",
            met,
        )


def growth(rows: list[Row]) -> None:
    """Each route's cost per field at each size; toolnexus's at 1,000 fields against 100, which
    mix the kinds of field alike (the forms of 3 and 10 fields lack some kinds)."""
    sizes = [row.payload.fields for row in rows]
    by_size = dict(zip(sizes, rows))
    print("\nCost per field, ns (linear: flat from size to size; the 3-field form carries the fixed cost of a call):")
    print("| route | " + " | ".join(f"{n:,} fields" for n in sizes) + f" | 1,000 / 100 | target <= {GROWTH_TARGET}x |")
    print("|---|" + "---:|" * len(sizes) + "---:|---|")
    for route, what, targeted in (
        ("request_html", "Request.to_html", True),
        ("form_html", "Form.to_html", True),
        ("jinja", "Jinja2 template", False),
        ("request_read", "Request.answer_from_form_data", True),
        ("form_read", "Form.read_form_data", True),
        ("host_read", "host: dict + pydantic", False),
    ):
        cells = " | ".join(f"{by_size[n].per_field(route):,.0f}" for n in sizes)
        grown = by_size[1000].per_field(route) / by_size[100].per_field(route)
        met = grown <= GROWTH_TARGET
        print(f"| {what} | {cells} | {grown:.2f}x | {verdict(met) if targeted else ''} |")
        if targeted:
            record(
                f"{what}: cost per field, 1,000 fields against 100",
                "100 and 1,000 fields",
                f"{grown:.2f}x",
                f"<= {GROWTH_TARGET}x",
                met,
            )


def cell(row: Row, route: str) -> str:
    return f"{row.us(route):,.2f} ({row.per_field(route):,.0f})"


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def describe_machine(rounds: int) -> None:
    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("toolnexus", "Jinja2", "MarkupSafe", "pydantic", "pydantic-core")
    )
    print(versions)
    print(f"CPython {platform.python_version()} on {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs")
    print(
        f"Time per call: the best of {rounds} interleaved rounds of about {MEASURE_SECONDS * 1000:g} ms "
        "each, after a warm-up; ratio = peer / toolnexus."
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    args = parser.parse_args()
    describe_machine(args.rounds)
    rows = []
    for payload in SIZES:
        rows.append(run_size(payload, args.rounds))
        print(f"  {payload.name}: checked and timed", flush=True)
    report(rows)
    growth(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
