"""What designers had to work around, said plainly (issue 26, items 6 and 11-15): a
turn's draw count and cap as expressions, answers a rule can test, a game without a
target, players out of the game, cards shown to everyone, deals to the right and
many cards moved at once. Each test failed before the language could say it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.helpers import answer, assert_conserved, events, hand, pending
from unodsl import Game, load_variant
from unodsl.errors import VariantError, VariantRuntimeError


def variant_of(tmp_path: Path, text: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def classic(tmp_path: Path, text: str, players: int = 3) -> Game:
    return Game(load_variant(variant_of(tmp_path, f"extends: classic\nname: t\n{text}")), players, record=True)


def errors_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(VariantError) as err:
        load_variant(variant_of(tmp_path, f"extends: classic\nname: t\n{text}"))
    return str(err.value)


# -- 11: the turn's draw --------------------------------------------------------------------
def test_the_turns_draw_count_is_an_expression(tmp_path: Path) -> None:
    g = classic(tmp_path, "turn: {draw: {count: 'count(hand) + 1', then: keep}}")
    g.arrange({0: ["blue 1", "blue 2"], 1: ["green 1"], 2: ["green 2"]}, discard=["red 3"],
              draw=["yellow 1", "yellow 2", "yellow 3", "yellow 4"])
    # Player 0 has no red card and no wild: drawing is the only option, and it draws 2 + 1.
    assert hand(g, 0) == ["blue 1", "blue 2", "yellow 1", "yellow 2", "yellow 3"]
    assert [d["size"] for d in events(g, "hand_changed")][:1] == [5]


def test_a_random_draw_count_comes_from_the_games_generator(tmp_path: Path) -> None:
    path = variant_of(tmp_path, "extends: classic\nname: t\nturn: {draw: {count: 'random(0, 6)', then: keep}}\n")
    sizes = []
    for _ in range(2):
        g = Game(load_variant(path), 2, 11)
        g.arrange({0: ["blue 1"], 1: ["green 1"]}, discard=["red 3"])
        sizes.append(len(g.hands[0]))
    assert sizes[0] == sizes[1] and 1 <= sizes[0] <= 7


def test_drawing_until_playable_has_no_cap_unless_one_is_given(tmp_path: Path) -> None:
    unplayable = [f"{c} {r}" for c in ("blue", "green") for r in (1, 2, 4, 6, 7, 8)]  # 12 cards
    g = classic(tmp_path, "turn: {draw: {until_playable: true, then: keep}}")
    g.arrange({0: ["blue 9"], 1: ["green 9"], 2: ["green 8"]}, discard=["red 3"], draw=[*unplayable, "red 5"])
    assert len(g.hands[0]) == 1 + 13  # the old default stopped after 10


def test_the_cap_of_a_draw_until_playable_is_an_expression(tmp_path: Path) -> None:
    unplayable = [f"{c} {r}" for c in ("blue", "green") for r in (1, 2, 4, 6, 7, 8)]
    g = classic(tmp_path, "turn: {draw: {until_playable: true, max: '5 - count(hand)', then: keep}}")
    g.arrange({0: ["blue 9"], 1: ["red 9", "red 7"], 2: ["green 8"]}, discard=["red 3"], draw=[*unplayable, "red 5"])
    assert len(g.hands[0]) == 5  # 1 held, then 4 drawn: the cap is read as the draw begins


def test_a_negative_draw_count_is_a_positioned_runtime_error(tmp_path: Path) -> None:
    g = classic(tmp_path, "turn: {draw: {count: '1 - count(hand) * 2'}}")
    with pytest.raises(VariantRuntimeError) as err:
        g.arrange({0: ["blue 1", "blue 2"], 1: ["green 1"], 2: ["green 2"]}, discard=["red 3"])
    assert "v.yaml:3:" in str(err.value) and "0 or more" in str(err.value)


# -- 12: answers a rule can test ------------------------------------------------------------
DREW = """
rules:
  - name: a player who chose to draw
    on: choice
    if: kind == "turn" and value == "draw"
    do: flag(player, "drew")
  - name: a red card played
    on: choice
    if: kind == "turn" and value != "draw" and value.color == "red"
    do: flag(player, "played_red")
