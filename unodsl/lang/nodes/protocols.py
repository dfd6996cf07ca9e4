"""What a node's meaning is made with: the compiler of one checked tree (Compiling, for
its closure: lang/compile.py) and the writer of one expression (Writing, for its text:
lang/emit.py), and where a closure came from (Origin), which the code generator reads."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from .. import ast
from ..context import Context
from ..program import Fn, Step


class Origin(NamedTuple):
    """Where a closure came from: its tree, the context it was checked in, and the
    variables the choices lifted out of the statement were bound to (by node id).
    The code generator (engine/codegen.py) emits Python from it."""

    node: ast.Node
    ctx: Context
    lifted: dict[int, str]


Origins = dict[Fn, Origin]


class Compiling(Protocol):
    """The compiler of one checked tree (lang/compile.Compiler): `ctx.types` holds the
    checker's static types; `simple` the closures that are a constant or read one variable,
    as ("const", value) or ("read", name), which a primitive's call reads directly."""

    ctx: Context
    simple: dict[Fn, tuple[str, Any]]

    def expr(self, node: ast.Node, pre: list[Step] | None) -> Fn:
        """A value's closure; choices inside are lifted into `pre` (None: none may be)."""
        ...

    def const(self, value: Any) -> Fn: ...

    def read(self, name: str) -> Fn: ...

    def lift(self, node: ast.Call, fn: Fn, pre: list[Step] | None) -> Fn:
        """A choice `fn` asked by a CHOOSE step put in `pre`; the closure reads its answer."""
        ...


class Writing(Protocol):
    """The writer of one expression (lang/emit.ExprEmitter): `locals` are the lambda
    parameters in scope that are Python locals (`l_NAME`), `lifted` the variables the
    choices were lifted into, `defs` the module-level functions written so far;
    `writes_env` is set when a lambda binds its parameter in `e`; `temps` counts the
    temporaries made so far."""

    ctx: Context
    lifted: dict[int, str]
    temps: int
    locals: list[str]
    defs: list[str]
    writes_env: bool

    def expr(self, node: ast.Node, pre: list[str], indent: str, choose: bool = False) -> str:
        """`node` as a Python expression over `g` and `e`; lines it needs before it into `pre`."""
        ...

    def temp(self, stem: str) -> str:
        """A new numbered temporary (`t1`, `fn2`)."""
        ...

    def local(self, param: str) -> bool:
        """A lambda's parameter may be a Python local: the engine binds no such name here."""
        ...

    def add(self, obj: Any, hint: str) -> str:
        """The module's name for a given object (the Namespace's)."""
        ...

    def fresh(self, hint: str) -> str:
        """A new name for a function the module itself defines."""
        ...
