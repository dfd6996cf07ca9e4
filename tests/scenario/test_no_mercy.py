"""Scenario tests for UNO Show 'Em No Mercy: one or more per rule (NM-1 … NM-31,
listed with their Decisions at the top of variants/no_mercy.yaml)."""

from __future__ import annotations

from collections import Counter

from tests.helpers import VARIANTS, answer, assert_conserved, deal_order, events, game, hand, pending, variant
from unodsl import Game, load_variant
from unodsl.engine.actions import DRAW, Play

COLORS = ("red", "yellow", "green", "blue")
# 24 cards no one can play on a red top numbered 1, 4, 5 or 6 (yellow and green numbers, no action
# cards or wilds), and cards for the draw pile that the tests' hands do not use.
FULL = [f"{c} {r}" for c in ("yellow", "green") for r in (0, 2, 3, 7, 8, 9) for _ in range(2)]
MORE = [f"{c} {r}" for r in (4, 6) for c in ("yellow", "green") for _ in range(2)] + ["blue 7", "blue 8"] * 2
# A hand that always has a choice to make (two wild cards): a player with a single legal move makes it
# at once, so a test that wants to see whose turn comes next seats them there.
WILDS = ["wild color roulette", "wild color roulette"]


def nm(players: int = 3, **options: bool | int) -> Game:
    return game("no_mercy", players, options=dict(options) or None)


def plays(g: Game) -> set[str]:
    d = g.decision
    assert d is not None and d.kind == "turn", d
    return {o.card.label for o in d.options if isinstance(o, Play)}


def can_draw(g: Game) -> bool:
    d = g.decision
    assert d is not None and d.kind == "turn", d
    return DRAW in d.options


def thin_draw_pile(g: Game, keep: int) -> None:
    """Leave only the top `keep` cards in the draw pile (arrange puts every other card under it): the rest
    are put aside, out of this test's way, so that the pile runs out."""
    g.aside.extend(g.draw_pile[:-keep])
    del g.draw_pile[:-keep]


def taken(g: Game) -> list[tuple[int, int]]:
    return [(d["player"], d["count"]) for d in events(g, "penalty_taken")]


# -- NM-1 ----------------------------------------------------------------------------
def test_nm_01_deck_is_168_cards_in_four_colours_for_2_to_6_players() -> None:
    v = variant("no_mercy")
    assert (v.min_players, v.max_players) == (2, 6)
    per = Counter(f.label for f in v.sides[0].faces)
    assert sum(per.values()) == 168
    for c in COLORS:
        assert [per[f"{c} {r}"] for r in range(10)] == [2] * 10
        assert [per[f"{c} {k}"] for k in ("draw two", "skip", "reverse", "discard all")] == [3, 3, 3, 3]
        assert [per[f"{c} {k}"] for k in ("draw four", "skip everyone")] == [2, 2]
    assert [per[k] for k in ("wild reverse draw four", "wild color roulette", "wild draw six", "wild draw ten")] \
        == [8, 8, 4, 4]
    assert "wild" not in per and "wild draw four" not in per  # no plain Wild, no colourless Draw 4
    points = {f.label: f.points for f in v.sides[0].faces}
    assert (points["red 7"], points["blue 0"], points["green skip everyone"], points["yellow draw four"]) \
        == (7, 0, 20, 20)
    assert {points[k] for k in ("wild reverse draw four", "wild color roulette", "wild draw six",
                                "wild draw ten")} == {50}


# -- NM-2 ----------------------------------------------------------------------------
def test_nm_02_first_dealer_is_drawn_at_random_and_deals_seven_each() -> None:
    dealers = Counter(game("no_mercy", 4, seed=s).dealer for s in range(60))
    assert set(dealers) == {0, 1, 2, 3}
    g = game("no_mercy", 4, seed=9)
    assert g.dealer == game("no_mercy", 4, seed=9).dealer
    assert [d["count"] for d in events(g, "dealt")] == [7, 7, 7, 7]


def test_nm_02_later_hands_pass_the_deal_left() -> None:
    g = nm(3, scoring=True)
    # Player 0's only move is to play their last card: the engine plays it, and the hand is over.
    g.arrange({0: ["red 1"], 1: ["green 1", "green 5"], 2: ["blue 3", "blue 4"]}, discard=["red 3"], dealer=1)
    assert g.round == 2 and g.dealer == 2


