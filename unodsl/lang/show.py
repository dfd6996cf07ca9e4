"""An expression as short source-like text: for messages, and as the key of what a
test narrows (`lang/narrow.py`)."""

from __future__ import annotations

from typing import Any

from . import ast


def show(node: ast.Node, limit: int = 48) -> str:
    """Short source-like text of an expression, for messages."""
    full = source_text(node)
    return full if len(full) <= limit else full[: limit - 1] + "…"


def source_text(node: ast.Node) -> str:
    """The full text of an expression."""
    match node:
        case ast.Literal(value=v):
            if isinstance(v, bool) or v is None:
                return {True: "true", False: "false", None: "none"}[v]
            return f'"{v}"' if isinstance(v, str) else str(v)
        case ast.Name(id=name):
            return name
        case ast.Attr(obj=obj, name=name):
            return f"{source_text(obj)}.{name}"
        case ast.Call(func=func, args=args, kwargs=kwargs):
            parts = [source_text(a) for a in args] + [f"{k}: {source_text(v)}" for k, v in kwargs]
            return f"{func}({', '.join(parts)})"
        case ast.ListExpr(items=items):
            return f"[{', '.join(source_text(i) for i in items)}]"
        case ast.Lambda(param=param, body=body):
            return f"{param} -> {source_text(body)}"
        case ast.Unary(op=op, operand=x):
            return f"not {_operand(x, _NOT)}" if op == "not" else f"-{_operand(x, _NEG)}"
        case ast.Binary(op=op, left=a, right=b):
            level = _LEVELS[op]
            left = level + 1 if level == _COMPARE else level  # (comparisons do not chain; the rest fold left)
            return f"{_operand(a, left)} {op} {_operand(b, level + 1)}"
    return "…"


# How tightly each operator binds, as the grammar nests them (grammar/unodsl.lark): a part
# that binds less tightly than its place needs is shown in brackets, as it was written.
_COMPARE, _NOT, _NEG, _ATOM = 4, 3, 7, 8
_LEVELS = {"or": 1, "and": 2, **dict.fromkeys(("==", "!=", "<", "<=", ">", ">=", "in"), _COMPARE),
           "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}


def _operand(node: ast.Node, least: int) -> str:
    """`node`'s text as an operand that must bind at least `least` tightly."""
    match node:
        case ast.Binary(op=op):
            level = _LEVELS.get(op, _ATOM)
        case ast.Unary(op=op):
            level = _NOT if op == "not" else _NEG
        case ast.Lambda():
            level = 0
        case _:
            level = _ATOM
    text = source_text(node)
    return f"({text})" if level < least else text


def listing(values: tuple[Any, ...], limit: int = 12) -> str:
    """Values for a message: runs of whole numbers as `0-9`, none as `none`, at most `limit` items."""
    items: list[str] = []
    numbers = sorted(v for v in values if isinstance(v, int) and not isinstance(v, bool))
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        items.append(f"{numbers[i]}-{numbers[j]}" if j > i + 1 else
                     ", ".join(str(n) for n in numbers[i:j + 1]))
        i = j + 1
    items += [str(v) for v in values if isinstance(v, str)]
    items += ["none"] * (None in values)
    more = f", … ({len(items) - limit} more)" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more
