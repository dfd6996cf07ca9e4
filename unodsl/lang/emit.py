"""Checked syntax tree → Python source text, under Jinja2's rules for generated code.

The code generator (engine/codegen.py) puts the text this module emits into one
module per variant. What makes that safe:
- text is emitted only from a tree the checker accepted, node by node, each node as
  its family in lang/nodes/ writes it (EMIT), beside how it runs (RUN: lang/compile.py);
- a literal is emitted only as `repr()` of an int, a string, a boolean or None;
- a name of the language never becomes a Python name: variables live in the
  environment dict `e` and are read as `e['name']`, the key a repr'd string;
- Python names in the output are made here: `g` and `e`, numbered temporaries and
  lambdas, and the objects of the Namespace (primitives, built-in names and
  helpers, from the fixed tables the checker uses), each under a made-up name;
- a card attribute is emitted as `.name` only for names in CARD_ATTRS, and a field of
  the game only as a primitive's declaration names it (nodes/forms.Reads: plain names);
- the module runs with empty builtins: it reaches only what the Namespace holds.
"""

from __future__ import annotations

import keyword
import re
from typing import Any

from . import ast
from .context import Context
from .nodes.base import EmitError, literal
from .nodes.protocols import Origin
from .nodes.table import EMIT

__all__ = ["EmitError", "ExprEmitter", "Namespace", "literal"]


class Namespace:
    """The objects a generated module may use, each under a name made here."""

    def __init__(self) -> None:
        # No builtins: the few the emitted code names are given, under their own names.
        self.objects: dict[str, Any] = {"__builtins__": {}, "bool": bool, "dict": dict, "type": type, "tuple": tuple,
                                        "list": list, "len": len, "id": id, "any": any, "all": all, "sum": sum,
                                        "range": range, "Exception": Exception, "RecursionError": RecursionError}
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


class ExprEmitter:
    """Emits one expression as Python text (nodes/protocols.Writing). Lambdas given to
    queries become nested functions, written into `pre` (lines of the block the
    expression stands in); a lambda given to an effect becomes a module-level function
    (`defs`) wrapped in a Lambda, as lang/compile.py makes it."""

    def __init__(self, ns: Namespace, defs: list[str], origin: Origin) -> None:
        self.ns = ns
        self.defs = defs
        self.ctx: Context = origin.ctx
        self.lifted = origin.lifted
        self.temps = 0
        self.locals: list[str] = []  # lambda parameters in scope that are Python locals (l_NAME)
        self.writes_env = False  # a lambda binds its parameter in `e` (nodes/lambdas.emit_lambda)

    def temp(self, stem: str) -> str:
        self.temps += 1
        return f"{stem}{self.temps}"

    def add(self, obj: Any, hint: str) -> str:
        return self.ns.add(obj, hint)

    def fresh(self, hint: str) -> str:
        return self.ns.fresh(hint)

    def expr(self, node: ast.Node, pre: list[str], indent: str, choose: bool = False) -> str:
        """`node` as a Python expression over `g` (the game) and `e` (the variables).
        `choose`: `node` is the choice a CHOOSE step asks (else a choice reads its variable).
        A call of a function the variant defines is written as its body put in place."""
        node = self.ctx.expansions.get(id(node), node)
        emit = EMIT.get(type(node))
        if emit is None:
            raise EmitError(f"cannot emit {type(node).__name__}")
        return emit(self, node, pre, indent, choose)

    def local(self, param: str) -> bool:
        """A lambda's parameter may be a Python local: the engine binds no such name here."""
        return (param not in self.ctx.env and param not in self.ctx.registry.names
                and f"l_{param}".isidentifier() and not keyword.iskeyword(f"l_{param}"))