# -- NM-3 ----------------------------------------------------------------------------
def test_nm_03_first_cards_are_covered_without_effect_until_a_number_shows() -> None:
    dealer = game("no_mercy", 3, seed=0).dealer  # the stacked game draws the same dealer
    hands = [[f"red {a}", f"red {a + 1}", *(f"{c} {r}" for r in range(5))]
             for a, c in ((1, "blue"), (3, "yellow"), (5, "green"))]
    first = ["wild draw ten", "red skip", "wild color roulette", "red reverse", "red draw two", "red 7"]
    g = game("no_mercy", 3, seed=0, stacked=[*deal_order(hands, dealer), *first])
    assert [c.label for c in g.discard_pile] == first  # each covered in turn, none taken away
    assert events(g, "skipped") == [] and g.penalty == 0 and events(g, "color_named") == []
    assert events(g, "hands_swapped") == [] and g.direction == 1 and g.current_color == "red"
    assert pending(g)[:2] == ((dealer + 1) % 3, "turn")  # the player left of the dealer starts
    assert [len(h) for h in g.hands] == [7, 7, 7]


# -- NM-4 ----------------------------------------------------------------------------
def test_nm_04_a_card_matches_colour_number_or_symbol_and_wilds_go_on_anything() -> None:
    g = nm(2)
    g.arrange({0: ["red 1", "blue 5", "blue skip", "green 1", "wild draw six", "yellow draw two"],
               1: ["green 1"]}, discard=["red 5"])
    assert plays(g) == {"red 1", "blue 5", "wild draw six"}
    g.arrange({0: ["blue skip", "green 1", "red discard all", "yellow draw two"], 1: ["green 1"]},
              discard=["red skip"])
    assert plays(g) == {"blue skip", "red discard all"}


# -- NM-5 ----------------------------------------------------------------------------
def test_nm_05_a_player_who_can_play_must_play() -> None:
    g = nm(2)
    g.arrange({0: ["red 1", "red 2", "blue 2"], 1: ["green 1"]}, discard=["red 5"])
    assert plays(g) == {"red 1", "red 2"} and not can_draw(g)


def test_nm_05_option_voluntary_draw_lets_a_player_draw_anyway() -> None:
    g = nm(2, voluntary_draw=True)
    g.arrange({0: ["red 1", "blue 2"], 1: WILDS}, discard=["red 5"], draw=["blue 3", "red 9"])
    assert plays(g) == {"red 1"} and can_draw(g)
    answer(g, "draw")  # draws until playable (blue 3, then red 9), which must be played at once
    assert hand(g, 0) == ["blue 2", "blue 3", "red 1"] and g.discard_pile[-1].label == "red 9"
    assert pending(g)[:2] == (1, "turn")


# -- NM-6 ----------------------------------------------------------------------------
def test_nm_06_without_a_playable_card_draw_until_one_comes_and_play_it() -> None:
    g = nm(3)
    # Player 0 cannot play on red 5: drawing is all they can do, and it is done at once.
    g.arrange({0: ["blue 1", "green 1"], 1: WILDS, 2: WILDS},
              discard=["red 5"], draw=["yellow 1", "blue 2", "blue 4", "yellow 5", "red 2"])
    assert hand(g, 0) == ["blue 1", "blue 2", "blue 4", "green 1", "yellow 1"]
    assert g.discard_pile[-1].label == "yellow 5" and g.current_color == "yellow"  # drawn, and played at once
    assert g.draw_pile[-1].label == "red 2"
    assert pending(g)[:2] == (1, "turn")


# -- NM-7 ----------------------------------------------------------------------------
def test_nm_07_draw_cards_put_their_value_on_the_next_player_who_draws_and_loses_the_turn() -> None:
    for card, value in (("red draw two", 2), ("red draw four", 4), ("wild draw six", 6), ("wild draw ten", 10)):
        g = nm(3)
        g.arrange({0: [card, "red 1", "blue 9"], 1: ["blue 1", "blue 3"], 2: WILDS}, discard=["red 5"])
        answer(g, f"play {card}")
        if "wild" in card:
            answer(g, "green")
        # Player 1 holds no Draw Card: taking the penalty is all they can do.
        assert taken(g) == [(1, value)] and len(g.hands[1]) == 2 + value, card
        assert pending(g)[:2] == (2, "turn") and g.penalty == 0, card


