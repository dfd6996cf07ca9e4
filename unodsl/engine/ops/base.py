"""What the steps' emitters are given: the writer of a variant's module (codegen._Module)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

from ...lang.emit import Namespace
from ...lang.program import Fn, Program

# The step a line of a runner belongs to is marked by a comment, not a variable set on
# the hot path: a fault finds its step from the line it passed (codegen._at).
AT = "#@"


class Writer(Protocol):
    """The module being written: its names, the variant's facts, and the text of the parts
    a step is made of (its expressions, its sub-programs, its loops' runners)."""

    ns: Namespace
    origins: Any
    has_rules: bool  # the variant has rules: a step's queued rules run after it
    runs: dict[int, str]  # each program's runner, by the program's id

    def env(self, name: str) -> str: ...

    def field(self, name: str) -> str: ...

    def heard(self, event: str) -> bool: ...

    def ask(self, var: str, ind: str, own: bool) -> list[str]: ...

    def stores(self, ind: str) -> list[str]: ...

    def loads(self, ind: str) -> list[str]: ...

    def deep(self, lines: list[str]) -> bool: ...

    def called(self, program: Program, ind: str) -> str: ...

    def expr(self, fn: Fn, pre: list[str], ind: str, choose: bool = False) -> str | None: ...

    def value(self, fn: Fn, pre: list[str], ind: str) -> tuple[str | None, str | None]: ...

    def chooser(self, fn: Fn, pre: list[str], ind: str) -> tuple[str | None, tuple[str | None, str | None, str] | None]:
        ...

    def block(self, program: Program, outer: list[str], ind: str, wheres: list[Any],
              resume: bool = False, here: Callable[..., str] | None = None) -> list[str]: ...

    def loop_name(self, step: Any) -> str: ...


# What Python reads as a source encoding declaration in a comment (PEP 263: `coding:` or
# `coding=`, as in `-*- coding: latin-1 -*-` or vim's `fileencoding=`).
_CODING = re.compile(r"(coding)([:=])", re.IGNORECASE)


def comment(text: str) -> str:
    """A variant's text on one comment line: printable characters only, no line breaks, and
    never an encoding declaration (`coding:x` → `coding :x`), so the module printed by
    `unodsl compile` is the same code when saved to a file and run."""
    one = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    one = one if len(one) <= 100 else one[:99] + "…"
    return _CODING.sub(r"\1 \2", one)