"""


def test_a_rule_can_tell_that_a_player_chose_to_draw(tmp_path: Path) -> None:
    g = classic(tmp_path, DREW)
    g.arrange({0: ["red 1", "blue 2"], 1: ["green 1", "red 7"], 2: ["green 2"]}, discard=["red 3"],
              draw=["yellow 9"])
    answer(g, "draw")
    assert "drew" in g.flags[0]
    answer(g, "play red 7")
    assert "played_red" in g.flags[1] and "drew" not in g.flags[1]
    assert events(g, "choice")[0]["value"] == "draw"


def test_comparing_an_answer_with_a_text_it_never_is_is_refused(tmp_path: Path) -> None:
    text = "rules:\n  - name: x\n    on: choice\n    if: value == \"drwa\"\n    do: flag(player, \"x\")\n"
    message = errors_of(tmp_path, text)
    assert "v.yaml:6:18: error" in message and "never true" in message and "did you mean 'draw'" in message


def test_an_answer_may_equal_a_colour(tmp_path: Path) -> None:
    g = classic(tmp_path, "rules:\n  - name: x\n    on: choice\n    if: kind == \"color\" and value == \"green\"\n"
                "    do: flag(player, \"green\")\n")
    g.arrange({0: ["wild", "blue 2", "blue 3"], 1: ["green 1"], 2: ["green 2"]}, discard=["red 3"])
    answer(g, "play wild", "green")
    assert "green" in g.flags[0]


# -- 13: a game without a target, and players out of the game --------------------------------
def test_a_one_round_game_needs_no_target(tmp_path: Path) -> None:
    g = classic(tmp_path, "scoring: {target: null, game_over: 'true'}")
    g.arrange({0: ["red 1"], 1: ["green 1", "green 2"], 2: ["green 3"]}, discard=["red 3"])
    answer(g, "play red 1")
    assert g.over and g.winners == (0,) and g.round == 1


def test_scoring_without_a_target_or_an_end_is_refused(tmp_path: Path) -> None:
    message = errors_of(tmp_path, "scoring: {target: null}")
    assert "scoring needs a `target`" in message and "v.yaml:" in message


OUT_OF_GAME = """
scoring: {target: null, game_over: "player_count == 1"}
rules:
  - name: out for good at 25 cards
    on: hand_changed
    if: size >= 25
    do: 'eliminate(player, out_of: "game")'
"""
FULL = [f"{c} {r}" for c in ("yellow", "green") for r in range(1, 10)] + [f"yellow {a}" for a in ("skip",
        "reverse", "draw two")] + [f"green {a}" for a in ("skip", "reverse", "draw two")]


def test_a_player_out_of_the_game_stays_out_and_the_last_one_standing_wins(tmp_path: Path) -> None:
    g = classic(tmp_path, OUT_OF_GAME)
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["red 1"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")  # player 1 draws to 26 and is out of the game
    answer(g, "play red 1")  # player 2 goes out: the round ends, two players are still in the game
    assert g.round == 2 and not g.over
    assert g.out == {1} and g.hands[1] == []
    assert 1 not in {d["player"] for d in events(g, "dealt") if d["count"]}  # dealt no cards
    # Round 2: player 2 reaches 25 cards too; player 0, the last one standing, wins the game.
    g.arrange({0: ["red draw two", "red 5", "red 6"], 2: FULL[:24]}, discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")
    assert g.over and g.winners == (0,) and g.out == {1, 2}


def test_eliminate_out_of_must_be_round_or_game(tmp_path: Path) -> None:
    text = ("rules:\n  - name: x\n    on: hand_changed\n    if: size >= 25\n"
            "    do: 'eliminate(player, out_of: \"games\")'\n")
    message = errors_of(tmp_path, text)
    assert 'out_of is "round" or "game", not "games"' in message and "did you mean 'game'" in message


# -- 6: where cards go is checked -----------------------------------------------------------
@pytest.mark.parametrize("call", ['eliminate(player, at: "botom")', 'move(hand, draw_pile, at: "botom")',
                                  'move_all(hand, draw_pile, at: "botom")', 'put(top, draw_pile, at: "botom")',
                                  'put_all(hand, draw_pile, at: "botom")'])
def test_at_is_top_or_bottom(tmp_path: Path, call: str) -> None:
    message = errors_of(tmp_path, f"rules:\n  - name: x\n    on: turn_end\n    do: '{call}'\n")
    assert 'at is "top" or "bottom", not "botom"' in message and "did you mean 'bottom'" in message
    assert "v.yaml:6:" in message


def test_an_at_known_only_in_play_is_checked_in_play(tmp_path: Path) -> None:
    g = classic(tmp_path, "rules:\n  - name: x\n    on: card_played\n    if: card.rank == 1\n"
                "    do: 'where = \"up\"; move(draw_pile, aside, at: where)'\n")
    g.arrange({0: ["red 1", "red 2", "red 4"], 1: ["green 1"], 2: ["green 2"]}, discard=["red 3"])
    with pytest.raises(VariantRuntimeError) as err:
        answer(g, "play red 1")
    assert "at: must be 'top' or 'bottom', not 'up'" in str(err.value) and "v.yaml:7:" in str(err.value)


# -- 14: cards shown to everyone ------------------------------------------------------------
ROULETTE = """
cards:
  wild:
    on_play: |
      named = choose_color(by: next);
      set_color(named);
      reveal(draw_until(next, c -> c.color == named));
      skip()
