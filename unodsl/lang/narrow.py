"""What a test tells the checker: the expressions (by their text) known not to be none
where a condition holds (`if top != none then top.rank …`)."""

from __future__ import annotations

from . import ast
from .show import source_text


def facts(cond: ast.Node, truth: bool) -> frozenset[str]:
    """The expressions (by text) known not to be none where `cond` is `truth`."""
    match cond:
        case ast.Unary(op="not", operand=x):
            return facts(x, not truth)
        case ast.Binary(op="and", left=a, right=b):
            return facts(a, True) | facts(b, True) if truth else facts(a, False) & facts(b, False)
        case ast.Binary(op="or", left=a, right=b):
            return facts(a, False) | facts(b, False) if not truth else facts(a, True) & facts(b, True)
        case ast.Binary(op=("==" | "!=") as op, left=a, right=b):
            for x, y in ((a, b), (b, a)):
                if isinstance(y, ast.Literal):
                    if y.value is None and truth == (op == "!="):
                        return _with_objects(x)
                    if y.value is not None and truth == (op == "=="):
                        return _with_objects(x)
        case ast.Binary(op=("<" | "<=" | ">" | ">="), left=a, right=b) if truth:
            return _with_objects(a) | _with_objects(b)  # an order holds only between numbers
        case ast.Binary(op="in", left=a) if truth:
            return _with_objects(a)
    return frozenset()


def _with_objects(node: ast.Node) -> frozenset[str]:
    """`top.rank` is not none: then neither is `top` (a card attribute of none is none)."""
    found = {source_text(node)}
    while isinstance(node, ast.Attr):
        node = node.obj
        found.add(source_text(node))
    return frozenset(found)
