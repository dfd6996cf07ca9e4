"""`analyze()`: the balance lab as a library call. It runs the passes in order —
train the evaluator, the rounds, whole games, restricted play, the ladder — each as
a seeded batch (batch.py) in this process, in worker processes or on a dask
cluster, and returns an Analysis whose figures (figures.py) do not depend on how
the batches were split.

    a = analyze("house.yaml", players=4, agents=["greedy"], budget=Budget(rounds=2_000), seed=1)
    print(figures(a)["first_seat_advantage"].ci95)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import UnoDslError
from ...model import Variant
from ..batch import Executor, run_chunks
from ..cluster import Cluster
from ..seating import Setup
from ..simulate import batch_variant, check_agents, table_size
from ..tally import Tally
from .coverage import deck_kinds, possible_decisions
from .evaluator import Counts, Evaluator
from .passes import (
    EXPLORE_STREAM,
    GAMES_STREAM,
    LADDER_STREAM,
    TRAIN_STREAM,
    GamesPart,
    LadderJob,
    Offset,
    PowerJob,
    RoundsJob,
    RoundsPart,
    explore_chunk,
    games_chunk,
    ladder_chunk,
    offset_chunk,
    power_chunk,
    rounds_chunk,
    stream,
    train_chunk,
)
from .result import LADDER, Analysis, Rung
from .watch import LabTally

Progress = Callable[[str, int], Callable[[int], None] | None]


class AnalyzeError(UnoDslError):
    """A lab run that cannot start: no rounds, an unknown agent, a table the variant does not allow."""


@dataclass(frozen=True)
class Budget:
    """How much each pass plays. `train` None: half the rounds, at least 200; `power` None:
    as many as the rounds; `explore` None: half the rounds; 0 skips a pass. The ladder
    runs only when `ladder` is true."""

    rounds: int = 1_000
    games: int = 100
    train: int | None = None
    power: int | None = None
    ladder: bool = False
    ladder_rounds: int = 100
    rungs: tuple[str, ...] = LADDER
    explore: int | None = None

    @property
    def explore_rounds(self) -> int:
        """Rounds whose agents try every answer (coverage); None: half the rounds."""
        return max(1, self.rounds // 2) if self.explore is None else self.explore

    @property
    def train_rounds(self) -> int:
        return max(200, self.rounds // 2) if self.train is None else self.train

    @property
    def power_rounds(self) -> int:
        return self.rounds if self.power is None else self.power


def analyze(variant: str | Path | Variant, *, players: int | None = None, agents: Sequence[str] = ("greedy",),
            seed: int = 0, options: Mapping[str, bool | int | str] | None = None, budget: Budget | None = None,
            workers: int = 1, cluster: Cluster | str | None = None, max_turns: int = 5_000,
            progress: Progress | None = None) -> Analysis:
    """Analyse a variant (a path, a shipped name or a loaded Variant with its options).

    `agents` are cycled to fill the table, which turns one seat per round as
    `simulate` turns it. `workers` > 1 plays in that many spawned processes (0: one
    per CPU); `cluster` on a dask cluster (a Cluster, or an address or "local").
    The figures are the same either way. `progress(pass, total)` gives a callback
    that is told as rounds of that pass end."""
    budget = budget or Budget()
    if budget.rounds < 1:
        raise AnalyzeError("analyse at least one round (--rounds)")
    for name, value in (("games", budget.games), ("power rounds", budget.power_rounds),
                        ("exploring rounds", budget.explore_rounds),
                        ("training rounds", budget.train_rounds), ("ladder rounds", budget.ladder_rounds)):
        if value < 0:
            raise AnalyzeError(f"{name} cannot be negative, not {value}")
    if budget.train_rounds < 1:
        raise AnalyzeError("the evaluator needs at least one training round")
    check_agents(agents)
    if budget.ladder:
        check_agents(budget.rungs)
    loaded, setup = prepare(variant, players, agents, seed, options, max_turns)
    n = setup.players
    if isinstance(cluster, str):
        with Cluster(cluster, workers=workers) as opened:
            return analyze(loaded, players=n, agents=agents, seed=seed, budget=budget, cluster=opened,
                           max_turns=max_turns, progress=progress)
    runner = Runner(workers, cluster, progress)
    timing: dict[str, float] = {}

    start = time.perf_counter()
    evaluator = train(runner, setup, budget.train_rounds)
    timing["train"] = time.perf_counter() - start

    start = time.perf_counter()
    part = RoundsPart(Tally(n), LabTally(n))
    runner.run("rounds", rounds_chunk, RoundsJob(setup, evaluator), budget.rounds, part.merge,
               lambda p: p.sim.games)
    timing["rounds"] = time.perf_counter() - start

    explored = None
    if budget.explore_rounds:
        start = time.perf_counter()
        explored = RoundsPart(Tally(n), LabTally(n))
        runner.run("exploring every answer", explore_chunk, _with(setup, seed=stream(seed, EXPLORE_STREAM)),
                   budget.explore_rounds, explored.merge, lambda p: p.sim.games)
        timing["explore"] = time.perf_counter() - start

    games = None
    if budget.games:
        start = time.perf_counter()
        games = GamesPart(Tally(n), Counter())
        runner.run("games", games_chunk, _with(setup, seed=stream(seed, GAMES_STREAM), rounds_only=False),
                   budget.games, games.merge, lambda g: g.sim.games)
        timing["games"] = time.perf_counter() - start

    kinds = tuple(deck_kinds(loaded))
    power: Counter[str] | None = None
    if budget.power_rounds and kinds:
        start = time.perf_counter()
        power = tally = Counter[str]()
        runner.run("card power", power_chunk, PowerJob(setup, kinds), budget.power_rounds, tally.update,
                   lambda c: sum(c[f"{kinds[0]}|avoid|{k}"] for k in ("00", "01", "10", "11"))
                   + c["baseline failed"], most=10)
        timing["power"] = time.perf_counter() - start

    ladder: list[Rung] = []
    if budget.ladder:
        start = time.perf_counter()
        ladder = _ladder(runner, setup, loaded, n, budget)
        timing["ladder"] = time.perf_counter() - start

    a = assemble(loaded, setup, budget.rounds, part, evaluator, runner.workers)
    a.games, a.game_count = games, budget.games if games is not None else 0
    a.explored = explored
    a.power, a.power_rounds = power, budget.power_rounds if power is not None else 0
    a.ladder, a.ladder_rounds = ladder, budget.ladder_rounds if budget.ladder else 0
    a.timing = timing
    return a


def prepare(variant: str | Path | Variant, players: int | None, agents: Sequence[str], seed: int,
            options: Mapping[str, bool | int | str] | None, max_turns: int) -> tuple[Variant, Setup]:
    """The variant loaded with its options, and the rounds pass's set-up (the table checked)."""
    loaded, path = batch_variant(variant, options)
    n = table_size(loaded, players)
    chosen = tuple(sorted((o.name, o.value) for o in loaded.options))
    return loaded, Setup(path, chosen, n, tuple(agents), seed, max_turns, rounds_only=True)


