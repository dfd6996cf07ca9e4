"""What one player can see at the table: no more than a person would.

A player sees their own hand, the whole discard pile, the size of the draw pile
and of every hand, scores and flags, and, with two-faced cards, the faces that
point outwards: the backs of opponents' cards and of the draw pile's top card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True)
class OpponentView:
    seat: int
    hand_size: int
    backs: tuple[str, ...]  # other faces of their cards, sorted (empty for one-sided decks)
    score: int
    flags: frozenset[str]


@dataclass(frozen=True, slots=True)
class PlayerView:
    player: int
    hand: tuple[Card, ...]
    opponents: tuple[OpponentView, ...]
    discard_pile: tuple[str, ...]  # bottom to top
    draw_pile_size: int
    draw_pile_back: str | None  # the outward face of the draw pile's top card
    current_color: str | None
    side: str
    direction: int
    current: int
    dealer: int
    penalty: int
    scores: tuple[int, ...]

    @property
    def top(self) -> str | None:
        return self.discard_pile[-1] if self.discard_pile else None


def _back(card: Card) -> str | None:
    return card.back.label if card.back is not None else None


def view(game: Game, player: int) -> PlayerView:
    """The table as `player` sees it."""
    opponents = tuple(
        OpponentView(seat=q, hand_size=len(game.hands[q]),
                     backs=tuple(sorted(b for b in map(_back, game.hands[q]) if b is not None)),
                     score=game.scores[q], flags=frozenset(game.flags[q]))
        for q in range(game.n) if q != player)
    return PlayerView(
        player=player, hand=tuple(game.hands[player]), opponents=opponents,
        discard_pile=tuple(c.label for c in game.discard_pile), draw_pile_size=len(game.draw_pile),
        draw_pile_back=_back(game.draw_pile[-1]) if game.draw_pile else None,
        current_color=game.current_color, side=game.variant.sides[game.side].name,
        direction=game.direction, current=game.current, dealer=game.dealer, penalty=game.penalty,
        scores=tuple(game.scores))
