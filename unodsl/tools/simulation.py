"""A batch's result, Simulation, and its figures: histograms described with their
intervals, proportions with Wilson's, wins by seat and by agent, JSON-ready.

The statistics are in `stats.py` (standard library only), the charts in `plots.py`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .seating import Setup
from .stats import at_rank, count_mean_ci, moments, quantile, quantile_ci, sorted_items, t_quantile, wilson
from .tally import Tally


@dataclass
class Simulation:
    """The result of a batch: what was played, the tally, and how long it took."""

    setup: Setup
    name: str                 # the variant's name
    options_on: tuple[str, ...]
    count: int                # games (or rounds, in rounds mode) asked for
    tally: Tally
    elapsed: float = 0.0
    workers: int = 1
    teams: bool = False       # the variant seats partners: a seat wins when its team does

    @property
    def stopped_early(self) -> bool:
        """True if the run stopped at max_failures before playing every game."""
        return self.tally.games < self.count

    @property
    def label(self) -> str:
        return self.name + (f" + {', '.join(self.options_on)}" if self.options_on else "")

    @property
    def seat_agents(self) -> list[str]:
        """The agents around the table, as game 0 seats them (every game, with fixed seats)."""
        return list(self.setup.table)

    @property
    def seating_mode(self) -> str:
        """"rotating" (the table turns one seat per game) or "fixed"."""
        return "fixed" if self.setup.fixed_seats else "rotating"

    def figures(self) -> dict[str, Any]:
        """Every figure, JSON-ready (`unodsl simulate --json` prints these)."""
        return figures(self)


def describe(hist: Mapping[int, int], *, histogram: bool = False) -> dict[str, Any] | None:
    """Mean (95% interval), sd, median (95% interval), p95, min and max of a histogram. The
    mean's interval stays in its range: for counts (every value ≥ 0) Student's t on the log
    scale, or the exact Poisson interval when every value is the same (stats.count_mean_ci);
    a plain t interval for values that may be negative."""
    items = sorted_items(hist)
    n, mean, var = moments(hist)
    if n == 0:
        return None
    sd = math.sqrt(var) if n > 1 else 0.0
    ci: tuple[float, float] | None = None
    if n > 1 and items[0][0] >= 0:
        ci = count_mean_ci(mean, sd / math.sqrt(n), n)
    elif n > 1:
        half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
        ci = (mean - half, mean + half)
    lo, hi = at_rank(items, (n + 1) // 2), at_rank(items, n // 2 + 1)
    out: dict[str, Any] = {
        "n": n, "mean": rounded(mean), "ci95": None if ci is None else [rounded(ci[0]), rounded(ci[1])],
        "sd": rounded(sd), "median": (lo + hi) / 2 if lo != hi else lo, "median_ci95": quantile_ci(items, n, 0.5),
        "p95": quantile(items, n, 0.95), "min": items[0][0], "max": items[-1][0],
    }
    if histogram:
        out["histogram"] = [[v, c] for v, c in items]
    return out


def proportion(count: int, n: int) -> dict[str, Any]:
    """A proportion with its 95% Wilson score interval."""
    lo, hi = wilson(count, n)
    return {"count": count, "n": n, "rate": rounded(count / n) if n else None,
            "ci95": [rounded(lo), rounded(hi)] if n else None}


def rounded(x: float) -> float:
    """`x` to six decimals (NaN and infinities as they are)."""
    return x if math.isnan(x) or math.isinf(x) else round(x, 6)


def seat_label(offset: int) -> str:
    """A seat counted from the dealer: "dealer", "dealer+1" (the next player), …"""
    return "dealer" if offset == 0 else f"dealer+{offset}"


def figures(sim: Simulation) -> dict[str, Any]:
    t = sim.tally
    s = sim.setup
    n = s.players
    rounds = t.rounds
    games_mode = not s.rounds_only
    out: dict[str, Any] = {
        "variant": {"name": sim.name, "file": s.variant, "options": list(sim.options_on)},
        "mode": "rounds" if s.rounds_only else "games",
        "count": sim.count, "players": n, "agents": sim.seat_agents, "seating": sim.seating_mode, "seed": s.seed,
        "teams": sim.teams,
        "agent_seed": s.agent_seed, "max_turns": s.max_turns,
        "games": {"started": t.games, "completed": t.completed if games_mode else None,
                  "abandoned": t.runaway if games_mode else None,
                  "tied": proportion(t.ties, t.completed) if games_mode else None},
        "failures": {"count": t.failed, "stopped_early": sim.stopped_early,
                     "games": [f.as_dict() for f in t.failures]},
        "rounds": {"completed": rounds, "runaway": proportion(t.runaway, rounds + t.runaway)},
        "rounds_per_game": describe(t.rounds_per_game) if games_mode else None,
        "turns_per_round": describe(t.turns_per_round, histogram=True),
        "points_per_round": describe(t.points_per_round),
        "reshuffles_per_round": describe(t.reshuffles_per_round),
        "rounds_with_reshuffle": proportion(rounds - t.reshuffles_per_round.get(0, 0), rounds),
    }
    out["wins"] = _wins(sim)
    total = sum(t.plays.values())
    kinds = {}
    for kind, count in sorted(t.plays.items(), key=lambda kv: (-kv[1], kv[0])):
        mean, var = kind_moments(t, kind)
        half = t_quantile(0.975, rounds - 1) * math.sqrt(var / rounds) if rounds > 1 else 0.0
        kinds[kind] = {"count": count, "share": rounded(count / total) if total else None,
                       "per_round": rounded(mean) if rounds else None,
                       "per_round_ci95": [rounded(mean - half), rounded(mean + half)] if rounds > 1 else None}
    out["cards_played"] = {"total": total, "per_round": rounded(total / rounds) if rounds else None, "by_kind": kinds}
    out["plays_made"] = _plays_made(t, rounds)
    out["timing"] = {"seconds": round(sim.elapsed, 3), "workers": sim.workers,
                     "per_second": round(t.games / sim.elapsed, 1) if sim.elapsed else None,
                     "turns_per_second": round(t.turns_played / sim.elapsed) if sim.elapsed else None}
    return out


def _plays_made(t: Tally, rounds: int) -> dict[str, Any]:
    """How many times each declared play (`turn: plays:`) was made: count, share and per
    round (95% interval), most made first; none for a variant without declared plays."""
    total = sum(t.plays_made.values())
    by_play = {}
    for name, count in sorted(t.plays_made.items(), key=lambda kv: (-kv[1], kv[0])):
        mean, var = _moments(count, t.plays_made_sq.get(name, 0), rounds)
        half = t_quantile(0.975, rounds - 1) * math.sqrt(var / rounds) if rounds > 1 else 0.0
        by_play[name] = {"count": count, "share": rounded(count / total) if total else None,
                         "per_round": rounded(mean) if rounds else None,
                         "per_round_ci95": [rounded(mean - half), rounded(mean + half)] if rounds > 1 else None}
    return {"total": total, "per_round": rounded(total / rounds) if rounds else None, "by_play": by_play}


def _wins(sim: Simulation) -> dict[str, Any]:
    """Wins by seat (with its agent, when seats are fixed), from the dealer, and by agent."""
    t, n = sim.tally, sim.setup.players
    rounds = t.rounds
    agents: list[str | None] = list(sim.seat_agents) if sim.setup.fixed_seats else [None] * n
    wins: dict[str, Any] = {}
    if not sim.setup.rounds_only:
        wins["game_by_seat"] = [{"seat": p, "label": f"P{p + 1}", "agent": agents[p],
                                 **proportion(t.game_wins[p], t.completed)} for p in range(n)]
        wins["game_by_seat_from_first_dealer"] = [
            {"offset": k, "label": seat_label(k), **proportion(t.game_wins_from_dealer[k], t.completed)}
            for k in range(n)]
    wins["round_by_seat"] = [{"seat": p, "label": f"P{p + 1}", "agent": agents[p],
                              **proportion(t.round_wins[p], rounds)} for p in range(n)]
    wins["round_by_seat_from_dealer"] = [
        {"offset": k, "label": seat_label(k), **proportion(t.round_wins_from_dealer[k], rounds)}
        for k in range(n)]
    wins["by_agent"] = _by_agent(sim)
    return wins


def _by_agent(sim: Simulation) -> list[dict[str, Any]]:
    """Each agent's wins, tallied from who sat where in each game. The table only
    turns, so an agent holds the same number of seats in every game, and its fair
    share (its average share of the seats) is that number over the players."""
    t, n, names = sim.tally, sim.setup.players, sim.seat_agents
    rows = []
    for name in dict.fromkeys(names):
        seats = names.count(name)
        row: dict[str, Any] = {"agent": name, "seats": seats, "fair_share": rounded(seats / n)}
        if not sim.setup.rounds_only:
            row["games"] = proportion(t.agent_game_wins[name], t.completed)
        row["rounds"] = proportion(t.agent_round_wins[name], t.rounds)
        rows.append(row)
    return rows


def kind_moments(t: Tally, kind: str) -> tuple[float, float]:
    """Mean and variance of one card kind's plays per completed round."""
    return _moments(t.plays.get(kind, 0), t.plays_sq.get(kind, 0), t.rounds)


def _moments(s: int, ss: int, n: int) -> tuple[float, float]:
    """Mean and variance per round of a count whose sum over `n` rounds is `s` and sum of
    squares `ss`."""
    if n == 0:
        return math.nan, math.nan
    return s / n, max((ss * n - s * s) / (n * (n - 1)), 0.0) if n > 1 else math.nan
