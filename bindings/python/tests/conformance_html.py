"""Runner of the suite's ``html`` operation through the public Python API: a request written as
an HTML form or URL consent (``Request.to_html``), and the browser's post read back
(``Request.answer_from_form_data``) into an answer, or into the error and the form written
again with ``to_html(form_data=post, error=error)``.

The input ``{"request", "options"?, "post"?}`` is read within the default limits; the case's
limits are for the post. When the case's input is a ``str``, the request goes in as a ``dict``,
a body as ``str`` and pairs and hidden fields as lists; when it is ``bytes``, the request as JSON
text, a body as ``bytes`` and pairs from a generator, so both ways of passing each argument are
held to the same bytes. The errors come in the order of ``conformance/src/ops/html.rs``: the
request, the options (``asker``, ``classPrefix``, ``hidden``, ``action``, ``utcOffset``), the
post, then the reading.
"""

from __future__ import annotations

from typing import Any, Iterator

import toolnexus
from conformance_common import Runner, Text, violations

OPTION_NAMES = {
    "asker": "asker",
    "classPrefix": "class_prefix",
    "hidden": "hidden",
    "action": "action",
    "utcOffset": "utc_offset",
    "applyDefaults": "apply_defaults",
    "allowUnknown": "allow_unknown",
}
"""The case's option names, as the keyword arguments of ``to_html``."""

READING = ("hidden", "utc_offset", "apply_defaults", "allow_unknown")
"""The options ``answer_from_form_data`` takes."""


def _pairs(pairs: list[list[str]], as_bytes: bool) -> Any:
    """``[[name, value], ...]`` as lists, or (for ``bytes`` input) tuples from a generator."""
    assert all(isinstance(p, list) and len(p) == 2 for p in pairs), "pairs are [name, value]"
    if not as_bytes:
        return pairs

    def generate() -> Iterator[tuple[str, str]]:
        for name, value in pairs:
            yield name, value

    return generate()


def _post(post: Any, as_bytes: bool) -> Any:
    """The case's post as ``form_data``: the body's text (its UTF-8 for ``bytes`` input), or its
    pairs."""
    if isinstance(post, str):
        return post.encode("utf-8") if as_bytes else post
    assert isinstance(post, list), "`post` is a string or an array of pairs"
    return _pairs(post, as_bytes)


def _options(options: Any, as_bytes: bool) -> dict[str, Any]:
    assert isinstance(options, dict), "`options` is an object"
    keywords: dict[str, Any] = {}
    for key, value in options.items():
        assert key in OPTION_NAMES, f"unknown option {key!r}"
        if key == "hidden":
            hidden = _pairs(value, as_bytes)
            value = list(hidden) if as_bytes else hidden
        keywords[OPTION_NAMES[key]] = value
    return keywords


def run_html(_case: dict[str, Any], text: Text, limits: toolnexus.Limits) -> str:
    whole = toolnexus.from_json(text)
    assert isinstance(whole, dict) and "request" in whole, "the input is an object with `request`"
    assert set(whole) <= {"request", "options", "post"}, f"unknown input members {sorted(whole)}"
    as_bytes = isinstance(text, bytes)
    if as_bytes:
        request = toolnexus.Request.from_json(toolnexus.to_json(whole["request"]).encode("utf-8"))
    else:
        request = toolnexus.Request.from_dict(whole["request"])
    options = _options(whole.get("options", {}), as_bytes)
    if "post" not in whole:
        return toolnexus.to_json({"html": request.to_html(**options)})
    # The options are refused before the post is read: the class prefix here (asker and action
    # are any text), the others by `answer_from_form_data` before it reads the post.
    if "class_prefix" in options:
        toolnexus.html_stylesheet(options["class_prefix"])
    reading = {key: value for key, value in options.items() if key in READING}
    post = whole["post"]
    try:
        answer = request.answer_from_form_data(_post(post, as_bytes), limits=limits, **reading)
    except toolnexus.Error as error:
        html = request.to_html(form_data=_post(post, as_bytes), error=error, limits=limits, **options)
        described = {"kind": error.kind, "pointer": error.pointer, "violations": violations(error.violations)}
        return toolnexus.to_json({"error": described, "html": html})
    return '{"answer":' + answer.to_json() + "}"


HTML_RUNNERS: dict[str, Runner] = {"html": run_html}
"""The operation this module runs, by name."""
