"""IF: one of two sub-programs, as a test says."""

from __future__ import annotations

from typing import Any

from .base import AT, Writer

Env = dict[str, Any]


def run_if(g: Any, step: Any, env: Env) -> bool:
    """`if test then … else …`: True if the branch taken paused."""
    body = step[2] if step[1](g, env) else step[3]
    return bool(body) and g.perform(body, env)  # type: ignore[no-any-return]


def emit_if(w: Writer, step: Any, chain: list[str], pause: list[str], ind: str, wheres: list[Any],
            at: int) -> list[str]:
    pre: list[str] = []
    text = w.expr(step[1], pre, ind)
    then = w.block(step[2], chain, ind + "    ", wheres) or [f"{ind}    pass"]
    out = [*pre, f"{ind}if {text}:", *then]
    if step[3]:
        out += [f"{ind}else:", *w.block(step[3], chain, ind + "    ", wheres)]
    if w.has_rules:  # the rules this step queued are its own (as the interpreter places them)
        out.append(f"{ind}{AT}{at}")
    return out
