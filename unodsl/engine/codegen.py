"""A checked variant → one generated Python module: its conditions as functions, and for
every program — its effects, its rules, and the flow of rounds and turns (flow.py) — a
runner that does what the interpreter (backends/interpreted.py) does with it, from its
first step or from any step it stopped before. The module is the compiled backend's
(backends/compiled.py), attached to the variant.

The module is written from the checked trees only (lang/emit.py says how, and why that
is safe), compiled once per variant and run with nothing but its Namespace. A runner
runs its program's steps as straight-line code, each step as its op writes it (ops/:
loops as Python loops, the hot steps' templates in place: template.py); where a
step must wait for a player it leaves
exactly the frames `perform` leaves (frames.py), so the state holds the variant's
programs and a step number, never a generated function's frame, and stays a value; the
game goes on in generated code when the answer comes. Each piece of the module names the
place in the variant file it comes from.
"""

from __future__ import annotations

import dataclasses
import linecache
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import PurePath
from types import CodeType, MappingProxyType
from typing import Any

from ..errors import Pos, RunawayRound, VariantRuntimeError
from ..lang.compile import Origin, Origins
from ..lang.emit import ExprEmitter, Namespace, literal
from ..lang.program import CHOOSE, DO, FOR, IF, LET, LOOP, REPEAT, WHILE, Fn, Program
from ..model import Face, Rule, Side, Variant
from . import flow  # noqa: F401  (its templates: see HOT)
from .actions import Decision
from .backends.base import attach
from .backends.compiled import compiled
from .frames import DRAIN, Ask, new_for, new_repeat, new_while
from .machine import ASK, PAUSED
from .ops import AT, EMIT
from .ops.base import comment as _comment
from .ops.loops import emit_rest, emit_resume
from .ops.rules import emit_fire
from .template import TEMPLATES, Render, Template, facts_of, read_field, template_of

# The templates a step put in place may call in place too (template.py's #call): the
# table's and the machine's (flow.py's steps are put in place as steps).
HOT: dict[str, Template] = {name: t for name, t in TEMPLATES.items() if not t.step}
assert {"play", "draw", "playable", "ask"} <= set(HOT)
UNSET = "E_UNSET"  # the namespace's name for "not in the variables (yet)": see Writer.env

_CODE: dict[tuple[str, str], CodeType] = {}  # compiled modules by text: a variant loaded again reuses its code


def compile_variant(variant: Variant, origins: Origins, conditions: Iterable[Fn],
                    programs: Iterable[Program]) -> Variant:
    """The same variant with generated conditions, its games run by the generated module
    (the backend "compiled", attached to it: backends/compiled.py). `conditions` and
    `programs` are those the checks compiled; `origins` gives each closure's tree. The
    flow's programs (variant.flow) compile too."""
    by_event = _rules_by_event(variant)
    gen = _Module(variant, origins, has_rules=bool(variant.rules))
    fires = {event: gen.ns.fresh("fire") for event in by_event}
    gen.render.fires = fires
    conds = {fn: gen.condition(fn) for fn in dict.fromkeys(conditions) if fn in origins}
    # Every program (those inside others too) has a runner, from its first step or from a
    # step it stopped before; every loop step, a runner that goes on where its frame stood.
    runs: dict[int, tuple[Program, str]] = {}
    for program in _every_program([*programs, *variant.flow]):
        if id(program) not in runs and program:
            runs[id(program)] = (program, gen.ns.fresh("run"))
    gen.runs = {key: name for key, (_, name) in runs.items()}
    for program, name in runs.values():
        gen.runner(program, name)
        for step in program:
            if step[0] in (FOR, WHILE, REPEAT, LOOP):
                gen.loop_name(step)
    loops = gen.loops
    gen.adopt()  # the engine's objects the templates put in place name
    for event, rules in by_event.items():
        gen.defs.append(emit_fire(event, rules, gen.ns, gen.defs, origins, fires[event]))
    source = gen.source()
    filename = f"<unodsl {variant.file}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = _CODE.get((filename, source))
    if code is None:
        if len(_CODE) >= 64:
            _CODE.clear()
        code = _CODE[(filename, source)] = compile(source, filename, "exec")
    exec(code, gen.ns.objects)  # the text our emitter wrote from the checked trees (lang/emit.py)
    made = gen.ns.objects
    marks = _step_lines(source)
    places = {made[name].__code__: (marks[name], wheres) for name, wheres in gen.wheres.items()}
    swap = {fn: made[name] for fn, name in conds.items()}
    where = dict(variant.where)
    for fn, new in swap.items():
        if fn in where:
            where[new] = where[fn]
    runners = {key: made[run] for key, (_, run) in runs.items()}
    keep = (*(p for p, _ in runs.values()), *(step for step, _ in loops.values()))  # keys stay alive
    generated = tuple(v for k, v in made.items() if k.startswith(("lam", "cond", "run", "loop_", "fire")))
    swapped: Variant = dataclasses.replace(_swap(variant, swap), where=where)
    attach(swapped, compiled(runners, {key: made[name] for key, (_, name) in loops.items()},
                             {event: made[name] for event, name in fires.items()}, source, (*generated, *keep),
                             places))
    return swapped


