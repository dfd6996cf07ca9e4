"""Folding a flow step's body for what every game of a variant holds (its facts): the
tests those facts decide keep only the branch that runs, a local that merely names a
value is replaced by it, and a local a fold left unread goes. Used by inliner.py on the
bodies it puts in place.
"""

from __future__ import annotations

import ast
import copy
import operator
from collections.abc import Callable
from typing import Any

Facts = frozenset[tuple[str, Any]]  # what is known of a game of one variant: (attribute, value)
NOT_NONE = "<not none>"  # a fact's value: the attribute is never None (whatever it holds)


def watched(event: str) -> str:
    """The fact that `event` is always watched (a rule waits for it): `'event' in g._watch`
    is then true."""
    return f"{event!r} in g._watch"


def simplified(body: list[ast.stmt], facts: dict[str, Any], outer: set[str]) -> list[ast.stmt]:
    """`body` specialised for `facts` (_Folder), then each local that merely names a value
    (_Propagator) replaced by it, and folded again, until nothing changes."""
    folder = _Folder(facts)
    while True:
        body = _block([folder.visit(stmt) for stmt in body])
        body = _undead(body, outer)
        copies = _copies(body, outer)
        if not copies:
            return body
        body = _block([_Propagator(copies).visit(stmt) for stmt in body])
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, (ast.If, ast.For, ast.While, ast.Try, ast.ExceptHandler, ast.With)) and not node.body:
                node.body = [ast.Pass()]  # (its only statement was a copy)


def _undead(body: list[ast.stmt], outer: set[str]) -> list[ast.stmt]:
    """`body` without the locals a fold left unread: `x = v` goes if `v` only reads, else
    becomes the statement `v` (a call kept for its effect); until none is left."""
    while True:
        tree = ast.Module(body=body, type_ignores=[])
        read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
        read |= {n.target.id for n in ast.walk(tree) if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}
        dead = _Undead(read | outer)
        body = _block([dead.visit(stmt) for stmt in body])
        if not dead.changed:
            return body
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, (ast.If, ast.For, ast.While, ast.Try, ast.ExceptHandler, ast.With)) and not node.body:
                node.body = [ast.Pass()]  # (its only statement was dead)


class _Undead(ast.NodeTransformer):
    """Each `name = value` whose name is never read (see _undead)."""

    def __init__(self, read: set[str]) -> None:
        self.read = read
        self.changed = False

    def visit_Assign(self, node: ast.Assign) -> Any:
        match node.targets:
            case [ast.Name(id=name)] if name not in self.read:
                self.changed = True
                if _reads(node.value):
                    return None
                return ast.copy_location(ast.Expr(node.value), node)
        return node


def _block(nodes: list[Any]) -> list[ast.stmt]:
    return [new for node in nodes for new in _statements(node)] or [ast.Pass()]