# -- NM-8 ----------------------------------------------------------------------------
def test_nm_08_stack_equal_or_higher_draw_card() -> None:
    g = nm(3)
    g.arrange({0: ["red draw four", *WILDS],
               1: ["blue draw two", "green draw four", "wild reverse draw four", "wild draw six", "wild draw ten",
                   "red 7"],
               2: ["blue 1", "blue 3"]}, discard=["red 5"])
    answer(g, "play red draw four")
    # Any colour, value 4 or more: never the Draw 2, nor a red card that only matches.
    assert plays(g) == {"green draw four", "wild reverse draw four", "wild draw six", "wild draw ten"}
    assert can_draw(g)
    answer(g, "play wild draw six", "yellow")
    # The +4, then the +6: player 2, who cannot answer, draws 10 and loses the turn.
    assert taken(g) == [(2, 10)] and len(g.hands[2]) == 12 and pending(g)[:2] == (0, "turn")


def test_nm_08_the_threshold_is_the_last_card_played_not_the_total() -> None:
    g = nm(3)
    g.arrange({0: ["red draw two", *WILDS], 1: ["blue draw two", "blue 3", "blue 4"],
               2: ["yellow draw two", "wild draw six", "blue 1"]}, discard=["red 5"])
    answer(g, "play red draw two", "play blue draw two")
    assert g.penalty == 4  # 4 in all, but the last card is a +2
    assert plays(g) == {"yellow draw two", "wild draw six"}
    answer(g, "play yellow draw two")
    assert taken(g) == [(0, 6)]


def test_nm_08_colour_and_symbol_do_not_matter_in_a_stack() -> None:
    g = nm(3)
    g.arrange({0: ["red draw two", *WILDS], 1: ["blue draw four", "yellow draw two", "blue 5"], 2: WILDS},
              discard=["red 5"])
    answer(g, "play red draw two")
    assert plays(g) == {"blue draw four", "yellow draw two"}  # neither red, and a Draw 4 on a Draw 2
    answer(g, "play blue draw four")
    assert taken(g) == [(2, 6)] and g.current_color == "blue"


def test_nm_08_a_wild_draw_six_is_answered_by_six_or_ten_only() -> None:
    g = nm(3)
    g.arrange({0: ["wild draw six", *WILDS],
               1: ["red draw four", "wild reverse draw four", "red draw two", "wild draw six", "wild draw ten"],
               2: WILDS}, discard=["red 5"])
    answer(g, "play wild draw six", "red")
    assert plays(g) == {"wild draw six", "wild draw ten"}


def test_nm_08_a_wild_draw_ten_is_answered_only_by_a_wild_draw_ten() -> None:
    g = nm(3)
    g.arrange({0: ["wild draw ten", *WILDS], 1: ["wild draw six", "wild draw ten", "red draw four"],
               2: ["blue 1", "blue 3"]}, discard=["red 5"])
    answer(g, "play wild draw ten", "red")
    assert plays(g) == {"wild draw ten"}
    answer(g, "play wild draw ten", "blue")
    assert taken(g) == [(2, 20)]


# -- NM-9 ----------------------------------------------------------------------------
def test_nm_09_only_a_draw_card_answers_and_the_one_who_does_not_draws_it_all() -> None:
    g = nm(3)
    g.arrange({0: ["red draw two", *WILDS],
               1: ["red 7", "red skip", "red reverse", "red skip everyone", "red discard all", "wild color roulette",
                   "red 2", "red draw two"],
               2: WILDS}, discard=["red 5"])
    answer(g, "play red draw two")
    assert plays(g) == {"red draw two"} and can_draw(g)  # the only answer; stacking is not compulsory
    answer(g, "draw")
    assert taken(g) == [(1, 2)] and len(g.hands[1]) == 10 and pending(g)[:2] == (2, "turn")
    assert_conserved(g)


# -- NM-10 ---------------------------------------------------------------------------
def test_nm_10_a_wild_draw_cards_player_names_the_colour_and_the_last_card_decides_it() -> None:
    g = nm(3)
    g.arrange({0: ["red draw two", *WILDS], 1: ["wild draw six", "blue 3", "blue 4"], 2: ["blue 1", "blue 2"]},
              discard=["red 5"])
    answer(g, "play red draw two", "play wild draw six")
    assert pending(g) == (1, "color", "name a colour")  # its player names the colour as they play it
    answer(g, "green")
    assert taken(g) == [(2, 8)] and g.current_color == "green" and pending(g)[:2] == (0, "turn")
    g.arrange({0: ["blue draw four", *WILDS], 1: ["yellow draw four", "blue 3", "blue 4"], 2: ["blue 1", "red 2"]},
              discard=["blue 5"])
    answer(g, "play blue draw four", "play yellow draw four")
    assert taken(g) == [(2, 8)] and g.current_color == "yellow"  # the printed colour of the last card


