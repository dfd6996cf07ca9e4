"""Decisions the engine puts to players, and the typed actions that answer them."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from ..lang.signature import ACTION_WORDS
from .cards import Card

DecisionKind = Literal["turn", "drawn", "jump", "color", "player", "card", "ask"]


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


DRAW, KEEP, PASS = (_Word(w) for w in ACTION_WORDS)  # draw (or take the penalty); keep the card drawn; pass
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


# What an answer may be, by the kind of decision: its exact type (a subclass or a
# look-alike is refused), before it is compared with the options.
ANSWER_TYPES: dict[str, frozenset[type]] = {
    "turn": frozenset({Play, _Word}), "drawn": frozenset({Play, _Word}), "jump": frozenset({Play, _Word}),
    "color": frozenset({str}),
    "player": frozenset({int}), "card": frozenset({Card}), "ask": frozenset({bool}),
}


def is_answer(d: Decision, choice: Any) -> bool:
    """True if `choice` is one of `d`'s options by what it is, not only by what it
    says it equals: its exact type is an answer's for this kind of decision (a Play
    or an action word, a colour, a seat, a card, true or false), and then it equals
    an option (compared by the option's own type)."""
    return type(choice) in ANSWER_TYPES[d.kind] and choice in d.options


def answer_value(choice: Any) -> Any:
    """An answer as a rule reads it (a choice's `value`): a play as its card, an action
    as its word ("draw", "keep", "pass"), a colour, seat, card or yes/no as itself."""
    kind = type(choice)
    if kind is Play:
        return choice.card
    if kind is _Word:
        return choice.word
    return choice


def encode_answer(choice: Any) -> Any:
    """An answer as plain data: a played or chosen card by its id, an action by its
    word, a colour, seat or yes/no as itself. (Unambiguous within one decision.)"""
    kind = type(choice)
    if kind is Play:
        return choice.card.id
    if kind is Card:
        return choice.id
    if kind is _Word:
        return choice.word
    return choice


def decode_answer(d: Decision, data: Any) -> Any:
    """The option of `d` that `data` encodes (see encode_answer); `data` itself when
    none does (apply then refuses it)."""
    for option in d.options:
        if type(encode_answer(option)) is type(data) and encode_answer(option) == data:
            return option
    return data
