"""IF: one of two sub-programs, as a test says."""

from __future__ import annotations

from typing import Any

from .base import Writer

Env = dict[str, Any]


def run_if(g: Any, step: Any, env: Env) -> bool:
    """`if test then … else …`: True if the branch taken paused."""
    body = step[2] if step[1](g, env) else step[3]
    return bool(body) and g.perform(body, env)  # type: ignore[no-any-return]


def emit_if(w: Writer, step: Any, chain: list[str], pause: list[str], ind: str, wheres: list[Any],
            at: int) -> list[str]:
    """The branches in place; a branch that would go too deep runs by its own runner."""
    pre: list[str] = []
    text = w.expr(step[1], pre, ind)
    mark = len(wheres)
    then = w.block(step[2], chain, ind + "    ", wheres) or [f"{ind}    pass"]
    orelse = w.block(step[3], chain, ind + "    ", wheres) if step[3] else []
    if w.deep(then) or w.deep(orelse):
        del wheres[mark:]  # (the steps of the branches are their runners' now)
        then, orelse = (_called(w, body, pause, ind + "    ") if body else [] for body in (step[2], step[3]))
    out = [*pre, f"{ind}if {text}:", *(then or [f"{ind}    pass"])]
    if orelse:
        out += [f"{ind}else:", *orelse]
    return out  # (no check for queued rules after it: each step of a branch has its own, and a test queues none)


def _called(w: Writer, body: Any, pause: list[str], ind: str) -> list[str]:
    """A branch run by its runner, as the interpreter's run_if runs it."""
    return [*w.stores(ind), f"{ind}if {w.called(body, ind)}:", *("    " + line for line in pause), *w.loads(ind)]
