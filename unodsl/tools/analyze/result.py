"""What a lab run keeps: the set-up, and the tallies of each pass (figures.py turns them into figures)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..tally import Tally
from .evaluator import Evaluator
from .passes import GamesPart, RoundsPart
from .watch import LabTally

LADDER = ("random", "greedy", "expert", "ismcts:iterations=30", "ismcts:iterations=150")


@dataclass
class Rung:
    """One step of the skill ladder: `upper` in one seat against `lower` in the others."""

    lower: str
    upper: str
    players: int
    counts: Counter[str]
    seconds: float = 0.0  # wall time of its rounds


@dataclass
class Analysis:
    """A lab run: what was played and everything counted (see figures.figures and figures.report)."""

    name: str
    file: str
    options_on: tuple[str, ...]
    players: int
    agents: tuple[str, ...]
    seed: int
    rounds: int
    design: Mapping[str, tuple[float, float]]
    teams: bool
    kinds: tuple[str, ...]
    decisions: list[str]
    sim: Tally
    lab: LabTally
    evaluator: Evaluator
    games: GamesPart | None = None
    explored: RoundsPart | None = None  # the rounds of agents trying every answer (coverage)
    game_count: int = 0
    power: Counter[str] | None = None
    power_rounds: int = 0
    ladder: list[Rung] = field(default_factory=list)
    ladder_rounds: int = 0
    timing: dict[str, float] = field(default_factory=dict)
    workers: int = 1
    variant: Any = None  # the loaded Variant (not in the JSON)