def _every_program(programs: Iterable[Program]) -> Iterator[Program]:
    """Each program and every program inside it (the branches of an if, a loop's body)."""
    todo = list(programs)
    while todo:
        program = todo.pop()
        yield program
        for step in program:
            op = step[0]
            if op == IF:
                todo += [step[2], step[3]]
            elif op == FOR:
                todo.append(step[3])
            elif op in (WHILE, REPEAT, LOOP):
                todo.append(step[2])


class _Module:
    """The text of one variant's module, piece by piece."""

    def __init__(self, variant: Variant, origins: Origins, has_rules: bool) -> None:
        self.variant = variant
        self.origins = origins
        self.has_rules = has_rules
        self.ns = Namespace()
        self.defs: list[str] = []  # module-level functions, in order
        self.ns.objects.update(PAUSED=PAUSED, ASK=ASK, Decision=Decision, Ask=Ask, DRAIN=DRAIN, new_for=new_for,
                               new_while=new_while, new_repeat=new_repeat, VariantRuntimeError=VariantRuntimeError,
                               RunawayRound=RunawayRound, keep=_keep)
        self.ns.objects[UNSET] = _UNSET  # (a variable not in the env: see env)
        self.loops: dict[int, tuple[Any, str]] = {}  # each loop step's runner
        self.wheres: dict[str, tuple[Any, ...]] = {}  # each runner's steps' places, by the number of its mark
        self.runs: dict[int, str] = {}  # each program's runner, by the program's id
        self.render = Render(facts_of(variant), self.env, HOT)
        self.local: frozenset[str] = frozenset()  # the variables kept as locals by the runner being written

    def env(self, name: str) -> str:
        """How the code being written reads the program's variable `name`: a local of the
        runner (see loop_runner), or the entry of `e`."""
        return f"E_{name}" if name in self.local else f"e[{literal(name)}]"

    def heard(self, event: str) -> bool:
        """A rule of the variant waits for `event`."""
        return event in self.render.fires

    def field(self, name: str) -> str:
        """How a steady or still field of the game reads here (a loop's local, in a hot loop)."""
        return self.render.field(name)

    def stores(self, ind: str, last: bool = False) -> list[str]:
        """The line that writes the runner's local variables back to `e` (before `e` is left
        in a frame or handed on, or the runner returns: `last`, where a line a variable
        costs no depth)."""
        if not self.local:
            return []
        keys = sorted(self.local)
        if last:
            return [line for k in keys
                    for line in (f"{ind}if E_{k} is not {UNSET}:", f"{ind}    e[{literal(k)}] = E_{k}")]
        return [f"{ind}keep(e, {_names(keys)}, ({''.join(f'E_{k}, ' for k in keys)}))"]

    def loads(self, ind: str) -> list[str]:
        """The lines that read the runner's local variables from `e` (when it starts, or `e`
        was handed on)."""
        return [f"{ind}E_{k} = e.get({literal(k)}, {UNSET})" for k in sorted(self.local)]

    def deep(self, lines: list[str]) -> bool:
        """`lines` go deeper than generated code may (template.DEPTH levels)."""
        return any(len(line) - len(line.lstrip()) > self.render.deepest for line in lines)

    def called(self, program: Program, ind: str) -> str:
        """The test that runs `program` by its runner (True: it paused), `e` handed on."""
        return f"{self.runs[id(program)]}(g, e)"

    def adopt(self) -> None:
        """The engine's objects named by the templates put in place join the namespace."""
        for name, obj in self.render.objects.items():
            if self.ns.objects.setdefault(name, obj) is not obj:
                raise AssertionError(f"two objects named {name} in the generated module")

    def source(self) -> str:
        # The first two lines hold no text of the variant: Python reads an encoding declaration
        # there (and _comment never writes one anywhere).
        head = ("# Generated by unodsl; do not edit.\n"
                "# Each function names the place in the variant file it was compiled from.\n"
                f"# From {_comment(self.variant.file)} ({_comment(self.variant.name)}).\n")
        return head + "\n\n" + "\n\n\n".join(self.defs) + "\n"

    def where(self, fn: Fn) -> str:
        place = self.variant.where.get(fn)
        return f"    # {_place(place[0])}: {_comment(place[1])}" if place else "    # (a default)"

    def condition(self, fn: Fn) -> str:
        origin = self.origins[fn]
        name = self.ns.fresh("cond")
        emit = ExprEmitter(self.ns, self.defs, origin)
        pre: list[str] = []
        text = emit.expr(origin.node, pre, "    ")
        self.defs.append("\n".join([f"def {name}(g, e):", self.where(fn), *pre, f"    return {text}"]))
        return name

    def runner(self, program: Program, name: str) -> None:
        """`def NAME(g, e, leave=0, start=0)`: the interpreter's perform(g, program, e, start, leave), as code."""
        wheres: list[Any] = []
        body = self.block(program, [], "    ", wheres, resume=True)
        self.wheres[name] = tuple(wheres)
        self.defs.append(_runner(f"{name}(g, e, leave=0, start=0)", program[0][-1], body,
                                 ["    if leave:", "        g._depth -= 1"]))

    def block(self, program: Program, outer: list[str], ind: str, wheres: list[Any],
              resume: bool = False, here: Callable[..., str] | None = None) -> list[str]:
        """The steps of `program`; `outer`: the pauses of the enclosing programs, to leave
        after this one's when a step inside waits (innermost first). `resume`: each step
        runs only from `start` on (a program going on after a pause). `here(pc=…)`: the
        line that leaves the frame going on from step pc (a while loop's body: its loop's
        frame), for this program's own frame."""
        ref = self.ns.add(program, "prog")
        out: list[str] = []
        for i, step in enumerate(program):
            # A wait here leaves this program's frames (at the next step), then the outer ones.
            if here is not None:
                own = here(pc=0 if i + 1 == len(program) else i + 1)
            elif outer:
                own = f"g.pause({ref}, {i + 1}, e, 0)"
            elif i + 1 == len(program) and not self.has_rules:  # (nothing is left to run: no frame
                own = f"g.pause({ref}, {i + 1}, e, leave) if leave else True"  # but a level to leave)
            else:
                own = f"g.pause({ref}, {i + 1}, e, leave)"
            chain = [own, *outer]
            at = len(wheres)
            wheres.append(step[-1])
            code = self.step(step, chain, ind + ("    " if resume else ""), wheres, at)
            out += [f"{ind}if start <= {i}:", *code] if resume else code
        return out

    def step(self, step: Any, chain: list[str], ind: str, wheres: list[Any], at: int) -> list[str]:
        """One step, as its op writes it (engine/ops/), then the rules it queued."""
        pause = [*self.stores(ind + "    "), *(f"{ind}    {c}" for c in chain[:-1]), f"{ind}    return {chain[-1]}"]
        out = [f"{ind}{AT}{at} {_heading(step)}", *EMIT[step[0]](self, step, chain, pause, ind, wheres, at)]
        # (After an if, its branch's last step has drained: a test queues nothing. A choice
        # drains before it asks, and says whether its asking may queue: emit_choose.)
        if self.has_rules and step[0] not in (IF, CHOOSE):
            out += [f"{ind}if {self.field('_queue')} and g.drain():", *pause]
        return out

    def loop_name(self, step: Any) -> str:
        """The name of the runner of a loop step (written once: see loop_runner)."""
        known = self.loops.get(id(step))
        if known is None:
            known = self.loops[id(step)] = (step, self.ns.fresh("loop"))
            self.loop_runner(step, known[1])
        return known[1]

    def loop_runner(self, step: Any, name: str) -> None:
        """`def loop_N(g, e, items, k)`: a loop step going on where its frame stood, as
        ops/loops.py's resume_for (`items`, from item `k`), resume_while and resume_repeat (`k`
        iterations left) do. The flow's own loop whose steps are all templates (the turns of
        a round) keeps the variables they use as locals, written back to `e` wherever it is
        left in a frame, and at the end."""
        wheres: list[Any] = [step[-1]]
        outer = self.local
        hot = step[0] == LOOP and _templated(step[2])
        self.local = frozenset(_variables(step[2], self.render)) if hot else frozenset()
        fields: set[str] = set()  # the steady fields its templates read: each once, before the loop
        def field(name: str) -> str:
            fields.add(name)
            return f"G_{name}"
        if hot:
            self.render.field = field
        body = emit_resume(self, step, "    ", wheres)
        self.render.field = read_field
        loads = [f"    G_{f} = {read_field(f)}" for f in sorted(fields)]
        loads += self.loads("    ")
        self.wheres[name] = tuple(wheres)
        rest = emit_rest(self, step, "    ")  # (before the locals are read: the body's runner uses `e`)
        head = f"{name}(g, e, items, k, start=0)" if rest else f"{name}(g, e, items, k)"
        self.defs.append(_runner(head, step[-1], [*rest, *loads, *body], self.stores("    ", last=True)))
        self.local = outer

    def expr(self, fn: Fn, pre: list[str], ind: str, choose: bool = False) -> str | None:
        """The text of a step's closure: from its origin, or a template's value (its lines
        into `pre`), or a call of the function itself. None: it gives nothing."""
        origin: Origin | None = self.origins.get(fn)
        if origin is not None:
            return ExprEmitter(self.ns, self.defs, origin).expr(origin.node, pre, ind, choose)
        return self.value(fn, pre, ind)[0]

    def placed(self, fn: Fn, pre: list[str], ind: str) -> tuple[Template, str, dict[str, str]] | None:
        """A template step put in place (its lines into `pre`): the template, its locals'
        prefix and names; None for another function."""
        t = template_of(fn)
        if t is None:
            return None
        lines, prefix, names = self.render.inline(t, ind)
        pre += lines
        return t, prefix, names

    def chooser(self, fn: Fn, pre: list[str], ind: str) -> tuple[str | None, tuple[str | None, str | None, str] | None]:
        """A chooser of the flow (a CHOOSE step's template): its value as text, and where it
        may answer without asking, (test, answer, decision); (None, None, decision): it
        always asks. A function that is no template is called."""
        placed = self.placed(fn, pre, ind)
        if placed is None:
            return f"{self.ns.add(fn, 'step')}(g, e)", None
        t, prefix, names = placed
        assert t.asks is not None
        made = self.render.expr(t.asks, prefix, names)
        if t.takes is None:
            return made, (None, None, made)
        test = self.render.cond(t.takes[0])
        taken = self.render.expr(t.takes[1], prefix, names)
        if test is True:
            return taken, None
        if test is False:
            return made, (None, None, made)
        return None, (self.render.expr(test, prefix, names), taken, made)

    def value(self, fn: Fn, pre: list[str], ind: str) -> tuple[str | None, str | None]:
        """expr's text, and for a template that says whether it paused, that test."""
        origin: Origin | None = self.origins.get(fn)
        if origin is not None:
            return ExprEmitter(self.ns, self.defs, origin).expr(origin.node, pre, ind), None
        placed = self.placed(fn, pre, ind)
        if placed is None:
            return f"{self.ns.add(fn, 'step')}(g, e)", None
        t, prefix, names = placed
        if t.pauses is not None:
            return None, self.render.expr(t.pauses, prefix, names)
        return (None if t.value is None else self.render.expr(t.value, prefix, names)), None

    def ask(self, var: str, ind: str, own: bool) -> list[str]:
        """`asked = g.ask(asked, var, e)`: for the flow's own choice, the template in place."""
        called = [f"{ind}asked = g.ask(asked, {var}, e)"]
        if not own:
            return called
        lines = self.render.inline(HOT["ask"], ind, {"d": "asked", "var": var, "env": "e"}, "asked")[0]
        return called if max(len(line) - len(line.lstrip()) for line in lines) > self.render.deepest else lines


