"""Scenario tests for the mercy house rule (variants/house/mercy.yaml): a player
holding 25 or more cards is out of the round; the last player left wins it."""

from __future__ import annotations

from tests.helpers import answer, assert_conserved, events, game, pending

# 24 cards no one can play on a red top (all yellow and green, no wilds).
FULL = [f"{c} {r}" for c in ("yellow", "green") for r in range(1, 10)] + [f"yellow {a}" for a in ("skip",
        "reverse", "draw two")] + [f"green {a}" for a in ("skip", "reverse", "draw two")]


def mercy(players: int = 3):  # type: ignore[no-untyped-def]
    return game("house/mercy", players)


def test_a_player_who_reaches_25_cards_is_out_and_their_cards_go_under_the_draw_pile() -> None:
    g = mercy()
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["red 1", "blue 2"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    bottom = len(g.draw_pile)
    answer(g, "play red draw two")
    assert g.out == {1} and g.hands[1] == []
    assert events(g, "eliminated") == [{"player": 1, "count": 26, "zone": "draw_pile"}]
    assert sorted(c.label for c in g.draw_pile[:26]) == sorted([*FULL[:24], "blue 7", "blue 8"])
    assert len(g.draw_pile) == bottom - 2 + 26  # two drawn from the top, 26 put under
    # The Draw Two's skip was for player 1, who is out: player 2 plays next.
    assert pending(g)[0] == 2
    assert_conserved(g)


def test_24_cards_are_not_enough() -> None:
    g = mercy()
    g.arrange({0: ["red 5", "red 6", "red 7"], 1: FULL[:23], 2: ["blue 1", "blue 2"]},
              discard=["red 3"], draw=["blue 7"])
    answer(g, "play red 5", "draw")  # player 1 draws their 24th card, and keeps it
    assert g.out == frozenset() and len(g.hands[1]) == 24
    assert events(g, "eliminated") == []


def test_play_passes_over_a_player_who_is_out() -> None:
    g = mercy(4)
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["red 1", "blue 2", "blue 3"],
               3: ["red 7", "red 8", "red 9"]}, discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")
    assert pending(g)[0] == 2
    answer(g, "play red 1")
    assert pending(g)[0] == 3
    answer(g, "play red 7")
    assert pending(g)[0] == 0  # and round again, past player 1
    answer(g, "play red 5", "yes")
    assert pending(g)[0] == 2


def test_a_skip_passes_over_the_player_out_and_skips_the_next_one_in() -> None:
    g = mercy(4)
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["red skip", "blue 2", "blue 3"],
               3: ["red 7", "red 8", "red 9"]}, discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")  # player 1 out; player 2's turn
    answer(g, "play red skip")
    assert events(g, "skipped")[-1] == {"player": 3}
    assert pending(g)[0] == 0


def test_arrange_starts_with_everyone_in() -> None:
    g = mercy(3)
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["blue 1", "blue 2"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")
    assert g.out == {1}
    g.arrange({0: ["red 5"], 1: ["red 6"], 2: ["red 7"]}, discard=["red 3"])
    assert g.out == frozenset()


def test_the_last_player_left_wins_the_round() -> None:
    g = mercy(2)
    g.arrange({0: ["red draw two", "red 5", "wild"], 1: FULL[:24]}, discard=["red 3"],
              draw=["blue 7", "blue 8"], dealer=1)
    answer(g, "play red draw two")
    assert [(e["player"], e["points"], e["team"]) for e in events(g, "round_end")] == [(0, [0, 0], 0)]
    assert g.round == 2 and g.out == frozenset()  # back in for the next round
    assert len(g.hands[1]) == 7


def test_going_out_still_wins_and_scores_only_the_hands_still_in() -> None:
    g = mercy()
    g.arrange({0: ["red draw two", "red 5"], 1: FULL[:24], 2: ["blue 1", "red 9"]},
              discard=["red 3"], draw=["blue 7", "blue 8"], dealer=2)
    answer(g, "play red draw two", "yes")  # player 1 out; player 0 calls UNO
    answer(g, "play red 9", "yes")  # player 2 holds one card and calls UNO
    answer(g, "play red 5")  # player 0 goes out: scores player 2's blue 1 (not player 1's cards)
    ends = events(g, "round_end")
    assert [(e["player"], e["points"]) for e in ends] == [(0, [1, 0, 0])]
    assert g.scores == [1, 0, 0]


def test_no_decision_is_put_to_a_player_who_is_out() -> None:
    g = mercy(3)
    g.arrange({0: ["red draw two", "red 5", "red 6", "blue 4"], 1: FULL[:24],
               2: ["blue 1", "blue 2", "green 3"]}, discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")
    asked = []
    while g.round == 1 and g.decision is not None:
        asked.append(g.decision.player)
        g.apply(g.decision.options[0])
    assert asked and 1 not in asked


def test_reverse_acts_as_a_skip_when_two_players_are_left() -> None:
    g = mercy(3)
    g.arrange({0: ["red draw two", "red reverse", "red 6"], 1: FULL[:24], 2: ["red 1", "blue 2"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")
    answer(g, "play red 1", "yes")
    answer(g, "play red reverse")  # player_count is 2: a skip, so player 0 plays again
    assert pending(g)[0] == 0 and g.direction == 1
