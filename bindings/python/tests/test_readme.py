"""The READMEs' Python examples, run against the built wheel.

Each ```python block of the project's README and of this binding's README is executed in a
fresh namespace. A line ``EXPR  # VALUE``, or an expression line followed by a comment line that
holds VALUE, is an assertion that EXPR equals VALUE (a Python literal), so the values the
README shows are the values the binding gives. A block that cannot run says why in the README,
in a ``<!-- not run: … -->`` comment right above it, and is reported as skipped with that
reason.
"""

from __future__ import annotations

import ast
import io
import pathlib
import re
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
READMES = [ROOT / "README.md", ROOT / "bindings" / "python" / "README.md"]


def blocks(path: pathlib.Path) -> list[tuple[int, str, str | None]]:
    """Every ```python block of `path`: its first line's number, its source, and the reason it
    is not run, if the README gives one."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("```python"):
            above = i - 1
            while above >= 0 and not lines[above].strip():
                above -= 1
            note = re.fullmatch(r"<!-- not run: (.+?) -->", lines[above].strip()) if above >= 0 else None
            start = i + 1
            i = start
            while not lines[i].startswith("```"):
                i += 1
            found.append((start + 1, "\n".join(lines[start:i]), note.group(1) if note else None))
        i += 1
    return found


def claim(comment: str) -> str | None:
    """The Python literal a comment claims, as its source, or None."""
    text = comment.lstrip("#").strip()
    for candidate in (text, text.split("  ")[0]):
        try:
            ast.literal_eval(candidate)
        except (ValueError, SyntaxError):
            continue
        return candidate
    return None


def split_comment(line: str) -> tuple[str, str | None]:
    """A line's code and its trailing comment, read by Python's own tokenizer."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(line).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return line, None
    for token in tokens:
        if token.type == tokenize.COMMENT:
            return line[: token.start[1]].rstrip(), token.string
    return line, None


def is_expression(code: str) -> bool:
    try:
        ast.parse(code.strip(), mode="eval")
    except SyntaxError:
        return False
    return bool(code.strip())


def with_assertions(source: str) -> tuple[str, int]:
    """`source` with each claimed value turned into an assertion; how many there are."""
    out: list[str] = []
    pending: int | None = None  # index in `out` of an expression line with no claim yet
    count = 0
    for line in source.split("\n"):
        code, comment = split_comment(line)
        indent = line[: len(line) - len(line.lstrip())]
        value = claim(comment) if comment else None
        if code.strip() and is_expression(code) and value is not None:
            out.append(f"{indent}assert ({code.strip()}) == {value}, {code.strip()!r}")
            count += 1
            pending = None
        elif not code.strip() and value is not None and pending is not None:
            expression = out[pending]
            expression_indent = expression[: len(expression) - len(expression.lstrip())]
            out[pending] = (
                f"{expression_indent}assert ({expression.strip()}) == {value}, {expression.strip()!r}"
            )
            count += 1
            pending = None
        else:
            out.append(line)
            pending = len(out) - 1 if code.strip() and is_expression(code) else (
                pending if not code.strip() else None
            )
    return "\n".join(out), count


CASES = [
    pytest.param(readme, line, source, reason, id=f"{readme.relative_to(ROOT)}:{line}")
    for readme in READMES
    for line, source, reason in blocks(readme)
]


def test_every_readme_has_python_examples() -> None:
    assert len(CASES) >= 3


@pytest.mark.parametrize(("readme", "line", "source", "reason"), CASES)
def test_a_readme_example_runs_and_shows_true_values(
    readme: pathlib.Path, line: int, source: str, reason: str | None
) -> None:
    if reason is not None:
        pytest.skip(f"the README says it is not run: {reason}")
    code, assertions = with_assertions(source)
    exec(compile(code, f"{readme.name}:{line}", "exec"), {"__name__": "readme_example"})
    assert assertions > 0, "an example that shows no value proves little: show one"


def test_claims_become_assertions() -> None:
    code, count = with_assertions("x = [1]\nx  # [1]\nlen(x)\n# 1\ny = 2  # not a claim")
    assert count == 2
    assert "assert (x) == [1]" in code
    assert "assert (len(x)) == 1" in code
    with pytest.raises(AssertionError):
        exec(with_assertions("x = 1\nx  # 2")[0], {})