# -- NM-11, NM-12, NM-13 ------------------------------------------------------------
def test_nm_11_skip_makes_the_next_player_lose_their_turn() -> None:
    g = nm(3)
    g.arrange({0: ["red skip", *WILDS], 1: ["red 3", "blue 3"], 2: WILDS}, discard=["red 5"])
    answer(g, "play red skip")
    assert events(g, "skipped") == [{"player": 1}] and pending(g)[:2] == (2, "turn")


def test_nm_12_reverse_changes_direction_and_is_a_skip_with_two_players() -> None:
    g = nm(3)
    g.arrange({0: ["red reverse", *WILDS], 1: WILDS, 2: WILDS}, discard=["red 5"])
    answer(g, "play red reverse")
    assert g.direction == -1 and pending(g)[:2] == (2, "turn")
    g = nm(2)
    g.arrange({0: ["red reverse", *WILDS], 1: WILDS}, discard=["red 5"])
    answer(g, "play red reverse")
    assert g.direction == 1 and events(g, "skipped") == [{"player": 1}] and pending(g)[:2] == (0, "turn")


def test_nm_13_skip_everyone_gives_its_player_another_turn_at_once() -> None:
    g = nm(4)
    g.arrange({0: ["red skip everyone", "red 1", "red 2"], 1: WILDS, 2: WILDS, 3: WILDS}, discard=["red 5"])
    answer(g, "play red skip everyone")
    assert pending(g)[:2] == (0, "turn") and plays(g) == {"red 1", "red 2"}
    answer(g, "play red 1", "yes")
    assert pending(g)[:2] == (1, "turn")


# -- NM-14, NM-15 --------------------------------------------------------------------
def test_nm_14_discard_all_puts_its_colour_under_it_without_effects() -> None:
    g = nm(3)
    g.arrange({0: ["red discard all", "red 7", "red draw two", "red 0", "blue 9", "green 1"], 1: WILDS, 2: WILDS},
              discard=["red 5"])
    answer(g, "play red discard all")
    assert hand(g, 0) == ["blue 9", "green 1"]
    assert g.discard_pile[-1].label == "red discard all" and g.discard_pile[-2].label == "red 5"
    assert sorted(c.label for c in g.discard_pile[:3]) == ["red 0", "red 7", "red draw two"]
    # No swap for the 7, no pass for the 0, no penalty for the Draw 2.
    assert g.penalty == 0 and events(g, "hands_swapped") == [] and events(g, "hands_passed") == []
    assert [d["size"] for d in events(g, "hand_changed") if d["player"] == 0] == [5, 2]
    assert pending(g)[:2] == (1, "turn")


def test_nm_15_discard_all_that_empties_the_hand_wins_without_an_uno_call() -> None:
    g = nm(3)
    g.arrange({0: ["red discard all", "red 7", "red 2"], 1: WILDS, 2: WILDS}, discard=["red 5"])
    answer(g, "play red discard all")
    assert not any(d["prompt"] == "call_uno" for d in events(g, "choice"))
    assert events(g, "round_end")[0]["player"] == 0 and g.over and g.winners == (0,)


def test_nm_15_discard_all_that_leaves_one_card_asks_for_the_uno_call() -> None:
    g = nm(3)
    g.arrange({0: ["red discard all", "red 7", "red 2", "blue 9"], 1: WILDS, 2: WILDS}, discard=["red 5"])
    answer(g, "play red discard all")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no", "yes")  # player 1, whose turn starts, catches it: player 0 draws 2
    assert len(g.hands[0]) == 3 and "blue 9" in hand(g, 0)


# -- NM-16, NM-17 --------------------------------------------------------------------
def test_nm_16_wild_reverse_draw_four_reverses_and_the_next_in_the_new_direction_faces_four() -> None:
    g = nm(3)
    g.arrange({0: ["wild reverse draw four", *WILDS], 1: WILDS, 2: ["blue 1", "wild draw six", "blue 3"]},
              discard=["red 5"])
    answer(g, "play wild reverse draw four", "blue")
    assert g.direction == -1 and g.penalty == 4 and g.current_color == "blue"
    assert pending(g)[:2] == (2, "turn") and plays(g) == {"wild draw six"}
    answer(g, "draw")
    assert taken(g) == [(2, 4)] and pending(g)[:2] == (1, "turn")


