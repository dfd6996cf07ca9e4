"""The lab's intervals respect their figure's range (unodsl/tools/analyze/estimates.py,
unodsl/tools/stats.py): a share stays within 0–100%, a count or a rate never goes below
zero, on the edge cases — no observation, one, no event at all, every one an event."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from unodsl.tools.analyze.estimates import COUNT_METHOD, SHARE_METHOD, mean, normal, paired, rate
from unodsl.tools.stats import poisson_ci, wilson

MICRO = 1_000_000


# -- the exact Poisson interval -------------------------------------------------------


@pytest.mark.parametrize(("count", "lower", "upper"), [
    (0, 0.0, 3.689),     # Garwood (1936); the "rule of three" (≈ 3/n) is its one-sided cousin
    (1, 0.0253, 5.572),
    (2, 0.2422, 7.225),
    (10, 4.795, 18.390),
])
def test_the_poisson_interval_matches_garwoods_table(count: int, lower: float, upper: float) -> None:
    lo, hi = poisson_ci(count)
    assert lo == pytest.approx(lower, abs=5e-4) and hi == pytest.approx(upper, abs=5e-4)


def test_the_poisson_interval_holds_its_count_and_refuses_a_negative_one() -> None:
    for k in (0, 1, 3, 50, 1_000):
        lo, hi = poisson_ci(k)
        assert 0 <= lo <= k < hi
    with pytest.raises(ValueError, match="cannot be negative"):
        poisson_ci(-1)


# -- shares (Wilson) ----------------------------------------------------------------------


@pytest.mark.parametrize(("count", "n"), [(0, 1), (1, 1), (0, 200), (200, 200), (1, 200), (3, 7)])
def test_a_share_interval_stays_within_0_and_1_and_holds_the_share(count: int, n: int) -> None:
    f = rate("x", count, n, "")
    assert f.ci95 is not None and 0 <= f.ci95[0] <= count / n <= f.ci95[1] <= 1
    assert f.ci95[1] - f.ci95[0] > 0  # never of zero width, even with no event or every one
    assert f.method == "Wilson score interval" and f.percent


def test_no_event_and_every_event_give_mirrored_share_intervals() -> None:
    none, every = rate("x", 0, 50, ""), rate("x", 50, 50, "")
    assert none.ci95 is not None and every.ci95 is not None
    assert none.ci95[0] == 0 and every.ci95[1] == pytest.approx(1)
    assert none.ci95[1] == pytest.approx(1 - every.ci95[0])


def test_a_share_of_nothing_has_no_value_and_no_interval() -> None:
    f = rate("x", 0, 0, "")
    assert f.value is None and f.ci95 is None and f.text() == ("–", "")


def test_wilson_takes_a_fractional_count() -> None:
    assert wilson(2.5, 10) == pytest.approx(((wilson(2, 10)[0] + wilson(3, 10)[0]) / 2,
                                             (wilson(2, 10)[1] + wilson(3, 10)[1]) / 2), abs=0.02)


# -- counts and rates per round: never below zero --------------------------------------


def test_the_reshuffles_of_the_issue_no_longer_go_below_zero() -> None:
    # issue 43: "reshuffles 0.010 (−0.001 to 0.021)" — 2 reshuffles in 200 rounds
    f = mean("reshuffles_per_round", {0: 198, 1: 2}, "")
    assert f.value == pytest.approx(0.01)
    assert f.ci95 is not None and 0 < f.ci95[0] < 0.01 < f.ci95[1]
    assert f.method == COUNT_METHOD
    value, ci = f.text()
    assert value == "0.010" and "-" not in ci and "−" not in ci


def test_no_event_in_n_rounds_gives_the_exact_poisson_bound() -> None:
    f = mean("x", {0: 200}, "")
    assert f.value == 0 and f.ci95 is not None
    assert f.ci95[0] == 0 and f.ci95[1] == pytest.approx(3.689 / 200, abs=1e-5)


def test_one_observation_gives_the_poisson_interval_of_its_count() -> None:
    f = mean("x", {3: 1}, "")
    lo, hi = poisson_ci(3)
    assert f.value == 3 and f.ci95 == pytest.approx((lo, hi))


def test_an_event_in_every_round_keeps_a_width() -> None:
    f = mean("x", {1: 100}, "")
    assert f.ci95 is not None and f.ci95[0] < 1 < f.ci95[1] and f.ci95[0] > 0


def test_no_observation_has_no_interval() -> None:
    f = mean("x", {}, "")
    assert f.value is None and f.ci95 is None and f.n == 0


def test_a_mean_of_values_below_zero_is_refused() -> None:
    with pytest.raises(ValueError, match="below zero"):
        mean("x", {-1: 3, 2: 4}, "")


def test_count_intervals_cover_their_mean_about_95_percent_of_the_time() -> None:
    """A rare event (Poisson, mean 0.02 per round, 200 rounds): the interval holds the true
    mean in at least 90% of 150 seeded samples, and never goes below zero."""
    rng = random.Random(7)
    true, held = 0.02, 0
    for _ in range(150):
        hist = Counter(_poisson(rng, true) for _ in range(200))
        f = mean("x", hist, "")
        assert f.ci95 is not None and f.ci95[0] >= 0
        held += f.ci95[0] <= true <= f.ci95[1]
    assert held >= 0.9 * 150


def _poisson(rng: random.Random, mu: float) -> int:
    k, p, limit = 0, rng.random(), math.exp(-mu)
    while p > limit:
        k += 1
        p *= rng.random()
    return k


def test_a_large_count_keeps_the_usual_interval() -> None:
    rng = random.Random(3)
    hist = Counter(rng.randrange(20, 80) for _ in range(500))
    f = mean("turns", hist, "")
    assert f.ci95 is not None and f.se is not None and f.value is not None
    width = f.ci95[1] - f.ci95[0]
    assert width == pytest.approx(2 * 1.965 * f.se, rel=0.02)  # the t interval, barely skewed
    assert f.ci95[0] < f.value < f.ci95[1]


# -- shares that are means of fractions (drama, the share of a round) -----------------------


@pytest.mark.parametrize("hist", [{0: 50}, {MICRO: 50}, {MICRO // 3: 1}, {0: 1}, {MICRO: 1}])
def test_a_mean_of_fractions_at_an_edge_stays_within_0_and_1(hist: dict[int, int]) -> None:
    f = mean("x", hist, "", scale=MICRO, percent=True)
    assert f.value is not None and f.ci95 is not None
    assert 0 <= f.ci95[0] <= f.value <= f.ci95[1] <= 1
    assert f.ci95[1] - f.ci95[0] > 0
    assert f.method == SHARE_METHOD


def test_a_mean_of_fractions_near_zero_never_goes_below_it() -> None:
    f = mean("x", {0: 195, 10_000: 5}, "", scale=MICRO, percent=True)
    assert f.ci95 is not None and 0 < f.ci95[0] < f.value < f.ci95[1] < 0.01  # type: ignore[operator]


# -- differences and capped figures ----------------------------------------------------------


@pytest.mark.parametrize("pairs", [{}, {"00": 1}, {"10": 1}, {"10": 30}, {"01": 30}, {"11": 30}])
def test_a_paired_difference_stays_within_minus_1_and_1(pairs: dict[str, int]) -> None:
    f = paired("x", pairs, "")
    if not pairs:
        assert f.value is None and f.ci95 is None
        return
    assert f.ci95 is not None and f.value is not None
    assert -1 <= f.ci95[0] <= f.value <= f.ci95[1] <= 1 and f.ci95[1] > f.ci95[0]


def test_a_figure_that_cannot_exceed_one_is_cut_there() -> None:
    f = normal("skill", 0.99, 0.02, 100, "", most=1.0)
    assert f.ci95 is not None and f.ci95[1] == 1.0 and f.ci95[0] < 0.99 and "cut at 1" in f.method
    g = normal("skill", 0.5, 0.02, 100, "", most=1.0)
    assert g.ci95 is not None and g.ci95[1] < 1 and "cut" not in g.method


# -- a largest gap ------------------------------------------------------------------------


def test_a_largest_gap_holds_its_value_and_stays_within_its_range() -> None:
    from unodsl.tools.analyze.estimates import largest_gap
    even = [rate(f"s{k}", c, 200, "") for k, c in enumerate((53, 48, 50, 49))]
    balance = largest_gap("balance", even, 200, "", complement=True, shares_of=200)
    assert balance.value == pytest.approx(1 - 5 / 200) and balance.ci95 is not None
    assert balance.ci95[0] <= balance.value <= balance.ci95[1] == 1.0  # a gap of 0 cannot be ruled out
    apart = [rate(f"s{k}", c, 400, "") for k, c in enumerate((200, 100, 60, 40))]
    gap = largest_gap("gap", apart, 400, "", shares_of=400)
    assert gap.value == pytest.approx(0.4) and gap.ci95 is not None
    assert 0.25 < gap.ci95[0] < 0.4 < gap.ci95[1] < 0.55  # clearly apart: the lower end above zero
    tiny = [rate("a", 1, 1, ""), rate("b", 0, 1, "")]
    b = largest_gap("balance", tiny, 1, "", complement=True, shares_of=1)
    assert b.ci95 is not None and 0 <= b.ci95[0] <= b.value <= b.ci95[1] <= 1  # type: ignore[operator]
    assert largest_gap("x", [rate("a", 0, 0, ""), rate("b", 0, 0, "")], 0, "").ci95 is None


# -- simulate's figures (tools/simulation.describe) -------------------------------------
def test_simulates_mean_of_a_rare_count_has_an_interval_that_stays_above_zero() -> None:
    from unodsl.tools.simulation import describe

    rare = describe({0: 99, 1: 1})  # one reshuffle in 100 rounds: a t interval went below zero
    assert rare is not None and rare["mean"] == 0.01
    lo, hi = rare["ci95"]
    assert 0 < lo < 0.01 < hi
    none = describe({0: 50})  # no event at all: the exact Poisson interval, from 0
    assert none is not None and none["ci95"][0] == 0 and 0 < none["ci95"][1] < 0.1
    alike = describe({3: 10})  # every value the same: the Poisson interval of the total over n
    assert alike is not None and alike["ci95"][0] < 3 < alike["ci95"][1]
    assert describe({5: 1})["ci95"] is None  # type: ignore[index]  # one value: no interval


def test_simulates_mean_of_values_that_may_be_negative_keeps_the_t_interval() -> None:
    from unodsl.tools.simulation import describe

    signed = describe({-2: 5, 2: 5})
    assert signed is not None and signed["ci95"][0] < 0 < signed["ci95"][1]
