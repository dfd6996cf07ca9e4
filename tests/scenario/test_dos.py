"""Scenario tests for DOS (variants/dos.yaml): one or more per rule ID (DOS-1 … DOS-14)."""

from __future__ import annotations

from collections import Counter

from tests.helpers import answer, assert_conserved, events, game, hand, labels, pending, played_out, variant
from unodsl import Game
from unodsl.engine.actions import DRAW, Lay


def dos(hands: dict[int, list[str]], row: list[str], draw: list[str] = (), players: int = 3,  # type: ignore[assignment]
        **kw: object) -> Game:
    g = game("dos", players)
    g.arrange(hands, draw=draw, zones={"center_row": row}, **kw)  # type: ignore[arg-type]
    return g


def lays(g: Game) -> list[str]:
    assert g.decision is not None
    return sorted(str(o) for o in g.decision.options if isinstance(o, Lay))


def row(g: Game) -> list[str]:
    return labels(g.places["center_row"])


def test_dos_01_the_deck_is_108_cards_for_2_to_4_players() -> None:
    v = variant("dos")
    assert (v.min_players, v.max_players) == (2, 4)
    per = Counter(f.label for f in v.sides[0].faces)
    assert sum(per.values()) == 108
    assert per["wild dos 2"] == 12
    assert all(per[f"{c} wild number"] == 2 for c in ("red", "yellow", "green", "blue"))
    assert all(per[f"{c} {n}"] == 3 for c in ("red", "blue") for n in (1, 3, 4, 5))
    assert all(per[f"{c} {n}"] == 2 for c in ("green", "yellow") for n in range(6, 11))
    assert not any(label.endswith(" 2") and not label.startswith("wild") for label in per)


def test_dos_02_seven_each_and_two_cards_in_the_center_row() -> None:
    g = game("dos", 3, seed=4)
    assert [e["count"] for e in events(g, "dealt")] == [7, 7, 7]
    moved = events(g, "cards_moved")
    assert [(m["source"], m["target"], m["count"]) for m in moved] == [("draw_pile", "center_row", 2)]
    assert [len(h) for h in g.hands] == [7, 7, 7] and len(g.places["center_row"]) == 2
    assert_conserved(g)


def test_dos_02_the_cut_counts_wilds_as_zero() -> None:
    g = game("dos", 2, stacked=["wild dos 2", "red 1"])
    assert g.dealer == 1  # the red 1 beats the Wild DOS, a 0 in the cut


def test_dos_03_a_single_match_is_one_card_of_the_same_number() -> None:
    g = dos({0: ["red 5", "blue 7", "green 3"], 1: ["red 1"], 2: ["red 3"]}, row=["yellow 5", "blue 9"])
    assert "single_match: red 5 on yellow 5" in lays(g)
    assert not any("blue 7 on" in o and "single" in o for o in lays(g))


def test_dos_03_a_double_match_is_two_cards_that_add_up() -> None:
    g = dos({0: ["red 4", "blue 5", "green 3"], 1: ["red 1"], 2: ["red 3"]}, row=["yellow 9", "blue 6"])
    assert "double_match: red 4 + blue 5 on yellow 9" in lays(g)
    assert not any("on blue 6" in o for o in lays(g))  # 4 + 5, 4 + 3, 5 + 3: none makes 6


