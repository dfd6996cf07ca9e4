"""House rules that hold at a real table (issue 26): players out, ties, rules on
round_end, turns outside a turn, the UNO catch window, and recording that never
changes a game. Each test is named after what it pins; each failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import answer, assert_conserved, events, game, hand, pending
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.engine.primitives import queries

# 24 cards no one can play on a red top (all yellow and green, no wilds).
FULL = [f"{c} {r}" for c in ("yellow", "green") for r in range(1, 10)] + [f"yellow {a}" for a in ("skip",
        "reverse", "draw two")] + [f"green {a}" for a in ("skip", "reverse", "draw two")]


def overlay(tmp_path: Path, text: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


MERCY = """
rules:
  - name: "Mercy: 25 cards or more and you are out of the round"
    on: hand_changed
    if: size >= 25
    do: eliminate(player)
"""


def mercy_with(tmp_path: Path, base: str, extra: str = "", players: int = 3) -> Game:
    v = load_variant(overlay(tmp_path, f"extends: {base}\nname: test\n{MERCY}{extra}"))
    return Game(v, players, record=True)


# -- 1: table walks skip players who are out -----------------------------------------
def test_pass_hands_passes_only_among_players_still_in(tmp_path: Path) -> None:
    g = mercy_with(tmp_path, "house/seven_zero")
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["red 0", "red 2", "blue 3"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")  # player 1 draws to 26 and is out
    assert g.out == {1}
    answer(g, "play red 0")  # every hand still in passes to the next player still in
    assert g.out == {1} and g.hands[1] == []
    assert hand(g, 0) == ["blue 3", "red 2"] and hand(g, 2) == ["red 5", "red 6"]
    assert pending(g)[0] == 0  # play passes over player 1
    assert_conserved(g)


def test_redeal_deals_only_to_players_still_in(tmp_path: Path) -> None:
    extra = """
  - name: a zero redeals
    on: card_played
    if: card.rank == 0
    do: redeal()
"""
    g = mercy_with(tmp_path, "classic", extra)
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["red 0", "blue 2", "blue 3"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")
    answer(g, "play red 0")
    assert g.out == {1} and g.hands[1] == []
    assert sorted(len(h) for h in g.hands) == [0, 2, 2]
    assert_conserved(g)


def test_no_card_goes_to_a_player_who_is_out(tmp_path: Path) -> None:
    """draw, give and swap_hands leave a player who is out with no cards."""
    extra = """
  - name: the player out is dealt more
    on: eliminated
    do: |
      draw(player, 2); swap_hands(player, next_of(player));
      give(next_of(player), player, top_of(next_of(player).hand))
"""
    g = mercy_with(tmp_path, "classic", extra)
    g.arrange({0: ["red draw two", "red 6", "red 7"], 1: FULL[:24], 2: ["red 5", "blue 2", "blue 3"]},
              discard=["red 3"], draw=["blue 7", "blue 8", "blue 9", "green 4", "green 5"])
    answer(g, "play red draw two")
    assert g.out == {1} and g.hands[1] == []
    assert hand(g, 2) == ["blue 2", "blue 3", "red 5"]
    assert_conserved(g)


def test_choose_player_never_offers_a_player_who_is_out(tmp_path: Path) -> None:
    g = mercy_with(tmp_path, "house/seven_zero")
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["red 7", "blue 2", "blue 3"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")
    answer(g, "play red 7")  # a seven swaps with a chosen opponent: only player 0 is in
    assert hand(g, 2) == ["red 5", "red 6"] and g.hands[1] == []


# -- 2: ties, tie-breaks, and players out never win ------------------------------------
ONE_ROUND = "\nscoring: {game_over: \"true\"}\n"


def test_game_end_names_tied_winners_without_a_player_out(tmp_path: Path) -> None:
    g = mercy_with(tmp_path, "classic", ONE_ROUND)
    # Player 2 hits player 0 (24 cards) with a Draw Two: player 0 is out. Player 1 then
    # goes out while player 2 holds only a 0: the round scores 0 points, a three-way
    # tie on the totals, but player 0 is out: players 1 and 2 share the game.
    g.arrange({0: FULL[:24], 1: ["red 4"], 2: ["red draw two", "red 0", "blue 0"]},
              discard=["red 3"], draw=["blue 7", "blue 8"], current=2)
    answer(g, "play red draw two")
    assert g.out == {0}
    answer(g, "play red 4")
    assert g.over and g.scores == [0, 0, 0]
    assert g.winners == (1, 2)
    assert events(g, "game_end") == [{"player": 1, "winners": [1, 2], "scores": [0, 0, 0], "team": 1}]


def test_a_tie_break_decides_between_tied_players(tmp_path: Path) -> None:
    g = mercy_with(tmp_path, "classic", "\nscoring: {game_over: \"true\", tie_break: \"-count(hand)\"}\n")
    g.arrange({0: FULL[:24], 1: ["red 4"], 2: ["red draw two", "red 0", "blue 0"]},
              discard=["red 3"], draw=["blue 7", "blue 8"], current=2)
    answer(g, "play red draw two", "play red 4")
    assert g.winners == (1,) and g.winner == 1  # no cards left beats two


# -- 3: round_end rules run before the game-end check ----------------------------------
def test_add_score_in_a_round_end_rule_counts_in_the_last_round(tmp_path: Path) -> None:
    v = load_variant(overlay(tmp_path, """extends: classic
