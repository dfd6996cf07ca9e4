"""DO (an expression evaluated for its effect) and LET (a variable bound)."""

from __future__ import annotations

from typing import Any

from ..machine import PAUSED
from .base import Writer

Env = dict[str, Any]


def run_do(g: Any, step: Any, env: Env) -> bool:
    """`effect`: True if it started a program that must wait (play, apply)."""
    return step[1](g, env) is PAUSED


def emit_do(w: Writer, step: Any, chain: list[str], pause: list[str], ind: str, wheres: list[Any],
            at: int) -> list[str]:
    pre: list[str] = []
    text, paused = w.value(step[1], pre, ind)
    if paused is not None:  # a template's test that it paused
        return [*pre, f"{ind}if {paused}:", *pause]
    if text is not None:
        return [*pre, f"{ind}if {text} is PAUSED:", *pause]
    return pre


def run_let(g: Any, step: Any, env: Env) -> bool:
    """`name = value`."""
    env[step[1]] = step[2](g, env)
    return False


def emit_let(w: Writer, step: Any, chain: list[str], pause: list[str], ind: str, wheres: list[Any],
             at: int) -> list[str]:
    pre: list[str] = []
    text = w.expr(step[2], pre, ind)
    return [*pre, f"{ind}{w.env(step[1])} = {text}"]
