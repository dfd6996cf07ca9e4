"""Literals, names, attributes and lists: `7`, `top`, `c.color`, `p.hand`, `option.NAME`, `[a, b]`.

A name is a variable (in the env `e`, or a lambda's parameter as a local `l_NAME`) or a
built-in name: its function, or the field of the game it is declared to read (forms.Reads).
A player is their seat number; a card attribute is read only from the fixed CARD_ATTRS.
"""

from __future__ import annotations

import operator
from typing import Any

from .. import ast
from ..context import Context
from ..program import Fn, Step
from ..signature import CARD_ATTRS
from ..static import option_read
from .base import EmitError, literal
from .protocols import Compiling, Writing

Pre = list[Step] | None


# -- 7, "red", true, none ------------------------------------------------------
def run_literal(c: Compiling, node: ast.Literal, pre: Pre) -> Fn:
    return c.const(node.value)


def emit_literal(w: Writing, node: ast.Literal, pre: list[str], ind: str, choose: bool) -> str:
    return literal(node.value)


# -- top, player, x ---------------------------------------------------------------
def run_name(c: Compiling, node: ast.Name, pre: Pre) -> Fn:
    return name_fn(c, node.id)


def name_fn(c: Compiling, name: str) -> Fn:
    """A built-in name's function (made from the field it reads, if it declares one), or a
    variable's read."""
    if name in c.ctx.zones and name not in c.ctx.env:
        return zone_fn(name, c.ctx.zones[name], None)
    builtin = c.ctx.registry.names.get(name)
    if builtin is not None and name not in c.ctx.env:
        getter: Fn = builtin.getter
        return getter
    return c.read(name)


def zone_fn(name: str, mine: bool, seat: Fn | None) -> Fn:
    """A zone of `zones:` read: the table's, or a player's (`player`'s, or `seat`'s)."""
    if not mine:
        return lambda g, e: g.places[name]
    if seat is None:
        return lambda g, e: g.seat_places[name][e["player"]]
    return lambda g, e: g.seat_places[name][seat(g, e)]


def zone_text(name: str, mine: bool, seat: str | None) -> str:
    """A zone of `zones:` read, as code (see zone_fn)."""
    if not mine:
        return f"g.places[{literal(name)}]"
    return f"g.seat_places[{literal(name)}][{seat or 'e[' + literal('player') + ']'}]"


def emit_name(w: Writing, node: ast.Name, pre: list[str], ind: str, choose: bool) -> str:
    name = node.id
    if name in w.locals:  # c, a lambda's parameter
        return f"l_{name}"
    if name in w.ctx.zones and name not in w.ctx.env:
        return zone_text(name, w.ctx.zones[name], None)
    return builtin_text(w, name, items=False) or f"e[{literal(name)}]"


def builtin_text(w: Writing, name: str, items: bool) -> str | None:
    """A built-in name's text (None: `name` is a variable here): the field it reads, or a
    call of its function. `items`: the value is only iterated over."""
    builtin = w.ctx.registry.names.get(name)
    if builtin is None or name in w.ctx.env:
        return None
    if builtin.reads is not None:
        return builtin.reads.text(items=items)
    return f"{w.add(builtin.getter, 'n_' + name)}(g, e)"


def is_bound(ctx: Context, name: str) -> bool:
    """A name the engine or the program binds (never none when it is a card)."""
    return name in ctx.env or name not in ctx.registry.names


def bound_field(ctx: Context, node: ast.Node) -> tuple[str, str] | None:
    """(name, attribute) if `node` reads an attribute of a bound card, such as `c.kind`."""
    match node:
        case ast.Attr(obj=ast.Name(id=bound) as obj, name=attr) if (
                ctx.types.get(id(obj)) == "card" and is_bound(ctx, bound)):
            return bound, attr
    return None


# -- card.color, p.hand, option.NAME ---------------------------------------------------
def run_attr(c: Compiling, node: ast.Attr, pre: Pre) -> Fn:
    if option_read(node) is not None:
        return c.const(c.ctx.options[node.name])
    field = bound_field(c.ctx, node)
    if field is not None:
        name, get = field[0], operator.attrgetter(field[1])
        return lambda g, e: get(e[name])
    obj, type_ = c.expr(node.obj, pre), c.ctx.types.get(id(node.obj), "any")
    if c.ctx.zones.get(node.name) and _of_player(type_, node.name):
        return zone_fn(node.name, True, obj)
    if _of_player(type_, node.name):
        if node.name == "hand":
            return lambda g, e: g.hands[obj(g, e)]
        if node.name == "score":
            return lambda g, e: g.scores[obj(g, e)]
        return obj  # seat: a player is its seat number
    get = operator.attrgetter(node.name)

    def card_attr(g: Any, e: dict[str, Any]) -> Any:
        o = obj(g, e)
        return None if o is None else get(o)
    return card_attr


def emit_attr(w: Writing, node: ast.Attr, pre: list[str], ind: str, choose: bool) -> str:
    name = node.name
    if option_read(node) is not None:
        return literal(w.ctx.options[name])
    obj, type_ = node.obj, w.ctx.types.get(id(node.obj), "any")
    if w.ctx.zones.get(name) and _of_player(type_, name):
        return zone_text(name, True, w.expr(obj, pre, ind))
    if _of_player(type_, name):
        if name == "hand":
            return f"g.hands[{w.expr(obj, pre, ind)}]"
        if name == "score":
            return f"g.scores[{w.expr(obj, pre, ind)}]"
        return w.expr(obj, pre, ind)  # a player is their seat number
    if name not in CARD_ATTRS or not name.isidentifier():
        raise EmitError(f"no card attribute {name!r}")
    if isinstance(obj, ast.Name) and type_ == "card" and is_bound(w.ctx, obj.id):
        return f"{w.expr(obj, pre, ind)}.{name}"  # a bound card is never none
    t = w.temp("t")
    return f"(None if ({t} := {w.expr(obj, pre, ind)}) is None else {t}.{name})"


def _of_player(type_: str, name: str) -> bool:
    """`x.name` reads a player's attribute (hand, score, seat), not a card's."""
    return type_ == "player" or (type_ == "any" and name not in CARD_ATTRS)


# -- [a, b] ---------------------------------------------------------------------
def run_list(c: Compiling, node: ast.ListExpr, pre: Pre) -> Fn:
    fns = tuple(c.expr(i, pre) for i in node.items)
    return lambda g, e: [f(g, e) for f in fns]


def emit_list(w: Writing, node: ast.ListExpr, pre: list[str], ind: str, choose: bool) -> str:
    return "[" + ", ".join(w.expr(i, pre, ind) for i in node.items) + "]"
