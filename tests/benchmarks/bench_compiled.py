"""Issue 19's targets, side by side in one process: unodsl's backends against RLCard,
the hand-written loop, and each other. Not a test.

    pip install rlcard==1.2.0      # the optional [bench] extra; without it RLCard is left out
    python tests/benchmarks/bench_compiled.py [--seconds 6] [--players 2 4] [--only mirror|classic]
    python tests/benchmarks/bench_compiled.py --profile compiled|closures [--games 2000] [--classic-games 100]

Engines, each run in alternating short slices (`measure` of bench_vs_rlcard.py)
until each has had `--seconds`, so that a loaded machine slows all alike:
- rlcard: RLCard 1.2.0's bare UnoGame, random legal actions (bench_vs_rlcard.py);
- handwritten: handwritten_uno.py, the pure-Python limit, the mirror's rules;
- mirror/<backend>: rlcard_mirror.yaml, a new seeded Game per game, random agents;
- classic/<backend>: the shipped `classic` with its UNO-call rules, random agents,
  one round per game.
A backend is `load_variant(..., backend="compiled")` or `backend="closures"` (the
reference); a load_variant without the `backend` parameter is the closure
interpreter alone, labelled closures.

The ratios printed are those issue 19 sets targets for: mirror games/s over
RLCard's (target 3x or more), Classic turns/s over the mirror's (0.7 or more),
the mirror's turns/s as a fraction of the hand-written loop's, and compiled over
closures. `--profile` runs cProfile over `--games` mirror games and
`--classic-games` Classic rounds per table size and prints the top 25 functions
by own time. `--baseline FILE` adds another hand-written loop (a file with
`run_games(games, players, seed)` returning turns) to compare ours with.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import inspect
import pstats
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_vs_rlcard import MIRROR, measure, rlcard_round, unodsl_round
from handwritten_uno import play_round

from unodsl import load_variant

TARGET_VS_RLCARD = 3.0
TARGET_CLASSIC_VS_MIRROR = 0.7


def backends() -> list[str]:
    """The backends this tree's load_variant offers, the one to measure first."""
    if "backend" in inspect.signature(load_variant).parameters:
        return ["compiled", "closures"]
    return ["closures"]


def load(source: Path | str, backend: str) -> Any:
    if "backend" in inspect.signature(load_variant).parameters:
        return load_variant(source, backend=backend)  # type: ignore[call-arg]
    if backend != "closures":
        sys.exit(f"this tree's load_variant has no backend parameter: no {backend!r} backend")
    return load_variant(source)


def have_rlcard() -> bool:
    return importlib.util.find_spec("rlcard") is not None


def engines(players: int, only: str | None, variants: dict[str, Any], rlcard: bool,
            baseline: Any = None) -> dict[str, Callable[[int], int]]:
    plays: dict[str, Callable[[int], int]] = {}
    if only != "classic":
        if rlcard:
            plays["rlcard"] = lambda i: rlcard_round(players, i)
        plays["handwritten"] = lambda i: play_round(players, i)
        if baseline is not None:
            plays["baseline"] = lambda i: int(baseline.run_games(1, players, i))
    for name, variant in variants.items():
        plays[name] = _unodsl(variant, players)
    return plays


def _unodsl(variant: Any, players: int) -> Callable[[int], int]:
    return lambda i: unodsl_round(variant, players, i)


def ratio(results: dict[str, tuple[float, float, float]], a: str, b: str, col: int) -> float | None:
    if a in results and b in results and results[b][col]:
        return results[a][col] / results[b][col]
    return None


