"""A primitive's call: `draw(next, 2)`, `choose_player(opponents, by: dealer)`.

Its arguments are evaluated in the order of its parameters (a parameter not given takes
its default: a literal or a built-in name), then its function is called with the game
first. A lambda given to an effect is a Lambda (data); a choice is lifted out of its
statement into a CHOOSE step, and the call reads the answer. Generated code writes the
call of the function, or, for a primitive declared as a form (forms.py), what the form
says: a fold with a lambda written in the call as a comprehension, a field it reads in
place (`flagged(p, "uno_missed")`: `'uno_missed' in g.flags[l_p]`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ast
from ..program import Fn, Step
from ..signature import Param, Primitive
from .base import literal
from .forms import Reads
from .lambdas import emit_fold, emit_stored, run_stored
from .protocols import Compiling, Writing
from .values import builtin_text, name_fn

Pre = list[Step] | None


def given_args(prim: Primitive, node: ast.Call) -> dict[str, ast.Node]:
    """The call's arguments by parameter name (positional, then by keyword)."""
    given = {p.name: a for p, a in zip(prim.params, node.args, strict=False)}
    given.update(node.kwargs)
    return given


def _stored(prim: Primitive, param: Param, arg: ast.Node | None) -> bool:
    """A lambda written as an effect's argument: given as data (a Lambda)."""
    return arg is not None and param.type == "fn" and prim.kind == "effect" and isinstance(arg, ast.Lambda)


# -- how it runs ----------------------------------------------------------------------
def run_call(c: Compiling, node: ast.Call, pre: Pre) -> Fn:
    prim = c.ctx.registry.primitives[node.func]
    given = given_args(prim, node)
    args: list[Fn] = []
    for p in prim.params:
        arg = given.get(p.name)
        if _stored(prim, p, arg):
            assert isinstance(arg, ast.Lambda)
            args.append(run_stored(c, arg))
        elif arg is not None:
            args.append(c.expr(arg, pre))
        else:
            assert p.default is not None
            args.append(run_default(c, p.default))
    fn = _bind(prim.impl, [c.simple.get(a, ("fn", a)) for a in args])
    return fn if prim.kind != "choice" else c.lift(node, fn, pre)


def run_default(c: Compiling, text: str) -> Fn:
    """A parameter default is a tiny expression: a literal or a built-in name."""
    value = _default_literal(text)
    return name_fn(c, text) if value is _NAME else c.const(value)


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


# -- how it is written -------------------------------------------------------------------
def emit_call(w: Writing, node: ast.Call, pre: list[str], ind: str, choose: bool) -> str:
    """`choose`: the call is the choice a CHOOSE step asks (else a choice reads its variable)."""
    prim = w.ctx.registry.primitives[node.func]
    if prim.kind == "choice" and not choose:
        return f"e[{literal(w.lifted[id(node)])}]"  # lifted into a CHOOSE step before
    given = given_args(prim, node)
    if all(p.name in given for p in prim.params if p.default is None):
        text = None
        if prim.fold is not None:
            text = emit_fold(w, prim.fold, given, pre, ind)
        elif prim.reads is not None:
            text = _emit_reads(w, prim.reads, given, pre, ind)
        if text is not None:
            return text
    args = []
    for p in prim.params:
        arg = given.get(p.name)
        if _stored(prim, p, arg):
            assert isinstance(arg, ast.Lambda)
            args.append(emit_stored(w, arg))
        elif arg is not None:
            args.append(w.expr(arg, pre, ind))
        else:
            assert p.default is not None
            args.append(emit_default(w, p.default))
    impl = w.add(prim.impl, "p_" + node.func)
    return f"{impl}({', '.join(['g', *args])})"


def _emit_reads(w: Writing, reads: Reads, given: dict[str, ast.Node], pre: list[str], ind: str) -> str | None:
    """A query that reads a field of the game, in place; None where that would not mean the
    same: the text reads its arguments in another order than the call, so all but one must
    be literals."""
    if sum(not isinstance(a, ast.Literal) for a in given.values()) > 1:
        return None
    texts = {k: w.expr(a, pre, ind) for k, a in given.items()}
    return reads.text(at=texts[reads.at or ""], has=texts[reads.has or ""])


def emit_default(w: Writing, text: str) -> str:
    """A parameter default: a literal or a built-in name (as run_default)."""
    value = _default_literal(text)
    if value is not _NAME:
        return literal(value)
    return builtin_text(w, text, items=False) or f"e[{literal(text)}]"


_NAME = object()  # (a default that is a name)


def _default_literal(text: str) -> Any:
    """A default's value if it is a literal (a whole number, a quoted text, none, true,
    false), else _NAME."""
    if text.isdigit():
        return int(text)
    if text.startswith(("'", '"')):
        return text[1:-1]
    if text in ("none", "true", "false"):
        return {"none": None, "true": True, "false": False}[text]
    return _NAME
