"""What a test tells the checker: the expressions (by their text) known not to be none
where a condition holds (`if top != none then top.rank …`), and the fields a kind test
guarantees (`c.kind == "k" or c.rank >= 2`: where `c` is not of kind k, it is of a kind
whose every card has a rank, so `c.rank` is never none there)."""

from __future__ import annotations

from collections.abc import Mapping

from . import ast
from .show import source_text

# For each card kind of the deck, the attributes that may be none in general but never are
# on a card of that kind (every card of a numbered kind has a rank).
KindFields = Mapping[str, frozenset[str]]
Kinds = dict[str, frozenset[str]]  # an object (by text) → the kinds it can be where a test holds


def facts(cond: ast.Node, truth: bool, kinds: KindFields | None = None) -> frozenset[str]:
    """The expressions (by text) known not to be none where `cond` is `truth`."""
    found = _facts(cond, truth)
    if kinds:
        for obj, possible in _kinds(cond, truth, frozenset(kinds)).items():
            if possible:
                found |= {f"{obj}.{name}" for name in frozenset.intersection(*(kinds[k] for k in possible))}
    return found


def _facts(cond: ast.Node, truth: bool) -> frozenset[str]:
    match cond:
        case ast.Unary(op="not", operand=x):
            return _facts(x, not truth)
        case ast.Binary(op="and", left=a, right=b):
            return _facts(a, True) | _facts(b, True) if truth else _facts(a, False) & _facts(b, False)
        case ast.Binary(op="or", left=a, right=b):
            return _facts(a, False) | _facts(b, False) if not truth else _facts(a, True) & _facts(b, True)
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


def _kinds(cond: ast.Node, truth: bool, every: frozenset[str]) -> Kinds:
    """The kinds each tested object can be where `cond` is `truth` (objects not tested: any)."""
    match cond:
        case ast.Unary(op="not", operand=x):
            return _kinds(x, not truth, every)
        case ast.Binary(op="and" | "or" as op, left=a, right=b):
            left, right = _kinds(a, truth, every), _kinds(b, truth, every)
            if truth == (op == "and"):  # both hold: each object is a kind both allow
                return {o: left.get(o, every) & right.get(o, every) for o in left.keys() | right.keys()}
            return {o: left[o] | right[o] for o in left.keys() & right.keys()}  # one of them holds
        case ast.Binary(op=("==" | "!=") as op, left=a, right=b):
            for x, y in ((a, b), (b, a)):
                if _is_kind(x) and isinstance(y, ast.Literal) and isinstance(y.value, str):
                    named = frozenset({y.value})
                    return {_object(x): named & every if truth == (op == "==") else every - named}
        case ast.Binary(op="in", left=x, right=ast.ListExpr(items=items)) if _is_kind(x) and all(
                isinstance(i, ast.Literal) and isinstance(i.value, str) for i in items):
            named = frozenset(str(i.value) for i in items if isinstance(i, ast.Literal))
            return {_object(x): named & every if truth else every - named}
    return {}


def _is_kind(node: ast.Node) -> bool:
    return isinstance(node, ast.Attr) and node.name == "kind"


def _object(node: ast.Node) -> str:
    assert isinstance(node, ast.Attr)
    return source_text(node.obj)


def _with_objects(node: ast.Node) -> frozenset[str]:
    """`top.rank` is not none: then neither is `top` (a card attribute of none is none)."""
    found = {source_text(node)}
    while isinstance(node, ast.Attr):
        node = node.obj
        found.add(source_text(node))
    return frozenset(found)
