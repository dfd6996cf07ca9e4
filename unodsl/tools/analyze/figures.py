"""The lab's figures, by section, from an Analysis: each with its stable name, value,
95% interval and one-line meaning (docs/analyze.md defines each and gives its source).

`figures(a)` is the flat table (name → Figure) that `--json`, `--compare`, `--power`
and a tuner read; `report(a)` is the whole JSON document, figures grouped by section
with the tables behind them (seats, calibration, card power, coverage, the ladder).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..simulation import describe, proportion
from ..stats import wilson
from .coverage import coverage
from .estimates import Figure, largest_gap, mean, normal, paired, quantile_figure, rate
from .evaluator import CLEAR
from .passes import AVOID, RUSH
from .result import Analysis
from .verdict import judged, said, verdict
from .watch import BINS, MICRO

DOMINANT = 0.05  # playing a kind at once wins at least this much more often (the interval's lower end)
USELESS = 0.02   # avoiding or rushing a kind changes the win rate by less than this (both whole intervals)


def ideal_score(value: int, lo: float, hi: float) -> float:
    """Ludii's IdealDuration score of one round or game: 1 inside [lo, hi], value/lo below
    it, and 1 − (value − hi)/hi above it (0 from twice hi)."""
    if value < lo:
        return value / lo
    if value > hi:
        return 1 - min(1.0, (value - hi) / hi)
    return 1.0


def _ideal_hist(hist: Mapping[int, int], lo: float, hi: float) -> Counter[int]:
    out: Counter[int] = Counter()
    for v, c in hist.items():
        out[round(ideal_score(v, lo, hi) * MICRO)] += c
    return out


# --------------------------------------------------------------------------
# Sections


def outcome(a: Analysis) -> tuple[list[Figure], dict[str, Any]]:
    n, t, lab = a.players, a.sim, a.lab
    rounds = t.rounds
    fair = 1 / n
    seats = [rate(f"seat_win_rate.first+{k}", lab.wins_from_first[k], rounds,
                  f"round wins of the seat {k} after the player who played first" if k else
                  "round wins of the player who played first") for k in range(n)]
    figs = [
        rate("first_seat_advantage", lab.wins_from_first[0], rounds,
             "round wins of the player who plays first, above a fair share (1/players)", minus=fair),
        rate("dealer_advantage", t.round_wins_from_dealer[0], rounds,
             "round wins of the dealer, above a fair share", minus=fair),
        largest_gap("balance", seats, rounds, "1 − the largest gap between two seats' round win rates (1: every "
                    "seat wins alike)", complement=True, shares_of=rounds),
        rate("runaway_rate", t.runaway, rounds + t.runaway + t.failed,
             "rounds stopped by the turn guard (--max-turns) without a winner"),
        rate("failure_rate", t.failed, rounds + t.runaway + t.failed,
             "rounds stopped by an error of the variant"),
    ]
    figs += seats
    if a.teams:
        teams = sorted(lab.team_wins)
        figs += [rate(f"team_win_rate.{k}", lab.team_wins[k], rounds, f"round wins of team {k}") for k in teams]
    names = list(dict.fromkeys(a.agents))
    if len(names) > 1:
        for name in names:
            share = a.agents.count(name) / n
            figs.append(rate(f"agent_win_rate.{name}", t.agent_round_wins[name], rounds,
                             f"round wins of {name}, above its fair share ({share:.0%} of the seats)",
                             minus=share))
    detail: dict[str, Any] = {
        "rounds": rounds,
        "by_seat_from_first": [proportion(c, rounds) for c in lab.wins_from_first],
        "by_seat_from_dealer": [proportion(c, rounds) for c in t.round_wins_from_dealer],
    }
    g = a.games
    if g is not None and a.game_count:
        gs = g.sim
        started, done = gs.games, gs.completed
        first = [rate(f"game_seat_win_rate.dealer+{k}", gs.game_wins_from_dealer[k], done,
                      f"game wins of the seat {k} after round 1's dealer") for k in range(n)]
        figs += [
            rate("completion", done, started, "games played to their end (not stopped by a guard or an error)",
                 unit="game"),
            rate("timeout_rate", gs.timeouts, started, "games stopped by the rounds guard (no one reached the "
                 "target)", unit="game"),
            rate("game_runaway_rate", gs.runaway, started, "games abandoned at a runaway round", unit="game"),
            rate("tie_rate", g.ties.get("tied", 0), done, "games won by more than one team (a tie that "
                 "scoring.tie_break did not settle)", unit="game"),
            rate("game_first_seat_advantage", gs.game_wins_from_dealer[1 % n], done,
                 "game wins of the seat after round 1's dealer, above a fair share", minus=fair, unit="game"),
            largest_gap("game_balance", first, done, "1 − the largest gap between two seats' game win rates",
                        complement=True, shares_of=done),
        ]
        detail["games"] = {"started": started, "completed": done,
                           "by_seat_from_first_dealer": [proportion(c, done) for c in gs.game_wins_from_dealer]}
    return figs, detail


def duration(a: Analysis) -> tuple[list[Figure], dict[str, Any]]:
    t = a.sim
    turns = t.turns_per_round
    figs = [
        mean("turns_per_round", turns, "turns in a round, on average (a turn: one player's go)"),
        quantile_figure("turns_per_round.median", turns, 0.5, "the middle round's number of turns"),
        quantile_figure("turns_per_round.p95", turns, 0.95, "95% of rounds are at most this long"),
        mean("points_per_round", t.points_per_round, "points handed out by a round's scoring"),
        mean("reshuffles_per_round", t.reshuffles_per_round, "times the discard pile became the draw pile"),
    ]
    detail: dict[str, Any] = {"turns_per_round": describe(turns, histogram=True)}
    target = a.design.get("turns_per_round")
    if target:
        figs.append(mean("ideal_duration", _ideal_hist(turns, *target), f"rounds' closeness to the designer's "
                         f"{target[0]:g} to {target[1]:g} turns (100%: every round inside; Ludii's "
                         "IdealDuration)", scale=MICRO, percent=True))
        figs.append(rate("turns_per_round.in_range", sum(c for v, c in turns.items() if target[0] <= v <= target[1]),
                         t.rounds, f"rounds of {target[0]:g} to {target[1]:g} turns (design: turns_per_round)"))
        detail["design"] = {"turns_per_round": list(target)}
    g = a.games
    if g is not None and a.game_count:
        per_game = g.sim.rounds_per_game
        figs += [mean("rounds_per_game", per_game, "rounds in a game, on average", unit="game"),
                 quantile_figure("rounds_per_game.median", per_game, 0.5, "the middle game's number of rounds",
                                 unit="game")]
        detail["rounds_per_game"] = describe(per_game, histogram=True)
        target = a.design.get("rounds_per_game")
        if target:
            figs.append(mean("ideal_duration.games", _ideal_hist(per_game, *target), "games' closeness to the "
                             f"designer's {target[0]:g} to {target[1]:g} rounds (Ludii's IdealDuration)", scale=MICRO,
                             unit="game", percent=True))
            detail.setdefault("design", {})["rounds_per_game"] = list(target)
    return figs, detail


def tension(a: Analysis) -> tuple[list[Figure], dict[str, Any]]:
    lab = a.lab
    figs = [
        mean("lead_changes", lab.lead_changes, "times a round the favourite changed (the player with the best "
             "chance to win, judged from what every player can see); more: a more open round"),
        mean("drama", lab.drama, "how far behind the favourite the eventual winner was, in chance to win, on "
             "average over a round's turns: 0 when the winner always led, higher with more comebacks",
             scale=MICRO, percent=True),
        mean("decisiveness", lab.clear_turns, f"turns played before the winner was clear (their chance ≥ {CLEAR} "
             "from then to the end); late is tense"),
        mean("decisiveness.share", lab.clear_share, "the share of the round played before the winner was clear",
             scale=MICRO, percent=True),
    ]
    brier = mean("evaluator.brier", lab.brier, "how wrong the evaluator's chances were on rounds it was not "
                 "fitted on (Brier score: mean squared error; 0 is perfect)", scale=MICRO)
    fair = mean("evaluator.brier_fair", lab.brier_fair, "the same error for chances that give every player a "
                "fair share: what guessing scores", scale=MICRO)
    if brier.value is not None and fair.value:
        skill = 1 - brier.value / fair.value
        se = math.hypot(brier.se or 0.0, fair.se or 0.0) / fair.value
        figs += [brier, fair, normal("evaluator.skill", skill, se, brier.n, "how much better than guessing the "
                                     "evaluator tells who will win (Brier skill: 0% no better, 100% perfect); the "
                                     "tension figures mean more the higher it is", method="delta method, normal",
                                     most=1.0)]
    calibration = []
    for b in range(BINS):
        count = lab.calib_n[b]
        lo, hi = wilson(lab.calib_won[b], count) if count else (math.nan, math.nan)
        calibration.append({"predicted": [b / BINS, (b + 1) / BINS], "positions": count,
                            "mean_predicted": round(lab.calib_p[b] / MICRO / count, 4) if count else None,
                            "won": round(lab.calib_won[b] / count, 4) if count else None,
                            "won_ci95": [round(lo, 4), round(hi, 4)] if count else None})
    ev = a.evaluator
    detail = {"evaluator": {"training_rounds": ev.rounds, "training_positions": ev.positions,
                            "keys": sum(1 for k in ev.seen if len(k) == 4), "clear_at": CLEAR},
              "calibration": calibration}
    return figs, detail


def downtime(a: Analysis) -> tuple[list[Figure], dict[str, Any]]:
    lab, n = a.lab, a.players
    forced: Counter[int] = Counter()
    skips: Counter[int] = Counter()
    for k in range(n):
        forced.update(lab.forced_draws[k])
        skips.update(lab.skips[k])
    figs = [
        mean("longest_wait", lab.longest_wait, "a player's longest run of turns in a round without playing a "
             "card (draws, passes and lost turns)", unit="player-round"),
        quantile_figure("longest_wait.p95", lab.longest_wait, 0.95, "95% of players' longest waits are at most "
                        "this", unit="player-round"),
        mean("forced_draws", forced, "cards a player is made to draw by others in a round", unit="player-round"),
        mean("skips_received", skips, "turns a player loses in a round", unit="player-round"),
        mean("attacks_per_round", lab.attacks_per_round, "attacks in a round (a player made to draw or lose a "
             "turn by another's play; one per player hit per turn)"),
        rate("leader_hit_rate", lab.leader_hits, lab.attacks, "attacks that hit a leader (an opponent with the "
             "fewest cards)", unit="attack"),
    ]
    if lab.attacks:
        expected = lab.leader_expected / MICRO / lab.attacks
        figs.append(rate("leader_hit_excess", lab.leader_hits, lab.attacks, "leader hits above the share an "
                         f"attack at a random opponent would give ({expected:.1%})", minus=expected, unit="attack"))
        figs.append(rate("attack_on_next", lab.attacks_at.get(1, 0), lab.attacks, "attacks that land on the next "
                         "player", unit="attack"))
    detail = {
        "by_seat_from_first": [{"seat": f"first+{k}", "forced_draws": _brief(lab.forced_draws[k]),
                                "skips_received": _brief(lab.skips[k])} for k in range(n)],
        "attacks_by_seat_from_attacker": {f"+{k}": proportion(lab.attacks_at.get(k, 0), lab.attacks)
                                          for k in range(1, n)},
        "longest_wait": describe(lab.longest_wait, histogram=True),
    }
    return figs, detail


def _brief(hist: Mapping[int, int]) -> dict[str, Any] | None:
    """A per-seat mean count with its interval (as the figures': never below zero)."""
    f = mean("", hist, "")
    if f.value is None:
        return None
    d = f.as_dict()
    return {"n": f.n, "mean": d["value"], "ci95": d["ci95"]}


def card_power(a: Analysis) -> tuple[list[Figure], dict[str, Any]]:
    counts = a.power
    if counts is None:
        return [], {}
    figs: list[Figure] = []
    rows: list[dict[str, Any]] = []
    powers: list[Figure] = []
    for kind in a.kinds:
        avoid = {k: counts.get(f"{kind}|{AVOID}|{k}", 0) for k in ("00", "01", "10", "11")}
        rush = {k: counts.get(f"{kind}|{RUSH}|{k}", 0) for k in ("00", "01", "10", "11")}
        power = paired(f"card_power.{kind}", avoid, f"never playing {kind} (when there is another choice) costs "
                       "this much of a player's win rate; above zero: a card worth having (same rounds, paired)")
        rushed = paired(f"card_rush.{kind}", {"01": rush["10"], "10": rush["01"], "00": rush["00"],
                                              "11": rush["11"]},
                        f"playing {kind} at once, whenever possible, gains this much win rate (below zero: "
                        "loses it); well above zero: a card to play at once")
        n_rounds = sum(avoid.values())
        base = sum(avoid[k] for k in ("10", "11"))
        bitten = counts.get(f"{kind}|{AVOID}|bitten", 0)
        figs += [power, rushed]
        powers.append(power)
        rows.append({"kind": kind, "power": power.as_dict(), "rush": rushed.as_dict(), "_figs": (power, rushed),
                     "never_playing_it": said(power, "costs", "gains"),
                     "playing_it_at_once": said(rushed, "gains", "loses"),
                     "baseline_win_rate": round(base / n_rounds, 6) if n_rounds else None,
                     "avoid_win_rate": round(sum(avoid[k] for k in ("01", "11")) / n_rounds, 6) if n_rounds else None,
                     "rush_win_rate": round(sum(rush[k] for k in ("01", "11")) / n_rounds, 6) if n_rounds else None,
                     "rounds_restricted": bitten, "rounds": n_rounds})
    for row in rows:
        power, rushed = row.pop("_figs")
        row["flag"] = _flag(power, rushed, row["rounds_restricted"])
    if len(powers) > 1:
        figs.append(largest_gap("card_power.spread", powers, a.power_rounds, "what never playing the strongest "
                                "kind costs, less what never playing the weakest costs"))
    rows.sort(key=lambda r: -float(r["power"]["value"] or 0.0))
    return figs, {"rounds": a.power_rounds, "dominant_at": DOMINANT, "useless_within": USELESS, "kinds": rows}


def _flag(power: Figure, rush: Figure, bitten: int) -> str:
    """"dominant" (playing it at once, whenever possible, wins at least DOMINANT more often:
    the interval's lower end), "useless" (avoiding and rushing it both change the win rate
    by less than USELESS, whole intervals), "never restricted" (the rule never changed a
    choice) or "". (Avoiding a kind costs more the more common it is, so its power alone
    does not make it dominant.)"""
    if bitten == 0:
        return "never restricted"
    if rush.ci95 is not None and rush.ci95[0] >= DOMINANT:
        return "dominant"
    inside = [f.ci95 is not None and f.ci95[0] > -USELESS and f.ci95[1] < USELESS for f in (power, rush)]
    return "useless" if all(inside) else ""


def skill(a: Analysis) -> tuple[list[Figure], dict[str, Any]]:
    if not a.ladder:
        return [], {}
    figs: list[Figure] = []
    rows = []
    table_edges: list[Figure] = []
    for rung in a.ladder:
        c = rung.counts
        where = "table" if rung.players == a.players else "heads_up"
        f = rate(f"skill.{rung.upper}>{rung.lower}.{where}", c.get("won", 0), c.get("rounds", 0),
                 f"round wins of {rung.upper} in one seat against {rung.lower} in the other "
                 f"{rung.players - 1}, above a fair share", minus=1 / rung.players)
        figs.append(f)
        if where == "table":
            table_edges.append(f)
        rows.append({"lower": rung.lower, "upper": rung.upper, "players": rung.players, "rounds": c.get("rounds", 0),
                     "won": c.get("won", 0), "failed": c.get("failed", 0), "edge": f.as_dict(),
                     "seconds": round(rung.seconds, 3)})
    if table_edges and all(e.value is not None for e in table_edges):
        total = sum(e.value or 0.0 for e in table_edges)
        se = math.sqrt(sum((e.se or 0.0) ** 2 for e in table_edges))
        figs.append(normal("skill_gain", total, se, a.ladder_rounds, "how much skill matters: the win-rate edges "
                           "of each rung of the ladder over the one below at the table, added up",
                           method="sum of independent rungs, normal"))
    chain = sum(1 for e in table_edges if e.ci95 is not None and e.ci95[0] > 0)
    return figs, {"rounds_per_rung": a.ladder_rounds, "rungs": rows, "chain": chain}


SECTIONS = (("outcome", outcome), ("duration", duration), ("tension", tension), ("downtime", downtime),
            ("card_power", card_power), ("skill", skill))


def figures(a: Analysis) -> dict[str, Figure]:
    """Every figure by its stable name."""
    out: dict[str, Figure] = {}
    for _, section in SECTIONS:
        for f in section(a)[0]:
            out[f.name] = f
    return out


def report(a: Analysis) -> dict[str, Any]:
    """The whole JSON document of a run."""
    sections: dict[str, Any] = {}
    flat: dict[str, Any] = {}
    for name, section in SECTIONS:
        figs, detail = section(a)
        sections[name] = {"figures": [f.name for f in figs], **detail}
        flat.update({f.name: f.as_dict() for f in figs})
    v = a.variant
    x = a.explored
    sections["coverage"] = coverage(v, a.lab, a.sim.plays, a.sim.rounds, a.decisions,
                                    x.lab if x else None, x.sim.plays if x else None,
                                    x.sim.rounds if x else 0, made=a.sim.plays_made,
                                    explored_made=x.sim.plays_made if x else None) if v is not None else {}
    doc = {
        "variant": {"name": a.name, "file": a.file, "options": list(a.options_on)},
        "players": a.players, "agents": list(a.agents), "seed": a.seed,
        "rounds": a.rounds, "games": a.game_count, "power_rounds": a.power_rounds, "ladder_rounds": a.ladder_rounds,
        "failures": [f.as_dict() for f in a.sim.failures] + ([{"pass": "games", **f.as_dict()}
                                                              for f in a.games.sim.failures] if a.games else []),
        "timing": {**{k: round(v, 3) for k, v in a.timing.items()}, "workers": a.workers},
        "figures": flat, "sections": sections,
    }
    by_name = figures(a)
    if v is not None and v.targets:
        doc["targets"] = judged(v.targets, by_name)
    return {"verdict": verdict(by_name, doc), **doc}
