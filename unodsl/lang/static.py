"""What an expression surely is before a game starts: an option's value read as
`option.NAME`, and whole numbers made of literals and options."""

from __future__ import annotations

from collections.abc import Mapping

from . import ast

OPTION = "option"  # `option.NAME` reads the value of the variant's option NAME


def option_read(node: ast.Node) -> str | None:
    """NAME if `node` is `option.NAME`."""
    match node:
        case ast.Attr(obj=ast.Name(id=name), name=attr) if name == OPTION:
            return attr
    return None


def static_int(node: ast.Node, options: Mapping[str, bool | int]) -> int | None:
    """The whole number an expression surely gives before the game starts: a literal,
    an option's value (`option.deal`), or `+ - *` of those; else None."""
    match node:
        case ast.Literal(value=int() as number) if not isinstance(number, bool):
            return number
        case ast.Unary(op="-", operand=x):
            inner = static_int(x, options)
            return None if inner is None else -inner
        case ast.Binary(op="+" | "-" | "*" as op, left=a, right=b):
            left, right = static_int(a, options), static_int(b, options)
            if left is None or right is None:
                return None
            return left + right if op == "+" else left - right if op == "-" else left * right
    value = options.get(option_read(node) or "")
    return value if isinstance(value, int) and not isinstance(value, bool) else None
