"""What one seat (or a spectator) knows of a game now: the only input a frame is made of.

`knowledge(game, seat)` is the one place the web table reads a game for a page. It
takes `Game.observation(seat)` (engine/view.py: its own hand, the public piles, the
others' sizes, scores, flags and backs, the zones of `zones:` as it sees them), the
seat's own pending decision, and facts everyone sees (whose turn it is, who is out,
the round, the winner). Its result holds no other hand, no draw pile order, no seed,
no card of a face-down zone or of another player's, and not the backs of the seat's
own cards (the others see those, the seat does not). frames.py turns it into JSON and
never sees a Game; tests/web/test_secrets.py checks that resampling what the seat
cannot know changes no byte of its frames.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import Decision, Play
from ..engine.game import Game
from ..engine.view import OpponentView, PlayerView, ZoneView

SHOWN_DISCARDS = 6  # the top cards of the discard pile a page shows


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A card of the seat's own hand, as the seat sees it: its face, never its back."""

    label: str
    color: str
    wild: bool
    option: int | None  # the option of the seat's decision that plays it (None: not playable now)


@dataclass(frozen=True, slots=True)
class SeenSeat:
    """A seat as this page sees it (its own seat: without the backs only the others see)."""

    seat: int
    size: int
    score: int
    backs: tuple[str, ...]
    flags: tuple[str, ...]
    shown: tuple[str, ...]  # cards of the hand shown to everyone
    out: bool  # out of the round (eliminated)


@dataclass(frozen=True, slots=True)
class SeenZone:
    """A zone of `zones:` as this page sees it: its cards (a row's all, a pile's top), or
    None when the seat may not see them (face down, or another player's), and its size."""

    name: str
    seat: int | None  # the player whose zone it is (None: the table's)
    row: bool
    cards: tuple[str, ...] | None
    size: int
    about: str  # its description in the variant file (text, never markup)
    said: tuple[str, ...] | None = None  # what was said of each card (ZoneView.said), in the order of `cards`


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What `seat` (None: a spectator) knows of the game now."""

    seat: int | None
    seats: tuple[SeenSeat, ...]
    hand: tuple[SeenCard, ...]  # sorted; empty for a spectator
    decision: Decision | None  # the seat's own pending decision
    top: str | None
    discards: tuple[str, ...]  # the top few of the discard pile, bottom to top
    color: str | None
    side: str
    direction: int
    draw_pile: int
    draw_back: str | None
    aside: tuple[str, ...]
    penalty: int
    dealer: int
    current: int
    turn: int | None  # whose turn it is (a turn is public; any other question is not)
    deciding: bool  # someone is answering a question that is not a turn
    round: int
    turns: int
    over: bool
    winner: int | None
    two_sided: bool
    zones: tuple[SeenZone, ...] = ()


def knowledge(game: Game, seat: int | None) -> Knowledge:
    """What `seat` (None: a spectator) knows of `game` now."""
    view = game.observation(0 if seat is None else seat)
    others = {o.seat: o for o in view.opponents}
    if seat is None:  # a spectator sees every seat from outside: seat 0 as seat 1 sees it
        others[0] = game.observation(1).opponents[0] if game.n > 1 else _outside(view)
    out = game.out
    seats = tuple(_seen(others[p], p in out) if p != seat else _own(view, p in out) for p in range(game.n))
    d = game.decision
    mine = d if d is not None and seat is not None and d.player == seat else None
    hand = () if seat is None else _hand(view, mine)
    return Knowledge(
        seat=seat, seats=seats, hand=hand, decision=mine, top=view.top,
        discards=view.discard_pile[-SHOWN_DISCARDS:], color=view.current_color, side=view.side,
        direction=view.direction, draw_pile=view.draw_pile_size, draw_back=view.draw_pile_back,
        aside=view.aside, penalty=view.penalty, dealer=view.dealer, current=view.current,
        turn=d.player if d is not None and d.kind == "turn" else None,
        deciding=d is not None and d.kind != "turn", round=game.round, turns=game.turns,
        over=game.over, winner=game.winner,
        two_sided=view.draw_pile_back is not None or any(o.backs for o in others.values()),
        zones=_zones(game, view, seat))


def _zones(game: Game, view: PlayerView, seat: int | None) -> tuple[SeenZone, ...]:
    """The zones of `zones:` as `seat` sees them; a spectator sees seat 0's own zones as
    seat 1 does (from outside), the rest as everyone does."""
    if not view.zones:
        return ()
    seen = view.zones
    if seat is None:
        outside = {(z.name, z.seat): z for z in game.observation(1).zones} if game.n > 1 else {}
        seen = tuple(outside.get((z.name, z.seat), ZoneView(z.name, z.seat, None, z.size)) if z.seat == 0 else z
                     for z in seen)
    declared = {z.name: z for z in game.variant.zones}
    out = []
    for z in seen:
        d = declared[z.name]
        cards, said = (z.cards, z.said) if z.cards is None or d.shape == "row" else (z.cards[-1:], (z.said or ())[-1:])
        out.append(SeenZone(z.name, z.seat, d.shape == "row", cards, z.size, d.description, said))
    return tuple(out)


def _seen(o: OpponentView, out: bool) -> SeenSeat:
    return SeenSeat(o.seat, o.hand_size, o.score, o.backs, tuple(sorted(o.flags)), o.shown, out)


def _own(view: PlayerView, out: bool) -> SeenSeat:
    p = view.player
    return SeenSeat(p, len(view.hand), view.scores[p], (), tuple(sorted(view.flags)), (), out)


def _outside(view: PlayerView) -> OpponentView:
    """A table of one, as a spectator sees it: sizes and scores (its backs face its player)."""
    backs = tuple(sorted(c.back.label for c in view.hand if c.back is not None))
    return OpponentView(view.player, len(view.hand), backs, view.scores[view.player], view.flags)


def _hand(view: PlayerView, mine: Decision | None) -> tuple[SeenCard, ...]:
    plays: dict[int, int] = {}
    if mine is not None:
        for i, option in enumerate(mine.options):
            if type(option) is Play:
                plays.setdefault(option.card.id, i)
    cards = sorted(view.hand, key=lambda c: (c.color is None, c.color or "", c.rank is None, c.rank or 0, c.label))
    return tuple(SeenCard(c.label, c.color or "", c.wild, plays.get(c.id)) for c in cards)
