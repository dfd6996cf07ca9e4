"""The scores: points added during a round, a round's scoring, and the end of the game
and its winners. Like the table's operations (table.py), each is a function of the game's
state, bound to the game by engine/game.py as a member of the same name (`g.add_score` …).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from ..errors import RuntimeFault
from ..lang.compile import MAX_INT
from .machine import _holds, _value, emit
from .state import State
from .table import team

_points = attrgetter("points")


def add_score(g: State, p: int, points: int) -> None:
    """Add `points` to `p`'s score: with teams, to every score of `p`'s team. A score
    past MAX_INT is a runaway (it doubled every play) and stops the game."""
    for q in range(g.n) if g.team_of is not None else (p,):
        if team(g, q) == team(g, p):
            score = g.scores[q] + points
            if not -MAX_INT <= score <= MAX_INT:
                raise RuntimeFault(f"a score grew past {MAX_INT:,} (the most a game may count)")
            g.scores[q] = score


def score_round(g: State) -> None:
    """The round is over: its points are scored and round_end is told."""
    w = g.round_winner
    assert w is not None
    g.round_turns.append(g.turns)
    scoring = g.variant.scoring
    held = [sum(map(_points, hand)) for hand in g.hands]
    if g.team_of is not None:
        gained = _team_gains(g, w, held)
    elif scoring.round == "winner_scores_others":
        gained = [0] * g.n
        gained[w] = sum(held) - held[w]
    else:
        gained = held[:]
        gained[w] = 0
    scores = g.scores
    for q, points in enumerate(gained):
        if points:
            total = scores[q] + points
            if not -MAX_INT <= total <= MAX_INT:
                raise RuntimeFault(f"a score grew past {MAX_INT:,} (the most a game may count) in round {g.round}")
            scores[q] = total
    if "round_end" in g._watch:
        emit(g, "round_end", {"player": w, "points": gained, "team": team(g, w)})


def _team_gains(g: State, w: int, held: list[int]) -> list[int]:
    """What each seat gains this round with teams: all of a team gains its total."""
    team_of = g.team_of
    assert team_of is not None
    won = team_of[w]
    totals: dict[int, int] = {}
    for q, points in enumerate(held):
        totals[team_of[q]] = totals.get(team_of[q], 0) + points
    if g.variant.scoring.round == "winner_scores_others":
        others = sum(v for t, v in totals.items() if t != won)
        return [others if team_of[q] == won else 0 for q in range(g.n)]
    return [0 if team_of[q] == won else totals[team_of[q]] for q in range(g.n)]


def game_over(g: State) -> None:
    """After a round and its round_end rules: the game ends when a score reaches the
    target or `game_over` holds; then autoplay's rounds may be done."""
    scoring = g.variant.scoring
    target = scoring.target
    w = g.round_winner
    assert w is not None
    if ((target is not None and max(g.scores) >= target)
            or (scoring.game_over is not None and _holds(g, scoring.game_over, w))):
        g.winners = _winners(g)
        g.winner = g.winners[0]
        if "game_end" in g._watch:
            emit(g, "game_end", {"player": g.winner, "winners": list(g.winners),
                                 "scores": list(g.scores), "team": team(g, g.winner)})
    if g._stop_after is not None and len(g.round_turns) >= g._stop_after:
        g._agents = None  # autoplay's rounds are done: the next decision waits


def _winners(g: State) -> tuple[int, ...]:
    """The seats with the best total among the teams still in (a team is out when all
    its players are), in seat order; the variant's tie-break, if any, settles a tie
    between teams (the highest value wins). More than one team left: a tie."""
    scoring, scores = g.variant.scoring, g.scores
    pick = max if scoring.winner == "highest" else min
    if g.team_of is None and not g.out:  # (every player is a team of one, and in)
        best = pick(scores)
        if scores.count(best) == 1:
            return (scores.index(best),)
        seats: Sequence[int] = range(g.n)
    else:
        teams_in = {team(g, q) for q in range(g.n) if q not in g.out}
        seats = [q for q in range(g.n) if team(g, q) in teams_in]
        best = pick(scores[q] for q in seats)
    tied = [q for q in seats if scores[q] == best]
    if scoring.tie_break is not None and len({team(g, q) for q in tied}) > 1:
        values = {q: _value(g, scoring.tie_break, q) for q in tied}
        top = max(values.values())
        tied = [q for q in tied if values[q] == top]
    return tuple(tied)

