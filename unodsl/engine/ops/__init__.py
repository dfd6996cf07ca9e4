"""The steps of the IR (lang/program.py), one module per family: how each runs and how
it is written as code, side by side.

    simple.py    DO (an effect) and LET (a variable bound)
    choose.py    CHOOSE: a decision put to a player, its answer bound
    branch.py    IF: one of two sub-programs
    loops.py     FOR, WHILE, REPEAT and LOOP (the flow's own loop, unguarded)
    rules.py     an event's rules queued (run_fire, emit_fire): not a step, but the same pair

Each step has `run(g, step, env) -> paused` (what the interpreter does with it:
backends/interpreted.py) and `emit(w, step, chain, pause, ind, wheres, at) -> lines` (the
code the generator writes for it: engine/codegen.py). A step that must wait for a player
returns True from run, and its emitted code runs `pause` (the frames that go on after it).
RUN and EMIT are the tables by opcode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...lang.program import CHOOSE, DO, FOR, IF, LET, LOOP, REPEAT, WHILE
from .base import AT, Writer
from .branch import emit_if, run_if
from .choose import emit_choose, run_choose
from .loops import emit_loop, run_for, run_loop, run_repeat, run_while
from .simple import emit_do, emit_let, run_do, run_let

__all__ = ["AT", "EMIT", "RUN", "Writer"]

Run = Callable[[Any, Any, dict[str, Any]], Any]
Emit = Callable[..., list[str]]

# By opcode (DO, LET, CHOOSE, IF, FOR, WHILE, REPEAT, LOOP are 0 to 7).
RUN: tuple[Run, ...] = (run_do, run_let, run_choose, run_if, run_for, run_while, run_repeat, run_loop)
EMIT: tuple[Emit, ...] = (emit_do, emit_let, emit_choose, emit_if, emit_loop, emit_loop, emit_loop, emit_loop)
assert tuple(range(8)) == (DO, LET, CHOOSE, IF, FOR, WHILE, REPEAT, LOOP)
