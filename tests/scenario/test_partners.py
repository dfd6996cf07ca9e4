"""Scenario tests for 2 v 2 partnership UNO (variants/house/partners.yaml):
partners sit opposite, a team wins the round when one of its players goes out
and scores the other team's hands, and the first team to 500 wins."""

from __future__ import annotations

import pytest

from tests.helpers import answer, events, game, pending, variant
from unodsl import Game, UnoDslError
from unodsl.engine.primitives import names, queries


def partners() -> Game:
    return game("house/partners", 4)


def test_partners_sit_opposite() -> None:
    g = partners()
    assert [g.team(p) for p in range(4)] == [0, 1, 0, 1]
    assert [names.partner(g, {"player": p}) for p in range(4)] == [2, 3, 0, 1]
    assert names.teammates(g, {"player": 1}) == [3]
    assert [queries.team_of(g, p) for p in range(4)] == [0, 1, 0, 1]


def test_opponents_are_the_other_team_and_others_include_the_partner() -> None:
    g = partners()
    assert names.opponents(g, {"player": 0}) == [1, 3]
    assert queries.others(g, 0) == [1, 2, 3]


def test_a_team_wins_the_round_when_one_of_its_players_goes_out_and_scores_the_other_team() -> None:
    g = partners()
    g.arrange({0: ["red 5"], 1: ["blue 9", "wild"], 2: ["green 7", "green 8"], 3: ["yellow 2"]},
              discard=["red 3"], dealer=3)
    answer(g, "play red 5")
    # Team 0 (seats 0 and 2) scores the other team's hands: 9 + 50 + 2 = 61; seat 2's own
    # cards count for no one.
    assert [(e["player"], e["points"], e["team"]) for e in events(g, "round_end")] == [(0, [61, 0, 61, 0], 0)]
    assert g.scores == [61, 0, 61, 0]


def test_the_partner_of_the_player_out_shares_the_win() -> None:
    g = partners()
    g.arrange({0: ["blue 1", "blue 2"], 1: ["red 5"], 2: ["green 7"], 3: ["yellow 2", "yellow 3"]},
              discard=["red 3"], current=1, dealer=0)
    answer(g, "play red 5")
    assert events(g, "round_end")[-1]["team"] == 1
    assert g.scores == [0, 10, 0, 10]  # 1 + 2 + 7


def test_the_first_team_to_500_wins_the_game() -> None:
    g = partners()
    g.scores[:] = [480, 490, 480, 490]
    g.arrange({0: ["red 5"], 1: ["blue 9", "wild"], 2: ["green 7", "green 8"], 3: ["yellow 2"]},
              discard=["red 3"], dealer=3)
    answer(g, "play red 5")
    assert g.over and g.winner == 0
    assert events(g, "game_end") == [{"player": 0, "winners": [0, 2], "scores": [541, 490, 541, 490], "team": 0}]


def test_partners_need_four_players() -> None:
    with pytest.raises(UnoDslError, match="for 4–4 players, not 6"):
        Game(variant("house/partners"), 6)


def test_a_decision_goes_to_the_player_whose_turn_it_is_partners_included() -> None:
    g = partners()
    g.arrange({0: ["red 5", "red 6"], 1: ["red 7", "blue 1"], 2: ["red 8", "blue 2"], 3: ["red 9", "blue 3"]},
              discard=["red 3"], dealer=3)
    answer(g, "play red 5", "yes")
    assert pending(g)[0] == 1
