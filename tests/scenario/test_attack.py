"""Scenario tests for UNO Attack!: one or more per rule (AT-1 … AT-23, listed with
their Decisions at the top of variants/attack.yaml).

A press of the launcher is random. Most tests set the launcher's options so that
every press fires a known number of cards (`launcher_fire_percent=100`,
`launcher_min=launcher_max=K`); the AT-7 tests check the odds themselves, against a
twin of the game's generator and over many seeds."""

from __future__ import annotations

import random
from collections import Counter

from tests.helpers import answer, assert_conserved, events, game, hand, pending, variant
from unodsl import Game
from unodsl.engine.actions import DRAW, Play

COLORS = ("red", "yellow", "green", "blue")
# Hands that always have a choice to make (a playable card, or pressing): a player with a single legal
# move makes it at once, so a test that wants to see whose turn comes next seats them there. There
# are only four Wilds.
WAIT = [["wild", "yellow 6"], ["wild", "yellow 7"], ["wild", "yellow 8"], ["wild", "yellow 9"]]


def atk(players: int = 3, presses: int | None = 2, **options: bool | int) -> Game:
    """A game of Attack; `presses`: every press fires exactly that many cards (None: the real odds)."""
    if presses is not None:
        options |= {"launcher_fire_percent": 100, "launcher_min": presses, "launcher_max": presses}
    return game("attack", players, options=options or None)


def plays(g: Game) -> set[str]:
    d = g.decision
    assert d is not None and d.kind == "turn", d
    return {o.card.label for o in d.options if isinstance(o, Play)}


def thin_draw_pile(g: Game, keep: int) -> None:
    """Leave only the top `keep` cards in the launcher (arrange puts every other card under them): the
    rest are put aside, out of this test's way, so that it runs out."""
    g.aside.extend(g.draw_pile[:-keep])
    del g.draw_pile[:-keep]


def twin(g: Game) -> random.Random:
    """A copy of the game's generator: the numbers it will give next."""
    t = random.Random()
    t.setstate(g.rng.getstate())
    return t


def press(t: random.Random, percent: int = 35, low: int = 1, high: int = 8) -> int:
    """One press, as the game's generator gives it: random(1, 100) <= percent, then random(low, high)."""
    fires = 1 + int(t.random() * 100) <= percent
    return low + int(t.random() * (high - low + 1)) if fires else 0


def first_deck(first: str) -> list[str]:
    """A stacked deck for 3 players: the cut (red 1, red 2, red 3: seat 2 deals), 21 cards dealt (the cut
    cards among them), then `first` is turned up."""
    return ["red 1", "red 2", "red 3", *[f"blue {r}" for r in range(1, 10)] * 2, first]


# -- AT-1 ----------------------------------------------------------------------------
def test_at_01_deck_is_112_cards_without_zeros_for_2_to_10_players() -> None:
    v = variant("attack")
    assert (v.min_players, v.max_players) == (2, 10)
    per = Counter(f.label for f in v.sides[0].faces)
    assert sum(per.values()) == 112
    for c in COLORS:
        assert per[f"{c} 0"] == 0 and [per[f"{c} {r}"] for r in range(1, 10)] == [2] * 9
        assert [per[f"{c} {k}"] for k in ("hit two", "reverse", "skip", "discard all", "trade hands")] \
            == [2, 2, 2, 1, 1]
    assert (per["wild"], per["wild all hit"], per["wild hit fire"]) == (4, 2, 2)


# -- AT-2, AT-3 ----------------------------------------------------------------------
def test_at_02_the_highest_cut_deals_and_action_cards_count_zero() -> None:
    g = game("attack", 3, stacked=["red 3", "red skip", "blue 2", *[f"blue {r}" for r in range(3, 10)] * 2,
                                   "green 5", "green 6", "green 7", "green 8", "green 9"])
    assert [(d["player"], d["card"].label) for d in events(g, "cut")] == [(0, "red 3"), (1, "red skip"),
                                                                          (2, "blue 2")]
    assert g.dealer == 0


