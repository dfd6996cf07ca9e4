"""A choice whose own options made events: the rules those events queued run first, and
the choice waits for them (an `Ask` frame), then is asked. Both backends alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import answer, hand, pending
from unodsl import Game, load_variant

GIFT = """\
extends: classic
name: Gift sevens
cards:
  number:
    on_play: |
      if card.rank == 7 and count(hand) > 0 then
        give(player, next, choose_card(draw(player, 2)))
      else if card.rank == 8 and count(hand) > 0 then
        give(player, next, choose_card(draw(player, 1)))
rules:
  - name: a drawn card may be shown
    on: card_drawn
    do: if ask(player, "show") then flag(player, "shown")
"""


def _game(tmp_path: Path, backend: str) -> Game:
    path = tmp_path / "gift.yaml"
    path.write_text(GIFT)
    return Game(load_variant(path, backend=backend), 3, 0, record=True)


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_rules_queued_by_a_choices_options_are_asked_before_it(tmp_path: Path, backend: str) -> None:
    g = _game(tmp_path, backend)
    g.arrange({0: ["red 7", "red 2", "red 3"], 1: ["blue 2", "red 5"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"], draw=["yellow 1", "yellow 2", "green 3"])
    answer(g, "play red 7")  # draws two cards, each a card_drawn: the rule asks twice first
    assert pending(g) == (0, "ask", "show")
    answer(g, "yes")
    assert pending(g) == (0, "ask", "show")
    answer(g, "no")
    assert pending(g) == (0, "card", "pick a card")
    assert [c.label for c in g.decision.options] == ["yellow 1", "yellow 2"]  # type: ignore[union-attr]
    answer(g, "yellow 1")
    assert hand(g, 0) == ["red 2", "red 3", "yellow 2"]
    assert hand(g, 1) == ["blue 2", "red 5", "yellow 1"]
    assert g.flags[0] == {"shown"}
    assert pending(g)[:2] == (1, "turn")
    assert g.events is not None
    chosen = [(d["kind"], d["value"]) for name, d in g.events if name == "choice"]
    assert [(k, getattr(v, "label", v)) for k, v in chosen] == [
        ("turn", "red 7"), ("ask", True), ("ask", False), ("card", "yellow 1")]


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_a_put_off_choice_with_one_option_takes_it_once_the_rules_have_run(tmp_path: Path, backend: str) -> None:
    g = _game(tmp_path, backend)
    g.arrange({0: ["red 8", "red 2", "red 3"], 1: ["blue 2", "red 5"], 2: ["blue 5", "blue 6"]},
              discard=["red 9"], draw=["yellow 1", "green 3"])
    answer(g, "play red 8")
    assert pending(g) == (0, "ask", "show")
    answer(g, "yes")  # the card to give is the one drawn: taken without asking
    assert hand(g, 0) == ["red 2", "red 3"]
    assert hand(g, 1) == ["blue 2", "red 5", "yellow 1"]
    assert pending(g)[:2] == (1, "turn")
