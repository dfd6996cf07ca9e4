"""FOR, WHILE, REPEAT and LOOP: a sub-program run again and again.

A loop that stops for a player leaves its frame (For, While, Repeat: where it stands),
and goes on from there with the answer (`resume_*`; in generated code, the loop's own
runner, `def loop_N(g, e, items, k)`). A while loop's frame also says where in its body
the iteration stands (`pc`): generated code leaves that one frame, where the interpreter
leaves the body's frames above it. User loops are charged to the turn's work budget
and a while loop stops at WHILE_GUARD; LOOP is the flow's own (rounds, turns), unguarded:
its steps have guards of their own.
"""

from __future__ import annotations

from typing import Any

from ...lang.program import FOR, LOOP, REPEAT, WHILE
from ..frames import For, Repeat, While
from ..machine import WHILE_GUARD
from .base import AT, Writer

Env = dict[str, Any]


def run_for(g: Any, step: Any, env: Env) -> bool:
    """`for var in items do …`."""
    return resume_for(g, step, g.for_items(step[2](g, env), len(step[3]) or 1), 0, env)


def run_while(g: Any, step: Any, env: Env) -> bool:
    """`while test do …`."""
    return resume_while(g, step, env, WHILE_GUARD)


def run_loop(g: Any, step: Any, env: Env) -> bool:
    """The flow's loop: while test, unguarded."""
    return resume_while(g, step, env, None)


def run_repeat(g: Any, step: Any, env: Env) -> bool:
    """`repeat count do …`."""
    return resume_repeat(g, step, env, g.repeats(step[1](g, env), len(step[2]) or 1))


def resume_for(g: Any, step: Any, items: tuple[Any, ...], k: int, env: Env) -> bool:
    """A for loop from item `k` of `items`."""
    var, body = step[1], step[3]
    for j in range(k, len(items)):
        env[var] = items[j]
        if g.perform(body, env):
            g._paused.append(For(step, items, j + 1, env))
            return True
    return False


def resume_while(g: Any, step: Any, env: Env, left: int | None, pc: int = 0) -> bool:
    """A while loop with at most `left` more iterations; `left` None: the flow's own loop
    (rounds, turns), unguarded and uncharged. `pc`: the iteration it stopped in goes on
    from that step of its body first."""
    cond, body = step[1], step[2]
    if pc and g.perform(body, env, pc):
        g._paused.append(While(step, env, left, 0))
        return True
    if left is None:
        while cond(g, env):
            if g.perform(body, env):
                g._paused.append(While(step, env, None, 0))
                return True
        return False
    work = len(body) or 1
    for k in range(left):
        if not cond(g, env):
            return False
        g.charge(work)
        if g.perform(body, env):
            g._paused.append(While(step, env, left - k - 1, 0))
            return True
    g.endless()
    return False  # (never: endless raises)


def resume_repeat(g: Any, step: Any, env: Env, left: int) -> bool:
    """A repeat loop with `left` iterations to go."""
    for k in range(left):
        if g.perform(step[2], env):
            g._paused.append(Repeat(step, env, left - k - 1))
            return True
    return False


def emit_loop(w: Writer, step: Any, chain: list[str], pause: list[str], ind: str, wheres: list[Any],
              at: int) -> list[str]:
    """The loop step in its program: its runner called from the start (as run_* does)."""
    op = step[0]
    pre: list[str] = []
    if op == FOR:
        start = f"g.for_items({w.expr(step[2], pre, ind)}, {len(step[3]) or 1}), 0"
    elif op == REPEAT:
        start = f"None, g.repeats({w.expr(step[1], pre, ind)}, {len(step[2]) or 1})"
    else:
        start = f"None, {WHILE_GUARD if op == WHILE else None}"
    out = [*pre, f"{ind}if {w.loop_name(step)}(g, e, {start}):", *pause]
    if w.has_rules:  # (as after an if)
        out.append(f"{ind}{AT}{at}")
    return out


def emit_rest(w: Writer, step: Any, ind: str) -> list[str]:
    """A while loop's runner, first: the rest of the iteration its frame stopped in (from
    step `start` of the body, by the body's runner), as resume_while does."""
    if step[0] not in (WHILE, LOOP) or not step[2]:
        return []
    left = "None" if step[0] == LOOP else "k"
    return [f"{ind}if start and {w.runs[id(step[2])]}(g, e, 0, start):",
            f"{ind}    g._paused.append(new_while(({w.ns.add(step, 'loop')}, e, {left}, 0)))",
            f"{ind}    return True"]


def emit_resume(w: Writer, step: Any, ind: str, wheres: list[Any]) -> list[str]:
    """The body of the loop's runner: going on where its frame stood (as resume_* do), its
    body inline in a Python loop. A wait inside the body leaves the body's frames, then the
    loop's frame (where it stands); a while loop's, its frame alone, at the step it stopped
    before (after the rules that step queued: DRAIN)."""
    ref = w.ns.add(step, "loop")
    k = f"k{len(wheres)}"
    op = step[0]
    tail: list[str] = []
    frame = here = ""  # the line leaving a loop's frame after its body's; a while loop's, at step {pc}
    if op == FOR:
        body = step[3]
        lines = [f"{ind}for {k} in range(k, len(items)):", f"{ind}    {w.env(step[1])} = items[{k}]"]
        frame = f"g._paused.append(new_for(({ref}, items, {k} + 1, e)))"
    elif op == WHILE:
        body, pre = step[2], list[str]()
        lines = [f"{ind}for {k} in range(k):", f"{ind}    {AT}0"]
        text = w.expr(step[1], pre, ind + "    ")
        lines += [*pre, f"{ind}    if not {text}:", f"{ind}        break",
                  f"{ind}    g.charge({len(body) or 1})"]
        here = _leave(w, f"new_while(({ref}, e, k - {k} - 1, {{pc}}))")
        tail = [f"{ind}else:", f"{ind}    {AT}0", f"{ind}    g.endless()"]
    elif op == LOOP:  # the flow's own loop: unguarded (its steps have guards of their own)
        body, pre = step[2], list[str]()
        text = w.expr(step[1], pre, ind + "    ")
        if pre:  # the test needs lines of its own before it
            lines = [f"{ind}while True:", f"{ind}    {AT}0", *pre, f"{ind}    if not {text}:", f"{ind}        break"]
        else:  # (a fault in the test is placed by the runner's first mark, before it)
            lines = [f"{ind}while {text}:"]
        here = _leave(w, f"new_while(({ref}, e, None, {{pc}}))")
    else:  # REPEAT
        body = step[2]
        lines = [f"{ind}for {k} in range(k):"]
        frame = f"g._paused.append(new_repeat(({ref}, e, k - {k} - 1)))"
    if here:
        inner = w.block(body, ["True"], ind + "    ", wheres, here=here.format)
    else:
        inner = w.block(body, [frame, "True"], ind + "    ", wheres)
    return lines + (inner or [f"{ind}    pass"]) + tail


def _leave(w: Writer, frame: str) -> str:
    """The line that leaves `frame` after the step that stopped: below a DRAIN frame (the
    rules that step queued run first), when the variant has rules to queue."""
    return f"g._paused += (DRAIN, {frame})" if w.has_rules else f"g._paused.append({frame})"
