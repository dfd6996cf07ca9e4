"""`bent` says the next turn is not simply the next seat's (flow.advance). It is kept by
hand by every writer of what it sums up — skips, another turn, a chosen next player,
players out — so this holds it to them at every event of whole games of every shipped
variant and house rule: whenever one of them bends the order, `bent` is set; and when
a turn begins, the last turn's bends have been spent (only players out remain)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from unodsl import Game, load_variant, make_agents, play_game
from unodsl.errors import RunawayRound

ROOT = Path(__file__).resolve().parents[2] / "variants"
VARIANTS = sorted(ROOT.glob("*.yaml")) + sorted((ROOT / "house").glob("*.yaml"))


def bends(g: Game) -> bool:
    return bool(g.skips or g.again or g.next_override is not None or g.out)


class Checker:
    """A listener of every event that checks `bent` against the fields it sums up."""

    def __init__(self) -> None:
        self.events = 0
        self.turns_bent = 0

    def __call__(self, g: Game, name: str, data: dict[str, Any]) -> None:
        self.events += 1
        assert g.bent or not bends(g), f"{name}: the order is bent but bent is False"
        if name == "turn_start":
            assert (g.skips, g.again, g.next_override) == (0, False, None), "a bend outlived its turn"
            assert g.bent == bool(g.out), "bent is stale at the start of a turn"
        elif name == "turn_end" and g.bent:
            self.turns_bent += 1


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_bent_says_whether_the_next_turn_is_bent(path: Path) -> None:
    variant = load_variant(path)
    bent_turns = 0
    for seed in range(3):
        players = variant.min_players + seed % (min(variant.max_players, 5) - variant.min_players + 1)
        check = Checker()
        game = Game(variant, players, seed, max_turns=300, listeners=[check])
        with contextlib.suppress(RunawayRound):
            play_game(game, make_agents(["random", "greedy"], players, seed))
        assert check.events > 0
        bent_turns += check.turns_bent
    if path.stem == "classic":  # skips, draw twos and two-player reverses: the check sees bends
        assert bent_turns, "no turn was bent: the check saw nothing"
