"""Two variants side by side: every figure's difference with its interval and a test,
Holm-corrected; a sequential test that stops as soon as one figure's difference is
settled (SPRT); and how many rounds it takes to detect a difference (`--power`).

Differences use the normal approximation: the difference of the two values, its
standard error the root of the sum of the squares of theirs (for a figure whose
interval is not from a standard error — a quantile, a bootstrap — the interval's
width over 2 × 1.96). Both variants play the same seeds, but different rules make
the rounds diverge from the first shuffle, so they are treated as independent.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from ...errors import UnoDslError
from ..comparison import ALPHA, TestResult, holm
from ..stats import Z95, norm_sf2
from .estimates import Figure, number
from .figures import figures
from .result import Analysis


def standard_error(f: Figure) -> float | None:
    """A figure's standard error, or one read from its interval's width."""
    if f.se is not None:
        return f.se
    if f.ci95 is not None:
        return (f.ci95[1] - f.ci95[0]) / (2 * Z95)
    return None


@dataclass
class Difference:
    """B − A for one figure, with its interval, test and Holm-corrected p."""

    name: str
    a: Figure
    b: Figure
    diff: float | None
    ci95: tuple[float, float] | None
    test: TestResult

    def as_dict(self) -> dict[str, Any]:
        t = self.test
        return {"figure": self.name, "a": self.a.value, "b": self.b.value,
                "difference": None if self.diff is None else round(self.diff, 6),
                "ci95": None if self.ci95 is None else [round(x, 6) for x in self.ci95],
                "z": None if t.statistic is None else round(t.statistic, 4), "p": t.p, "p_holm": t.p_holm,
                "significant": t.significant}


def compare(a: Analysis, b: Analysis, alpha: float = ALPHA) -> list[Difference]:
    """Every figure both runs have, B − A, tested by a z-test; Holm's correction over all."""
    fa, fb = figures(a), figures(b)
    out = []
    for name, x in fa.items():
        y = fb.get(name)
        if y is None:
            continue
        sa, sb = standard_error(x), standard_error(y)
        if x.value is None or y.value is None or sa is None or sb is None:
            test = TestResult(name, "z-test (normal approximation)", x.value, y.value, None, None)
            out.append(Difference(name, x, y, None, None, test))
            continue
        d = y.value - x.value
        se = math.hypot(sa, sb)
        z = d / se if se > 0 else (0.0 if d == 0 else math.copysign(math.inf, d))
        p = norm_sf2(z) if se > 0 else (1.0 if d == 0 else 0.0)
        test = TestResult(name, "z-test (normal approximation)", x.value, y.value, z, p)
        out.append(Difference(name, x, y, d, (d - Z95 * se, d + Z95 * se), test))
    holm([d.test for d in out], alpha)
    return out


# --------------------------------------------------------------------------
# Power


def rounds_needed(sd_a: float, sd_b: float, delta: float, alpha: float = ALPHA, power: float = 0.8) -> int:
    """Rounds per variant for a two-sided test at `alpha` to detect a difference `delta`
    with probability `power`, given the spread of one observation in each."""
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return max(2, math.ceil(z * z * (sd_a * sd_a + sd_b * sd_b) / (delta * delta)))


def observation_sd(f: Figure) -> float | None:
    """The spread of one observation of a figure (its sd, or its standard error × √n)."""
    if f.sd is not None:
        return f.sd
    se = standard_error(f)
    return None if se is None or not f.n else se * math.sqrt(f.n)


def power_table(asks: list[tuple[str, float]], a: Analysis, b: Analysis | None = None) -> list[dict[str, Any]]:
    """For each (figure, difference): the rounds per variant needed to detect it (α = 0.05
    two-sided, 80% power), from the spread seen in this run (or in both)."""
    fa = figures(a)
    fb = figures(b) if b is not None else fa
    rows = []
    for name, delta in asks:
        x, y = fa.get(name), fb.get(name)
        sa = observation_sd(x) if x is not None else None
        sb = observation_sd(y) if y is not None else None
        need = rounds_needed(sa, sb, delta) if sa is not None and sb is not None and delta else None
        unit = x.unit if x is not None else ""
        rows.append({"figure": name, "difference": delta, "sd": None if sa is None else round(sa, 6),
                     "per_variant": need, "unit": unit or "round", "alpha": ALPHA, "power": 0.8})
    return rows


# --------------------------------------------------------------------------
# The sequential test


@dataclass
class Sprt:
    """Wald's sequential probability ratio test of one figure's difference B − A: H0 "no
    difference" against H1 "a difference of +delta" and, separately, "of −delta" (two
    one-sided tests, as chess engines test a patch with SPRT), each with error rates
    alpha and beta, on the normal approximation of the difference's estimate."""

    figure: str
    delta: float
    alpha: float = ALPHA
    beta: float = 0.1
    steps: list[dict[str, Any]] = field(default_factory=list)
    decision: str = "undecided"
    percent: bool = False  # the figure is a share: delta is said as a percentage, as the figure is

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def step(self, rounds: int, d: float, se: float) -> bool:
        """Add the estimate after `rounds` rounds each; True once the test has decided."""
        lower, upper = self.bounds
        llr = [(s * self.delta * d - self.delta ** 2 / 2) / (se * se) if se > 0 else 0.0 for s in (1, -1)]
        self.steps.append({"rounds": rounds, "difference": round(d, 6), "se": round(se, 6),
                           "llr_up": round(llr[0], 4), "llr_down": round(llr[1], 4)})
        delta = number(self.delta, self.percent)
        if llr[0] >= upper:
            self.decision = f"B is higher by about {delta} or more"
        elif llr[1] >= upper:
            self.decision = f"B is lower by about {delta} or more"
        elif llr[0] <= lower and llr[1] <= lower:
            self.decision = f"no difference of {delta}"
        else:
            return False
        return True

    def as_dict(self) -> dict[str, Any]:
        lower, upper = self.bounds
        return {"figure": self.figure, "delta": self.delta, "alpha": self.alpha, "beta": self.beta,
                "bounds": [round(lower, 4), round(upper, 4)], "decision": self.decision, "steps": self.steps}


def sequential(test: Sprt, batches: Iterator[tuple[int, Analysis, Analysis]],
               tick: Callable[[int], None] | None = None) -> tuple[Analysis, Analysis] | None:
    """Run `test` over growing runs (rounds so far, A, B) until it decides or the batches end;
    the last runs."""
    last = None
    for rounds, a, b in batches:
        last = (a, b)
        fa = figures(a)
        x, y = fa.get(test.figure), figures(b).get(test.figure)
        if x is None:
            raise UnoDslError(f"no figure named {test.figure!r}; figures: {', '.join(fa)}")
        if y is None or x.value is None or y.value is None:
            continue
        sa, sb = standard_error(x), standard_error(y)
        if sa is None or sb is None:
            continue
        test.percent = x.percent
        done = test.step(rounds, y.value - x.value, math.hypot(sa, sb))
        if tick is not None:
            tick(rounds)
        if done:
            break
    return last
