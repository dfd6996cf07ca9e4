"""Strength of the bots, heads-up: rounds won with a 95% Wilson interval.

    python tests/benchmarks/bench_bots.py classic duo flip --rounds 400 --iterations 50

Each line seats AGENT against OPPONENT for `--rounds` rounds of two players, the
seats alternating (AGENT is P1 in even rounds, P2 in odd ones), round i on game
seed 1000 + i and agents' seed i, and counts the rounds AGENT wins (the player who
goes out). It also times AGENT's decisions (wall clock, so the figure depends on
the machine and its load). Prints one markdown table row per pairing.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from unodsl import Game, load_variant
from unodsl.engine.actions import Decision
from unodsl.players.bots import make_agents


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class Timed:
    """An agent whose decisions with a choice in them are timed."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.name, self.seconds, self.moves = agent, agent.name, 0.0, 0
        self.searches = getattr(agent, "searches", False)  # asked where the game has stopped, like the agent

    def choose(self, game: Game, decision: Decision) -> Any:
        start = time.perf_counter()
        choice = self.agent.choose(game, decision)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return choice


class RoundWinner:
    """A listener that notes who went out."""

    seat: int | None = None

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "round_end":
            self.seat = data["player"]


def match(variant_name: str, agent: str, opponent: str, rounds: int) -> str:
    v = load_variant(variant_name)
    wins = 0
    timed: list[Timed] = []
    for i in range(rounds):
        seat = i % 2
        names = [agent, opponent] if seat == 0 else [opponent, agent]
        bots: list[Any] = make_agents(names, 2, i)
        bots[seat] = Timed(bots[seat])
        timed.append(bots[seat])
        winner = RoundWinner()
        game = Game(v, 2, 1000 + i, listen_to=["round_end"], listeners=[winner])
        game.autoplay(bots, rounds=1)
        wins += winner.seat == seat
    low, high = wilson(wins, rounds)
    moves = sum(t.moves for t in timed)
    per_move = sum(t.seconds for t in timed) / moves * 1000 if moves else 0.0
    return (f"| {v.name} | {agent} | {opponent} | {rounds} | {wins} | {wins / rounds:.1%} "
            f"| {low:.1%}–{high:.1%} | {per_move:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", default=["classic", "duo", "flip"])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--pairs", default="ismcts:greedy,greedy:random",
                        help="AGENT:OPPONENT pairs, comma-separated; AGENT may be a spec with parameters "
                             "(ismcts:iterations=100:rollout=expert:greedy); a bare 'ismcts' takes --iterations")
    args = parser.parse_args()
    print("| variant | agent | opponent | rounds | won | win rate | 95% Wilson | ms per decision |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.variants:
        for pair in args.pairs.split(","):
            agent, _, opponent = pair.rpartition(":")  # the agent's spec may hold colons
            if agent == "ismcts":
                agent = f"ismcts:iterations={args.iterations}"
            print(match(name, agent, opponent, args.rounds), flush=True)


if __name__ == "__main__":
    main()
