"""How a judged target reads, the same on the terminal, on the report page and in the
docs: a share as a percentage (3.7%), an interval as "a to b", a target in the figure's
own units ("2.0% or less", "30 to 40"), and one of three verdicts — meets, misses or
unsettled. Numbers are formatted by the lab's own `Figure.text`, as `unodsl analyze`
prints them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...model import Target
from ..analyze.estimates import Figure

if TYPE_CHECKING:
    from .trial import Trial

Judged = Mapping[str, Any]  # a judged target as `--json` writes it (evaluate.Judged.as_dict)


def number(x: float, percent: bool = False) -> str:
    """One number as the lab shows it (a share as a percentage)."""
    return Figure("", x, None, 0, "", percent=percent).text()[0]


def value(j: Judged) -> tuple[str, str]:
    """Target `j`'s figure and its 95% interval ("a to b"; "" without one)."""
    ci = j.get("ci95")
    figure = Figure(j["figure"], j.get("value"), None if ci is None else (ci[0], ci[1]), 0, "",
                    percent=bool(j.get("percent")))
    return figure.text()


def target(j: Judged) -> str:
    """The target in words, in the figure's units: "30 to 40", "2.0% or less", "as low as possible"."""
    if j.get("goal"):
        return f"as {'low' if j['goal'] == 'lowest' else 'high'} as possible"
    p = bool(j.get("percent"))
    lo, hi = ("" if x is None else number(x, p) for x in (j.get("min"), j.get("max")))
    if lo and hi:
        return f"{lo} to {hi}"
    return f"{lo} or more" if lo else f"{hi} or less"


def verdict(j: Judged) -> str:
    """meets, misses or unsettled; for a goal, the goal."""
    return f"goal: {target(j)}" if j.get("goal") else str(j["verdict"])


def line(j: Judged) -> str:
    """`turns_per_round 37.35 (35.64 to 39.06) meets 30 to 40`."""
    v, ci = value(j)
    shown = f"{v} ({ci})" if ci else v
    if j.get("goal"):
        return f"{j['figure']} {shown}, {verdict(j)}"
    return f"{j['figure']} {shown} {verdict(j)} {target(j)}"


def targets(wanted: Sequence[Target], trials: Iterable[Trial]) -> list[str]:
    """Each target as `figure target`, in its figure's units (known once a candidate has been judged)."""
    return [f"{t.figure} {text}" for t, text in zip(wanted, target_texts(wanted, trials), strict=True)]


def target_texts(wanted: Sequence[Target], trials: Iterable[Trial]) -> list[str]:
    """Each target in words, in its figure's units (a share as a percentage once a candidate has been judged)."""
    judged = next((t.result["judged"] for t in trials if t.result.get("judged")), None)
    if judged is None or len(judged) != len(wanted):
        return [t.text for t in wanted]
    return [target(j) for j in judged]
