"""Names: values a variant reads without calling anything (`top`, `hand`, `next`, …).

Each docstring is the function's entry in the generated language reference.
"""

from __future__ import annotations

from ..cards import Card
from ..reach import Game
from .registry import REGISTRY, Env

name = REGISTRY.name


@name("card", says="the top card", none=True, inline="(g.discard_pile[-1] if g.discard_pile else None)")
def top(g: Game, e: Env) -> Card | None:
    """The top card of the discard pile."""
    return g.discard_pile[-1] if g.discard_pile else None


@name("card", says="the previous top card", none=True, inline="g.previous_top")
def previous_top(g: Game, e: Env) -> Card | None:
    """The card that was on top before the last card was played."""
    return g.previous_top


@name("color", says="the current colour", inline="g.current_color")
def current_color(g: Game, e: Env) -> str | None:
    """The colour to match: the last coloured card's, or the one last named."""
    return g.current_color


@name("player", says="the next player")
def next_(g: Game, e: Env) -> int:
    """The player after `player` in the current direction (passing over players out)."""
    p: int = e["player"]
    if g.out:
        return g.next_in(p)
    return (p + g.direction) % g.n


@name("player", says="the previous player")
def previous(g: Game, e: Env) -> int:
    """The player before `player` in the current direction (passing over players out)."""
    p: int = e["player"]
    if g.out:
        return g.next_in(p, 1, -g.direction)
    return (p - g.direction) % g.n


@name("player", says="the dealer", inline="g.dealer")
def dealer(g: Game, e: Env) -> int:
    """This round's dealer."""
    return g.dealer


@name("players", says="the players", items="g.seats_from(e['player'])")
def players(g: Game, e: Env) -> list[int]:
    """Every player still in the round, in turn order, starting with `player`."""
    return list(g.seats_from(e["player"]))


@name("players", says="{player:poss} opponents")
def opponents(g: Game, e: Env) -> list[int]:
    """Every player but `player` still in the round, in turn order from `next`; with
    `teams:`, only the players of the other teams (`others(player)` gives partners too)."""
    p = e["player"]
    if g.out or g.team_of is not None:
        return [q for q in g.in_order(p) if g.team(q) != g.team(p)]
    d, n = g.direction, g.n
    return [(p + i * d) % n for i in range(1, n)]


@name("players", says="the players at the table, in or out", items="range(g.n)")
def seats(g: Game, e: Env) -> list[int]:
    """Every player at the table, in or out, in seat order from seat 0
    (`count(seats, s -> is_out(s))`: how many are out)."""
    return list(range(g.n))


@name("int", says="the number of players", inline="(g.n - len(g.out))")
def player_count(g: Game, e: Env) -> int:
    """How many players are in the round (all seats, less those out)."""
    return g.n - len(g.out)


@name("zone", says="{player:poss} hand", inline="g.hands[e['player']]")
def hand(g: Game, e: Env) -> list[Card]:
    """The hand of `player`."""
    return g.hands[e["player"]]


@name("zone", says="the draw pile", inline="g.draw_pile")
def draw_pile(g: Game, e: Env) -> list[Card]:
    """The face-down draw pile (its top is the last card)."""
    return g.draw_pile


@name("zone", says="the discard pile", inline="g.discard_pile")
def discard_pile(g: Game, e: Env) -> list[Card]:
    """The discard pile (its top is `top`)."""
    return g.discard_pile


@name("zone", says="the cards set aside", inline="g.aside")
def aside(g: Game, e: Env) -> list[Card]:
    """A set-aside area, empty at the start of each round."""
    return g.aside


@name("str", says="the side in play")
def side(g: Game, e: Env) -> str:
    """The name of the side in play."""
    return g.variant.sides[g.side].name


@name("int", says="the direction of play", inline="g.direction")
def direction(g: Game, e: Env) -> int:
    """1 while play goes clockwise (left), -1 after an odd number of reverses."""
    return g.direction


@name("int", says="the waiting penalty", inline="g.penalty")
def penalty(g: Game, e: Env) -> int:
    """The total of a stackable draw waiting for the next player (0 if none)."""
    return g.penalty


@name("int", says="the round number", inline="g.round")
def round_number(g: Game, e: Env) -> int:
    """The number of the round being played, from 1."""
    return g.round


@name("players", says="{player:poss} partners")
def teammates(g: Game, e: Env) -> list[int]:
    """`player`'s partners still in the round, in turn order (empty without `teams:`)."""
    p = e["player"]
    if g.team_of is None:
        return []
    return [q for q in g.in_order(p) if q != p and g.team(q) == g.team(p)]


@name("player", says="{player:poss} partner", none=True)
def partner(g: Game, e: Env) -> int | None:
    """`player`'s first partner in turn order, whether in or out (none without `teams:`)."""
    p = e["player"]
    if g.team_of is None:
        return None
    return next((q for q in ((p + i * g.direction) % g.n for i in range(1, g.n)) if g.team(q) == g.team(p)), None)
