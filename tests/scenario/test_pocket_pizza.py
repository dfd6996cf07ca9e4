"""Scenario tests for UNO Pocket Pizza Pizza: one or more per rule ID (PP-*)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.helpers import VARIANTS, answer, deal_order, events, game, hand, pending, played_out, variant
from unodsl import Game, IllegalAction, validate_file
from unodsl.engine.actions import DRAW, Play

PP = "pocket_pizza"
FILE = VARIANTS / f"{PP}.yaml"

# Stacked 3-player deals: the cut shows red 1, red 2, red 3, so player 2 deals
# and player 0 (left of the dealer) plays first; these are then dealt.
# Each holds a yellow card, so the first turn is a real choice (with nothing
# playable, drawing would be taken at once).
HANDS = [["red 1", "blue 1", "yellow 4", "green 1", "green 4"],
         ["red 2", "blue 2", "yellow 5", "green 2", "green 5"],
         ["red 3", "blue 3", "yellow 6", "green 3", "green 6"]]


def fresh(players: int) -> Game:
    """A recorded game whose events so far (its first deal) are forgotten, ready
    for `arrange`."""
    g = game(PP, players)
    assert g.events is not None
    g.events.clear()
    return g


def stacked(first: str, *then: str) -> list[str]:
    """The stacked deck that deals HANDS (dealer 2), turns `first`, then has `then`."""
    return [*deal_order(HANDS, dealer=2), first, *then]


# -- PP-1 deck ------------------------------------------------------------------
def test_pp_01_deck_has_51_cards_for_2_to_5_players() -> None:
    v = variant(PP)
    assert (v.min_players, v.max_players) == (2, 5)
    faces = v.sides[0].faces
    assert len(faces) == 51
    per = Counter(f.label for f in faces)
    for color in ("red", "blue", "green", "yellow"):
        for r in range(1, 10):
            assert per[f"{color} {r}"] == 1
        assert per[f"{color} 0"] == 0
        for action in ("draw one", "skip", "reverse"):
            assert per[f"{color} {action}"] == 1
    assert per["wild"] == per["wild deep into the deck"] == per["wild draw two"] == 1
    assert sum(per.values()) == 4 * 12 + 3


def test_pp_01_file_declares_51_and_documents_the_sheets_52() -> None:
    lines = FILE.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("deck_size:"))
    assert lines[at].split("#")[0].strip() == "deck_size: 51"
    comment = " ".join(line for line in lines[at - 3:at] if line.lstrip().startswith("#"))
    assert "52" in comment and "51" in comment
    assert validate_file(FILE) == []


def test_pp_01_declaring_52_cards_is_one_error_at_deck_size(tmp_path: Path) -> None:
    lines = FILE.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("deck_size:"))
    lines[at] = "deck_size: 52\n"
    bad = tmp_path / "pocket_pizza.yaml"
    bad.write_text("".join(lines), encoding="utf-8")
    errors = [d for d in validate_file(bad) if d.severity == "error"]
    assert len(errors) == 1
    (error,) = errors
    assert "52" in error.message and "51" in error.message
    assert error.pos.line == at + 1


# -- PP-2 deal and first card -----------------------------------------------------
def test_pp_02_deal_five_each_and_turn_top_card() -> None:
    g = game(PP, 3, stacked=stacked("yellow 7"))
    assert g.dealer == 2
    assert [hand(g, p) for p in range(3)] == [sorted(h) for h in HANDS]
    assert [c.label for c in g.discard_pile] == ["yellow 7"]
    assert len(g.draw_pile) == 51 - 15 - 1
    assert pending(g)[:2] == (0, "turn")


def test_pp_02_first_card_skip_skips_first_player() -> None:
    g = game(PP, 3, stacked=stacked("yellow skip"))
    assert events(g, "skipped") == [{"player": 0}]
    assert pending(g)[:2] == (1, "turn")
    assert [len(h) for h in g.hands] == [5, 5, 5]


def test_pp_02_first_card_draw_one_first_player_draws_and_loses_turn() -> None:
    g = game(PP, 3, stacked=stacked("yellow draw one", "yellow 1"))
    assert hand(g, 0) == sorted([*HANDS[0], "yellow 1"])
    assert [len(h) for h in g.hands] == [6, 5, 5]
    assert pending(g)[:2] == (1, "turn")


def test_pp_02_first_card_reverse_dealer_plays_first() -> None:
    g = game(PP, 3, stacked=stacked("yellow reverse"))
    assert g.direction == -1
    assert pending(g)[:2] == (2, "turn")
    answer(g, "play yellow 6")
    assert pending(g)[:2] == (1, "turn")  # then to the dealer's right


def test_pp_02_first_card_wild_is_returned_and_another_turned() -> None:
    seed = next(s for s in range(300) if any(
        e == "cards_moved" and d["source"] == "discard_pile" for e, d in game(PP, 2, seed=s).events))
    g = game(PP, 2, seed=seed)
    turned = events(g, "card_turned")
    assert len(turned) >= 2 and turned[0]["card"].wild
    assert len(g.discard_pile) == 1 and not g.discard_pile[-1].wild
    assert sum(len(h) for h in g.hands) + len(g.draw_pile) + len(g.discard_pile) == 51


@pytest.mark.parametrize("seed", range(30))
def test_pp_02_first_card_is_never_wild_and_hands_hold_five(seed: int) -> None:
    g = game(PP, 2 + seed % 4, seed=seed)
    assert not g.discard_pile[-1].wild
    assert [d["count"] for d in events(g, "dealt")] == [5] * g.n
    assert sum(len(h) for h in g.hands) + len(g.draw_pile) + len(g.discard_pile) == 51


# -- PP-3 turns -------------------------------------------------------------------
def test_pp_03_play_starts_left_of_dealer_and_deal_passes_left() -> None:
    g = game(PP, 3, stacked=stacked("yellow 7"))
    assert (g.dealer, pending(g)[0]) == (2, 0)
    g.arrange({0: ["red 1"], 1: ["red 2", "red 3", "red 4"], 2: ["blue 1", "blue 2", "blue 3"]},
              discard=["red 9"], current=0, dealer=2)
    answer(g, "play red 1")
    assert g.round == 2 and g.dealer == 0
    assert events(g, "round_start")[-1] == {"player": 0, "round": 2}


def test_pp_03_play_a_match_or_draw_even_when_able() -> None:
    g = fresh(2)
    g.arrange({0: ["red 7", "blue 3", "green 3", "wild draw two", "yellow 9", "blue skip"],
               1: ["blue 1", "blue 2"]}, discard=["red 3"])
    options = {str(o) for o in g.decision.options}
    assert options == {"play red 7", "play blue 3", "play green 3", "play wild draw two", "draw"}


def test_pp_03_unmatched_card_is_refused_and_changes_nothing() -> None:
    g = fresh(2)
    g.arrange({0: ["blue 1", "red 2", "green 5"], 1: ["yellow 1", "red 4", "red 5"]}, discard=["red 3"])
    assert {str(o) for o in g.decision.options} == {"play red 2", "draw"}
    before = ([hand(g, p) for p in range(2)], list(g.draw_pile), list(g.discard_pile))
    with pytest.raises(IllegalAction, match="not a legal choice"):
        g.apply(Play(g.hands[0][0]))
    assert ([hand(g, p) for p in range(2)], list(g.draw_pile), list(g.discard_pile)) == before
    assert DRAW in g.decision.options


def test_pp_03_drawn_playable_card_may_be_played() -> None:
    g = fresh(2)
    g.arrange({0: ["blue 1", "blue 3", "green 4"], 1: ["yellow 1", "red 2", "red 4"]},
              discard=["red 3"], draw=["red 8"])
    answer(g, "draw")  # even though blue 3 could be played
    assert pending(g)[1] == "drawn"
    answer(g, "play red 8")
    assert [c.label for c in g.discard_pile] == ["red 3", "red 8"]
    assert hand(g, 0) == ["blue 1", "blue 3", "green 4"]
    assert pending(g)[:2] == (1, "turn")


def test_pp_03_drawn_playable_card_may_be_kept() -> None:
    g = fresh(2)
    g.arrange({0: ["blue 1", "blue 2"], 1: ["yellow 1", "red 2", "red 4"]},
              discard=["red 3"], draw=["red 8"])
    # Nothing playable: drawing is the only option and is taken at once.
    assert pending(g)[1] == "drawn"
    answer(g, "keep")
    assert hand(g, 0) == ["blue 1", "blue 2", "red 8"]
    assert pending(g)[:2] == (1, "turn")


def test_pp_03_unplayable_drawn_card_is_kept_and_turn_passes() -> None:
    g = fresh(2)
    g.arrange({0: ["blue 1", "blue 2"], 1: ["yellow 1", "red 2", "red 4"]},
              discard=["red 3"], draw=["green 8"])
    assert hand(g, 0) == ["blue 1", "blue 2", "green 8"]
    assert [c.label for c in g.discard_pile] == ["red 3"]
    assert pending(g)[:2] == (1, "turn")


# -- PP-4 Skip, Reverse, Draw One --------------------------------------------------
def test_pp_04_skip_next_player_loses_turn() -> None:
    g = fresh(3)
    g.arrange({0: ["red skip", "red 1", "red 4"], 1: ["red 2", "red 3"], 2: ["blue 1", "red 5"]},
              discard=["red 9"])
    answer(g, "play red skip")
    assert events(g, "skipped") == [{"player": 1}]
    assert pending(g)[:2] == (2, "turn")


def test_pp_04_reverse_changes_direction() -> None:
    g = fresh(4)
    g.arrange({0: ["red reverse", "red 1", "red 4"], 1: ["red 2", "red 3"], 2: ["blue 1", "blue 2"],
               3: ["green 1", "red 6"]}, discard=["red 9"])
    answer(g, "play red reverse")
    assert g.direction == -1
    assert pending(g)[:2] == (3, "turn")


def test_pp_04_reverse_with_two_players_acts_as_skip() -> None:
    g = fresh(2)
    g.arrange({0: ["red reverse", "red 1", "red 4"], 1: ["red 2", "red 3"]}, discard=["red 9"])
    answer(g, "play red reverse")
    assert pending(g)[:2] == (0, "turn")
    assert hand(g, 1) == ["red 2", "red 3"]


def test_pp_04_draw_one_next_draws_one_and_loses_turn() -> None:
    g = fresh(3)
    g.arrange({0: ["red draw one", "red 1", "red 4"], 1: ["red 2", "red 3"], 2: ["blue 1", "red 5"]},
              discard=["red 9"], draw=["green 4", "green 5"])
    answer(g, "play red draw one")
    assert hand(g, 1) == ["green 4", "red 2", "red 3"]
    assert hand(g, 2) == ["blue 1", "red 5"]
    assert pending(g)[:2] == (2, "turn")


def test_pp_04_draw_one_matches_draw_one() -> None:
    g = fresh(2)
    g.arrange({0: ["blue draw one", "green 1", "green 2"], 1: ["red 2", "red 3"]},
              discard=["red draw one"])
    assert {str(o) for o in g.decision.options} == {"play blue draw one", "draw"}


# -- PP-5 wild cards -----------------------------------------------------------------
def test_pp_05_wild_names_the_colour() -> None:
    g = fresh(2)
    g.arrange({0: ["wild", "red 1", "red 2"], 1: ["blue 2", "green 3", "yellow 5"]}, discard=["yellow 9"])
    answer(g, "play wild")
    assert pending(g)[:2] == (0, "color")
    answer(g, "green")
    assert g.current_color == "green"
    assert pending(g)[:2] == (1, "turn")
    assert {str(o) for o in g.decision.options} == {"play green 3", "draw"}


def test_pp_05_wild_deep_into_the_deck_draws_one_and_gives_one_to_next() -> None:
    g = fresh(3)
    g.arrange({0: ["wild deep into the deck", "red 1", "red 2", "blue 5"],
               1: ["green 1", "green 2", "green 3"], 2: ["yellow 1", "yellow 2", "yellow 3"]},
              discard=["yellow 9"], draw=["blue 8", "red 9"])
    answer(g, "play wild deep into the deck", "green")
    assert g.current_color == "green"
    assert hand(g, 0) == ["blue 5", "blue 8", "red 1", "red 2"]
    assert pending(g) == (0, "card", "pick a card")
    assert {c.label for c in g.decision.options} == {"blue 5", "blue 8", "red 1", "red 2"}
    answer(g, "red 2")
    assert hand(g, 0) == ["blue 5", "blue 8", "red 1"]
    assert hand(g, 1) == ["green 1", "green 2", "green 3", "red 2"]
    assert hand(g, 2) == ["yellow 1", "yellow 2", "yellow 3"]
    assert events(g, "card_given")[0]["other"] == 1
    assert pending(g)[:2] == (1, "turn")  # the receiver keeps their turn


def test_pp_05_wild_deep_may_give_the_drawn_card_and_follows_direction() -> None:
    g = fresh(3)
    g.arrange({0: ["wild deep into the deck", "red 1", "red 2"],
               1: ["green 1", "green 2", "green 3"], 2: ["yellow 1", "yellow 2", "yellow 3"]},
              discard=["yellow 9"], draw=["wild draw two"], direction=-1)
    answer(g, "play wild deep into the deck", "red", "wild draw two")
    assert hand(g, 0) == ["red 1", "red 2"]
    assert hand(g, 2) == ["wild draw two", "yellow 1", "yellow 2", "yellow 3"]
    assert hand(g, 1) == ["green 1", "green 2", "green 3"]
    assert pending(g)[:2] == (2, "turn")


def test_pp_05_wild_deep_as_last_card_gives_the_drawn_card_and_goes_out() -> None:
    g = fresh(2)
    g.arrange({0: ["wild deep into the deck"], 1: ["green 1", "green 2"]},
              discard=["yellow 9"], draw=["blue 8"])
    answer(g, "play wild deep into the deck", "red")
    # Holding the drawn card for a moment, the player is asked for UNO; it does
    # not matter: once the card is given they hold none and cannot be caught.
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no")
    assert events(g, "catch_uno") == [] and events(g, "card_given")[0]["card"].label == "blue 8"
    assert events(g, "round_end")[0] == {"player": 0, "points": [1 + 2 + 8, 0], "team": 0}
    assert g.scores == [11, 0]


def test_pp_05_wild_deep_uno_call_follows_the_final_hand() -> None:
    # Played as the second-to-last card: one card left, draw one, give one: the
    # player ends with one card and must have called UNO at that point.
    g = fresh(3)
    g.arrange({0: ["wild deep into the deck", "red 1"], 1: ["green 1", "green 2", "green 3"],
               2: ["yellow 1", "yellow 2", "yellow 3"]},
              discard=["yellow 9"], draw=["blue 8", "blue 2", "blue 3"])
    answer(g, "play wild deep into the deck", "yes", "red", "red 1")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no")
    assert pending(g) == (1, "ask", "catch_uno")
    answer(g, "yes")
    assert hand(g, 0) == ["blue 2", "blue 3", "blue 8"]
    assert hand(g, 1) == ["green 1", "green 2", "green 3", "red 1"]
    assert pending(g)[:2] == (1, "turn")


def test_pp_05_wild_draw_two_unchallenged_next_draws_two_and_loses_turn() -> None:
    g = fresh(3)
    g.arrange({0: ["wild draw two", "red 2", "red 4"], 1: ["blue 2", "green 3"], 2: ["blue 5", "blue 6"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 4"])
    answer(g, "play wild draw two", "blue")
    assert pending(g) == (1, "ask", "challenge")
    answer(g, "no")
    assert hand(g, 1) == ["blue 2", "green 1", "green 2", "green 3"]
    assert g.current_color == "blue"
    assert pending(g)[:2] == (2, "turn")


# -- PP-6 Wild Draw Two challenge ---------------------------------------------------
WD2_DRAW = ["green 1", "green 2", "green 4", "green 5"]


@pytest.mark.parametrize(("held", "top", "why"), [
    ("yellow 2", "yellow 9", "the colour in play"),
    ("blue 9", "yellow 9", "the same number"),
    ("blue skip", "yellow skip", "the same symbol"),
    ("wild", "yellow 9", "another wild card"),
])
def test_pp_06_challenge_guilty_player_draws_two_instead(held: str, top: str, why: str) -> None:
    g = fresh(3)
    g.arrange({0: ["wild draw two", held, "red 4"], 1: ["blue 2", "red 3"], 2: ["blue 5", "blue 6"]},
              discard=[top], draw=WD2_DRAW)
    answer(g, "play wild draw two", "red", "yes")
    assert hand(g, 0) == sorted([held, "red 4", "green 1", "green 2"]), why
    assert hand(g, 1) == ["blue 2", "red 3"]  # the challenger draws none
    assert g.current_color == "red"
    assert pending(g)[:2] == (1, "turn")  # and plays normally


def test_pp_06_challenge_innocent_challenger_draws_four_and_loses_turn() -> None:
    g = fresh(3)
    # blue 2 matches the colour named, not the yellow 9 the card was played on.
    g.arrange({0: ["wild draw two", "blue 2", "red 4"], 1: ["blue 3", "green 3"], 2: ["blue 5", "blue 6"]},
              discard=["yellow 9"], draw=WD2_DRAW)
    answer(g, "play wild draw two", "blue", "yes")
    assert hand(g, 0) == ["blue 2", "red 4"]
    assert hand(g, 1) == sorted(["blue 3", "green 3", *WD2_DRAW])
    assert pending(g)[:2] == (2, "turn")


def test_pp_06_guilt_is_judged_on_the_colour_named_by_an_earlier_wild() -> None:
    g = fresh(2)
    # On a wild named green, a yellow card could not have been played.
    g.arrange({0: ["wild draw two", "yellow 2", "red 4"], 1: ["blue 3", "green 3"]},
              discard=["yellow 9", "wild"], color="green", draw=WD2_DRAW)
    answer(g, "play wild draw two", "yellow", "yes")
    assert len(g.hands[1]) == 6 and len(g.hands[0]) == 2
    assert pending(g)[:2] == (0, "turn")  # 2 players: the challenger lost the turn


# -- PP-7 a final draw card still counts ---------------------------------------------
def test_pp_07_final_draw_one_next_player_still_draws_and_it_scores() -> None:
    g = fresh(3)
    g.arrange({0: ["red draw one"], 1: ["blue 2", "green 3"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"], draw=["yellow skip"])
    answer(g, "play red draw one")
    drawn = events(g, "card_drawn")[0]
    assert (drawn["player"], drawn["card"].label) == (1, "yellow skip")
    assert events(g, "round_end")[0] == {"player": 0, "points": [2 + 3 + 20 + 5 + 6, 0, 0], "team": 0}
    assert g.scores == [36, 0, 0]


def test_pp_07_final_wild_draw_two_next_player_still_draws_and_it_scores() -> None:
    g = fresh(2)
    g.arrange({0: ["wild draw two"], 1: ["blue 2", "green 3"]},
              discard=["red 9"], draw=["wild", "red 7"])
    answer(g, "play wild draw two", "red", "no")
    drawn = [(d["player"], d["card"].label) for d in events(g, "card_drawn")[:2]]
    assert drawn == [(1, "wild"), (1, "red 7")]
    assert events(g, "round_end")[0] == {"player": 0, "points": [2 + 3 + 50 + 7, 0], "team": 0}
    assert g.scores == [62, 0]


def test_pp_07_final_wild_draw_two_challenged_is_innocent_and_challenger_draws_four() -> None:
    g = fresh(2)
    g.arrange({0: ["wild draw two"], 1: ["blue 2", "green 3"]},
              discard=["red 9"], draw=["red 1", "red 2", "red 3", "red 4"])
    answer(g, "play wild draw two", "red", "yes")
    assert events(g, "round_end")[0] == {"player": 0, "points": [2 + 3 + 1 + 2 + 3 + 4, 0], "team": 0}


# -- PP-8 scoring ---------------------------------------------------------------------
def test_pp_08_winner_scores_the_other_hands() -> None:
    g = fresh(3)
    g.arrange({0: ["red 1"], 1: ["blue 7", "yellow skip", "wild"],
               2: ["green draw one", "wild draw two", "red reverse", "wild deep into the deck"]},
              discard=["red 9"])
    answer(g, "play red 1")
    assert events(g, "round_end")[0] == {"player": 0, "points": [7 + 20 + 50 + 20 + 50 + 20 + 50, 0, 0], "team": 0}
    assert g.scores == [217, 0, 0]
    assert not g.over and g.round == 2


def test_pp_08_first_to_250_wins() -> None:
    g = fresh(2)
    g.scores[:] = [240, 100]
    g.arrange({0: ["red 1"], 1: ["blue 4", "blue 6"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert g.over and g.winner == 0
    assert events(g, "game_end") == [{"player": 0, "winners": [0], "scores": [250, 100], "team": 0}]
    assert g.decision is None


def test_pp_08_below_250_the_game_goes_on() -> None:
    g = fresh(2)
    g.scores[:] = [240, 100]
    g.arrange({0: ["red 1"], 1: ["blue 4", "blue 5"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert g.scores == [249, 100]
    assert not g.over and g.round == 2


# -- COM-2 in this variant --------------------------------------------------------------
def test_pp_com_02_missed_uno_caught_draws_two() -> None:
    g = fresh(3)
    g.arrange({0: ["red 1", "red 2"], 1: ["blue 2", "red 5"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"], draw=["yellow 1", "yellow 2"])
    answer(g, "play red 1", "no", "yes")
    assert hand(g, 0) == ["red 2", "yellow 1", "yellow 2"]
    assert pending(g)[:2] == (1, "turn")


def test_pp_06_com_02_guilty_wild_draw_two_cannot_also_be_caught() -> None:
    g = fresh(3)
    g.arrange({0: ["wild draw two", "red 2"], 1: ["blue 2", "green 3"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"], draw=WD2_DRAW)
    answer(g, "play wild draw two", "no", "blue", "yes")
    # Guilty (red 2): drew 2, so no longer holds one card; nobody is asked to catch.
    assert hand(g, 0) == ["green 1", "green 2", "red 2"]
    assert pending(g)[:2] == (1, "turn")


# -- COM-3 whole games ---------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(20))
def test_pp_com_03_whole_games_conserve_cards(seed: int) -> None:
    players = 2 + seed % 4
    g = played_out(PP, players, seed, ["random", "greedy"] if seed % 2 else ["greedy", "random"])
    assert len(g.cards) == 51
    assert g.over and max(g.scores) >= 250
