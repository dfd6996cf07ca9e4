"""Two runs compared: every figure they share tested, significance after Holm's correction.

    for test in compare(sim, other).tests:
        print(test.metric, test.test, test.p_holm, test.significant)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import UnoDslError
from .simulation import Simulation, kind_moments, rounded
from .stats import at_rank, chi_square, mann_whitney, moments, sorted_items, two_proportions, welch, welch_hist

ALPHA = 0.05


@dataclass
class TestResult:
    """One comparison of a figure between two runs."""

    metric: str
    test: str
    a: float | None
    b: float | None
    statistic: float | None
    p: float | None
    note: str = ""
    rate: bool = False  # a and b are proportions
    p_holm: float | None = None
    significant: bool = False

    def as_dict(self) -> dict[str, Any]:
        def num(x: float | None) -> float | None:
            return None if x is None or math.isnan(x) else rounded(x)
        return {"metric": self.metric, "test": self.test, "a": num(self.a), "b": num(self.b),
                "statistic": num(self.statistic), "p": num(self.p), "p_holm": num(self.p_holm),
                "significant": self.significant, "note": self.note}


def holm(results: list[TestResult], alpha: float = ALPHA) -> None:
    """Holm–Bonferroni: set `p_holm` and `significant` on every test with a p-value."""
    tested = sorted((r for r in results if r.p is not None and not math.isnan(r.p)), key=lambda r: r.p or 0.0)
    m = len(tested)
    running = 0.0
    for i, r in enumerate(tested):
        assert r.p is not None
        running = max(running, min(1.0, (m - i) * r.p))
        r.p_holm = running
        r.significant = running < alpha


@dataclass
class Comparison:
    a: Simulation
    b: Simulation
    tests: list[TestResult]
    alpha: float = ALPHA

    @property
    def significant(self) -> list[TestResult]:
        return [t for t in self.tests if t.significant]

    def as_dict(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "correction": "Holm–Bonferroni over all tests below",
                "tests": [t.as_dict() for t in self.tests]}


def compare(a: Simulation, b: Simulation, alpha: float = ALPHA) -> Comparison:
    """Test every figure two runs share; significance is at `alpha` after Holm's correction.

    The two runs are treated as independent samples (their games share seeds,
    but different rules make the games diverge from the first shuffle)."""
    ta, tb = a.tally, b.tally
    if a.setup.players != b.setup.players:
        raise UnoDslError("compare runs with the same number of players")
    games_mode = not a.setup.rounds_only and not b.setup.rounds_only
    tests: list[TestResult] = []

    def dist(metric: str, ha: Mapping[int, int], hb: Mapping[int, int], mw: bool = False) -> None:
        na, ma, _ = moments(ha)
        nb, mb, _ = moments(hb)
        t, df, p = welch_hist(ha, hb)
        tests.append(TestResult(f"{metric} (mean)", "Welch's t-test", ma, mb, t, p_value(p),
                                f"df={df:.0f}" if math.isfinite(df) else ""))
        if mw:
            u, z, p = mann_whitney(ha, hb)
            effect = u / (na * nb) if na and nb else math.nan
            tests.append(TestResult(f"{metric} (distribution)", "Mann–Whitney U test", median_of(ha), median_of(hb),
                                    z, p_value(p), f"P(A>B)+½P(A=B)={effect:.3f}" if math.isfinite(effect) else ""))

    if games_mode:
        dist("rounds per game", ta.rounds_per_game, tb.rounds_per_game)
    dist("turns per round", ta.turns_per_round, tb.turns_per_round, mw=True)
    dist("points per round", ta.points_per_round, tb.points_per_round)
    dist("reshuffles per round", ta.reshuffles_per_round, tb.reshuffles_per_round)
    ra, rb = ta.rounds + ta.runaway, tb.rounds + tb.runaway
    z, p = two_proportions(ta.runaway, ra, tb.runaway, rb)
    tests.append(TestResult("runaway rounds (rate)", "two-proportion z-test", share_of(ta.runaway, ra),
                            share_of(tb.runaway, rb), z, p_value(p), rate=True))
    if games_mode:
        stat, df, p = chi_square(ta.game_wins, tb.game_wins)
        tests.append(TestResult("game wins by seat", "chi-square test of homogeneity", None, None, stat, p_value(p),
                                f"df={df}"))
    stat, df, p = chi_square(ta.round_wins_from_dealer, tb.round_wins_from_dealer)
    tests.append(TestResult("round wins by seat from the dealer", "chi-square test of homogeneity", None, None,
                            stat, p_value(p), f"df={df}"))
    tests += _agent_tests(a, b, games_mode)
    for kind in sorted(set(ta.plays) | set(tb.plays)):
        ma, va = kind_moments(ta, kind)
        mb, vb = kind_moments(tb, kind)
        t, wdf, p = welch(ma, va, ta.rounds, mb, vb, tb.rounds)
        tests.append(TestResult(f"{kind} plays per round", "Welch's t-test", ma, mb, t, p_value(p),
                                f"df={wdf:.0f}" if math.isfinite(wdf) else ""))
    holm(tests, alpha)
    return Comparison(a, b, tests, alpha)


def _agent_tests(a: Simulation, b: Simulation, games_mode: bool) -> list[TestResult]:
    """Each agent's win rate, when both runs seated the same agents the same way."""
    names = a.seat_agents
    if names != b.seat_agents or a.seating_mode != b.seating_mode or len(set(names)) < 2:
        return []
    ta, tb = a.tally, b.tally
    wins_a, wins_b = (ta.agent_game_wins, tb.agent_game_wins) if games_mode else (ta.agent_round_wins,
                                                                                  tb.agent_round_wins)
    na, nb = (ta.completed, tb.completed) if games_mode else (ta.rounds, tb.rounds)
    tests = []
    for name in dict.fromkeys(names):
        wa, wb = wins_a[name], wins_b[name]
        z, p = two_proportions(wa, na, wb, nb)
        tests.append(TestResult(f"{name} wins ({'games' if games_mode else 'rounds'})", "two-proportion z-test",
                                share_of(wa, na), share_of(wb, nb), z, p_value(p), rate=True))
    return tests


def p_value(p: float) -> float | None:
    """A p-value, or None where the test had nothing to say (NaN)."""
    return None if math.isnan(p) else p


def share_of(k: int, n: int) -> float | None:
    """k out of n, or None of nothing."""
    return k / n if n else None


def median_of(hist: Mapping[int, int]) -> float | None:
    """The median of a histogram, or None of an empty one."""
    items = sorted_items(hist)
    n = sum(c for _, c in items)
    if n == 0:
        return None
    return (at_rank(items, (n + 1) // 2) + at_rank(items, n // 2 + 1)) / 2
