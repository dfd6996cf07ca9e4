"""Coverage: what a variant can do, read from its file, against what the simulated rounds did.

What it can do: its rules (by `name:`), the card kinds in its deck, the decisions
its expressions can put to a player (`choose_color`, `choose_player`,
`choose_card`, `choose_number`, each `ask(…, "question")` with a literal question, `jump_in`) and
those of every turn (play or draw; a drawn card when the draw rule lets it be
played), and its switches (options that are on or off). A rule that never fired, a kind never played, a decision
never asked in thousands of rounds is most often a bug (CardStock/RECYCLE's rule
coverage). An item never seen is shown with the 95% upper bound of its rate.

What greedy bots never do (answer "no" to "call_uno", say) is their habit, not the
variant's: so a second batch of rounds is played by the same agents trying every
answer (watch.Explorer), and each item the agents never did says whether the
explorers did it ("exploring": how often; 0: never, even exploring).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...lang import ast
from ...model import Variant
from ...variant.asks import CHOICES, choice_calls
from ..stats import wilson
from .watch import EXPLORE_EVERY, LabTally


def possible_decisions(variant: Variant) -> list[str]:
    """The decisions the variant can put to a player, named as coverage names them."""
    found = {"turn": None}
    if variant.turn.draw.then == "may_play":
        found["drawn"] = None
    for call in choice_calls(variant):
        if call.func in CHOICES:
            found[CHOICES[call.func]] = None
        elif len(call.args) >= 2 and isinstance(call.args[1], ast.Literal) and isinstance(call.args[1].value, str):
            found[f'ask "{call.args[1].value}"'] = None
    return sorted(found)


def deck_kinds(variant: Variant) -> list[str]:
    """The card kinds that are in the deck (on either side), in the order of `cards:`."""
    on = {f.kind for side in variant.sides for f in side.faces}
    return [k for k in variant.kinds if k in on]


def _never(seen: Mapping[str, int], names: list[str], rounds: int, explored: Mapping[str, int] | None,
           explored_rounds: int) -> list[dict[str, Any]]:
    """The names never seen in the agents' rounds, each with the 95% upper bound of its
    rate, and how often the exploring agents saw it (0: never, even exploring)."""
    out = []
    for name in names:
        if seen.get(name):
            continue
        item: dict[str, Any] = {"name": name, "upper95_per_round": _upper(rounds)}
        if explored is not None:
            item["exploring"] = explored.get(name, 0)
            if not item["exploring"]:
                item["upper95_per_round"] = _upper(rounds + explored_rounds)
        out.append(item)
    return out


def _upper(rounds: int) -> float | None:
    """The 95% upper bound of the rate of a thing never seen in `rounds` rounds."""
    return round(wilson(0, rounds)[1], 6) if rounds else None


EXPLORING = (f"the same agents, each question whose answers are yes or no answered at random, and one other "
             f"decision in {EXPLORE_EVERY} made at random")


def coverage(variant: Variant, lab: LabTally, plays: Mapping[str, int], rounds: int, decisions: list[str],
             explored: LabTally | None = None, explored_plays: Mapping[str, int] | None = None,
             explored_rounds: int = 0, *, made: Mapping[str, int] | None = None,
             explored_made: Mapping[str, int] | None = None) -> dict[str, Any]:
    """What never happened in `rounds` rounds of the agents, and how often each thing did;
    with `explored` (rounds of agents trying every answer), whether what the agents never
    did is a habit of theirs (the explorers did it) or never happens at all. `made`: the
    declared plays (`turn: plays:`) made, by name (their cards count in `plays`)."""
    rules = [r.name for r in variant.rules]
    kinds = deck_kinds(variant)
    ways = [w.name for w in variant.turn.plays]
    offered_never = sorted(k for k, v in lab.offered.items() if v and not lab.chosen.get(k))
    x = explored
    answers = []
    for k in offered_never:
        item: dict[str, Any] = {"answer": k, "offered": lab.offered[k]}
        if x is not None:
            item["exploring"] = x.chosen.get(k, 0)
        answers.append(item)
    out: dict[str, Any] = {
        "rounds": rounds,
        "rules": {name: lab.rules_fired.get(name, 0) for name in rules},
        "rules_never_fired": _never(lab.rules_fired, rules, rounds, None if x is None else x.rules_fired,
                                    explored_rounds),
        "kinds": {k: plays.get(k, 0) for k in kinds},
        "kinds_never_played": _never(plays, kinds, rounds, explored_plays if x is not None else None,
                                     explored_rounds),
        "plays": {w: (made or {}).get(w, 0) for w in ways},
        "plays_never_made": _never(made or {}, ways, rounds, (explored_made or {}) if x is not None else None,
                                   explored_rounds),
        "decisions": {d: lab.choices.get(d, 0) for d in sorted(set(decisions) | set(lab.choices))},
        "decisions_never_asked": _never(lab.choices, decisions, rounds, None if x is None else x.choices,
                                        explored_rounds),
        "answers_never_chosen": answers,
        "options_not_on": [{"name": o.name, "description": o.description}
                           for o in variant.options if o.type == "bool" and not o.enabled],
    }
    if x is not None:
        out["exploring"] = {"rounds": explored_rounds, "agents": EXPLORING}
    return out


WHAT = (("rules_never_fired", "rule never fired", "fired"), ("kinds_never_played", "card kind never played", "played"),
        ("plays_never_made", "declared play never made", "made"),
        ("decisions_never_asked", "decision never asked", "asked"))


def coverage_lines(cov: Mapping[str, Any], agents: str) -> list[tuple[str, list[str]]]:
    """Coverage in words, as the terminal and the page show it: (heading, lines) groups.
    The lines hold names from the variant file: plain text, for the caller to escape."""
    if not cov:
        return []
    explored = "exploring" in cov
    rounds = cov["rounds"]
    variant: list[str] = []
    habit: list[str] = []
    for key, what, verb in WHAT:
        for item in cov.get(key, ()):  # (a report written before declared plays has no plays_never_made)
            bound = item["upper95_per_round"]
            below = f"below {100 * bound:.2f}% of rounds" if bound is not None else "no rounds"
            if explored and item["exploring"]:
                habit.append(f"{what}: {item['name']} ({verb} {item['exploring']:,} times exploring)")
            else:
                variant.append(f"{what}: {item['name']} ({below})")
    for item in cov["answers_never_chosen"]:
        line = f"answer never chosen: {item['answer']} (offered {item['offered']:,} times"
        if explored and item["exploring"]:
            habit.append(f"{line}; chosen {item['exploring']:,} times exploring)")
        else:
            variant.append(line + (", never chosen exploring either)" if explored else ")"))
    if explored:
        total = rounds + cov["exploring"]["rounds"]
        head = (f"Never, in {total:,} rounds, even exploring: the variant's (a rule that cannot fire is a bug)"
                if variant else f"Every rule fired, every kind was played, every decision was asked and every "
                f"answer chosen, in {total:,} rounds")
    else:
        head = (f"Never, in {rounds:,} rounds of {agents} (it may be their habit)" if variant else
                "Every rule fired, every kind was played and every decision was asked")
    groups = [(head, variant)]
    if habit:
        groups.append((f"Never with {agents}, but done exploring: a habit of the agents, not the variant's",
                       habit))
    switches = [f"{o['name']} (-o {o['name']})" for o in cov["options_not_on"]]
    if switches:
        groups.append(("Switches not tried in this run", switches))
    return groups
