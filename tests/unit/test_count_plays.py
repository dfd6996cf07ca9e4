"""Game(count_plays=True): the round's plays by kind, counted in place, are what the
card_played events of the same game say (simulate's tally reads them)."""

from __future__ import annotations

import pickle
from collections import Counter
from typing import Any

import pytest

from unodsl.engine.game import Game
from unodsl.errors import UnoDslError
from unodsl.players.bots import make_agents
from unodsl.variant.load import load_variant


def _rounds(events: list[tuple[str, dict[str, Any]]]) -> list[Counter[str]]:
    """The card_played events of each round, by kind, from a recorded log."""
    rounds: list[Counter[str]] = []
    for name, data in events:
        if name == "round_start":
            rounds.append(Counter())
        elif name == "card_played":
            rounds[-1][data["card"].kind] += 1
    return rounds


@pytest.mark.parametrize(("name", "players"), [("classic", 3), ("flip", 3), ("duo", 2), ("all_wild", 4)])
def test_plays_by_kind_is_what_card_played_says_round_by_round(name: str, players: int) -> None:
    variant = load_variant(name)
    for seed in range(3):
        counts: list[Counter[str]] = []

        def at_round_end(game: Game, event: str, data: dict[str, Any], counts: list[Counter[str]] = counts) -> None:
            if event == "round_end":
                counts.append(Counter(game.plays_by_kind()))

        counted = Game(variant, players, seed, count_plays=True, listeners=[at_round_end], listen_to=["round_end"])
        recorded = Game(variant, players, seed, record=True)
        for g in (counted, recorded):
            g.autoplay(make_agents(["greedy"] * players, players, seed), rounds=3)
        assert recorded.events is not None
        told = _rounds(recorded.events)
        assert len(counts) >= 1 and counts == told[:len(counts)]
        if counted.winner is None:  # the next round is set up: its first plays are counted already
            assert sum(counted.plays_by_kind().values()) == sum(told[len(counts)].values())


def test_counting_changes_no_game() -> None:
    variant = load_variant("classic")
    a, b = Game(variant, 4, 11, record=True), Game(variant, 4, 11, record=True, count_plays=True)
    for g in (a, b):
        g.autoplay(make_agents(["greedy"] * 4, 4, 11))
    assert a.events == b.events and a.scores == b.scores


def test_a_clone_and_a_pickle_keep_their_own_counts() -> None:
    game = Game(load_variant("classic"), 2, 5, count_plays=True)
    bots = make_agents(["greedy"] * 2, 2, 5)
    for _ in range(6):
        game.apply(bots[game.decision.player].choose(game, game.decision))
    before = game.plays_by_kind()
    twin, thawed = game.clone(), pickle.loads(pickle.dumps(game))
    assert twin.plays_by_kind() == thawed.plays_by_kind() == before
    twin.apply(bots[twin.decision.player].choose(twin, twin.decision))
    assert game.plays_by_kind() == before


def test_a_game_that_counts_nothing_says_so() -> None:
    game = Game(load_variant("classic"), 2, 1)
    with pytest.raises(UnoDslError, match="count_plays=True"):
        game.plays_by_kind()
