"""Static checks of one expression: names, arity, types, card kinds and colours.

The checker records the static type of every node so the compiler can pick the
right closure without inspecting values at run time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import did_you_mean
from . import ast
from .context import ELEMENT, MAX_COUNT, Context
from .functions import Function, expand
from .narrow import facts
from .show import listing, show, source_text
from .signature import ACTION_WORDS, CARD_ATTRS, NULLABLE_ATTRS, PLAYER_ATTRS, TYPE_WORDS, comparable, fits
from .static import OPTION, option_read, static_int
from .walk import calls as walk_calls
from .walk import start


class CheckError(Exception):
    """A semantic error at a node of an expression."""

    def __init__(self, message: str, at: ast.At, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.at = at
        self.hint = hint


class CheckErrors(CheckError):
    """Every error found in one expression, in the order of their places (the first is this one's)."""

    def __init__(self, errors: list[CheckError]) -> None:
        first = errors[0]
        super().__init__(first.message, first.at, first.hint)
        self.errors = errors


class Checker:
    """Walks a tree once, collecting every problem (`errors`): a node with an error has the
    type "any" to what contains it, so one mistake is reported once, at its place."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.scopes: list[dict[str, str]] = [{}]
        self.none_vars: set[str] = set()  # variables that may hold none
        self.nulls: set[int] = set()  # nodes whose value may be none where they stand
        self.known: frozenset[str] = ctx.known  # expressions (by text) tested not to be none here
        self.answers: set[int] = set()  # nodes that read an answer (a choice's `value`): see _answer_words
        self.errors: list[CheckError] = []

    # -- scope ------------------------------------------------------------
    def lookup(self, name: str) -> str | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in self.ctx.env:
            return self.ctx.env[name]
        if name in self.ctx.zones:
            return "zone"
        builtin = self.ctx.registry.names.get(name)
        return builtin.type if builtin else None

    def bind(self, name: str, type_: str, at: ast.At, maybe_none: bool = False) -> None:
        if name in self.ctx.zones:
            raise CheckError(f"{name!r} is a zone of this variant and can't be assigned", at,
                             "choose another name for your variable")
        if name in self.ctx.registry.names or name in self.ctx.env or name == OPTION:
            raise CheckError(f"{name!r} is a built-in name and can't be assigned", at,
                             "choose another name for your variable")
        self.scopes[-1][name] = type_
        if maybe_none:
            self.none_vars.add(name)
        else:
            self.none_vars.discard(name)
        self.known = frozenset(k for k in self.known if k != name and not k.startswith(f"{name}."))

    # -- none -------------------------------------------------------------
    def _may_be_none(self, node: ast.Node) -> bool:
        """Can this node's value be none (before any test of it)?"""
        match node:
            case ast.Literal(value=None):
                return True
            case ast.Name(id=name):
                if any(name in scope for scope in self.scopes):
                    return name in self.none_vars
                builtin = self.ctx.registry.names.get(name)
                return name not in self.ctx.env and builtin is not None and builtin.nullable
            case ast.Attr(obj=obj, name=name):
                card = self.ctx.types.get(id(obj)) in ("card", "any")
                if id(obj) in self.nulls:
                    return card
                known = self.ctx.domains.get(f"card.{name}")  # (a deck whose every card has one: never none)
                return card and name in NULLABLE_ATTRS and (known is None or None in known[1])
            case ast.Call(func=func) if func in self.ctx.functions:
                fn = self.ctx.functions[func]
                return fn is not None and fn.nullable
            case ast.Call(func=func, args=args):
                prim = self.ctx.registry.primitives.get(func)
                if prim is None or not prim.nullable:
                    return False
                return not (prim.kind in ("choice", "effect") and args and self._never_empty(args[0]))
            case ast.If(then=then, orelse=orelse):
                return orelse is None or id(then) in self.nulls or id(orelse) in self.nulls
        return False

    def _never_empty(self, node: ast.Node) -> bool:
        """A list of players the engine always fills: `opponents`, `players`, `others(p)`
        (a table has two players at least)."""
        match node:
            case ast.Name(id=name) if not any(name in scope for scope in self.scopes):
                builtin = self.ctx.registry.names.get(name)
                return name not in self.ctx.env and builtin is not None and builtin.type == "players"
            case ast.Call(func=func):
                prim = self.ctx.registry.primitives.get(func)
                return prim is not None and prim.kind == "query" and prim.returns == "players" and prim.elem is None
        return False

    def _no_none(self, node: ast.Node, use: str) -> None:
        """Refuse a value that may be none where none would fail at run time."""
        if id(node) in self.nulls:
            text = show(node, 32)
            self.errors.append(CheckError(f"{text} may be none here, so it can't be {use}", start(node),
                                          f"test it first: if {text} != none then …, or {text} != none and …"))
            self.nulls.discard(id(node))  # reported once

    def _narrowed(self, facts: frozenset[str]) -> frozenset[str]:
        previous = self.known
        self.known = previous | facts
        return previous

    def all_names(self) -> set[str]:
        names = set(self.ctx.env) | set(self.ctx.registry.names) | set(self.ctx.zones)
        for scope in self.scopes:
            names |= set(scope)
        return names

    # -- entry points -----------------------------------------------------
    def check(self, node: ast.Node, *, stmt: bool = False, in_lambda: bool = False,
              value_only: bool = False) -> str:
        try:
            t = self._check(node, stmt, in_lambda, value_only)
        except CheckError as err:
            self.errors.append(err)
            self.ctx.types[id(node)] = "any"
            return "any"
        self.ctx.types[id(node)] = t
        if self._may_be_none(node) and (source_text(node) not in self.known
                                         or (isinstance(node, ast.Attr) and id(node.obj) in self.nulls)):
            self.nulls.add(id(node))
        return t

    def _check(self, node: ast.Node, stmt: bool, in_lambda: bool, value_only: bool) -> str:
        c = self.check
        match node:
            case ast.Literal(value=v):
                if v is None:
                    return "none"
                return {bool: "bool", int: "int", str: "str"}[type(v)]
            case ast.Name(id=name) if name == OPTION:
                raise CheckError(f"'{OPTION}' is read with the option's name: {OPTION}.NAME", node.at,
                                 self._option_hint())
            case ast.Name(id=name):
                t = self.lookup(name)
                if t is None:
                    raise CheckError(f"unknown name {name!r}", node.at,
                                     did_you_mean(name, self.all_names()))
                if t == "answer":  # any type, but never a text other than a colour or an action word
                    self.answers.add(id(node))
                    return "any"
                return t
            case ast.Attr(name=name) if option_read(node) is not None:
                if name not in self.ctx.options:
                    raise CheckError(f"unknown option {name!r}", node.at,
                                     did_you_mean(name, self.ctx.options) or self._option_hint())
                return "bool" if isinstance(self.ctx.options[name], bool) else "int"
            case ast.Attr(obj=obj, name=name):
                t = self._attr(c(obj, in_lambda=in_lambda, value_only=value_only), name, node)
                if self.ctx.types.get(id(obj)) == "player" and name != "seat":
                    self._no_none(obj, f"asked for .{name}")
                return t
            case ast.ListExpr(items=items):
                types = {c(i, in_lambda=in_lambda, value_only=value_only) for i in items}
                if types <= {"player"} and items:
                    return "players"
                if types <= {"card"} and items:
                    return "cards"
                return "any"
            case ast.Lambda():
                raise CheckError("a lambda ('x -> …') can only be an argument of a function",
                                 node.at, "for example any(hand, c -> c.wild)")
            case ast.Unary(op="not", operand=x):
                self._want(c(x, in_lambda=in_lambda, value_only=value_only), "bool", x)
                return "bool"
            case ast.Unary(operand=x):
                self._want(c(x, in_lambda=in_lambda, value_only=value_only), "int", x)
                self._no_none(x, "negated")
                return "int"
            case ast.Binary(op=op, left=a, right=b):
                return self._binary(op, a, b, node, in_lambda, value_only)
            case ast.If(cond=cond, then=then, orelse=orelse):
                self._want(c(cond, in_lambda=in_lambda, value_only=value_only), "bool", cond)
                self._constant(cond)
                if stmt:
                    before = self._narrowed(facts(cond, True, self.ctx.kind_fields))
                    self.check(then, stmt=True)
                    self.known = before
                    if orelse is not None:
                        self._narrowed(facts(cond, False, self.ctx.kind_fields))
                        self.check(orelse, stmt=True)
                        self.known = before
                    return "none"
                if orelse is None:
                    raise CheckError("an 'if' used as a value needs an 'else'", node.at)
                before = self._narrowed(facts(cond, True, self.ctx.kind_fields))
                ta = c(then, in_lambda=in_lambda, value_only=True)
                self.known = before
                self._narrowed(facts(cond, False, self.ctx.kind_fields))
                tb = c(orelse, in_lambda=in_lambda, value_only=True)
                self.known = before
                return ta if ta == tb or tb == "none" else (tb if ta == "none" else "any")
            case ast.Call():
                return self._call(node, stmt, in_lambda, value_only)
            case ast.Seq(body=body):
                self._stmt_only(node, stmt)
                for s in body:
                    self.check(s, stmt=True)
                return "none"
            case ast.Assign(name=name, value=value):
                self._stmt_only(node, stmt)
                self.bind(name, c(value), node.at, id(value) in self.nulls)
                return "none"
            case ast.For(var=var, iterable=it, body=body):
                self._stmt_only(node, stmt)
                t = c(it)
                if t not in ELEMENT and t != "any":
                    raise CheckError(f"'for' needs a list of players or cards, not {TYPE_WORDS.get(t, t)}",
                                     it.at, "for example: for p in opponents do …")
                self.bind(var, ELEMENT.get(t, "any"), node.at)
                self.check(body, stmt=True)
                return "none"
            case ast.While(cond=cond, body=body):
                self._stmt_only(node, stmt)
                self._want(c(cond, value_only=True), "bool", cond)
                before = self._narrowed(facts(cond, True, self.ctx.kind_fields))
                self.check(body, stmt=True)
                self.known = before
                return "none"
            case ast.Repeat(count=count, body=body):
                self._stmt_only(node, stmt)
                self._want(c(count), "int", count)
                self._no_none(count, "a count of repeats")
                if isinstance(count, ast.Literal) and isinstance(count.value, int) and count.value > MAX_COUNT:
                    raise CheckError(f"repeat {count.value} is more than {MAX_COUNT:,} times", count.at,
                                     "use a while loop with a condition that ends it")
                self.check(body, stmt=True)
                return "none"
        raise CheckError("unsupported expression", node.at)  # pragma: no cover

    # -- helpers ----------------------------------------------------------
    def _option_hint(self) -> str:
        if not self.ctx.options:
            return "this variant declares no options (see `options:`)"
        return "options: " + ", ".join(f"{OPTION}.{n}" for n in self.ctx.options)

    def _stmt_only(self, node: ast.Node, stmt: bool) -> None:
        if isinstance(node, ast.Assign) and not (self.ctx.effects and stmt):
            raise CheckError("'=' gives a variable a value; to compare, write '=='", node.at,
                             f"write {node.name} == {show(node.value, 24)}")
        if not self.ctx.effects:
            raise CheckError("statements (';', '=', for, while, repeat) can't be used in a condition",
                             node.at, "a condition is a single expression that is true or false")
        if not stmt:
            raise CheckError("a statement can't be used as a value", node.at)

    def _constant(self, cond: ast.Node) -> None:
        """A test of two literals is decided before the game starts: a warning."""
        match cond:
            case ast.Binary(op=("==" | "!=") as op, left=ast.Literal(value=x), right=ast.Literal(value=y)):
                holds = (x == y) == (op == "==")
                self.ctx.warnings.append((start(cond), f"{show(cond)} is always {'true' if holds else 'false'}",
                                          "compare something that changes during the game"))

    def _want(self, actual: str, expected: str, node: ast.Node) -> None:
        if not fits(actual, expected):
            self.errors.append(CheckError(f"expected {expected}, got {actual}", node.at))

    def _attr(self, t: str, name: str, node: ast.Node) -> str:
        if t in ("player", "any") and self.ctx.zones.get(name):
            return "zone"  # p.stock: a zone of each player's
        table = CARD_ATTRS if t == "card" else PLAYER_ATTRS if t == "player" else None
        if table is None:
            if t == "any":
                known = {**CARD_ATTRS, **PLAYER_ATTRS}
                if name in known:
                    return known[name][0]
                raise CheckError(f"unknown attribute {name!r}", node.at, did_you_mean(name, known))
            raise CheckError(f"a {t} has no attributes (tried .{name})", node.at)
        if name not in table:
            if t == "player":
                table = {**table, **{z: ("zone", "") for z, mine in self.ctx.zones.items() if mine}}
            raise CheckError(f"a {t} has no attribute {name!r}", node.at,
                             did_you_mean(name, table) or f"a {t} has: {', '.join(table)}")
        return table[name][0]

    def _binary(self, op: str, a: ast.Node, b: ast.Node, node: ast.Node,
                in_lambda: bool, value_only: bool) -> str:
        ta = self.check(a, in_lambda=in_lambda, value_only=value_only)
        if op in ("and", "or"):
            before = self._narrowed(facts(a, op == "and", self.ctx.kind_fields))
            tb = self.check(b, in_lambda=in_lambda, value_only=True)
            self.known = before
            self._want(ta, "bool", a)
            self._want(tb, "bool", b)
            return "bool"
        tb = self.check(b, in_lambda=in_lambda, value_only=value_only)
        if op in ("==", "!="):
            if not comparable(ta, tb):
                never = "never true" if op == "==" else "always true"
                raise CheckError(f"{show(node)} is {never}: {show(a, 24)} is {TYPE_WORDS.get(ta, ta)} "
                                 f"and {show(b, 24)} is {TYPE_WORDS.get(tb, tb)}", start(node),
                                 self._compare_hint(a, b, ta, tb))
            self._answer_words(node, op, a, b)
            self._literal_domain(a, b)
            self._literal_domain(b, a)
            if op == "==":
                self._never_equal(node, a, b)
            return "bool"
        if op == "in":
            elem = ELEMENT.get(tb)
            items = b.items if isinstance(b, ast.ListExpr) else ()
            for item in items:
                ti = self.ctx.types.get(id(item), "any")
                if not comparable(ta, ti):
                    raise CheckError(f"{show(a, 24)} is {TYPE_WORDS.get(ta, ta)}, so it is never "
                                     f"{show(item, 24)} ({TYPE_WORDS.get(ti, ti)})", item.at,
                                     self._compare_hint(a, item, ta, ti))
                self._literal_domain(a, item)
            if elem is not None and not comparable(ta, elem):
                raise CheckError(f"{show(node)} is never true: {show(b, 24)} holds {elem}s "
                                 f"and {show(a, 24)} is {TYPE_WORDS.get(ta, ta)}", start(node),
                                 "look for a card among cards, or a player among players")
            if elem is None and tb not in ("any", "none") and not isinstance(b, ast.ListExpr):
                raise CheckError(f"'in' needs a list on its right, not {TYPE_WORDS.get(tb, tb)}", b.at,
                                 "for example: card.rank in [1, 2, 3], or p in opponents")
            return "bool"
        self._want(ta, "int", a)
        self._want(tb, "int", b)
        use = "compared with '{op}'" if op in ("<", "<=", ">", ">=") else "used in arithmetic ('{op}')"
        self._no_none(a, use.format(op=op))
        self._no_none(b, use.format(op=op))
        if op in ("/", "%") and isinstance(b, ast.Literal) and b.value == 0:
            raise CheckError(f"{show(node)} divides by zero", b.at, "divide by a number that is not 0")
        return "bool" if op in ("<", "<=", ">", ">=") else "int"

    def _compare_hint(self, a: ast.Node, b: ast.Node, ta: str, tb: str) -> str | None:
        """What the designer probably meant by a comparison of incompatible types."""
        for x, y, tx in ((a, b, ta), (b, a, tb)):
            lit = y.value if isinstance(y, ast.Literal) else None
            if tx == "bool":
                return f"test it directly: {show(x, 24)} (or not {show(x, 24)})"
            if tx == "card":
                return "compare one of its attributes, e.g. card.kind, card.color or card.rank"
            if isinstance(lit, str) and tx == "int":
                if lit.lstrip("-").isdigit():
                    return f"write the number without quotes: {lit}"
                if isinstance(x, ast.Attr):
                    for attr, names in (("color", self.ctx.colors), ("kind", self.ctx.kinds)):
                        if lit in names:
                            return f"did you mean {show(x.obj, 24)}.{attr} == \"{lit}\"?"
            if isinstance(lit, int) and not isinstance(lit, bool) and tx in ("str", "color"):
                if isinstance(x, ast.Attr) and x.name == "symbol":
                    return f"a symbol is text: write \"{lit}\", or compare {show(x.obj, 24)}.rank == {lit}"
                return f"write the text in quotes: \"{lit}\""
        return None

    def _answer_words(self, node: ast.Node, op: str, a: ast.Node, b: ast.Node) -> None:
        """`value == "drwa"`: an answer is a card, a colour, a seat, true or false, or an
        action word (draw, keep, pass), so a comparison with any other text never holds."""
        for x, y in ((a, b), (b, a)):
            if id(x) in self.answers and isinstance(y, ast.Literal) and isinstance(y.value, str):
                if y.value in ACTION_WORDS or y.value in self.ctx.colors:
                    return
                never = "never true" if op == "==" else "always true"
                words = ", ".join(f'"{w}"' for w in ACTION_WORDS)
                raise CheckError(f"{show(node)} is {never}: an answer is a card, a colour, a seat, true or false, "
                                 f"or one of the actions {words}", y.at,
                                 did_you_mean(y.value, [*ACTION_WORDS, *self.ctx.colors])
                                 or f"compare it with one of the actions {words}, or with a colour")

    def _literal_domain(self, attr: ast.Node, lit: ast.Node) -> None:
        """`c.kind == "skp"` and `c.color == "purpel"` are caught here."""
        if not (isinstance(lit, ast.Literal) and isinstance(lit.value, str)):
            return
        domain = None
        if self.ctx.types.get(id(attr)) == "color":  # c.color, current_color, a colour_named field …
            domain = ("colour", self.ctx.colors)
        elif isinstance(attr, ast.Attr) and attr.name == "kind" and self.ctx.types.get(id(attr.obj)) in ("card", "any"):
            domain = ("card kind", self.ctx.kinds)
        if domain and lit.value not in domain[1]:
            what, names = domain
            raise CheckError(f"unknown {what} {lit.value!r}", lit.at,
                             did_you_mean(lit.value, names) or f"known: {', '.join(sorted(names))}")

    def _never_equal(self, node: ast.Node, a: ast.Node, b: ast.Node) -> None:
        """`choice.kind == "tun"`, `card.rank == 12` in a deck ranked 0-9: a test that never
        holds, because the value is one the expression never takes (a warning)."""
        for x, lit in ((a, b), (b, a)):
            if not isinstance(lit, ast.Literal) or isinstance(x, ast.Literal):
                continue
            domain = self._domain(x)
            if domain is None:
                continue
            what, values = domain
            if any(type(v) is type(lit.value) and v == lit.value for v in values):
                continue
            shown = [v for v in values if isinstance(v, str)]
            hint = did_you_mean(lit.value, shown) if isinstance(lit.value, str) else None
            self.ctx.warnings.append((start(node), f"{show(node)} never holds: {what} is one of: "
                                      f"{listing(values)}", hint or "compare it with one of these"))

    def _domain(self, node: ast.Node) -> tuple[str, tuple[Any, ...]] | None:
        """The values an expression can take, when they are known before the game starts."""
        match node:
            case ast.Attr(obj=obj, name=name) if self.ctx.types.get(id(obj)) == "card":
                return self.ctx.domains.get(f"card.{name}")
            case ast.Name(id=name) if name in self.ctx.env and not any(name in s for s in self.scopes):
                return self.ctx.domains.get(name)
        return None

    def _defined(self, node: ast.Call, fn: Function | None, in_lambda: bool, value_only: bool) -> str:
        """A call of a function the variant defines: its arguments checked, its body put in place."""
        if fn is None:
            raise CheckError(f"{node.func}() has an error where it is defined", node.at,
                             "see the error reported under `define:`")
        if node.kwargs or len(node.args) != len(fn.params):
            got = f"{len(node.args)}" + (f" and {len(node.kwargs)} by name" if node.kwargs else "")
            raise CheckError(f"{fn.name}() takes {len(fn.params)} argument(s), got {got}", node.at,
                             f"usage: {fn.usage()}")
        for (param, want), arg in zip(fn.params, node.args, strict=True):
            t = "a lambda" if isinstance(arg, ast.Lambda) else self.check(arg, in_lambda=in_lambda,
                                                                           value_only=value_only)
            asks = next((c for c in walk_calls(arg) if getattr(self.ctx.registry.primitives.get(c.func), "kind",
                                                                   None) == "choice"), None)
            if asks is not None:
                raise CheckError(f"{asks.func}() asks a player, so it can't be an argument of {fn.name}()",
                                 asks.at, f"ask first into a variable: x = {show(asks, 24)}; {fn.name}(x, …)")
            if isinstance(arg, ast.Lambda) or not fits(t, want):
                raise CheckError(f"{fn.name}() wants {TYPE_WORDS[want]} for {param!r}, got {TYPE_WORDS.get(t, t)}",
                                 start(arg), f"usage: {fn.usage()}")
            self._no_none(arg, f"{fn.name}()'s argument {param!r}")
        self.ctx.expansions[id(node)] = expand(fn, node.args, self.ctx.types)
        return fn.returns

    def _call(self, node: ast.Call, stmt: bool, in_lambda: bool, value_only: bool) -> str:
        if node.func in self.ctx.functions:
            return self._defined(node, self.ctx.functions[node.func], in_lambda, value_only)
        prim = self.ctx.registry.primitives.get(node.func)
        if prim is None:
            raise CheckError(f"unknown function {node.func!r}", node.at,
                             did_you_mean(node.func, self.ctx.registry.primitives)
                             or "see `unodsl explain` for the list of functions")
        if prim.kind != "query" and not self.ctx.effects:
            raise CheckError(f"{node.func}() changes the game or asks a player; it can't be used in a condition",
                             node.at)
        if prim.kind == "choice" and (in_lambda or value_only):
            raise CheckError(f"{node.func}() asks a player, so it can't be inside a lambda, a while "
                             "condition, the right side of and/or, or an if used as a value",
                             node.at, "ask first into a variable: x = ask(...); if x then …")
        if prim.kind == "effect" and not stmt and prim.returns == "none":
            raise CheckError(f"{node.func}() is an effect; it can't be used as a value", node.at,
                             "call effects as statements, separated by ';'")
        params = prim.params
        if len(node.args) > len(params):
            raise CheckError(f"{node.func}() takes at most {len(params)} argument(s), got {len(node.args)}",
                             node.at, f"usage: {prim.usage()}")
        given: dict[str, ast.Node] = {p.name: a for p, a in zip(params, node.args, strict=False)}
        for key, value in node.kwargs:
            if key not in {p.name for p in params}:
                raise CheckError(f"{node.func}() has no parameter {key!r}", value.at,
                                 did_you_mean(key, [p.name for p in params]) or f"usage: {prim.usage()}")
            if key in given:
                raise CheckError(f"{node.func}() got {key!r} twice", value.at)
            given[key] = value
        first_type = "any"
        for i, p in enumerate(params):
            arg = given.get(p.name)
            if arg is None:
                if p.default is None:
                    raise CheckError(f"{node.func}() is missing its argument {p.name!r}", node.at,
                                     f"usage: {prim.usage()}")
                continue
            if p.type == "fn":
                if not isinstance(arg, ast.Lambda):
                    raise CheckError(f"{node.func}() wants a lambda for {p.name!r}", arg.at,
                                     "write it as x -> expression")
                if any(arg.param in scope for scope in self.scopes):
                    raise CheckError(f"{arg.param!r} is a variable here: a lambda's parameter needs a name of its "
                                     "own", arg.at, f"for example {arg.param}2 -> …")
                self.scopes.append({})
                try:
                    self.bind(arg.param, ELEMENT.get(first_type, "any"), arg.at)
                    body = self.check(arg.body, in_lambda=True, value_only=True)
                finally:
                    self.scopes.pop()
                if p.name in ("test", "answer") and not fits(body, "bool"):  # a condition, not a value
                    raise CheckError(f"{node.func}()'s {p.name!r} is a condition (true or false); "
                                     f"{show(arg.body)} is {body}", arg.body.at, "compare it, e.g. c -> c.rank == 7")
                if prim.fold is not None and p.name == "value":  # sum's numbers to add up: never none
                    self._want(body, "int", arg.body)
                    self._no_none(arg.body, "added up")
                self.ctx.types[id(arg)] = "fn"
                continue
            t = self.check(arg, in_lambda=in_lambda, value_only=value_only)
            if i == 0:
                first_type = t
            if not fits(t, p.type):
                raise CheckError(f"{node.func}() wants {p.type} for {p.name!r}, got {t}", arg.at,
                                 f"usage: {prim.usage()}")
            if isinstance(arg, ast.Literal) and arg.value is None and p.default != "none" and p.type != "any":
                raise CheckError(f"{node.func}() can't take none for {p.name!r}", arg.at, f"usage: {prim.usage()}")
            if p.type in ("int", "player"):
                self._no_none(arg, f"{node.func}()'s {'count' if p.type == 'int' else p.type} {p.name!r}")
        if prim.kind == "choice":
            self._has_options(node, prim.returns, given)
        if node.func == "flip" and self.ctx.sides < 2:
            raise CheckError("flip() turns the cards over, but this variant's cards have one side", node.at,
                             "declare two `sides:` to flip, or remove flip()")
        for p in params:
            arg = given.get(p.name)
            if p.words and isinstance(arg, ast.Literal) and arg.value not in p.words:
                shown = " or ".join(f'"{w}"' for w in p.words)
                raise CheckError(f"{node.func}(): {p.name} is {shown}, not {show(arg)}", arg.at,
                                 did_you_mean(str(arg.value), p.words) or f"usage: {prim.usage()}")
            if (p.type == "color" and isinstance(arg, ast.Literal) and isinstance(arg.value, str)
                    and arg.value not in self.ctx.colors):
                raise CheckError(f"unknown colour {arg.value!r}", arg.at,
                                     did_you_mean(arg.value, self.ctx.colors)
                                     or f"colours: {', '.join(sorted(self.ctx.colors)) or 'none'}")
            if prim.kind == "query" or p.name != "count" or arg is None:  # a count, not points or a direction
                continue
            count = static_int(arg, self.ctx.options)
            if count is not None and count < 0:
                raise CheckError(f"{node.func}(): a count of {count} is negative", arg.at,
                                 "counts in effects are 0 or more")
            if count is not None and count > MAX_COUNT:
                what = str(count) if isinstance(arg, ast.Literal) else f"{show(arg)} = {count}, which"
                raise CheckError(f"{node.func}(): {what} is more than {MAX_COUNT:,}", arg.at,
                                 f"counts in effects are limited to {MAX_COUNT:,}")
        if prim.elem and first_type not in (*ELEMENT, "any", "none"):  # filter("abc", …), random_pick(7)
            raise CheckError(f"{node.func}() picks from a list of cards or players; got {first_type}",
                             given[params[0].name].at, f"usage: {prim.usage()}")
        if prim.elem == "same":
            return first_type if first_type in ELEMENT else "any"
        if prim.elem == "element":
            return ELEMENT.get(first_type, "any")
        return prim.returns

    def _has_options(self, node: ast.Call, returns: str, given: Mapping[str, ast.Node]) -> None:
        """A choice that can offer nothing is a mistake: `choose_player([])`, or a colour
        in a colourless deck."""
        for arg in given.values():
            if isinstance(arg, ast.ListExpr) and not arg.items:
                raise CheckError(f"{node.func}() is given an empty list, so there is nothing to choose",
                                 arg.at, "give the players or cards to choose from, e.g. opponents or hand")
        if returns == "color" and not self.ctx.colors:
            raise CheckError(f"{node.func}() asks for a colour, but this variant has no colours", node.at,
                             "add colours under `colors:`, or remove the choice")


def check(node: ast.Node, ctx: Context, *, program: bool) -> str:
    """Check a whole program (statements) or a single condition expression."""
    checker = Checker(ctx)
    t = checker.check(node, stmt=program, value_only=not program)
    if not program:
        checker._constant(node)
    ctx.nullable = id(node) in checker.nulls
    if checker.errors:
        unique = {(e.at, e.message): e for e in reversed(checker.errors)}  # the first of each
        raise CheckErrors(sorted(unique.values(), key=lambda e: e.at))
    return t

