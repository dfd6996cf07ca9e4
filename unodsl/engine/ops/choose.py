"""CHOOSE: a question put to a player (or answered at once), its answer bound to a variable.

The rules queued before the question run first; a question with one option, or asked of
an agent inside the engine's loop, is answered at once (machine.ask); otherwise the game
stops there, and the answer is bound when it comes.
"""

from __future__ import annotations

from typing import Any

from ...lang.emit import literal
from ..actions import Decision
from ..frames import Ask
from ..machine import ASK
from .base import Writer

Env = dict[str, Any]


def run_choose(g: Any, step: Any, env: Env) -> bool:
    """`name = choice`: True if the game must stop for the answer (or for a rule queued
    before the question that paused: the question is then put off, in an Ask frame)."""
    asked = step[2](g, env)
    if type(asked) is Decision:
        if g._queue and g.drain():  # the rules queued so far run first
            g._paused.append(Ask(step[1], asked, env))
            return True
        asked = g.ask(asked, step[1], env)
        if asked is ASK:
            return True
    env[step[1]] = asked
    return False


def emit_choose(w: Writer, step: Any, chain: list[str], pause: list[str], ind: str, wheres: list[Any],
                at: int) -> list[str]:
    var = literal(step[1])
    pre: list[str] = []
    own = step[2] not in w.origins  # the flow's own choice: its template, and g.ask, in place
    text, split = w.chooser(step[2], pre, ind) if own else (w.expr(step[2], pre, ind, choose=True), None)
    inner = ind + "    "  # the lines that ask (under the test that it is a decision)
    if split is None:
        lines = [*pre, f"{ind}asked = {text}", f"{ind}if type(asked) is Decision:"]
    elif split[0] is None:  # the decision alone: the variant's facts left no answer to take
        lines, inner = [*pre, f"{ind}asked = {split[2]}"], ind
    else:  # the answer taken without asking when the test holds, else the decision
        test, taken, made = split
        lines = [*pre, f"{ind}if {test}:", f"{ind}    asked = {taken}", f"{ind}else:", f"{ind}    asked = {made}"]
    more = "" if inner == ind else "    "  # (pause is written for the lines under the test)
    if w.has_rules:
        lines += [f"{inner}if {w.field('_queue')} and g.drain():",
                  f"{inner}    g._paused.append(Ask({var}, asked, e))",
                  *(more + line for line in pause)]
    lines += w.ask(var, inner, own)
    lines += [f"{inner}if asked is ASK:", *(more + line for line in pause), f"{ind}{w.env(step[1])} = asked"]
    # The rules queued since the drain before the question: by the asking (a rule hears
    # `choice`), or by a chooser that answered without asking (no drain before).
    if w.has_rules and (inner != ind or w.heard("choice")):
        lines += [f"{ind}if {w.field('_queue')} and g.drain():", *pause]
    return lines
