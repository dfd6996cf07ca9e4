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
            return f"not {source_text(x)}" if op == "not" else f"-{source_text(x)}"
        case ast.Binary(op=op, left=a, right=b):
            return f"{source_text(a)} {op} {source_text(b)}"
    return "…"


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
