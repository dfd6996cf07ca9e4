"""Scenario tests for the house rule "launcher" (rule IDs LA-1 … LA-3 in
variants/house/launcher.yaml)."""

from __future__ import annotations

import random
from collections import Counter

from tests.helpers import answer, assert_conserved, events, game, hand, pending, variant
from unodsl.engine.actions import Play


def _fire(seed: int) -> tuple[int, object]:
    """Player 0 plays a Launcher at player 1 (3 players): the cards player 1 takes,
    and the game afterwards."""
    g = game("house/launcher", 3, seed=seed)
    g.arrange({0: ["red launcher", "red 1", "blue 2"], 1: ["green 1", "green 2"], 2: ["yellow 1", "yellow 2"]},
              discard=["red 3"])
    answer(g, "play red launcher")
    return len(g.hands[1]) - 2, g


def test_la_01_deck_gains_a_launcher_per_colour() -> None:
    per = Counter(f.label for f in variant("house/launcher").sides[0].faces)
    assert sum(per.values()) == 112
    assert [per[f"{c} launcher"] for c in ("red", "yellow", "green", "blue")] == [1, 1, 1, 1]
    assert {f.points for f in variant("house/launcher").sides[0].faces if f.kind == "launcher"} == {20}


def test_la_02_launcher_plays_on_its_colour_or_on_a_launcher() -> None:
    g = game("house/launcher", 2)
    g.arrange({0: ["red launcher", "blue launcher", "green 5"], 1: ["green 1"]}, discard=["red 3"])
    assert {o.card.label for o in g.decision.options if isinstance(o, Play)} == {"red launcher"}  # type: ignore[union-attr]
    g.arrange({0: ["red launcher", "blue launcher", "green 5"], 1: ["green 1"]}, discard=["yellow launcher"])
    assert {o.card.label for o in g.decision.options if isinstance(o, Play)} == {"red launcher", "blue launcher"}  # type: ignore[union-attr]


def test_la_03_next_player_takes_the_generators_next_number_and_loses_the_turn() -> None:
    g = game("house/launcher", 3, seed=11)
    g.arrange({0: ["red launcher", "red 1", "blue 2"], 1: ["green 1", "green 2"], 2: ["yellow 1", "yellow 2"]},
              discard=["red 3"])
    twin = random.Random()
    twin.setstate(g.rng.getstate())
    expected = int(twin.random() * 7)  # random(0, 6): the generator's next number, scaled to 7 values
    answer(g, "play red launcher")
    assert len(g.hands[1]) == 2 + expected
    assert events(g, "skipped") == [{"player": 1}]
    assert pending(g)[0] == 2
    assert hand(g, 0) == ["blue 2", "red 1"]
    assert_conserved(g)


def test_la_03_same_seed_same_number() -> None:
    assert _fire(5)[0] == _fire(5)[0]


def test_la_03_number_is_within_0_to_6_and_takes_every_value_over_many_seeds() -> None:
    seen = Counter(_fire(seed)[0] for seed in range(300))
    assert set(seen) == set(range(7))  # every number from none to six, and nothing else
    assert min(seen.values()) > 300 / 7 / 3  # each roughly as likely (none under a third of its share)
