"""Two unodsl trees side by side in one process: the speed of an engine change.

    python tests/benchmarks/bench_trees.py BASE_TREE [NEW_TREE] [--seconds 20]

Each tree's `unodsl` package is imported under its own name, and the two run in
alternating slices (so noise hits both alike; in each slice, a workload plays the same
seeds in both trees): the RLCard mirror at 2 and 4 players (games/s, one round per
game, random agents), Classic with its UNO rules and Flip at 4 players (turns/s, greedy
against random), and OpenSpiel's Crazy Eights (`openspiel_crazy_eights.yaml`) at 2 and 5
players (games/s, one hand, random agents). The mirror alone hides losses off it: an
engine change is judged on all of them, against a fixed older commit as well as the
commit before. NEW_TREE defaults to this checkout. Prints each figure and NEW/BASE.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve()
MIRROR = HERE.with_name("rlcard_mirror.yaml")
CRAZY_EIGHTS = HERE.with_name("openspiel_crazy_eights.yaml")


def load_tree(tree: Path, alias: str) -> ModuleType:
    """Import `tree`/unodsl as the package `alias` (its imports are relative)."""
    spec = importlib.util.spec_from_file_location(alias, tree / "unodsl" / "__init__.py",
                                                  submodule_search_locations=[str(tree / "unodsl")])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return module


class Bench:
    """One tree's workloads; each call plays for about `seconds` and counts."""

    def __init__(self, pkg: Any) -> None:
        self.pkg = pkg
        self.mirror = pkg.load_variant(MIRROR)
        self.classic = pkg.load_variant("classic")
        self.flip = pkg.load_variant("flip")
        self.crazy_eights = pkg.load_variant(CRAZY_EIGHTS)
        self.totals: dict[str, list[float]] = {}

    def _agents(self, names: list[str], n: int) -> Any:
        """The agents as a user makes them: each tree's make_agents with its defaults
        (before issue 14 random bots drew from the game's generator; after it, the
        table's bots seed one of their own)."""
        return self.pkg.make_agents(names, n)

    def games(self, variant: Any, name: str, players: int, seconds: float, seed: int) -> None:
        games, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            seed += 1
            g = self.pkg.Game(variant, players, seed, max_turns=10_000)
            with contextlib.suppress(self.pkg.errors.RunawayRound):  # (random agents can keep Crazy Eights going)
                g.autoplay(self._agents(["random"], players), rounds=1)
            games += 1
        self._add(f"{name} {players}p games/s", games, time.perf_counter() - start)

    def turns(self, variant: Any, name: str, seconds: float, seed: int) -> None:
        turns, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            seed += 1
            g = self.pkg.Game(variant, 4, seed, max_turns=100_000)
            g.autoplay(self._agents(["greedy", "random"], 4), rounds=1)
            turns += g.round_turns[0]
        self._add(f"{name} 4p turns/s", turns, time.perf_counter() - start)

    def _add(self, key: str, count: int, seconds: float) -> None:
        total = self.totals.setdefault(key, [0, 0.0])
        total[0] += count
        total[1] += seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=Path)
    parser.add_argument("new", type=Path, nargs="?", default=HERE.parents[2])
    parser.add_argument("--seconds", type=float, default=20.0, help="per workload and tree")
    parser.add_argument("--slices", type=int, default=10)
    args = parser.parse_args()
    benches = [Bench(load_tree(args.base.resolve(), "unodsl_base")), Bench(load_tree(args.new.resolve(), "unodsl_new"))]
    piece = args.seconds / args.slices
    for k in range(args.slices):
        # Both trees play each slice's workloads from the same seeds, so they mostly play the
        # same games (Classic's rounds are long-tailed: seeds that drift apart swing its figure).
        seed = k * 1_000_000
        for bench in benches if k % 2 == 0 else benches[::-1]:
            bench.games(bench.mirror, "mirror", 2, piece, seed)
            bench.games(bench.mirror, "mirror", 4, piece, seed)
            bench.turns(bench.classic, "classic", piece, seed)
            bench.turns(bench.flip, "flip", piece, seed)
            bench.games(bench.crazy_eights, "crazy eights", 2, piece, seed)
            bench.games(bench.crazy_eights, "crazy eights", 5, piece, seed)
    print(f"{'workload':<22}{'base':>12}{'new':>12}{'new/base':>10}")
    for key in benches[0].totals:
        base, new = (b.totals[key][0] / b.totals[key][1] for b in benches)
        print(f"{key:<22}{base:>12,.0f}{new:>12,.0f}{new / base:>10.3f}")


if __name__ == "__main__":
    main()
