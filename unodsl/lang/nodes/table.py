"""Each node's meaning by node type: RUN (how it runs: lang/compile.py calls it) and EMIT
(how it is written as code: lang/emit.py calls it), each pair from its family's module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ast
from .calls import emit_call, run_call
from .lambdas import emit_lambda, run_lambda
from .operators import emit_binary, emit_if, emit_unary, run_binary, run_if, run_unary
from .values import emit_attr, emit_list, emit_literal, emit_name, run_attr, run_list, run_literal, run_name

Run = Callable[[Any, Any, Any], Any]  # (compiler, node, pre) -> Fn
Emit = Callable[[Any, Any, list[str], str, bool], str]  # (writer, node, pre, indent, choose) -> text

RUN: dict[type[ast.Node], Run] = {
    ast.Literal: run_literal, ast.Name: run_name, ast.Attr: run_attr, ast.ListExpr: run_list,
    ast.Unary: run_unary, ast.Binary: run_binary, ast.If: run_if,
    ast.Call: run_call, ast.Lambda: run_lambda,
}
EMIT: dict[type[ast.Node], Emit] = {
    ast.Literal: emit_literal, ast.Name: emit_name, ast.Attr: emit_attr, ast.ListExpr: emit_list,
    ast.Unary: emit_unary, ast.Binary: emit_binary, ast.If: emit_if,
    ast.Call: emit_call, ast.Lambda: emit_lambda,
}
assert RUN.keys() == EMIT.keys()
