"""Statistics for simulations, with the standard library only.

Descriptive figures are computed from histograms of integers (value -> count);
intervals: Wilson for proportions, the exact (Garwood) interval for a Poisson count,
order statistics for quantiles; tests:
Welch's t, Mann–Whitney U (exact from histograms, with tie correction), the
two-proportion z-test, Fisher's exact test and Pearson's chi-square test of
homogeneity. The
distribution functions were checked against scipy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal


# -- histograms ------------------------------------------------------------


def sorted_items(hist: Mapping[int, int]) -> list[tuple[int, int]]:
    return sorted((v, c) for v, c in hist.items() if c)


def moments(hist: Mapping[int, int]) -> tuple[int, float, float]:
    """n, mean and sample variance of a histogram (exact integer sums)."""
    n = sum(hist.values())
    s = sum(v * c for v, c in hist.items())
    ss = sum(v * v * c for v, c in hist.items())
    if n == 0:
        return 0, math.nan, math.nan
    mean = s / n
    var = (ss * n - s * s) / (n * (n - 1)) if n > 1 else math.nan
    return n, mean, max(var, 0.0)


def at_rank(items: list[tuple[int, int]], rank: int) -> int:
    """The value of the `rank`-th smallest observation (1-based, clamped)."""
    total = sum(c for _, c in items)
    rank = min(max(rank, 1), total)
    seen = 0
    for value, count in items:
        seen += count
        if seen >= rank:
            return value
    return items[-1][0]


def quantile(items: list[tuple[int, int]], n: int, q: float) -> int:
    """The nearest-rank quantile."""
    return at_rank(items, math.ceil(q * n))


def quantile_ci(items: list[tuple[int, int]], n: int, q: float) -> list[int]:
    """A distribution-free 95% interval for a quantile, from order statistics."""
    half = Z95 * math.sqrt(n * q * (1 - q))
    return [at_rank(items, math.floor(n * q - half)), at_rank(items, math.ceil(n * q + half) + 1)]


def wilson(count: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion count/n (count may be a fraction: n times
    a mean of fractions); never outside 0–1."""
    if n == 0:
        return math.nan, math.nan
    p = min(max(count / n, 0.0), 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if p == 0 else max(0.0, centre - half)  # exactly 0 (1) with no event (every one),
    hi = 1.0 if p == 1 else min(1.0, centre + half)  # not a rounding error away from it
    return lo, hi


def poisson_ci(count: int) -> tuple[float, float]:
    """The exact (Garwood) 95% interval for the mean of a Poisson variable seen to be
    `count`: the means under which a count at least (at most) this large has
    probability 2.5%. Never below zero; (0, 3.689) for a count of 0."""
    if count < 0:
        raise ValueError(f"a count cannot be negative, not {count}")
    lower = 0.0 if count == 0 else _solve(lambda mu: gammaincc(count, mu), 0.975)
    upper = _solve(lambda mu: gammaincc(count + 1, mu), 0.025)
    return lower, upper


def positive_mean_ci(m: float, se: float, n: int) -> tuple[float, float] | None:
    """Student's t interval of log(mean) (its standard error se/m by the delta method),
    turned back: m ÷ f to m × f. None when it has no width to give (one value, or no spread)."""
    if n < 2 or m <= 0 or se <= 0:
        return None if n < 2 else (m, m)
    f = math.exp(t_quantile(0.975, n - 1) * se / m)
    return m / f, m * f


def count_mean_ci(m: float, se: float, n: int) -> tuple[float, float]:
    """A mean count per observation: `positive_mean_ci`, or, when every value is the same
    (no event at all, say) or there is one value, the exact Poisson interval of the total
    over n (0 events in n rounds: 0 to 3.69 / n)."""
    ci = positive_mean_ci(m, se, n)
    if ci is not None and se > 0:
        return ci
    lo, hi = poisson_ci(round(m * n))
    return lo / n, hi / n


def _solve(decreasing: Callable[[float], float], target: float) -> float:
    """The x ≥ 0 at which a decreasing function of x falls to `target`, by bisection."""
    lo, hi = 0.0, 1.0
    while decreasing(hi) > target:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if decreasing(mid) > target:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


# -- distribution functions -------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(ln) * _betacf(a, b, x) / a
    return 1.0 - math.exp(ln) * _betacf(b, a, 1.0 - x) / b


def t_sf2(t: float, df: float) -> float:
    """The two-sided p-value of Student's t with `df` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    if df > 1e7:
        return math.erfc(abs(t) / math.sqrt(2))
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(q: float, df: float) -> float:
    """The `q` quantile (q > 0.5) of Student's t, by bisection on the distribution function."""
    lo, hi = 0.0, 1.0
    while t_sf2(hi, df) / 2 > 1 - q:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_sf2(mid, df) / 2 > 1 - q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def gammaincc(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x)."""
    if x <= 0.0:
        return 1.0
    ln = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1.0:  # series for P(a, x)
        term = total = 1.0 / a
        ap = a
        for _ in range(100_000):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(ln))
    tiny = 1e-300  # continued fraction for Q(a, x)
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return math.exp(ln) * h


def chi2_sf(x: float, df: int) -> float:
    return gammaincc(df / 2.0, x / 2.0)


def norm_sf2(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


# -- tests ----------------------------------------------------------------------


def welch(ma: float, va: float, na: int, mb: float, vb: float, nb: int) -> tuple[float, float, float]:
    """Welch's unequal-variances t-test: (t, df, two-sided p)."""
    if na < 2 or nb < 2:
        return math.nan, math.nan, math.nan
    sa, sb = va / na, vb / nb
    se2 = sa + sb
    if se2 == 0:
        return (0.0, math.inf, 1.0) if ma == mb else (math.copysign(math.inf, ma - mb), math.inf, 0.0)
    t = (ma - mb) / math.sqrt(se2)
    df = se2 * se2 / ((sa * sa / (na - 1) if sa else 0.0) + (sb * sb / (nb - 1) if sb else 0.0))
    return t, df, t_sf2(t, df)


def welch_hist(a: Mapping[int, int], b: Mapping[int, int]) -> tuple[float, float, float]:
    na, ma, va = moments(a)
    nb, mb, vb = moments(b)
    return welch(ma, va, na, mb, vb, nb)


def mann_whitney(a: Mapping[int, int], b: Mapping[int, int]) -> tuple[float, float, float]:
    """The Mann–Whitney U test from two histograms (normal approximation with tie
    correction and continuity correction): (U of a, z, two-sided p)."""
    na, nb = sum(a.values()), sum(b.values())
    if na == 0 or nb == 0:
        return math.nan, math.nan, math.nan
    total = na + nb
    rank_sum = 0.0
    ties = 0
    below = 0
    for value in sorted(set(a) | set(b)):
        ca, cb = a.get(value, 0), b.get(value, 0)
        t = ca + cb
        if t == 0:
            continue
        rank_sum += ca * (below + (t + 1) / 2)
        ties += t * t * t - t
        below += t
    u = rank_sum - na * (na + 1) / 2
    mu = na * nb / 2
    var = na * nb / 12 * ((total + 1) - ties / (total * (total - 1))) if total > 1 else 0.0
    if var <= 0:
        return u, 0.0, 1.0
    z = max(abs(u - mu) - 0.5, 0.0) / math.sqrt(var)
    return u, math.copysign(z, u - mu), norm_sf2(z)


def two_proportions(ka: int, na: int, kb: int, nb: int) -> tuple[float, float]:
    """The pooled two-proportion z-test: (z, two-sided p)."""
    if na == 0 or nb == 0:
        return math.nan, math.nan
    pooled = (ka + kb) / (na + nb)
    se = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    if se == 0:
        return 0.0, 1.0
    z = (ka / na - kb / nb) / se
    return z, norm_sf2(z)


def chi_square(a: Sequence[int], b: Sequence[int]) -> tuple[float, int, float]:
    """Pearson's chi-square test of homogeneity of two count vectors: (χ², df, p)."""
    cols = [(x, y) for x, y in zip(a, b, strict=True) if x + y]
    na, nb = sum(a), sum(b)
    if na == 0 or nb == 0 or len(cols) < 2:
        return math.nan, 0, math.nan
    total = na + nb
    stat = 0.0
    for x, y in cols:
        col = x + y
        for observed, row in ((x, na), (y, nb)):
            expected = row * col / total
            stat += (observed - expected) ** 2 / expected
    df = len(cols) - 1
    return stat, df, chi2_sf(stat, df)


def fisher_exact(ka: int, na: int, kb: int, nb: int) -> float:
    """Fisher's exact test of two proportions ka/na and kb/nb: the two-sided p-value (the
    tables at most as likely as the one seen, given its margins; as scipy's `fisher_exact`).
    Its cost grows with the smaller margin, so it suits rare events."""
    if na == 0 or nb == 0:
        return math.nan
    hits, total = ka + kb, na + nb
    if 2 * hits > total:  # count the misses instead: the same tables, fewer of them
        ka, kb, hits = na - ka, nb - kb, total - hits
    lo, hi = max(0, hits - nb), min(hits, na)

    def log_pmf(x: int) -> float:
        return _log_choose(na, x) + _log_choose(nb, hits - x) - _log_choose(total, hits)

    observed = log_pmf(ka)
    p = sum(math.exp(log_pmf(x)) for x in range(lo, hi + 1) if log_pmf(x) <= observed + 1e-7)
    return min(1.0, p)


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