def test_nm_16_in_a_stack_it_turns_the_total_on_the_player_who_stacked_before() -> None:
    g = nm(3)
    g.arrange({0: ["red draw four", *WILDS], 1: ["wild reverse draw four", "blue 3", "blue 4"], 2: WILDS},
              discard=["red 5"])
    answer(g, "play red draw four", "play wild reverse draw four", "green")
    # Play now goes to the right: player 0, who cannot answer, draws the 8; then player 2 plays.
    assert g.direction == -1 and taken(g) == [(0, 8)] and len(g.hands[0]) == 10
    assert pending(g)[:2] == (2, "turn")


def test_nm_17_with_two_players_it_skips_the_opponent_and_its_own_player_faces_four() -> None:
    g = nm(2)
    g.arrange({0: ["wild reverse draw four", "wild draw six", "red 1", "blue 2"],
               1: ["blue 3", "wild draw ten", "red 3"]},
              discard=["red 5"])
    answer(g, "play wild reverse draw four", "blue")
    assert events(g, "skipped") == [{"player": 1}] and g.penalty == 4
    assert pending(g)[:2] == (0, "turn") and plays(g) == {"wild draw six"}  # may stack it back
    answer(g, "play wild draw six", "green")
    assert g.penalty == 10 and pending(g)[:2] == (1, "turn")
    answer(g, "play wild draw ten", "red")
    assert taken(g) == [(0, 20)] and len(g.hands[0]) == 2 + 20


def test_nm_17_its_own_player_may_take_the_four() -> None:
    g = nm(2)
    g.arrange({0: ["wild reverse draw four", "red 1", "blue 2"], 1: WILDS}, discard=["red 5"])
    answer(g, "play wild reverse draw four", "blue")  # player 0 holds no Draw Card: they take the 4
    assert taken(g) == [(0, 4)] and len(g.hands[0]) == 2 + 4 and pending(g)[:2] == (1, "turn")


# -- NM-18, NM-19 --------------------------------------------------------------------
def test_nm_18_roulette_victim_names_a_colour_turns_cards_face_up_until_it_shows() -> None:
    g = nm(3)
    g.arrange({0: ["wild color roulette", "red 1", "blue 9"], 1: ["red 3", "blue 3"], 2: WILDS},
              discard=["red 5"], draw=["yellow 5", "wild draw ten", "red 8", "blue 4", "blue 6"])
    answer(g, "play wild color roulette")
    assert pending(g) == (1, "color", "name a colour")  # the next player names it, not the Roulette's player
    answer(g, "blue")
    turned = ["yellow 5", "wild draw ten", "red 8", "blue 4"]  # the wild does not count
    assert [d["card"].label for d in events(g, "card_revealed")] == turned
    assert hand(g, 1) == sorted(["red 3", "blue 3", *turned])
    seen = next(o for o in g.observation(2).opponents if o.seat == 1)
    assert seen.shown == tuple(sorted(turned))
    assert g.current_color == "blue" and events(g, "skipped") == [{"player": 1}] and pending(g)[:2] == (2, "turn")


def test_nm_18_option_the_roulettes_player_names_the_colour() -> None:
    g = nm(3, roulette_player_names_color=True)
    g.arrange({0: ["wild color roulette", "red 1", "blue 9"], 1: ["red 3", "blue 3"], 2: WILDS},
              discard=["red 5"], draw=["yellow 5", "green 4"])
    answer(g, "play wild color roulette")
    assert pending(g) == (0, "color", "name a colour")
    answer(g, "green")
    assert hand(g, 1) == ["blue 3", "green 4", "red 3", "yellow 5"] and g.current_color == "green"


def test_nm_18_the_turning_goes_on_through_a_reshuffle() -> None:
    g = nm(3)
    g.arrange({0: ["wild color roulette", "green 1", "blue 9"], 1: ["red 3", "blue 3"], 2: WILDS},
              discard=["green 5"], draw=["yellow 5"])
    thin_draw_pile(g, 1)
    answer(g, "play wild color roulette", "green")  # yellow 5, then the green 5 from the reshuffled pile
    assert len(events(g, "reshuffled")) == 1
    assert hand(g, 1) == ["blue 3", "green 5", "red 3", "yellow 5"]
    assert_conserved(g)


