"""The generated code as a backend: each program runs as its runner in the module
engine/codegen.py wrote for the variant, from its first step or any step it stopped
before, and each loop step paused in a frame goes on in its loop runner. What has no
runner (an empty program) is interpreted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import CodeType
from typing import Any

from ...lang.program import Program, Step
from ..ops import loops as loop_ops
from . import interpreted
from .base import Backend

Env = dict[str, Any]


Places = Mapping[CodeType, tuple[tuple[tuple[int, int], ...], tuple[Any, ...]]]


def compiled(runners: Mapping[int, Callable[..., bool]], loops: Mapping[int, Callable[..., bool]],
             fires: Mapping[str, Callable[[Any, dict[str, Any]], None]], source: str,
             generated: tuple[Any, ...], places: Places) -> Backend:
    """The backend over a generated module: its `runners` by program id, `loops` by step
    id, `fires` by event; `places`: for each runner's code, the line of each step's mark
    (line, step) and the steps' places in the variant file."""
    runner_of, loop_of = runners.get, loops.get

    def perform(g: Any, program: Program, env: Env, start: int = 0, leave: int = 0) -> bool:
        runner = runner_of(id(program))
        if runner is None:
            return interpreted.perform(g, program, env, start, leave)
        return runner(g, env, leave, start)

    def resume_for(g: Any, step: Step, items: tuple[Any, ...], k: int, env: Env) -> bool:
        loop = loop_of(id(step))
        return loop_ops.resume_for(g, step, items, k, env) if loop is None else loop(g, env, items, k)

    def resume_while(g: Any, step: Step, env: Env, left: int | None, pc: int = 0) -> bool:
        loop = loop_of(id(step))
        return loop_ops.resume_while(g, step, env, left, pc) if loop is None else loop(g, env, None, left, pc)

    def resume_repeat(g: Any, step: Step, env: Env, left: int) -> bool:
        loop = loop_of(id(step))
        return loop_ops.resume_repeat(g, step, env, left) if loop is None else loop(g, env, None, left)

    def place(err: BaseException) -> Any:
        """Where in the variant file `err` came from: the step the innermost runner it passed
        through was running (the last mark before the line it was at), or None."""
        found = None
        tb = err.__traceback__
        while tb is not None:
            known = places.get(tb.tb_frame.f_code)
            if known is not None:
                marks, wheres = known
                at = 0
                for line, step in marks:
                    if line > tb.tb_lineno:
                        break
                    at = step
                found = wheres[at]
            tb = tb.tb_next
        return found

    return Backend("compiled", perform, resume_for, resume_while, resume_repeat, fires, runners,
                   source=source, generated=generated, place=place)
