"""The cost of the balance lab (`unodsl analyze`): Classic at 4 players with greedy bots,
2,000 rounds, everything but the skill ladder (the target: under 2 minutes on one core),
then the ladder's cost per rung (the figures in docs/analyze.md, "Cost").

    python tests/benchmarks/bench_analyze.py [--rounds 2000] [--ladder-rounds 100]

Each run is a fresh subprocess with one worker; it reports wall time and the CPU time the
process used (user + system), which is what one core spends whatever the machine's load.
Not a test: run by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
from unodsl.tools.analyze import Budget, analyze

def main():
    rounds, ladder_rounds = int(sys.argv[1]), int(sys.argv[2])
    t0 = time.perf_counter()
    if ladder_rounds:
        budget = Budget(rounds=1, games=0, power=0, train=1, ladder=True, ladder_rounds=ladder_rounds)
    else:
        budget = Budget(rounds=rounds)
    a = analyze("classic", players=4, agents=["greedy"], seed=1, budget=budget, workers=1)
    wall = time.perf_counter() - t0
    use = resource.getrusage(resource.RUSAGE_SELF)
    rungs = [{"upper": r.upper, "lower": r.lower, "players": r.players, "rounds": r.counts["rounds"],
              "seconds": r.seconds} for r in a.ladder]
    print(json.dumps({"wall_s": wall, "cpu_s": use.ru_utime + use.ru_stime, "passes": a.timing, "rungs": rungs,
                      "peak_rss_mb": use.ru_maxrss / 1024}))

if __name__ == "__main__":
    main()
"""


def run(rounds: int, ladder_rounds: int) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(rounds), str(ladder_rounds)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2_000)
    parser.add_argument("--ladder-rounds", type=int, default=100)
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, load average before: {os.getloadavg()}")
    r = run(args.rounds, 0)
    passes = ", ".join(f"{k} {v:.1f} s" for k, v in r["passes"].items())  # type: ignore[attr-defined]
    print(f"classic, 4 players, greedy, {args.rounds:,} rounds, all but the ladder, 1 worker:")
    print(f"  wall {r['wall_s']:.1f} s, CPU {r['cpu_s']:.1f} s, peak RSS {r['peak_rss_mb']:.0f} MB ({passes})")
    if args.ladder_rounds:
        r = run(1, args.ladder_rounds)
        print(f"the skill ladder, {args.ladder_rounds:,} rounds per rung and table size, 1 worker:")
        print(f"  wall {r['wall_s']:.1f} s, CPU {r['cpu_s']:.1f} s (ladder {r['passes']['ladder']:.1f} s)")  # type: ignore[index]
        for rung in r["rungs"]:  # type: ignore[attr-defined]
            print(f"    {rung['upper']} > {rung['lower']}, {rung['players']} players: {rung['seconds']:.1f} s "
                  f"for {rung['rounds']} rounds")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
