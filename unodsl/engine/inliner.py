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
import re
import textwrap
from collections.abc import Callable
from functools import cache
from typing import Any

from ..lang.emit import Namespace
from .folding import Facts, simplified


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


@cache
def inline(fn: Callable[..., Any], facts: Facts = frozenset()) -> Inline | None:
    """`fn(g, e)`'s body as an Inline, or None if it can't stand in place of a call. With
    `facts` (see fold), the body is first specialised for a variant."""
    parts = _body(fn)
    if parts is None:
        return None
    body, value = copy.deepcopy(parts)  # (renaming changes the trees: _body's are kept)
    tail = [ast.Return(value)] if value is not None else []  # (simplified with the body)
    body = simplified([*body, *tail], dict(facts), {"g", "e"})
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
    body = simplified(body, dict(facts), {"g", "e", *keep})
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


# Marks of the renamed names (identifiers, so that they survive being written out, in an
# f-string too); turned into `{p}name` and `{name}` once the source's braces are doubled.
_LOCAL, _GLOBAL, _END = "QinlineL_", "QinlineG_", "_QinlineE"
_MARKS = re.compile(f"{_LOCAL}(\\w+?)(?=\\W|$)|{_GLOBAL}(\\w+?){_END}")


def _escape(text: str) -> str:
    """The braces of the source doubled (for str.format_map), then the placeholders made."""
    text = text.replace("{", "{{").replace("}", "}}")
    return _MARKS.sub(lambda m: "{p}" + m[1] if m[1] is not None else "{" + m[2] + "}", text)