name: bonus
scoring: {target: null, game_over: "round_number == 2"}  # no target: only game_over ends it
rules:
  - name: bonus
    on: round_end
    do: add_score(player, 1000)
"""))
    g = Game(v, 2, 5, record=True)
    play_game(g, make_agents(["greedy", "greedy"], 2, 5))
    ends = events(g, "round_end")
    assert len(ends) == 2
    assert sum(g.scores) == sum(sum(e["points"]) for e in ends) + 2000


# -- 5: the UNO catch window ends when the next turn starts ----------------------------
def test_com_02_a_missed_uno_after_a_first_card_dump_is_caught_before_the_next_turn() -> None:
    from tests.scenario.test_duo import P1, drafted
    p2 = ["green 1", "green 2", "green 3", "green 4", "green 5", "green 8", "red 3"]
    g = drafted(P1, p2, "green reverse")
    answer(g, "yes", "green 8", "green 5", "green 4", "green 3", "green 2")  # green 1 goes down last
    assert pending(g) == (1, "ask", "call_uno")
    answer(g, "no")
    # Player 1 plays first (after a dump), and may catch player 2 before that turn.
    assert pending(g) == (0, "ask", "catch_uno")
    answer(g, "yes")
    assert len(g.hands[1]) == 3
    assert pending(g)[:2] == (0, "turn")


def test_com_02_a_jumper_who_misses_uno_is_caught_before_the_next_turn() -> None:
    g = game("house/jump_in", 4)
    g.arrange({0: ["red 5", "red 1", "red 2"], 1: ["blue 1", "blue 2"], 2: ["red 5", "green 2"],
               3: ["yellow 1", "yellow 2"]}, discard=["red 9"], draw=["blue 7", "blue 8"])
    answer(g, "play red 5", "play red 5", "no")  # player 2 jumps in to one card, no call
    assert pending(g) == (3, "ask", "catch_uno")  # before player 3's turn
    answer(g, "yes")
    assert len(g.hands[2]) == 3


# -- 7: only opponents catch a missed UNO -----------------------------------------------
def test_com_02_a_partner_never_catches_their_partners_missed_uno() -> None:
    g = game("house/partners", 4)
    g.arrange({0: ["red 5", "red 1"], 1: ["blue 1", "blue 2"], 2: ["green 1", "green 2"],
               3: ["yellow 1", "yellow 2"]}, discard=["red 9"], dealer=3)
    answer(g, "play red 5", "no")
    asked = []
    while g.decision is not None and g.decision.kind == "ask" and g.decision.prompt == "catch_uno":
        asked.append(g.decision.player)
        answer(g, "no")
    assert asked == [1, 3]


def test_opponents_of_a_player() -> None:
    g = game("house/partners", 4)
    assert queries.opponents_of(g, 0) == [1, 3] and queries.opponents_of(g, 1) == [2, 0]
    c = game("classic", 3)
    assert queries.opponents_of(c, 1) == [2, 0]


# -- 8, 10b: rules queued by the turn's draw run before its turn_end -------------------
def test_eliminate_from_a_hand_changed_rule_takes_effect_before_turn_end(tmp_path: Path) -> None:
    extra = """
  - name: still in with 25 cards at the end of the turn
    on: turn_end
    if: count(hand) >= 25
    do: flag(player, "in_with_25")
"""
    v = load_variant(overlay(tmp_path, f"extends: house/draw_two_stacking\nname: t\n{MERCY}{extra}"))
    g = Game(v, 3, record=True)
    no_draw_two = [*FULL[:20], FULL[21], FULL[22], "blue 1"]
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: no_draw_two, 2: ["red 1", "blue 2"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")  # player 1 can't answer and takes the penalty: 25 cards, out
    assert g.out == {1}
    assert "in_with_25" not in g.flags[1]
    assert pending(g)[0] == 2


PLAY_AGAIN_ON_PENALTY = """
rules:
  - name: a penalty taken earns another turn
    on: penalty_taken
    do: play_again()
  - name: "COM-2: a missed UNO can be caught until the next turn starts"
    remove: true  # so that no rule waits for a turn's events
"""


@pytest.mark.parametrize("record", [False, True])
def test_rules_queued_by_a_penalty_run_in_the_penalised_players_turn(tmp_path: Path, record: bool) -> None:
    v = load_variant(overlay(tmp_path, f"extends: house/draw_two_stacking\nname: t\n{PLAY_AGAIN_ON_PENALTY}"))
    g = Game(v, 3, record=record)
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: ["blue 1", "blue 4", "red 9"], 2: ["red 1", "blue 2"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")  # player 1 can't answer: the penalty is taken
    assert pending(g)[:2] == (1, "turn")  # the penalised player plays again, recorded or not
