"""Scenario tests for moving many cards at once (pass_hands, redeal) and one card
without playing it (put): events come when the whole move is done."""

from __future__ import annotations

from tests.helpers import answer, assert_conserved, events, game, hand, pending


def test_seven_zero_zero_passes_every_hand_at_once() -> None:
    g = game("house/seven_zero", 3)
    g.arrange({0: ["red 0", "blue 9", "blue 8"], 1: ["blue 1"], 2: ["green 5", "green 6"]},
              discard=["red 3"])
    answer(g, "play red 0")
    assert (hand(g, 0), hand(g, 1), hand(g, 2)) == (["green 5", "green 6"], ["blue 8", "blue 9"], ["blue 1"])
    assert events(g, "hands_passed") == [{"player": 0, "direction": 1}]
    # One hand_changed per hand, after all of them moved (the play's own comes first).
    assert [d["player"] for d in events(g, "hand_changed")] == [0, 0, 1, 2]


def test_seven_zero_no_uno_question_about_a_hand_held_halfway_through_the_pass() -> None:
    # Swapping in a loop gave player 0 player 1's one-card hand for an instant, and
    # the UNO rule asked player 0 about it. Passed at once, only player 2, who ends
    # up with the one card, is asked.
    g = game("house/seven_zero", 3)
    g.arrange({0: ["red 0", "blue 9", "blue 8"], 1: ["blue 1"], 2: ["green 5", "green 6"]},
              discard=["red 3"])
    answer(g, "play red 0")
    assert pending(g) == (2, "ask", "call_uno")
    answer(g, "yes")
    assert pending(g)[0] == 1  # player 1's turn: no other question came
    assert [d["player"] for d in events(g, "hand_changed") if d["size"] == 1] == [2]


def test_pass_hands_to_the_right_moves_each_hand_one_seat_back() -> None:
    g = game("house/seven_zero", 3)
    g.arrange({0: ["red 0", "blue 9", "blue 8"], 1: ["blue 1", "blue 2"], 2: ["green 5", "green 6"]},
              discard=["red 3"], direction=-1)
    answer(g, "play red 0")
    # Direction of play -1: player 0's hand goes to player 2, 2's to 1, 1's to 0.
    assert (hand(g, 0), hand(g, 1)) == (["blue 1", "blue 2"], ["green 5", "green 6"])
    assert {"blue 8", "blue 9"} <= set(hand(g, 2))  # (player 2, on turn, had to draw)
    assert events(g, "hands_passed") == [{"player": 0, "direction": -1}]
    assert_conserved(g)
