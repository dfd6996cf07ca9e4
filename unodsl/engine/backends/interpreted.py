"""The interpreter: a variant's programs run step by step over their closures, each step
as its op runs it (engine/ops/). The reference backend, which the generated code
(compiled.py) is checked against.

`perform` runs a program from a step to its end, or until a player must be asked: then
every level the stop returns through leaves the frame that goes on from where it stood
(machine.pause), and the stack machine (engine/machine.py) resumes them with the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import RunawayRound, VariantRuntimeError
from ...lang.program import Program
from ...model import Rule, Variant
from ..ops import RUN
from ..ops.loops import resume_for, resume_repeat, resume_while
from ..ops.rules import run_fire
from .base import Backend

Env = dict[str, Any]


def interpreter(variant: Variant) -> Backend:
    """The interpreter's backend for `variant`: its rules fired by ops/rules.py's run_fire, event by event."""
    return Backend("closures", perform, resume_for, resume_while, resume_repeat, rule_fires(variant))


def perform(g: Any, program: Program, env: Env, start: int = 0, leave: int = 0) -> bool:
    """Run `program` from step `start` to its end (False), or until a player must be
    asked (True: the frames that finish it are in the pause). Each step runs as its op
    says (engine/ops/); the rules it queued run after it. `leave`: finishing ends a level
    of nesting (see machine.run)."""
    i = start - 1
    step: Any = None
    try:  # free unless something fails: then the failing step is known
        for step in program[start:] if start else program:
            i += 1  # this step's index (cheaper than range and indexing)
            if RUN[step[0]](g, step, env) or (g._queue and g.drain()):
                return g.pause(program, i + 1, env, leave)  # type: ignore[no-any-return]
    except (VariantRuntimeError, RecursionError, RunawayRound):
        raise
    except Exception as err:
        raise g.fault(err, step[-1] if step else None) from err
    if leave:
        g._depth -= 1
    return False


def rule_fires(variant: Variant) -> dict[str, Callable[[Any, dict[str, Any]], None]]:
    """For each event some rule waits for, what telling it does: run_fire over its rules."""
    by_event: dict[str, tuple[Rule, ...]] = {}
    for rule in variant.rules:
        by_event[rule.event] = (*by_event.get(rule.event, ()), rule)
    return {event: _firing(event, rules) for event, rules in by_event.items()}


def _firing(event: str, rules: tuple[Rule, ...]) -> Callable[[Any, dict[str, Any]], None]:
    def fire_these(g: Any, data: dict[str, Any]) -> None:
        run_fire(g, event, rules, data)
    return fire_these
