"""Scenario tests for UNO All Wild: one or more per rule ID (AW-*), plus COM-2/COM-3 here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from tests.helpers import answer, deal_order, events, game, hand, pending, played_out, variant
from unodsl import DRAW, Decision, IllegalAction, make_agents, play_game
from unodsl.engine.game import Game

ACTIONS = ("wild reverse", "wild skip", "wild draw two", "wild draw four",
           "wild targeted draw two", "wild double skip", "wild forced swap")


def decision(g: Game) -> Decision:
    assert g.decision is not None
    return g.decision


def options(g: Game) -> set[str]:
    return {str(o) for o in decision(g).options}


def first_round(g: Game, name: str) -> list[dict[str, Any]]:
    """The `name` events of the first round played (up to its round_end)."""
    assert g.events is not None
    out = []
    for ev, data in g.events:
        if ev == name:
            out.append(data)
        if ev == "round_end":
            break
    return out


def first_card(card: str, hands: list[list[str]], then: Sequence[str] = ()) -> Game:
    """A game whose first round deals `hands` (seat 0 deals), turns up `card`,
    and has `then` as the next cards of the draw pile."""
    return game("all_wild", len(hands), stacked=[*deal_order(hands, dealer=0), card, *then])


# -- AW-1 ------------------------------------------------------------------------
def test_aw_01_deck_is_112_colourless_wild_cards_for_2_to_10_players() -> None:
    v = variant("all_wild")
    assert (v.min_players, v.max_players) == (2, 10)
    assert v.sides[0].colors == ()
    faces = v.sides[0].faces
    assert len(faces) == 112
    assert all(f.wild and f.color is None and f.rank is None for f in faces)
    # Decision: 56 plain Wilds and 8 of each of the seven Wild action cards.
    assert Counter(f.label for f in faces) == {"wild": 56, **{a: 8 for a in ACTIONS}}


def test_aw_01_no_colour_is_ever_named_in_a_whole_game() -> None:
    g = game("all_wild", 3, seed=4)
    play_game(g, make_agents(["random", "greedy"], 3, 4))
    assert g.over
    assert events(g, "color_named") == []
    assert all(d["kind"] != "color" for d in events(g, "choice"))


# -- AW-2 ------------------------------------------------------------------------
def test_aw_02_deal_seven_each_and_turn_the_top_card() -> None:
    g = first_card("wild", [["wild"] * 7, ["wild skip"] * 7, ["wild reverse"] * 7])
    assert [len(h) for h in g.hands] == [7, 7, 7]
    assert hand(g, 1) == ["wild skip"] * 7  # dealt one at a time from the dealer's left
    assert [c.label for c in g.discard_pile] == ["wild"]
    assert len(g.draw_pile) == 112 - 21 - 1
    assert g.dealer == 0
    assert pending(g)[:2] == (1, "turn")  # a plain Wild first does nothing


@pytest.mark.parametrize("seed", range(10))
def test_aw_02_seeded_deal_conserves_the_deck(seed: int) -> None:
    g = game("all_wild", 4, seed=seed)
    assert len(g.discard_pile) == 1
    assert sum(len(h) for h in g.hands) + len(g.draw_pile) + len(g.discard_pile) == 112
    assert all(len(h) >= 7 for h in g.hands)


def test_aw_02_first_card_skip_skips_the_first_player() -> None:
    g = first_card("wild skip", [["wild"] * 7] * 3)
    assert pending(g)[:2] == (2, "turn")
    assert events(g, "skipped") == [{"player": 1}]


def test_aw_02_first_card_double_skip_skips_the_first_two_players() -> None:
    g = first_card("wild double skip", [["wild"] * 7] * 4)
    assert pending(g)[:2] == (3, "turn")
    assert events(g, "skipped") == [{"player": 1}, {"player": 2}]


def test_aw_02_first_card_draw_two_first_player_draws_and_is_skipped() -> None:
    g = first_card("wild draw two", [["wild"] * 7] * 3, then=["wild skip", "wild reverse"])
    assert hand(g, 1) == ["wild"] * 7 + ["wild reverse", "wild skip"]
    assert pending(g)[:2] == (2, "turn")


def test_aw_02_first_card_draw_four_first_player_draws_and_is_skipped() -> None:
    g = first_card("wild draw four", [["wild"] * 7] * 3,
                   then=["wild skip", "wild skip", "wild reverse", "wild reverse"])
    assert hand(g, 1) == ["wild"] * 7 + ["wild reverse"] * 2 + ["wild skip"] * 2
    assert hand(g, 2) == ["wild"] * 7
    assert pending(g)[:2] == (2, "turn")


def test_aw_02_first_card_targeted_draw_two_dealer_picks_and_target_keeps_turn() -> None:
    g = first_card("wild targeted draw two", [["wild"] * 7] * 3, then=["wild skip", "wild reverse"])
    # Decision: the dealer (seat 0) makes the choice; any opponent may be picked.
    assert pending(g) == (0, "player", "pick a player")
    assert set(decision(g).options) == {1, 2}
    answer(g, 1)
    assert hand(g, 1) == ["wild"] * 7 + ["wild reverse", "wild skip"]
    assert pending(g)[:2] == (1, "turn")  # the first player keeps their turn
    assert events(g, "skipped") == []


def test_aw_02_first_card_targeted_draw_two_on_a_later_player() -> None:
    g = first_card("wild targeted draw two", [["wild"] * 7] * 3, then=["wild skip", "wild reverse"])
    answer(g, 2)
    assert hand(g, 2) == ["wild"] * 7 + ["wild reverse", "wild skip"]
    assert [len(h) for h in g.hands] == [7, 7, 9]
    assert pending(g)[:2] == (1, "turn")


def test_aw_02_first_card_forced_swap_dealer_swaps_with_a_player_of_their_choice() -> None:
    g = first_card("wild forced swap", [["wild draw two"] * 7, ["wild"] * 7, ["wild skip"] * 7])
    assert pending(g) == (0, "player", "pick a player")
    answer(g, 2)
    assert hand(g, 0) == ["wild skip"] * 7
    assert hand(g, 2) == ["wild draw two"] * 7
    assert hand(g, 1) == ["wild"] * 7
    assert pending(g)[:2] == (1, "turn")


def test_aw_02_first_card_reverse_dealer_plays_first_to_the_right() -> None:
    g = first_card("wild reverse", [["wild"] * 7] * 4)
    assert g.direction == -1
    assert pending(g)[:2] == (0, "turn")
    answer(g, "play wild")
    assert pending(g)[:2] == (3, "turn")


def test_aw_02_first_card_reverse_with_two_players_dealer_plays_first() -> None:
    g = first_card("wild reverse", [["wild"] * 7] * 2)
    assert pending(g)[:2] == (0, "turn")


# -- AW-3 ------------------------------------------------------------------------
def test_aw_03_play_starts_left_of_the_dealer() -> None:
    g = first_card("wild", [["wild"] * 7] * 5)
    assert pending(g)[:2] == (1, "turn")


def test_aw_03_any_card_may_always_be_played_and_there_is_no_draw() -> None:
    g = game("all_wild", 2)
    g.arrange({0: ["wild", *ACTIONS], 1: ["wild"] * 3}, discard=["wild draw four"])
    assert options(g) == {"play wild", *(f"play {a}" for a in ACTIONS)}


def test_aw_03_a_plain_wild_does_nothing() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild", "wild skip", "wild reverse"], 1: ["wild draw two"] * 3, 2: ["wild"] * 3},
              discard=["wild skip"])
    draw_before = list(g.draw_pile)
    answer(g, "play wild")
    assert [c.label for c in g.discard_pile] == ["wild skip", "wild"]
    assert hand(g, 0) == ["wild reverse", "wild skip"]
    assert hand(g, 1) == ["wild draw two"] * 3 and hand(g, 2) == ["wild"] * 3
    assert g.draw_pile == draw_before and g.direction == 1
    assert pending(g)[:2] == (1, "turn")


# -- AW-4 ------------------------------------------------------------------------
def test_aw_04_reverse_changes_direction() -> None:
    g = game("all_wild", 4)
    g.arrange({0: ["wild reverse", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3, 3: ["wild"] * 3},
              discard=["wild"])
    answer(g, "play wild reverse")
    assert g.direction == -1
    assert pending(g)[:2] == (3, "turn")
    answer(g, "play wild")
    assert pending(g)[:2] == (2, "turn")


def test_aw_04_reverse_with_two_players_acts_as_skip() -> None:
    g = game("all_wild", 2)
    g.arrange({0: ["wild reverse", "wild", "wild"], 1: ["wild"] * 3}, discard=["wild"])
    answer(g, "play wild reverse")
    assert pending(g)[:2] == (0, "turn")
    assert events(g, "skipped") == [{"player": 1}]


# -- AW-5 ------------------------------------------------------------------------
def test_aw_05_skip_next_player_loses_the_turn() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild skip", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3}, discard=["wild"])
    answer(g, "play wild skip")
    assert pending(g)[:2] == (2, "turn")
    assert events(g, "skipped") == [{"player": 1}]


def test_aw_05_double_skip_next_two_turns_are_skipped() -> None:
    g = game("all_wild", 4)
    g.arrange({0: ["wild double skip", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3,
               3: ["wild"] * 3}, discard=["wild"])
    answer(g, "play wild double skip")
    assert pending(g)[:2] == (3, "turn")
    assert events(g, "skipped") == [{"player": 1}, {"player": 2}]


def test_aw_05_double_skip_with_three_players_plays_again() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild double skip", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3},
              discard=["wild"])
    answer(g, "play wild double skip")
    assert pending(g)[:2] == (0, "turn")


def test_aw_05_double_skip_follows_the_direction() -> None:
    g = game("all_wild", 5)
    g.arrange({p: ["wild double skip", "wild", "wild"] for p in range(5)}, discard=["wild"],
              current=2, direction=-1)
    answer(g, "play wild double skip")
    assert events(g, "skipped") == [{"player": 1}, {"player": 0}]
    assert pending(g)[:2] == (4, "turn")


def test_aw_05_double_skip_with_two_players_skips_both_turns() -> None:
    # Interpretation: "the next two turns" are the opponent's and then the player's
    # own, so with 2 players the opponent plays next.
    g = game("all_wild", 2)
    g.arrange({0: ["wild double skip", "wild", "wild"], 1: ["wild"] * 3}, discard=["wild"])
    answer(g, "play wild double skip")
    assert events(g, "skipped") == [{"player": 1}, {"player": 0}]
    assert pending(g)[:2] == (1, "turn")


# -- AW-6 ------------------------------------------------------------------------
def test_aw_06_draw_two_next_draws_two_and_loses_the_turn() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild draw two", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3},
              discard=["wild"], draw=["wild skip", "wild reverse", "wild double skip"])
    answer(g, "play wild draw two")
    assert hand(g, 1) == ["wild"] * 3 + ["wild reverse", "wild skip"]
    assert hand(g, 2) == ["wild"] * 3
    assert [c.label for c in g.draw_pile[-1:]] == ["wild double skip"]
    assert pending(g)[:2] == (2, "turn")


def test_aw_06_draw_four_next_draws_four_and_loses_the_turn() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild draw four", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3},
              discard=["wild"], draw=["wild skip", "wild reverse", "wild double skip", "wild forced swap"])
    answer(g, "play wild draw four")
    assert hand(g, 1) == ["wild"] * 3 + ["wild double skip", "wild forced swap", "wild reverse", "wild skip"]
    assert pending(g)[:2] == (2, "turn")


def test_aw_06_draw_two_hits_the_next_player_in_the_current_direction() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild draw two", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3},
              discard=["wild"], draw=["wild skip", "wild reverse"], direction=-1)
    answer(g, "play wild draw two")
    assert hand(g, 2) == ["wild"] * 3 + ["wild reverse", "wild skip"]
    assert pending(g)[:2] == (1, "turn")


# -- AW-7 ------------------------------------------------------------------------
def test_aw_07_targeted_draw_two_player_picks_any_opponent() -> None:
    g = game("all_wild", 4)
    g.arrange({0: ["wild targeted draw two", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3,
               3: ["wild"] * 3}, discard=["wild"], draw=["wild skip", "wild reverse"])
    answer(g, "play wild targeted draw two")
    assert pending(g) == (0, "player", "pick a player")
    assert set(decision(g).options) == {1, 2, 3}
    answer(g, 2)
    assert hand(g, 2) == ["wild"] * 3 + ["wild reverse", "wild skip"]
    assert hand(g, 1) == ["wild"] * 3 and hand(g, 3) == ["wild"] * 3
    assert pending(g)[:2] == (1, "turn")
    assert events(g, "skipped") == []


def test_aw_07_targeted_next_player_does_not_lose_the_turn() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild targeted draw two", "wild", "wild"], 1: ["wild"] * 3, 2: ["wild"] * 3},
              discard=["wild"], draw=["wild skip", "wild reverse"])
    answer(g, "play wild targeted draw two", 1)
    assert hand(g, 1) == ["wild"] * 3 + ["wild reverse", "wild skip"]
    assert pending(g)[:2] == (1, "turn")


# -- AW-8 ------------------------------------------------------------------------
def test_aw_08_forced_swap_player_picks_an_opponent_and_they_swap_hands() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild forced swap", "wild", "wild skip"], 1: ["wild draw two"] * 3,
               2: ["wild"] * 4}, discard=["wild"])
    answer(g, "play wild forced swap")
    assert pending(g) == (0, "player", "pick a player")
    assert set(decision(g).options) == {1, 2}
    answer(g, 2)
    assert hand(g, 0) == ["wild"] * 4
    assert hand(g, 2) == ["wild", "wild skip"]
    assert hand(g, 1) == ["wild draw two"] * 3
    assert events(g, "hands_swapped") == [{"player": 0, "other": 2}]
    assert pending(g)[:2] == (1, "turn")


def test_aw_08_player_left_with_one_card_by_the_swap_must_call_uno() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild forced swap", "wild", "wild"], 1: ["wild draw four"], 2: ["wild"] * 3},
              discard=["wild"], draw=["wild skip", "wild reverse"])
    answer(g, "play wild forced swap", 1)
    assert hand(g, 0) == ["wild draw four"]
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no")
    assert pending(g) == (1, "ask", "catch_uno")
    answer(g, "yes")
    assert hand(g, 0) == ["wild draw four", "wild reverse", "wild skip"]
    assert hand(g, 1) == ["wild", "wild"]
    assert pending(g)[:2] == (1, "turn")


def test_aw_08_opponent_left_with_one_card_by_the_swap_must_call_uno() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild forced swap", "wild skip"], 1: ["wild"] * 3, 2: ["wild"] * 3},
              discard=["wild"], draw=["wild draw two", "wild reverse"])
    answer(g, "play wild forced swap")
    assert pending(g) == (0, "ask", "call_uno")  # second-to-last card played (COM-2)
    answer(g, "yes", 1)
    assert hand(g, 0) == ["wild"] * 3
    assert hand(g, 1) == ["wild skip"]
    assert pending(g) == (1, "ask", "call_uno")
    answer(g, "no")
    assert pending(g) == (2, "ask", "catch_uno")
    answer(g, "no")
    assert pending(g) == (0, "ask", "catch_uno")
    answer(g, "yes")
    assert hand(g, 1) == ["wild draw two", "wild reverse", "wild skip"]
    assert pending(g)[:2] == (1, "turn")


def test_aw_08_missed_uno_swapped_away_cannot_be_caught() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild forced swap", "wild skip"], 1: ["wild"] * 3, 2: ["wild draw two"] * 3},
              discard=["wild"])
    answer(g, "play wild forced swap", "no")  # player 0 holds one card and does not call
    answer(g, 2)                               # … then swaps it away
    assert hand(g, 0) == ["wild draw two"] * 3
    assert pending(g) == (2, "ask", "call_uno")
    answer(g, "yes")
    assert pending(g)[:2] == (1, "turn")  # nobody is asked to catch player 0
    assert g.flags[0] == set() and g.flags[2] == set()
    assert hand(g, 0) == ["wild draw two"] * 3
    assert hand(g, 2) == ["wild skip"]


def test_aw_08_forced_swap_as_last_card_wins_without_a_swap() -> None:
    # Decision: the player went out; there is no hand to swap.
    g = game("all_wild", 3)
    g.arrange({0: ["wild forced swap"], 1: ["wild"] * 3, 2: ["wild", "wild", "wild skip"]},
              discard=["wild"])
    # A single legal option is taken at once: player 0 plays their last card.
    played = [(d["player"], d["card"].label) for d in first_round(g, "card_played")]
    assert played == [(0, "wild forced swap")]
    assert first_round(g, "hands_swapped") == []
    assert [d["kind"] for d in first_round(g, "choice")] == ["turn"]
    assert events(g, "round_end")[0] == {"player": 0, "points": [3 * 20 + 2 * 20 + 50, 0, 0], "team": 0}
    assert g.round == 2


# -- AW-9 ------------------------------------------------------------------------
def test_aw_09_no_voluntary_drawing() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild"] * 3, 1: ["wild"] * 2, 2: ["wild"] * 3}, discard=["wild"])
    assert options(g) == {"play wild"}
    assert DRAW not in decision(g).options
    before = ([list(h) for h in g.hands], list(g.draw_pile))
    with pytest.raises(IllegalAction):
        g.apply(DRAW)
    assert ([list(h) for h in g.hands], list(g.draw_pile)) == before


def test_aw_09_may_draw_when_holding_no_action_and_next_has_one_card() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild"] * 3, 1: ["wild double skip"], 2: ["wild"] * 3}, discard=["wild"],
              draw=["wild skip"])
    assert options(g) == {"play wild", "draw"}
    answer(g, "draw")
    # The drawn card is played at once (no choice to keep it) and its action applies.
    assert [c.label for c in g.discard_pile] == ["wild", "wild skip"]
    assert hand(g, 0) == ["wild"] * 3
    assert events(g, "skipped") == [{"player": 1}]
    assert pending(g)[:2] == (2, "turn")


def test_aw_09_a_drawn_plain_wild_is_played_and_next_may_go_out() -> None:
    g = game("all_wild", 2)
    g.arrange({0: ["wild"] * 3, 1: ["wild draw two"]}, discard=["wild"],
              draw=["wild", "wild skip", "wild skip"])
    answer(g, "draw")
    # "Tough luck": the drawn plain Wild is played, and player 1 plays their last
    # card (their only option) and wins; its Draw Two still hits player 0.
    played = [(d["player"], d["card"].label) for d in first_round(g, "card_played")]
    assert played == [(0, "wild"), (1, "wild draw two")]
    assert events(g, "round_end")[0] == {"player": 1, "points": [0, 3 * 20 + 2 * 50], "team": 1}


def test_aw_09_no_draw_while_holding_an_action_card() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild", "wild skip", "wild"], 1: ["wild"], 2: ["wild"] * 3}, discard=["wild"])
    assert options(g) == {"play wild", "play wild skip"}


def test_aw_09_only_the_following_player_counts() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild"] * 3, 1: ["wild"] * 2, 2: ["wild"]}, discard=["wild"])
    assert "draw" not in options(g)
    # After a reverse the following player is seat 2.
    g.arrange({0: ["wild"] * 3, 1: ["wild"] * 2, 2: ["wild"]}, discard=["wild"], direction=-1)
    assert options(g) == {"play wild", "draw"}


# -- AW-10 -----------------------------------------------------------------------
def test_aw_10_card_points_wild_20_every_action_50() -> None:
    v = variant("all_wild")
    points = {f.label: f.points for f in v.sides[0].faces}
    assert points == {"wild": 20, **{a: 50 for a in ACTIONS}}
    assert (v.scoring.round, v.scoring.target, v.scoring.winner) == ("winner_scores_others", 500, "highest")


def test_aw_10_winner_scores_the_other_hands() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild"], 1: ["wild", "wild skip", "wild forced swap"],
               2: ["wild", "wild", "wild double skip", "wild targeted draw two"]}, discard=["wild"])
    # Player 0's only option, playing the last card, is taken at once.
    assert events(g, "round_end")[0] == {"player": 0, "points": [20 + 50 + 50 + 20 + 20 + 50 + 50, 0, 0], "team": 0}
    assert g.scores == [260, 0, 0]


def test_aw_10_a_final_draw_card_still_makes_the_next_player_draw() -> None:
    # The action of the last card applies (AW-6), so the drawn cards are scored.
    g = game("all_wild", 2)
    g.arrange({0: ["wild draw two"], 1: ["wild"] * 3}, discard=["wild"], draw=["wild skip", "wild reverse"])
    assert g.scores == [3 * 20 + 2 * 50, 0]


def test_aw_10_first_to_500_wins() -> None:
    g = game("all_wild", 2)
    g.scores[:] = [480, 450]
    g.arrange({0: ["wild"], 1: ["wild"]}, discard=["wild"])
    assert options(g) == {"play wild", "draw"}  # AW-9 would let player 0 draw instead
    answer(g, "play wild")
    assert g.over and g.winner == 0
    assert events(g, "game_end") == [{"player": 0, "winners": [0], "scores": [500, 450], "team": 0}]
    assert g.decision is None


def test_aw_10_the_deal_passes_left() -> None:
    g = game("all_wild", 3)
    g.arrange({0: ["wild"], 1: ["wild"] * 3, 2: ["wild"] * 3}, discard=["wild"], dealer=2)
    assert g.round == 2 and g.dealer == 0
    assert events(g, "round_start")[-1] == {"player": 0, "round": 2}
    assert [len(h) >= 7 for h in g.hands] == [True] * 3


# -- COM-2 / COM-3 in All Wild ---------------------------------------------------
def test_com_02_uno_call_after_playing_the_second_to_last_card() -> None:
    g = game("all_wild", 2)
    g.arrange({0: ["wild", "wild skip"], 1: ["wild"] * 3}, discard=["wild"], draw=["wild", "wild"])
    answer(g, "play wild")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no", "yes")
    assert hand(g, 0) == ["wild", "wild", "wild skip"]
    assert pending(g)[:2] == (1, "turn")


@pytest.mark.parametrize("seed", range(20))
def test_com_03_cards_are_conserved_in_whole_games(seed: int) -> None:
    players = 2 + seed % 5
    g = played_out("all_wild", players, seed, ["random", "greedy"])
    assert g.over
    assert max(g.scores) >= 500 and g.winner == g.scores.index(max(g.scores))
