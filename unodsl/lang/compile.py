"""Checked syntax tree → Python closures and step programs (never eval/exec).

An expression becomes a closure `fn(game, env) -> value`, each node as its family in
lang/nodes/ makes it (RUN). A program becomes a tuple of steps the engine runs one by
one, so that a step may stop and wait for a player's decision. Choices found inside a
statement are lifted out, in order, into CHOOSE steps that bind hidden variables, and the
statement reads those.
"""

from __future__ import annotations

from typing import Any

from . import ast
from .context import Context
from .nodes.operators import MAX_INT, OPERATORS
from .nodes.protocols import Origin, Origins
from .nodes.table import RUN
from .program import CHOOSE, DO, FOR, IF, LET, REPEAT, WHILE, Fn, Program, Step
from .show import show
from .walk import start

__all__ = ["MAX_INT", "OPERATORS", "Compiler", "Origin", "Origins", "compile_expr", "compile_program",
           "reads_only_faces", "where_of"]


class Compiler:
    """Compiles one checked tree; `ctx.types` holds the checker's static types.
    `origins`, if given, records the tree of each condition and of each step's closure."""

    def __init__(self, ctx: Context, origins: Origins | None = None) -> None:
        self.ctx = ctx
        self.origins = origins
        self.lifted: dict[int, str] = {}
        self.temps = 0
        # Closures that are a constant, or read one name from the environment:
        # a primitive's call reads those directly instead of calling them.
        self.simple: dict[Fn, tuple[str, Any]] = {}

    def const(self, value: Any) -> Fn:
        fn: Fn = lambda g, e: value
        self.simple[fn] = ("const", value)
        return fn

    def read(self, name: str) -> Fn:
        fn: Fn = lambda g, e: e[name]
        self.simple[fn] = ("read", name)
        return fn

    # -- programs ---------------------------------------------------------
    def program(self, node: ast.Node) -> Program:
        steps: list[Step] = []
        self.stmt(node, steps)
        return tuple(steps)

    def stmt(self, node: ast.Node, out: list[Step]) -> None:
        """Each step ends with `where`: the statement's (line, col) and text, which the
        variant layer turns into a file position (the engine reads it only on a fault)."""
        match node:
            case ast.Seq(body=stmts):
                for s in stmts:
                    self.stmt(s, out)
                return
        where = where_of(node)
        top = self.top
        match node:
            case ast.Assign(name=name, value=value):
                out.append((LET, name, top(value, out), where))
            case ast.If(cond=cond, then=then, orelse=orelse):
                test = top(cond, out)
                out.append((IF, test, self.program(then), self.program(orelse) if orelse else (), where))
            case ast.For(var=var, iterable=it, body=body):
                out.append((FOR, var, top(it, out), self.program(body), where))
            case ast.While(cond=cond, body=body):
                out.append((WHILE, top(cond, None), self.program(body), where))
            case ast.Repeat(count=count, body=body):
                out.append((REPEAT, top(count, out), self.program(body), where))
            case _:
                out.append((DO, top(node, out), where))

    def top(self, node: ast.Node, pre: list[Step] | None) -> Fn:
        """A whole expression (a condition, or a step's), its origin recorded."""
        fn = self.expr(node, pre)
        if self.origins is not None:
            self.origins[fn] = Origin(node, self.ctx, self.lifted)
        return fn

    # -- expressions ------------------------------------------------------
    def expr(self, node: ast.Node, pre: list[Step] | None) -> Fn:
        """Compile a value; choices inside are lifted into `pre`. A call of a function the
        variant defines is compiled as its body put in place (lang/functions.py)."""
        node = self.ctx.expansions.get(id(node), node)
        run = RUN.get(type(node))
        if run is None:  # pragma: no cover
            raise TypeError(f"cannot compile {node!r}")
        fn: Fn = run(self, node, pre)
        return fn

    def lift(self, node: ast.Call, fn: Fn, pre: list[Step] | None) -> Fn:
        """The choice `fn` asked by a CHOOSE step put in `pre`, which binds a hidden
        variable; the closure returned reads it."""
        assert pre is not None, "the checker keeps choices out of lambdas"
        var = f"${self.temps}"
        self.temps += 1
        self.lifted[id(node)] = var
        if self.origins is not None:
            self.origins[fn] = Origin(node, self.ctx, self.lifted)
        pre.append((CHOOSE, var, fn, where_of(node)))
        return lambda g, e: e[var]


def where_of(node: ast.Node) -> tuple[int, int, str]:
    """A step's `where` before the variant layer places it: (line, col, text)."""
    line, col = start(node)
    match node:
        case ast.Assign(name=name, value=value):
            text = f"{name} = {show(value)}"
        case ast.If(cond=cond):
            text = f"if {show(cond)} then …"
        case ast.For(var=var, iterable=it):
            text = f"for {var} in {show(it)} do …"
        case ast.While(cond=cond):
            text = f"while {show(cond)} do …"
        case ast.Repeat(count=count):
            text = f"repeat {show(count)} do …"
        case _:
            text = show(node)
    return line, col, text


FACE_ATTRS = frozenset({"kind", "color", "rank", "points", "wild", "symbol"})


def reads_only_faces(node: ast.Node) -> bool:
    """True if a condition reads nothing but the faces of `card` and `top` and
    `current_color`: its value is then a function of those, and may be memoised."""
    match node:
        case ast.Literal():
            return True
        case ast.Name(id="current_color"):
            return True
        case ast.Attr(obj=ast.Name(id="card" | "top"), name=name):
            return name in FACE_ATTRS
        case ast.Unary(operand=x):
            return reads_only_faces(x)
        case ast.Binary(left=a, right=b):
            return reads_only_faces(a) and reads_only_faces(b)
        case ast.If(cond=c, then=a, orelse=b) if b is not None:
            return reads_only_faces(c) and reads_only_faces(a) and reads_only_faces(b)
    return False


def compile_program(node: ast.Node, ctx: Context, origins: Origins | None = None) -> Program:
    """Compile a checked program into steps (recording each step closure's origin)."""
    return Compiler(ctx, origins).program(node)


def compile_expr(node: ast.Node, ctx: Context, origins: Origins | None = None) -> Fn:
    """Compile a checked condition into one closure (recording its origin)."""
    return Compiler(ctx, origins).top(node, None)
