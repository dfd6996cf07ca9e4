"""Values a card is given when it is played: a number (a Wild # says it is a 5) or a
colour (a wild on one of several piles), kept while the card lies in the zone where
it was given one, forgotten once it moves. Cards are shared by every game, so a value
given is the game's (its `named` table), read back with `number_of` and `color_of`.
"""

from __future__ import annotations

from typing import Any

from ...lang.signature import Says
from ..cards import Card
from ..reach import Game
from .registry import REGISTRY

effect = REGISTRY.effect
query = REGISTRY.query


def _where(g: Game, card: Card) -> str | None:
    """The name of the zone `card` lies in (None: nowhere, as a card read before it moved)."""
    return next((name for name, zone in g.zones().items() if any(c.id == card.id for c in zone)), None)


def _named(g: Game, what: str, card: Card) -> Any:
    """The value of kind `what` given to `card`, if it still lies where it was given."""
    given = g.named.get((what, card.id))
    if given is None:
        return None
    value, zone = given
    return value if any(c.id == card.id for c in g.zones().get(zone, ())) else None


@effect("card: card, number: int, by: player = player",
        says=("{by}", "say{s} that {card} counts as {number}"))
def name_number(g: Game, card: Card | None, number: int, by: int) -> None:
    """`card` counts as `number` while it lies where it is now (a card whose number the
    player says when it is played: `number_of(card)` reads it)."""
    _name(g, "rank", card, number, by)


@effect("card: card, color: color, by: player = player",
        says=("{by}", "say{s} that {card} counts as {color}"))
def name_color(g: Game, card: Card | None, color: str, by: int) -> None:
    """`card` counts as `color` while it lies where it is now (a wild on one of several
    piles: `color_of(card)` reads it)."""
    _name(g, "color", card, color, by)


def _name(g: Game, what: str, card: Card | None, value: Any, by: int) -> None:
    zone = None if card is None else _where(g, card)
    if card is None or zone is None or value is None:
        return
    g.named[(what, card.id)] = (value, zone)
    if g.watching("card_named"):
        g.emit("card_named", {"player": by, "card": card, "value": str(value)})


@query("card: card", returns="int", none=True, says=Says(noun="{card:poss} number"))
def number_of(g: Game, card: Card | None) -> int | None:
    """The number `card` counts as: the one said for it (name_number) while it lies
    where it was said, else its own rank (none for a card without one)."""
    if card is None:
        return None
    named: int | None = _named(g, "rank", card) if g.named else None
    return card.rank if named is None else named


@query("card: card", returns="color", none=True, says=Says(noun="{card:poss} colour"))
def color_of(g: Game, card: Card | None) -> str | None:
    """The colour `card` counts as: the one said for it (name_color) while it lies
    where it was said, else its own (none for a colourless card)."""
    if card is None:
        return None
    named: str | None = _named(g, "color", card) if g.named else None
    return card.color if named is None else named
