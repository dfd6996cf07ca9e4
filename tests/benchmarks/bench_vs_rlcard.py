"""unodsl against RLCard's UNO engine, side by side, for the same wall time.

    pip install rlcard==1.2.0      # the optional [bench] extra
    python tests/benchmarks/bench_vs_rlcard.py [--seconds 10]

RLCard: the bare rules engine `rlcard.games.uno.game.UnoGame`, driven by
uniformly random legal actions (`game.step`, which also builds the next state).
An RLCard game is one round: it ends when a hand is empty, without scoring. As
RLCard's environment does, one UnoGame is reused and re-initialised per game
(init_game) with its generator reseeded: a fresh UnoGame per game would add
about 64 µs of OS-seeded RandomState to every game and understate RLCard.

unodsl: `tests/benchmarks/rlcard_mirror.yaml`: a new seeded Game per game, played
with `autoplay` by random agents (they draw from the game's generator), no log,
one round per game. A turn is one player's turn (one play, or one draw). Where
the mirror differs from RLCard:
- RLCard's random agent picks among actions in which a wild appears four times
  (once per colour); ours picks the card, then the colour, uniformly.
- RLCard auto-plays a drawn card only if it is wild or of the target's colour;
  the mirror plays it whenever it is playable (a number match too). A drawn
  Wild Draw Four auto-played by RLCard makes no one draw; in the mirror it does.
- RLCard's first Draw Two makes seat 0 draw without losing the turn; the mirror
  does the same. A first Wild Draw Four: RLCard treats it as a plain target;
  the mirror turns another card.
- RLCard's UNO call does not exist; the mirror has none either.
Mean turns per game are printed for both: within 10% the games/s compare.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from unodsl import Game, load_variant, make_agents

MIRROR = Path(__file__).with_name("rlcard_mirror.yaml")


def unodsl_round(variant: object, players: int, seed: int) -> int:
    game = Game(variant, players, seed, max_turns=100_000)  # type: ignore[arg-type]
    game.autoplay(make_agents(["random"], players), rounds=1)
    return game.round_turns[0]


_RLCARD: dict[int, tuple[Any, random.Random]] = {}


def rlcard_round(players: int, seed: int) -> int:
    """One RLCard game. As RLCard's own environment does on reset, one UnoGame is
    reused (a new UnoGame costs about 64 µs here, for an OS-seeded RandomState that
    init_game never needs); its generator is reseeded per game (about 1 µs) and
    the random agent's generator is made once."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    if players not in _RLCARD:
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(0)
        _RLCARD[players] = (game, random.Random(players))
    game, rng = _RLCARD[players]
    game.np_random.seed(seed)
    _, pid = game.init_game()
    turns = 0
    while not game.is_over():
        legal = game.round.get_legal_actions(game.players, pid)
        _, pid = game.step(legal[rng.randrange(len(legal))])
        turns += 1
    return turns


def measure(plays: dict[str, object], seconds: float, slice_s: float = 0.25) -> dict[str, tuple[int, int, float]]:
    """Run each engine in alternating short slices until each has had `seconds`,
    so that a noisy machine slows both alike."""
    totals = {name: [0, 0, 0.0] for name in plays}
    while min(t[2] for t in totals.values()) < seconds:
        for name, play in plays.items():
            t = totals[name]
            start = time.perf_counter()
            while time.perf_counter() - start < slice_s:
                t[1] += play(t[0])  # type: ignore[operator]
                t[0] += 1
            t[2] += time.perf_counter() - start
    return {name: (int(t[0]), int(t[1]), t[2]) for name, t in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="wall time per engine and table size")
    args = parser.parse_args()
    try:
        import rlcard  # noqa: F401
    except ImportError:
        sys.exit("RLCard is not installed: pip install rlcard==1.2.0")
    variant = load_variant(MIRROR)
    print(f"{'players':>7} {'engine':>7} {'games/s':>9} {'turns/s':>9} {'turns/game':>10}")
    for players in (2, 4):
        plays = {"rlcard": lambda i, n=players: rlcard_round(n, i),
                 "unodsl": lambda i, n=players: unodsl_round(variant, n, i)}
        results = {}
        for name, (games, turns, elapsed) in measure(plays, args.seconds).items():
            results[name] = (games / elapsed, turns / elapsed, turns / games)
            print(f"{players:>7} {name:>7} {games / elapsed:9.0f} {turns / elapsed:9.0f} {turns / games:10.1f}")
        ratio = results["unodsl"][0] / results["rlcard"][0]
        agree = results["unodsl"][2] / results["rlcard"][2] - 1
        print(f"{players:>7}   ratio unodsl/rlcard games/s: {ratio:.2f}x   (turns/game differ by {agree:+.1%})")


if __name__ == "__main__":
    main()
