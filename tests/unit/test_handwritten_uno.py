"""The hand-written UNO loop of tests/benchmarks (the pure-Python limit of issue 19)
plays whole games without losing or making cards, and the same seed plays the same game."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.benchmarks.handwritten_uno import DECK, PLAYABLE, WD4, WILD, check, play_round, run


def test_the_deck_is_uno_s_108_cards() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 108
    assert counts[WILD] == counts[WD4] == 4
    assert [counts[c] for c in range(4)] == [1, 1, 1, 1]  # one 0 per colour
    assert all(counts[c] == 2 for c in range(4, 52))


def test_a_wild_matches_everything_and_a_number_its_colour_and_rank() -> None:
    red_five = PLAYABLE[0 * 14 + 5]
    assert WILD in red_five and WD4 not in red_five
    assert 0 + 4 * 7 in red_five and 1 + 4 * 5 in red_five and 1 + 4 * 7 not in red_five


def test_check_sees_a_lost_card() -> None:
    pile = DECK[:]
    pile.pop()
    with pytest.raises(AssertionError):
        check([[], []], pile, [])
    check([[], []], pile, [DECK[-1]])


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_cards_are_conserved_every_turn_and_every_game_ends(players: int) -> None:
    for seed in range(40):
        assert play_round(players, seed, checking=True) >= 1


@pytest.mark.parametrize("players", [2, 4])
def test_turns_per_game_are_those_of_uno(players: int) -> None:
    turns = [play_round(players, seed) for seed in range(300)]
    assert 25 < sum(turns) / len(turns) < 80  # the mirror and RLCard play about 45-50
    assert max(turns) < 1000


def test_the_same_seed_plays_the_same_game_and_others_differ() -> None:
    assert [play_round(4, s) for s in range(20)] == [play_round(4, s) for s in range(20)]
    assert len({play_round(2, s) for s in range(20)}) > 3
    assert run(30, 3, 5) == run(30, 3, 5)
    assert all(run(1, 3, s) == play_round(3, s) for s in range(10))  # one generator per seed
