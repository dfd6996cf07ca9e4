"""The expressions of one variant file: parse, check and compile each, reporting problems
as positioned diagnostics instead of stopping at the first.

Each checked tree is kept (with its nodes' static types) for the lints that look
at the whole file after the model is built.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..engine.primitives import REGISTRY
from ..errors import Diagnostic, Pos
from ..lang import ast
from ..lang.check import CheckError, CheckErrors, check
from ..lang.compile import Origins, compile_expr, compile_program
from ..lang.context import Context
from ..lang.functions import Function, copy, cycles, order
from ..lang.parse import LangSyntaxError, TooDeep, parse
from ..lang.program import CHOOSE, DO, FOR, IF, LET, LOOP, REPEAT, WHILE, Fn, Program
from ..lang.show import show
from ..lang.signature import TYPE_WORDS, fits
from ..lang.static import OPTION
from ..lang.walk import deepest_loop, depth, start
from .source import Key, Source

# The items of each kind of step that are programs themselves.
_SUBPROGRAMS = {DO: (), LET: (), CHOOSE: (), IF: (2, 3), FOR: (3,), WHILE: (2,), REPEAT: (2,), LOOP: (2,)}

MAX_NESTING = 48  # brackets in an expression, and depth of its syntax tree
# Parts (syntax nodes) of a function's body with the functions it calls put in place: a chain
# of functions each using its parameter twice doubles at each step, so it is bounded.
MAX_FUNCTION = 2_000
# Loops inside loops: a program is compiled to Python (engine/codegen.py), whose loops and
# try blocks may nest at most 20 deep (CPython's static limit); deeper programs would pass
# this check and fail to compile, so the language stops well below it.
MAX_LOOPS = 10
# The words and symbols of a file's expressions, in all: parsing is linear but not fast
# (some 15,000 a second on a loaded 2-core machine; a 1 MB file of rules holds about
# 180,000), so a file past the limit is refused at the expression that crosses it, before
# that one is parsed: a file accepted validates in under 10 s. No variant comes near it (the
# largest shipped one has about 1,500).
MAX_TOKENS = 80_000
_TOKENS = re.compile(r'"[^"]*"?|[A-Za-z_0-9]+|[^\sA-Za-z_0-9]')


@lru_cache(maxsize=4096)
def parse_once(text: str) -> ast.Node:
    """parse(), remembered: a text repeated by aliases, options or overlays is parsed once.

    Trees are immutable, so sharing one between places is safe."""
    return parse(text)


@dataclass
class Expressions:
    """Parses, checks and compiles the expressions of one merged variant file."""

    src: Source
    kinds: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    options: Mapping[str, bool | int] = field(default_factory=dict)  # option.NAME → its chosen value
    sides: int = 1  # sides of the deck (flip() needs two)
    domains: Mapping[str, tuple[str, tuple[Any, ...]]] = field(default_factory=dict)  # see Context.domains
    kind_fields: dict[str, frozenset[str]] = field(default_factory=dict)  # see Context.kind_fields
    diags: list[Diagnostic] = field(default_factory=list)
    trees: dict[Key, ast.Node] = field(default_factory=dict)  # each checked expression
    types: dict[Key, dict[int, str]] = field(default_factory=dict)  # … and its nodes' static types
    where: dict[Fn, tuple[Pos, str]] = field(default_factory=dict)  # each condition's place and text
    origins: Origins = field(default_factory=dict)  # each closure's tree, for the code generator
    conditions: list[Fn] = field(default_factory=list)  # every condition compiled …
    programs: list[Program] = field(default_factory=list)  # … and every program
    tokens: int = 0  # words and symbols of the expressions parsed so far (MAX_TOKENS)
    functions: dict[str, Function | None] = field(default_factory=dict)  # `define:` (None: in error)
    zones: dict[str, bool] = field(default_factory=dict)  # the zones of `zones:` → one per player?

    def error(self, key: Key, message: str, hint: str | None = None, *, on_key: bool = False) -> None:
        pos = self.src.key_pos(key) if on_key else self.src.pos(key)
        self.diags.append(Diagnostic(pos, message, hint))

    def warn(self, key: Key, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(self.src.key_pos(key), message, hint, "warning"))

    def at(self, key: Key, line: int, col: int) -> Pos:
        """The file position of (line, col) inside the expression text at `key`."""
        span = self.src.spans.get(key)
        value = self.get(key)
        return span.locate(line, col, value if isinstance(value, str) else None) if span else self.src.pos(key)

    def get(self, key: Key) -> Any:
        """The raw value at `key` in the merged file, or None."""
        value: Any = self.src.data
        for part in key:
            if isinstance(value, dict) and isinstance(part, str):
                value = value.get(part)
            elif isinstance(value, list) and isinstance(part, int) and part < len(value):
                value = value[part]
            else:
                return None
        return value

    def program(self, key: Key, env: Mapping[str, str], known: frozenset[str] = frozenset(),
                fields: Mapping[str, tuple[str, tuple[Any, ...]]] | None = None) -> Program:
        """The effect program at `key` (empty if absent or wrong); `known`: expressions never none there;
        `fields`: the values some of `env`'s names can take (see Context.domains)."""
        text = self.get(key)
        if not isinstance(text, str):
            return ()
        node = self.parse(key, text)
        ctx = self._context(env, effects=True, known=known, fields=fields)
        if node is None or self._check(key, node, ctx, program=True) is None:
            return ()
        program = self.place(key, compile_program(node, ctx, self.origins))
        self.programs.append(program)
        return program

    def place(self, key: Key, program: Program) -> Program:
        """The program with each step's `where` (line, col, text inside the expression)
        turned into (file position, text), for runtime errors."""
        placed = []
        for step in program:
            line, col, text = step[-1]
            parts = [self.place(key, part) if i in _SUBPROGRAMS[step[0]] else part
                     for i, part in enumerate(step[:-1])]
            placed.append((*parts, (self.at(key, line, col), text)))
        return tuple(placed)

    def condition(self, key: Key, env: Mapping[str, str], *, effects: bool = False,
                  default: str | None = None, want: tuple[str, ...] = ("bool",),
                  known: frozenset[str] = frozenset(),
                  fields: Mapping[str, tuple[str, tuple[Any, ...]]] | None = None) -> Fn | None:
        """Compile the expression at `key` (or `default` if absent); its type must fit one of `want`."""
        text = self.get(key)
        if not isinstance(text, str):
            if default is None:
                return None
            text, key = default, ()
        node = self.parse(key, text) if key else parse_once(text)
        ctx = self._context(env, effects=effects, known=known, fields=fields)
        t = None if node is None else self._check(key, node, ctx, program=False)
        if node is None or t is None:
            return None
        if not any(fits(t, w) for w in want):
            where = ".".join(str(k) for k in key)
            hint: str | None = "compare it, e.g. count(hand) > 0 or card.rank == 7"
            what = f"{where} is a condition"
            if want != ("bool",):
                what, hint = f"{where} should give {TYPE_WORDS[want[0]]}", _EXAMPLES.get(want[0])
            self.error(key, f"{what}, but {show(node)} is {TYPE_WORDS.get(t, t)}", hint)
            return None
        fn = compile_expr(node, ctx, self.origins)
        self.conditions.append(fn)
        if key:
            self.where[fn] = (self.at(key, *start(node)), show(node))
        return fn

    def define(self, raw: Mapping[str, Any]) -> None:
        """Check the functions of `define:`, each after the ones it calls, for the calls in
        every expression checked after (lang/functions.py)."""
        bodies: dict[str, ast.Node] = {}
        for name, spec in raw.items():
            key = ("define", name)
            if name in REGISTRY.primitives or name in REGISTRY.names or name == OPTION:
                self.error(key, f"define: {name!r} is a name of the language", "give your function another name",
                           on_key=True)
                continue
            self.functions[name] = None  # until checked
            params = spec.get("params") or {}
            for p in params:
                if p in REGISTRY.names or p in (OPTION, name):
                    self.error((*key, "params", p), f"define: {name}'s parameter {p!r} is a name of the language"
                               if p != name else f"define: {name}'s parameter has the function's own name",
                               "give the parameter another name", on_key=True)
            for word in re.findall(r"{([^{}]*)}", spec.get("says") or ""):
                if word not in params:
                    self.error((*key, "says"), f"define: {name}'s words name {{{word}}}, which is not a parameter",
                               f"its parameters: {', '.join(params) or 'none'}")
            node = self.parse((*key, "is"), spec["is"])
            if node is not None:
                bodies[name] = node
        circles = cycles(bodies)
        for name, (call, path) in circles.items():
            through = f" through {', '.join(f'{n}()' for n in path[1:-1])}" if len(path) > 2 else ""
            self.diags.append(Diagnostic(self.at(("define", name, "is"), *call.at),
                                         f"{name}() calls itself{through}: a function can't be recursive",
                                         "say it without the call: a loop over a list (any, count, filter) "
                                         "or a `while` in an effect"))
        for name in order({n: b for n, b in bodies.items() if n not in circles}):
            spec, where = raw[name], ("define", name, "is")
            params = tuple((p, t) for p, t in (spec.get("params") or {}).items())
            ctx = self._context(dict(params), effects=False)
            if any(p in REGISTRY.names or p in (OPTION, name) for p, _ in params) or \
                    self._check(where, bodies[name], ctx, program=False) is None:
                continue
            types: dict[int, str] = {}
            flat = copy(bodies[name], {}, ctx.types, types, ctx.expansions, frozenset())
            if depth(flat) > MAX_NESTING or len(types) > MAX_FUNCTION:
                self.diags.append(Diagnostic(self.at(where, 1, 1), f"{name}() is too big with the functions it calls "
                                             f"put in place ({len(types):,} parts, {depth(flat)} deep; at most "
                                             f"{MAX_FUNCTION:,} and {MAX_NESTING})",
                                             "call fewer functions from it, or split it in two"))
                continue
            self.functions[name] = Function(name, params, bodies[name], flat, types, ctx.types[id(bodies[name])],
                                            ctx.nullable, spec.get("says"))

    def parse(self, key: Key, text: str) -> ast.Node | None:
        """The syntax tree of the text at `key`, or None after reporting why not."""
        if self.tokens > MAX_TOKENS:  # reported once, where it was crossed
            return None
        self.tokens += len(_TOKENS.findall(text))
        if self.tokens > MAX_TOKENS:
            self.diags.append(Diagnostic(self.at(key, 1, 1), f"the file's expressions hold more than "
                                         f"{MAX_TOKENS:,} words and symbols in all (here: {self.tokens:,}); "
                                         "the rest are not checked",
                                         "a variant's expressions are short: use variables, rules and "
                                         "apply(card) instead of long repeated text"))
            return None
        deep = too_deep(text)
        if deep is not None:
            self.diags.append(Diagnostic(self.at(key, *deep), f"brackets are nested more than {MAX_NESTING} "
                                         "levels deep", "split the expression using variables (x = …; …)"))
            return None
        try:
            node: ast.Node | None = parse_once(text)
        except TooDeep:  # reported below, at the start like any expression nested too deep
            node = None
        except LangSyntaxError as err:
            self.diags.append(Diagnostic(self.at(key, err.line, err.col), f"syntax error: {err.message}",
                                         err.hint))
            return None
        except RecursionError:
            node = None
        if node is None or depth(node) > MAX_NESTING:
            self.diags.append(Diagnostic(self.at(key, 1, 1), f"the expression nests more than {MAX_NESTING} "
                                         "levels deep", "split it using variables (x = …; …)"))
            return None
        loops, loop = deepest_loop(node)
        if loops > MAX_LOOPS and loop is not None:
            self.diags.append(Diagnostic(self.at(key, *loop.at), f"loops are nested more than {MAX_LOOPS} deep "
                                         f"(this one is inside {loops - 1})",
                                         "move the inner loops into a card's on_play and apply(...) it, or "
                                         "combine loops (repeat a * b do …)"))
            return None
        return node

    def _check(self, key: Key, node: ast.Node, ctx: Context, program: bool) -> str | None:
        """The static type of a checked expression, or None after reporting its error."""
        try:
            t = check(node, ctx, program=program)
        except CheckError as err:
            for e in err.errors if isinstance(err, CheckErrors) else [err]:
                self.diags.append(Diagnostic(self.at(key, *e.at), e.message, e.hint))
            return None
        finally:
            for at, message, hint in ctx.warnings:
                self.diags.append(Diagnostic(self.at(key, *at), message, hint, "warning"))
        self.trees[key] = node
        self.types[key] = ctx.types
        return t

    def _context(self, env: Mapping[str, str], effects: bool, known: frozenset[str] = frozenset(),
                 fields: Mapping[str, tuple[str, tuple[Any, ...]]] | None = None) -> Context:
        return Context(REGISTRY, env, self.kinds, self.colors, effects, options=self.options, sides=self.sides,
                       known=known, domains={**self.domains, **(fields or {})},
                       kind_fields=self.kind_fields, functions=self.functions, zones=self.zones)


_EXAMPLES = {"player": "for example left_of(dealer)", "int": "for example -count(hand), or player.score"}


def too_deep(text: str) -> tuple[int, int] | None:
    """(line, col) of the first bracket nested deeper than MAX_NESTING, outside strings."""
    level, line, col, quote = 0, 1, 0, ""
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            level += 1
            if level > MAX_NESTING:
                return line, col
        elif ch in ")]":
            level -= 1
    return None
