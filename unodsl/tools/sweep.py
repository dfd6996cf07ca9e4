"""Sweeps: `simulate` over a grid of rules and tables, with every cell tested against its base.

A grid is the product of its axes: variant files, options (each switched on and
off, or a number option over values), agent line-ups and player counts. Every
cell is a whole `simulate` run on the same master seed, so it has every figure
`simulate` gives. A cell is compared with its *base cell*: the cell at the same
player count whose other axes are at their first value (the first variant,
each option's first value, the first line-up). Player counts are never
compared with each other, since a seat's fair share (1/players) differs.

    grid = Grid(variants=("base.yaml", "house.yaml"), players=(2, 3, 4), lineups=(("greedy",),))
    result = sweep(grid, 1_000, seed=1)
    for cell, run in zip(result.cells, result.runs):
        print(cell.label, first_seat(run)["advantage_pp"])
    for test in result.tests:
        print(test.cell, test.result.metric, test.result.p_holm, test.result.significant)

The tests of all cells are one family: Holm–Bonferroni corrects them together.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import UnoDslError
from ..model import Variant
from ..variant.load import load_variant
from .comparison import ALPHA, TestResult, holm, median_of, p_value, share_of
from .simulate import simulate
from .simulation import Simulation, proportion, rounded
from .stats import fisher_exact, mann_whitney, moments, two_proportions, welch_hist

Options = tuple[tuple[str, str], ...]


class GridError(UnoDslError):
    """A grid that cannot be swept (its text, or a cell no variant allows)."""


# --------------------------------------------------------------------------
# The grid


@dataclass(frozen=True)
class Cell:
    """One run of the sweep: a variant, the grid's options for it, a line-up and a table size."""

    index: int
    variant: str
    options: Options       # the gridded options of this cell, as given ("on", "off", "300")
    agents: tuple[str, ...]
    players: int

    @property
    def rules(self) -> str:
        """The variant and options, as a short label."""
        return self.variant + "".join(f" {name}={value}" for name, value in self.options)

    @property
    def label(self) -> str:
        return f"{self.rules} [{','.join(self.agents)}] {self.players}p"


@dataclass(frozen=True)
class Grid:
    """The axes of a sweep; the first value of each (but players) makes the base cells."""

    variants: tuple[str, ...]
    players: tuple[int, ...]
    lineups: tuple[tuple[str, ...], ...] = (("greedy", "random"),)
    options: tuple[tuple[str, tuple[str, ...]], ...] = ()   # gridded option → its values
    fixed: tuple[tuple[str, bool | str], ...] = ()          # -o: the same in every cell

    def __post_init__(self) -> None:
        for name, values in (("variants", self.variants), ("players", self.players),
                             ("agent line-ups", self.lineups)):
            if not values:
                raise GridError(f"a grid needs at least one of {name}")
            if len(set(values)) < len(values):
                raise GridError(f"{name} named twice in the grid: {', '.join(map(_text, _twice(values)))}")
        names = [name for name, _ in self.options]
        if len(set(names)) < len(names):
            raise GridError(f"option {', '.join(_twice(names))} gridded twice (give its values in one --grid)")
        both = sorted(set(names) & {name for name, _ in self.fixed})
        if both:
            raise GridError(f"option {', '.join(both)} is both set (-o) and gridded (--grid)")

    def cells(self) -> list[Cell]:
        """Every cell: variants, then options, then line-ups, then player counts (innermost)."""
        names = [name for name, _ in self.options]
        combos = itertools.product(self.variants, itertools.product(*(v for _, v in self.options)),
                                   self.lineups, self.players)
        return [Cell(i, variant, tuple(zip(names, values, strict=True)), agents, players)
                for i, (variant, values, agents, players) in enumerate(combos)]

    def is_base(self, cell: Cell) -> bool:
        return (cell.variant == self.variants[0] and cell.agents == self.lineups[0]
                and all(value == values[0] for (_, value), (_, values) in zip(cell.options, self.options,
                                                                              strict=True)))

    def base_of(self, cell: Cell, cells: Sequence[Cell]) -> Cell | None:
        """The cell `cell` is compared with (None for a base cell)."""
        if self.is_base(cell):
            return None
        return next(c for c in cells if c.players == cell.players and self.is_base(c))

    def as_dict(self) -> dict[str, Any]:
        return {"variants": list(self.variants), "options": {name: list(v) for name, v in self.options},
                "fixed_options": {name: value for name, value in self.fixed},
                "agents": [list(a) for a in self.lineups], "players": list(self.players)}


def _twice(values: Sequence[Any]) -> list[str]:
    return sorted({_text(v) for v in values if values.count(v) > 1})


def _text(value: Any) -> str:
    return ",".join(value) if isinstance(value, tuple) else str(value)


