"""Decisions the engine puts to players, and the typed actions that answer them."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from .cards import Card

DecisionKind = Literal["turn", "drawn", "color", "player", "card", "ask"]


class Play(NamedTuple):
    """Play this card from hand. (A tuple: comparing two plays compares their
    cards by identity, in C, which keeps `apply`'s legality check cheap.)"""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card.label}"


class _Word:
    """A one-word action; each word exists once, so identity is equality."""

    __slots__ = ("word",)

    def __init__(self, word: str) -> None:
        self.word = word

    def __str__(self) -> str:
        return self.word

    __repr__ = __str__

    def __reduce__(self) -> str:
        return self.word.upper()  # pickles as the module's constant: still the same object


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
