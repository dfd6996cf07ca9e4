"""What a batch counts: the Tally of its games, a failed game's Failure, and the
Recorder that feeds a tally from one game's events.

Every figure is kept as an integer counter or a histogram of integers (turns per
round, rounds per game, points per round, reshuffles per round), so memory does not
grow with the number of games, tallies from several worker processes merge exactly,
and the figures are the same for any number of workers. The histograms and the plays
added to at every round are plain dicts (a key never seen is absent: read them with
`.get(key, 0)`): a Counter's update costs twice a dict's, at every round of a batch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine.game import Game

KEPT_FAILURES = 20  # failed games described in full (by game index); the rest are only counted


@dataclass
class Tally:
    """Counters of a batch of games; two tallies of disjoint games merge exactly."""

    players: int
    games: int = 0                 # games started
    completed: int = 0             # games played to the end (games mode) or rounds (rounds mode)
    ties: int = 0                  # games that ended in a tie between teams (players), no one's win
    runaway: int = 0               # rounds stopped by the max_turns guard (their game is abandoned)
    turns_played: int = 0          # every turn, abandoned rounds included (for speed)
    game_wins: list[int] = field(default_factory=list)             # by seat
    game_wins_from_dealer: list[int] = field(default_factory=list)  # by seat after round 1's dealer
    round_wins: list[int] = field(default_factory=list)            # by seat
    round_wins_from_dealer: list[int] = field(default_factory=list)  # by seat after the round's dealer
    agent_game_wins: Counter[str] = field(default_factory=Counter)   # by the winning seat's agent in that game
    agent_round_wins: Counter[str] = field(default_factory=Counter)  # by the winning seat's agent in that round
    rounds_per_game: dict[int, int] = field(default_factory=dict)
    turns_per_round: dict[int, int] = field(default_factory=dict)
    points_per_round: dict[int, int] = field(default_factory=dict)
    reshuffles_per_round: dict[int, int] = field(default_factory=dict)
    plays: dict[str, int] = field(default_factory=dict)     # card kind → plays
    plays_sq: dict[str, int] = field(default_factory=dict)  # card kind → Σ (plays in a round)²
    plays_made: dict[str, int] = field(default_factory=dict)     # declared play (turn: plays:) → times made
    plays_made_sq: dict[str, int] = field(default_factory=dict)  # declared play → Σ (times in a round)²
    failed: int = 0                # games stopped by an error (a runtime error of the variant, …)
    timeouts: int = 0              # of those, games stopped by the engine's max_rounds guard
    failures: list[Failure] = field(default_factory=list)  # the first KEPT_FAILURES of them, by index

    def __post_init__(self) -> None:
        for name in ("game_wins", "game_wins_from_dealer", "round_wins", "round_wins_from_dealer"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)

    @property
    def rounds(self) -> int:
        """Completed rounds."""
        return sum(self.turns_per_round.values())

    def merge(self, other: Tally) -> None:
        if other.players != self.players:
            raise ValueError("tallies of different table sizes do not merge")
        self.games += other.games
        self.completed += other.completed
        self.ties += other.ties
        self.runaway += other.runaway
        self.turns_played += other.turns_played
        for name in ("game_wins", "game_wins_from_dealer", "round_wins", "round_wins_from_dealer"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i, count in enumerate(theirs):
                mine[i] += count
        self.agent_game_wins.update(other.agent_game_wins)
        self.agent_round_wins.update(other.agent_round_wins)
        for name in ("rounds_per_game", "turns_per_round", "points_per_round", "reshuffles_per_round", "plays",
                     "plays_sq", "plays_made", "plays_made_sq"):
            mine = getattr(self, name)
            for key, count in getattr(other, name).items():
                mine[key] = mine.get(key, 0) + count
        self.failed += other.failed
        self.timeouts += other.timeouts
        self.failures = sorted(self.failures + other.failures, key=lambda f: f.index)[:KEPT_FAILURES]


@dataclass(frozen=True)
class Failure:
    """A game that stopped with an error: which, its first error, and how to replay it."""

    index: int
    seed: int
    error: str
    replay: str

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.index, "seed": self.seed, "error": self.error, "replay": self.replay}


class Recorder:
    """The listener that feeds a tally from one game's events."""

    __slots__ = ("dealer", "first_dealer", "n", "reshuffles", "seats", "tally", "turns_done")

    def __init__(self, tally: Tally, seats: list[str]) -> None:
        self.tally = tally
        self.seats = seats  # the agent of each seat in this game
        self.n = tally.players
        self.first_dealer: int | None = None
        self.dealer = 0
        self.reshuffles = 0
        self.turns_done = 0

    # (the plays are counted by the game itself: see Game.plays_by_kind)
    EVENTS = ("reshuffled", "round_start", "round_end")

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "reshuffled":
            self.reshuffles += 1
        elif name == "round_start":
            self.dealer = data["player"]
            if self.first_dealer is None:
                self.first_dealer = self.dealer
            self.reshuffles = 0
        elif name == "round_end":
            t, n, dealer = self.tally, self.n, self.dealer
            team_of = game.team_of
            if team_of is None:
                p = data["player"]
                t.round_wins[p] += 1
                t.round_wins_from_dealer[(p - dealer) % n] += 1
                t.agent_round_wins[self.seats[p]] += 1
            else:  # every player of the winning team wins the round; their agents, once each
                won = [p for p in range(n) if team_of[p] == data["team"]]
                for p in won:
                    t.round_wins[p] += 1
                    t.round_wins_from_dealer[(p - dealer) % n] += 1
                for agent in dict.fromkeys([self.seats[p] for p in won]):
                    t.agent_round_wins[agent] += 1
            turns = game.turns
            h = t.turns_per_round
            h[turns] = h.get(turns, 0) + 1
            h, points = t.points_per_round, sum(data["points"])
            h[points] = h.get(points, 0) + 1
            h, reshuffles = t.reshuffles_per_round, self.reshuffles
            h[reshuffles] = h.get(reshuffles, 0) + 1
            played = game.played
            assert played is not None  # (play_one counts them: see Game.plays_by_kind)
            kinds = game.variant.kinds
            _add_plays(t.plays, t.plays_sq, kinds, played)
            if len(played) > len(kinds):  # the declared plays made (see Game.plays_by_way)
                _add_plays(t.plays_made, t.plays_made_sq, [w.name for w in game.variant.turn.plays],
                           played[len(kinds):])
            self.turns_done += turns


def _add_plays(sums: dict[str, int], squares: dict[str, int], names: Iterable[str], counts: list[int]) -> None:
    """A round's plays by name (`counts`, in the order of `names`) added to a tally's sums
    and sums of squares."""
    for name, count in zip(names, counts, strict=False):
        if count:
            sums[name] = sums.get(name, 0) + count
            squares[name] = squares.get(name, 0) + count * count
