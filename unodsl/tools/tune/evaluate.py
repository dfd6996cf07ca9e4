"""One candidate, measured until its targets are settled: the balance lab's passes
(tools/analyze/) played a step at a time on the same seeds, the figures after each step
judged against the targets, and more rounds played only while some verdict is unsettled.

A bound is *settled* when the figure's 95% interval lies wholly inside it (the figure
meets it) or wholly outside (misses it); otherwise it is *unsettled*. A goal (as low or
high as possible) is measured with the whole budget. Only the passes the targets need are
played: the main rounds always, the whole games for a game figure, restricted play for
card power, a full evaluator for tension.

Every candidate is played on the same seeds (common random numbers), so differences
between candidates are differences of the rules, not of the deal.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ...model import Target, Variant
from ...variant.design import figure_pass
from ...variant.load import load_variant
from ..analyze.coverage import deck_kinds
from ..analyze.estimates import Figure
from ..analyze.figures import figures
from ..analyze.lab import Runner, assemble, train
from ..analyze.passes import (
    GAMES_STREAM,
    GamesPart,
    Offset,
    PowerJob,
    RoundsJob,
    RoundsPart,
    games_chunk,
    offset_chunk,
    power_chunk,
    rounds_chunk,
    stream,
)
from ..analyze.watch import LabTally
from ..seating import Setup
from ..simulate import batch_variant, table_size
from ..tally import Tally
from . import words

Verdict = Literal["meets", "misses", "unsettled"]


@dataclass(frozen=True)
class Effort:
    """How much a candidate is played: `step` rounds at a time up to `most`; whole games
    (when a target needs them) a tenth as many; `train` rounds fit the evaluator when a
    tension figure is a target (else a few)."""

    step: int = 200
    most: int = 1_000
    train: int = 200
    max_turns: int = 5_000

    @property
    def games_step(self) -> int:
        return max(10, self.step // 10)


@dataclass(frozen=True)
class Judged:
    """A target and where its figure stands."""

    target: Target
    value: float | None
    ci95: tuple[float, float] | None
    verdict: Verdict
    objective: float | None  # minimised: how far outside the bound (negative: how far inside), or the goal
    percent: bool = False    # the figure is a share (or a difference of shares): shown as a percentage

    def as_dict(self) -> dict[str, Any]:
        d = {"figure": self.target.figure, "target": "", "min": self.target.min, "max": self.target.max,
             "goal": self.target.goal, "value": _r(self.value),
             "ci95": None if self.ci95 is None else [_r(x) for x in self.ci95], "verdict": self.verdict,
             "objective": _r(self.objective), "percent": self.percent}
        d["target"] = words.target(d)  # in the figure's units, as the terminal and the page say it
        return d


def judge(t: Target, f: Figure | None) -> Judged:
    """Target `t` against figure `f`."""
    if f is None or f.value is None:
        return Judged(t, None, None, "unsettled", None, f is not None and f.percent)
    v, ci = f.value, f.ci95
    if t.goal is not None:
        return Judged(t, v, ci, "unsettled", v if t.goal == "lowest" else -v, f.percent)
    margins = [m for m in ((t.min - v) if t.min is not None else None,
                           (v - t.max) if t.max is not None else None) if m is not None]
    return Judged(t, v, ci, t.verdict(ci), max(margins), f.percent)


def passes(targets: tuple[Target, ...], kinds: tuple[str, ...], players: int) -> set[str]:
    """The lab passes the targets' figures need."""
    return {figure_pass(t.figure, kinds, players) or "rounds" for t in targets}


@dataclass
class Measured:
    """A candidate's figures, judged: what `evaluate` returns."""

    judged: list[Judged]
    rounds: int
    games: int
    figures: dict[str, Figure]

    @property
    def meets(self) -> int:
        """Targets whose whole interval meets them."""
        return sum(j.verdict == "meets" for j in self.judged)

    @property
    def meets_by_value(self) -> int:
        """Targets whose value meets them (bounds only)."""
        return sum(j.objective is not None and j.target.goal is None and j.objective <= 0 for j in self.judged)


def evaluate(path: Path, targets: tuple[Target, ...], *, players: int, agents: tuple[str, ...], seed: int,
             effort: Effort, runner: Runner, allow: tuple[str, ...] = (), variant: Variant | None = None) -> Measured:
    """Play candidate `path` (an overlay file) step by step until every target is settled
    or `effort.most` rounds are played; its figures and verdicts."""
    loaded = variant or load_variant(path, allow=allow)
    loaded, file = batch_variant(loaded)
    n = table_size(loaded, players)
    setup = Setup(file, (), n, agents, seed, effort.max_turns, rounds_only=True, allow=allow)
    kinds = tuple(deck_kinds(loaded))
    need = passes(targets, kinds, n)
    evaluator = train(runner, dataclasses.replace(setup), effort.train if "tension" in need else 20)
    part = RoundsPart(Tally(n), LabTally(n))
    games = GamesPart(Tally(n), Counter()) if "games" in need else None
    games_setup = dataclasses.replace(setup, seed=stream(seed, GAMES_STREAM), rounds_only=False)
    power: Counter[str] | None = Counter() if "power" in need and kinds else None
    done = done_games = 0
    while True:
        size = min(effort.step, effort.most - done)
        runner.run("rounds", offset_chunk, Offset(rounds_chunk, RoundsJob(setup, evaluator), done), size,
                   part.merge, lambda p: p.sim.games)
        if games is not None:
            gsize = effort.games_step
            runner.run("games", offset_chunk, Offset(games_chunk, games_setup, done_games), gsize, games.merge,
                       lambda g: g.sim.games)
            done_games += gsize
        if power is not None:
            runner.run("card power", offset_chunk, Offset(power_chunk, PowerJob(setup, kinds), done), size,
                       power.update, lambda c: 1, most=10)
        done += size
        a = assemble(loaded, setup, done, part, evaluator, runner.workers)
        a.games, a.game_count = games, done_games
        a.power, a.power_rounds = power, done if power is not None else 0
        figs = figures(a)
        judged = [judge(t, figs.get(t.figure)) for t in targets]
        if done >= effort.most or all(j.verdict != "unsettled" for j in judged):
            return Measured(judged, done, done_games, figs)


def _r(x: float | None) -> float | None:
    if x is None or math.isnan(x) or math.isinf(x):
        return None
    return round(x, 6)
