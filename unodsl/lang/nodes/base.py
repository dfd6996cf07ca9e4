"""What every family of nodes shares: literals (the one writer of them), EmitError, and
the operands of a chain of `and` or `or`."""

from __future__ import annotations

from typing import Any

from .. import ast

_LITERAL_TYPES = (int, str, bool, type(None))


class EmitError(Exception):
    """The tree holds something the emitter will not write (never for a checked tree)."""


def literal(value: Any) -> str:
    """A Python literal for `value`: repr() of the plain types only."""
    if type(value) not in _LITERAL_TYPES:
        raise EmitError(f"not a literal the emitter writes: {type(value).__name__}")
    text = repr(value)
    return f"({text})" if text.startswith("-") else text


def operands(node: ast.Node, op: str) -> list[ast.Node]:
    """The operands of a chain of the same boolean operator, left to right."""
    if isinstance(node, ast.Binary) and node.op == op:
        return [*operands(node.left, op), *operands(node.right, op)]
    return [node]
