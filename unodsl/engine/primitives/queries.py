"""Queries: functions without effects, usable in conditions (`any`, `count`, `left_of`, …).

Each docstring is the function's entry in the generated language reference.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..reach import Game
from .registry import REGISTRY, Pred

query = REGISTRY.query


@query("items: any, test: fn", returns="bool", inline="any({body} for {var} in {items})")
def any_(g: Game, items: list[Any], test: Pred) -> bool:
    """True if `test` holds for at least one item."""
    return any(map(test, items))


@query("items: any, test: fn", returns="bool", inline="all({body} for {var} in {items})")
def all_(g: Game, items: list[Any], test: Pred) -> bool:
    """True if `test` holds for every item (and for an empty list)."""
    return all(map(test, items))


@query("items: any, test: fn = none", returns="int", inline="sum(1 for {var} in {items} if {body})")
def count(g: Game, items: list[Any], test: Pred | None) -> int:
    """How many items there are, or how many pass `test`."""
    return len(items) if test is None else sum(1 for x in items if test(x))


@query("items: any, test: fn", elem="same", inline="[{var} for {var} in {items} if {body}]")
def filter_(g: Game, items: list[Any], test: Pred) -> list[Any]:
    """The items for which `test` holds, in order."""
    return [x for x in items if test(x)]


@query("zone: cards", returns="card", none=True)
def top_of(g: Game, zone: list[Card]) -> Card | None:
    """The top (last) card of a pile, or none if it is empty."""
    return zone[-1] if zone else None


@query("who: player", returns="player")
def next_of(g: Game, who: int) -> int:
    """The player after `who` in the current direction (passing over players out)."""
    if g.out:
        return g.next_in(who)
    return (who + g.direction) % g.n


@query("who: player", returns="player")
def left_of(g: Game, who: int) -> int:
    """The player on `who`'s left (clockwise), whatever the direction (passing over players out)."""
    if g.out:
        return g.next_in(who, 1, 1)
    return (who + 1) % g.n


@query("who: player", returns="players")
def others(g: Game, who: int) -> list[int]:
    """Every player but `who` still in the round (partners too), in turn order from the one after `who`."""
    if g.out:
        return [q for q in g.in_order(who) if q != who]
    return [(who + i * g.direction) % g.n for i in range(1, g.n)]


@query("who: player", returns="players")
def opponents_of(g: Game, who: int) -> list[int]:
    """Every player still in the round who is not on `who`'s team, in turn order from the
    one after `who` (without `teams:`, as `others(who)`): who may catch a missed UNO call."""
    return [q for q in g.in_order(who) if g.team(q) != g.team(who)]


@query("who: player, flag: str", returns="bool", inline="{flag} in g.flags[{who}]")
def flagged(g: Game, who: int, flag: str) -> bool:
    """True if `who` carries `flag` (see flag)."""
    return flag in g.flags[who]


@query("who: player", returns="int")
def team_of(g: Game, who: int) -> int:
    """`who`'s team number, from 0 (without `teams:`, their seat: each plays alone)."""
    return g.team(who)


@query("who: player", returns="bool")
def is_out(g: Game, who: int) -> bool:
    """True if `who` has been eliminated from this round."""
    return who in g.out


playable = query("card: card, by: player = player", returns="bool")(Game.playable)
