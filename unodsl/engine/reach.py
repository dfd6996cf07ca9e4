"""What the language's primitives reach of a game: a small, named interface.

`Game` here is the members of a game the primitives read and change — the zones and the
seats, what is pending (penalty, skips, the colour), the table's operations (play, draw,
shuffle, reveal, scoring) and the machine's (emit, run, call) — and nothing else: not
engine/game.py's public contract (decision, apply, clone …), which stands above the
primitives and is imported by none of them. A primitive that needs more adds it here,
in one line, where a reader sees all a primitive may touch. engine/game.py checks that
the game it makes fits (mypy: `_fits`). The few engine objects an effect gives or runs
(PAUSED, a decision, the jump-in offer) come from here too: a primitive module imports
the engine's value types (cards, actions) and this module, nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from typing import Any, Protocol

from ..lang.program import Lambda, Program
from ..model import Variant
from .cards import Card
from .flow import JUMP_IN
from .machine import PAUSED, decision
from .table import playable as _playable

Env = dict[str, Any]


class Game(Protocol):
    """A game as the primitives see it."""

    # what the variant is, and the cards of the side in play
    variant: Variant
    cards: list[Card]
    side: int
    n: int
    team_of: tuple[int, ...] | None
    # the zones
    draw_pile: list[Card]
    discard_pile: list[Card]
    aside: list[Card]
    hands: list[list[Card]]
    flags: list[set[str]]
    scores: list[int]
    # the seats and what the turn will do
    current: int
    dealer: int
    direction: int
    out: frozenset[int]
    laid: tuple[int | str, ...]
    places: dict[str, list[Card]]
    seat_places: dict[str, list[list[Card]]]
    named: dict[tuple[str, int], tuple[Any, str]]
    bent: bool
    skips: int
    again: bool
    next_override: int | None
    # what is pending
    current_color: str | None
    previous_top: Card | None
    penalty: int
    penalty_answer: Lambda | None

    @property
    def rng(self) -> Random: ...

    # -- the table's operations (table.py) --
    def play(self, p: int, card: Card, effect: bool = True) -> bool: ...

    def draw(self, p: int, count: int) -> list[Card]: ...

    def playable(self, card: Card, by: int) -> bool: ...

    def refill(self) -> None: ...

    def shuffle(self, zone: list[Card]) -> None: ...

    def turn_over(self, side: int) -> None: ...

    def zones(self) -> dict[str, list[Card]]: ...

    def zone_name(self, zone: list[Card]) -> str: ...

    def room(self, zone: list[Card]) -> int | None: ...

    def took_from_hand(self, p: int) -> None: ...

    def reveal(self, card: Card, holder: int | None) -> None: ...

    def hands_moved(self, to: Mapping[int, int | None]) -> None: ...

    def seated(self, p: int) -> bool: ...

    def next_in(self, p: int, step: int = 1, direction: int | None = None) -> int: ...

    def in_order(self, p: int, direction: int | None = None) -> list[int]: ...

    def team(self, p: int) -> int: ...

    def put_out(self, p: int, for_game: bool = False) -> None: ...

    def win_round(self, p: int) -> None: ...

    def add_score(self, p: int, points: int) -> None: ...

    # -- the machine's (machine.py) --
    def watching(self, name: str) -> bool: ...

    def emit(self, name: str, data: dict[str, Any]) -> None: ...

    def run(self, program: Program, env: Env) -> bool: ...

    def call(self, fn: Lambda | Callable[[Any], Any], value: Any) -> Any: ...


# The table's own legality test is the language's `playable` (one text: a template).
playable: Callable[[Game, Card, int], bool] = _playable

# And what an effect gives or runs: PAUSED (it started a program that waits for a player),
# a decision to put, the jump-in offer (a program of the flow).
__all__ = ["JUMP_IN", "PAUSED", "Env", "Game", "decision", "playable"]
