"""Scenario tests for UNO Triple Play (variants/triple_play.yaml): one or more per rule ID
(TP-1 … TP-14, listed with their Decisions at the top of the file).

The unit is chance. Most tests light every pile (`lit_percent=100`) and fix the overload:
`overload_min=overload_max=50` never overloads in a test, `overload_min=overload_max=K`
overloads a pile on its K-th card pressed since it was cleared, and
`overload_draw_min=overload_draw_max=D` makes an overload draw D cards. The TP-4 and TP-8
tests check the odds themselves, against a twin of the game's generator or over seeds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.helpers import answer, assert_conserved, events, game, hand, labels, pending, played_out, variant
from unodsl import Game
from unodsl.engine.actions import DRAW, Lay

PILES = ("left", "middle", "right")
CALM = {"lit_percent": 100, "overload_min": 50, "overload_max": 50}


def tp(hands: dict[int, list[str]], piles: tuple[list[str], list[str], list[str]], draw: list[str] = (),  # type: ignore[assignment]
       players: int = 3, **options: int) -> Game:
    """A game of Triple Play arranged with `hands` and the three piles (bottom to top), every pile
    lit and none overloading unless `options` say otherwise."""
    g = game("triple_play", players, options=CALM | options)
    g.arrange(hands, draw=draw, zones=dict(zip(PILES, piles, strict=True)))
    return g


def lays(g: Game) -> list[str]:
    assert g.decision is not None and g.decision.kind == "turn", g.decision
    return sorted(str(o) for o in g.decision.options if isinstance(o, Lay))


def pile(g: Game, name: str) -> list[str]:
    return labels(g.places[name])


def twin(g: Game) -> random.Random:
    """A copy of the game's generator: the numbers it will give next."""
    t = random.Random()
    t.setstate(g.rng.getstate())
    return t


def randint(t: random.Random, low: int, high: int) -> int:
    """random(low, high) as the game's generator gives it."""
    return low + int(t.random() * (high - low + 1))


def test_tp_01_the_deck_is_112_cards_for_2_to_6_players() -> None:
    v = variant("triple_play")
    assert (v.min_players, v.max_players) == (2, 6)
    per = Counter(f.label for f in v.sides[0].faces)
    assert sum(per.values()) == 112
    for color in ("red", "yellow", "green", "blue"):
        assert per[f"{color} 0"] == 1
        assert all(per[f"{color} {n}"] == 2 for n in range(1, 10))
        assert per[f"{color} skip"] == per[f"{color} reverse"] == per[f"{color} discard two"] == 2
    assert per["wild"] == per["wild clear"] == per["wild give away"] == 4


def test_tp_02_the_highest_cut_deals_and_seven_are_dealt_each() -> None:
    g = game("triple_play", 2, stacked=["red skip", "red 1"])
    assert g.dealer == 1  # the red 1 beats the Skip, a 0 in the cut
    g = game("triple_play", 4, seed=3)
    assert [e["count"] for e in events(g, "dealt")] == [7, 7, 7, 7]
    assert g.decision is not None and g.decision.player == (g.dealer + 1) % 4


def test_tp_03_three_piles_each_start_with_a_number_card() -> None:
    turned_back = 0
    for seed in range(40):
        g = game("triple_play", 3, seed=seed)
        for name in PILES:
            assert len(g.places[name]) == 1 and g.places[name][0].kind == "number", (seed, name)
        turned_back += sum(1 for m in events(g, "cards_moved") if m["source"] in PILES and m["target"] == "draw_pile")
        assert_conserved(g)
    assert turned_back > 0  # (40 seeds turn up an action card or a wild somewhere: it went back)


def test_tp_04_every_lit_pile_is_open_and_only_those() -> None:
    g = tp({0: ["red 5", "blue 9"], 1: ["green 2"], 2: ["red 7"]}, (["red 1"], ["red 2"], ["blue 3"]))
    assert lays(g) == ["left: red 5 on red 1", "middle: red 5 on red 2", "right: blue 9 on blue 3"]
    for seed in range(6):  # one pile lit (none comes up lit: one, each as likely)
        g = game("triple_play", 3, seed=seed, options={"lit_percent": 0})
        t = twin(g)
        for _ in range(3):
            randint(t, 1, 100)
        lit = randint(t, 1, 3)
        g.arrange({0: ["red 5", "blue 9"], 1: ["green 2"], 2: ["red 7"]},
                  zones={"left": ["red 1"], "middle": ["red 2"], "right": ["blue 3"]})
        assert lays(g) == [["left: red 5 on red 1"], ["middle: red 5 on red 2"], ["right: blue 9 on blue 3"]][lit - 1]


