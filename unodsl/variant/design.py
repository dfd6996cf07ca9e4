"""The `design:` section: the designer's targets on the balance lab's figures, and what
`unodsl tune` may change. No game reads it.

The grammar is small and regular. Under `design:`, every key but `vary` names a figure
of the lab (docs/analyze.md), and its value is a *target*:

    [lo, hi]                      the figure kept from lo to hi
    {min: lo}, {max: hi}, both    the same, one end open
    {goal: lowest | highest}      as low (or high) as possible
    {SUB: target, ...}            a target on the figure NAME.SUB (`median`, `p95`, a card kind)

so `turns_per_round: {median: [25, 45]}` is a target on `turns_per_round.median`, and a
map may bound its own figure and sub-figures at once (`{max: 40, p95: {max: 60}}`). A
bound on `turns_per_round` or `rounds_per_game` with both ends is also the ideal range
the lab scores each round or game against (Ludii's IdealDuration), as before.

`vary:` names what may change, each with `[lo, hi]` (whole numbers) or `true` (its whole
declared range): a number option (`hand_size`), a switch (`draw_until_playable: true`:
off and on), `count.KIND` (the copies of a card kind in its deck group: per colour for a
`per_color` group, else its `count`), or `deal` (the number option that `round.setup`
deals: `deal(option.hand_size)`). Nothing else can change.

The catalogue of figure names lives here, below the lab (tools/analyze/figures.py) that
computes them; a test holds the two together.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from ..errors import did_you_mean
from ..lang.static import option_read
from ..lang.walk import calls
from ..model import Target, Tunable
from .expressions import Expressions
from .source import Key

# The pass of the lab that computes each figure: "rounds" (the main pass), "tension" (the
# main pass with a trained evaluator), "games", "power" (restricted play), "ladder".
FIGURES: dict[str, str] = {
    **dict.fromkeys(("first_seat_advantage", "dealer_advantage", "balance", "runaway_rate", "failure_rate",
                     "turns_per_round", "turns_per_round.median", "turns_per_round.p95", "points_per_round",
                     "reshuffles_per_round", "ideal_duration", "turns_per_round.in_range", "longest_wait",
                     "longest_wait.p95", "forced_draws", "skips_received", "attacks_per_round", "leader_hit_rate",
                     "leader_hit_excess", "attack_on_next"), "rounds"),
    **dict.fromkeys(("lead_changes", "drama", "decisiveness", "decisiveness.share", "evaluator.brier",
                     "evaluator.brier_fair", "evaluator.skill"), "tension"),
    **dict.fromkeys(("completion", "timeout_rate", "game_runaway_rate", "tie_rate", "game_first_seat_advantage",
                     "game_balance", "rounds_per_game", "rounds_per_game.median", "ideal_duration.games"), "games"),
    "card_power.spread": "power",
    "skill_gain": "ladder",
}
# Figures named after something of the run: (prefix, what follows it, pass).
PATTERNS: tuple[tuple[str, str, str], ...] = (
    ("seat_win_rate.first+", "seat", "rounds"), ("team_win_rate.", "team", "rounds"),
    ("agent_win_rate.", "agent", "rounds"), ("game_seat_win_rate.dealer+", "seat", "games"),
    ("card_power.", "kind", "power"), ("card_rush.", "kind", "power"), ("skill.", "rung", "ladder"),
)
IDEAL = ("turns_per_round", "rounds_per_game")  # a two-sided bound on these is the lab's ideal range
GOALS = ("lowest", "highest")
BOUND_KEYS = ("min", "max", "goal")
_SKILL = re.compile(r"^skill\.[^>]+>[^>]+\.(table|heads_up)$")


def figure_pass(name: str, kinds: Iterable[str] = (), players: int = 10) -> str | None:
    """The lab pass that computes figure `name`, or None if the lab has no such figure
    (`kinds`: the variant's card kinds; `players`: the largest table)."""
    if name in FIGURES:
        return FIGURES[name]
    for prefix, what, where in PATTERNS:
        if not name.startswith(prefix) or name == prefix:
            continue
        rest = name[len(prefix):]
        if what == "seat":
            return where if rest.isdigit() and int(rest) < players else None
        if what == "team":
            return where if rest.isdigit() else None
        if what == "kind":
            return where if rest in set(kinds) else None
        if what == "rung":
            return where if _SKILL.match(name) else None
        return where
    return None


def figure_names(kinds: Iterable[str]) -> list[str]:
    """Names to suggest for a misspelt figure."""
    return [*FIGURES, *(f"card_power.{k}" for k in kinds), *(f"card_rush.{k}" for k in kinds)]


class Design:
    """Reads `design:` of a merged file into the ideal ranges, the targets and what may vary,
    reporting every mistake at its position (in `x.diags`)."""

    def __init__(self, x: Expressions, data: Mapping[str, Any], max_players: int) -> None:
        self.x, self.data, self.max_players = x, data, max_players
        self.ideal: dict[str, tuple[float, float]] = {}
        self.targets: list[Target] = []
        self.vary: list[Tunable] = []

    def read(self, raw: Mapping[str, Any]) -> Design:
        for name, value in raw.items():
            if name == "vary":
                if not value:
                    self.x.error(("design", "vary"), "design: vary: names nothing that may change, so there is "
                                 "nothing to tune", "for example vary: {hand_size: [5, 9]}; or remove vary:",
                                 on_key=True)
                for pname, given in (value or {}).items():
                    found = self.tunable(pname, given, ("design", "vary", pname))
                    if found is not None:
                        self.vary.append(found)
            else:
                self.target(name, value, ("design", name))
        return self

    # -- targets ----------------------------------------------------------------

    def target(self, figure: str, value: Any, key: Key) -> None:
        x = self.x
        if isinstance(value, list):
            lo, hi = value
            if lo > hi:
                x.error((*key, 0), f"design: {figure} runs from {_n(lo)} down to {_n(hi)}; the first number is "
                        "the fewest, the second the most", f"write [{_n(hi)}, {_n(lo)}]")
            self.add(figure, key, float(lo), float(hi), None)
            return
        bounds = {k: value[k] for k in BOUND_KEYS if k in value}
        if bounds:
            lo, hi, goal = bounds.get("min"), bounds.get("max"), bounds.get("goal")
            if goal is not None and (lo is not None or hi is not None):
                x.error((*key, "goal"), f"design: {figure} has a goal and a bound; a target is one or the other",
                        "keep min/max (a bound to meet) or goal (as low or high as possible)")
            elif lo is not None and hi is not None and lo > hi:
                x.error((*key, "min"), f"design: {figure} has min {_n(lo)} above max {_n(hi)}",
                        "swap the two numbers")
            else:
                self.add(figure, key, None if lo is None else float(lo), None if hi is None else float(hi), goal)
        subs = [k for k in value if k not in BOUND_KEYS]
        if not bounds and not subs:
            x.error(key, f"design: {figure} sets no target", "give [lo, hi], min:, max: or goal: lowest|highest")
        for sub in subs:
            self.target(f"{figure}.{sub}", value[sub], (*key, sub))

    def add(self, figure: str, key: Key, lo: float | None, hi: float | None, goal: str | None) -> None:
        kinds = list(self.data.get("cards") or {})
        if figure_pass(figure, kinds, self.max_players) is None:
            hint = did_you_mean(figure, figure_names(kinds)) or "the figures are listed in docs/analyze.md " \
                "(unodsl analyze --json names them all)"
            self.x.error(key, f"design: no figure named {figure!r}", hint, on_key=True)
            return
        if figure in IDEAL and lo is not None and hi is not None and lo <= hi:
            self.ideal[figure] = (_whole(lo), _whole(hi))
        self.targets.append(Target(figure, lo, hi, _goal(goal)))

    # -- what may vary ------------------------------------------------------------

    def tunable(self, name: str, given: Any, key: Key) -> Tunable | None:
        """One entry of `vary:`; a mistake is reported and gives None."""
        x = self.x
        options = {k: v for k, v in (self.data.get("options") or {}).items() if isinstance(v, dict)}
        if given is False:
            x.error(key, f"design: vary: {name}: false changes nothing", "remove the line, or give [lo, hi]")
            return None
        if name == "deal":
            option = self.deal_option()
            if option is None:
                return None
            return self.option_range(name, option, options[option], given, key)
        if name.startswith("count."):
            return self.count(name, name[len("count."):], given, key)
        if name not in options:
            hint = did_you_mean(name, [*options, "deal"]) or (
                "vary number options, switches, count.KIND (a card kind's copies) or deal")
            x.error(key, f"design: vary: {name!r} is not an option of this variant", hint, on_key=True)
            return None
        return self.option_range(name, name, options[name], given, key)

    def option_range(self, name: str, option: str, decl: Mapping[str, Any], given: Any, key: Key) -> Tunable | None:
        x = self.x
        if decl.get("type", "bool") == "bool":
            if given is not True:
                x.error(key, f"design: vary: {name} is switched on or off, so it varies with `true` (off and on)",
                        f"write {name}: true")
                return None
            return Tunable(name, "switch", option, 0, 1)
        lo, hi = decl.get("min"), decl.get("max")
        if given is True:
            if lo is None or hi is None:
                x.error(key, f"design: vary: option {option!r} has no min and max, so `true` gives no range",
                        f"give the range here: {name}: [lo, hi]")
                return None
            return Tunable(name, "option", option, int(lo), int(hi))
        a, b = self.range_of(name, given, key)
        if a is None or b is None:
            return None
        if (lo is not None and a < lo) or (hi is not None and b > hi):
            x.error((*key, 0 if lo is not None and a < lo else 1), f"design: vary: {name} goes from {a} to {b}, "
                    f"outside option {option!r}'s range {_range(lo, hi)}",
                    "narrow it, or widen the option's min and max")
            return None
        return Tunable(name, "option", option, a, b)

    def count(self, name: str, kind: str, given: Any, key: Key) -> Tunable | None:
        x = self.x
        kinds = list(self.data.get("cards") or {})
        if kind not in kinds:
            x.error(key, f"design: vary: {name}: no card kind {kind!r}",
                    did_you_mean(kind, kinds) or f"card kinds: {', '.join(kinds)}", on_key=True)
            return None
        if "sides" in self.data:
            x.error(key, f"design: vary: {name}: the deck has two sides, and a count changed on one would "
                    "leave the sides unequal", "vary a number option the sides' decks read instead", on_key=True)
            return None
        groups = [i for i, g in enumerate(self.data.get("deck") or [])
                  if kind == g.get("kind") or (isinstance(g.get("kind"), list) and kind in g["kind"])]
        if len(groups) != 1:
            x.error(key, f"design: vary: {name}: {kind!r} is in {len(groups)} deck groups, so its count is "
                    "not one number", "vary the count of a kind that has one deck group", on_key=True)
            return None
        if given is True:
            x.error(key, f"design: vary: {name} needs its range: [fewest, most] copies", f"for example {name}: [0, 4]")
            return None
        a, b = self.range_of(name, given, key)
        if a is None or b is None:
            return None
        return Tunable(name, "count", kind, a, b)

    def range_of(self, name: str, given: Any, key: Key) -> tuple[int | None, int | None]:
        if not isinstance(given, list):
            self.x.error(key, f"design: vary: {name} takes [lo, hi] or true", f"for example {name}: [1, 4]")
            return None, None
        a, b = given
        if a > b:
            self.x.error((*key, 0), f"design: vary: {name} runs from {a} down to {b}", f"write [{b}, {a}]")
            return None, None
        return int(a), int(b)

    def deal_option(self) -> str | None:
        """The number option `round.setup` deals (`deal(option.NAME)`), or None after an error."""
        x = self.x
        tree = x.trees.get(("round", "setup"))
        deals = [c for c in calls(tree) if c.func == "deal"] if tree is not None else []
        read = [option_read(c.args[0]) for c in deals if c.args]
        names = [n for n in read if n is not None]
        if not deals:
            x.error(("design", "vary", "deal"), "design: vary: deal: round.setup never calls deal()",
                    "vary the option or the count that sets the hands instead", on_key=True)
        elif not names:
            x.error(("design", "vary", "deal"), "design: vary: deal: round.setup deals a number written in "
                    "the file, which tune cannot change", "declare a number option (hand_size: {type: int, "
                    "default: 7, min: 1, max: 10}) and deal(option.hand_size)", on_key=True)
        elif len(set(names)) > 1:
            x.error(("design", "vary", "deal"), f"design: vary: deal: round.setup deals several options "
                    f"({', '.join(sorted(set(names)))})", "vary each option by its name", on_key=True)
        else:
            return names[0]
        return None


def _goal(goal: Any) -> Literal["lowest", "highest"] | None:
    return "lowest" if goal == "lowest" else "highest" if goal == "highest" else None


def _whole(x: float) -> float:
    """x, as an int when it is a whole number (a range of turns reads [20, 60], not [20.0, 60.0])."""
    return int(x) if float(x).is_integer() else x


def _n(x: float) -> str:
    return f"{int(x)}" if float(x).is_integer() and math.isfinite(x) else f"{x:g}"


def _range(lo: Any, hi: Any) -> str:
    return f"{'…' if lo is None else lo}–{'…' if hi is None else hi}"
