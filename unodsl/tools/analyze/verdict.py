"""The verdict: three to five plain sentences that open the report (terminal, page and
`--json`), each read from the figures and their intervals, e.g.

    Fair between seats (first seat +1.5%, within noise: -4.1% to 8.0%).
    A round lasts 52.62 turns on average (median 47); a game, 14.59 rounds.
    Decided late: the lead changes 12.49 times a round, and the winner is clear only after 91.2% of it.
    No card is dominant (none clearly gains when played at once); never playing a Number costs the most.
    Every rule fired and every card was played, with agents that try every answer too.

Card kinds and rule names come from the variant file: the sentences are plain text, for
the caller to show as text (never markup) or to escape.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ...model import Target
from ..wording import humanise
from .estimates import Figure, number, with_interval

NOISE = "within noise"

# What a section's figures rest on, one line above them (terminal and page).
ABOUT = {"tension": "Each player's chance to win is judged at every turn from what every player can see "
                    "(hand sizes, turn order, a penalty pending), never from a hidden card; evaluator.skill says "
                    "how far to trust it.",
         "card_power": "Each kind is played again with one seat restricted, on the same rounds: never playing it "
                       "(when there is another choice), or playing it at once whenever possible."}


def oriented(f: Figure, up: str, down: str) -> tuple[str, Figure]:
    """The verb for f's sign and f turned to read with it: a gain of −1.0 (−4.4 to 2.2)
    is "loses" 1.0 (−2.2 to 4.4)."""
    if f.value is None or f.value >= 0:
        return up, f
    ci = None if f.ci95 is None else (-f.ci95[1], -f.ci95[0])
    return down, dataclasses.replace(f, value=-f.value, ci95=ci)


def points(f: Figure) -> str:
    """A difference of win rates in words: "19.0 points of win rate (11.5 to 27.8)"."""
    if f.value is None:
        return "not measured"
    ci = "" if f.ci95 is None else f" ({100 * f.ci95[0]:.1f} to {100 * f.ci95[1]:.1f})"
    return f"{100 * f.value:.1f} points of win rate{ci}"


def said(f: Figure, up: str, down: str) -> str:
    """A card power figure with its verb: "costs 19.0 points of win rate (11.5 to 27.8)"."""
    verb, g = oriented(f, up, down)
    return f"{verb} {points(g)}" if g.value is not None else "not measured"


def verdict(figs: Mapping[str, Figure], doc: Mapping[str, Any]) -> list[str]:
    """The sentences, most important first: the design targets (when the variant has
    some), fairness, length, tension, cards, what never happened — five at most (the
    length gives way to the targets)."""
    sections = doc["sections"]
    said = [_targets(doc.get("targets") or []), _fairness(figs), _length(figs), _tension(figs),
            _cards(sections.get("card_power", {})), _health(doc)]
    said = [s for s in said if s]
    if len(said) > 5:
        said.remove(_length(figs))
    return said


# -- the designer's targets (`design:`) --------------------------------------------------


def target_text(t: Target, percent: bool) -> str:
    """A target in its figure's units: "30 to 40", "2.0% or less", "as low as possible"."""
    if t.goal is not None:
        return t.text
    lo, hi = ("" if x is None else number(x, percent) for x in (t.min, t.max))
    if lo and hi:
        return f"{lo} to {hi}"
    return f"{lo} or more" if lo else f"{hi} or less"


def judged(targets: Sequence[Target], figs: Mapping[str, Figure]) -> list[dict[str, Any]]:
    """Each target of the variant's `design:` against its figure: meets, misses or unsettled
    (the words `unodsl tune` uses), with the figure as the report shows it."""
    out = []
    for t in targets:
        f = figs.get(t.figure)
        percent = f is not None and f.percent
        ci = None if f is None else f.ci95
        value = None if f is None else f.value
        out.append({"figure": t.figure, "target": target_text(t, percent), "min": t.min, "max": t.max,
                    "goal": t.goal, "value": None if value is None else round(value, 6),
                    "ci95": None if ci is None else [round(x, 6) for x in ci],
                    "verdict": "not measured" if value is None else t.verdict(ci),
                    "shown": "not measured in this run" if f is None else with_interval(value, ci, percent)})
    return out


def _targets(rows: Sequence[Mapping[str, Any]]) -> str:
    bounded = [r for r in rows if r["goal"] is None]
    if not bounded:
        return ""
    meets = [r for r in bounded if r["verdict"] == "meets"]
    if len(meets) == len(bounded):
        return f"Meets every design target ({len(bounded)})."
    rest = [f"{r['figure']} {r['verdict']} {r['target']}: {r['shown']}" for r in bounded if r["verdict"] != "meets"]
    return f"Meets {len(meets)} of {len(bounded)} design targets: " + "; ".join(rest) + "."


