"""Checked syntax tree → Python source text, under Jinja2's rules for generated code.

The code generator (engine/codegen.py) puts the text this module emits into one
module per variant. What makes that safe:
- text is emitted only from a tree the checker accepted, node by node, by the
  cases below (the same cases as lang/compile.py, with the same meaning);
- a literal is emitted only as `repr()` of an int, a string, a boolean or None;
- a name of the language never becomes a Python name: variables live in the
  environment dict `e` and are read as `e['name']`, the key a repr'd string;
- Python names in the output are made here: `g` and `e`, numbered temporaries and
  lambdas, and the objects of the Namespace (primitives, built-in names and
  helpers, from the fixed tables the checker uses), each under a made-up name;
- a card attribute is emitted as `.name` only for names in CARD_ATTRS;
- the module runs with empty builtins: it reaches only what the Namespace holds.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable
from typing import Any

from . import ast
from .check import Context
from .compile import OPERATORS, Origin, _operands
from .program import Lambda
from .signature import CARD_ATTRS
from .static import option_read

_LITERAL_TYPES = (int, str, bool, type(None))


class EmitError(Exception):
    """The tree holds something the emitter will not write (never for a checked tree)."""


def literal(value: Any) -> str:
    """A Python literal for `value`: repr() of the plain types only."""
    if type(value) not in _LITERAL_TYPES:
        raise EmitError(f"not a literal the emitter writes: {type(value).__name__}")
    text = repr(value)
    return f"({text})" if text.startswith("-") else text


class Namespace:
    """The objects a generated module may use, each under a name made here."""

    def __init__(self) -> None:
        # No builtins: the few the emitted code names are given, under their own names.
        self.objects: dict[str, Any] = {"__builtins__": {}, "bool": bool, "dict": dict, "type": type, "tuple": tuple,
                                        "len": len, "id": id, "any": any, "all": all, "sum": sum, "range": range,
                                        "Exception": Exception, "RecursionError": RecursionError}
        self._names: dict[int, str] = {}
        self._fresh = 0

    def add(self, obj: Any, hint: str) -> str:
        """The module's name for `obj` (the same object always gets the same name)."""
        name = self._names.get(id(obj))
        if name is None:
            word = re.sub(r"[^0-9A-Za-z]+", "_", hint).strip("_")[:24] or "x"
            name = f"o{len(self._names)}_{word}"  # never a fresh name (see fresh)
            assert name.isidentifier() and not keyword.iskeyword(name)
            self._names[id(obj)] = name
            self.objects[name] = obj
        return name

    def fresh(self, hint: str) -> str:
        """A new name for a function the module itself defines."""
        self._fresh += 1
        return f"{hint}_{self._fresh}"


_HELPER_NAMES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "+": "add", "-": "sub", "*": "mul",
                 "/": "div", "%": "mod"}


