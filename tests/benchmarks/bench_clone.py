"""What a clone costs, at random decisions (issue 14's targets: Classic at 4
players, median ≤ 30 µs; Flip ≤ 100 µs).

    python tests/benchmarks/bench_clone.py [--positions 2000]

Positions: a seeded game is answered at random for a random number of decisions
(0–300), and each pending decision reached is one position. Each position is
cloned 5 times; the median of the 5 is its cost (timer noise). Printed: the
median, 90th and 99th percentile over positions, and the same for a pickle round
trip, and for resample (a clone with the hidden cards dealt again), for a search
that wants them.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from unodsl import Game, load_variant


def positions(name: str, players: int, count: int, seed: int = 1) -> list[Game]:
    variant = load_variant(name)
    rng = random.Random(seed)
    found: list[Game] = []
    game_seed = 0
    while len(found) < count:
        game_seed += 1
        game = Game(variant, players, game_seed)
        for _ in range(rng.randrange(0, 300)):
            if game.decision is None:
                break
            game.apply(game.decision.options[rng.randrange(len(game.decision.options))])
        if game.decision is not None:
            found.append(game)
    return found


def cost(games: list[Game], op: Callable[[Game], Any]) -> list[float]:
    """µs per op at each position (the median of 5 runs)."""
    out = []
    timer = time.perf_counter_ns
    for g in games:
        runs = []
        for _ in range(5):
            t0 = timer()
            op(g)
            runs.append((timer() - t0) / 1000)
        out.append(statistics.median(runs))
    return out


def line(what: str, us: list[float]) -> str:
    us = sorted(us)
    pick = lambda q: us[min(len(us) - 1, int(q * len(us)))]
    return f"  {what:<20} median {statistics.median(us):7.1f} µs   p90 {pick(0.9):7.1f}   p99 {pick(0.99):7.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(7)
    for name, players, target in (("classic", 4, 30), ("flip", 4, 100)):
        games = positions(name, players, args.positions)
        clones = cost(games, Game.clone)
        print(f"{name}, {players} players, {len(games)} positions (target: median clone ≤ {target} µs)")
        print(line("clone", clones))
        print(line("pickle round trip", cost(games, lambda g: pickle.loads(pickle.dumps(g)))))
        print(line("resample", cost(games, lambda g: g.resample(g.decision.player, rng))))  # type: ignore[union-attr]
        print(f"  median clone {'meets' if statistics.median(clones) <= target else 'MISSES'} the target")


if __name__ == "__main__":
    main()
