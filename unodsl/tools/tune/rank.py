"""Which candidate fits best, and whether the best is good enough to be called the result.

Candidates are ranked by their targets' verdicts and by how far each target's 95%
interval lies from its range, every target counted, each distance in units of its range:

1. a candidate that misses a target (its whole interval outside the range) comes after
   every candidate that meets or is unsettled on every target, however well it does on
   the others;
2. then the smaller sum of the distances from each interval to its range (0 for an
   interval that touches the range), each divided by the range's *scale*;
3. then more targets met with the whole interval;
4. then the deeper inside (or the less far outside) by value: each bound's objective
   (how far the value lies outside the range, negative inside its nearer end) divided by
   its scale, added up;
5. then the goals' objectives added up (a goal has no range, so no verdict), then the
   earliest candidate.

A range's scale is its width (30 to 40: 10); a one-sided bound's scale is the size of its
end (0.02 or less: 0.02), or when that end is 0, one point of a share (0.01) or 1 for
any other figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .trial import Trial

Judged = Mapping[str, Any]  # a judged target as `--json` writes it (evaluate.Judged.as_dict)


def scale(j: Judged) -> float:
    """The unit a bound's distances are measured in (see the module's docstring)."""
    lo, hi = j.get("min"), j.get("max")
    if lo is not None and hi is not None and hi > lo:
        return float(hi - lo)
    end = lo if lo is not None else hi
    if end:
        return abs(float(end))
    return 0.01 if j.get("percent") else 1.0


def gap(j: Judged) -> float:
    """How far target `j`'s interval (its value, without one) lies outside its range, in its scale."""
    if j.get("goal") or j.get("value") is None:
        return 0.0
    lo, hi = j["ci95"] if j.get("ci95") is not None else (j["value"], j["value"])
    below = j["min"] - hi if j.get("min") is not None else 0.0
    above = lo - j["max"] if j.get("max") is not None else 0.0
    return max(0.0, below, above) / scale(j)


def fit(judged: Sequence[Judged]) -> tuple[bool, float, int, float, float]:
    """The ranking key of a candidate's judged targets: smaller is better."""
    bounds = [j for j in judged if not j.get("goal")]
    goals = [j for j in judged if j.get("goal")]
    return (any(j["verdict"] == "misses" for j in bounds),
            sum(gap(j) for j in bounds),
            -sum(j["verdict"] == "meets" for j in bounds),
            sum((j["objective"] or 0.0) / scale(j) for j in bounds),
            sum(j["objective"] or 0.0 for j in goals))


def ranked(trials: Iterable[Trial]) -> list[Trial]:
    """The distinct candidates played, best first (a repeated proposal, a failed one, left out)."""
    done = [t for t in trials if t.state == "complete" and "same_as" not in t.result]
    return sorted(done, key=lambda t: (fit(t.result.get("judged", [])), t.number))


def best(trials: Iterable[Trial]) -> Trial | None:
    """The winner: the first of `ranked`, or None if no candidate was played."""
    order = ranked(trials)
    return order[0] if order else None


def meets(judged: Sequence[Judged]) -> bool:
    """Does a candidate meet every target? Every bound with its whole interval (a goal has no verdict)."""
    return all(j["verdict"] == "meets" for j in judged if not j.get("goal"))


def advice(judged: Sequence[Judged], *, space_tried: bool) -> list[str]:
    """What to try when the winner does not meet every target, from its verdicts."""
    out = []
    missed = [j["figure"] for j in judged if not j.get("goal") and j["verdict"] == "misses"]
    open_ = [j["figure"] for j in judged if not j.get("goal") and j["verdict"] == "unsettled"]
    if missed:
        out.append(f"{', '.join(missed)} misses its target: vary more, or wider, under design: vary"
                   + ("" if space_tried else ", try more candidates (--trials)")
                   + ", or loosen the target")
    if open_:
        out.append(f"{', '.join(open_)} is unsettled (its interval straddles the bound): play more rounds "
                   "(--rounds; four times the rounds halve an interval), or move the bound out of the noise")
    return out
