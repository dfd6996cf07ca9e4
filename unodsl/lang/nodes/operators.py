"""Operators: `not a`, `-a`, `a and b`, `a or b`, `a == b`, `a != b`, `a in b`, `a < b`,
`a + b` (and `<= > >= - * / %`), and `if a then b else c` as a value.

The language's own comparisons and arithmetic differ from Python's where none enters (a
comparison with none is false; arithmetic on none is a fault), on division (whole numbers,
by zero a fault) and past MAX_INT (a runaway): both backends call OPERATORS for those.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ...errors import RuntimeFault
from .. import ast
from ..program import Fn, Step
from .base import operands
from .protocols import Compiling, Writing
from .values import bound_field

Pre = list[Step] | None

MAX_INT = 10**12  # |n| of an arithmetic result: larger is a runaway (x = x * x in a loop)


def _compare(fn: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def compare(x: Any, y: Any) -> bool:
        """`<`, `<=`, `>`, `>=` of the language: false when either side is none."""
        return False if x is None or y is None else fn(x, y)
    return compare


def _arith(op: str, fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def arith(x: Any, y: Any) -> Any:
        """Arithmetic of the language: none, division by zero and runaways are faults."""
        if x is None or y is None:
            raise RuntimeFault(f"'{op}' on none: {'the left' if x is None else 'the right'} side has no value")
        if op in "/%" and y == 0:
            raise RuntimeFault("division by zero" if op == "/" else "modulo by zero")
        r = fn(x, y)
        if -MAX_INT <= r <= MAX_INT:
            return r
        raise RuntimeFault(f"a number grew past {MAX_INT:,} (the most a game may count)")
    return arith


# The language's operators that are not Python's own: both backends call these.
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "<": _compare(operator.lt), "<=": _compare(operator.le), ">": _compare(operator.gt),
    ">=": _compare(operator.ge), "+": _arith("+", operator.add), "-": _arith("-", operator.sub),
    "*": _arith("*", operator.mul), "/": _arith("/", operator.floordiv), "%": _arith("%", operator.mod),
}
_HELPER_NAMES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "+": "add", "-": "sub", "*": "mul",
                 "/": "div", "%": "mod"}


# -- not a, -a ---------------------------------------------------------------------
def run_unary(c: Compiling, node: ast.Unary, pre: Pre) -> Fn:
    f = c.expr(node.operand, pre)
    if node.op == "not":
        return lambda g, e: not f(g, e)
    return lambda g, e: -f(g, e)


def emit_unary(w: Writing, node: ast.Unary, pre: list[str], ind: str, choose: bool) -> str:
    text = w.expr(node.operand, pre, ind)
    return f"(not {text})" if node.op == "not" else f"(-{text})"


# -- a and b and c, a == b, a in b, a < b, a + b ----------------------------------------
def run_binary(c: Compiling, node: ast.Binary, pre: Pre) -> Fn:
    match node:
        case ast.Binary(op=("and" | "or") as chained):
            return _chain(chained, [c.expr(x, pre) for x in operands(node, chained)])
        case ast.Binary(op=("==" | "!=") as eq, left=x, right=ast.Literal(value=v)):
            return _compare_const(c, eq, x, v, pre)
        case ast.Binary(op=("==" | "!=") as eq, left=ast.Literal(value=v), right=x):
            return _compare_const(c, eq, x, v, pre)
    a, b, op = c.expr(node.left, pre), c.expr(node.right, pre), node.op
    if op == "in":
        return lambda g, e: a(g, e) in b(g, e)
    if op == "==":
        return lambda g, e: a(g, e) == b(g, e)
    if op == "!=":
        return lambda g, e: a(g, e) != b(g, e)
    fn = OPERATORS[op]
    return lambda g, e: fn(a(g, e), b(g, e))


def emit_binary(w: Writing, node: ast.Binary, pre: list[str], ind: str, choose: bool) -> str:
    op = node.op
    if op in ("and", "or"):
        parts = [w.expr(x, pre, ind) for x in operands(node, op)]
        text = f" {op} ".join(parts)
        return f"({text})" if len(parts) <= 3 else f"bool({text})"  # (as _chain: all() or any() past 3)
    if op in ("==", "!=", "in"):
        return f"({w.expr(node.left, pre, ind)} {op} {w.expr(node.right, pre, ind)})"
    helper = w.add(OPERATORS[op], _HELPER_NAMES[op])
    return f"{helper}({w.expr(node.left, pre, ind)}, {w.expr(node.right, pre, ind)})"


def _chain(op: str, fns: list[Fn]) -> Fn:
    """`a and b and c` as one closure (fewer calls than nesting pairs)."""
    if op == "and":
        match fns:
            case [a, b]:
                return lambda g, e: a(g, e) and b(g, e)
            case [a, b, c]:
                return lambda g, e: a(g, e) and b(g, e) and c(g, e)
        return lambda g, e: all(f(g, e) for f in fns)
    match fns:
        case [a, b]:
            return lambda g, e: a(g, e) or b(g, e)
        case [a, b, c]:
            return lambda g, e: a(g, e) or b(g, e) or c(g, e)
    return lambda g, e: any(f(g, e) for f in fns)


def _compare_const(c: Compiling, op: str, node: ast.Node, value: Any, pre: Pre) -> Fn:
    """`x == literal` (or !=); `c.rank == 7` on a bound card is one closure."""
    field = bound_field(c.ctx, node)
    if field is not None:
        name, get = field[0], operator.attrgetter(field[1])
        if op == "==":
            return lambda g, e: get(e[name]) == value
        return lambda g, e: get(e[name]) != value
    a = c.expr(node, pre)
    if op == "==":
        return lambda g, e: a(g, e) == value
    return lambda g, e: a(g, e) != value


# -- if a then b else c ----------------------------------------------------------------
def run_if(c: Compiling, node: ast.If, pre: Pre) -> Fn:
    test, yes = c.expr(node.cond, pre), c.expr(node.then, pre)
    no = c.expr(node.orelse, pre) if node.orelse is not None else (lambda g, e: None)
    return lambda g, e: yes(g, e) if test(g, e) else no(g, e)


def emit_if(w: Writing, node: ast.If, pre: list[str], ind: str, choose: bool) -> str:
    no = w.expr(node.orelse, pre, ind) if node.orelse is not None else "None"
    return f"({w.expr(node.then, pre, ind)} if {w.expr(node.cond, pre, ind)} else {no})"
