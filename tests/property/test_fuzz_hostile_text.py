"""Fuzzing names, descriptions, logs and saves with hostile text (issue 31).

Hypothesis writes text that other programs read as something else — Python coding
declarations, rich markup, Markdown and HTML, terminal escapes, huge numbers, line
breaks — into the names and descriptions of a variant, and into the fields of an event
log and a save. Then:

1. `validate` never raises; a variant it accepts compiles to a module whose comments hold
   no coding declaration (Python would decode the saved file under it), whose Markdown
   rulebook has the shape of a plain one (no HTML, link or image, the same headings,
   paragraphs and table rows), and whose `run` prints the text without a control
   character or a markup error.
2. `replay` of a log and `run --resume` of a save carrying such text end with a result or
   a clear error: never a traceback, a hang, or a control character on the screen.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from tests.helpers import TEXT_PLACES, deadline, text_at
from unodsl.cli import main
from unodsl.engine.backends import backend_of
from unodsl.tools.rulebook import render
from unodsl.variant.load import load_variant, validate_file

SECONDS = 60
COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.IGNORECASE)
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

PIECES = [
    "coding:utf-7", "# -*- coding: latin-1 -*-", "vim: set fileencoding=utf-16 :", "coding=unicode_escape \\x0a",
    "[/nope]", "[link=https://evil.example]Safe[/link]", "[conceal]x[/conceal]", "[bold]", ":skull:",
    "<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "[x](javascript:alert(3))", "![i](x)",
    "https://evil.example", "www.evil.example", "a@evil.example", "**", "*", "_", "`", "``", "~~", "$x$", "|",
    "# ", "- ", "1. ", "> ", "&lt;", "&#60;", "\\", "\n", "\n\n# heading\n", "\u2028", "\x1b]0;t\x07", "\x1b[2J",
    "\x9b31m", "\u202e", "9" * 5000, "1e999999", "-0", "%00", "\ud83d\ude00", "😀",
]
hostile = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8)), min_size=1, max_size=6).map("".join)
PLACES = TEXT_PLACES


def shape(md: str) -> list[str]:
    tokens = MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(md)
    return [t.type for t in [*tokens, *(c for t in tokens for c in (t.children or []))]
            if t.type not in ("text", "softbreak", "text_special")]


def invoke(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert not RAW.search(result.output), repr(result.output[:300])
    return result.output


@settings(max_examples=settings().max_examples * 2)
@given(place=st.sampled_from(PLACES), text=hostile)
@example(place="name", text='coding:unicode_escape \\x0a    pass\\x0adef f(a=__import__("os").system("id>MU")):#')
@example(place="name", text="[/nope] [link=https://evil.example]Safe[/link] [conceal]hidden[/conceal]")
@example(place="rule", text="x\n# heading\n<script>alert(1)</script>")
def test_hostile_names_and_descriptions(place: str, text: str) -> None:
    if place == "flag" and ('"' in text or "\\" in text or "\n" in text):
        text = re.sub(r'["\\\n]', "", text) or "x"  # a string of the language holds no quote or break
    with tempfile.TemporaryDirectory() as tmp, deadline(SECONDS):
        path = Path(tmp) / "v.yaml"
        try:
            path.write_text(text_at(place, text), encoding="utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no file can hold it
            return
        diags = validate_file(path)  # never raises
        if any(d.severity == "error" for d in diags):
            invoke("validate", str(path))
            return
        v = load_variant(path)
        comments = [line for line in backend_of(v).source.splitlines() if line.lstrip().startswith("#")]
        assert not [line for line in comments if COOKIE.match(line)]
        assert not any(text[:12] in line for line in backend_of(v).source.splitlines()[:2] if len(text) >= 4)
        plain = Path(tmp) / "plain.yaml"
        plain.write_text(text_at(place, "plain words" if text.strip() else text), encoding="utf-8")
        assert shape(render(path)) == shape(render(plain))
        page = render(path, "html")
        assert "<script>alert" not in page and "<img" not in page
        invoke("run", str(path), "--seed", "1", "--rounds", "1", "-v")


@st.composite
def damaged(draw: st.DrawFn, doc: dict[str, Any]) -> str:
    """A log header or a save with a field set to hostile text, a huge number or deep nesting."""
    doc = dict(doc)
    key = draw(st.sampled_from(sorted(doc)))
    doc[key] = draw(st.one_of(
        hostile, st.sampled_from(["__BIG__", -(10**40), 2**63, 10**9, 0, -1, None, True, 1.5]),
        st.lists(hostile, max_size=4), st.just(["ismcts:iterations=1000000000000"] * 4)))
    text = json.dumps(doc).replace('"__BIG__"', "9" * 5000)  # past Python's int/str limit
    if draw(st.booleans()):  # nested deep somewhere
        text = text[:-1] + ', "deep": ' + "[" * 50_000 + "]" * 50_000 + "}"
    return text


_GAME: dict[str, Any] = {}


def _recorded(tmp: Path) -> tuple[list[str], dict[str, Any]]:
    if not _GAME:
        invoke("run", "duo", "--seed", "3", "--rounds", "1", "--log", str(tmp / "g.jsonl"),
               "--save", str(tmp / "s.json"))
        _GAME["log"] = (tmp / "g.jsonl").read_text(encoding="utf-8").splitlines()
        _GAME["save"] = json.loads((tmp / "s.json").read_text(encoding="utf-8"))
    return _GAME["log"], _GAME["save"]


@settings(max_examples=settings().max_examples * 2)
@given(data=st.data())
def test_hostile_logs_and_saves(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as name, deadline(SECONDS):
        tmp = Path(name)
        log, save = _recorded(tmp)
        header = data.draw(damaged(json.loads(log[0])), label="header")
        lines = [header, *log[1:]]
        if data.draw(st.booleans(), label="an event too"):
            k = data.draw(st.integers(1, len(log) - 2), label="event")
            event = json.loads(log[k])
            lines[k] = data.draw(damaged(event), label="event fields")
        path = tmp / "bad.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
        invoke("replay", str(path), "-v")
        save_path = tmp / "bad.json"
        save_path.write_text(data.draw(damaged(save), label="save"), encoding="utf-8", errors="surrogatepass")
        invoke("run", "--resume", str(save_path), "--rounds", "1")
