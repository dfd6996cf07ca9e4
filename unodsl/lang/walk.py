"""Walking a syntax tree: its children, every node, its depth, where its text starts.

One walker for every pass that looks at a whole tree (checks, lints, the
rulebook), iterative so that a deep tree cannot exhaust Python's stack.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields

from . import ast


def children(node: ast.Node) -> Iterator[ast.Node]:
    """The direct sub-expressions of a node, in source order (keyword arguments' values too)."""
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, tuple):  # a keyword argument: (name, node)
                item = item[1]
            if isinstance(item, ast.Node):
                yield item


def nodes(root: ast.Node) -> Iterator[ast.Node]:
    """Every node of a tree, the root first (depth first)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack += reversed(list(children(node)))


def calls(root: ast.Node) -> Iterator[ast.Call]:
    """Every call in a tree."""
    return (n for n in nodes(root) if isinstance(n, ast.Call))


def depth(root: ast.Node) -> int:
    """The depth of a tree (a leaf has depth 1)."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        stack += [(child, d + 1) for child in children(node)]
    return deepest


LOOPS = (ast.For, ast.While, ast.Repeat)


def deepest_loop(root: ast.Node) -> tuple[int, ast.Node | None]:
    """How many loops (`for`, `while`, `repeat`) the most deeply nested one is inside, itself
    counted, and that loop (None when there is no loop)."""
    deepest: tuple[int, ast.Node | None] = (0, None)
    stack: list[tuple[ast.Node, int]] = [(root, 0)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, LOOPS):
            d += 1
            if d > deepest[0]:
                deepest = (d, node)
        stack += [(child, d) for child in children(node)]
    return deepest


def start(node: ast.Node) -> ast.At:
    """Where an expression's text begins: its leftmost token (an Attr is at its name)."""
    return min(n.at for n in nodes(node))
