"""Decisions the engine puts to players, and the typed actions that answer them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from .cards import Card

DecisionKind = Literal["turn", "drawn", "color", "player", "card", "ask"]


@dataclass(frozen=True, slots=True)
class Play:
    """Play this card from hand."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card.label}"


@dataclass(frozen=True, slots=True)
class _Word:
    word: str

    def __str__(self) -> str:
        return self.word

    __repr__ = __str__


DRAW = _Word("draw")  # draw (or take the pending penalty)
KEEP = _Word("keep")  # keep the card just drawn
PASS = _Word("pass")  # nothing else is possible
Action = Play | _Word


class Decision(NamedTuple):
    """A question for one player: pick one of `options` (immutable; cheap to make)."""

    player: int
    kind: DecisionKind
    options: tuple[Any, ...]
    prompt: str = ""
    about: Card | None = None

    def __str__(self) -> str:
        what = f" ({self.prompt})" if self.prompt else ""
        return f"player {self.player} chooses a {self.kind}{what}"