def test_dos_03_the_cards_go_on_the_center_row_card() -> None:
    g = dos({0: ["red 4", "blue 5", "green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["yellow 9", "blue 6"])
    answer(g, "double_match: red 4 + blue 5 on yellow 9")
    assert labels(g.places["matched"]) == ["red 4", "blue 5"]  # (the call first: a match leaves two cards)
    answer(g, "yes")
    assert sorted(labels(g.discard_pile)) == ["blue 5", "red 4", "yellow 9"]  # (the turn is over: see DOS-11)
    assert row(g)[0] == "blue 6"
    assert hand(g, 0) == ["green 3", "green 8"]


def test_dos_04_a_match_on_each_center_row_card_one_each() -> None:
    g = dos({0: ["red 9", "blue 6", "green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["yellow 9", "blue 6"])
    answer(g, "single_match: red 9 on yellow 9")
    assert pending(g) == (0, "turn", "another play")
    assert lays(g) == ["single_match: blue 6 on blue 6"]  # the yellow 9 has had its match
    answer(g, "single_match: blue 6 on blue 6")
    assert hand(g, 0) == ["green 3", "green 8"]


def test_dos_04_the_player_may_stop_after_a_match() -> None:
    g = dos({0: ["red 9", "blue 6", "green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["yellow 9", "blue 6"])
    answer(g, "single_match: red 9 on yellow 9", "pass")
    assert "blue 6" in hand(g, 0)
    assert pending(g)[0] == 1


def test_dos_05_a_wild_dos_is_a_two_of_any_colour() -> None:
    g = dos({0: ["wild dos 2", "red 5", "green 8"], 1: ["red 1"], 2: ["red 3"]}, row=["wild dos 2", "blue 7"])
    assert "single_match: wild dos 2 on wild dos 2" in lays(g)
    assert "double_match: wild dos 2 + red 5 on blue 7" in lays(g)


def test_dos_05_a_wild_dos_matches_any_colour_for_a_color_match() -> None:
    g = dos({0: ["wild dos 2", "blue 5", "green 8", "green 9"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["blue 7", "yellow 1"])
    answer(g, "double_match: wild dos 2 + blue 5 on blue 7", "yes")
    assert [len(h) for h in g.hands[1:]] == [3, 3]  # a Double Color Match: the others draw


def test_dos_06_a_wild_number_is_any_number() -> None:
    g = dos({0: ["red wild number", "green 8"], 1: ["red 1"], 2: ["red 3"]}, row=["yellow 4", "blue 10"])
    options = lays(g)
    assert "single_match: red wild number on yellow 4" in options
    assert "single_match: red wild number on blue 10" in options
    assert "double_match: red wild number + green 8 on blue 10" in options  # 2 + 8
    assert "double_match: red wild number + green 8 on yellow 4" not in options  # 8 is already over 4


def test_dos_06_a_wild_number_says_the_number_that_makes_the_match() -> None:
    g = dos({0: ["red wild number", "green 3", "green 8", "blue 1"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["blue 10", "yellow 4"])
    answer(g, "double_match: red wild number + green 3 on blue 10", "yes")
    assert [(e["card"].label, e["value"]) for e in events(g, "card_named")] == [("red wild number", "7")]


def test_dos_06_a_wild_number_in_the_row_takes_the_number_matched_onto_it() -> None:
    g = dos({0: ["red 7", "green 3", "green 8", "blue 1"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["blue wild number", "yellow 4"])
    answer(g, "double_match: red 7 + green 3 on blue wild number", "yes")
    assert [(e["card"].label, e["value"]) for e in events(g, "card_named")] == [("blue wild number", "10")]


def test_dos_06_a_wild_number_in_the_row_takes_any_number() -> None:
    g = dos({0: ["red 7", "green 3"], 1: ["red 1"], 2: ["red 3"]}, row=["blue wild number", "yellow 1"])
    options = lays(g)
    assert "single_match: red 7 on blue wild number" in options
    assert "double_match: red 7 + green 3 on blue wild number" in options  # 10
    assert "double_match: red 7 + green 3 on yellow 1" not in options


def test_dos_07_a_single_color_match_adds_a_bonus_card_at_the_end_of_the_turn() -> None:
    g = dos({0: ["blue 6", "green 3", "green 8"], 1: ["red 1", "red 4"], 2: ["red 3", "red 10"]},
            row=["blue 6", "yellow 9"], draw=["red 5"])
    answer(g, "single_match: blue 6 on blue 6", "yes")
    assert pending(g) == (0, "card", "pick a card to add to the Center Row")  # the bonus, once the row is full
    assert row(g) == ["yellow 9", "red 5"]
    answer(g, "green 8")
    assert row(g) == ["yellow 9", "red 5", "green 8"]
    assert hand(g, 0) == ["green 3"]


def test_dos_08_a_double_color_match_also_makes_the_others_draw() -> None:
    g = dos({0: ["blue 4", "blue 5", "green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["blue 9", "yellow 7"])
    answer(g, "double_match: blue 4 + blue 5 on blue 9", "yes")
    assert len(g.hands[1]) == 3 and len(g.hands[2]) == 3
    answer(g, "green 3")  # (nothing more to match: the turn ends, and the bonus card is asked for)
    assert "green 3" in row(g)


def test_dos_08_two_cards_of_another_colour_earn_nothing() -> None:
    g = dos({0: ["blue 4", "red 5", "green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["blue 9", "yellow 7"])
    answer(g, "double_match: blue 4 + red 5 on blue 9", "yes")
    assert len(g.hands[1]) == 2
    assert pending(g)[0] == 1


def test_dos_09_no_match_draw_one_then_match_with_it() -> None:
    g = dos({0: ["green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["blue 9", "yellow 7"], draw=["red 9"])
    # (nothing matches: the draw is the only option, taken at once)
    assert labels(g.hands[0]) == ["green 3", "green 8", "red 9"]
    assert pending(g) == (0, "turn", "another play")
    assert lays(g) == ["single_match: red 9 on blue 9"]


def test_dos_09_a_player_who_can_match_may_still_draw() -> None:
    g = dos({0: ["blue 9", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["blue 9", "yellow 7"], draw=["red 4"])
    assert DRAW in g.decision.options  # type: ignore[union-attr]


def test_dos_10_no_match_a_card_goes_to_the_center_row() -> None:
    g = dos({0: ["green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["blue 9", "yellow 7"], draw=["red 5"])
    assert pending(g) == (0, "card", "pick a card to add to the Center Row")  # drawn, no match: a card to the row
    answer(g, "green 8")
    assert row(g) == ["blue 9", "yellow 7", "green 8"]
    assert hand(g, 0) == ["green 3", "red 5"]


def test_dos_11_matched_cards_and_their_row_cards_go_to_the_discard_pile_and_the_row_fills_up() -> None:
    g = dos({0: ["red 9", "blue 7", "green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["yellow 9", "green 7"], draw=["red 4", "red 6"])
    answer(g, "single_match: red 9 on yellow 9", "single_match: blue 7 on green 7", "yes")
    assert sorted(labels(g.discard_pile)) == ["blue 7", "green 7", "red 9", "yellow 9"]
    assert row(g) == ["red 4", "red 6"]
    assert not g.places["matched"] and not g.places["bonus"]
    assert_conserved(g)


def test_dos_11_single_cards_stay_in_the_row() -> None:
    g = dos({0: ["red 9", "green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["yellow 9", "green 6", "blue 1"])
    answer(g, "single_match: red 9 on yellow 9", "yes")
    assert row(g) == ["green 6", "blue 1"]


def test_dos_12_say_dos_when_a_match_leaves_two_cards() -> None:
    g = dos({0: ["red 9", "green 3", "green 8"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
            row=["yellow 9", "green 6"])
    answer(g, "single_match: red 9 on yellow 9")
    assert pending(g) == (0, "ask", "call_dos")
    answer(g, "no")
    assert pending(g) == (1, "ask", "catch_dos")
    answer(g, "yes")
    assert len(g.hands[0]) == 4


def test_dos_13_the_first_out_scores_the_others_cards() -> None:
    g = dos({0: ["red 9"], 1: ["red 1", "red 7"], 2: ["wild dos 2", "red wild number"]},
            row=["yellow 9", "green 6"])
    answer(g, "single_match: red 9 on yellow 9")
    ends = events(g, "round_end")
    assert ends and ends[-1]["player"] == 0
    assert g.scores[0] == 1 + 7 + 20 + 40


def test_dos_14_the_first_to_200_wins() -> None:
    v = variant("dos")
    assert v.scoring.target == 200 and v.scoring.winner == "highest"
    g = played_out("dos", 3, 2, ["greedy", "random", "greedy"])
    assert g.winner is not None and max(g.scores) >= 200
