"""Markdown inline code kept as written: `` `tessera: Could not read x.` `` keeps its backticks.

``unstructured`` renders Markdown to HTML and reads the text back, so an inline code span loses its
backticks: a policy's quoted example ("should read like `tool: Could not read x.`") then reads as
said (its "not" a denial), and a finding's source quote is no longer the source's words. Escaping the
backticks and the markup characters inside a span makes the renderer print the span as written.
Fenced and indented code blocks are left alone: the renderer keeps their text verbatim already.
"""

import re
from typing import Final

# A single-backtick span on one line (a double-backtick span is rare in policies and left as it is).
_SPAN: Final = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
# What Markdown would read as markup inside the span once its backticks are escaped.
_MARKUP: Final = re.compile(r"([\\`*_{}\[\]()#+\-.!>|])")
_FENCE: Final = re.compile(r"^ {0,3}(?:```|~~~)")
# An indented line is code, unless it is a nested list item ("    - run `make`").
_INDENTED_CODE: Final = re.compile(r"^(?: {4}|\t)(?!\s*(?:[-*+]|\d+[.)])\s)")


def keep_code_spans(markdown: str) -> str:
    """``markdown`` with each inline code span written so that it renders as its source text,
    backticks included; code blocks unchanged."""
    lines: list[str] = []
    fenced = False
    for line in markdown.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and not _INDENTED_CODE.match(line):
            line = _SPAN.sub(_as_written, line)
        lines.append(line)
    return "".join(lines)


def _as_written(span: re.Match[str]) -> str:
    code = _MARKUP.sub(r"\\\1", span.group(1)).replace("&", "&amp;").replace("<", "&lt;")
    return f"\\`{code}\\`"
