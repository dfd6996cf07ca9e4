"""The fair-information evaluator: each player's chance to win the round, estimated
from what everyone at the table can see, never from a hidden card.

A position is described seat by seat by a *public key*, read from facts every
player knows: the seat's hand size (up to MAX_HAND; more is one bucket), how many
cards more or fewer it holds than the smallest other hand (clamped to ±GAP), how
many seats it is from playing (0: its turn now; 3 or more is one bucket), and
whether a draw penalty is pending on it. The evaluator is a table, fitted by
counting on training rounds (their own seeds, never the rounds it is judged on):
for each key, how often a seat with that key went on to win the round. A key seen
fewer than MIN_SEEN times backs off to a coarser one (the gap dropped, then the
distance), with a light prior towards a fair share. A position's chances are the
seats' rates scaled to add up to 1 (a seat out of the round has none).

The counts are integers, so the fitted table is the same whichever workers
counted which rounds. `docs/analyze.md` gives its calibration on held-out rounds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_HAND = 10
GAP = 4
FAR = 3
MIN_SEEN = 30
PRIOR = 2.0  # pseudo-observations at a fair share, added to every rate

Key = tuple[int, int, int, int]  # hand size, gap to the smallest other hand, seats from playing, penalty on it


def public_keys(game: Any) -> list[Key | None]:
    """The public key of every seat now (None for a seat out of the round). Reads only
    hand sizes, whose turn it is, the direction, the pending penalty and who is out."""
    n = game.n
    sizes = [len(h) for h in game.hands]  # sizes only: every player sees them
    out = game.out
    current, direction, penalty = game.current, game.direction, game.penalty
    keys: list[Key | None] = []
    for p in range(n):
        if p in out:
            keys.append(None)
            continue
        others = [sizes[q] for q in range(n) if q != p and q not in out]
        gap = sizes[p] - min(others) if others else 0
        distance = min(((p - current) * direction) % n, FAR)
        keys.append((min(sizes[p], MAX_HAND), max(-GAP, min(GAP, gap)), distance,
                     1 if penalty and distance == 0 else 0))
    return keys


def coarser(key: Key) -> list[tuple[int, ...]]:
    """The key and its back-offs, finest first."""
    hand, gap, distance, _ = key
    return [key, (hand, gap, distance), (hand, distance), (hand,)]


@dataclass
class Counts:
    """Training counts: for each key (and each coarser key), seats seen and seats that won."""

    seen: Counter[tuple[int, ...]] = field(default_factory=Counter)
    won: Counter[tuple[int, ...]] = field(default_factory=Counter)
    rounds: int = 0
    positions: int = 0

    def add(self, positions: Sequence[Sequence[Key | None]], winner: int) -> None:
        """One round's positions (each a list of seat keys) and who won it."""
        self.rounds += 1
        for keys in positions:
            self.positions += 1
            for p, key in enumerate(keys):
                if key is None:
                    continue
                for k in coarser(key):
                    self.seen[k] += 1
                    if p == winner:
                        self.won[k] += 1

    def merge(self, other: Counts) -> None:
        self.seen.update(other.seen)
        self.won.update(other.won)
        self.rounds += other.rounds
        self.positions += other.positions


class Evaluator:
    """Chances to win from public keys, fitted from Counts (picklable, plain data)."""

    def __init__(self, counts: Counts, players: int) -> None:
        self.seen = dict(counts.seen)
        self.won = dict(counts.won)
        self.players = players
        self.rounds = counts.rounds
        self.positions = counts.positions
        self._rates: dict[Key, float] = {}

    def rate(self, key: Key) -> float:
        """A seat's own estimated rate of winning from `key` (before scaling)."""
        cached = self._rates.get(key)
        if cached is not None:
            return cached
        fair = 1 / self.players
        levels = coarser(key)
        chosen = next((k for k in levels if self.seen.get(k, 0) >= MIN_SEEN), levels[-1])
        seen, won = self.seen.get(chosen, 0), self.won.get(chosen, 0)
        value = (won + PRIOR * fair) / (seen + PRIOR)
        self._rates[key] = value
        return value

    def chances(self, keys: Sequence[Key | None]) -> list[float]:
        """Each seat's chance to win the round; they add up to 1."""
        rates = [0.0 if k is None else self.rate(k) for k in keys]
        total = sum(rates)
        if total <= 0:
            live = sum(k is not None for k in keys) or 1
            return [0.0 if k is None else 1 / live for k in keys]
        return [r / total for r in rates]

    def __getstate__(self) -> dict[str, Any]:
        return {"seen": self.seen, "won": self.won, "players": self.players, "rounds": self.rounds,
                "positions": self.positions}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._rates = {}


CLEAR = 0.5  # the winner is "clear" once their chance stays at or above this to the end


def tension(chances: Sequence[Sequence[float]], winner: int) -> tuple[int, float, int]:
    """Lead changes, drama and the moves before the winner was clear, for one round:
    `chances[t]` are the seats' chances at the start of turn t.

    The leader is the seat with the highest chance (a tie keeps the leader before).
    Drama is the mean, over the positions, of how far the eventual winner's chance
    was below the leader's (Ludii's Drama, on fair-information chances). The winner
    is clear from the first turn after which their chance stays at or above CLEAR."""
    leader: int | None = None
    changes = 0
    behind = 0.0
    clear_from = len(chances)
    for row in chances:
        top = max(row)
        if leader is None or row[leader] < top:
            new = row.index(top)
            if leader is not None and new != leader:
                changes += 1
            leader = new
        behind += top - row[winner]
    for t in range(len(chances) - 1, -1, -1):
        if chances[t][winner] < CLEAR:
            break
        clear_from = t
    drama = behind / len(chances) if chances else 0.0
    return changes, drama, clear_from