def test_at_02_the_deal_passes_left() -> None:
    g = atk(3)
    g.arrange({0: ["red 1"], 1: ["green 1", "green 2"], 2: ["blue 3", "blue 4"]}, discard=["red 3"], dealer=1)
    # Player 0's only move but pressing is their last card: they have a choice, and go out.
    answer(g, "play red 1")
    assert g.round == 2 and g.dealer == 2


def test_at_03_seven_cards_each_one_up_the_rest_in_the_launcher_left_of_dealer_starts() -> None:
    g = game("attack", 3, stacked=first_deck("red 5"))
    assert g.dealer == 2
    assert [len(h) for h in g.hands] == [7, 7, 7] and [c.label for c in g.discard_pile] == ["red 5"]
    assert len(g.draw_pile) == 112 - 21 - 1
    assert pending(g)[:2] == (0, "turn")  # player 0 holds the red 1


# -- AT-4 ----------------------------------------------------------------------------
def test_at_04_first_skip_skips_the_player_left_of_the_dealer() -> None:
    g = game("attack", 3, stacked=first_deck("green skip"))
    assert events(g, "skipped")[0] == {"player": 0} and events(g, "turn_start")[0]["player"] == 1


def test_at_04_first_reverse_the_dealer_starts_to_the_right() -> None:
    g = game("attack", 3, stacked=first_deck("green reverse"))
    assert g.direction == -1 and events(g, "turn_start")[0]["player"] == 2


def test_at_04_first_hit_two_the_player_left_of_the_dealer_presses_twice_and_loses_the_turn() -> None:
    v = variant("attack", launcher_fire_percent=100, launcher_min=3, launcher_max=3)
    g = Game(v, 3, record=True, stacked=first_deck("green hit two"))
    assert [d["size"] for d in events(g, "hand_changed") if d["player"] == 0][:2] == [10, 13]
    assert events(g, "skipped")[0] == {"player": 0} and events(g, "turn_start")[0]["player"] == 1


def test_at_04_first_wild_the_player_left_of_the_dealer_names_the_colour_and_plays() -> None:
    g = game("attack", 3, stacked=first_deck("wild"))
    assert pending(g) == (0, "color", "name a colour")
    answer(g, "red")
    assert g.current_color == "red" and pending(g)[:2] == (0, "turn")


def test_at_04_first_all_hit_everyone_but_the_dealer_presses_then_the_left_player_plays() -> None:
    v = variant("attack", launcher_fire_percent=100, launcher_min=2, launcher_max=2)
    g = Game(v, 3, record=True, stacked=first_deck("wild all hit"))
    assert pending(g) == (0, "color", "name a colour")
    answer(g, "red")
    assert [len(h) for h in g.hands] == [9, 9, 7]  # the dealer, seat 2, does not press
    assert pending(g)[:2] == (0, "turn")


def test_at_04_first_hit_fire_the_left_player_presses_until_it_fires_and_loses_the_turn() -> None:
    v = variant("attack", launcher_fire_percent=100, launcher_min=4, launcher_max=4)
    g = Game(v, 3, record=True, stacked=first_deck("wild hit fire"))
    assert pending(g) == (0, "color", "name a colour")
    answer(g, "red")
    assert len(g.hands[0]) == 7 + 4 and {"player": 0} in events(g, "skipped")
    assert events(g, "turn_start")[0]["player"] == 1


def test_at_04_first_trade_hands_goes_back_and_another_card_is_turned() -> None:
    seed = next(s for s in range(400) if events(game("attack", 3, seed=s), "card_turned")[0]["card"].kind
                == "trade_hands")
    g = game("attack", 3, seed=seed)
    turned = events(g, "card_turned")
    assert len(turned) >= 2 and g.discard_pile[0].kind != "trade_hands" and len(g.discard_pile) == 1
    assert events(g, "hands_swapped") == []
    assert_conserved(g)


