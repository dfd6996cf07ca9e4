"""Ends and scores: win_round, add_score, set_score and scoring.game_over, each
with an exact outcome (Classic with one edit)."""

from __future__ import annotations

import pickle
from pathlib import Path

from tests.helpers import answer, classic_with, events, pending
from unodsl import Game, load_variant

RULE = "rules:\n  - name: test rule\n    on: card_played\n    if: card.rank == 7\n    do: {do}\n"


def with_rule(tmp_path: Path, do: str, extra: tuple[str, str] | None = None) -> Game:
    path = classic_with(tmp_path, "rules:\n", RULE.format(do=do))
    if extra is not None:
        text = path.read_text().replace(*extra)
        path.write_text(text)
    return Game(load_variant(path), 3, 0, record=True)


def test_win_round_ends_the_round_after_the_turn_and_scores_it(tmp_path: Path) -> None:
    g = with_rule(tmp_path, "win_round(next)")
    g.arrange({0: ["red 7", "blue 1", "blue 2"], 1: ["red 2", "blue 3"], 2: ["green 5", "green 6"]}, discard=["red 3"])
    answer(g, "play red 7")
    ends = events(g, "round_end")
    assert [(e["player"], e["points"]) for e in ends] == [(1, [0, 1 + 2 + 5 + 6, 0])]
    assert g.round == 2


def test_add_score_and_set_score_change_the_score_at_once(tmp_path: Path) -> None:
    g = with_rule(tmp_path, "add_score(player, 30); add_score(next, 5); set_score(next, 2)")
    g.arrange({0: ["red 7", "blue 1", "blue 2"], 1: ["red 2", "blue 3"], 2: ["green 5", "green 6"]}, discard=["red 3"])
    answer(g, "play red 7")
    assert g.scores == [30, 2, 0]
    assert pending(g)[0] == 1


def test_game_over_ends_the_game_when_it_holds_after_a_round(tmp_path: Path) -> None:
    g = with_rule(tmp_path, "add_score(player, 1)",
                  ("  winner: highest\n", "  winner: highest\n  game_over: round_number == 1\n"))
    g.arrange({0: ["red 1"], 1: ["red 2", "blue 3"], 2: ["green 5", "green 6"]}, discard=["red 3"])
    answer(g, "play red 1")
    assert g.over and g.winner == 0
    assert events(g, "game_end") == [{"player": 0, "winners": [0], "scores": [2 + 3 + 5 + 6, 0, 0], "team": 0}]


def test_players_out_are_state_a_clone_and_a_pickle_keep(tmp_path: Path) -> None:
    g = with_rule(tmp_path, "eliminate(next)")
    g.arrange({0: ["red 7", "blue 1", "blue 2"], 1: ["red 2", "blue 3"], 2: ["green 5", "green 6", "red 9"]},
              discard=["red 3"])
    answer(g, "play red 7")
    assert g.out == {1} and pending(g)[0] == 2
    for copy in (g.clone(), pickle.loads(pickle.dumps(g))):
        assert copy.out == {1}
        answer(copy, "play red 9")
        assert copy.decision is not None and copy.decision.player == 0
    assert g.decision is not None and g.decision.player == 2
