"""Functions a variant defines (`define:`, issue 41 item 4), played: a function used in
the turn's match, in a rule's condition and in an effect, the same on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import answer, assert_conserved, hand
from unodsl import Game, load_variant, make_agents
from unodsl.tools.log import event_line

PAIRS = """extends: classic
name: Pairs
define:
  same_number:
    params: {a: card, b: card}
    is: a.rank != none and a.rank == b.rank
  pairs:
    params: {cs: cards, t: card}
    is: count(cs, c -> same_number(c, t))
    says: "how many of {cs} have the number of {t}"
turn:
  match: card.wild or card.color == current_color or card.symbol == top.symbol or pairs(hand, card) >= 3
rules:
  - name: a pair left in hand makes the next player draw as many as match the card played
    on: card_played
    if: count(hand) <= 4 and any(hand, c -> pairs(hand, c) >= 2)
    do: draw(next, pairs(hand, card) + 1)
"""

BACKENDS = ("closures", "compiled")


def pairs(tmp_path: Path, backend: str) -> Game:
    path = tmp_path / "pairs.yaml"
    path.write_text(PAIRS)
    return Game(load_variant(path, backend=backend), 2, 0, record=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_function_in_a_rule_reads_its_arguments_where_the_call_is(tmp_path: Path, backend: str) -> None:
    g = pairs(tmp_path, backend)
    g.arrange({0: ["red 4", "blue 5", "green 5", "yellow 9"], 1: ["blue 1", "red 8"]},
              discard=["red 3"], draw=["green 1", "green 2", "green 3", "yellow 1"])
    answer(g, "play red 4")  # a pair of fives stays in hand: pairs(hand, red 4) is 0, so 1 card
    assert sorted(hand(g, 1)) == ["blue 1", "green 1", "red 8"] and g.decision.player == 1
    assert_conserved(g)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_lambda_in_a_function_does_not_capture_the_callers_variable(tmp_path: Path, backend: str) -> None:
    g = pairs(tmp_path, backend)  # no pair: `c` of the rule is not the function's own `c`
    g.arrange({0: ["red 4", "blue 5", "green 6", "yellow 9"], 1: ["blue 1", "red 8"]},
              discard=["red 3"], draw=["green 1", "green 2", "green 3", "yellow 1"])
    answer(g, "play red 4")
    assert sorted(hand(g, 1)) == ["blue 1", "red 8"] and g.decision.player == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_function_in_the_match_makes_a_triple_playable(tmp_path: Path, backend: str) -> None:
    g = pairs(tmp_path, backend)
    g.arrange({0: ["blue 7", "green 7", "yellow 7", "green 2"], 1: ["blue 1", "blue 2"]},
              discard=["red 3"], draw=["green 1", "green 2", "green 3", "yellow 1"])
    playable = sorted(o.card.label for o in g.decision.options if hasattr(o, "card"))
    assert playable == ["blue 7", "green 7", "yellow 7"]  # three sevens match anything; the 2 does not


def test_both_backends_play_the_same_games(tmp_path: Path) -> None:
    path = tmp_path / "pairs.yaml"
    path.write_text(PAIRS)
    logs = []
    for backend in BACKENDS:
        variant = load_variant(path, backend=backend)
        runs = []
        for seed in range(6):
            g = Game(variant, 3, seed, record=True)
            g.autoplay(make_agents(["greedy", "random"], 3, seed), rounds=1)
            assert g.events is not None
            runs.append([event_line(name, data) for name, data in g.events])
        logs.append(runs)
    assert logs[0] == logs[1]
    assert any('"card_drawn"' in line for run in logs[0] for line in run)