def report(players: int, results: dict[str, tuple[float, float, float]], kinds: list[str]) -> None:
    lines: list[str] = []

    def line(label: str, value: float | None, target: float | None = None) -> None:
        if value is None:
            return
        verdict = "" if target is None else ("  met" if value >= target else f"  below the target {target:g}")
        lines.append(f"  {label:<46} {value:6.2f}{verdict}")

    line("handwritten / rlcard, games/s", ratio(results, "handwritten", "rlcard", 0))
    line("handwritten / baseline, games/s", ratio(results, "handwritten", "baseline", 0))
    line("baseline / rlcard, games/s", ratio(results, "baseline", "rlcard", 0))
    for b in kinds:
        line(f"mirror/{b} / rlcard, games/s", ratio(results, f"mirror/{b}", "rlcard", 0), TARGET_VS_RLCARD)
    for b in kinds:
        line(f"classic/{b} / mirror/{b}, turns/s", ratio(results, f"classic/{b}", f"mirror/{b}", 1),
             TARGET_CLASSIC_VS_MIRROR)
    for b in kinds:
        line(f"mirror/{b} / handwritten, turns/s", ratio(results, f"mirror/{b}", "handwritten", 1))
    for what in ("mirror", "classic"):
        line(f"{what}/compiled / {what}/closures, turns/s", ratio(results, f"{what}/compiled", f"{what}/closures", 1))
    if lines:
        print(f"{players:>7}   ratios")
        print("\n".join(lines))


def bench(args: argparse.Namespace) -> None:
    kinds = backends()
    rlcard = args.only != "classic" and have_rlcard()
    if args.only != "classic" and not rlcard:
        print("RLCard is not installed (pip install rlcard==1.2.0): left out")
    baseline = None
    if args.baseline:
        spec = importlib.util.spec_from_file_location("baseline", args.baseline)
        if spec is None or spec.loader is None:
            sys.exit(f"{args.baseline}: not a Python file")
        baseline = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(baseline)
    variants: dict[str, Any] = {}
    for b in kinds:
        if args.only != "classic":
            variants[f"mirror/{b}"] = load(MIRROR, b)
        if args.only != "mirror":
            variants[f"classic/{b}"] = load("classic", b)
    print(f"backends: {', '.join(kinds)}; {args.seconds:g} s per engine and table size, alternating slices")
    print(f"{'players':>7} {'engine':>16} {'games/s':>9} {'turns/s':>9} {'turns/game':>10}")
    for players in args.players:
        plays = engines(players, args.only, variants, rlcard, baseline)
        results: dict[str, tuple[float, float, float]] = {}
        for name, (games, turns, elapsed) in measure(dict(plays), args.seconds).items():
            results[name] = (games / elapsed, turns / elapsed, turns / games)
            print(f"{players:>7} {name:>16} {games / elapsed:9.0f} {turns / elapsed:9.0f} {turns / games:10.1f}")
        report(players, results, kinds)


def profile(args: argparse.Namespace) -> None:
    backend = args.profile
    for what, source, games in (("mirror", MIRROR, args.games), ("classic", "classic", args.classic_games)):
        if args.only not in (None, what):
            continue
        variant = load(source, backend)
        for players in args.players:
            unodsl_round(variant, players, 0)  # warm: anything cached on first use
            profiler = cProfile.Profile()
            profiler.enable()
            turns = sum(unodsl_round(variant, players, seed) for seed in range(games))
            profiler.disable()
            print(f"\n== {what}, backend {backend}, {players} players: {games} games, {turns} turns")
            pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=6.0, help="wall time per engine and table size")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--only", choices=["mirror", "classic"], help="only the mirror's engines, or only Classic")
    parser.add_argument("--profile", choices=["compiled", "closures"], help="profile this backend instead")
    parser.add_argument("--games", type=int, default=2000, help="mirror games per table size (--profile)")
    parser.add_argument("--classic-games", type=int, default=100,
                        help="Classic rounds per table size (--profile; one is about 20 mirror games)")
    parser.add_argument("--baseline", type=Path, metavar="FILE",
                        help="also measure another hand-written loop: a file with run_games(games, players, seed)")
    args = parser.parse_args()
    if args.profile:
        profile(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()
