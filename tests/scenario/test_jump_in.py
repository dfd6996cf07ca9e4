"""House rule "jump-in" (variants/house/jump_in.yaml), rule by rule.

JI-1 When a turn ends on a card played, every other player holding an identical
     card (same colour, same symbol) is offered, in turn order from the player
     after the one whose turn ended, to play it out of turn; each may pass.
JI-2 The first who plays takes the turn over: what the card they jumped on had
     pending for the next player (a skip) is dropped, their card takes effect, and
     play goes on from them.
JI-3 The offer then goes round again, on their card.
JI-4 A card is offered once: a turn that ends without a new card played (a draw)
     offers nothing, nor does the first card turned up.
JI-5 A player who jumps in with their last card goes out and wins the round.
"""

from __future__ import annotations

from tests.helpers import answer, events, game, pending
from unodsl import Game


def jump_game() -> Game:
    return game("house/jump_in", 4)


def test_ji_01_a_holder_of_the_identical_card_is_offered_to_jump_in() -> None:
    g = jump_game()
    g.arrange({0: ["red 5", "red 1", "red 2"], 1: ["blue 1", "blue 2"], 2: ["red 5", "green 2", "green 3"],
               3: ["yellow 1", "yellow 2"]}, discard=["red 9"])
    answer(g, "play red 5")
    assert pending(g) == (2, "jump", "jump in")
    assert {str(o) for o in g.decision.options} == {"play red 5", "pass"}  # type: ignore[union-attr]
    assert g.decision.about is not None and g.decision.about.label == "red 5"  # type: ignore[union-attr]


def test_ji_01_a_player_may_pass_and_play_goes_on_as_usual() -> None:
    g = jump_game()
    g.arrange({0: ["red 5", "red 1", "red 2"], 1: ["blue 1", "red 3"], 2: ["red 5", "green 2", "green 3"],
               3: ["yellow 1", "yellow 2"]}, discard=["red 9"])
    answer(g, "play red 5", "pass")
    assert pending(g)[:2] == (1, "turn")
    assert len(g.hands[2]) == 3


def test_ji_01_the_offer_goes_in_turn_order_from_the_next_player() -> None:
    g = jump_game()
    g.arrange({0: ["wild", "red 1", "red 2"], 1: ["wild", "blue 2"], 2: ["blue 5"],
               3: ["wild", "yellow 2"]}, discard=["red 9"])
    answer(g, "play wild", "green")
    assert pending(g)[:2] == (1, "jump")
    answer(g, "pass")
    assert pending(g)[:2] == (3, "jump")  # player 2 holds no identical card: not asked


def test_ji_02_the_jumper_takes_the_turn_over_and_play_goes_on_from_them() -> None:
    g = jump_game()
    g.arrange({0: ["red 5", "red 1", "red 2"], 1: ["blue 1", "red 3"], 2: ["red 5", "green 2", "green 3"],
               3: ["yellow 1", "red 4"]}, discard=["red 9"])
    answer(g, "play red 5", "play red 5")
    assert [c.label for c in g.discard_pile[-2:]] == ["red 5", "red 5"]
    assert pending(g)[:2] == (3, "turn")  # player 1 lost the turn: play goes on from player 2
    assert events(g, "card_played")[-1]["player"] == 2


def test_ji_02_a_skip_jumped_on_is_dropped_and_the_jumpers_skip_counts() -> None:
    g = jump_game()
    g.arrange({0: ["red skip", "red 1", "red 2"], 1: ["red skip", "blue 2", "blue 3"],
               2: ["green 1", "green 2"], 3: ["yellow 1", "red 4"]}, discard=["red 9"])
    answer(g, "play red skip")
    assert pending(g)[:2] == (1, "jump")  # the player about to be skipped may jump in
    answer(g, "play red skip")
    assert pending(g)[:2] == (3, "turn")  # player 1's skip skips player 2; player 0's skip is dropped
    assert [e["player"] for e in events(g, "skipped")] == [2]


def test_ji_03_the_offer_goes_round_again_on_the_jumpers_card() -> None:
    g = jump_game()
    g.arrange({0: ["wild", "wild", "red 2", "red 3"], 1: ["blue 1", "yellow 7"], 2: ["wild", "green 2", "green 3"],
               3: ["yellow 1", "yellow 2"]}, discard=["red 9"])
    answer(g, "play wild", "green")  # player 0 plays one wild of two
    answer(g, "play wild", "blue")  # player 2 jumps in, and names blue …
    assert pending(g)[:2] == (0, "jump")  # … and player 0 may jump back in with their other wild
    answer(g, "play wild", "yellow")
    assert pending(g)[:2] == (1, "turn") and g.current_color == "yellow"


def test_ji_03_the_offer_ends_when_no_one_else_holds_the_card() -> None:
    g = jump_game()
    g.arrange({0: ["red 5", "red 1", "red 2"], 1: ["blue 1", "red 3"], 2: ["red 5", "green 2", "green 3"],
               3: ["yellow 1", "red 4"]}, discard=["red 9"])
    answer(g, "play red 5", "play red 5")
    assert pending(g)[:2] == (3, "turn")
    assert [e["player"] for e in events(g, "choice") if e["kind"] == "jump"] == [2]


def test_ji_04_a_draw_turn_and_the_first_card_offer_nothing() -> None:
    g = jump_game()
    g.arrange({0: ["blue 1", "blue 2"], 1: ["red 5", "green 3", "green 4"], 2: ["yellow 1", "green 2"],
               3: ["yellow 4", "red 5"]}, discard=["red 9"], draw=["green 7", "blue 8"])
    # Player 0 cannot play on the first card: draws (without asking); no one is offered the red 9.
    assert pending(g)[:2] == (1, "turn")
    answer(g, "play red 5", "pass")  # player 3 is offered the red 5, and passes
    # Player 2 cannot play: draws (without asking); the turn ends on the same red 5: no offer again.
    assert pending(g)[:2] == (3, "turn")
    assert [e["player"] for e in events(g, "choice") if e["kind"] == "jump"] == [3]


def test_ji_05_jumping_in_with_the_last_card_wins_the_round() -> None:
    g = jump_game()
    g.arrange({0: ["red 5", "red 1", "red 2"], 1: ["blue 1", "blue 2"], 2: ["red 5"],
               3: ["yellow 1", "yellow 2"]}, discard=["red 9"])
    answer(g, "play red 5", "play red 5")
    assert events(g, "round_end")[0]["player"] == 2