def _keep(e: dict[str, Any], keys: tuple[str, ...], values: tuple[Any, ...]) -> None:
    """The runner's local variables written back to its env: those that hold a value."""
    for key, value in zip(keys, values, strict=True):
        if value is not _UNSET:
            e[key] = value


_UNSET = object()  # (the generated module's E_UNSET: a variable not in the env yet)


def _names(keys: list[str]) -> str:
    return "(" + "".join(f"{literal(k)}, " for k in keys) + ")"


def _templated(program: Program) -> bool:
    """Every step of `program` (its branches too) runs a template."""
    for step in program:
        op = step[0]
        if op == IF:
            if not (template_of(step[1]) and _templated(step[2]) and _templated(step[3])):
                return False
        elif op in (LET, CHOOSE):
            if not template_of(step[2]):
                return False
        elif op == DO:
            if not template_of(step[1]):
                return False
        else:
            return False
    return True


def _variables(program: Program, render: Render) -> set[str]:
    """The variables the steps of a templated program read or bind (in the lines the
    variant's facts leave of their templates)."""
    found: set[str] = set()
    for step in program:
        op = step[0]
        if op == IF:
            found |= _variables(step[2], render) | _variables(step[3], render)
            fn = step[1]
        elif op in (LET, CHOOSE):
            found.add(step[1])
            fn = step[2]
        else:
            fn = step[1]
        t = template_of(fn)
        assert t is not None
        body = " ".join(text for _, text in render.decided(t.body))
        found |= set(re.findall(r"@(\w+)", " ".join(x or "" for x in (body, t.value, t.pauses, t.asks,
                                                                        *(t.takes or ())))))
    return found


