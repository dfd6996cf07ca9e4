"""Coverage: what a variant can do, read from its file, against what the simulated rounds did.

What it can do: its rules (by `name:`), the card kinds in its deck, the decisions
its expressions can put to a player (`choose_color`, `choose_player`,
`choose_card`, each `ask(…, "question")` with a literal question, `jump_in`) and
those of every turn (play or draw; a drawn card when the draw rule lets it be
played), and its switches (options that are on or off). A rule that never fired, a kind never played, a decision
never asked in thousands of rounds is most often a bug (CardStock/RECYCLE's rule
coverage). An item never seen is shown with the 95% upper bound of its rate.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...errors import UnoDslError
from ...lang import ast
from ...lang.walk import calls
from ...model import Variant
from ...variant.expressions import parse_once
from ...variant.options import apply_patches, choose, declare
from ...variant.resolve import load_tree
from ..stats import wilson
from .watch import LabTally

PROGRAM_KEYS = frozenset({"on_play", "do", "setup", "first_dealer", "next_dealer"})
CHOICES = {"choose_color": "color", "choose_player": "player", "choose_card": "card", "jump_in": "jump"}


def _programs(data: Any) -> Iterator[str]:
    """Every effect program's text in a merged variant file."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in PROGRAM_KEYS and isinstance(value, str):
                yield value
            else:
                yield from _programs(value)
    elif isinstance(data, list):
        for item in data:
            yield from _programs(item)


def possible_decisions(variant: Variant) -> list[str]:
    """The decisions the variant can put to a player, named as coverage names them."""
    found = {"turn": None}
    if variant.turn.draw.then == "may_play":
        found["drawn"] = None
    try:
        src = load_tree(variant.file)
        declared, _ = declare(src)
        merged = apply_patches(src, choose(src, declared, {o.name: o.value for o in variant.options}))
        texts = list(_programs({k: v for k, v in merged.data.items() if k != "options"}))  # patches of options off
    except (UnoDslError, OSError):
        texts = []
    for text in texts:
        try:
            tree = parse_once(text)
        except UnoDslError:
            continue
        for call in calls(tree):
            if call.func in CHOICES:
                found[CHOICES[call.func]] = None
            elif call.func == "ask" and len(call.args) >= 2 and isinstance(call.args[1], ast.Literal) \
                    and isinstance(call.args[1].value, str):
                found[f'ask "{call.args[1].value}"'] = None
    return sorted(found)


def deck_kinds(variant: Variant) -> list[str]:
    """The card kinds that are in the deck (on either side), in the order of `cards:`."""
    on = {f.kind for side in variant.sides for f in side.faces}
    return [k for k in variant.kinds if k in on]


def _never(seen: Mapping[str, int], names: list[str], rounds: int) -> list[dict[str, Any]]:
    upper = wilson(0, rounds)[1] if rounds else None
    return [{"name": name, "upper95_per_round": None if upper is None else round(upper, 6)}
            for name in names if not seen.get(name)]


def coverage(variant: Variant, lab: LabTally, plays: Mapping[str, int], rounds: int,
             decisions: list[str]) -> dict[str, Any]:
    """What never happened in `rounds` rounds, and how often each thing did."""
    rules = [r.name for r in variant.rules]
    kinds = deck_kinds(variant)
    offered_never = sorted(k for k, v in lab.offered.items() if v and not lab.chosen.get(k))
    return {
        "rounds": rounds,
        "rules": {name: lab.rules_fired.get(name, 0) for name in rules},
        "rules_never_fired": _never(lab.rules_fired, rules, rounds),
        "kinds": {k: plays.get(k, 0) for k in kinds},
        "kinds_never_played": _never(plays, kinds, rounds),
        "decisions": {d: lab.choices.get(d, 0) for d in sorted(set(decisions) | set(lab.choices))},
        "decisions_never_asked": _never(lab.choices, decisions, rounds),
        "answers_never_chosen": [{"answer": k, "offered": lab.offered[k]} for k in offered_never],
        "options_not_on": [{"name": o.name, "description": o.description}
                           for o in variant.options if o.type == "bool" and not o.enabled],
    }
