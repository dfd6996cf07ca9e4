"""One figure of the lab: a value, its 95% interval, and what it means.

Every figure has a stable machine name (`first_seat_advantage`, `turns_per_round`,
`card_power.wild`, …): the key of `unodsl analyze --json`'s `figures`, the name a
`design:` target will use, and the row of `docs/analyze.md` that defines it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from ..stats import (
    Z95,
    at_rank,
    count_mean_ci,
    moments,
    positive_mean_ci,
    quantile,
    quantile_ci,
    sorted_items,
    t_quantile,
    wilson,
)


@dataclass(frozen=True)
class Figure:
    """A figure with its 95% interval; `se` (standard error) and `sd` (of one observation)
    serve comparisons and `--power`; `unit` says what one observation is."""

    name: str
    value: float | None
    ci95: tuple[float, float] | None
    n: int
    meaning: str
    unit: str = ""
    se: float | None = None
    sd: float | None = None
    method: str = ""
    percent: bool = False  # a share or a difference of shares: shown as a percentage

    def as_dict(self) -> dict[str, Any]:
        value, ci = self.text()
        return {"value": _r(self.value), "ci95": None if self.ci95 is None else [_r(x) for x in self.ci95],
                "n": self.n, "unit": self.unit, "method": self.method, "meaning": self.meaning,
                "percent": self.percent, "shown": f"{value} ({ci})" if ci else value}

    def text(self) -> tuple[str, str]:
        """The value and its interval as the terminal and the page show them."""
        if self.value is None:
            return "–", ""
        p = self.percent
        ci = "" if self.ci95 is None else f"{number(self.ci95[0], p)} to {number(self.ci95[1], p)}"
        return number(self.value, self.percent), ci


def with_interval(value: float | None, ci95: Sequence[float] | None, percent: bool = False) -> str:
    """A value and its interval in one cell, as the figures show them: "3.76 (3.33 to 4.24)"."""
    if value is None:
        return "–"
    shown, ci = Figure("", value, None if ci95 is None else (ci95[0], ci95[1]), 0, "", percent=percent).text()
    return f"{shown} ({ci})" if ci else shown


def number(x: float, percent: bool = False, signed: bool = False) -> str:
    """One number as the lab shows it everywhere: a share as a percentage with one decimal
    (3.7%), a whole number with thousands separators, else three significant decimals
    below 1 and two above; `signed`: with a + before a positive number."""
    sign = "+" if signed else ""
    if percent:
        return f"{100 * x:{sign}.1f}%"
    if float(x).is_integer():
        return f"{int(x):{sign},}"
    return f"{x:{sign},.3f}" if abs(x) < 1 else f"{x:{sign},.2f}"


def _r(x: float | None) -> float | None:
    if x is None or math.isnan(x) or math.isinf(x):
        return None
    return round(x, 6)


def rate(name: str, count: int, n: int, meaning: str, *, minus: float = 0.0, unit: str = "round") -> Figure:
    """A proportion count/n (less `minus`, e.g. a fair share), with its Wilson interval."""
    if n == 0:
        return Figure(name, None, None, 0, meaning, unit, method="Wilson score interval")
    p = count / n
    lo, hi = wilson(count, n)
    sd = math.sqrt(p * (1 - p))
    return Figure(name, p - minus, (lo - minus, hi - minus), n, meaning, unit, sd / math.sqrt(n), sd,
                  "Wilson score interval", percent=True)


COUNT_METHOD = ("Student's t on the log scale (never below zero); the exact Poisson interval of the total "
                "when every value is the same or there is one")
SCALED_METHOD = "Student's t on the log scale (never below zero)"
SHARE_METHOD = ("Student's t on the logit scale (stays within 0–100%); a Wilson interval when every value is "
                "the same or there is one")


def mean(name: str, hist: Mapping[int, int], meaning: str, *, scale: float = 1.0, unit: str = "round",
         percent: bool = False) -> Figure:
    """The mean of a histogram of values ≥ 0 (divided by `scale`), with an interval that
    stays in the figure's range: from 0 up for a count or a rate (log scale), within 0–1
    for a share (`percent`: each value a fraction; logit scale). Its `se` is the usual
    standard error of the mean (comparisons and `--power` use it)."""
    n, m, var = moments(hist)
    method = SHARE_METHOD if percent else COUNT_METHOD if scale == 1 else SCALED_METHOD
    if n == 0:
        return Figure(name, None, None, 0, meaning, unit, method=method, percent=percent)
    if min(hist) < 0:
        raise ValueError(f"{name}: a mean of values below zero has no interval of this kind")
    m /= scale
    sd = math.sqrt(var) / scale if n > 1 else 0.0
    se = sd / math.sqrt(n)
    ci: tuple[float, float] | None
    if percent:
        ci = share_mean_ci(m, se, n)
    elif scale == 1:
        ci = count_mean_ci(m, se, n)
    else:
        ci = positive_mean_ci(m, se, n)
    return Figure(name, m, ci, n, meaning, unit, se, sd, method, percent)


def share_mean_ci(m: float, se: float, n: int) -> tuple[float, float]:
    """A mean of fractions (each in 0–1): Student's t interval of logit(mean), its standard
    error se / (m (1 − m)), turned back; the Wilson interval of m·n in n when every value is
    the same, the mean is 0 or 1, or there is one value (a fraction's spread is at most a
    yes/no's)."""
    if n < 2 or se <= 0 or not 0 < m < 1:
        return wilson(m * n, n)
    half = t_quantile(0.975, n - 1) * se / (m * (1 - m))
    centre = math.log(m / (1 - m))
    return _expit(centre - half), _expit(centre + half)


def _expit(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def quantile_figure(name: str, hist: Mapping[int, int], q: float, meaning: str, *, unit: str = "round") -> Figure:
    """A quantile (the median for q = 0.5) with its distribution-free interval from order statistics."""
    items = sorted_items(hist)
    n = sum(c for _, c in items)
    if n == 0:
        return Figure(name, None, None, 0, meaning, unit, method="order statistics")
    if q == 0.5:
        value: float = (at_rank(items, (n + 1) // 2) + at_rank(items, n // 2 + 1)) / 2
    else:
        value = quantile(items, n, q)
    lo, hi = quantile_ci(items, n, q)
    return Figure(name, value, (lo, hi), n, meaning, unit, method="order statistics (distribution-free)")


def paired(name: str, pairs: Mapping[str, int], meaning: str) -> Figure:
    """The mean of baseline − restricted over paired rounds, from the counts of the four
    outcomes "00", "01", "10", "11" (baseline won, restricted won): (n10 − n01) / n, with
    Newcombe's square-and-add interval from the Wilson intervals of the two discordant
    rates (never of zero width, however few rounds changed)."""
    n = sum(pairs.get(k, 0) for k in ("00", "01", "10", "11"))
    method = "paired rounds (same seeds); Newcombe square-and-add of Wilson intervals"
    if n == 0:
        return Figure(name, None, None, 0, meaning, "round", method=method, percent=True)
    n10, n01 = pairs.get("10", 0), pairs.get("01", 0)
    p10, p01 = n10 / n, n01 / n
    l10, u10 = wilson(n10, n)
    l01, u01 = wilson(n01, n)
    d = p10 - p01
    lo = d - math.hypot(p10 - l10, u01 - p01)
    hi = d + math.hypot(u10 - p10, p01 - l01)
    sd = math.sqrt(max(p10 + p01 - d * d, 0.0))
    return Figure(name, d, (lo, hi), n, meaning, "round", sd / math.sqrt(n), sd, method, True)


def normal(name: str, value: float | None, se: float | None, n: int, meaning: str, unit: str = "",
           method: str = "normal approximation", percent: bool = True, most: float | None = None) -> Figure:
    """A value with a normal-approximation interval from its standard error, cut at `most`
    when the figure cannot exceed it."""
    if value is None or se is None or not math.isfinite(se):
        return Figure(name, value, None, n, meaning, unit, se, method=method, percent=percent)
    hi = value + Z95 * se
    if most is not None and hi > most:
        hi, method = most, f"{method}, cut at {most:g} (its largest possible value)"
    return Figure(name, value, (value - Z95 * se, hi), n, meaning, unit, se, None, method, percent)


def largest_gap(name: str, estimates: Sequence[Figure], n: int, meaning: str, *, complement: bool = False,
                shares_of: int | None = None) -> Figure:
    """The largest difference between two of several figures (how far apart the strongest
    and the weakest are), or 1 less it (`complement`: a balance), with an interval from
    simultaneous intervals of every pair's difference (Bonferroni over the pairs, normal):
    the true largest gap lies between the largest lower end (at least 0) and the largest
    upper end. (A largest gap of noisy figures is larger than the true one on average;
    this interval holds both.) `shares_of`: the figures are shares of the same `n`
    outcomes (seats' win rates), whose differences vary more (their covariance)."""
    method = "Bonferroni-simultaneous normal intervals of every pair's difference"
    values = [f.value for f in estimates]
    if len(values) < 2 or any(v is None or f.se is None for v, f in zip(values, estimates, strict=True)):
        return Figure(name, None, None, n, meaning, method=method, percent=True)
    pairs = [(a, b) for i, a in enumerate(estimates) for b in estimates[i + 1:]]
    z = NormalDist().inv_cdf(1 - 0.025 / len(pairs))
    gap = lo = hi = 0.0
    for a, b in pairs:
        va, vb = a.value or 0.0, b.value or 0.0
        var = (a.se or 0.0) ** 2 + (b.se or 0.0) ** 2
        if shares_of:
            var += 2 * max(va, 0.0) * max(vb, 0.0) / shares_of
        d, half = abs(va - vb), z * math.sqrt(var)
        gap, lo, hi = max(gap, d), max(lo, d - half), max(hi, d + half)
    if complement:
        return Figure(name, 1 - gap, (max(0.0, 1 - hi), 1 - lo), n, meaning, "", None, None, method, True)
    return Figure(name, gap, (lo, hi), n, meaning, "", None, None, method, True)