def train(runner: Runner, setup: Setup, rounds: int) -> Evaluator:
    """The fair-information evaluator, fitted on `rounds` rounds of its own seeds."""
    counts = Counts()
    runner.run("training the evaluator", train_chunk, _with(setup, seed=stream(setup.seed, TRAIN_STREAM)),
               rounds, counts.merge, lambda c: c.rounds)
    return Evaluator(counts, setup.players)


def assemble(loaded: Variant, setup: Setup, rounds: int, part: RoundsPart, evaluator: Evaluator,
             workers: int) -> Analysis:
    """An Analysis of the rounds pass (the other passes are added by the caller)."""
    return Analysis(
        name=loaded.name, file=setup.variant, options_on=tuple(o.label for o in loaded.options if o.is_set),
        players=setup.players, agents=setup.table, seed=setup.seed, rounds=rounds, design=dict(loaded.design),
        teams=loaded.teams is not None, kinds=tuple(deck_kinds(loaded)), decisions=possible_decisions(loaded),
        sim=part.sim, lab=part.lab, evaluator=evaluator, workers=workers, variant=loaded)


def growing(variants: Sequence[tuple[str | Path | Variant, Mapping[str, bool | int | str] | None]], *,
            players: int | None, agents: Sequence[str], seed: int, step: int, most: int, train_rounds: int,
            workers: int = 1, cluster: Cluster | None = None, max_turns: int = 5_000,
            progress: Progress | None = None) -> Iterator[tuple[int, list[Analysis]]]:
    """The rounds pass of several variants on the same seeds, `step` rounds at a time up to
    `most`: after each step, (rounds so far, an Analysis of each). For the sequential test."""
    if step < 1 or most < 1:
        raise AnalyzeError("the sequential test needs at least one round per step")
    check_agents(agents)
    runner = Runner(workers, cluster, progress)
    runs = []
    for variant, options in variants:
        loaded, setup = prepare(variant, players, agents, seed, options, max_turns)
        runs.append((loaded, setup, train(runner, setup, train_rounds),
                     RoundsPart(Tally(setup.players), LabTally(setup.players))))
    done = 0
    while done < most:
        size = min(step, most - done)
        for loaded, setup, evaluator, part in runs:
            job = Offset(rounds_chunk, RoundsJob(setup, evaluator), done)
            runner.run(f"{loaded.name}: rounds {done + 1:,}–{done + size:,}", offset_chunk, job, size, part.merge,
                       lambda p: p.sim.games)
        done += size
        yield done, [assemble(v, s, done, p, e, runner.workers) for v, s, e, p in runs]