def parse_grid(text: str) -> tuple[str, tuple[str, ...]]:
    """`option=NAME:on,off` or `option=NAME:300,500` → (NAME, its values)."""
    usage = "use option=NAME:on,off (a switch) or option=NAME:300,500 (a number option)"
    kind, eq, rest = text.partition("=")
    if not eq:
        raise GridError(f"--grid {text!r}: {usage}")
    if kind.strip() != "option":
        hint = {"players": "; player counts are --players 2-6", "agents": "; line-ups are --agents, repeated",
                "variant": "; variants to compare are more VARIANT arguments"}.get(kind.strip(), "")
        raise GridError(f"--grid {text!r}: only options are gridded this way{hint}; {usage}")
    name, colon, values_text = rest.partition(":")
    name = name.strip()
    values = tuple(v.strip() for v in values_text.split(","))
    if not name:
        raise GridError(f"--grid {text!r}: the option's name is missing; {usage}")
    if not colon or not all(values):
        raise GridError(f"--grid {text!r}: give the values after a colon, separated by commas; {usage}")
    if len(set(values)) < len(values):
        raise GridError(f"--grid {text!r}: {', '.join(_twice(values))} given twice")
    return name, values


def parse_players(text: str) -> tuple[int, ...]:
    """`4`, `2-6` or `2,4,6` (or a mix: `2-4,6`) → the player counts, in the order given."""
    counts: list[int] = []
    for part in text.split(","):
        lo, dash, hi = part.strip().partition("-")
        try:
            first, last = int(lo), int(hi) if dash else int(lo)
        except ValueError:
            raise GridError(f"--players {text!r}: use a count (4), a range (2-6) or a list (2,4,6)") from None
        if first < 1 or last < first or last > 100:
            raise GridError(f"--players {text!r}: {part.strip()} is not a range of 1 to 100 players")
        counts.extend(range(first, last + 1))
    if len(set(counts)) < len(counts):
        raise GridError(f"--players {text!r}: {', '.join(_twice(counts))} given twice")
    return tuple(counts)


# --------------------------------------------------------------------------
# Running


@dataclass(frozen=True)
class CellTest:
    """One test of a cell against its base."""

    cell: int
    base: int
    result: TestResult


@dataclass
class Sweep:
    grid: Grid
    cells: list[Cell]
    runs: list[Simulation]
    tests: list[CellTest] = field(default_factory=list)
    alpha: float = ALPHA

    def figures(self) -> dict[str, Any]:
        """Everything, JSON-ready (`unodsl sweep --json` prints this)."""
        by_cell: dict[int, list[dict[str, Any]]] = {}
        for t in self.tests:
            by_cell.setdefault(t.cell, []).append(t.result.as_dict())
        cells = []
        for cell, run in zip(self.cells, self.runs, strict=True):
            base = self.grid.base_of(cell, self.cells)
            cells.append({"cell": cell.index, "variant": cell.variant, "options": dict(cell.options),
                          "agents": list(cell.agents), "players": cell.players,
                          "base": None if base is None else base.index, "summary": summary(run),
                          "tests": by_cell.get(cell.index, []), "figures": run.figures()})
        return {"grid": self.grid.as_dict(), "alpha": self.alpha,
                "correction": f"Holm–Bonferroni over all {self.tested} tests of the sweep",
                "base": "each cell is compared with the cell at the same player count whose other axes are at "
                        "their first value", "cells": cells}

    @property
    def tested(self) -> int:
        return sum(t.result.p is not None for t in self.tests)


def load_cells(grid: Grid, allow: Iterable[str] = ()) -> dict[tuple[str, Options], Variant]:
    """Every variant of the grid with every combination of its options, loaded and checked
    (a VariantError is raised for the first that fails), and every player count checked."""
    loaded: dict[tuple[str, Options], Variant] = {}
    for cell in grid.cells():
        key = (cell.variant, cell.options)
        if key not in loaded:
            chosen: dict[str, bool | str] = {**dict(grid.fixed), **dict(cell.options)}
            loaded[key] = load_variant(cell.variant, chosen, allow)
        v = loaded[key]
        if not v.min_players <= cell.players <= v.max_players:
            raise GridError(f"{cell.variant}: {v.name} is for {v.min_players}–{v.max_players} players, "
                            f"not {cell.players} (--players)")
    return loaded


def sweep(grid: Grid, count: int, *, seed: int = 0, rounds_only: bool = False, max_turns: int = 5_000,
          fixed_seats: bool = False, max_failures: int | None = None, agent_seed: int | None = None,
          workers: int = 1, allow: Iterable[str] = (), alpha: float = ALPHA,
          progress: Callable[[Cell], Callable[[int], None] | None] | None = None,
          **backend: Any) -> Sweep:
    """Play every cell of `grid` (`count` games, or rounds, each, on the same seeds) and test
    every cell against its base; `progress(cell)` gives the progress callback of a cell's run.
    `backend` is passed on to `simulate` (`cluster=`)."""
    loaded = load_cells(grid, allow)
    cells = grid.cells()
    runs = []
    for cell in cells:
        runs.append(simulate(loaded[cell.variant, cell.options], count, players=cell.players, agents=cell.agents,
                             seed=seed, rounds_only=rounds_only, max_turns=max_turns, fixed_seats=fixed_seats,
                             max_failures=max_failures, agent_seed=agent_seed, workers=workers,
                             progress=progress(cell) if progress else None, **backend))
    result = Sweep(grid, cells, runs, alpha=alpha)
    for cell, run in zip(cells, runs, strict=True):
        base = grid.base_of(cell, cells)
        if base is not None:
            result.tests += [CellTest(cell.index, base.index, t) for t in cell_tests(runs[base.index], run)]
    holm([t.result for t in result.tests], alpha)
    return result