def test_nm_19_roulette_cannot_be_played_on_a_penalty_and_nothing_answers_it() -> None:
    g = nm(3)
    g.arrange({0: ["red draw two", *WILDS], 1: ["wild color roulette", "blue 3", "red draw two"], 2: WILDS},
              discard=["red 5"])
    answer(g, "play red draw two")
    assert plays(g) == {"red draw two"}
    g.arrange({0: ["wild color roulette", "red 1", "blue 9"], 1: ["wild draw ten", "red draw two", "blue 3"],
               2: WILDS}, discard=["red 5"], draw=["red 6"])
    answer(g, "play wild color roulette", "red")
    assert g.penalty == 0 and pending(g)[:2] == (2, "turn")  # player 1 was never asked to answer
    assert [d["kind"] for d in events(g, "choice") if d["player"] == 1] == ["color"]


# -- NM-20, NM-21 --------------------------------------------------------------------
def test_nm_20_a_seven_swaps_hands_with_a_player_of_choice() -> None:
    g = nm(3)
    g.arrange({0: ["red 7", "red 1", "blue 9"], 1: WILDS, 2: ["red 4", "blue 5", "blue 2"]}, discard=["red 5"])
    answer(g, "play red 7")
    d = g.decision
    assert d is not None and d.kind == "player" and set(d.options) == {1, 2}
    answer(g, 2)
    assert hand(g, 0) == ["blue 2", "blue 5", "red 4"] and hand(g, 2) == ["blue 9", "red 1"]


def test_nm_21_a_zero_passes_every_hand_in_the_direction_of_play() -> None:
    g = nm(3)
    g.arrange({0: ["red 0", "red 1", "red 2"], 1: ["red 3", "blue 3", "blue 6"], 2: ["red 4", "blue 4"]},
              discard=["red 5"], direction=-1)
    answer(g, "play red 0")  # to the right: 0's hand to 2, 2's to 1, 1's to 0
    assert hand(g, 2) == ["red 1", "red 2"] and hand(g, 1) == ["blue 4", "red 4"]
    assert hand(g, 0) == ["blue 3", "blue 6", "red 3"] and pending(g)[:2] == (2, "turn")


# -- NM-22 ---------------------------------------------------------------------------
def test_nm_22_a_missed_uno_caught_before_the_next_turn_draws_two() -> None:
    g = nm(3)
    # Player 0 can play only the red 1, which is played at once: one card left.
    g.arrange({0: ["red 1", "blue 9"], 1: WILDS, 2: WILDS}, discard=["red 5"], draw=["green 8", "green 9"])
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no", "yes")  # player 1 catches it
    assert hand(g, 0) == ["blue 9", "green 8", "green 9"]


# -- NM-23, NM-24 --------------------------------------------------------------------
def test_nm_23_a_player_who_reaches_25_cards_is_out() -> None:
    g = nm(3)
    g.arrange({0: ["red draw two", *WILDS], 1: FULL[:23], 2: WILDS}, discard=["red 5"])
    answer(g, "play red draw two")  # player 1 cannot answer and takes 2
    assert g.out == {1} and g.hands[1] == []
    assert events(g, "eliminated") == [{"player": 1, "count": 25, "zone": "discard_pile"}]
    assert pending(g)[:2] == (2, "turn")
    assert_conserved(g)


def test_nm_23_the_turns_draw_stops_at_25_cards() -> None:
    g = nm(3)
    g.arrange({0: ["red 1", "blue 9"], 1: FULL[:22], 2: WILDS},
              discard=["red 5"], draw=["blue 2", "blue 3", "blue 4", "blue 6", "red 9"])
    answer(g, "yes")  # player 0 played their only move, red 1, and calls UNO
    # Player 1 cannot play on red 1: draws blue 2, blue 3, blue 4, stops at 25 (red 9 stays), and is out.
    assert g.out == {1} and events(g, "eliminated")[0]["count"] == 25
    assert [c.label for c in g.draw_pile][-2:] == ["red 9", "blue 6"]
    assert pending(g)[:2] == (2, "turn")