def _with(setup: Setup, **changes: Any) -> Setup:
    return dataclasses.replace(setup, **changes)


def _ladder(runner: Runner, setup: Setup, variant: Variant, n: int, budget: Budget) -> list[Rung]:
    """Each rung against the one below, heads-up (when the variant allows two) and at the table."""
    rungs = budget.rungs
    sizes = list(dict.fromkeys(p for p in (2, n) if variant.min_players <= p <= variant.max_players))
    base = _with(setup, seed=stream(setup.seed, LADDER_STREAM))
    out = []
    for lower, upper in itertools.pairwise(rungs):
        for size in sizes:
            counts: Counter[str] = Counter()
            job = LadderJob(base, size, lower, upper)
            start = time.perf_counter()
            runner.run(f"ladder {upper} > {lower}, {size} players", ladder_chunk, job, budget.ladder_rounds,
                       counts.update, lambda c: c["rounds"], most=5)
            out.append(Rung(lower, upper, size, counts, time.perf_counter() - start))
    return out


class Runner:
    """Runs one pass's batch with its progress bar."""

    def __init__(self, workers: int, cluster: Cluster | Executor | None, progress: Progress | None) -> None:
        if cluster is not None:
            workers = cluster.workers
        elif workers == 0:
            workers = os.cpu_count() or 1
        self.workers, self.cluster, self.progress = max(1, workers), cluster, progress

    def run(self, name: str, fn: Callable[[Any, int, int], Any], job: Any, count: int,
            merge: Callable[[Any], None], size: Callable[[Any], int], most: int = 50) -> None:
        tick = self.progress(name, count) if self.progress is not None else None

        def take(part: Any) -> None:
            merge(part)
            if tick is not None:
                tick(size(part))

        workers = max(1, min(self.workers, math.ceil(count / 2)))
        run_chunks(fn, job, count, take, workers=workers, cluster=self.cluster, most=most)