# --------------------------------------------------------------------------
# Figures and tests


def first_seat(run: Simulation) -> dict[str, Any]:
    """Round wins of the player after the dealer (who plays first unless the first card
    says otherwise), and its advantage over a fair share, in percentage points."""
    t, n = run.tally, run.setup.players
    p = proportion(t.round_wins_from_dealer[1 % n], t.rounds)
    fair = 100 / n
    p["fair"] = rounded(fair / 100)
    p["advantage_pp"] = None if p["rate"] is None else rounded(100 * p["rate"] - fair)
    p["advantage_ci95"] = None if p["ci95"] is None else [rounded(100 * x - fair) for x in p["ci95"]]
    return p


def summary(run: Simulation) -> dict[str, Any]:
    """The figures a sweep shows for a cell (the rest are in its `figures`)."""
    f = run.figures()
    return {"first_seat": first_seat(run), "turns_per_round": _brief(f["turns_per_round"]),
            "points_per_round": _brief(f["points_per_round"]),
            "reshuffles_per_round": _brief(f["reshuffles_per_round"]),
            "rounds_per_game": _brief(f["rounds_per_game"]), "runaway": f["rounds"]["runaway"],
            "seats_from_dealer": [{k: r[k] for k in ("label", "rate", "ci95")}
                                  for r in f["wins"]["round_by_seat_from_dealer"]],
            "agents": [{"agent": a["agent"], **(a["games"] if "games" in a else a["rounds"])}
                       for a in f["wins"]["by_agent"]],
            "games": f["games"], "rounds": f["rounds"]["completed"], "failed": f["failures"]["count"]}


def _brief(d: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if d is None else {k: d[k] for k in ("n", "mean", "ci95", "median", "median_ci95")}


def cell_tests(base: Simulation, cell: Simulation) -> list[TestResult]:
    """The figures a sweep compares, base first: first-seat round wins (two-proportion
    z-test), turns per round (Welch's t on the mean, Mann–Whitney U on the distribution),
    points and reshuffles per round (Welch's t), rounds per game (Welch's t, games mode),
    runaway rounds (Fisher's exact test: they are rare) and each agent's win rate
    (two-proportion z-test, when both cells seat the same agents)."""
    ta, tb = base.tally, cell.tally
    n = base.setup.players
    tests: list[TestResult] = []
    ka, kb = ta.round_wins_from_dealer[1 % n], tb.round_wins_from_dealer[1 % n]
    z, p = two_proportions(ka, ta.rounds, kb, tb.rounds)
    tests.append(TestResult("first-seat round wins", "two-proportion z-test", share_of(ka, ta.rounds),
                            share_of(kb, tb.rounds), z, p_value(p), rate=True))

    def welch_test(metric: str, ha: Mapping[int, int], hb: Mapping[int, int]) -> None:
        t, df, p = welch_hist(ha, hb)
        tests.append(TestResult(f"{metric} (mean)", "Welch's t-test", moments(ha)[1], moments(hb)[1], t, p_value(p),
                                f"df={df:.0f}" if math.isfinite(df) else ""))

    welch_test("turns per round", ta.turns_per_round, tb.turns_per_round)
    _, z, p = mann_whitney(ta.turns_per_round, tb.turns_per_round)
    tests.append(TestResult("turns per round (distribution)", "Mann–Whitney U test", median_of(ta.turns_per_round),
                            median_of(tb.turns_per_round), z, p_value(p)))
    welch_test("points per round", ta.points_per_round, tb.points_per_round)
    welch_test("reshuffles per round", ta.reshuffles_per_round, tb.reshuffles_per_round)
    games_mode = not base.setup.rounds_only and not cell.setup.rounds_only
    if games_mode:
        welch_test("rounds per game", ta.rounds_per_game, tb.rounds_per_game)
    ra, rb = ta.rounds + ta.runaway, tb.rounds + tb.runaway
    tests.append(TestResult("runaway rounds (rate)", "Fisher's exact test", share_of(ta.runaway, ra),
                            share_of(tb.runaway, rb), None, p_value(fisher_exact(ta.runaway, ra, tb.runaway, rb)),
                            rate=True))
    names = base.seat_agents
    if names == cell.seat_agents and len(set(names)) > 1:
        wa, wb = (ta.agent_game_wins, tb.agent_game_wins) if games_mode else (ta.agent_round_wins,
                                                                              tb.agent_round_wins)
        na, nb = (ta.completed, tb.completed) if games_mode else (ta.rounds, tb.rounds)
        for name in dict.fromkeys(names):
            z, p = two_proportions(wa[name], na, wb[name], nb)
            tests.append(TestResult(f"{name} wins ({'games' if games_mode else 'rounds'})",
                                    "two-proportion z-test", share_of(wa[name], na), share_of(wb[name], nb), z,
                                    p_value(p), rate=True))
    return tests