def test_tp_04_the_unit_lights_one_to_three_piles_by_chance() -> None:
    counts: Counter[int] = Counter()
    which: Counter[str] = Counter()
    for seed in range(200):
        g = game("triple_play", 3, seed=seed)
        p = g.decision.player  # type: ignore[union-attr]
        lit = {f for f in g.flags[p] if f.startswith("lit_")}
        counts[len(lit)] += 1
        which.update(lit)
        assert not any(f.startswith("lit_") for q, flags in enumerate(g.flags) if q != p for f in flags)
    assert set(counts) <= {1, 2, 3} and counts[0] == 0
    # each pile lit with chance 1/2, and one lit when none comes up: 1 pile 3/8+1/8, 2 piles 3/8, 3 piles 1/8
    assert 70 <= counts[1] <= 130 and 45 <= counts[2] <= 105 and 10 <= counts[3] <= 45, counts
    assert all(90 <= which[f"lit_{x}"] <= 150 for x in PILES), which


def test_tp_04_with_no_chance_of_light_exactly_one_pile_is_lit() -> None:
    for seed in range(30):
        g = game("triple_play", 3, seed=seed, options={"lit_percent": 0})
        p = g.decision.player  # type: ignore[union-attr]
        assert len([f for f in g.flags[p] if f.startswith("lit_")]) == 1


def test_tp_04_the_lights_go_out_at_the_end_of_the_turn() -> None:
    g = tp({0: ["red 5", "blue 9", "yellow 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1"], ["red 2"], ["blue 3"]))
    answer(g, "left: red 5 on red 1")
    assert not any(f.startswith("lit_") for f in g.flags[0])
    assert {"lit_left", "lit_middle", "lit_right"} <= g.flags[1]


def test_tp_05_a_card_matches_its_pile_by_colour_number_or_symbol() -> None:
    g = tp({0: ["yellow 1", "green skip", "blue 8", "wild"], 1: ["red 9"], 2: ["red 7"]},
           (["red 1"], ["red skip"], ["green 4"]))
    assert lays(g) == ["left: wild on red 1", "left: yellow 1 on red 1", "middle: green skip on red skip",
                       "middle: wild on red skip", "right: green skip on green 4", "right: wild on green 4"]


def test_tp_05_one_card_onto_one_pile_a_turn() -> None:
    g = tp({0: ["red 5", "red 6", "blue 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1"], ["red 2"], ["blue 3"]))
    answer(g, "left: red 5 on red 1")
    assert pending(g)[0] == 1  # no second play: the turn is over
    assert pile(g, "left") == ["red 1", "red 5"] and hand(g, 0) == ["blue 9", "red 6"]


