"""What a batch counts: the Tally of its games, a failed game's Failure, and the
Recorder that feeds a tally from one game's events.

Every figure is kept as an integer counter or a histogram of integers (turns per
round, rounds per game, points per round, reshuffles per round), so memory does not
grow with the number of games, tallies from several worker processes merge exactly,
and the figures are the same for any number of workers.
"""

from __future__ import annotations

from collections import Counter
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
    rounds_per_game: Counter[int] = field(default_factory=Counter)
    turns_per_round: Counter[int] = field(default_factory=Counter)
    points_per_round: Counter[int] = field(default_factory=Counter)
    reshuffles_per_round: Counter[int] = field(default_factory=Counter)
    plays: Counter[str] = field(default_factory=Counter)     # card kind → plays
    plays_sq: Counter[str] = field(default_factory=Counter)  # card kind → Σ (plays in a round)²
    plays_made: Counter[str] = field(default_factory=Counter)     # declared play (turn: plays:) → times made
    plays_made_sq: Counter[str] = field(default_factory=Counter)  # declared play → Σ (times in a round)²
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
        for name in ("agent_game_wins", "agent_round_wins", "rounds_per_game", "turns_per_round",
                     "points_per_round", "reshuffles_per_round", "plays", "plays_sq", "plays_made",
                     "plays_made_sq"):
            getattr(self, name).update(getattr(other, name))
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
            t.turns_per_round[turns] += 1
            t.points_per_round[sum(data["points"])] += 1
            t.reshuffles_per_round[self.reshuffles] += 1
            plays, plays_sq, played = t.plays, t.plays_sq, game.played
            assert played is not None  # (play_one counts them: see Game.plays_by_kind)
            kinds = game.variant.kinds
            for kind, count in zip(kinds, played, strict=False):
                if count:
                    plays[kind] += count
                    plays_sq[kind] += count * count
            if len(played) > len(kinds):  # the declared plays made (see Game.plays_by_way)
                for way, count in zip(game.variant.turn.plays, played[len(kinds):], strict=True):
                    if count:
                        t.plays_made[way.name] += count
                        t.plays_made_sq[way.name] += count * count
            self.turns_done += turns
