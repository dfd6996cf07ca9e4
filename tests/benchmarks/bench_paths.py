"""Does what users run get the speed of the bare engine? (issue 27, "Speed")

    pip install rlcard==1.2.0       # for RLCard's own UNO environment
    python tests/benchmarks/bench_paths.py [--seconds 12] [--slices 12] [--json]

On the RLCard mirror (`rlcard_mirror.yaml`) at 2 and 4 players, random agents, one
round per game, in ONE process and in alternating slices (so the noise of a shared
machine hits every figure alike):

- bare: a new seeded `Game` per game, played by `autoplay` (the engine's own path);
- simulate: `unodsl.tools.simulate.simulate(..., rounds_only=True)` in this process
  (workers=1), which listens to four events to keep its tally;
- recorded: `Game(..., record=True)` + `autoplay` (the event log kept);
- env: the PettingZoo environment of `unodsl.rl` (`reset` and
  `random_policy_episode`: uniformly random legal actions, the observation built at
  every step), one round per episode;
- user env: the same environment as a user drives it: made by `unodsl.rl.env(...)` and
  stepped through `agent_iter` / `last` / `step`, each action drawn by NumPy's `choice`
  over the legal actions (`np.flatnonzero` of the mask), as RLCard's `RandomAgent` draws;
- RLCard env: `rlcard.make("uno")` with `RandomAgent`s, `env.run(is_training=False)`.

bare, simulate and recorded play the very same games in each slice: the games of a
`simulate` run with that slice's seed (`game_seed(seed, i)`, agents seeded as
simulate seeds them), so their ratios compare the paths and nothing else. Targets
(issues 27 and 40): simulate ≥ 0.9× bare, the env and the user env ≥ 2× RLCard's env.

RLCard's UNO environment does not read `game_num_players` from its config (RLCard
1.2.0 configures only its poker and blackjack games that way): for 4 players the
game is configured after `make` (`env.game.configure`, `env.num_players`), which
`init_game` then deals for. Its `get_payoffs` marks only seat 1 - winner as the
loser; that does not change the play.

Not a test: run by hand, and say under what load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unodsl import Game, load_variant, make_agents
from unodsl.errors import RunawayRound
from unodsl.model import Variant
from unodsl.tools.seating import game_seed
from unodsl.tools.simulate import simulate

MIRROR = Path(__file__).with_name("rlcard_mirror.yaml")
MAX_TURNS = 5_000  # simulate's default

# A workload plays slice `k` of `count` items (games or episodes) and returns how many it played.
Workload = Callable[[int, int], int]


def _game(variant: Variant, players: int, k: int, count: int, record: bool) -> int:
    """The games `simulate(seed=k, rounds_only=True)` plays, on the bare path."""
    for i in range(count):
        seed = game_seed(k, i)
        game = Game(variant, players, seed, max_turns=MAX_TURNS, record=record)
        with contextlib.suppress(RunawayRound):  # simulate counts it and goes on; so does this
            game.autoplay(make_agents(["random"], players, seed), rounds=1)
    return count


def bare(variant: Variant, players: int) -> Workload:
    return lambda k, count: _game(variant, players, k, count, False)


def recorded(variant: Variant, players: int) -> Workload:
    return lambda k, count: _game(variant, players, k, count, True)


def simulated(variant: Variant, players: int) -> Workload:
    def play(k: int, count: int) -> int:
        sim = simulate(variant, count, players=players, agents=["random"], seed=k, rounds_only=True, workers=1)
        assert sim.tally.games == count and sim.tally.failed == 0, sim.tally.failures
        return count
    return play


class PettingZoo:
    """The unodsl AEC environment, reset per episode (a round) and played at random."""

    def __init__(self, variant: Variant, players: int) -> None:
        from unodsl.rl import UnoEnv, random_policy_episode

        self.env = UnoEnv(variant, players, 0)
        self.episode = random_policy_episode
        self.rng = random.Random(players)
        self.turns = 0
        self.episodes = 0

    def __call__(self, k: int, count: int) -> int:
        for i in range(count):
            self.env.reset(seed=game_seed(k, i))
            self.episode(self.env, self.rng)
            game = self.env.game
            self.turns += game.round_turns[0] if game is not None and game.round_turns else 0
        self.episodes += count
        return count


class UserEnv:
    """`unodsl.rl.env(...)` driven the way a user's loop drives it, with NumPy's `choice`
    over the legal actions (RLCard's `RandomAgent` draws with `np.random.choice` too)."""

    def __init__(self, variant: Variant, players: int) -> None:
        import numpy as np

        from unodsl.rl import env

        self.env = env(variant, players)
        self.np_random = np.random.default_rng(players)
        self.flatnonzero = np.flatnonzero
        self.turns = 0
        self.episodes = 0

    def __call__(self, k: int, count: int) -> int:
        environment, choice, flatnonzero = self.env, self.np_random.choice, self.flatnonzero
        for i in range(count):
            environment.reset(seed=game_seed(k, i))
            for _agent in environment.agent_iter():
                obs, _reward, terminated, truncated, _info = environment.last()
                environment.step(None if terminated or truncated else int(choice(flatnonzero(obs["action_mask"]))))
            game = environment.game
            self.turns += game.round_turns[0] if game is not None and game.round_turns else 0
        self.episodes += count
        return count


class RLCardEnv:
    """RLCard's own UNO environment with its random agents, as its examples run it."""

    def __init__(self, players: int) -> None:
        import numpy as np
        import rlcard  # type: ignore[import-untyped]
        from rlcard.agents import RandomAgent  # type: ignore[import-untyped]

        np.random.seed(players)  # RandomAgent draws from NumPy's global generator
        self.env = rlcard.make("uno", config={"seed": players})
        if players != self.env.num_players:
            self.env.game.configure({"game_num_players": players})
            self.env.num_players = players
        self.env.set_agents([RandomAgent(num_actions=self.env.num_actions) for _ in range(players)])
        self.turns = 0  # one RLCard step is one turn (a play with its colour, or a draw)
        self.episodes = 0

    def __call__(self, k: int, count: int) -> int:
        env = self.env
        start = env.timestep
        for _ in range(count):
            _, payoffs = env.run(is_training=False)
            assert len(payoffs) == env.num_players
        self.turns += env.timestep - start
        self.episodes += count
        return count


def calibrate(play: Workload, seconds: float) -> int:
    """How many items of `play` take about `seconds` (after one warm-up item)."""
    play(-1, 1)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < 0.3:
        count += play(-2 - count, 1)
    rate = count / (time.perf_counter() - start)
    return max(1, round(rate * seconds))


def measure(players: int, variant: Variant, seconds: float, slices: int) -> dict[str, Any]:
    """The five workloads at one table size, `slices` alternating slices, about
    `seconds` each in all. Returns figures per second and the ratios."""
    env, user, rl = PettingZoo(variant, players), UserEnv(variant, players), RLCardEnv(players)
    engine: dict[str, Workload] = {"bare": bare(variant, players), "simulate": simulated(variant, players),
                                   "recorded": recorded(variant, players)}
    envs: dict[str, Workload] = {"env": env, "user env": user, "rlcard env": rl}
    piece = seconds / slices
    counts = {"engine": calibrate(engine["bare"], piece), "env": calibrate(env, piece),
              "user env": calibrate(user, piece), "rlcard env": calibrate(rl, piece)}
    env.turns = env.episodes = user.turns = user.episodes = rl.turns = rl.episodes = 0
    totals = {name: [0, 0.0] for name in [*engine, *envs]}
    for k in range(slices):
        order = [*engine.items(), *envs.items()]
        for name, play in order if k % 2 == 0 else order[::-1]:
            count = counts["engine"] if name in engine else counts[name]
            start = time.perf_counter()
            totals[name][0] += play(k, count)
            totals[name][1] += time.perf_counter() - start
    rate = {name: n / s for name, (n, s) in totals.items()}
    return {
        "players": players,
        "per_second": rate,
        "items": {name: n for name, (n, _) in totals.items()},
        "seconds": {name: s for name, (_, s) in totals.items()},
        "ratios": {"simulate / bare": rate["simulate"] / rate["bare"],
                   "recorded / bare": rate["recorded"] / rate["bare"],
                   "env / rlcard env": rate["env"] / rate["rlcard env"],
                   "user env / rlcard env": rate["user env"] / rate["rlcard env"]},
        "turns_per_episode": {"env": env.turns / max(env.episodes, 1),
                              "user env": user.turns / max(user.episodes, 1),
                              "rlcard env": rl.turns / max(rl.episodes, 1)},
    }


def table(results: list[dict[str, Any]]) -> str:
    rows = ["| players | figure | per second | ratio |", "|---|---|---|---|"]
    unit = {"bare": "rounds", "simulate": "rounds", "recorded": "rounds", "env": "episodes",
            "user env": "episodes", "rlcard env": "episodes"}
    ratio_of = {"simulate": "simulate / bare", "recorded": "recorded / bare", "env": "env / rlcard env",
                "user env": "user env / rlcard env"}
    for r in results:
        for name, per in r["per_second"].items():
            ratio = f"{r['ratios'][ratio_of[name]]:.3f}× ({ratio_of[name]})" if name in ratio_of else ""
            rows.append(f"| {r['players']} | {name} {unit[name]}/s | {per:,.0f} | {ratio} |")
    turns = ", ".join(f"{r['players']}p env {r['turns_per_episode']['env']:.1f}, user env "
                      f"{r['turns_per_episode']['user env']:.1f} / RLCard "
                      f"{r['turns_per_episode']['rlcard env']:.1f}" for r in results)
    return "\n".join(rows) + f"\n\nturns per episode (within 10% the episodes/s compare): {turns}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=12.0, help="wall time per figure and table size")
    parser.add_argument("--slices", type=int, default=12, help="alternating slices per table size")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    args = parser.parse_args()
    try:
        import rlcard  # noqa: F401
    except ImportError:
        sys.exit("RLCard is not installed: pip install rlcard==1.2.0")
    variant = load_variant(MIRROR)
    before = os.getloadavg()
    results = [measure(n, variant, args.seconds, args.slices) for n in args.players]
    after = os.getloadavg()
    if args.json:
        print(json.dumps({"seconds": args.seconds, "slices": args.slices, "load_before": before,
                          "load_after": after, "results": results}, indent=2))
        return
    print(f"load average before {before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, "
          f"after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}; {os.cpu_count()} CPUs\n")
    print(table(results))


if __name__ == "__main__":
    main()
