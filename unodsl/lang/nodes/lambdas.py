"""Lambdas: `x -> body`, given to a query (a callable of one value, evaluated per item) or
to an effect (a Lambda, data the game may keep: a stackable draw keeps its test); and the
folds over items with a test, `any`, `all`, `count`, `sum` and `filter`, each declared here once
(forms.Fold): its function, and the comprehension generated code writes where the test is
a lambda written in the call (`any(hand, c -> c.wild)`: `any(l_c.wild for l_c in …)`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import ast
from ..program import Fn, Lambda, Step
from .base import literal, operands
from .forms import Fold
from .protocols import Compiling, Writing
from .values import builtin_text

Pred = Callable[[Any], Any]


# -- the folds ---------------------------------------------------------------------
def any_(g: Any, items: Iterable[Any], test: Pred) -> bool:
    """True if `test` holds for at least one item."""
    return any(map(test, items))


def all_(g: Any, items: Iterable[Any], test: Pred) -> bool:
    """True if `test` holds for every item (and for an empty list)."""
    return all(map(test, items))


def count(g: Any, items: list[Any], test: Pred | None) -> int:
    """How many items there are, or how many pass `test`."""
    return len(items) if test is None else sum(1 for x in items if test(x))


def sum_(g: Any, items: Iterable[Any], value: Pred) -> int:
    """The total of `value`'s number for each item (`sum(cards, c -> c.rank)`)."""
    return sum(map(value, items))


def filter_(g: Any, items: Iterable[Any], test: Pred) -> list[Any]:
    """The items for which `test` holds, in order."""
    return [x for x in items if test(x)]


ANY = Fold(any_, "any({body} for {var} in {items})")
ALL = Fold(all_, "all({body} for {var} in {items})")
COUNT = Fold(count, "sum(1 for {var} in {items} if {body})")
SUM = Fold(sum_, "sum({body} for {var} in {items})")
FILTER = Fold(filter_, "[{var} for {var} in {items} if {body}]")


def emit_fold(w: Writing, fold: Fold, given: dict[str, ast.Node], pre: list[str], ind: str) -> str | None:
    """A fold's call as its comprehension, or None where that would not mean the same (then
    the call is written): its test must be a lambda written in the call whose parameter may
    be a Python local, and neither its items nor its body may need lines of their own."""
    items, test = given.get("items"), given.get("test", given.get("value"))  # (sum: a value, not a test)
    if items is None or not isinstance(test, ast.Lambda) or not w.local(test.param):
        return None
    temps, outer = w.temps, len(pre)
    seq = None
    if isinstance(items, ast.Name) and items.id not in w.locals:
        seq = builtin_text(w, items.id, items=True)  # (a method's result as it is: only iterated here)
    if seq is None:
        seq = w.expr(items, pre, ind)
    if w.temps != temps or len(pre) != outer:  # := or a def in the iterable: not in a comprehension
        del pre[outer:]
        return None
    w.locals.append(test.param)
    inner: list[str] = []
    try:
        body = w.expr(test.body, inner, ind)
    finally:
        w.locals.pop()
    if inner:  # a lambda inside would be defined outside the comprehension that binds its variable
        return None
    return fold.text.format(items=seq, var=f"l_{test.param}", body=body)


# -- x -> body, given to a query ---------------------------------------------------------
def run_lambda(c: Compiling, node: ast.Lambda, pre: list[Step] | None) -> Fn:
    """Per evaluation, a callable of one value; a body that is the `and` of two tests is
    evaluated in it directly (one call fewer per item)."""
    param, body = node.param, node.body
    if isinstance(body, ast.Binary) and body.op == "and" and len(operands(body, "and")) == 2:
        a, b = c.expr(body.left, None), c.expr(body.right, None)

        def make_and(g: Any, e: dict[str, Any]) -> Callable[[Any], Any]:
            def call(x: Any) -> Any:
                e[param] = x
                return a(g, e) and b(g, e)
            return call
        return make_and
    fn = c.expr(body, None)

    def make(g: Any, e: dict[str, Any]) -> Callable[[Any], Any]:
        def call(x: Any) -> Any:
            e[param] = x
            return fn(g, e)
        return call
    return make


def emit_lambda(w: Writing, node: ast.Lambda, pre: list[str], ind: str, choose: bool) -> str:
    """A nested function. Its parameter is a Python local `l_NAME` unless the engine binds
    that name here (`player`, `card`, an event's field): then, as the closure does, it is
    bound in `e`, where built-in names read it."""
    param = node.param
    name = w.temp("fn")
    inner: list[str] = []
    local = w.local(param)
    if local:
        w.locals.append(param)
    try:
        text = w.expr(node.body, inner, ind + "    ")
    finally:
        if local:
            w.locals.pop()
    if local:
        pre.append(f"{ind}def {name}(l_{param}):")
        pre.extend(inner)
    else:
        w.writes_env = True
        pre.append(f"{ind}def {name}(x):")
        pre.extend(inner)
        pre.append(f"{ind}    e[{literal(param)}] = x")
    pre.append(f"{ind}    return {text}")
    return name


# -- x -> body, given to an effect ---------------------------------------------------------
def run_stored(c: Compiling, node: ast.Lambda) -> Fn:
    """A Lambda: data the game may keep, its body's closure and a copy of the variables."""
    param, body = node.param, c.expr(node.body, None)
    return lambda g, e: Lambda(param, body, dict(e))


def emit_stored(w: Writing, node: ast.Lambda) -> str:
    """A Lambda over a module-level function of its body."""
    name = w.fresh("lam")
    lines: list[str] = []
    text = w.expr(node.body, lines, "    ")
    w.defs.append("\n".join([f"def {name}(g, e):", *lines, f"    return {text}"]))
    lam = w.add(Lambda, "Lambda")
    if not w.locals:
        return f"{lam}({literal(node.param)}, {name}, dict(e))"
    # Inside a query's lambda: its body reads the parameters in scope from its env.
    scope = ", ".join(f"{literal(v)}: l_{v}" for v in dict.fromkeys(w.locals))
    return f"{lam}({literal(node.param)}, {name}, {{**e, {scope}}})"