def test_nm_23_the_roulette_stops_at_25_cards() -> None:
    g = nm(3)
    g.arrange({0: ["wild color roulette", "red 1", "blue 9"], 1: FULL[:22], 2: WILDS},
              discard=["red 5"], draw=["blue 2", "blue 3", "blue 4", "blue 6", "red 9"])
    answer(g, "play wild color roulette", "red")
    assert g.out == {1} and events(g, "eliminated")[0]["count"] == 25
    assert [d["card"].label for d in events(g, "card_revealed")] == ["blue 2", "blue 3", "blue 4"]
    assert [c.label for c in g.draw_pile][-2:] == ["red 9", "blue 6"]
    assert pending(g)[:2] == (2, "turn") and g.current_color == "red"


def test_nm_23_a_penalty_is_drawn_whole_then_the_player_is_out() -> None:
    """Decision: a stack's penalty is one draw; every card of it goes aside with the hand."""
    g = nm(3)
    g.arrange({0: ["wild draw ten", *WILDS], 1: FULL[:20], 2: WILDS}, discard=["red 5"])
    answer(g, "play wild draw ten", "red")
    assert g.out == {1} and events(g, "eliminated")[0]["count"] == 30
    assert_conserved(g)


def test_nm_24_cards_of_a_player_out_wait_under_the_discard_pile_and_join_the_next_reshuffle() -> None:
    g = nm(3)
    g.arrange({0: ["red draw two", *WILDS], 1: FULL[:23], 2: ["blue 4", "blue 6"]}, discard=["red 5"],
              draw=MORE[:3])
    thin_draw_pile(g, 3)
    answer(g, "play red draw two")
    # Player 1 takes 2 and is out with 25 cards, under the discard pile [red 5, red draw two]. Player 2
    # cannot play: draws the last card, then the discard pile but its top, with the 25 cards, is shuffled
    # into a new draw pile, and player 2 draws on from it.
    out = events(g, "eliminated")
    assert out == [{"player": 1, "count": 25, "zone": "discard_pile"}]
    assert events(g, "reshuffled")[0]["count"] == 25 + 1
    names = [name for name, _ in g.events or []]
    assert names.index("eliminated") < names.index("reshuffled")
    assert_conserved(g)


# -- NM-25 ---------------------------------------------------------------------------
def _one_out(players: int, hands: dict[int, list[str]]) -> Game:
    """Player 0 plays a red Draw 2 on player 1, who holds 23 cards and takes it: player 1 is out."""
    g = nm(players)
    g.arrange({0: ["red draw two", *hands.pop(0)], 1: FULL[:23], **hands}, discard=["red 5"])
    answer(g, "play red draw two")
    assert g.out == {1}
    return g


def test_nm_25_players_out_are_passed_over_by_skip_and_seven() -> None:
    g = _one_out(4, {0: ["red 7", "red 1", "blue 9"], 2: ["red skip", "red 2", "blue 5"], 3: WILDS})
    answer(g, "play red skip")  # player 2 skips player 3, and play comes back to player 0, past player 1
    assert events(g, "skipped")[-1] == {"player": 3} and pending(g)[:2] == (0, "turn")
    answer(g, "play red 7")
    d = g.decision
    assert d is not None and d.kind == "player" and set(d.options) == {2, 3}


def test_nm_25_a_zero_passes_past_the_player_out() -> None:
    g = _one_out(4, {0: ["red 1", "blue 9"], 2: ["red 0", "red 2", "red 3"], 3: ["red 6", "blue 6"]})
    answer(g, "play red 0")  # player 2's hand goes to player 3, player 3's to player 0, player 0's to player 2
    assert hand(g, 3) == ["red 2", "red 3"] and hand(g, 0) == ["blue 6", "red 6"]
    assert hand(g, 2) == ["blue 9", "red 1"] and g.hands[1] == [] and pending(g)[:2] == (3, "turn")


def test_nm_25_with_two_left_the_two_player_rules_apply() -> None:
    g = _one_out(3, {0: ["red 1", "blue 9"], 2: ["red reverse", "red 2", "red 3"]})
    answer(g, "play red reverse")
    assert g.direction == 1 and pending(g)[:2] == (2, "turn")  # a Skip: player 2 plays again