def _interval(f: Figure) -> str:
    return f.text()[1]


def _fairness(figs: Mapping[str, Figure]) -> str:
    f = figs.get("first_seat_advantage")
    if f is None or f.value is None or f.ci95 is None:
        return ""
    lo, hi = f.ci95
    edge = number(f.value, True, signed=True)
    if lo <= 0 <= hi:
        return f"Fair between seats (first seat {edge}, {NOISE}: {_interval(f)})."
    if lo > 0:
        return f"The first seat has an edge: it wins {edge} above a fair share of rounds ({_interval(f)})."
    return f"The first seat is at a disadvantage: it wins {edge} against a fair share of rounds ({_interval(f)})."


def _length(figs: Mapping[str, Figure]) -> str:
    turns, median = figs.get("turns_per_round"), figs.get("turns_per_round.median")
    if turns is None or turns.value is None:
        return ""
    out = f"A round lasts {turns.text()[0]} turns on average"
    if median is not None and median.value is not None:
        out += f" (median {median.text()[0]})"
    games = figs.get("rounds_per_game")
    if games is not None and games.value is not None:
        out += f"; a game, {games.text()[0]} rounds"
    return out + "."


def _tension(figs: Mapping[str, Figure]) -> str:
    skill, share, lead = figs.get("evaluator.skill"), figs.get("decisiveness.share"), figs.get("lead_changes")
    if share is None or share.value is None or lead is None or lead.value is None:
        return ""
    if skill is None or skill.ci95 is None or skill.ci95[0] <= 0:
        return ("How tense it is cannot be told: the evaluator of who leads predicts the winner no better than "
                "a fair share (evaluator.skill).")
    when = "late" if share.value >= 2 / 3 else "early" if share.value <= 1 / 3 else "midway"
    only = " only" if when == "late" else ""
    return (f"Decided {when}: the lead changes {lead.text()[0]} times a round, and the winner is clear{only} "
            f"after {share.text()[0]} of it.")


def _cards(power: Mapping[str, Any]) -> str:
    rows = power.get("kinds") or []
    rows = [r for r in rows if r["power"]["value"] is not None]
    if not rows:
        return ""
    dominant = [r for r in rows if r["flag"] == "dominant"]
    if dominant:
        best = max(dominant, key=lambda r: r["rush"]["value"])
        others = [humanise(r["kind"]) for r in dominant if r is not best]
        also = f" ({', '.join(others)} too)" if others else ""
        return (f"The {humanise(best['kind'])} is the strongest card: playing it at once "
                f"{best['playing_it_at_once']}, so it is dominant{also}.")
    losing = [r for r in rows if r["rush"]["ci95"] is not None and r["rush"]["ci95"][1] < 0]
    costly = rows[0]  # strongest first: what never playing it costs
    out = (f"No card is dominant (none clearly gains when played at once); never playing a "
           f"{humanise(costly['kind'])} costs the most, {points(_figure(costly['power']))}")
    if losing:
        worst = min(losing, key=lambda r: r["rush"]["value"])
        out += f"; playing a {humanise(worst['kind'])} at once {worst['playing_it_at_once']}"
    return out + "."


def _figure(d: Mapping[str, Any]) -> Figure:
    ci = d["ci95"]
    return Figure("", d["value"], None if ci is None else (ci[0], ci[1]), d["n"], "", percent=True)


def _health(doc: Mapping[str, Any]) -> str:
    failures = doc.get("failures") or []
    if failures:
        return (f"{len(failures):,} round(s) or game(s) stopped with an error of the variant: each is listed "
                "with a command that replays it.")
    cov = doc["sections"].get("coverage") or {}
    if not cov:
        return ""
    exploring = "exploring" in cov
    never = [(what, item["name"]) for key, what in (("rules_never_fired", "rule"), ("kinds_never_played", "card"),
                                                    ("decisions_never_asked", "decision"))
             for item in cov[key] if not exploring or not item.get("exploring")]
    habits = [f"{n} {what}{'' if n == 1 else 's'}" for key, what in
              (("rules_never_fired", "rule"), ("kinds_never_played", "card"), ("decisions_never_asked", "decision"))
              if (n := sum(1 for item in cov[key] if exploring and item.get("exploring")))]
    if never:
        what, name = never[0]
        more = f" and {len(never) - 1} more" if len(never) > 1 else ""
        agents = ", ".join(dict.fromkeys(doc.get("agents") or []))
        even = (", even with agents that try every answer" if exploring else
                f" with {agents} (it may be their habit: --explore-rounds tells)")
        return f"Never seen{even}: {what} “{name}”{more} (see Coverage)."
    if exploring:
        note = f" ({' and '.join(habits)} only when exploring: a habit of the agents)" if habits else ""
        return f"Every rule fired and every card was played, with agents that try every answer too{note}."
    return "Every rule fired and every card was played."
