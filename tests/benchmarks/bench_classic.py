"""Speed of the engine: whole Classic games and single rounds with bots.

Not part of the test run. Usage:
    python tests/benchmarks/bench_classic.py [--games N] [--agents random|greedy]

Prints, at 2 and 4 players, games (or rounds) per second, turns per second and
the mean turns per game. A turn is one player's turn (one play or one draw).
"""

from __future__ import annotations

import argparse
import time

from unodsl import Game, load_variant, make_agents, play_game


def bench(players: int, games: int, agents: str, rounds_only: bool) -> tuple[float, float, float]:
    variant = load_variant("classic")
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game(variant, players, seed, max_turns=100_000)
        bots = make_agents([agents], players)
        if rounds_only:
            game.autoplay(bots, rounds=1)
            turns += game.round_turns[0]
        else:
            play_game(game, bots)
            turns += sum(game.round_turns)
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / elapsed, turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agents", choices=["random", "greedy"], default="random")
    args = parser.parse_args()
    for rounds_only in (True, False):
        unit = "rounds" if rounds_only else "games"
        for players in (2, 4):
            per_s, turns_s, mean = bench(players, args.games, args.agents, rounds_only)
            print(f"{players} players, {args.agents:>6}: {per_s:9.1f} {unit}/s  {turns_s:10.0f} turns/s  "
                  f"{mean:8.1f} turns per {unit[:-1]}")


if __name__ == "__main__":
    main()
