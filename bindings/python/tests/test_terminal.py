"""``terminal_text`` and ``terminal_json``: server text as it is safe to show on a terminal."""

from __future__ import annotations

import json
import typing

import pytest

import toolnexus


def test_escape_sequences_are_shown_not_obeyed() -> None:
    clipboard = "Copy this\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"
    assert toolnexus.terminal_text(clipboard) == "Copy this\\u{1b}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\u{7}"
    rewrite = "x\x1b[2K\r\x1b[1A  URL:  https://bank.example/login"
    shown = toolnexus.terminal_text(rewrite, "keep")
    assert shown == "x\\u{1b}[2K\\r\\u{1b}[1A  URL:  https://bank.example/login"
    assert "\x1b" not in shown and "\r" not in shown
    assert toolnexus.terminal_text("label\u202eexe.pdf", line_breaks="show") == "label\\u{202e}exe.pdf"


def test_line_breaks_are_kept_in_a_block_and_shown_on_one_line() -> None:
    text = "one\r\ntwo\tthree\nfour"
    assert toolnexus.terminal_text(text) == "one\ntwo\tthree\nfour"
    assert toolnexus.terminal_text(text, line_breaks="keep") == "one\ntwo\tthree\nfour"
    assert toolnexus.terminal_text(text, line_breaks="show") == "one\\r\\ntwo\\tthree\\nfour"


def test_clean_text_is_the_same_str() -> None:
    text = "Zürich 👩\u200d💻 \\u{1b} stays text"
    assert toolnexus.terminal_text(text, "show") is text
    assert toolnexus.terminal_json('{"a": "b"}\n') == '{"a": "b"}\n'


def test_line_breaks_names_are_the_cores() -> None:
    assert typing.get_args(toolnexus.LineBreaks) == ("keep", "show")
    for name in ("Keep", "strip", ""):
        with pytest.raises(toolnexus.InvalidValueError) as raised:
            toolnexus.terminal_text("a", line_breaks=name)  # type: ignore[arg-type]
        assert (raised.value.kind, raised.value.pointer) == ("invalid_value", "")
        assert f"\"{name}\"" in raised.value.message


def test_arguments_that_are_not_text() -> None:
    with pytest.raises(TypeError, match="text must be a str"):
        toolnexus.terminal_text(b"\x1b[2J")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="line_breaks must be a str"):
        toolnexus.terminal_text("a", line_breaks=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="json must be a str"):
        toolnexus.terminal_json({"a": 1})  # type: ignore[arg-type]
    with pytest.raises(toolnexus.LoneSurrogateError):
        toolnexus.terminal_text("a\ud800")


def test_terminal_json_is_the_same_json() -> None:
    value = {"a": "x\x9b2J\u202e\u2028\U000e0041", "esc": "\x1b]0;title\x07", "ok": "Zoë 👍"}
    text = toolnexus.to_json(value)
    shown = toolnexus.terminal_json(text)
    assert shown == (
        '{"a":"x\\u009b2J\\u202e\\u2028\\udb40\\udc41","esc":"\\u001b]0;title\\u0007","ok":"Zoë 👍"}'
    )
    assert json.loads(shown) == value
    assert toolnexus.from_json(shown) == value
