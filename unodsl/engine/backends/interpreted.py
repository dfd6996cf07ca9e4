"""The interpreter: a variant's programs run step by step over their closures. The
reference backend, which the generated code (compiled.py) is checked against.

`perform` runs a program from a step to its end, or until a player must be asked: then
every level the stop returns through leaves the frame that goes on from where it stood
(Machine.pause), and the stack machine (engine/machine.py) resumes them with the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import RunawayRound, VariantRuntimeError
from ...lang.program import CHOOSE, DO, FOR, IF, LET, LOOP, WHILE, Program, Step
from ...model import Rule, Variant
from ..actions import Decision
from ..frames import Ask, For, Repeat, While
from ..machine import ASK, PAUSED, WHILE_GUARD
from .base import Backend

Env = dict[str, Any]


def interpreter(variant: Variant) -> Backend:
    """The interpreter's backend for `variant`: its rules fired by `fire`, event by event."""
    return Backend("closures", perform, resume_for, resume_while, resume_repeat, rule_fires(variant))


def perform(g: Any, program: Program, env: Env, start: int = 0, leave: int = 0) -> bool:
    """Run `program` from step `start` to its end (False), or until a player must be
    asked (True: the frames that finish it are in the pause). Rules queued by a step run
    after it. `leave`: finishing ends a level of nesting (see Machine.run)."""
    i = start - 1
    step: Any = None
    try:  # free unless something fails: then the failing step is known
        for step in program[start:] if start else program:
            i += 1  # this step's index (cheaper than range and indexing)
            op = step[0]
            if op == DO:
                if step[1](g, env) is PAUSED:  # an effect that runs a program (play, apply)
                    return g.pause(program, i + 1, env, leave)  # type: ignore[no-any-return]
            elif op == LET:
                env[step[1]] = step[2](g, env)
            elif op == CHOOSE:
                asked = step[2](g, env)
                if type(asked) is Decision:
                    if g._queue and g.drain():  # the rules queued so far run first
                        g._paused.append(Ask(step[1], asked, env))
                        return g.pause(program, i + 1, env, leave)  # type: ignore[no-any-return]
                    asked = g.ask(asked, step[1], env)
                    if asked is ASK:
                        return g.pause(program, i + 1, env, leave)  # type: ignore[no-any-return]
                env[step[1]] = asked
            elif op == IF:
                body = step[2] if step[1](g, env) else step[3]
                if body and perform(g, body, env):
                    return g.pause(program, i + 1, env, leave)  # type: ignore[no-any-return]
            elif loop(g, step, env):
                return g.pause(program, i + 1, env, leave)  # type: ignore[no-any-return]
            if g._queue and g.drain():
                return g.pause(program, i + 1, env, leave)  # type: ignore[no-any-return]
    except (VariantRuntimeError, RecursionError, RunawayRound):
        raise
    except Exception as err:
        raise g.fault(err, step[-1] if step else None) from err
    if leave:
        g._depth -= 1
    return False


def loop(g: Any, step: Step, env: Env) -> bool:
    """A FOR, WHILE, REPEAT or LOOP step; True if an iteration paused (its loop frame
    is then in the pause). User loops are charged to the turn's work budget."""
    op = step[0]
    if op == FOR:
        return resume_for(g, step, g.for_items(step[2](g, env), len(step[3]) or 1), 0, env)
    if op == WHILE:
        return resume_while(g, step, env, WHILE_GUARD)
    if op == LOOP:
        return resume_while(g, step, env, None)
    return resume_repeat(g, step, env, g.repeats(step[1](g, env), len(step[2]) or 1))  # REPEAT


def resume_for(g: Any, step: Step, items: tuple[Any, ...], k: int, env: Env) -> bool:
    """A for loop from item `k` of `items`."""
    var, body = step[1], step[3]
    for j in range(k, len(items)):
        env[var] = items[j]
        if perform(g, body, env):
            g._paused.append(For(step, items, j + 1, env))
            return True
    return False


def resume_while(g: Any, step: Step, env: Env, left: int | None) -> bool:
    """A while loop with at most `left` more iterations; `left` None: the flow's own loop
    (rounds, turns), unguarded and uncharged: its steps have guards of their own."""
    cond, body = step[1], step[2]
    if left is None:
        while cond(g, env):
            if perform(g, body, env):
                g._paused.append(While(step, env, None))
                return True
        return False
    work = len(body) or 1
    for k in range(left):
        if not cond(g, env):
            return False
        g.charge(work)
        if perform(g, body, env):
            g._paused.append(While(step, env, left - k - 1))
            return True
    g.endless()
    return False  # (never: endless raises)


def resume_repeat(g: Any, step: Step, env: Env, left: int) -> bool:
    """A repeat loop with `left` iterations to go."""
    for k in range(left):
        if perform(g, step[2], env):
            g._paused.append(Repeat(step, env, left - k - 1))
            return True
    return False


def rule_fires(variant: Variant) -> dict[str, Callable[[Any, dict[str, Any]], None]]:
    """For each event some rule waits for, what telling it does: `fire` over its rules."""
    by_event: dict[str, tuple[Rule, ...]] = {}
    for rule in variant.rules:
        by_event[rule.event] = (*by_event.get(rule.event, ()), rule)
    return {event: _firing(event, rules) for event, rules in by_event.items()}


def _firing(event: str, rules: tuple[Rule, ...]) -> Callable[[Any, dict[str, Any]], None]:
    def fire_these(g: Any, data: dict[str, Any]) -> None:
        fire(g, event, rules, data)
    return fire_these


def fire(g: Any, event: str, rules: tuple[Rule, ...], data: dict[str, Any]) -> None:
    """`event` was told with `data`: each of its rules whose condition holds is queued
    with its own copy of the fields (rule_fired told, when asked for)."""
    for rule in rules:
        env = dict(data)
        try:
            if rule.cond is None or rule.cond(g, env):
                if g._tell_rules:
                    g.emit("rule_fired", {"player": data["player"], "rule": rule.name, "event": event})
                g._queue.append((rule.body, env))
        except VariantRuntimeError:
            raise
        except Exception as err:
            raise g.fault(err, rule.cond) from err