def _runner(signature: str, where: Any, body: list[str], after: list[str]) -> str:
    """A runner's `def`: headed by the place it was compiled from, then its steps, `after`
    them, and False: it did not pause. A fault in it is placed by the step it was running
    (compiled.place reads the marks: see _step_lines)."""
    return "\n".join([f"def {signature}:",
                      f"    # {_place(where[0])}: {_comment(where[1])}" if _placed(where) else "    # (the flow)",
                      f"    {AT}0",
                      *body,
                      *after,
                      "    return False"])




def _step_lines(source: str) -> dict[str, tuple[tuple[int, int], ...]]:
    """For each function of the module, by name: (line, step) at each step's mark."""
    tables: dict[str, list[tuple[int, int]]] = {}
    current: list[tuple[int, int]] | None = None
    for number, line in enumerate(source.splitlines(), 1):
        if line.startswith("def "):
            current = tables.setdefault(line[4:line.index("(")], [])
        elif current is not None:
            stripped = line.lstrip()
            if stripped.startswith(AT):
                current.append((number, int(stripped[len(AT):].split(" ", 1)[0])))
    return {name: tuple(marks) for name, marks in tables.items()}


def _rules_by_event(variant: Variant) -> dict[str, tuple[Rule, ...]]:
    subs: dict[str, tuple[Rule, ...]] = {}
    for rule in variant.rules:
        subs[rule.event] = (*subs.get(rule.event, ()), rule)
    return subs