def _copies(body: list[ast.stmt], outer: set[str]) -> dict[str, ast.expr]:
    """The locals bound exactly once, outside any loop, to a constant or to a name that is
    never bound again (a parameter of a method put in place, mostly: `play_effect = True`,
    `ask_env = e`): each stands for its value. `outer`'s names are read after the body."""
    stores: dict[str, int] = {}
    looped: set[str] = set()

    def count(node: ast.AST, in_loop: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_loop or isinstance(node, (ast.For, ast.While, ast.comprehension))
            if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                stores[child.id] = stores.get(child.id, 0) + 1
                if inner:
                    looped.add(child.id)
            elif isinstance(child, ast.ExceptHandler) and child.name:
                stores[child.name] = stores.get(child.name, 0) + 2  # (never a copy)
            count(child, inner)

    tree = ast.Module(body=body, type_ignores=[])
    count(tree, False)
    copies: dict[str, ast.expr] = {}
    for node in ast.walk(tree):
        match node:
            case ast.Assign(targets=[ast.Name(id=name)], value=ast.Constant() | ast.Name() as value) if (
                    stores.get(name) == 1 and name not in looped and name not in outer):
                if isinstance(value, ast.Name) and (value.id == name or stores.get(value.id, 0) > 1
                                                    or value.id in looped or value.id in copies):
                    continue
                copies[name] = value
    return copies


class _Propagator(ast.NodeTransformer):
    """Reads of each copy → its value; the copy's own assignment goes."""

    def __init__(self, copies: dict[str, ast.expr]) -> None:
        self.copies = copies

    def visit_Assign(self, node: ast.Assign) -> Any:
        match node.targets:
            case [ast.Name(id=name)] if name in self.copies:
                return None
        self.generic_visit(node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        value = self.copies.get(node.id)
        if value is None or not isinstance(node.ctx, ast.Load):
            return node
        return ast.copy_location(copy.deepcopy(value), node)


_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge}


def _tested(node: ast.expr) -> ast.expr:
    """A test's expression without the constants that never decide it (`x or False` → `x`),
    or decided by one after values that only read (`len(o) == 1 and False` → False)."""
    if isinstance(node, ast.BoolOp):
        stop = isinstance(node.op, ast.Or)
        for k, value in enumerate(node.values):
            if isinstance(value, ast.Constant) and bool(value.value) == stop:
                if all(map(_reads, node.values[:k])):
                    return ast.copy_location(ast.Constant(stop), node)
                break
        values = [v for v in node.values if not (isinstance(v, ast.Constant) and bool(v.value) != stop)]
        if not values:
            return ast.copy_location(ast.Constant(not stop), node)
        if len(values) == 1:
            return values[0]
        node.values = values
    return node


def _reads(node: ast.expr) -> bool:
    """True if evaluating `node` only reads, and cannot fail where a flow step reads it:
    names, constants, attributes (the state's plain fields), comparisons, `not`,
    `and`/`or`, and `len` (of the step's own lists)."""
    match node:
        case ast.Name() | ast.Constant():
            return True
        case ast.Attribute(value=value):
            return _reads(value)
        case ast.Compare(left=left, comparators=rest):
            return _reads(left) and all(map(_reads, rest))
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return _reads(operand)
        case ast.BoolOp(values=values):
            return all(map(_reads, values))
        case ast.Call(func=ast.Name(id="len"), args=[arg], keywords=[]):
            return _reads(arg)
    return False


def _statements(node: Any) -> list[ast.stmt]:
    return node if isinstance(node, list) else [] if node is None else [node]


def _path(node: ast.AST) -> str | None:
    """`g.a.b` → "g.a.b" (None for anything else)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "g" and parts:
        return ".".join(["g", *reversed(parts)])
    return None


class _Folder(ast.NodeTransformer):
    """Specialises a body for the facts of a variant: an attribute of the game known to hold
    one value (`g._must_play`, `g._draw_rule.until_playable`, `g._queue` without rules …) is
    that value, and tests decided by it keep only the branch that runs. So the flow steps are
    written once, for every variant, and each variant's module runs only what it can."""

    def __init__(self, facts: dict[str, Any]) -> None:
        self.facts = facts

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        path = _path(node)
        if path is None:
            self.generic_visit(node)
        elif isinstance(node.ctx, ast.Load) and path in self.facts and self.facts[path] != NOT_NONE:
            return ast.copy_location(ast.Constant(self.facts[path]), node)
        return node  # (`g.a.b`: its `g.a` is not a value of its own here, as in `g._queue.append`)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        if _path(node.value) is None:
            node.value = self.visit(node.value)
        node.slice = self.visit(node.slice)  # (`g.a[i]`: `g.a` is the container, never a fact's value)
        return node

    def visit_Expr(self, node: ast.Expr) -> Any:
        self.generic_visit(node)
        return None if isinstance(node.value, (ast.Name, ast.Constant)) else node  # (a value left unused)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        match node:  # `'turn_start' in g._watch`, for an event a rule waits for
            case ast.Compare(left=ast.Constant(value=str(event)), ops=[ast.In()], comparators=[watch]) if (
                    _path(watch) == "g._watch" and self.facts.get(watched(event)) is True):
                return ast.copy_location(ast.Constant(True), node)
        if len(node.ops) == 1 and isinstance(node.left, ast.Constant) and isinstance(node.comparators[0], ast.Constant):
            compare = _COMPARE.get(type(node.ops[0]))
            a, b = node.left.value, node.comparators[0].value
            if compare is not None and type(a) is type(b) and type(a) in (int, str, bool):
                return ast.copy_location(ast.Constant(compare(a, b)), node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            right = node.comparators[0]
            match node.left, right:  # `type(1) is int`
                case ast.Call(func=ast.Name(id="type"), args=[ast.Constant(value=held)], keywords=[]), ast.Name(
                        id=("int" | "str" | "bool" | "float") as named):
                    same = type(held).__name__ == named
                    return ast.copy_location(ast.Constant(same == isinstance(node.ops[0], ast.Is)), node)
            if isinstance(right, ast.Constant) and right.value is None:
                left = node.left
                known: bool | None = None
                if isinstance(left, ast.Constant):
                    known = left.value is None
                elif _path(left) is not None and self.facts.get(_path(left) or "") == NOT_NONE:
                    known = False
                if known is not None:
                    return ast.copy_location(ast.Constant(known == isinstance(node.ops[0], ast.Is)), node)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant):
            return ast.copy_location(ast.Constant(not node.operand.value), node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        stop = isinstance(node.op, ast.Or)  # `or` stops at a true value, `and` at a false one
        values: list[ast.expr] = []
        last = node.values[-1]
        for value in node.values:
            if isinstance(value, ast.Constant) and value is not last:
                if bool(value.value) == stop:
                    if not values:
                        return value
                    values.append(value)
                    break
                continue  # a value that never stops it (and is not the last, the value): skipped
            values.append(value)
        if not values:
            return node.values[-1]
        return values[0] if len(values) == 1 else ast.copy_location(ast.BoolOp(node.op, values), node)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        node.test = _tested(node.test)
        if isinstance(node.test, ast.Constant):
            return node.body if node.test.value else node.orelse
        return node

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        node.test = _tested(node.test)
        if isinstance(node.test, ast.Constant):
            kept = node.body if node.test.value else node.orelse
            return kept or [ast.copy_location(ast.Pass(), node)]
        if not node.body:
            node.body = [ast.copy_location(ast.Pass(), node)]
        return node

    def visit_While(self, node: ast.While) -> Any:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant) and not node.test.value:
            return node.orelse or [ast.copy_location(ast.Pass(), node)]
        return node


