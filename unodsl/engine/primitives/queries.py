"""Queries: functions without effects, usable in conditions (`any`, `count`, `left_of`, …).

Each docstring is the function's entry in the generated language reference.
"""

from __future__ import annotations

from ...lang.nodes.forms import Reads
from ...lang.nodes.lambdas import ALL, ANY, COUNT, FILTER, SUM
from ...lang.signature import Says
from ..cards import Card
from ..reach import Game
from ..reach import playable as table_playable
from .registry import REGISTRY

query = REGISTRY.query
fold = REGISTRY.fold  # any, all, count, filter: their functions are lang's (nodes/lambdas.py)


fold(ANY, "items: any, test: fn", returns="bool",
     says=Says(clause=(None, "there is {test:some} in {items}"), negative=(None, "there is {test:none} in {items}"),
               cases=(("items=cards test:lambda", Says(clause=(None, "{test:of some card played}"),
                                                        negative=(None, "{test:of no card played}"))),
                      ("items:players test:lambda", Says(clause=(None, "{test:of some player}"),
                                                         negative=(None, "{test:of no player}"))),
                      ("items:players", Says(clause=(None, "{call} holds"), negative=(None, "{call} does not hold"))),
                      ("items:hand", Says(clause=("{items:owner}", "hold{s} {test:some}"),
                                          negative=("{items:owner}", "hold{s} {test:none}"))))))


fold(ALL, "items: any, test: fn", returns="bool",
     says=Says(clause=(None, "{items} holds only {test:plural}"),
               negative=(None, "{items} holds something other than {test:plural}"),
               cases=(("items=cards test:lambda", Says(clause=(None, "{test:of every card played}"),
                                                        negative=(None, "{test:of not every card played}"))),
                      ("items:players test:lambda", Says(clause=(None, "{test:of every player}"),
                                                         negative=(None, "{test:of not every player}"))),
                      ("items:players", Says(clause=(None, "{call} holds"), negative=(None, "{call} does not hold"))),
                      ("items:hand", Says(
                          clause=("{items:owner}", "hold{s} only {test:plural}"),
                          negative=("{items:owner}", "hold{s} something other than {test:plural}"))))))


fold(COUNT, "items: any, test: fn = none", returns="int",
     says=Says(noun="the number of {test:plural} in {items:zone}",
               cases=(("test:absent items:players", Says(noun="the number of players in {items:zone}")),
                      ("test:absent", Says(noun="the number of cards in {items:zone}")),
                      ("items:players test:lambda", Says(noun="the number of {items:group} {test:those}")))))


fold(FILTER, "items: any, test: fn", elem="same", says=Says(noun="the {test:plural} in {items:zone}"))


fold(SUM, "items: any, value: fn", returns="int", says=Says(noun="{value:summed}"))


@query("items: cards", returns="card", none=True,
       says=Says(noun="the first of {items}", cases=(("items=cards", Says(noun="the first card")),)))
def first(g: Game, items: list[Card]) -> Card | None:
    """The first card of a list (the bottom of a pile; the first of a play's cards), or
    none if it is empty."""
    return items[0] if items else None


@query("zone: cards", returns="card", none=True, says=Says(noun="the top card of {zone}"))
def top_of(g: Game, zone: list[Card]) -> Card | None:
    """The top (last) card of a pile, or none if it is empty."""
    return zone[-1] if zone else None


@query("who: player", returns="player", says=Says(noun="the player after {who}"))
def next_of(g: Game, who: int) -> int:
    """The player after `who` in the current direction (passing over players out)."""
    if g.out:
        return g.next_in(who)
    return (who + g.direction) % g.n


@query("who: player", returns="player", says=Says(noun="the player on {who:poss} left"))
def left_of(g: Game, who: int) -> int:
    """The player on `who`'s left (clockwise), whatever the direction (passing over players out)."""
    if g.out:
        return g.next_in(who, 1, 1)
    return (who + 1) % g.n


@query("who: player", returns="players", says=Says(noun="every player but {who}"))
def others(g: Game, who: int) -> list[int]:
    """Every player but `who` still in the round (partners too), in turn order from the one after `who`."""
    if g.out:
        return [q for q in g.in_order(who) if q != who]
    return [(who + i * g.direction) % g.n for i in range(1, g.n)]


@query("who: player", returns="players", says=Says(noun="{who:poss} opponents"))
def opponents_of(g: Game, who: int) -> list[int]:
    """Every player still in the round who is not on `who`'s team, in turn order from the
    one after `who` (without `teams:`, as `others(who)`): who may catch a missed UNO call."""
    return [q for q in g.in_order(who) if g.team(q) != g.team(who)]


REGISTRY.lookup("flagged", "who: player, flag: str", Reads("flags", at="who", has="flag"), returns="bool",
                says=Says(clause=("{who}", "{is} marked {flag}"), negative=("{who}", "{is} not marked {flag}")),
                doc="True if `who` carries `flag` (see flag).")


@query("who: player", returns="int", says=Says(noun="{who:poss} team"))
def team_of(g: Game, who: int) -> int:
    """`who`'s team number, from 0 (without `teams:`, their seat: each plays alone)."""
    return g.team(who)


@query("who: player", returns="bool",
       says=Says(clause=("{who}", "{is} out of the round"), negative=("{who}", "{is} still in the round")))
def is_out(g: Game, who: int) -> bool:
    """True if `who` has been eliminated from this round."""
    return who in g.out


playable = query("card: card, by: player = player", returns="bool",
                 says=Says(clause=("{card}", "may be played by {by}"),
                           negative=("{card}", "may not be played by {by}")))(table_playable)
