"""A flow step's own source as text the code generator can put in place of a call to it.

The steps of the flow (flow.py) are small functions of `(g, e)`. Where one of them is
hot — every turn runs it — the generated module does not call it but runs its body in
place: the function's own source, read back and renamed, so that there is still one
text of its meaning. Its local names get a prefix of the call's own, its global names
(engine objects: DRAW, PAUSED, decision …) become names of the module's Namespace, a
final `return X` becomes the value X, and a statement `step(g, e)` calling another such
step of the same module is put in place too, as is a statement `x = g.method(…)` (or
`g.method(…)`) calling a method of the game marked hot (table.hot): its arguments bound
to its parameters first. A body that returns from anywhere else is left as a call.
"""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import operator
import re
import textwrap
from collections.abc import Callable
from functools import cache
from typing import Any

from ..lang.emit import Namespace


class Inline:
    """A function's body ready to stand in place of a call: its lines (with `{p}` for the
    locals' prefix and `{name}` for each global), the text of its value, and — for a step
    whose value is `PAUSED if X else None` — the test X (it paused exactly when X holds)."""

    def __init__(self, lines: list[str], value: str | None, globals_: dict[str, Any],
                 paused: str | None = None, asks: tuple[str | None, str | None, str] | None = None) -> None:
        self.lines = lines
        self.value = value
        self.globals = globals_
        self.paused = paused
        self.asks = asks  # a chooser's value `X if C else decision(…)` as (C, X, decision(…)); C, X None: always asks

    def render(self, ns: Namespace, prefix: str, ind: str) -> tuple[list[str], str | None, str | None]:
        """The body's lines, indented by `ind`, its value in brackets (None: it gives none),
        and its pause test in brackets (or None)."""
        names = {name: ns.add(obj, name) for name, obj in self.globals.items()}
        names["p"] = prefix
        lines = [ind + line.format_map(names) for line in self.lines]
        value = None if self.value is None else "(" + self.value.format_map(names) + ")"
        return lines, value, None if self.paused is None else "(" + self.paused.format_map(names) + ")"

    def asking(self, ns: Namespace, prefix: str) -> tuple[str | None, str | None, str] | None:
        """A chooser's value as (C, X, decision(…)): it answers X without asking when C holds,
        else asks; (None, None, decision(…)): it always asks. None: its value is another shape."""
        if self.asks is None:
            return None
        names = {name: ns.add(obj, name) for name, obj in self.globals.items()}
        names["p"] = prefix
        test, taken, made = self.asks
        return (None if test is None else test.format_map(names), None if taken is None else taken.format_map(names),
                made.format_map(names))


Facts = frozenset[tuple[str, Any]]  # what is known of a game of one variant: (attribute, value)
NOT_NONE = "<not none>"  # a fact's value: the attribute is never None (whatever it holds)


def watched(event: str) -> str:
    """The fact that `event` is always watched (a rule waits for it): `'event' in g._watch`
    is then true."""
    return f"{event!r} in g._watch"


@cache
def inline(fn: Callable[..., Any], facts: Facts = frozenset()) -> Inline | None:
    """`fn(g, e)`'s body as an Inline, or None if it can't stand in place of a call. With
    `facts` (see fold), the body is first specialised for a variant."""
    parts = _body(fn)
    if parts is None:
        return None
    body, value = copy.deepcopy(parts)  # (renaming changes the trees: _body's are kept)
    tail = [ast.Return(value)] if value is not None else []  # (simplified with the body)
    body = _simplified([*body, *tail], dict(facts), {"g", "e"})
    if value is not None:
        last = body.pop()
        assert isinstance(last, ast.Return) and last.value is not None
        value = last.value
    assigned = {n.id for stmt in [*body, *([value] if value else [])] for n in ast.walk(stmt)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    assigned |= {n.name for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.ExceptHandler) and n.name}
    found: dict[str, Any] = {}
    renamer = _Renamer(assigned, {**fn.__globals__, **_extras(fn)}, found)
    lines: list[str] = []
    for stmt in body:
        lines += _escape(ast.unparse(renamer.visit(stmt))).split("\n")
    text = None if value is None else _escape(ast.unparse(renamer.visit(value)))
    paused = None
    match value:  # `PAUSED if X else None`: the step paused exactly when X holds
        case ast.IfExp(test=test, body=ast.Name(id=then), orelse=ast.Constant(value=None)) if (
                then == f"{_GLOBAL}PAUSED{_END}"):
            paused = _escape(ast.unparse(test))
    asks: tuple[str | None, str | None, str] | None = None
    match value:  # a chooser of the flow: an answer taken without asking, or a decision it makes
        case ast.Call(func=ast.Name(id=made)) if made == f"{_GLOBAL}decision{_END}" and text is not None:
            asks = (None, None, text)
        case ast.IfExp(test=test, body=taken, orelse=ast.Call(func=ast.Name(id=made)) as asked) if (
                made == f"{_GLOBAL}decision{_END}"):
            asks = (_escape(ast.unparse(test)), _escape(ast.unparse(taken)), _escape(ast.unparse(asked)))
    if renamer.unknown:
        return None
    return Inline(lines, text, found, paused, asks)


