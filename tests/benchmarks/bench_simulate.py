"""Throughput of `simulate` with 1 and 2 local worker processes and on a LocalCluster of
2 workers, and peak memory for 1k against 10k rounds (the figures in docs/simulate.md).

    python tests/benchmarks/bench_simulate.py [--rounds 3000] [--small 1000] [--large 10000]

Each figure is measured in a fresh subprocess: its wall time (start-up of the pool or
cluster included, and reported apart) and its peak RSS. Not a test: run by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

CHILD = r"""
import json, resource, sys, time
from unodsl.tools.cluster import Cluster
from unodsl.tools.simulate import simulate

def main():
    mode, count = sys.argv[1], int(sys.argv[2])
    kw = dict(players=4, agents=["greedy", "random"], seed=1, rounds_only=True)
    t0 = time.perf_counter()
    if mode == "cluster":
        with Cluster("local", workers=2) as c:
            up = time.perf_counter() - t0
            sim = simulate("classic", count, cluster=c, **kw)
    else:
        up = 0.0
        sim = simulate("classic", count, workers=int(mode), **kw)
    total = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"play_s": sim.elapsed, "startup_s": up, "total_s": total, "rounds": sim.tally.games,
                      "turns": sim.tally.turns_played, "peak_rss_mb": rss / 1024}))

if __name__ == "__main__":
    main()
"""


def run(mode: str, count: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, mode, str(count)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--large", type=int, default=10_000)
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, load average before: {os.getloadavg()}")
    print(f"throughput, classic, 4 players, greedy,random, {args.rounds:,} rounds")
    for label, mode in (("--workers 1", "1"), ("--workers 2 (local processes)", "2"),
                        ("--cluster local, 2 workers", "cluster")):
        r = run(mode, args.rounds)
        print(f"  {label:32} {r['rounds'] / r['play_s']:8.0f} rounds/s  {r['turns'] / r['play_s']:9.0f} turns/s  "
              f"(playing {r['play_s']:.1f} s; start-up {r['startup_s']:.1f} s; whole {r['total_s']:.1f} s)")
    print("peak RSS of the main process, --workers 1")
    for count in (args.small, args.large):
        t = time.perf_counter()
        r = run("1", count)
        print(f"  {count:>7,} rounds: {r['peak_rss_mb']:.1f} MB ({time.perf_counter() - t:.1f} s)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
