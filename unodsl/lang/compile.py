"""Checked syntax tree → Python closures and step programs (never eval/exec).

An expression becomes a closure `fn(game, env) -> value`. A program becomes a
tuple of steps the engine runs one by one, so that a step may stop and wait for a
player's decision. Choices found inside a statement are lifted out, in order,
into CHOOSE steps that bind hidden variables, and the statement reads those.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NamedTuple

from ..errors import RuntimeFault
from . import ast
from .check import Context
from .program import CHOOSE, DO, FOR, IF, LET, REPEAT, WHILE, Fn, Lambda, Program, Step
from .show import show
from .signature import CARD_ATTRS
from .static import option_read
from .walk import start

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


class Origin(NamedTuple):
    """Where a closure came from: its tree, the context it was checked in, and the
    variables the choices lifted out of the statement were bound to (by node id).
    The code generator (engine/codegen.py) emits Python from it."""

    node: ast.Node
    ctx: Context
    lifted: dict[int, str]


Origins = dict[Fn, Origin]


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
        """Compile a value; choices inside are lifted into `pre`."""
        match node:
            case ast.Literal(value=v):
                return self.const(v)
            case ast.Name(id=name):
                return self.name(name)
            case ast.Attr(name=name) if option_read(node) is not None:
                return self.const(self.ctx.options[name])
            case ast.Attr(obj=obj, name=name):
                field = self.bound_field(node)
                if field is not None:
                    return self.bound_card_attr(*field)
                return self.attr(self.expr(obj, pre), name, self.ctx.types.get(id(obj), "any"))
            case ast.ListExpr(items=items):
                fns = tuple(self.expr(i, pre) for i in items)
                return lambda g, e: [f(g, e) for f in fns]
            case ast.Unary(op="not", operand=x):
                f = self.expr(x, pre)
                return lambda g, e: not f(g, e)
            case ast.Unary(operand=x):
                f = self.expr(x, pre)
                return lambda g, e: -f(g, e)
            case ast.Binary(op=("and" | "or") as op):
                return self.chain(op, [self.expr(x, pre) for x in _operands(node, op)])
            case ast.Binary(op=("==" | "!=") as op, left=a, right=ast.Literal(value=v)):
                return self.compare_const(op, a, v, pre)
            case ast.Binary(op=("==" | "!=") as op, left=ast.Literal(value=v), right=b):
                return self.compare_const(op, b, v, pre)
            case ast.Binary(op=op, left=a, right=b):
                return self.binary(op, self.expr(a, pre), self.expr(b, pre))
            case ast.If(cond=cond, then=then, orelse=orelse):
                test, yes = self.expr(cond, pre), self.expr(then, pre)
                no = self.expr(orelse, pre) if orelse is not None else (lambda g, e: None)
                return lambda g, e: yes(g, e) if test(g, e) else no(g, e)
            case ast.Call():
                return self.call(node, pre)
            case ast.Lambda(param=param, body=body):
                return self.lambda_(param, body)
        raise TypeError(f"cannot compile {node!r}")  # pragma: no cover

    def is_bound(self, name: str) -> bool:
        """A name the engine or the program binds (never none when it is a card)."""
        return name in self.ctx.env or name not in self.ctx.registry.names

    def bound_field(self, node: ast.Node) -> tuple[str, str] | None:
        """(name, attribute) if `node` reads an attribute of a bound card, such as `c.kind`."""
        match node:
            case ast.Attr(obj=ast.Name(id=bound) as obj, name=attr) if (
                    self.ctx.types.get(id(obj)) == "card" and self.is_bound(bound)):
                return bound, attr
        return None

    @staticmethod
    def bound_card_attr(name: str, attr: str) -> Fn:
        get = operator.attrgetter(attr)
        return lambda g, e: get(e[name])

    def name(self, name: str) -> Fn:
        builtin = self.ctx.registry.names.get(name)
        if builtin is not None and name not in self.ctx.env:
            getter: Fn = builtin.getter
            return getter
        return self.read(name)

    @staticmethod
    def attr(obj: Fn, name: str, type_: str) -> Fn:
        if type_ == "player" or (type_ == "any" and name not in CARD_ATTRS):
            if name == "hand":
                return lambda g, e: g.hands[obj(g, e)]
            if name == "score":
                return lambda g, e: g.scores[obj(g, e)]
            return obj  # seat: a player is its seat number
        get = operator.attrgetter(name)

        def card_attr(g: Any, e: dict[str, Any]) -> Any:
            o = obj(g, e)
            return None if o is None else get(o)
        return card_attr

    @staticmethod
    def chain(op: str, fns: list[Fn]) -> Fn:
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

    def compare_const(self, op: str, node: ast.Node, value: Any, pre: list[Step] | None) -> Fn:
        """`x == literal` (or !=); `c.rank == 7` on a bound card is one closure."""
        field = self.bound_field(node)
        if field is not None:
            name, get = field[0], operator.attrgetter(field[1])
            if op == "==":
                return lambda g, e: get(e[name]) == value
            return lambda g, e: get(e[name]) != value
        a = self.expr(node, pre)
        if op == "==":
            return lambda g, e: a(g, e) == value
        return lambda g, e: a(g, e) != value

    @staticmethod
    def binary(op: str, a: Fn, b: Fn) -> Fn:
        if op == "in":
            return lambda g, e: a(g, e) in b(g, e)
        if op == "==":
            return lambda g, e: a(g, e) == b(g, e)
        if op == "!=":
            return lambda g, e: a(g, e) != b(g, e)
        fn = OPERATORS[op]
        return lambda g, e: fn(a(g, e), b(g, e))

    def lambda_(self, param: str, node: ast.Node) -> Fn:
        """`x -> body` gives, per evaluation, a callable of one value; a body that is
        the `and` of two tests is evaluated in it directly (one call fewer per item)."""
        if isinstance(node, ast.Binary) and node.op == "and" and len(_operands(node, "and")) == 2:
            a, b = self.expr(node.left, None), self.expr(node.right, None)

            def make_and(g: Any, e: dict[str, Any]) -> Callable[[Any], Any]:
                def call(x: Any) -> Any:
                    e[param] = x
                    return a(g, e) and b(g, e)
                return call
            return make_and
        body = self.expr(node, None)

        def make(g: Any, e: dict[str, Any]) -> Callable[[Any], Any]:
            def call(x: Any) -> Any:
                e[param] = x
                return body(g, e)
            return call
        return make

    def stored_lambda(self, param: str, node: ast.Node) -> Fn:
        """`x -> body` given to an effect: a Lambda, data that the game may keep."""
        body = self.expr(node, None)
        return lambda g, e: Lambda(param, body, dict(e))

    def call(self, node: ast.Call, pre: list[Step] | None) -> Fn:
        prim = self.ctx.registry.primitives[node.func]
        given = {p.name: a for p, a in zip(prim.params, node.args, strict=False)}
        given.update(node.kwargs)
        args: list[Fn] = []
        for p in prim.params:
            arg = given.get(p.name)
            if arg is not None and p.type == "fn" and prim.kind == "effect" and isinstance(arg, ast.Lambda):
                args.append(self.stored_lambda(arg.param, arg.body))
            elif arg is not None:
                args.append(self.expr(arg, pre))
            else:
                assert p.default is not None
                args.append(self.default(p.default))
        impl = prim.impl
        fn = _bind(impl, [self.simple.get(a, ("fn", a)) for a in args])
        if prim.kind != "choice":
            return fn
        assert pre is not None, "the checker keeps choices out of lambdas"
        var = f"${self.temps}"
        self.temps += 1
        self.lifted[id(node)] = var
        if self.origins is not None:
            self.origins[fn] = Origin(node, self.ctx, self.lifted)
        pre.append((CHOOSE, var, fn, where_of(node)))
        return lambda g, e: e[var]

    def default(self, text: str) -> Fn:
        """A parameter default is a tiny expression: a literal or a built-in name."""
        if text.isdigit():
            return self.const(int(text))
        if text.startswith(("'", '"')):
            return self.const(text[1:-1])
        if text in ("none", "true", "false"):
            return self.const({"none": None, "true": True, "false": False}[text])
        return self.name(text)


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


def _operands(node: ast.Node, op: str) -> list[ast.Node]:
    """The operands of a chain of the same boolean operator, left to right."""
    if isinstance(node, ast.Binary) and node.op == op:
        return [*_operands(node.left, op), *_operands(node.right, op)]
    return [node]


def _bind(impl: Callable[..., Any], args: list[tuple[str, Any]]) -> Fn:
    """A closure that evaluates the arguments and calls the primitive. Each argument
    is ("const", value), ("read", name) or ("fn", closure); the common shapes read
    constants and names directly (one call fewer per argument)."""
    match args:
        case []:
            return lambda g, e: impl(g)
        case [("const", x)]:
            return lambda g, e: impl(g, x)
        case [("read", k)]:
            return lambda g, e: impl(g, e[k])
        case [("fn", a), ("const", y)]:
            return lambda g, e: impl(g, a(g, e), y)
        case [("fn", a), ("read", k)]:
            return lambda g, e: impl(g, a(g, e), e[k])
        case [("read", k), ("read", m)]:
            return lambda g, e: impl(g, e[k], e[m])
        case [("read", k), ("fn", b)]:
            return lambda g, e: impl(g, e[k], b(g, e))
    fns = [_as_fn(arg) for arg in args]
    match fns:
        case [a]:
            return lambda g, e: impl(g, a(g, e))
        case [a, b]:
            return lambda g, e: impl(g, a(g, e), b(g, e))
        case [a, b, c]:
            return lambda g, e: impl(g, a(g, e), b(g, e), c(g, e))
    return lambda g, e: impl(g, *[f(g, e) for f in fns])


def _as_fn(arg: tuple[str, Any]) -> Fn:
    how, what = arg
    if how == "const":
        return lambda g, e: what
    if how == "read":
        return lambda g, e: e[what]
    fn: Fn = what
    return fn


def compile_program(node: ast.Node, ctx: Context, origins: Origins | None = None) -> Program:
    """Compile a checked program into steps (recording each step closure's origin)."""
    return Compiler(ctx, origins).program(node)


def compile_expr(node: ast.Node, ctx: Context, origins: Origins | None = None) -> Fn:
    """Compile a checked condition into one closure (recording its origin)."""
    return Compiler(ctx, origins).top(node, None)