# -- NM-26, NM-27, NM-28 -------------------------------------------------------------
def test_nm_26_the_last_cards_effect_does_not_happen() -> None:
    for last in ("red draw two", "red 7", "red 0", "wild color roulette", "wild draw ten", "red skip everyone",
                 "wild reverse draw four"):
        g = nm(3)
        # Player 0's only move is their last card: the engine plays it at once.
        g.arrange({0: [last], 1: ["red 3", "blue 3"], 2: ["red 4", "blue 5"]}, discard=["red 5"])
        assert g.over and g.winners == (0,), last
        assert hand(g, 1) == ["blue 3", "red 3"] and hand(g, 2) == ["blue 5", "red 4"], last
        assert [d["kind"] for d in events(g, "choice")] == ["turn"], last  # no colour, player or question
        assert g.penalty == 0 and events(g, "card_revealed") == [], last


def test_nm_27_the_last_player_in_wins_the_hand() -> None:
    g = nm(2)
    g.arrange({0: ["wild draw ten", *WILDS], 1: FULL[:20]}, discard=["red 5"])
    answer(g, "play wild draw ten", "red")
    assert g.out == {1} and g.over and g.winners == (0,)
    assert events(g, "round_end")[0]["player"] == 0


def test_nm_28_one_hand_is_the_game() -> None:
    g = nm(3)
    g.arrange({0: ["red 1"], 1: ["blue 3"], 2: ["green 3"]}, discard=["red 5"])  # red 1 is played at once
    assert g.over and g.round == 1 and g.scores == [6, 0, 0] and g.winners == (0,)
    assert events(g, "game_end")[0]["winners"] == [0]


def test_nm_28_a_tie_at_nothing_goes_to_the_player_who_went_out() -> None:
    g = nm(3)
    g.arrange({0: ["red 1"], 1: ["blue 0", "green 0"], 2: ["yellow 0"]}, discard=["red 5"])
    assert g.scores == [0, 0, 0] and g.winners == (0,)


# -- NM-29 ---------------------------------------------------------------------------
def test_nm_29_option_scoring_250_per_player_knocked_out_and_first_to_1000() -> None:
    for backend in ("compiled", "closures"):
        v = load_variant(VARIANTS / "no_mercy.yaml", {"scoring": True}, backend=backend)
        g = Game(v, 4, record=True)
        g.arrange({0: ["red draw two", "red 1", "red 2", "blue 9"], 1: FULL[:23], 2: ["red 4"],
                   3: ["red 6", "wild draw six"]}, discard=["red 5"])
        answer(g, "play red draw two")  # player 1 is out; player 2 plays their last card at once
        assert [(e["player"], e["points"]) for e in events(g, "round_end")] == [(2, [0, 0, 12 + 56, 0])]
        assert g.scores == [0, 0, 12 + 56 + 250, 0], backend
        assert g.round == 2 and g.out == frozenset() and not g.over, backend  # all back in
        g.scores[:] = [0, 0, 990, 0]
        g.arrange({0: ["red 1", "red 2"], 1: ["blue 3"], 2: ["red 3"], 3: ["green 5"]}, discard=["red 5"],
                  current=2)
        assert g.over and g.winners == (2,) and g.scores[2] == 990 + 3 + 3 + 5, backend


# -- NM-30 ---------------------------------------------------------------------------
def test_nm_30_wild_draw_cards_have_no_restriction_and_no_challenge() -> None:
    g = nm(3)
    g.arrange({0: ["wild draw ten", "wild draw six", "wild reverse draw four", "wild color roulette", "red 1"],
               1: ["red 3", "blue 3"], 2: WILDS}, discard=["red 5"])
    assert plays(g) == {"wild draw ten", "wild draw six", "wild reverse draw four", "wild color roulette", "red 1"}
    answer(g, "play wild draw ten", "green")
    assert taken(g) == [(1, 10)] and pending(g)[:2] == (2, "turn")
    assert not any(d["kind"] == "ask" for d in events(g, "choice"))  # no challenge


# -- NM-31 ---------------------------------------------------------------------------
def test_nm_31_an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top() -> None:
    g = nm(3)
    g.arrange({0: ["red draw four", *WILDS], 1: ["blue 3", "blue 4"], 2: WILDS},
              discard=["yellow 1", "yellow 5", "blue 1", "red 5"], draw=["green 1"])
    thin_draw_pile(g, 1)
    answer(g, "play red draw four")
    assert [d["count"] for d in events(g, "reshuffled")] == [4]
    assert len(g.hands[1]) == 6 and [c.label for c in g.discard_pile] == ["red draw four"]
    assert_conserved(g)
