"""Rules: an event told queues each rule that waits for it and whose condition holds, with
its own copy of the event's fields (rule_fired told, when asked for); the queue runs after
the step that told it (machine.drain). How the interpreter fires them (run_fire) beside how
the generated module writes it (emit_fire: one function per event, its rules unrolled, each
condition in place and read from the fields, copied only when the condition binds a
variable).
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import VariantRuntimeError
from ...lang.compile import Origins
from ...lang.emit import ExprEmitter, Namespace, literal
from ...model import Rule
from .base import comment


def run_fire(g: Any, event: str, rules: tuple[Rule, ...], data: dict[str, Any]) -> None:
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


def emit_fire(event: str, rules: tuple[Rule, ...], ns: Namespace, defs: list[str],
         origins: Origins, name: str) -> str:
    """`def NAME(g, data)`: what run_fire does with `event`'s rules, rule by rule: its
    condition inline, read from the event's fields (copied first if a lambda in it may
    bind a variable), and its body queued with its own copy of the fields."""
    conds = ns.add(tuple(rule.cond for rule in rules), "conds")
    lines = [f"def {name}(g, data):",
             f"    # The rules on {event}: the interpreter's run_fire over them, unrolled.",
             "    queue = g._queue",
             "    at = 0",
             "    try:"]
    for k, rule in enumerate(rules):
        body = ns.add(rule.body, "body")
        lines += [f"        # rule {comment(repr(rule.name))}", f"        at = {k}"]
        origin = origins.get(rule.cond) if rule.cond is not None else None
        pre: list[str] = []
        copy = False  # the condition binds a variable in its env: give it a copy of the fields
        if rule.cond is None:
            test = ""
        elif origin is None:
            test, copy = f"{ns.add(rule.cond, 'cond')}(g, e)", True
        else:
            emit = ExprEmitter(ns, defs, origin)
            test = emit.expr(origin.node, pre, "        ")
            copy = emit.writes_env
        reads = copy or _READS_ENV.search("\n".join([*pre, test])) is not None  # (else `e` is not needed)
        if reads:
            lines.append("        e = dict(data)" if copy else "        e = data")
        ind = "            "
        if rule.cond is None:  # (queued whenever the event is told)
            ind = "        "
        else:
            lines += [*pre, f"        if {test}:"]
        lines += [f"{ind}if g._tell_rules:",
                  f"{ind}    g.emit('rule_fired', {{'player': data['player'], 'rule': {literal(rule.name)}, "
                  f"'event': {literal(event)}}})",
                  f"{ind}queue.append(({body}, {'e' if copy else 'dict(data)'}))"]
    lines += ["    except VariantRuntimeError:", "        raise", "    except Exception as err:",
              f"        raise g.fault(err, {conds}[at]) from err"]
    return "\n".join(lines)


_READS_ENV = re.compile(r"\be\b")  # the variables' name in emitted text (lang/emit.py)
