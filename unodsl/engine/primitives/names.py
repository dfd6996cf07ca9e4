"""Names: values a variant reads without calling anything (`top`, `hand`, `next`, …).

A name that is a field of the game is declared as one (`field`, with lang's Reads): its
function and the text generated code writes for it are made from that. Each docstring
(a field's `doc`) is its entry in the generated language reference.
"""

from __future__ import annotations

from ...lang.nodes.forms import Reads
from ..reach import Game
from .registry import REGISTRY, Env

name = REGISTRY.name
field = REGISTRY.field


field("top", "card", Reads("discard_pile", last=True), says="the top card", none=True,
      doc="The top card of the discard pile.")


field("previous_top", "card", Reads("previous_top"), says="the previous top card", none=True,
      doc="The card that was on top before the last card was played.")


field("current_color", "color", Reads("current_color"), says="the current colour",
      doc="The colour to match: the last coloured card's, or the one last named.")


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


field("dealer", "player", Reads("dealer"), says="the dealer",
      doc="This round's dealer.")


field("players", "players", Reads("seats_from", at="player", call=True), says="the players",
      doc="Every player still in the round, in turn order, starting with `player`.")


@name("players", says="{player:poss} opponents")
def opponents(g: Game, e: Env) -> list[int]:
    """Every player but `player` still in the round, in turn order from `next`; with
    `teams:`, only the players of the other teams (`others(player)` gives partners too)."""
    p = e["player"]
    if g.out or g.team_of is not None:
        return [q for q in g.in_order(p) if g.team(q) != g.team(p)]
    d, n = g.direction, g.n
    return [(p + i * d) % n for i in range(1, n)]


@name("players", says="the players at the table, in or out")
def seats(g: Game, e: Env) -> list[int]:
    """Every player at the table, in or out, in seat order from seat 0
    (`count(seats, s -> is_out(s))`: how many are out)."""
    return list(range(g.n))


@name("int", says="the number of players")
def player_count(g: Game, e: Env) -> int:
    """How many players are in the round (all seats, less those out)."""
    return g.n - len(g.out)


field("hand", "zone", Reads("hands", at="player"), says="{player:poss} hand",
      doc="The hand of `player`.")


field("draw_pile", "zone", Reads("draw_pile"), says="the draw pile",
      doc="The face-down draw pile (its top is the last card).")


field("discard_pile", "zone", Reads("discard_pile"), says="the discard pile",
      doc="The discard pile (its top is `top`).")


field("aside", "zone", Reads("aside"), says="the cards set aside",
      doc="A set-aside area, empty at the start of each round.")


@name("str", says="the side in play")
def side(g: Game, e: Env) -> str:
    """The name of the side in play."""
    return g.variant.sides[g.side].name


@name("int", says="the number of plays made this turn")
def plays_made(g: Game, e: Env) -> int:
    """How many of the plays of `turn: plays:` the player whose turn it is has made this
    turn (0 before any, and in a variant without them)."""
    return len(g.laid)


field("direction", "int", Reads("direction"), says="the direction of play",
      doc="1 while play goes clockwise (left), -1 after an odd number of reverses.")


field("penalty", "int", Reads("penalty"), says="the waiting penalty",
      doc="The total of a stackable draw waiting for the next player (0 if none).")


field("round_number", "int", Reads("round"), says="the round number",
      doc="The number of the round being played, from 1.")


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
