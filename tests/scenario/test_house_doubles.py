"""House rule "doubles" (variants/house/doubles.yaml), rule by rule.

DBL-1 Instead of one card, two, three or four number cards of one number at once onto
      the discard pile.
DBL-2 The first must match the top card as a one-card play would (colour or number);
      the others follow whatever their colour.
DBL-3 The cards go down one after another; the player picks which ends on top, and its
      colour is the colour to match.
DBL-4 Each card is a play of its own (card_played for each); the last may end the round.
DBL-5 Action cards and wilds one at a time; a card drawn is played alone.
"""

from __future__ import annotations

from tests.helpers import answer, assert_conserved, events, game, hand, labels, pending
from unodsl import Game
from unodsl.engine.actions import Lay


def doubles(hands: dict[int, list[str]], top: str = "red 9", players: int = 3) -> Game:
    g = game("house/doubles", players)
    g.arrange(hands, discard=[top])
    return g


def lays(g: Game) -> list[str]:
    assert g.decision is not None
    return sorted(str(o) for o in g.decision.options if isinstance(o, Lay))


def test_dbl_01_two_three_or_four_cards_of_one_number_are_offered() -> None:
    g = doubles({0: ["red 5", "blue 5", "green 5", "yellow 5", "red 2"], 1: ["blue 1"], 2: ["blue 2"]})
    options = lays(g)
    sizes = {o.count("+") + 1 for o in options}
    assert sizes == {2, 3, 4}
    assert "doubles: red 5 + blue 5 + green 5 + yellow 5 on red 9" in options or any(
        o.startswith("doubles: ") and o.count("+") == 3 for o in options)
    assert not any("red 2" in o for o in options)  # a lone 2 makes no double


def test_dbl_01_the_cards_leave_the_hand_and_end_on_the_discard_pile() -> None:
    g = doubles({0: ["red 5", "blue 5", "red 2", "red 3"], 1: ["blue 1", "green 1"], 2: ["blue 2", "green 2"]})
    answer(g, "doubles: red 5 + blue 5 on red 9")
    assert hand(g, 0) == ["red 2", "red 3"]
    assert labels(g.discard_pile) == ["red 9", "red 5", "blue 5"]
    assert pending(g)[:2] == (1, "turn")
    assert_conserved(g)


def test_dbl_02_the_first_card_must_match_by_colour_or_number() -> None:
    g = doubles({0: ["blue 5", "green 5", "red 2"], 1: ["blue 1"], 2: ["blue 2"]}, top="red 9")
    assert lays(g) == []  # neither 5 matches red 9
    g = doubles({0: ["blue 9", "green 9", "red 2"], 1: ["blue 1"], 2: ["blue 2"]}, top="red 9")
    assert lays(g) == ["doubles: blue 9 + green 9 on red 9", "doubles: green 9 + blue 9 on red 9"]


def test_dbl_02_the_others_follow_whatever_their_colour() -> None:
    g = doubles({0: ["red 5", "blue 5", "red 2"], 1: ["blue 1"], 2: ["blue 2"]}, top="red 9")
    assert lays(g) == ["doubles: red 5 + blue 5 on red 9"]  # the red 5 matches, so it goes first


def test_dbl_03_the_player_picks_the_order_and_so_the_top_card() -> None:
    g = doubles({0: ["blue 5", "red 5", "green 5", "red 2"], 1: ["blue 1"], 2: ["blue 2"]}, top="red 9")
    threes = [o for o in lays(g) if o.count("+") == 2]
    assert threes == ["doubles: red 5 + blue 5 + green 5 on red 9", "doubles: red 5 + green 5 + blue 5 on red 9"]


def test_dbl_03_the_last_card_names_the_colour_to_match() -> None:
    g = doubles({0: ["red 5", "blue 5", "red 2", "red 3"], 1: ["blue 1", "green 3"], 2: ["blue 2", "green 4"]})
    answer(g, "doubles: red 5 + blue 5 on red 9")
    assert g.current_color == "blue"
    assert g.discard_pile[-1].label == "blue 5"


def test_dbl_04_each_card_is_a_play_of_its_own() -> None:
    g = doubles({0: ["red 5", "blue 5", "green 5", "red 2"], 1: ["blue 1"], 2: ["blue 2"]})
    answer(g, "doubles: red 5 + blue 5 + green 5 on red 9")
    if g.decision is not None and g.decision.kind == "ask":
        answer(g, "yes")
    assert [e["card"].label for e in events(g, "card_played")] == ["red 5", "blue 5", "green 5"]
    told = events(g, "cards_played")
    assert len(told) == 1 and told[0]["play"] == "doubles" and labels(told[0]["cards"]) == [
        "red 5", "blue 5", "green 5"]


def test_dbl_04_the_last_cards_going_down_win_the_round() -> None:
    g = doubles({0: ["red 5", "blue 5"], 1: ["blue 1", "green 7"], 2: ["blue 2"]})
    answer(g, "doubles: red 5 + blue 5 on red 9")
    if g.decision is not None and g.decision.kind == "ask":  # (the UNO call, down to one card on the way)
        answer(g, "yes")
    assert events(g, "round_end")[-1]["player"] == 0


def test_dbl_05_action_cards_and_wilds_are_played_one_at_a_time() -> None:
    g = doubles({0: ["red skip", "blue skip", "wild", "wild", "red 2"], 1: ["blue 1"], 2: ["blue 2"]})
    assert lays(g) == []
    assert "play red skip" in {str(o) for o in g.decision.options}  # type: ignore[union-attr]


def test_dbl_05_a_card_drawn_is_played_alone() -> None:
    g = game("house/doubles", 3)
    g.arrange({0: ["blue 5", "green 1"], 1: ["blue 1"], 2: ["blue 2"]}, discard=["red 9"], draw=["red 5"])
    # (nothing to play: the draw is the only option, taken at once)
    assert pending(g)[:2] == (0, "drawn")  # the red 5 alone: play it or keep it; no double with the blue 5
    answer(g, "play red 5")
    assert hand(g, 0) == ["blue 5", "green 1"]
    assert pending(g)[0] == 1


def test_dbl_05_a_card_drawn_and_kept_makes_no_double() -> None:
    g = game("house/doubles", 3)
    g.arrange({0: ["blue 5", "green 1"], 1: ["blue 1"], 2: ["blue 2"]}, discard=["red 9"], draw=["red 5"])
    answer(g, "keep")
    assert hand(g, 0) == ["blue 5", "green 1", "red 5"]
    assert pending(g)[0] == 1