class ExprEmitter:
    """Emits one expression as Python text. Lambdas given to queries become nested
    functions, written into `pre` (lines of the block the expression stands in);
    a lambda given to an effect becomes a module-level function (`defs`) wrapped
    in a Lambda, as lang/compile.py makes it."""

    def __init__(self, ns: Namespace, defs: list[str], origin: Origin) -> None:
        self.ns = ns
        self.defs = defs
        self.ctx: Context = origin.ctx
        self.lifted = origin.lifted
        self.temps = 0
        self.locals: list[str] = []  # lambda parameters in scope that are Python locals (l_NAME)
        self.writes_env = False  # a lambda binds its parameter in `e` (see lambda_)

    def temp(self, stem: str) -> str:
        self.temps += 1
        return f"{stem}{self.temps}"

    def expr(self, node: ast.Node, pre: list[str], indent: str, choose: bool = False) -> str:
        """`node` as a Python expression over `g` (the game) and `e` (the variables).
        `choose`: `node` is the choice a CHOOSE step asks (else a choice reads its variable)."""
        def ex(n: ast.Node) -> str:
            return self.expr(n, pre, indent)
        match node:
            case ast.Literal(value=v):  # 7, "red", true, none
                return literal(v)
            case ast.Name(id=name) if name in self.locals:  # c, a lambda's parameter
                return f"l_{name}"
            case ast.Name(id=name):  # top, player, x
                builtin = self.ctx.registry.names.get(name)
                if builtin is not None and name not in self.ctx.env:
                    if builtin.inline is not None:
                        return builtin.inline
                    return f"{self.ns.add(builtin.getter, 'n_' + name)}(g, e)"
                return f"e[{literal(name)}]"
            case ast.Attr(name=name) if option_read(node) is not None:  # option.NAME
                return literal(self.ctx.options[name])
            case ast.Attr(obj=obj, name=name):  # card.color, p.hand
                return self.attr(node, obj, name, ex)
            case ast.ListExpr(items=items):  # [a, b]
                return "[" + ", ".join(ex(i) for i in items) + "]"
            case ast.Unary(op="not", operand=x):  # not a
                return f"(not {ex(x)})"
            case ast.Unary(operand=x):  # -a
                return f"(-{ex(x)})"
            case ast.Binary(op=("and" | "or") as op):  # a and b and c
                parts = [ex(x) for x in _operands(node, op)]
                text = f" {op} ".join(parts)
                return f"({text})" if len(parts) <= 3 else f"bool({text})"  # as compile.chain
            case ast.Binary(op=("==" | "!=" | "in") as op, left=a, right=b):  # a == b, a in b
                return f"({ex(a)} {op} {ex(b)})"
            case ast.Binary(op=op, left=a, right=b):  # a < b, a + b
                helper = self.ns.add(OPERATORS[op], _HELPER_NAMES[op])
                return f"{helper}({ex(a)}, {ex(b)})"
            case ast.If(cond=cond, then=then, orelse=orelse):  # if a then b else c
                no = ex(orelse) if orelse is not None else "None"
                return f"({ex(then)} if {ex(cond)} else {no})"
            case ast.Call():  # draw(next, 2)
                return self.call(node, pre, indent, choose)
            case ast.Lambda(param=param, body=body):  # c -> c.color == "red"
                return self.lambda_(param, body, pre, indent)
        raise EmitError(f"cannot emit {type(node).__name__}")

    def attr(self, node: ast.Attr, obj: ast.Node, name: str, ex: Callable[[ast.Node], str]) -> str:
        type_ = self.ctx.types.get(id(obj), "any")
        if type_ == "player" or (type_ == "any" and name not in CARD_ATTRS):
            if name == "hand":
                return f"g.hands[{ex(obj)}]"
            if name == "score":
                return f"g.scores[{ex(obj)}]"
            return ex(obj)  # a player is their seat number
        if name not in CARD_ATTRS or not name.isidentifier():
            raise EmitError(f"no card attribute {name!r}")
        if isinstance(obj, ast.Name) and type_ == "card" and self.bound(obj.id):
            return f"{ex(obj)}.{name}"  # a bound card is never none
        t = self.temp("t")
        return f"(None if ({t} := {ex(obj)}) is None else {t}.{name})"

    def bound(self, name: str) -> bool:
        return name in self.ctx.env or name not in self.ctx.registry.names

    def call(self, node: ast.Call, pre: list[str], indent: str, choose: bool) -> str:
        prim = self.ctx.registry.primitives[node.func]
        if prim.kind == "choice" and not choose:
            return f"e[{literal(self.lifted[id(node)])}]"  # lifted into a CHOOSE step before
        given = {p.name: a for p, a in zip(prim.params, node.args, strict=False)}
        given.update(node.kwargs)
        if prim.inline is not None and all(p.name in given for p in prim.params if p.default is None):
            text = self.inlined(prim.inline, given, pre, indent)
            if text is not None:
                return text
        args = []
        for p in prim.params:
            arg = given.get(p.name)
            if arg is not None and p.type == "fn" and prim.kind == "effect" and isinstance(arg, ast.Lambda):
                args.append(self.stored_lambda(arg.param, arg.body))
            elif arg is not None:
                args.append(self.expr(arg, pre, indent))
            else:
                assert p.default is not None
                args.append(self.default(p.default))
        impl = self.ns.add(prim.impl, "p_" + node.func)
        return f"{impl}({', '.join(['g', *args])})"

    def inlined(self, template: str, given: dict[str, ast.Node], pre: list[str], indent: str) -> str | None:
        """The primitive's inline text for this call, or None where it would not mean
        the same (then the call is written). Two shapes: a fold over `items` with a
        lambda written in the call ({items}, {var}, {body}), or plain arguments by
        name, of which all but one must be literals (the text may read them in
        another order than the call would)."""
        if "{body}" not in template:
            computed = sum(not isinstance(a, ast.Literal) for a in given.values())
            if any(f"{{{k}}}" not in template for k in given) or computed > 1:
                return None
            return template.format(**{k: self.expr(a, pre, indent) for k, a in given.items()})
        items, test = given.get("items"), given.get("test")
        if items is None or not isinstance(test, ast.Lambda) or not self.local(test.param):
            return None
        temps, outer = self.temps, len(pre)
        builtin = self.ctx.registry.names.get(items.id) if isinstance(items, ast.Name) else None
        if builtin is not None and builtin.items is not None and builtin.name not in self.ctx.env:
            seq = builtin.items  # only iterated over here
        else:
            seq = self.expr(items, pre, indent)
        if self.temps != temps or len(pre) != outer:  # := or a def in the iterable: not in a comprehension
            del pre[outer:]
            return None
        self.locals.append(test.param)
        inner: list[str] = []
        try:
            body = self.expr(test.body, inner, indent)
        finally:
            self.locals.pop()
        if inner:  # a lambda inside would be defined outside the comprehension that binds its variable
            return None
        return template.format(items=seq, var=f"l_{test.param}", body=body)

    def local(self, param: str) -> bool:
        """A lambda's parameter may be a Python local: the engine binds no such name here."""
        return (param not in self.ctx.env and param not in self.ctx.registry.names
                and f"l_{param}".isidentifier() and not keyword.iskeyword(f"l_{param}"))

    def default(self, text: str) -> str:
        """A parameter default: a literal or a built-in name (as compile.default)."""
        if text.isdigit():
            return literal(int(text))
        if text.startswith(("'", '"')):
            return literal(text[1:-1])
        if text in ("none", "true", "false"):
            return literal({"none": None, "true": True, "false": False}[text])
        builtin = self.ctx.registry.names.get(text)
        if builtin is not None and text not in self.ctx.env:
            return builtin.inline or f"{self.ns.add(builtin.getter, 'n_' + text)}(g, e)"
        return f"e[{literal(text)}]"

    def lambda_(self, param: str, body: ast.Node, pre: list[str], indent: str) -> str:
        """A query's lambda: a nested function. Its parameter is a Python local `l_NAME`
        unless the engine binds that name here (`player`, `card`, an event's field):
        then, as the closure does, it is bound in `e`, where built-in names read it."""
        name = self.temp("fn")
        inner: list[str] = []
        local = self.local(param)
        if local:
            self.locals.append(param)
        try:
            text = self.expr(body, inner, indent + "    ")
        finally:
            if local:
                self.locals.pop()
        if local:
            pre.append(f"{indent}def {name}(l_{param}):")
            pre.extend(inner)
        else:
            self.writes_env = True
            pre.append(f"{indent}def {name}(x):")
            pre.extend(inner)
            pre.append(f"{indent}    e[{literal(param)}] = x")
        pre.append(f"{indent}    return {text}")
        return name

    def stored_lambda(self, param: str, body: ast.Node) -> str:
        """An effect's lambda: Lambda data over a module-level function of its body."""
        name = self.ns.fresh("lam")
        lines: list[str] = []
        text = self.expr(body, lines, "    ")
        self.defs.append("\n".join([f"def {name}(g, e):", *lines, f"    return {text}"]))
        lam = self.ns.add(Lambda, "Lambda")
        if not self.locals:
            return f"{lam}({literal(param)}, {name}, dict(e))"
        # Inside a query's lambda: its body reads the parameters in scope from its env.
        scope = ", ".join(f"{literal(v)}: l_{v}" for v in dict.fromkeys(self.locals))
        return f"{lam}({literal(param)}, {name}, {{**e, {scope}}})"