"""


def test_reveal_shows_the_cards_drawn_to_every_player(tmp_path: Path) -> None:
    g = classic(tmp_path, ROULETTE)
    g.arrange({0: ["wild", "red 1", "red 2"], 1: ["green 1"], 2: ["green 2"]}, discard=["red 3"],
              draw=["yellow 5", "red 8", "blue 4"])
    answer(g, "play wild", "blue")  # player 1 names blue, turns up yellow 5, red 8, blue 4
    assert [d["card"].label for d in events(g, "card_revealed")] == ["yellow 5", "red 8", "blue 4"]
    assert hand(g, 1) == ["blue 4", "green 1", "red 8", "yellow 5"]
    seen = next(o for o in g.observation(2).opponents if o.seat == 1)
    assert seen.shown == ("blue 4", "red 8", "yellow 5") and g.current_color == "blue"
    assert pending(g)[0] == 2  # player 1 lost the turn


def test_a_shown_card_stays_put_when_hidden_cards_are_dealt_again(tmp_path: Path) -> None:
    g = classic(tmp_path, ROULETTE)
    g.arrange({0: ["wild", "red 1", "red 2"], 1: ["green 1"], 2: ["green 2"]}, discard=["red 3"],
              draw=["yellow 5", "red 8", "blue 4"])
    answer(g, "play wild", "blue")
    for seed in range(5):
        world = g.resample(2, random.Random(seed))
        assert {"yellow 5", "red 8", "blue 4"} <= set(hand(world, 1))
        assert_conserved(world)
    assert g.information_state(2) != g.resample(2, random.Random(1)).information_state(0)


def test_a_shown_card_is_private_again_once_it_leaves_the_hand(tmp_path: Path) -> None:
    g = classic(tmp_path, ROULETTE)
    g.arrange({0: ["wild", "blue 3", "red 2", "red 4"], 1: ["green 1", "blue 9"], 2: ["green 2", "blue 7", "blue 6"]},
              discard=["red 3"], draw=["blue 4"])
    answer(g, "play wild", "blue")  # player 1 turns up blue 4 at once, and is skipped
    assert [c.label for c in g.shown(1)] == ["blue 4"]
    answer(g, "play blue 7", "play blue 3")
    answer(g, "play blue 4")  # player 1 plays the card everyone saw
    assert g.shown(1) == [] and g.revealed == {}


# -- 15: deals to the right, many cards moved at once ---------------------------------------
def test_redeal_deals_in_the_direction_asked(tmp_path: Path) -> None:
    g = classic(tmp_path, "cards:\n  number:\n    on_play: 'if card.rank == 0 then redeal(player, direction: -1)'\n")
    g.arrange({0: ["red 0", "blue 9", "blue 8"], 1: ["blue 1"], 2: ["green 5", "green 6"]}, discard=["red 3"])
    answer(g, "play red 0")
    # Five cards dealt from player 0 to the right: 0, 2, 1, 0, 2 (to the left, player 1 would get two).
    assert [len(h) for h in g.hands] == [2, 1, 2] and events(g, "hands_redealt")[0]["count"] == 5
    assert pending(g) == (1, "ask", "call_uno")
    assert_conserved(g)


DISCARD_ALL = """
cards:
  skip:
    on_play: 'put_all(filter(hand, c -> c.color == card.color), discard_pile, at: "bottom")'
"""


def test_put_all_moves_a_colour_at_once_and_going_out_asks_no_uno_call(tmp_path: Path) -> None:
    g = classic(tmp_path, DISCARD_ALL)
    g.arrange({0: ["red skip", "red 1", "red 2"], 1: ["green 1"], 2: ["green 2"]}, discard=["red 3"])
    answer(g, "play red skip")
    assert [d["size"] for d in events(g, "hand_changed") if d["player"] == 0][:2] == [2, 0]
    assert not any(d["prompt"] == "call_uno" for d in events(g, "choice"))
    assert events(g, "round_end")[0]["player"] == 0 and g.round == 2


def test_put_all_leaving_one_card_asks_for_the_uno_call_once(tmp_path: Path) -> None:
    g = classic(tmp_path, DISCARD_ALL)
    g.arrange({0: ["red skip", "red 1", "red 2", "blue 5"], 1: ["green 1"], 2: ["green 2"]}, discard=["red 3"])
    answer(g, "play red skip")
    assert pending(g) == (0, "ask", "call_uno")
    assert [d["size"] for d in events(g, "hand_changed") if d["player"] == 0] == [3, 1]