@cache
def inline_call(cls: type, text: str, facts: Facts = frozenset()) -> Inline | None:
    """The statement `text` — `x = g.method(a, …)`, `method` a hot method of `cls` — with the
    method's body put in place; the names of the statement (x, a …) are kept as they are."""
    stmt = ast.parse(text).body[0]
    keep = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    expander = _Expander(cls)
    body = expander.method(stmt)
    if body is None:
        return None
    body = _simplified(body, dict(facts), {"g", "e", *keep})
    assigned = {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    assigned |= {n.name for s in body for n in ast.walk(s) if isinstance(n, ast.ExceptHandler) and n.name}
    found: dict[str, Any] = {}
    renamer = _Renamer(assigned - keep, expander.extras, found, keep)
    lines = [line for s in body for line in _escape(ast.unparse(renamer.visit(s))).split("\n")]
    return None if renamer.unknown else Inline(lines, None, found)


@cache
def _body(fn: Callable[..., Any]) -> tuple[list[ast.stmt], ast.expr | None] | None:
    """The statements of `fn(g, e)` (no docstring, steps it calls put in place) and the
    expression of its final return; None if it returns from anywhere else."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):  # no source at hand: it is called
        return None
    func = tree.body[0]
    if not isinstance(func, ast.FunctionDef) or [a.arg for a in func.args.args] != ["g", "e"]:
        return None
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    value: ast.expr | None = None
    if body and isinstance(body[-1], ast.Return):
        value = body[-1].value
        body = body[:-1]
    if any(isinstance(node, (ast.Return, ast.Yield, ast.Global, ast.Nonlocal, ast.Lambda))
           for stmt in body for node in ast.walk(stmt)):
        return None
    expander = _Expander(fn)
    body = expander.expand(body)
    _EXTRAS[fn] = expander.extras
    return body, value


_EXTRAS: dict[Callable[..., Any], dict[str, Any]] = {}  # the globals of the methods put in place


def _extras(fn: Callable[..., Any]) -> dict[str, Any]:
    return _EXTRAS.get(fn, {})


class _Expander:
    """Puts in place each statement `step(g, e)` that calls another step of the same module
    whose body can stand inline and gives no value, its locals prefixed with its name; and
    each `x = g.method(…)` or `g.method(…)` of a hot method (see table.hot)."""

    def __init__(self, fn: Callable[..., Any] | type) -> None:
        """For the body of the step `fn`, or (a class) for a statement about a game of that class."""
        if isinstance(fn, type):
            self.globals: dict[str, Any] = {}
            self.game: Any = fn
        else:
            self.globals = fn.__globals__
            self.game = self.globals.get(str(fn.__annotations__.get("g", "")))  # the class of `g`
        self.extras: dict[str, Any] = {}  # a method's global names, made unique: their objects
        self.placed: dict[str, int] = {}  # how many times each method was put in place

    def expand(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            callee = self.callee(stmt)
            parts = None if callee is None else _body(callee)
            if callee is not None and parts is not None and parts[1] is None:
                out += [_prefixed(s, callee.__name__, parts[0]) for s in copy.deepcopy(parts[0])]
                continue
            method = self.method(stmt)
            if method is not None:
                out += method
                continue
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(stmt, field, self.expand(inner))
                elif field == "handlers" and inner:
                    for handler in inner:
                        handler.body = self.expand(handler.body)
            out.append(stmt)
        return out

    def method(self, stmt: ast.stmt) -> list[ast.stmt] | None:
        """The statements standing for `x = g.m(args)` or `g.m(args)`, m a hot method; or None."""
        target: ast.Name | None = None
        match stmt:
            case ast.Assign(targets=[ast.Name() as named], value=ast.Call() as call):
                target = named
            case ast.Expr(value=ast.Call() as call):
                pass
            case _:
                return None
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "g"):
            return None
        fn = inspect.getattr_static(self.game, func.attr, None) if isinstance(self.game, type) else None
        if not (inspect.isfunction(fn) and getattr(fn, "__inline__", False)):
            return None
        parsed = _method(fn)
        if parsed is None:
            return None
        params, defaults, body, value = copy.deepcopy(parsed)
        self.placed[fn.__name__] = self.placed.get(fn.__name__, 0) + 1  # each in place: locals of its own
        name = fn.__name__ + ("" if self.placed[fn.__name__] == 1 else str(self.placed[fn.__name__]))
        bound: dict[str, ast.expr] = dict(zip(params, call.args, strict=False))
        bound.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
        if len(call.args) > len(params) or any(k.arg is None for k in call.keywords):
            return None
        for param in params:
            if param not in bound:
                if param not in defaults:
                    return None
                bound[param] = defaults[param]
        # the method's own names: self is g, its parameters and locals get its name as a prefix,
        # its globals become unique names bound to their objects
        local = set(params) | {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name)
                               and isinstance(n.ctx, ast.Store)}
        local |= {h.name for s in body for h in ast.walk(s) if isinstance(h, ast.ExceptHandler) and h.name}
        tree = ast.Module(body=[*body, *([ast.Expr(value)] if value is not None else [])], type_ignores=[])
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if node.id == "self":
                    node.id = "g"
                elif node.id in local:
                    node.id = f"{name}_{node.id}"
                elif node.id in fn.__globals__ or hasattr(builtins, node.id):
                    key = f"{name}__{node.id}"
                    self.extras[key] = fn.__globals__[node.id] if node.id in fn.__globals__ else getattr(
                        builtins, node.id)
                    node.id = key
            elif isinstance(node, ast.ExceptHandler) and node.name in local:
                node.name = f"{name}_{node.name}"
        stmts: list[ast.stmt] = [ast.Assign(targets=[ast.Name(f"{name}_{p}", ast.Store())], value=bound[p])
                                 for p in params]
        stmts += tree.body[:len(body)]
        if value is not None:
            result = tree.body[-1]
            assert isinstance(result, ast.Expr)
            stmts.append(ast.Assign(targets=[target], value=result.value) if target is not None else result)
        return [ast.fix_missing_locations(s) for s in stmts]

    def callee(self, stmt: ast.stmt) -> Any:
        match stmt:
            case ast.Expr(value=ast.Call(func=ast.Name(id=name), args=[ast.Name(id="g"), ast.Name(id="e")],
                                         keywords=[])):
                fn = self.globals.get(name)
                if inspect.isfunction(fn) and fn.__globals__ is self.globals:
                    return fn
        return None


@cache
def _method(fn: Callable[..., Any]) -> tuple[list[str], dict[str, ast.expr], list[ast.stmt], ast.expr | None] | None:
    """A hot method's parameters (after self), its constant defaults, its statements and
    the expression of its final return; None if it can't stand in place of a call."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return None
    func = tree.body[0]
    if not isinstance(func, ast.FunctionDef) or not func.args.args or func.args.args[0].arg != "self":
        return None
    if func.args.vararg or func.args.kwarg or func.args.kwonlyargs:
        return None
    params = [a.arg for a in func.args.args[1:]]
    if not all(isinstance(d, ast.Constant) for d in func.args.defaults):
        return None
    defaults = dict(zip(params[len(params) - len(func.args.defaults):], func.args.defaults, strict=True))
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    value: ast.expr | None = None
    if body and isinstance(body[-1], ast.Return):
        value = body[-1].value
        body = body[:-1]
    if any(isinstance(node, (ast.Return, ast.Yield, ast.Global, ast.Nonlocal, ast.Lambda, ast.FunctionDef))
           for stmt in body for node in ast.walk(stmt)):
        return None
    return params, defaults, body, value


def _prefixed(stmt: ast.stmt, name: str, body: list[ast.stmt]) -> ast.stmt:
    """`stmt` (of the body of step `name`) with that body's locals renamed `name_local`."""
    assigned = {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id in assigned:
            node.id = f"{name}_{node.id}"
    return stmt


class _Renamer(ast.NodeTransformer):
    """Locals → `{p}name`, globals → `{name}` (placeholders filled in by Inline.render)."""

    def __init__(self, assigned: set[str], globals_: dict[str, Any], found: dict[str, Any],
                 keep: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.assigned = assigned
        self.globals = globals_
        self.found = found
        self.keep = {"g", "e", *keep}  # names left as they are
        self.unknown = False

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        """`x: T = v` → `x = v` (a local's annotation is for mypy, not for the module)."""
        if node.value is None:
            return ast.copy_location(ast.Pass(), node)
        assign: ast.AST = self.visit(ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node))
        return assign

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.ExceptHandler:
        if node.name:
            node.name = f"{_LOCAL}{node.name}"
        self.generic_visit(node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.Name:
        name = node.id
        if name in self.keep:
            return node
        if name in self.assigned:
            return ast.copy_location(ast.Name(f"{_LOCAL}{name}", node.ctx), node)
        if name in self.globals:
            self.found[name] = self.globals[name]
        elif hasattr(builtins, name):
            self.found[name] = getattr(builtins, name)
        else:
            self.unknown = True
            return node
        return ast.copy_location(ast.Name(f"{_GLOBAL}{name}{_END}", node.ctx), node)


def _simplified(body: list[ast.stmt], facts: dict[str, Any], outer: set[str]) -> list[ast.stmt]:
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


# Marks of the renamed names (identifiers, so that they survive being written out, in an
# f-string too); turned into `{p}name` and `{name}` once the source's braces are doubled.
_LOCAL, _GLOBAL, _END = "QinlineL_", "QinlineG_", "_QinlineE"
_MARKS = re.compile(f"{_LOCAL}(\\w+?)(?=\\W|$)|{_GLOBAL}(\\w+?){_END}")


def _escape(text: str) -> str:
    """The braces of the source doubled (for str.format_map), then the placeholders made."""
    text = text.replace("{", "{{").replace("}", "}}")
    return _MARKS.sub(lambda m: "{p}" + m[1] if m[1] is not None else "{" + m[2] + "}", text)
