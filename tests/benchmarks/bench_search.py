"""ISMCTS decisions per second at fixed iterations, two unodsl trees side by side.

    python tests/benchmarks/bench_search.py BASE_TREE [NEW_TREE] [--seconds 30] [--iterations 100]

Each tree's `unodsl` package is imported under its own name (as bench_trees.py does)
and the two play in alternating slices of one process, so the noise of a shared
machine hits both alike. A slice plays whole rounds of Classic (its shipped rules,
UNO calls included) at 2 and at 4 players with greedy bots (the tree's own
`make_agents`, seeded with the game's seed), answering each decision with `apply`.
An `ismcts:iterations=N` agent (expert rollouts, the default) shadows one seat
(turning with the game): at each of that seat's decisions with more than one option
it searches, timed, and the greedy bot's answer is played. So both trees search the
very same positions when their engines play the same games (the script checks the
decisions and turns of both), whatever the search's own random draws; the searcher
keeps its state from one decision to the next as in a game (the inference from the
opponents' draws catches up). Timed: the search's clones, resamples, tree walks,
rollouts and inference. NEW_TREE defaults to this checkout. Prints
decisions/s per tree and NEW/BASE (issue 27's target: ≥ 1.2 against the commit
before the engine rework). Not a test: run by hand, and say under what load.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from bench_trees import load_tree

HERE = Path(__file__).resolve()


class Search:
    """One tree's search workload: rounds of Classic with a searcher shadowing one seat."""

    def __init__(self, pkg: Any, iterations: int) -> None:
        self.pkg = pkg
        self.classic = pkg.load_variant("classic")
        self.iterations = iterations
        self.spec = f"ismcts:iterations={iterations}"
        self.totals: dict[int, list[float]] = {}  # players → [decisions, seconds searching, rounds, turns]

    def play(self, players: int, seeds: range) -> None:
        total = self.totals.setdefault(players, [0, 0.0, 0, 0])
        clock = time.perf_counter
        for seed in seeds:
            seat = seed % players
            agents = self.pkg.make_agents(["greedy"], players, seed)
            searcher = self.pkg.make_agents([self.spec], 1, seed)[0]
            game = self.pkg.Game(self.classic, players, seed)
            while game.decision is not None and not game.round_turns:
                d = game.decision
                if d.player == seat and len(d.options) > 1:
                    start = clock()
                    searcher.choose(game, d)
                    total[1] += clock() - start
                    total[0] += 1
                game.apply(agents[d.player].choose(game, d))
            total[2] += 1
            total[3] += game.round_turns[0] if game.round_turns else game.turns


def calibrate(bench: Search, players: int, seconds: float) -> int:
    """How many rounds take about `seconds` of search (from a few rounds not counted)."""
    probe = Search(bench.pkg, bench.iterations)
    start = time.perf_counter()
    rounds = 0
    while time.perf_counter() - start < min(seconds, 3.0):
        probe.play(players, range(10_000_000 + rounds, 10_000_000 + rounds + 1))
        rounds += 1
    per_round = (time.perf_counter() - start) / rounds
    return max(1, round(seconds / per_round))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=Path)
    parser.add_argument("new", type=Path, nargs="?", default=HERE.parents[2])
    parser.add_argument("--seconds", type=float, default=30.0, help="per table size and tree")
    parser.add_argument("--slices", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    benches = [Search(load_tree(args.base.resolve(), "unodsl_base"), args.iterations),
               Search(load_tree(args.new.resolve(), "unodsl_new"), args.iterations)]
    before = os.getloadavg()
    piece = args.seconds / args.slices
    for players in args.players:
        count = calibrate(benches[1], players, piece)
        for k in range(args.slices):
            seeds = range(k * count, (k + 1) * count)
            for bench in benches if k % 2 == 0 else benches[::-1]:
                bench.play(players, seeds)
    after = os.getloadavg()
    rows = []
    for players in args.players:
        (bd, bs, rounds, turns), (nd, ns, _, new_turns) = (b.totals[players] for b in benches)
        rows.append({"players": players, "base": bd / bs, "new": nd / ns, "new/base": (nd / ns) / (bd / bs),
                     "decisions": [int(bd), int(nd)], "rounds": int(rounds),
                     "same_games": turns == new_turns and bd == nd, "seconds": [bs, ns]})
    if args.json:
        print(json.dumps({"iterations": args.iterations, "load_before": before, "load_after": after,
                          "rows": rows}, indent=2))
        return
    print(f"ISMCTS, iterations={args.iterations}, Classic; load average before "
          f"{before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}\n")
    print("| players | base decisions/s | new decisions/s | new/base | decisions searched (base, new) | rounds |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        same = "" if r["same_games"] else " (the trees' rounds differ)"
        print(f"| {r['players']} | {r['base']:.1f} | {r['new']:.1f} | {r['new/base']:.3f} | "
              f"{r['decisions'][0]:,}, {r['decisions'][1]:,}{same} | {r['rounds']} |")


if __name__ == "__main__":
    main()
