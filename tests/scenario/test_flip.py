"""Scenario tests for UNO Flip: one or more per rule ID (FLIP-*), plus property
tests of what the Flip card does to the physical cards (COM-3, FLIP-8, FLIP-10)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest
import yaml

from tests.helpers import VARIANTS, answer, assert_conserved, deal_order, events, game, hand, pending, variant
from unodsl import Game, make_agents, play_game, validate_file
from unodsl.engine.cards import Card
from unodsl.engine.primitives.effects import flip

LIGHT, DARK = 0, 1
LIGHT_COLORS = ("red", "yellow", "green", "blue")
DARK_COLORS = ("pink", "teal", "orange", "purple")


# -- helpers -------------------------------------------------------------------
def light_game(players: int = 2, options: dict[str, bool] | None = None) -> Game:
    """A game whose first round started light side up (seed 0 does), ready to arrange."""
    g = game("flip", players, options=options)
    assert g.side == LIGHT
    return g


def arrange_dark(g: Game, hands: dict[int, Sequence[str]], discard: Sequence[str] = (),
                 draw: Sequence[str] = (), **kw: Any) -> None:
    """Go to the dark side the way a table does (player 0 plays a Flip), then
    arrange a position by dark labels: arrange reads the side in play."""
    g.arrange({p: [f"{c} flip", f"{c} 1", f"{c} 2"]
               for p, c in zip(range(g.n), LIGHT_COLORS * 3, strict=False)},
              discard=["red 9"])
    answer(g, "play red flip")
    if pending(g)[1] == "color":  # the new top came up as a wild (FLIP-8)
        answer(g, "pink")
    assert g.side == DARK
    g.arrange(hands, discard, draw, **kw)


def options(g: Game) -> set[str]:
    assert g.decision is not None
    return {str(o) for o in g.decision.options}


def shows(g: Game, side: int) -> bool:
    """Every physical card shows its face `side`, and `back` is the other face."""
    return all(c.label == c.faces[side].label and c.back == c.faces[1 - side] for c in g.cards)


def card_with(label: str, zone: list[Any]) -> Any:
    return next(c for c in zone if c.label == label)


def snapshot(g: Game) -> tuple[Any, ...]:
    """Every zone's card order and every card's visible face."""
    zones = tuple((name, tuple(c.id for c in z)) for name, z in g.zones().items())
    faces = tuple((c.id, c.label, c.color, c.kind, c.points) for c in g.cards)
    return g.side, zones, faces


# -- FLIP-1 ------------------------------------------------------------------------
def test_flip_01_deck_has_112_double_sided_cards_for_2_to_10_players() -> None:
    v = variant("flip")
    assert (v.min_players, v.max_players) == (2, 10)
    assert [s.name for s in v.sides] == ["light", "dark"]
    light, dark = v.sides
    assert light.colors == LIGHT_COLORS and dark.colors == DARK_COLORS
    for side, actions, wilds in ((light, ("draw one", "reverse", "skip", "flip"), ("wild", "wild draw two")),
                                 (dark, ("draw five", "reverse", "skip everyone", "flip"),
                                  ("wild", "wild draw color"))):
        assert len(side.faces) == 112
        per = Counter(f.label for f in side.faces)
        expected = {f"{c} {r}": 2 for c in side.colors for r in range(1, 10)}
        expected |= {f"{c} {a}": 2 for c in side.colors for a in actions}
        expected |= {w: 4 for w in wilds}
        assert per == expected


def test_flip_01_variant_file_and_its_option_check_clean() -> None:
    assert validate_file(VARIANTS / "flip.yaml") == []


def test_flip_01_faces_pair_by_seeded_shuffle() -> None:
    v = variant("flip")
    pairs = [c.faces for c in Game(v, 2, seed=7).cards]
    assert pairs == [c.faces for c in Game(v, 2, seed=7).cards]  # reproducible
    assert pairs != [c.faces for c in Game(v, 2, seed=8).cards]  # but per game
    assert Counter(f[0] for f in pairs) == Counter(v.sides[0].faces)  # each face printed once
    assert Counter(f[1] for f in pairs) == Counter(v.sides[1].faces)


# -- FLIP-2 ------------------------------------------------------------------------
def test_flip_02_cut_highest_deals_action_cards_count_zero() -> None:
    # A stacked deck is never shuffled: player 0 cuts the top card (a Draw One,
    # worth 0 in the cut), player 1 the next (a 1). The cards go back and are dealt.
    hands = [["red draw one", *(f"blue {r}" for r in range(1, 7))],
             ["red 1", *(f"green {r}" for r in range(1, 7))]]
    g = game("flip", 2, stacked=[*deal_order(hands, dealer=1), "blue 9"])
    assert [(e["player"], e["card"].label) for e in events(g, "cut")] == [(0, "red draw one"), (1, "red 1")]
    assert g.dealer == 1
    assert g.side == LIGHT and shows(g, LIGHT)
    assert hand(g, 0) == sorted(hands[0]) and hand(g, 1) == sorted(hands[1])
    assert [c.label for c in g.discard_pile] == ["blue 9"]
    assert len(g.draw_pile) == 112 - 15
    assert pending(g)[:2] == (0, "turn")  # left of the dealer


def test_flip_02_deal_passes_left_and_every_round_starts_light_side_up() -> None:
    g = light_game(3)
    seen: list[tuple[str, int, bool]] = []

    def note(game_: Game, name: str, data: dict[str, Any]) -> None:
        if name in ("round_start", "dealt"):
            seen.append((name, game_.side, shows(game_, LIGHT)))

    g.watch(note)
    arrange_dark(g, {0: ["pink 1"], 1: ["teal 1", "teal 2", "teal 3"], 2: ["orange 1", "orange 2", "orange 3"]},
                 discard=["pink 9"], dealer=2)
    answer(g, "play pink 1")  # the round ends on the dark side
    assert g.round == 2 and g.dealer == 0  # left of the previous dealer (2)
    assert seen[0] == ("round_start", LIGHT, True)
    assert ("dealt", LIGHT, True) in seen
    assert sum(len(h) for h in g.hands) + len(g.draw_pile) + len(g.discard_pile) == 112


# -- FLIP-3 ------------------------------------------------------------------------
# Blue numbers for everyone, so the first turn is a real decision after a blue first card.
DEALT_2 = [f"blue {r}" for r in range(1, 7)] * 2
DEALT_3 = [f"blue {r}" for r in range(1, 10)] * 2


def stacked_2(first: str) -> Game:
    """2 players; red 2 beats red 1 in the cut so player 1 deals; `first` is turned."""
    g = game("flip", 2, stacked=["red 1", "red 2", *DEALT_2, first])
    assert g.dealer == 1
    return g


def stacked_3(first: str) -> Game:
    """3 players; red 3 wins the cut so player 2 deals; `first` is turned."""
    g = game("flip", 3, stacked=["red 1", "red 2", "red 3", *DEALT_3, first])
    assert g.dealer == 2
    return g


def test_flip_03_first_skip_skips_first_player() -> None:
    g = stacked_2("blue skip")
    assert pending(g)[:2] == (1, "turn")  # player 0 (left of the dealer) is skipped
    assert events(g, "skipped") == [{"player": 0}]


def test_flip_03_first_reverse_dealer_plays_first_and_direction_reverses() -> None:
    g = stacked_3("blue reverse")
    assert g.direction == -1
    assert pending(g)[:2] == (2, "turn")


def test_flip_03_first_wild_dealer_names_colour() -> None:
    g = stacked_3("wild")
    assert pending(g) == (2, "color", "name a colour")
    assert g.decision is not None and g.decision.options == LIGHT_COLORS
    answer(g, "blue")
    assert g.current_color == "blue"
    assert pending(g)[:2] == (0, "turn")


def test_flip_03_first_draw_one_first_player_draws_one_and_loses_turn() -> None:
    g = stacked_3("blue draw one")
    assert [len(h) for h in g.hands] == [8, 7, 7]
    assert pending(g)[:2] == (1, "turn")


def test_flip_03_first_flip_round_starts_on_dark_side() -> None:
    g = stacked_3("blue flip")
    first = g.discard_pile[-1]
    assert first.faces[0].label == "blue flip" and not first.faces[1].wild
    assert g.side == DARK and shows(g, DARK)
    assert g.discard_pile == [first] and first.label == first.faces[1].label
    assert g.current_color == first.faces[1].color
    assert events(g, "flipped") == [{"player": 2, "side": "dark"}]
    assert pending(g)[:2] == (0, "turn")  # the dark face's own action does not apply
    assert [len(h) for h in g.hands] == [7, 7, 7]


def _first_turned(seed: int, test: Callable[[Card], bool]) -> bool:
    """Whether the first card turned in a 2-player game with this seed passes `test`."""
    g = game("flip", 2, seed=seed)
    turned = events(g, "card_turned")
    return bool(turned) and test(turned[0]["card"])


def test_flip_03_first_flip_showing_a_wild_dealer_names_colour() -> None:
    seed = next(s for s in range(5000) if _first_turned(s, lambda c: c.faces[0].kind == "flip"
                                                     and c.faces[1].kind == "wild"))
    g = game("flip", 2, seed=seed)  # a seed that turns a Flip whose dark face is a Wild
    first = g.discard_pile[-1]
    assert first.faces[0].kind == "flip" and first.label == "wild"
    assert g.side == DARK
    assert pending(g) == (g.dealer, "color", "name a colour")
    assert g.decision is not None and g.decision.options == DARK_COLORS
    answer(g, "orange")
    assert g.current_color == "orange"
    assert pending(g)[:2] == ((g.dealer + 1) % 2, "turn")


def test_flip_03_first_wild_draw_two_is_returned_and_another_turned() -> None:
    seed = next(s for s in range(5000) if _first_turned(s, lambda c: c.faces[0].kind == "wild_draw_two"))
    g = game("flip", 2, seed=seed)  # a seed that turns a Wild Draw Two first
    turned = [e["card"] for e in events(g, "card_turned")]
    assert turned[0].faces[0].label == "wild draw two"
    assert len(turned) >= 2 and turned[-1].faces[0].kind != "wild_draw_two"
    moved = events(g, "cards_moved")
    assert moved[0]["source"] == "discard_pile" and moved[0]["target"] == "draw_pile"
    assert g.discard_pile == [turned[-1]]
    assert turned[0] in g.draw_pile
    assert sum(len(h) for h in g.hands) + len(g.draw_pile) + len(g.discard_pile) == 112


@pytest.mark.parametrize("seed", range(40))
def test_flip_03_first_card_is_never_a_wild_draw_two(seed: int) -> None:
    g = game("flip", 3, seed=seed)
    assert len(g.discard_pile) == 1
    assert g.discard_pile[0].faces[0].kind != "wild_draw_two"
    assert shows(g, g.side)


# -- FLIP-4 ------------------------------------------------------------------------
def test_flip_04_light_turn_play_match_or_wild_or_draw() -> None:
    g = light_game()
    g.arrange({0: ["red 7", "blue 3", "green 3", "wild", "yellow 9", "wild draw two"],
               1: ["blue 1", "blue 2", "blue 4"]}, discard=["red 3"])
    assert options(g) == {"play red 7", "play blue 3", "play green 3", "play wild",
                          "play wild draw two", "draw"}


def test_flip_04_dark_turn_matches_dark_colour_and_symbol() -> None:
    g = light_game()
    arrange_dark(g, {0: ["pink 7", "teal 3", "orange draw five", "wild", "purple 9", "teal skip everyone"],
                     1: ["teal 1", "teal 2", "teal 4"]}, discard=["orange 3"])
    assert options(g) == {"play teal 3", "play orange draw five", "play wild", "draw"}


def test_flip_04_dark_drawn_playable_card_may_be_played() -> None:
    g = light_game()
    arrange_dark(g, {0: ["purple 1", "teal 3", "teal 4"], 1: ["teal 1", "teal 2", "wild"]},
                 discard=["pink 3"], draw=["pink 8"])
    answer(g, "draw")  # even though teal 3 could be played
    assert pending(g)[1] == "drawn"
    answer(g, "play pink 8")
    assert g.discard_pile[-1].label == "pink 8"
    assert pending(g)[:2] == (1, "turn")


def test_flip_04_dark_unplayable_drawn_card_is_kept() -> None:
    g = light_game()
    arrange_dark(g, {0: ["purple 1", "purple 2", "purple 4"], 1: ["teal 1", "teal 2", "wild"]},
                 discard=["pink 3"], draw=["orange 8"])
    assert hand(g, 0) == ["orange 8", "purple 1", "purple 2", "purple 4"]
    assert pending(g)[:2] == (1, "turn")


# -- FLIP-5 ------------------------------------------------------------------------
# The other players hold a Wild, so their turn is always a real decision (a
# single legal option, such as a forced draw, would be taken at once).
THREE_LIGHT = {1: ["blue 1", "blue 2", "wild"], 2: ["yellow 1", "yellow 2", "wild"]}


def test_flip_05_draw_one_next_draws_one_and_loses_turn() -> None:
    g = light_game(3)
    g.arrange({0: ["red draw one", "red 1", "red 4"], **THREE_LIGHT}, discard=["red 9"], draw=["green 4"])
    answer(g, "play red draw one")
    assert hand(g, 1) == ["blue 1", "blue 2", "green 4", "wild"]
    assert pending(g)[:2] == (2, "turn")


def test_flip_05_reverse_changes_direction() -> None:
    g = light_game(3)
    g.arrange({0: ["red reverse", "red 1", "red 4"], **THREE_LIGHT}, discard=["red 9"])
    answer(g, "play red reverse")
    assert g.direction == -1
    assert pending(g)[:2] == (2, "turn")


def test_flip_05_reverse_with_two_players_acts_as_skip() -> None:
    g = light_game(2)
    g.arrange({0: ["red reverse", "red 1", "red 4"], 1: ["blue 1", "blue 2", "blue 4"]}, discard=["red 9"])
    answer(g, "play red reverse")
    assert pending(g)[:2] == (0, "turn")


def test_flip_05_skip_next_player_loses_turn() -> None:
    g = light_game(3)
    g.arrange({0: ["red skip", "red 1", "red 4"], **THREE_LIGHT}, discard=["red 9"])
    answer(g, "play red skip")
    assert events(g, "skipped") == [{"player": 1}]
    assert pending(g)[:2] == (2, "turn")


def test_flip_05_wild_names_a_light_colour() -> None:
    g = light_game(2)
    g.arrange({0: ["wild", "red 1", "red 2"], 1: ["blue 2", "green 3", "green 4"]}, discard=["yellow 9"])
    answer(g, "play wild")
    assert g.decision is not None and g.decision.options == LIGHT_COLORS
    answer(g, "green")
    assert g.current_color == "green"
    assert options(g) == {"play green 3", "play green 4", "draw"}


def test_flip_05_wild_draw_two_next_draws_two_and_loses_turn() -> None:
    g = light_game(3)
    g.arrange({0: ["wild draw two", "red 2", "red 4"], **THREE_LIGHT}, discard=["yellow 9"],
              draw=["green 1", "green 2"])
    answer(g, "play wild draw two", "blue")
    assert pending(g) == (1, "ask", "challenge")
    answer(g, "no")
    assert hand(g, 1) == ["blue 1", "blue 2", "green 1", "green 2", "wild"]
    assert g.current_color == "blue"
    assert pending(g)[:2] == (2, "turn")


def test_flip_05_wild_draw_two_may_be_bluffed() -> None:
    g = light_game(2)
    g.arrange({0: ["wild draw two", "yellow 1", "red 2"], 1: ["blue 2", "green 3", "green 4"]},
              discard=["yellow 9"])
    assert "play wild draw two" in options(g)  # illegal, but playable: it can be challenged


# -- FLIP-6 ------------------------------------------------------------------------
THREE_DARK = {1: ["teal 1", "teal 2", "wild"], 2: ["orange 1", "orange 2", "wild"]}


def test_flip_06_draw_five_next_draws_five_and_loses_turn() -> None:
    g = light_game(3)
    arrange_dark(g, {0: ["pink draw five", "pink 1", "pink 4"], **THREE_DARK}, discard=["pink 9"],
                 draw=["purple 1", "purple 2", "purple 3", "purple 4", "purple 5", "purple 6"])
    answer(g, "play pink draw five")
    assert hand(g, 1) == ["purple 1", "purple 2", "purple 3", "purple 4", "purple 5",
                          "teal 1", "teal 2", "wild"]
    assert g.draw_pile[-1].label == "purple 6"
    assert pending(g)[:2] == (2, "turn")


def test_flip_06_dark_reverse_changes_direction() -> None:
    g = light_game(3)
    arrange_dark(g, {0: ["pink reverse", "pink 1", "pink 4"], **THREE_DARK}, discard=["pink 9"])
    answer(g, "play pink reverse")
    assert g.direction == -1
    assert pending(g)[:2] == (2, "turn")


def test_flip_06_skip_everyone_player_plays_again() -> None:
    g = light_game(4)
    arrange_dark(g, {0: ["pink skip everyone", "pink 1", "pink 4", "pink 5"], **THREE_DARK,
                     3: ["purple 1", "purple 2", "purple 4"]}, discard=["pink 9"])
    answer(g, "play pink skip everyone")
    assert pending(g)[:2] == (0, "turn")
    answer(g, "play pink 1")
    assert pending(g)[:2] == (1, "turn")  # then play goes on as usual


def test_flip_06_wild_names_a_dark_colour() -> None:
    g = light_game(2)
    arrange_dark(g, {0: ["wild", "pink 1", "pink 2"], 1: ["teal 2", "orange 3", "orange 4"]},
                 discard=["purple 9"])
    answer(g, "play wild")
    assert g.decision is not None and g.decision.options == DARK_COLORS
    answer(g, "orange")
    assert g.current_color == "orange"
    assert options(g) == {"play orange 3", "play orange 4", "draw"}


def test_flip_06_wild_draw_color_next_draws_until_that_colour() -> None:
    g = light_game(3)
    arrange_dark(g, {0: ["wild draw color", "pink 2", "pink 4"], **THREE_DARK}, discard=["purple 9"],
                 draw=["pink 1", "teal 3", "orange 3", "purple 4"])
    answer(g, "play wild draw color", "orange")
    assert pending(g) == (1, "ask", "challenge")
    answer(g, "no")
    assert hand(g, 1) == ["orange 3", "pink 1", "teal 1", "teal 2", "teal 3", "wild"]
    assert g.draw_pile[-1].label == "purple 4"
    assert g.current_color == "orange"
    assert pending(g)[:2] == (2, "turn")


def test_flip_06_wild_draw_color_may_be_bluffed() -> None:
    g = light_game(2)
    arrange_dark(g, {0: ["wild draw color", "purple 1", "pink 2"], 1: ["teal 2", "orange 3", "orange 4"]},
                 discard=["purple 9"])
    assert "play wild draw color" in options(g)


# -- FLIP-7 ------------------------------------------------------------------------
def test_flip_07_guilty_wild_draw_two_player_draws_two() -> None:
    g = light_game(3)
    g.arrange({0: ["wild draw two", "yellow 2", "red 4"], **THREE_LIGHT}, discard=["yellow 9"],
              draw=["green 1", "green 2"])
    answer(g, "play wild draw two", "blue", "yes")
    assert hand(g, 0) == ["green 1", "green 2", "red 4", "yellow 2"]
    assert hand(g, 1) == ["blue 1", "blue 2", "wild"]
    assert g.current_color == "blue"
    assert pending(g)[:2] == (1, "turn")  # the challenger plays normally


def test_flip_07_innocent_wild_draw_two_challenger_draws_four() -> None:
    g = light_game(3)
    g.arrange({0: ["wild draw two", "red 2", "red 4"], **THREE_LIGHT}, discard=["yellow 9"],
              draw=["green 1", "green 2", "green 3", "green 4", "green 5"])
    answer(g, "play wild draw two", "blue", "yes")
    assert hand(g, 0) == ["red 2", "red 4"]
    assert hand(g, 1) == ["blue 1", "blue 2", "green 1", "green 2", "green 3", "green 4", "wild"]
    assert pending(g)[:2] == (2, "turn")


def test_flip_07_guilty_wild_draw_color_player_draws_two() -> None:
    """FLIP-7 (corrected): a guilty Wild Draw Color player draws 2, as for a Wild
    Draw Two, not until the colour; the challenger plays on."""
    g = light_game(3)
    arrange_dark(g, {0: ["wild draw color", "purple 2", "pink 4"], **THREE_DARK}, discard=["purple 9"],
                 draw=["pink 1", "orange 3", "teal 3", "purple 4"])
    answer(g, "play wild draw color", "teal", "yes")
    assert hand(g, 0) == ["orange 3", "pink 1", "pink 4", "purple 2"]
    assert g.draw_pile[-1].label == "teal 3"
    assert hand(g, 1) == ["teal 1", "teal 2", "wild"]
    assert g.current_color == "teal"
    assert pending(g)[:2] == (1, "turn")


def test_flip_07_innocent_wild_draw_color_challenger_draws_until_colour_then_two() -> None:
    g = light_game(3)
    arrange_dark(g, {0: ["wild draw color", "pink 2", "pink 4"], **THREE_DARK}, discard=["purple 9"],
                 draw=["pink 1", "purple 3", "orange 3", "orange 5", "purple 4"])
    answer(g, "play wild draw color", "purple", "yes")
    assert hand(g, 0) == ["pink 2", "pink 4"]
    assert hand(g, 1) == ["orange 3", "orange 5", "pink 1", "purple 3", "teal 1", "teal 2", "wild"]
    assert g.draw_pile[-1].label == "purple 4"
    assert pending(g)[:2] == (2, "turn")


def test_flip_07_guilty_of_a_number_match() -> None:
    """FLIP-7 (corrected): holding the same number as the card below (another
    colour) could have been played, so the play is guilty: its player draws 2."""
    g = light_game(3)
    g.arrange({0: ["wild draw two", "red 9", "red 4"], **THREE_LIGHT}, discard=["yellow 9"],
              draw=["green 1", "green 2", "green 3", "green 4"])
    answer(g, "play wild draw two", "red", "yes")
    assert hand(g, 0) == ["green 1", "green 2", "red 4", "red 9"]
    assert hand(g, 1) == ["blue 1", "blue 2", "wild"]
    assert pending(g)[:2] == (1, "turn")


def test_flip_07_guilty_of_a_symbol_match_wild_draw_color() -> None:
    g = light_game(3)
    arrange_dark(g, {0: ["wild draw color", "teal skip everyone", "pink 4"], **THREE_DARK},
                 discard=["purple skip everyone"], draw=["pink 1", "orange 3", "teal 3"])
    answer(g, "play wild draw color", "orange", "yes")
    assert hand(g, 0) == ["orange 3", "pink 1", "pink 4", "teal skip everyone"]
    assert hand(g, 1) == ["teal 1", "teal 2", "wild"]
    assert pending(g)[:2] == (1, "turn")


def test_flip_07_guilty_of_holding_a_wild() -> None:
    g = light_game(3)
    g.arrange({0: ["wild draw two", "wild", "red 4"], **THREE_LIGHT}, discard=["yellow 9"],
              draw=["green 1", "green 2", "green 3", "green 4"])
    answer(g, "play wild draw two", "blue", "yes")
    assert hand(g, 0) == ["green 1", "green 2", "red 4", "wild"]
    assert pending(g)[:2] == (1, "turn")


def test_flip_07_innocent_when_nothing_else_could_have_been_played() -> None:
    # Another colour, another number, no wild: innocent, the challenger draws 4.
    g = light_game(3)
    g.arrange({0: ["wild draw two", "red 8", "green skip"], **THREE_LIGHT}, discard=["yellow 9"],
              draw=["green 1", "green 2", "green 3", "green 4"])
    answer(g, "play wild draw two", "red", "yes")
    assert hand(g, 0) == ["green skip", "red 8"]
    assert hand(g, 1) == ["blue 1", "blue 2", "green 1", "green 2", "green 3", "green 4", "wild"]
    assert pending(g)[:2] == (2, "turn")


# -- FLIP-8 ------------------------------------------------------------------------
def ids(cards: list[Card]) -> list[int]:
    return [c.id for c in cards]


def test_flip_08_flip_turns_every_hand_and_each_pile_as_a_whole() -> None:
    g = light_game(2)
    g.arrange({0: ["red flip", "red 1", "red 2"], 1: ["blue 1", "blue 2", "blue 3"]},
              discard=["blue 5", "green 5", "red 9"], draw=["green 3", "green 4"])
    flip_card = card_with("red flip", g.hands[0])
    bottom = g.discard_pile[0]
    assert bottom.back is not None and not bottom.back.wild  # seed 0 pairs this blue 5 with a pink 6
    hands_before = [list(h) for h in g.hands]
    discard_before, draw_before = list(g.discard_pile), list(g.draw_pile)

    answer(g, "play red flip")
    assert g.side == DARK and shows(g, DARK)
    # The same physical cards (a card's id names it on either side), in the same order.
    assert ids(g.hands[0]) == [c.id for c in hands_before[0] if c is not flip_card]
    assert ids(g.hands[1]) == ids(hands_before[1])
    assert ids(g.discard_pile) == ids([*discard_before, flip_card][::-1])  # the Flip card is now at the bottom
    assert ids(g.draw_pile) == ids(draw_before[::-1])
    # The new top is the old bottom card, other face up: the next player matches it.
    assert g.discard_pile[-1].id == bottom.id and bottom.back.label == "pink 6"
    assert g.discard_pile[-1].label == "pink 6" and g.current_color == "pink"
    assert events(g, "flipped") == [{"player": 0, "side": "dark"}]
    assert pending(g)[:2] == (1, "turn")
    assert options(g) == {f"play {c.label}" for c in g.hands[1]
                          if c.wild or c.color == "pink" or c.symbol == "6"} | {"draw"}
    assert options(g) == {"play pink reverse", "play pink flip", "draw"}


def test_flip_08_flip_on_the_dark_side_returns_to_light() -> None:
    g = light_game(2)
    arrange_dark(g, {0: ["teal flip", "teal 1", "teal 2"], 1: ["pink 1", "pink 2", "pink 3"]},
                 discard=["orange 5", "teal 9"])
    bottom = g.discard_pile[0]
    assert bottom.back is not None and bottom.back.label == "green 3"  # seed 0's pairing
    answer(g, "play teal flip")
    assert g.side == LIGHT and shows(g, LIGHT)
    assert g.discard_pile[-1].id == bottom.id and g.discard_pile[-1].label == "green 3"
    assert g.current_color == "green"
    assert events(g, "flipped")[-1] == {"player": 0, "side": "light"}
    assert pending(g)[:2] == (1, "turn")
    assert options(g) == {f"play {c.label}" for c in g.hands[1]
                          if c.wild or c.color == "green" or c.symbol == "3"} | {"draw"}


def test_flip_08_flip_does_not_skip_or_reverse() -> None:
    g = light_game(3)
    g.arrange({0: ["red flip", "red 1", "red 2"], **THREE_LIGHT}, discard=["blue 5", "red 9"])
    assert not g.discard_pile[0].back.wild
    answer(g, "play red flip")
    assert g.direction == 1 and pending(g)[:2] == (1, "turn")


def test_flip_08_new_top_showing_a_wild_the_flipper_names_colour() -> None:
    g = light_game(2)
    g.arrange({0: ["red flip", "red 1", "red 2"], 1: ["blue 1", "blue 2", "blue 3"]},
              discard=["green 5", "red 9"])
    # Put a card whose dark face is a Wild at the bottom of the discard pile.
    wild_back = next(c for c in g.draw_pile if c.back is not None and c.back.kind == "wild")
    i = g.draw_pile.index(wild_back)
    g.draw_pile[i], g.discard_pile[0] = g.discard_pile[0], wild_back
    answer(g, "play red flip")
    assert g.discard_pile[-1].id == wild_back.id and g.discard_pile[-1].label == "wild"
    assert pending(g) == (0, "color", "name a colour")
    assert g.decision is not None and g.decision.options == DARK_COLORS
    answer(g, "teal")
    assert g.current_color == "teal"
    assert pending(g)[:2] == (1, "turn")
    assert len(g.hands[1]) == 3  # the face that came up draws no cards


def test_flip_08_draws_after_a_flip_come_from_the_old_bottom() -> None:
    g = light_game(2)
    g.arrange({0: ["red flip", "red 1", "red 2"], 1: ["blue 1", "blue 2", "blue 3"]},
              discard=["blue 5", "red 9"], draw=["green 3"])
    old_bottom = g.draw_pile[0]
    answer(g, "play red flip")
    assert g.draw_pile[-1].id == old_bottom.id
    answer(g, "draw")
    assert old_bottom.id in ids(g.hands[1])


# -- FLIP-9 ------------------------------------------------------------------------
def test_flip_09_missed_uno_caught_draws_two_on_dark_side() -> None:
    g = light_game(3)
    arrange_dark(g, {0: ["pink 1", "pink 2"], **THREE_DARK}, discard=["pink 9"],
                 draw=["purple 1", "purple 2"])
    answer(g, "play pink 1")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no")
    assert pending(g) == (1, "ask", "catch_uno")
    answer(g, "yes")
    assert hand(g, 0) == ["pink 2", "purple 1", "purple 2"]
    assert pending(g)[:2] == (1, "turn")


def test_flip_09_called_uno_is_safe() -> None:
    g = light_game(3)
    g.arrange({0: ["red 1", "red 2"], **THREE_LIGHT}, discard=["red 9"])
    answer(g, "play red 1", "yes")
    assert hand(g, 0) == ["red 2"]
    assert pending(g)[:2] == (1, "turn")


def test_flip_09_uncaught_player_is_safe_once_next_turn_starts() -> None:
    g = light_game(3)
    arrange_dark(g, {0: ["pink 1", "pink 2"], **THREE_DARK}, discard=["pink 9"])
    answer(g, "play pink 1", "no", "no", "no")
    assert pending(g)[:2] == (1, "turn")
    assert g.flags[0] == set() and hand(g, 0) == ["pink 2"]


def test_com_02_flip_guilty_wild_draw_two_back_to_three_cards_cannot_be_caught() -> None:
    """COM-2 / FLIP-9: a player who missed UNO and then holds more than one card
    (a guilty Wild Draw Two draws 2) is safe: nobody is asked to catch them."""
    g = light_game(3)
    g.arrange({0: ["wild draw two", "yellow 2"], **THREE_LIGHT}, discard=["yellow 9"],
              draw=["green 1", "green 2", "green 3", "green 4"])
    answer(g, "play wild draw two")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no", "blue", "yes")  # no call; blue; the challenge finds them guilty
    assert hand(g, 0) == ["green 1", "green 2", "yellow 2"]
    assert g.flags[0] == set()
    assert not any(d["prompt"] == "catch_uno" for d in events(g, "choice"))
    assert pending(g)[:2] == (1, "turn")  # the challenger plays on
    assert hand(g, 1) == ["blue 1", "blue 2", "wild"]


# The variants whose caught player takes another penalty than Classic's 2 cards, and the text that
# stands for `draw(p, 2)` in their catch rule (everything else stays word for word).
OTHER_PENALTY = {"attack": "repeat 2 do draw(p, if random(1, 100) <= option.launcher_fire_percent then "
                           "random(option.launcher_min, option.launcher_max) else 0)"}


def test_com_02_catch_window_is_one_definition_in_every_variant() -> None:
    """COM-2 is the same in every variant: the same three rules, word for word, but for the
    penalty of a variant in OTHER_PENALTY (UNO Attack!: two presses of the launcher, AT-18)."""
    com2 = {}
    for name in ("classic", "duo", "flip", "all_wild", "pocket_pizza", "no_mercy", "attack"):
        rules = yaml.safe_load((VARIANTS / f"{name}.yaml").read_text())["rules"]
        com2[name] = [r for r in rules if r.get("name", "").startswith("COM-2")]
        if name in OTHER_PENALTY:
            for rule in com2[name]:
                assert rule["do"].count(OTHER_PENALTY[name]) <= 1
                rule["do"] = rule["do"].replace(OTHER_PENALTY[name], "draw(p, 2)")
    assert len(com2["classic"]) == 3
    assert all(rules == com2["classic"] for rules in com2.values()), com2


# -- FLIP-10 -----------------------------------------------------------------------
def test_flip_10_light_round_scores_light_faces() -> None:
    g = light_game(3)
    g.arrange({0: ["red 1"],
               1: ["blue 7", "yellow draw one", "red reverse", "green skip"],
               2: ["blue flip", "wild", "wild draw two"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert events(g, "round_end")[0] == {"player": 0, "points": [7 + 10 + 20 + 20 + 20 + 40 + 50, 0, 0], "team": 0}
    assert g.scores == [167, 0, 0]


def test_flip_10_dark_round_scores_dark_faces() -> None:
    g = light_game(3)
    arrange_dark(g, {0: ["pink 1"],
                     1: ["purple 7", "teal draw five", "pink reverse", "orange skip everyone"],
                     2: ["purple flip", "wild", "wild draw color"]}, discard=["pink 9"])
    answer(g, "play pink 1")
    assert events(g, "round_end")[0] == {"player": 0, "points": [7 + 20 + 20 + 30 + 20 + 40 + 60, 0, 0], "team": 0}
    assert g.scores == [197, 0, 0]


def test_flip_10_first_to_500_wins() -> None:
    g = light_game(2)
    g.scores[:] = [480, 100]
    arrange_dark(g, {0: ["pink 1"], 1: ["teal draw five"]}, discard=["pink 9"])
    answer(g, "play pink 1")
    assert g.over and g.winner == 0
    assert events(g, "game_end") == [{"player": 0, "winners": [0], "scores": [500, 100], "team": 0}]
    assert g.decision is None


# -- FLIP-11 -----------------------------------------------------------------------
def test_flip_11_alternative_scoring_each_scores_own_hand() -> None:
    g = light_game(3, options={"alternative_scoring": True})
    arrange_dark(g, {0: ["pink 1"], 1: ["purple 7", "wild draw color"], 2: ["teal skip everyone"]},
                 discard=["pink 9"])
    answer(g, "play pink 1")
    assert events(g, "round_end")[0] == {"player": 0, "points": [0, 67, 30], "team": 0}
    assert g.scores == [0, 67, 30]
    assert not g.over


def test_flip_11_alternative_scoring_lowest_wins_when_someone_reaches_500() -> None:
    g = light_game(3, options={"alternative_scoring": True})
    g.scores[:] = [120, 480, 90]
    g.arrange({0: ["red 1"], 1: ["wild draw two"], 2: ["blue 5", "blue 6"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert g.scores == [120, 530, 101]
    assert g.over and g.winner == 2


def test_flip_11_alternative_scoring_is_an_option_off_by_default() -> None:
    assert {o.name: o.enabled for o in variant("flip").options} == {"alternative_scoring": False}
    assert variant("flip").scoring.round == "winner_scores_others"
    alt = variant("flip", alternative_scoring=True).scoring
    assert (alt.round, alt.target, alt.winner) == ("each_scores_own", 500, "lowest")


# -- properties ------------------------------------------------------------------------
SEEDS = range(20)


def whole_game(seed: int, options: dict[str, bool] | None = None) -> tuple[Game, list[Any]]:
    players = 2 + seed % 5
    g = Game(variant("flip", **(options or {})), players, seed)
    agents = make_agents(["random", "greedy"] if seed % 2 else ["greedy", "random"], players, seed)
    return g, agents


@pytest.mark.parametrize("seed", SEEDS)
def test_flip_com_03_physical_cards_are_conserved_through_flips(seed: int) -> None:
    g, agents = whole_game(seed)
    flips = []

    def check(game_: Game, name: str, data: dict[str, Any]) -> None:
        assert_conserved(g, name)
        assert shows(g, g.side), name  # every card shows the face of the side in play
        if name == "flipped":
            flips.append(data["side"])

    g.watch(check)
    play_game(g, agents)
    assert g.over
    assert flips, "the game should have flipped at least once"


@pytest.mark.parametrize("seed", SEEDS)
def test_flip_08_two_flips_restore_the_exact_state(seed: int) -> None:
    g, agents = whole_game(seed)
    rng = random.Random(seed)
    for stop in sorted(rng.sample(range(1, 120), 4)):
        while g.decision is not None and g.turns < stop:
            d = g.decision
            g.apply(agents[d.player].choose(g, d))
        if g.decision is None:
            break
        before, color = snapshot(g), g.current_color
        flip(g)
        assert g.side != before[0] and snapshot(g) != before
        flip(g)
        assert snapshot(g) == before
        g.current_color = color  # a named colour is not a property of the cards
    play_game(g, agents)  # and the game still plays to its end
    assert g.over


@pytest.mark.parametrize("alternative", [False, True])
def test_flip_10_round_scores_read_the_side_in_play(alternative: bool) -> None:
    sides_scored = set()
    for seed in SEEDS:
        g, agents = whole_game(seed, {"alternative_scoring": alternative})

        def check(game_: Game, name: str, data: dict[str, Any]) -> None:
            if name != "round_end":
                return
            held = [sum(c.faces[game_.side].points for c in h) for h in game_.hands]
            w = data["player"]
            if alternative:
                expected = [0 if p == w else held[p] for p in range(game_.n)]
            else:
                expected = [sum(held) if p == w else 0 for p in range(game_.n)]
            assert data["points"] == expected
            sides_scored.add(game_.side)

        g.watch(check)
        play_game(g, agents)
        assert g.over
    assert sides_scored == {LIGHT, DARK}  # rounds ended on both sides