def _heading(step: Any) -> str:
    """What a step's block is headed by: the place in the variant file it was compiled from
    and its text, or for a step of the flow (flow.py), the function it runs."""
    where = step[-1]
    if _placed(where):  # (the file by name: the function's own heading names it in full)
        pos = where[0]
        return _comment(f"{PurePath(pos.file).name}:{pos.line}:{pos.col}: {where[1]}")
    op = step[0]
    fn = step[2] if op in (LET, CHOOSE, FOR) else step[1]
    return f"(the flow: {_comment(getattr(fn, '__name__', 'a step'))})"


def _placed(where: Any) -> bool:
    return isinstance(where, tuple) and len(where) == 2 and isinstance(where[0], Pos)


def _place(pos: Pos) -> str:
    return _comment(f"{pos.file}:{pos.line}:{pos.col}")




def _swap(obj: Any, swap: Mapping[Any, Any]) -> Any:
    """`obj` with every function in `swap` replaced, rebuilding only what holds one
    (dataclasses, tuples, lists, dicts); everything else is kept as it is."""
    if isinstance(obj, (str, int, Face, Side)) or obj is None:  # nothing to swap inside
        return obj
    if callable(obj) and not isinstance(obj, type):
        try:
            return swap.get(obj, obj)
        except TypeError:  # unhashable
            return obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {}
        for f in dataclasses.fields(obj):
            if f.name in ("where", "flow"):
                continue
            old = getattr(obj, f.name)
            new = _swap(old, swap)
            if new is not old:
                changes[f.name] = new
        return dataclasses.replace(obj, **changes) if changes else obj
    if isinstance(obj, (tuple, list)):
        items = [_swap(x, swap) for x in obj]
        if all(a is b for a, b in zip(items, obj, strict=True)):
            return obj
        return type(obj)(items) if isinstance(obj, list) or type(obj) is tuple else type(obj)(*items)
    if isinstance(obj, Mapping):
        values = {k: _swap(v, swap) for k, v in obj.items()}
        if all(values[k] is v for k, v in obj.items()):
            return obj
        return values if isinstance(obj, dict) else MappingProxyType(values)
    return obj
