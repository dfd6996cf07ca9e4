"""The immutable semantic model of a variant, built once by the loader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import Pos
from ..lang.program import Fn, Program

AfterDraw = Literal["may_play", "must_play", "keep"]
RoundScoring = Literal["winner_scores_others", "each_scores_own"]


@dataclass(frozen=True, slots=True)
class Face:
    """One printed face of a card."""

    kind: str
    color: str | None
    rank: int | None
    points: int
    wild: bool

    @property
    def symbol(self) -> str:
        """What a card matches besides colour: its rank, or its kind."""
        return self.kind if self.rank is None else str(self.rank)

    @property
    def label(self) -> str:
        name = self.symbol.replace("_", " ")
        return f"{self.color} {name}" if self.color else name


@dataclass(frozen=True, slots=True)
class CardKind:
    """What a kind of card does (from the `cards:` table)."""

    name: str
    points: int | Literal["rank"]
    wild: bool
    on_play: Program
    legal_if: Fn | None
    description: str = ""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of the deck: its colours and the faces printed on it."""

    name: str
    colors: tuple[str, ...]
    faces: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class DrawRule:
    count: int = 1
    until_playable: bool = False
    max: int = 10
    allowed_if: Fn | None = None
    then: AfterDraw = "may_play"


@dataclass(frozen=True, slots=True)
class TurnRules:
    match: Fn
    draw: DrawRule
    must_play_if_able: bool = False
    match_is_pure: bool = False  # reads only the card's and top's faces and current_color


@dataclass(frozen=True, slots=True)
class Scoring:
    round: RoundScoring
    target: int
    winner: Literal["highest", "lowest"]


@dataclass(frozen=True, slots=True)
class Rule:
    """A house rule: when `event` happens and `cond` holds, run `body`."""

    name: str
    event: str
    cond: Fn | None
    body: Program


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    description: str
    enabled: bool


@dataclass(frozen=True)
class Variant:
    """A checked, compiled variant: everything the engine needs, nothing else."""

    name: str
    file: str
    min_players: int
    max_players: int
    sides: tuple[Side, ...]
    pairing: Literal["in_order", "shuffled"]
    kinds: Mapping[str, CardKind]
    first_dealer: Fn | None
    next_dealer: Fn | None
    setup: Program
    turn: TurnRules
    scoring: Scoring
    rules: tuple[Rule, ...]
    options: tuple[Option, ...]
    # Where each condition stands in the file, and its text (for runtime errors).
    where: Mapping[Any, tuple[Pos, str]] = field(default_factory=dict, compare=False, repr=False)
    # Derived tables the engine builds once per variant (the card table, …).
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def deck_size(self) -> int:
        return len(self.sides[0].faces)
