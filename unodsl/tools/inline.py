"""The rulebook's inline text: a few marks of its own, everything else literal, rendered as
safe Markdown or HTML.

A rulebook's sentences carry three marks the program writes: `code`, **bold** and
*italics*. Text from the variant file (names, descriptions, strings of its expressions)
is put in with `lit` (or `code`), which escapes those marks with a backslash, so it can
never open one. The renderers then treat everything but the marks as literal text:
Markdown gets every character that Markdown or the HTML under it would read escaped
(raw HTML, links and autolinks, emphasis, headings and lists at the start of a line),
line breaks and other whitespace become spaces, and control characters are written as
their escapes (errors.shown); HTML gets html.escape. So a variant's text is shown as
written, and a `<script>`, a `javascript:` link or a line break that would start a
heading or end a table row stays text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from ..errors import shown

_MARKS = re.compile(r"[\\`*]")
# One mark of the inline text: an escaped character, a code span, ** or *.
_TOKEN = re.compile(r"\\(.)|`((?:\\.|[^`\\])*)`|\*\*|\*", re.S)
# Markdown's and HTML's active characters in text: escaped with a backslash, or as entities.
_MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_MD_SPECIAL = re.compile(r"[\\`*_\[\]#~$&<>]")
_MD_LINK = re.compile(r"(?i)\b(www)(\.)|(:)(?=//)|(@)")  # what GitHub's Markdown links without brackets
_MD_LINE_START = re.compile(r"^(\d+)([.)])|^([-+])")  # what starts a list (or a rule: ---)


def lit(text: str) -> str:
    """Text from the variant file, as inline text: its backslashes, backticks and stars are literal."""
    return _MARKS.sub(lambda m: "\\" + m.group(), text)


def code(text: str) -> str:
    """A code span of text from the variant file (an expression, a file name, an option's name)."""
    return f"`{lit(text)}`"


def one_line(text: str) -> str:
    """Literal text on one line: each run of whitespace and line breaks as one space, control
    and invisible characters as their escapes."""
    return shown(re.sub(r"\s+", " ", text))


def _tokens(text: str) -> list[tuple[str, str]]:
    """The inline text as (kind, text): "text", "code", "**" or "*" (the marks in pairs)."""
    out: list[tuple[str, str]] = []
    at = 0
    for m in _TOKEN.finditer(text):
        out.append(("text", text[at:m.start()]))
        if m.group(1) is not None:
            out.append(("text", m.group(1)))
        elif m.group(2) is not None:
            out.append(("code", re.sub(r"\\(.)", r"\1", m.group(2), flags=re.S)))
        else:
            out.append((m.group(), ""))
        at = m.end()
    out.append(("text", text[at:]))
    for mark in ("**", "*"):  # a mark without its pair is text
        where = [i for i, (kind, _) in enumerate(out) if kind == mark]
        if len(where) % 2:
            out[where[-1]] = ("text", mark)
    merged: list[tuple[str, str]] = []
    for kind, part in out:
        if kind == "text" and merged and merged[-1][0] == "text":
            merged[-1] = ("text", merged[-1][1] + part)
        elif kind != "text" or part:
            merged.append((kind, part))
    return merged


def unmarked(text: str) -> str:
    """Inline text without its marks (an HTML page's title)."""
    return "".join(part for kind, part in _tokens(text) if kind in ("text", "code"))


def _render(text: str, literal: Callable[[str], str], span: Callable[[str], str],
            marks: Callable[[str, bool], str]) -> str:
    out: list[str] = []
    open_marks: set[str] = set()
    for kind, part in _tokens(text):
        if kind == "text":
            out.append(literal(part))
        elif kind == "code":
            out.append(span(part))
        else:
            out.append(marks(kind, kind not in open_marks))
            open_marks ^= {kind}
    return "".join(out)


# -- Markdown --------------------------------------------------------------------


def _md_literal(text: str) -> str:
    text = one_line(text)
    text = _MD_SPECIAL.sub(lambda m: _MD_ENTITIES.get(m.group(), "\\" + m.group()), text)
    return _MD_LINK.sub(lambda m: "".join(("\\" + g if g in ".:@" else g) for g in m.groups() if g), text)


def _md_code(text: str) -> str:
    text = one_line(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) or longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown_inline(text: str, line_start: bool = False) -> str:
    """Inline text as Markdown; `line_start`: it begins a paragraph or a list item, where
    `1.`, `-`, `+` or `=` would start a list or underline a heading."""
    out = _render(text, _md_literal, _md_code, lambda mark, _: mark)
    if line_start:
        out = _MD_LINE_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(1) else "\\" + m.group(3), out)
    return out


# -- HTML ------------------------------------------------------------------------

_HTML_MARKS = {"**": "strong", "*": "em"}


def html_inline(text: str) -> str:
    """Inline text as HTML: literal text escaped, the marks as elements."""
    return _render(text, lambda t: html.escape(one_line(t)), lambda c: f"<code>{html.escape(one_line(c))}</code>",
                   lambda mark, opening: f"<{'' if opening else '/'}{_HTML_MARKS[mark]}>")
