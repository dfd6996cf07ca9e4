"""What one player can see at the table: no more than a person would.

A player sees their own hand, the whole discard pile, the size of the draw pile
and of every hand, the zones the variant declares as their `shows:` allows, scores
and flags, the cards of other hands that were shown to everyone (reveal), and, with
two-faced cards, the faces that point outwards: the backs of opponents' cards and of
the draw pile's top card. `Game.view(player)` builds a PlayerView.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class OpponentView:
    seat: int
    hand_size: int
    backs: tuple[str, ...]  # other faces of their cards, sorted (empty for one-sided decks)
    score: int
    flags: frozenset[str]
    shown: tuple[str, ...] = ()  # cards of their hand everyone has seen (reveal), sorted


@dataclass(frozen=True, slots=True)
class ZoneView:
    """A zone of `zones:` as one player sees it: its cards (bottom to top, or a row from
    its first), or None when they may not see them (face down, or another's), and its size;
    and what was said of each card it shows (`said`: a value a card was given where it
    lies, by name_number or name_color: "7", "red", "red 7"; "" for a card given none),
    in the order of `cards`, None when `cards` is."""

    name: str
    seat: int | None  # the player whose zone it is (None: the table's)
    cards: tuple[str, ...] | None
    size: int
    said: tuple[str, ...] | None = None

    def labels(self) -> tuple[str, ...] | None:
        """Its cards as a person reads them: each label, with what was said of it in
        brackets ("LABEL (7)"); None when they may not be seen."""
        if self.cards is None or not self.said:
            return self.cards
        return tuple(f"{label} ({said})" if said else label for label, said in zip(self.cards, self.said, strict=True))


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
    aside: tuple[str, ...] = ()  # the set-aside cards, face up, bottom to top
    flags: frozenset[str] = frozenset()  # the player's own flags
    zones: tuple[ZoneView, ...] = ()  # the zones of `zones:`, in their order (a player's: by seat)

    @property
    def top(self) -> str | None:
        return self.discard_pile[-1] if self.discard_pile else None


def outward(card: Card) -> str | None:
    """The face a two-sided card shows to the table (its back), or None for one-sided cards."""
    return card.back.label if card.back is not None else None
