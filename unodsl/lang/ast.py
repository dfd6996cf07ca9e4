"""The syntax tree: small frozen dataclasses named after the grammar rules.

`at` is the (line, col) of the node inside the expression text, 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass

At = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Node:
    at: At


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """`3`, `"red"`, `true`, `none`"""

    value: int | str | bool | None


@dataclass(frozen=True, slots=True)
class Name(Node):
    """`current_color`, `c`"""

    id: str


@dataclass(frozen=True, slots=True)
class Attr(Node):
    """`card.color`"""

    obj: Node
    name: str


@dataclass(frozen=True, slots=True)
class Call(Node):
    """`draw(next, 2)`, `choose_player(opponents, by: dealer)`"""

    func: str
    args: tuple[Node, ...]
    kwargs: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, slots=True)
class ListExpr(Node):
    """`[dealer, next]`"""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Lambda(Node):
    """`c -> c.color == current_color`"""

    param: str
    body: Node


@dataclass(frozen=True, slots=True)
class Unary(Node):
    """`not x`, `-x`"""

    op: str
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary(Node):
    """`a + b`, `a == b`, `a in b`, `a and b`"""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class If(Node):
    """`if c then a else b` (a branch as a statement, a value as an expression)"""

    cond: Node
    then: Node
    orelse: Node | None


@dataclass(frozen=True, slots=True)
class Seq(Node):
    """`a; b; c`"""

    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Assign(Node):
    """`x = expr`"""

    name: str
    value: Node


@dataclass(frozen=True, slots=True)
class For(Node):
    """`for p in players do stmt`"""

    var: str
    iterable: Node
    body: Node


@dataclass(frozen=True, slots=True)
class While(Node):
    """`while cond do stmt`"""

    cond: Node
    body: Node


@dataclass(frozen=True, slots=True)
class Repeat(Node):
    """`repeat n do stmt`"""

    count: Node
    body: Node
