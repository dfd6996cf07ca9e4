"""Decisions the engine puts to players, and the typed actions that answer them."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, get_args

from ..lang.signature import ACTION_WORDS
from .cards import Card

DecisionKind = Literal["turn", "drawn", "jump", "color", "player", "card", "ask", "int"]


class Play(NamedTuple):
    """Play this card from hand. (A tuple: comparing two plays compares their
    cards by identity, in C, which keeps `apply`'s legality check cheap.)"""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card.label}"


class Lay(NamedTuple):
    """Make the declared play `way` (`turn: plays:`): `cards` from hand, in this order,
    onto `target` (the top of a pile, or a card of a row)."""

    way: str
    cards: tuple[Card, ...]
    target: Card

    def __str__(self) -> str:
        return f"{self.way}: {' + '.join(c.label for c in self.cards)} on {self.target.label}"


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
Action = Play | Lay | _Word


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


class Kind(NamedTuple):
    """What a kind of decision is, for everything generic that handles decisions (the
    engine's answer check, the bots, the RL encoding, the human player's help, the lab)."""

    answers: frozenset[type]  # the exact types of its answers (a subclass or a look-alike is refused)
    plays: bool  # answered by playing a card or with an action word, as a turn is
    help: str  # what it means, for a person asked it


_PLAYS = frozenset({Play, Lay, _Word})

# Every kind of decision, once. A new kind is a line here, its Literal above, and the
# program or primitive that asks it (and, if it wants its own words, the narrator's line).
KINDS: dict[str, Kind] = {
    "turn": Kind(_PLAYS, True, "It is your turn: play one of the cards listed (only legal plays are listed), "
                 "or draw (with a penalty pending, 'draw' takes the whole penalty). 'pass' is offered only "
                 "when nothing else is possible."),
    "drawn": Kind(_PLAYS, True, "The card you just drew can be played: play it now, or keep it in your hand "
                  "(your turn then ends)."),
    "jump": Kind(_PLAYS, True, "You may play out of turn: play one of the cards listed on the top card (play "
                 "then goes on from you), or pass."),
    "color": Kind(frozenset({str}), False, "Name the colour the next player must match."),
    "player": Kind(frozenset({int}), False, "Pick one of the players listed; the card or rule that asks applies "
                   "to them."),
    "card": Kind(frozenset({Card}), False, "Pick one of the cards listed (from the cards shown, usually your "
                 "hand)."),
    "ask": Kind(frozenset({bool}), False, "A yes-or-no question: answer yes or no."),
    # (named after its answer's type, as color, player and card are; the word number names a card kind)
    "int": Kind(frozenset({int}), False, "Pick a whole number from the range shown, both ends included "
                "(the number itself, not its place in a list)."),
}
assert tuple(KINDS) == get_args(DecisionKind)
PLAY_KINDS = frozenset(k for k, kind in KINDS.items() if kind.plays)

# What an answer may be, by the kind of decision (read on every answer: a plain dict).
ANSWER_TYPES: dict[str, frozenset[type]] = {k: kind.answers for k, kind in KINDS.items()}


def is_answer(d: Decision, choice: Any) -> bool:
    """True if `choice` is one of `d`'s options by what it is, not only by what it
    says it equals: its exact type is an answer's for this kind of decision (a Play
    or an action word, a colour, a seat, a card, true or false, a number), and then it equals
    an option (compared by the option's own type)."""
    return type(choice) in ANSWER_TYPES[d.kind] and choice in d.options


def answer_value(choice: Any) -> Any:
    """An answer as a rule reads it (a choice's `value`): a play as its card, a declared
    play as its cards and then the card they go onto (one list, which tells the option:
    see plays.lays), an action as its word ("draw", "keep", "pass"), a colour, seat, card,
    yes/no or number as itself."""
    kind = type(choice)
    if kind is Play:
        return choice.card
    if kind is _Word:
        return choice.word
    if kind is Lay:
        return [*choice.cards, choice.target]
    return choice


def encode_answer(choice: Any) -> Any:
    """An answer as plain data: a played or chosen card by its id, an action by its
    word, a declared play as [its name, its cards' ids, its target's id], a colour,
    seat, yes/no or number as itself. (Unambiguous within one decision.)"""
    kind = type(choice)
    if kind is Play:
        return choice.card.id
    if kind is Card:
        return choice.id
    if kind is _Word:
        return choice.word
    if kind is Lay:  # the play's name, its cards' ids in order, the target's id
        return [choice.way, [c.id for c in choice.cards], choice.target.id]
    return choice


def decode_answer(d: Decision, data: Any) -> Any:
    """The option of `d` that `data` encodes (see encode_answer); `data` itself when
    none does (apply then refuses it)."""
    for option in d.options:
        if type(encode_answer(option)) is type(data) and encode_answer(option) == data:
            return option
    return data
