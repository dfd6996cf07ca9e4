"""The generated code as a backend: each program runs as its runner in the module
engine/codegen.py wrote for the variant, from its first step or any step it stopped
before, and each loop step paused in a frame goes on in its loop runner. What has no
runner (an empty program) is interpreted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...lang.program import Program, Step
from ..ops import loops as loop_ops
from . import interpreted
from .base import Backend

Env = dict[str, Any]


def compiled(runners: Mapping[int, Callable[..., bool]], loops: Mapping[int, Callable[..., bool]],
             fires: Mapping[str, Callable[[Any, dict[str, Any]], None]], source: str,
             generated: tuple[Any, ...]) -> Backend:
    """The backend over a generated module: its `runners` by program id, `loops` by step
    id, `fires` by event."""
    runner_of, loop_of = runners.get, loops.get

    def perform(g: Any, program: Program, env: Env, start: int = 0, leave: int = 0) -> bool:
        runner = runner_of(id(program))
        if runner is None:
            return interpreted.perform(g, program, env, start, leave)
        return runner(g, env, leave, start)

    def resume_for(g: Any, step: Step, items: tuple[Any, ...], k: int, env: Env) -> bool:
        loop = loop_of(id(step))
        return loop_ops.resume_for(g, step, items, k, env) if loop is None else loop(g, env, items, k)

    def resume_while(g: Any, step: Step, env: Env, left: int | None) -> bool:
        loop = loop_of(id(step))
        return loop_ops.resume_while(g, step, env, left) if loop is None else loop(g, env, None, left)

    def resume_repeat(g: Any, step: Step, env: Env, left: int) -> bool:
        loop = loop_of(id(step))
        return loop_ops.resume_repeat(g, step, env, left) if loop is None else loop(g, env, None, left)

    return Backend("compiled", perform, resume_for, resume_while, resume_repeat, fires, runners,
                   source=source, generated=generated)
