"""Scenario tests for moving many cards at once (pass_hands, redeal) and one card
without playing it (put): events come when the whole move is done."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import answer, assert_conserved, events, game, hand, pending
from unodsl import Game, load_variant


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


def _classic_with_zero(tmp_path: Path, on_play: str) -> Game:
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: classic\nname: t\ncards:\n  number:\n    on_play: '{on_play}'\n", encoding="utf-8")
    return Game(load_variant(path), 3, 0, record=True)


def test_redeal_gathers_every_hand_and_deals_from_the_given_player(tmp_path: Path) -> None:
    g = _classic_with_zero(tmp_path, "if card.rank == 0 then redeal(next, pile: aside)")
    g.arrange({0: ["red 0", "blue 9", "blue 8"], 1: ["blue 1"], 2: ["green 5", "green 6", "green 7"]},
              discard=["red 3"])
    g.aside.extend(g.draw_pile[:2])  # two more cards, from a pile
    del g.draw_pile[:2]
    answer(g, "play red 0")
    # 2 + 1 + 3 + 2 cards: four each way round from player 1 (1, 2, 0, 1, 2, 0, 1, 2).
    assert [len(h) for h in g.hands][:2] == [2, 3] and not g.aside
    assert events(g, "hands_redealt") == [{"player": 1, "count": 8}]
    assert [d["player"] for d in events(g, "hand_changed")] == [0, 0, 1, 2]
    assert_conserved(g)


def test_put_moves_one_card_without_playing_it(tmp_path: Path) -> None:
    g = _classic_with_zero(tmp_path, "if card.rank == 0 then put(choose_card(hand), draw_pile, at: \"bottom\")")
    g.arrange({0: ["red 0", "blue 9", "blue 8"], 1: ["blue 1", "blue 2"], 2: ["green 5"]}, discard=["red 3"])
    answer(g, "play red 0", "blue 9")
    assert hand(g, 0) == ["blue 8"] and g.draw_pile[0].label == "blue 9"
    assert [d["card"].label for d in events(g, "card_played")] == ["red 0"]  # the put card is not played
    assert g.current_color == "red" and g.discard_pile[-1].label == "red 0"
    assert [d["player"] for d in events(g, "hand_changed")] == [0, 0]
    assert_conserved(g)


def test_random_pick_takes_one_of_the_items_from_the_seeded_generator(tmp_path: Path) -> None:
    picked = set()
    for seed in range(40):
        g = _classic_with_zero(tmp_path, "if card.rank == 0 then draw(random_pick(opponents), 3)")
        g.rng.seed(seed)
        g.arrange({0: ["red 0", "blue 9"], 1: ["blue 1", "blue 2"], 2: ["green 5", "green 6"]}, discard=["red 3"])
        answer(g, "play red 0", "yes")  # yes: player 0 calls UNO
        victim = events(g, "hand_changed")[1]  # the first after the play's own
        assert victim["player"] in (1, 2) and victim["size"] == 5
        picked.add(victim["player"])
    assert picked == {1, 2}