def test_at_04_first_discard_all_has_no_effect() -> None:
    deck = ["red 1", "red 2", "red 3", *[f"green {r}" for r in range(1, 10)] * 2, "green discard all"]
    g = game("attack", 3, stacked=deck)
    assert [len(h) for h in g.hands] == [7, 7, 7] and [c.label for c in g.discard_pile] == ["green discard all"]
    assert pending(g)[:2] == (0, "turn")


# -- AT-5 ----------------------------------------------------------------------------
def test_at_05_a_card_matches_colour_number_or_symbol_and_wilds_go_on_anything() -> None:
    g = atk(2)
    g.arrange({0: ["red 1", "blue 5", "blue skip", "green 1", "wild hit fire", "yellow hit two"], 1: WAIT[1]},
              discard=["red 5"])
    assert plays(g) == {"red 1", "blue 5", "wild hit fire"}
    g.arrange({0: ["blue skip", "green 1", "red trade hands"], 1: WAIT[1]}, discard=["red skip"])
    assert plays(g) == {"blue skip", "red trade hands"}


# -- AT-6 ----------------------------------------------------------------------------
def test_at_06_a_player_may_press_instead_of_playing_and_keeps_what_fires() -> None:
    g = atk(3, presses=1)
    g.arrange({0: ["red 1", "blue 9"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"], draw=["red 9"])
    d = g.decision
    assert d is not None and DRAW in d.options  # pressing is offered though red 1 could be played
    answer(g, "draw")
    # The red 9 fired is playable, but the turn is over: the player keeps it.
    assert hand(g, 0) == ["blue 9", "red 1", "red 9"] and g.discard_pile[-1].label == "red 5"
    assert pending(g)[:2] == (1, "turn")


# -- AT-7 ----------------------------------------------------------------------------
def test_at_07_a_press_is_the_games_next_numbers_fire_then_how_many() -> None:
    for seed in range(12):
        g = game("attack", 3, seed=seed)
        g.arrange({0: ["red 1", "blue 9"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
        expected = press(twin(g))
        answer(g, "draw")
        assert len(g.hands[0]) == 2 + expected, seed


def test_at_07_over_many_presses_about_35_in_100_fire_one_to_eight_cards() -> None:
    fired = []
    trials = 400
    for seed in range(trials):
        g = game("attack", 3, seed=seed)
        g.arrange({0: ["red 1", "blue 9"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
        answer(g, "draw")
        if len(g.hands[0]) > 2:
            fired.append(len(g.hands[0]) - 2)
    assert 0.25 * trials < len(fired) < 0.45 * trials  # 35% expected; 3 standard deviations is 7%
    assert set(fired) == set(range(1, 9))


def test_at_07_the_odds_are_options() -> None:
    g = atk(3, presses=None, launcher_fire_percent=100, launcher_min=5, launcher_max=6)
    g.arrange({0: ["red 1", "blue 9"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
    answer(g, "draw")
    assert len(g.hands[0]) - 2 in (5, 6)
    v = variant("attack")
    assert {o.name: o.value for o in v.options if o.type == "int"} == {
        "launcher_fire_percent": 35, "launcher_min": 1, "launcher_max": 8, "limit": 500}


def test_at_07_same_seed_same_presses() -> None:
    def pressed(seed: int) -> list[int]:
        g = game("attack", 3, seed=seed)
        g.arrange({0: ["red 1", "blue 9"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
        answer(g, "draw")
        return [len(h) for h in g.hands]
    assert pressed(5) == pressed(5)


# -- AT-8 ----------------------------------------------------------------------------
def test_at_08_an_empty_launcher_is_refilled_from_the_discard_pile_but_its_top() -> None:
    g = atk(3, presses=3)
    g.arrange({0: ["red 1", "blue 9"], 1: WAIT[1], 2: WAIT[2]}, discard=["yellow 1", "yellow 2", "red 5"],
              draw=["green 1"])
    thin_draw_pile(g, 1)
    answer(g, "draw")  # green 1, then yellow 1 and yellow 2 from the refilled launcher
    assert [d["count"] for d in events(g, "reshuffled")] == [2]
    assert hand(g, 0) == ["blue 9", "green 1", "red 1", "yellow 1", "yellow 2"]
    assert [c.label for c in g.discard_pile] == ["red 5"]
    assert_conserved(g)


# -- AT-9, AT-10, AT-11 --------------------------------------------------------------
def test_at_09_hit_two_makes_the_next_player_press_twice_and_lose_their_turn() -> None:
    g = atk(3, presses=3)
    g.arrange({0: ["red hit two", "red 2", "red 3"], 1: ["red hit two", "blue 3"], 2: WAIT[2]}, discard=["red 5"])
    answer(g, "play red hit two")
    assert [d["size"] for d in events(g, "hand_changed") if d["player"] == 1] == [5, 8]  # two presses
    assert events(g, "skipped") == [{"player": 1}] and pending(g)[:2] == (2, "turn")
    assert not any(d["player"] == 1 for d in events(g, "choice"))  # no stacking: player 1 was not asked


def test_at_09_each_press_of_a_hit_two_has_its_own_odds() -> None:
    for seed in range(12):
        g = game("attack", 3, seed=seed)
        g.arrange({0: ["red hit two", "red 2", "red 3"], 1: ["blue 3", "blue 4"], 2: WAIT[2]}, discard=["red 5"])
        t = twin(g)
        expected = press(t) + press(t)
        answer(g, "play red hit two")
        assert len(g.hands[1]) == 2 + expected, seed


def test_at_10_skip_makes_the_next_player_lose_their_turn() -> None:
    g = atk(3)
    g.arrange({0: ["red skip", "red 2", "red 3"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
    answer(g, "play red skip")
    assert events(g, "skipped") == [{"player": 1}] and pending(g)[:2] == (2, "turn")


def test_at_11_reverse_changes_direction() -> None:
    g = atk(3)
    g.arrange({0: ["red reverse", "red 2", "red 3"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
    answer(g, "play red reverse")
    assert g.direction == -1 and pending(g)[:2] == (2, "turn")


# -- AT-12, AT-13, AT-14 -------------------------------------------------------------
def test_at_12_discard_all_puts_its_colour_under_it() -> None:
    g = atk(3)
    g.arrange({0: ["red discard all", "red 7", "red hit two", "blue 9", "green 1"], 1: WAIT[1], 2: WAIT[2]},
              discard=["red 5"])
    answer(g, "play red discard all")
    assert hand(g, 0) == ["blue 9", "green 1"]
    assert [c.label for c in g.discard_pile[-2:]] == ["red 5", "red discard all"]
    assert sorted(c.label for c in g.discard_pile[:2]) == ["red 7", "red hit two"]
    assert [len(h) for h in g.hands[1:]] == [2, 2]  # the Hit 2 put down with it has no effect
    assert pending(g)[:2] == (1, "turn")


def test_at_13_trade_hands_exchanges_hands_with_a_player_of_choice() -> None:
    g = atk(3)
    g.arrange({0: ["red trade hands", "red 1", "blue 9"], 1: WAIT[1], 2: ["red 4", "blue 5", "blue 2"]},
              discard=["red 5"])
    answer(g, "play red trade hands")
    d = g.decision
    assert d is not None and d.kind == "player" and set(d.options) == {1, 2}
    answer(g, 2)
    assert hand(g, 0) == ["blue 2", "blue 5", "red 4"] and hand(g, 2) == ["blue 9", "red 1"]


def test_at_13_trade_hands_as_the_last_card_trades_nothing() -> None:
    g = atk(3)
    g.arrange({0: ["red trade hands"], 1: WAIT[1], 2: ["red 4", "blue 5"]}, discard=["red 5"])
    answer(g, "play red trade hands")
    assert events(g, "hands_swapped") == [] and events(g, "round_end")[0]["player"] == 0


def test_at_13_option_trade_hands_may_not_be_the_last_card() -> None:
    g = atk(3, trade_hands_not_last=True)
    g.arrange({0: ["red trade hands", "red 1"], 1: WAIT[1], 2: ["red 4", "blue 5"]}, discard=["red 5"])
    assert plays(g) == {"red trade hands", "red 1"}
    answer(g, "play red 1", "yes")
    answer(g, "play wild", "yes", "red")  # player 1, down to one card
    assert plays(g) == {"red 4"}  # player 2
    answer(g, "play red 4", "yes")
    # Player 0 holds only the Trade Hands, on red: not playable as the last card, so they press.
    assert "red trade hands" in hand(g, 0) and len(g.hands[0]) == 1 + 2


def test_at_14_a_wild_names_the_colour() -> None:
    g = atk(3)
    g.arrange({0: ["wild", "red 1", "blue 9"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
    answer(g, "play wild", "green")
    assert g.current_color == "green" and pending(g)[:2] == (1, "turn")


# -- AT-15, AT-16, AT-17 -------------------------------------------------------------
def test_at_15_hit_fire_the_next_player_presses_until_it_fires_and_loses_the_turn() -> None:
    g = atk(3, presses=3)
    g.arrange({0: ["wild hit fire", "red 2", "red 3"], 1: ["blue 3", "blue 4"], 2: WAIT[2]}, discard=["red 5"])
    answer(g, "play wild hit fire", "green")
    assert len(g.hands[1]) == 2 + 3 and events(g, "skipped") == [{"player": 1}]
    assert g.current_color == "green" and pending(g)[:2] == (2, "turn")


def test_at_15_until_it_fires_means_one_firing_never_none() -> None:
    for seed in range(30):
        g = game("attack", 3, seed=seed)
        g.arrange({0: ["wild hit fire", "red 2", "red 3"], 1: ["blue 3", "blue 4"], 2: WAIT[2]}, discard=["red 5"])
        t = twin(g)
        answer(g, "play wild hit fire", "green")
        assert len(g.hands[1]) == 2 + 1 + int(t.random() * 8), seed  # random(1, 8): one firing


def test_at_16_all_hit_every_other_player_presses_once_and_the_next_plays_as_usual() -> None:
    g = atk(4, presses=2)
    g.arrange({0: ["wild all hit", "red 2", "red 3"], 1: WAIT[1], 2: WAIT[2], 3: WAIT[3]}, discard=["red 5"])
    answer(g, "play wild all hit", "blue")
    assert [len(h) for h in g.hands] == [2, 4, 4, 4]
    assert events(g, "skipped") == [] and pending(g)[:2] == (1, "turn")


def test_at_17_wilds_have_no_restriction_and_no_challenge() -> None:
    g = atk(3)
    g.arrange({0: ["wild", "wild all hit", "wild hit fire", "red 1"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
    assert plays(g) == {"wild", "wild all hit", "wild hit fire", "red 1"}
    answer(g, "play wild hit fire", "green")
    assert not any(d["kind"] == "ask" for d in events(g, "choice"))


# -- AT-18, AT-19 --------------------------------------------------------------------
def test_at_18_a_missed_uno_caught_presses_the_launcher_twice() -> None:
    g = atk(3, presses=3)
    g.arrange({0: ["red 1", "blue 9"], 1: WAIT[1], 2: WAIT[2]}, discard=["red 5"])
    answer(g, "play red 1", "no", "yes")  # no call; player 1 catches it as their turn starts
    assert [d["size"] for d in events(g, "hand_changed") if d["player"] == 0] == [1, 4, 7]  # two presses
    assert pending(g)[:2] == (1, "turn")


def test_at_19_a_last_hit_card_still_makes_its_victims_press_and_they_count() -> None:
    g = atk(3, presses=2)
    g.arrange({0: ["red hit two"], 1: ["blue 3", "blue 4"], 2: ["blue 5"]}, discard=["red 5"],
              draw=["blue 1", "blue 2", "blue 6", "blue 7"])
    answer(g, "play red hit two")  # the last card: player 1 presses twice, then the hand is over
    assert [d["card"].label for d in events(g, "card_drawn")][:4] == ["blue 1", "blue 2", "blue 6", "blue 7"]
    assert [d["size"] for d in events(g, "hand_changed") if d["player"] == 1][:2] == [4, 6]
    assert events(g, "round_end") == [{"player": 0, "points": [23 + 5, 0, 0], "team": 0}]


# -- AT-20, AT-21 --------------------------------------------------------------------
OTHERS = {1: ["red hit two", "red reverse", "red skip", "green discard all"],  # 20 + 20 + 20 + 30
          2: ["green trade hands", "wild", "wild all hit", "wild hit fire", "blue 7"]}  # 30 + 50 * 3 + 7


def test_at_20_the_winner_scores_the_others_hands_and_500_wins() -> None:
    g = atk(3)
    g.arrange({0: ["red 1"], **OTHERS}, discard=["red 5"])
    answer(g, "play red 1")
    assert events(g, "round_end") == [{"player": 0, "points": [90 + 187, 0, 0], "team": 0}]
    assert g.scores == [277, 0, 0] and not g.over
    g.scores[:] = [490, 0, 0]
    g.arrange({0: ["red 1"], 1: ["blue 9"], 2: ["blue 1"]}, discard=["red 5"])
    answer(g, "play red 1")
    assert g.over and g.winners == (0,) and g.scores == [500, 0, 0]


def test_at_21_option_alternative_scoring_each_scores_their_own_and_the_lowest_wins() -> None:
    g = atk(3, alternative_scoring=True)
    g.arrange({0: ["red 1"], **OTHERS}, discard=["red 5"])
    answer(g, "play red 1")
    assert g.scores == [0, 90, 187] and not g.over
    g.scores[:] = [10, 495, 100]
    g.arrange({0: ["red 1"], 1: ["blue 9"], 2: ["blue 1"]}, discard=["red 5"])
    answer(g, "play red 1")
    assert g.over and g.scores == [10, 504, 101] and g.winners == (0,)


# -- AT-22 ---------------------------------------------------------------------------
def test_at_22_with_two_players_reverse_and_skip_give_another_turn() -> None:
    for card in ("red reverse", "red skip"):
        g = atk(2)
        g.arrange({0: [card, "red 2", "red 3"], 1: WAIT[1]}, discard=["red 5"])
        answer(g, f"play {card}")
        assert g.direction == 1 and events(g, "skipped") == [{"player": 1}] and pending(g)[:2] == (0, "turn")


def test_at_22_with_two_players_the_turn_comes_back_after_a_hit_two() -> None:
    g = atk(2, presses=2)
    g.arrange({0: ["red hit two", "red 2", "red 3"], 1: ["blue 3", "blue 4"]}, discard=["red 5"])
    answer(g, "play red hit two")
    assert len(g.hands[1]) == 2 + 4 and pending(g)[:2] == (0, "turn")


# -- AT-23 ---------------------------------------------------------------------------
def test_at_23_option_challenge_out_of_the_game_at_the_limit_and_the_last_player_wins() -> None:
    g = atk(3, challenge=True)
    g.scores[:] = [0, 495, 0]
    g.arrange({0: ["red 1"], 1: ["blue 9", "blue 8"], 2: ["blue 1"]}, discard=["red 5"])
    answer(g, "play red 1")
    assert g.scores == [0, 512, 1] and events(g, "eliminated")[0]["player"] == 1
    assert not g.over and g.round == 2 and 1 in g.out and g.hands[1] == []  # out of every hand to come
    assert 1 not in {d["player"] for d in events(g, "dealt") if d["count"]}
    g.scores[:] = [0, 512, 495]
    g.arrange({0: ["red 1"], 2: ["blue 9"]}, discard=["red 5"])
    answer(g, "play red 1")  # player 2 reaches the limit in the head-to-head hand: player 0 wins the game
    assert g.out == {1, 2} and g.over and g.winners == (0,)


def test_at_23_the_limit_is_an_option() -> None:
    g = atk(3, challenge=True, limit=100)
    g.scores[:] = [0, 95, 0]
    g.arrange({0: ["red 1"], 1: ["blue 9"], 2: ["blue 1"]}, discard=["red 5"])
    answer(g, "play red 1")
    assert g.out == {1}