def test_tp_06_a_wild_names_the_colour_of_its_pile() -> None:
    g = tp({0: ["wild", "blue 9", "yellow 9"], 1: ["green 2", "green 4", "yellow 7"], 2: ["red 7", "red 8"]},
           (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "left: wild on red 1", "green")
    assert [(e["card"].label, e["value"]) for e in events(g, "card_named")] == [("wild", "green")]
    # green goes on the wild (left), not on the yellow pile; yellow 7 still goes on yellow
    assert lays(g) == ["left: green 2 on wild", "left: green 4 on wild", "middle: green 2 on yellow 2",
                       "middle: yellow 7 on yellow 2"]


def test_tp_07_no_play_draw_one_and_play_it_if_it_goes() -> None:
    g = tp({0: ["red 5", "yellow 6"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["blue 1"], ["blue 2"], ["green 3"]), draw=["blue 7"])
    # (nothing goes: the draw is the only option, taken at once)
    assert hand(g, 0) == ["blue 7", "red 5", "yellow 6"]
    assert lays(g) == ["left: blue 7 on blue 1", "middle: blue 7 on blue 2"]


def test_tp_07_after_a_draw_only_the_card_drawn_may_be_played() -> None:
    g = tp({0: ["green 5", "yellow 6"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["blue 1"], ["blue 2"], ["green 3"]), draw=["blue 7"])
    assert "right: green 5 on green 3" in lays(g) and DRAW in g.decision.options  # type: ignore[union-attr]
    answer(g, DRAW)
    assert lays(g) == ["left: blue 7 on blue 1", "middle: blue 7 on blue 2"]  # not the green 5


def test_tp_07_a_card_drawn_that_goes_nowhere_is_kept() -> None:
    g = tp({0: ["red 5", "yellow 6"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["blue 1"], ["blue 2"], ["green 3"]), draw=["yellow 9"])
    assert hand(g, 0) == ["red 5", "yellow 6", "yellow 9"]
    assert pending(g)[0] == 1


def test_tp_08_a_pile_overloads_on_its_limit_and_the_player_draws() -> None:
    g = tp({0: ["red 5", "blue 9", "yellow 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1", "red 2", "red 3"], ["yellow 2"], ["blue 3"]), draw=["green 6", "green 7", "green 8"],
           overload_min=3, overload_max=3, overload_draw_min=2, overload_draw_max=2)
    answer(g, "left: red 5 on red 3")
    assert hand(g, 0) == ["blue 9", "green 6", "green 7", "yellow 9"]
    assert pile(g, "left") == ["red 5"]  # cleared: the count starts again
    assert sorted(labels(g.discard_pile)) == ["red 1", "red 2", "red 3"]
    assert_conserved(g)


def test_tp_08_option_overload_takes_pile_gives_the_pile_to_the_player() -> None:
    g = tp({0: ["red 5", "blue 9", "yellow 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1", "red 2", "red 3"], ["yellow 2"], ["blue 3"]), draw=["green 6", "green 7"],
           overload_min=3, overload_max=3, overload_takes_pile=1)
    answer(g, "left: red 5 on red 3")
    assert hand(g, 0) == ["blue 9", "red 1", "red 2", "red 3", "yellow 9"]  # no draw
    assert pile(g, "left") == ["red 5"] and not g.discard_pile


def test_tp_08_below_its_limit_a_pile_does_not_overload() -> None:
    g = tp({0: ["red 5", "blue 9", "yellow 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1", "red 2"], ["yellow 2"], ["blue 3"]), draw=["green 6", "green 7"],
           overload_min=3, overload_max=3, overload_draw_min=2, overload_draw_max=2)
    answer(g, "left: red 5 on red 2")
    assert hand(g, 0) == ["blue 9", "yellow 9"]
    assert pile(g, "left") == ["red 1", "red 2", "red 5"]


def test_tp_08_the_odds_of_an_overload_are_those_of_a_hidden_limit() -> None:
    # 4 cards pressed since the pile was cleared and no overload: the limit is 5 to 9, each as likely,
    # so pressing the 5th overloads with chance 1/5; the draw is then 1 to 4 cards.
    overloads = 0
    for seed in range(60):
        g = game("triple_play", 3, seed=seed, options={"lit_percent": 100})
        g.arrange({0: ["red 5", "blue 9", "yellow 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
                  zones={"left": ["red 0", "red 1", "red 2", "red 3", "red 4"], "middle": ["yellow 2"],
                         "right": ["blue 3"]})
        t = twin(g)
        limit_here = randint(t, 5, 9) <= 5
        drawn = randint(t, 1, 4) if limit_here else 0
        answer(g, "left: red 5 on red 4")
        assert len(g.hands[0]) == 2 + drawn, seed
        assert len(g.places["left"]) == (1 if limit_here else 6)
        overloads += limit_here
    assert 3 <= overloads <= 25


def test_tp_09_skip_and_reverse() -> None:
    g = tp({0: ["red skip", "blue 9", "yellow 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "left: red skip on red 1")
    assert pending(g)[0] == 2 and events(g, "skipped")[-1]["player"] == 1
    g = tp({0: ["red reverse", "blue 9", "yellow 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "left: red reverse on red 1")
    assert pending(g)[0] == 2 and g.direction == -1


def test_tp_09_with_two_players_a_reverse_is_a_skip() -> None:
    g = tp({0: ["red reverse", "blue 9", "yellow 9"], 1: ["green 2", "green 4"]}, (["red 1"], ["yellow 2"], ["blue 3"]),
           players=2)
    answer(g, "left: red reverse on red 1")
    assert pending(g)[0] == 0 and g.direction == 1


def test_tp_10_discard_two_presses_two_more_of_its_colour_onto_its_pile() -> None:
    g = tp({0: ["red discard two", "red 8", "red 9", "red 4", "blue 9"], 1: ["green 2", "green 4"],
            2: ["red 7", "red 8"]}, (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "left: red discard two on red 1")
    assert pending(g) == (0, "card", "pick a card to press onto the same pile")
    assert sorted(c.label for c in g.decision.options) == ["red 4", "red 8", "red 9"]  # type: ignore[union-attr]
    answer(g, "red 9", "red 4")
    assert pile(g, "left") == ["red 1", "red discard two", "red 9", "red 4"]
    assert hand(g, 0) == ["blue 9", "red 8"]
    assert pending(g)[0] == 1


def test_tp_10_discard_two_goes_on_a_discard_two_and_takes_what_the_hand_holds() -> None:
    g = tp({0: ["green discard two", "green 8", "blue 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1"], ["red discard two"], ["blue 3"]))
    answer(g, "middle: green discard two on red discard two")  # one green card left: it goes, no question
    assert pile(g, "middle") == ["red discard two", "green discard two", "green 8"]
    assert hand(g, 0) == ["blue 9"]


def test_tp_10_the_cards_after_a_discard_two_count_for_the_overload() -> None:
    g = tp({0: ["red discard two", "red 8", "red 9", "blue 9", "yellow 9"], 1: ["green 2", "green 4"],
            2: ["red 7", "red 8"]}, (["red 1"], ["yellow 2"], ["blue 3"]), draw=["green 6"],
           overload_min=3, overload_max=3, overload_draw_min=1, overload_draw_max=1)
    answer(g, "left: red discard two on red 1", "red 9")  # (then the red 8, the only red left)
    assert pile(g, "left") == ["red 8"]  # the third card pressed overloaded it
    assert hand(g, 0) == ["blue 9", "green 6", "yellow 9"]


def test_tp_11_wild_clear_clears_its_pile_and_never_overloads_it() -> None:
    g = tp({0: ["wild clear", "blue 9", "yellow 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1", "red 2", "red 3"], ["yellow 2"], ["blue 3"]), draw=["green 6"],
           overload_min=1, overload_max=1, overload_draw_min=1, overload_draw_max=1)
    answer(g, "left: wild clear on red 3", "yellow")
    assert pile(g, "left") == ["wild clear"]
    assert sorted(labels(g.discard_pile)) == ["red 1", "red 2", "red 3"]
    assert hand(g, 0) == ["blue 9", "yellow 9"]  # no overload draw
    assert [(e["card"].label, e["value"]) for e in events(g, "card_named")] == [("wild clear", "yellow")]
    assert "left: green 2 on wild clear" not in lays(g)  # it counts as yellow


def test_tp_12_wild_give_away_gives_two_cards_to_a_player_of_choice() -> None:
    g = tp({0: ["wild give away", "blue 9", "red 4", "green 7"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "right: wild give away on blue 3", "blue")
    assert pending(g) == (0, "player", "pick a player")
    answer(g, 2)
    assert pending(g) == (0, "card", "pick a card to give away")
    answer(g, "blue 9", "red 4")
    assert hand(g, 0) == ["green 7"]
    assert hand(g, 2) == ["blue 9", "red 4", "red 7", "red 8"]
    assert [(e["player"], e["other"]) for e in events(g, "card_given")] == [(0, 2), (0, 2)]


def test_tp_12_giving_the_last_cards_away_goes_out() -> None:
    g = tp({0: ["wild give away", "blue 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "right: wild give away on blue 3", "no", "blue", 1)  # (UNO not called: the play leaves one card)
    assert [(e["player"], e["other"], e["card"].label) for e in events(g, "card_given")] == [(0, 1, "blue 9")]
    assert events(g, "round_end")[0]["player"] == 0
    assert g.scores[0] == 2 + 4 + 9 + 7 + 8  # (the blue 9 now in P2's hand)


def test_tp_13_say_uno_when_one_card_is_left_or_be_caught() -> None:
    g = tp({0: ["red 5", "blue 9"], 1: ["green 2", "green 4"], 2: ["red 7", "red 8"]},
           (["red 1"], ["yellow 2"], ["blue 3"]), draw=["green 6", "green 7"])
    answer(g, "left: red 5 on red 1")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no")
    assert pending(g) == (1, "ask", "catch_uno")
    answer(g, "yes")
    assert hand(g, 0) == ["blue 9", "green 6", "green 7"]


def test_tp_14_the_first_out_scores_the_others_cards() -> None:
    g = tp({0: ["red 5"], 1: ["green 2", "green skip", "wild clear"], 2: ["red discard two", "wild give away"]},
           (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "left: red 5 on red 1")
    end = events(g, "round_end")[0]
    assert end["player"] == 0
    assert g.scores[0] == 2 + 20 + 50 + 20 + 50
    v = variant("triple_play")
    assert (v.scoring.round, v.scoring.target, v.scoring.winner) == ("winner_scores_others", 500, "highest")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_tp_plays_out_at_every_table_size_with_every_card_kept(players: int) -> None:
    """Whole games of random players at each table size: COM-3 and every move declared after every
    event (played_out), each game won, none a runaway (the engine's guard would raise)."""
    for seed in range(40):
        g = played_out("triple_play", players, seed, ["random"] * players)
        assert g.winner is not None and max(g.scores) >= 500, (players, seed)
