"""Scenario tests for Classic UNO: one or more per rule ID (CL-*, COM-*)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.helpers import answer, assert_classic_coloured_cards, events, game, hand, pending, played_out, variant
from unodsl import Game, IllegalAction, make_agents, play_game
from unodsl.engine.actions import DRAW, Play


def test_cl_01_deck_has_108_cards_for_2_to_10_players() -> None:
    v = variant("classic")
    assert (v.min_players, v.max_players) == (2, 10)
    faces = v.sides[0].faces
    assert len(faces) == 108
    per = Counter(f.label for f in faces)
    assert_classic_coloured_cards(per)
    assert per["wild"] == 4 and per["wild draw four"] == 4


def test_cl_02_deal_seven_and_turn_top_card() -> None:
    g = game("classic", 4, seed=3)
    assert [len(h) for h in g.hands] != [] and all(len(h) >= 7 for h in g.hands)
    assert len(g.discard_pile) == 1
    total = sum(len(h) for h in g.hands) + len(g.draw_pile) + len(g.discard_pile)
    assert total == 108


def test_cl_03_first_card_skip_skips_first_player() -> None:
    # Stacked: the cut gives player 1 the deal (red 2 beats red 1), 14 cards are
    # dealt, then the top card is a Skip.
    # The cut shows the top two cards (red 1, red 2), which go back and are dealt.
    deck = ["red 1", "red 2"] + [f"blue {r}" for r in range(1, 7)] * 2 + ["green skip"]
    g = game("classic", 2, stacked=deck)
    assert g.dealer == 1
    # Player 0 (left of the dealer) is skipped: the dealer plays first.
    assert pending(g)[0] == 1


def test_cl_03_first_card_draw_two_hits_first_player() -> None:
    deck = ["red 1", "red 2", "red 3"] + [f"blue {r}" for r in range(1, 10)] * 2 + ["green draw two"]
    g = game("classic", 3, stacked=deck)
    assert g.dealer == 2
    first = (g.dealer + 1) % 3
    assert len(g.hands[first]) == 9
    assert pending(g)[0] == (g.dealer + 2) % 3


def test_cl_03_first_card_reverse_dealer_plays_first() -> None:
    deck = ["red 1", "red 2", "red 3"] + [f"blue {r}" for r in range(1, 10)] * 2 + ["green reverse"]
    g = game("classic", 3, stacked=deck)
    assert g.direction == -1
    assert pending(g)[0] == g.dealer


def test_cl_03_first_card_wild_is_returned_and_another_turned() -> None:
    g = game("classic", 2, seed=0)
    wild_first = next(s for s in range(200) if any(
        e == "cards_moved" and d["source"] == "discard_pile" for e, d in game("classic", 2, seed=s).events))
    g = game("classic", 2, seed=wild_first)
    turned = events(g, "card_turned")
    assert len(turned) >= 2 and turned[0]["card"].wild is not None
    assert g.discard_pile[-1].wild is False and len(g.discard_pile) == 1


@pytest.mark.parametrize("seed", range(40))
def test_cl_03_first_card_is_never_wild(seed: int) -> None:
    g = game("classic", 3, seed=seed)
    assert g.discard_pile[-1].wild is False
    assert sum(len(h) for h in g.hands) + len(g.draw_pile) + len(g.discard_pile) == 108


def test_cl_04_play_starts_left_of_dealer_and_deal_passes_left() -> None:
    g = game("classic", 4)
    g.arrange({0: ["red 1"], 1: ["red 2", "red 3"], 2: ["blue 1", "blue 2"], 3: ["green 1", "green 2"]},
              discard=["red 9"], current=0, dealer=3)
    answer(g, "play red 1")
    assert g.round == 2
    assert g.dealer == 0  # left of the previous dealer (3)
    assert events(g, "round_start")[-1] == {"player": 0, "round": 2}


def test_cl_05_play_match_or_wild_or_draw_even_when_able() -> None:
    g = game("classic", 2)
    g.arrange({0: ["red 7", "blue 3", "green 3", "wild", "yellow 9"], 1: ["blue 1", "blue 2"]},
              discard=["red 3"])
    options = {str(o) for o in g.decision.options}
    assert options == {"play red 7", "play blue 3", "play green 3", "play wild", "draw"}


def test_cl_06_drawn_playable_card_may_be_played() -> None:
    g = game("classic", 2)
    g.arrange({0: ["blue 1", "blue 3"], 1: ["yellow 1", "red 2"]}, discard=["red 3"], draw=["red 8"])
    answer(g, "draw")  # even though blue 3 could be played (CL-5)
    assert pending(g)[1] == "drawn"
    answer(g, "play red 8")
    assert g.discard_pile[-1].label == "red 8"
    assert pending(g)[0] == 1


def test_cl_06_drawn_card_may_be_kept() -> None:
    g = game("classic", 2)
    g.arrange({0: ["blue 1", "blue 2"], 1: ["yellow 1", "red 2"]}, discard=["red 3"], draw=["red 8"])
    # With nothing playable, drawing is the only option and is taken at once.
    answer(g, "keep")
    assert hand(g, 0) == ["blue 1", "blue 2", "red 8"]
    assert pending(g)[0] == 1


def test_cl_06_unplayable_drawn_card_ends_turn() -> None:
    g = game("classic", 2)
    g.arrange({0: ["blue 1", "blue 2"], 1: ["yellow 1", "red 2"]}, discard=["red 3"], draw=["green 8"])
    assert hand(g, 0) == ["blue 1", "blue 2", "green 8"]
    assert pending(g)[:2] == (1, "turn")


def test_cl_07_draw_until_playable_option() -> None:
    g = game("classic", 2, options={"draw_until_playable": True})
    g.arrange({0: ["blue 1", "blue 2"], 1: ["yellow 1", "red 2"]}, discard=["red 3"],
              draw=["green 8", "yellow 4", "red 5", "blue 9"])
    assert hand(g, 0) == ["blue 1", "blue 2", "green 8", "red 5", "yellow 4"]
    answer(g, "play red 5")
    assert g.discard_pile[-1].label == "red 5"


def test_cl_07_draw_until_playable_stops_at_ten() -> None:
    g = game("classic", 2, options={"draw_until_playable": True})
    g.arrange({0: ["blue 1"], 1: ["yellow 1", "red 2"]}, discard=["red 3"],
              draw=["green 8"] * 2 + ["yellow 4"] * 2 + ["green 9"] * 2 + ["yellow 5"] * 2
              + ["green 6"] * 2 + ["red 5"])
    assert len(g.hands[0]) == 11
    assert pending(g)[:2] == (1, "turn")


def test_cl_07_draw_until_playable_is_off_by_default() -> None:
    assert game("classic").variant.turn.draw.until_playable is False


def test_cl_08_reverse_changes_direction() -> None:
    g = game("classic", 4)
    g.arrange({0: ["red reverse", "red 1", "red 4"], 1: ["red 2", "red 3"], 2: ["blue 1", "blue 2"],
               3: ["green 1", "green 2"]}, discard=["red 9"])
    answer(g, "play red reverse")
    assert g.direction == -1
    assert pending(g)[0] == 3


def test_cl_08_reverse_with_two_players_acts_as_skip() -> None:
    g = game("classic", 2)
    g.arrange({0: ["red reverse", "red 1", "red 4"], 1: ["red 2", "red 3"]}, discard=["red 9"])
    answer(g, "play red reverse")
    assert pending(g)[:2] == (0, "turn")


def test_cl_09_skip_next_player_loses_turn() -> None:
    g = game("classic", 3)
    g.arrange({0: ["red skip", "red 1", "red 4"], 1: ["red 2", "red 3"], 2: ["blue 1", "blue 2"]},
              discard=["red 9"])
    answer(g, "play red skip")
    assert pending(g)[0] == 2
    assert events(g, "skipped") == [{"player": 1}]


def test_cl_10_draw_two_next_draws_two_and_loses_turn() -> None:
    g = game("classic", 3)
    g.arrange({0: ["red draw two", "red 1", "red 4"], 1: ["red 2", "red 3"], 2: ["blue 1", "blue 2"]},
              discard=["red 9"], draw=["green 4", "green 5"])
    answer(g, "play red draw two")
    assert hand(g, 1) == ["green 4", "green 5", "red 2", "red 3"]
    assert pending(g)[0] == 2


def test_cl_11_wild_names_the_colour() -> None:
    g = game("classic", 2)
    g.arrange({0: ["wild", "red 1", "red 2"], 1: ["blue 2", "green 3"]}, discard=["yellow 9"])
    answer(g, "play wild")
    assert pending(g)[1] == "color"
    answer(g, "green")
    assert g.current_color == "green"
    assert {str(o) for o in g.decision.options} == {"play green 3", "draw"}


def test_cl_12_wild_draw_four_refused_when_holding_current_colour() -> None:
    g = game("classic", 2)
    g.arrange({0: ["wild draw four", "yellow 1", "red 2"], 1: ["blue 2", "green 3"]}, discard=["yellow 9"])
    illegal = Play(next(c for c in g.hands[0] if c.label == "wild draw four"))
    assert illegal not in g.decision.options
    before = (list(g.hands[0]), list(g.discard_pile))
    with pytest.raises(IllegalAction, match="not a legal choice"):
        g.apply(illegal)
    assert (g.hands[0], g.discard_pile) == before


def test_cl_12_wild_draw_four_next_draws_four_and_loses_turn() -> None:
    g = game("classic", 3)
    g.arrange({0: ["wild draw four", "red 2", "red 4"], 1: ["blue 2", "green 3"], 2: ["blue 5", "blue 6"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 4", "green 5"])
    answer(g, "play wild draw four", "blue")
    assert hand(g, 1) == ["blue 2", "green 1", "green 2", "green 3", "green 4", "green 5"]
    assert g.current_color == "blue"
    assert pending(g)[0] == 2


def test_cl_12_challenge_option_guilty_player_draws_four() -> None:
    g = game("classic", 3, options={"wild_draw_four_challenge": True})
    g.arrange({0: ["wild draw four", "yellow 2", "red 4"], 1: ["blue 2", "green 3"], 2: ["blue 5", "blue 6"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 4", "green 5"])
    answer(g, "play wild draw four", "blue")
    assert pending(g) == (1, "ask", "challenge")
    answer(g, "yes")
    assert hand(g, 0) == ["green 1", "green 2", "green 4", "green 5", "red 4", "yellow 2"]
    assert pending(g)[0] == 1  # the challenger plays normally


def test_cl_12_challenge_option_innocent_challenger_draws_six() -> None:
    g = game("classic", 3, options={"wild_draw_four_challenge": True})
    g.arrange({0: ["wild draw four", "red 2", "red 4"], 1: ["blue 2", "green 3"], 2: ["blue 5", "blue 6"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 4", "green 5", "red 7", "red 8"])
    answer(g, "play wild draw four", "blue", "yes")
    assert len(g.hands[1]) == 8
    assert pending(g)[0] == 2


def test_cl_12_challenge_option_is_off_by_default() -> None:
    options = {o.name: o.enabled for o in variant("classic").options if o.type == "bool"}
    assert options == {"draw_until_playable": False, "wild_draw_four_challenge": False}


def test_cl_13_winner_scores_cards_left_in_opponents_hands() -> None:
    g = game("classic", 3)
    g.arrange({0: ["red 1"], 1: ["blue 7", "yellow skip", "wild"], 2: ["green draw two", "wild draw four"]},
              discard=["red 9"])
    answer(g, "play red 1")
    assert events(g, "round_end")[0] == {"player": 0, "points": [7 + 20 + 50 + 20 + 50, 0, 0], "team": 0}
    assert g.scores == [147, 0, 0]


def test_cl_14_first_to_500_wins() -> None:
    g = game("classic", 2)
    g.scores[:] = [480, 100]
    g.arrange({0: ["red 1"], 1: ["blue reverse"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert g.over and g.winner == 0
    assert events(g, "game_end") == [{"player": 0, "winners": [0], "scores": [500, 100], "team": 0}]
    assert g.decision is None


def test_cl_14_agreed_target_ends_the_game_when_reached() -> None:
    g = game("classic", 2, options={"target": 50})
    g.arrange({0: ["red 1"], 1: ["blue 7", "wild"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert g.over and g.winner == 0
    assert events(g, "game_end") == [{"player": 0, "winners": [0], "scores": [57, 0], "team": 0}]


def test_cl_14_agreed_target_not_reached_plays_another_round() -> None:
    g = game("classic", 2, options={"target": 60})
    g.arrange({0: ["red 1"], 1: ["blue 7", "wild"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert not g.over and g.scores == [57, 0]
    assert events(g, "game_end") == [] and [e["round"] for e in events(g, "round_start")] == [2]


def test_cl_14_agreed_target_whole_game_with_bots() -> None:
    v = variant("classic", target=50)
    assert v.scoring.target == 50 and variant("classic").scoring.target == 500
    g = Game(v, 3, 5)
    play_game(g, make_agents(["greedy", "random"], 3))
    assert g.over and g.winner is not None
    assert g.scores[g.winner] >= 50 and sorted(g.scores)[-2] < 50


def test_com_01_empty_draw_pile_reshuffles_discard_keeping_top() -> None:
    g = game("classic", 2)
    g.arrange({0: ["blue 1", "blue 3"], 1: ["yellow 1", "red 2"]}, discard=["red 3"])
    # Move every card of the draw pile under the discard pile: the pile is empty.
    g.discard_pile[:0] = g.draw_pile
    g.draw_pile.clear()
    g.refill()  # what a draw from an empty pile does first
    assert [c.label for c in g.discard_pile] == ["red 3"]
    assert len(g.draw_pile) == 108 - 4 - 1
    assert len(events(g, "reshuffled")) == 1


def test_com_01_draw_from_empty_pile_refills_it() -> None:
    g = game("classic", 2)
    g.arrange({0: ["blue 1", "blue 2", "yellow 3"], 1: ["yellow 1", "red 2"]}, discard=["red 3"])
    g.discard_pile[:0] = g.draw_pile
    g.draw_pile.clear()
    answer(g, "draw")
    assert len(g.hands[0]) == 4
    assert len(events(g, "reshuffled")) == 1
    assert len(g.draw_pile) + len(g.discard_pile) + 4 + 2 == 108


def test_com_01_shortfall_is_recorded_never_invented() -> None:
    g = game("classic", 2)
    everything_else = [c.label for c in g.cards]
    for label in ("blue 1", "red 3"):
        everything_else.remove(label)
    g.arrange({0: ["blue 1"], 1: everything_else}, discard=["red 3"])
    assert events(g, "draw_short") == [{"player": 0, "missing": 1}]
    assert len(g.hands[0]) == 1


def test_com_02_missed_uno_caught_draws_two() -> None:
    g = game("classic", 3)
    g.arrange({0: ["red 1", "red 2"], 1: ["blue 2", "red 5"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"], draw=["yellow 1", "yellow 2"])
    answer(g, "play red 1")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no")
    assert pending(g) == (1, "ask", "catch_uno")
    answer(g, "yes")
    assert hand(g, 0) == ["red 2", "yellow 1", "yellow 2"]
    assert pending(g)[:2] == (1, "turn")


def test_com_02_called_uno_is_safe() -> None:
    g = game("classic", 3)
    g.arrange({0: ["red 1", "red 2"], 1: ["blue 2", "red 5"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"])
    answer(g, "play red 1", "yes")
    assert pending(g)[:2] == (1, "turn")
    assert hand(g, 0) == ["red 2"]


def test_com_02_uno_is_called_before_a_wild_names_its_colour() -> None:
    # The play queues the UNO rule, which runs before the wild's effect: the colour is
    # asked once the rule's question is answered.
    g = game("classic", 3)
    g.arrange({0: ["wild", "red 2"], 1: ["blue 2", "red 5"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"])
    answer(g, "play wild")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "yes")
    assert pending(g)[:2] == (0, "color")
    answer(g, "green")
    assert g.current_color == "green"
    assert pending(g)[0] == 1
    assert hand(g, 0) == ["red 2"]
    assert g.flags[0] == set()


def test_com_02_uncaught_player_is_safe_once_next_turn_starts() -> None:
    g = game("classic", 3)
    g.arrange({0: ["red 1", "red 2"], 1: ["blue 2", "red 5"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"])
    answer(g, "play red 1", "no", "no", "no")
    assert pending(g)[:2] == (1, "turn")
    assert g.flags[0] == set()
    assert hand(g, 0) == ["red 2"]


def test_com_03_cards_are_conserved_in_a_whole_game() -> None:
    g = played_out("classic", 5, 11, ["greedy", "random"])
    assert g.over


def test_com_04_illegal_choice_is_refused_and_changes_nothing() -> None:
    g = game("classic", 2)
    g.arrange({0: ["blue 1", "red 2"], 1: ["yellow 1", "red 2"]}, discard=["red 3"])
    snapshot = ([list(h) for h in g.hands], list(g.draw_pile), list(g.discard_pile), g.current)
    for bad in (Play(g.hands[0][0]), "red", 7, None, Play(g.hands[1][0])):
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert ([list(h) for h in g.hands], list(g.draw_pile), list(g.discard_pile), g.current) == snapshot
    assert DRAW in g.decision.options
