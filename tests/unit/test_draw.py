"""A draw of several cards. When no one listens to card_drawn or hand_changed, the
cards are taken in one slice (table._draw); when someone does, one at a time, each
told. Both take the same cards, top first, into the same places."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from unodsl import Game, load_variant

MIRROR = Path(__file__).resolve().parents[1] / "benchmarks" / "rlcard_mirror.yaml"


def _labels(cards: list[Any]) -> list[str]:
    return [f"{c.label}#{c.id}" for c in cards]


def _games(seed: int) -> tuple[Game, Game, list[tuple[str, dict[str, Any]]]]:
    variant = load_variant(MIRROR)  # no rule listens to draws: a bare game draws quietly
    told: list[tuple[str, dict[str, Any]]] = []
    quiet = Game(variant, 2, seed)
    loud = Game(variant, 2, seed, listeners=[lambda g, name, data: told.append((name, data))],
                listen_to=["card_drawn"])
    return quiet, loud, told


@pytest.mark.parametrize("count", [2, 4, 7])
def test_a_quiet_draw_of_several_takes_the_top_cards_as_drawing_one_at_a_time_does(count: int) -> None:
    quiet, loud, told = _games(11)
    top = _labels(quiet.draw_pile[-count:])[::-1]  # the top card first
    got_quiet, got_loud = quiet.draw(1, count), loud.draw(1, count)
    assert _labels(got_quiet) == _labels(got_loud) == top
    assert [_labels([data["card"]])[0] for _, data in told] == top  # the loud draw told each card
    for a, b in ((quiet.hands[1], loud.hands[1]), (quiet.draw_pile, loud.draw_pile)):
        assert _labels(a) == _labels(b)
    assert _labels(quiet.hands[1])[-count:] == top


def test_a_draw_of_more_than_the_pile_refills_it_alike_quiet_or_loud() -> None:
    quiet, loud, _ = _games(5)
    for game in (quiet, loud):  # every card but the top onto the discard pile: a refill is needed
        game.discard_pile[:0] = game.draw_pile[2:]
        del game.draw_pile[2:]
    got_quiet, got_loud = quiet.draw(0, 5), loud.draw(0, 5)
    assert len(got_quiet) == 5
    assert _labels(got_quiet) == _labels(got_loud)
    for zone in ("draw_pile", "discard_pile"):
        assert _labels(getattr(quiet, zone)) == _labels(getattr(loud, zone))
    assert _labels(quiet.hands[0]) == _labels(loud.hands[0])


def test_a_quiet_draw_of_none_takes_nothing() -> None:
    quiet, _, _ = _games(3)
    before = _labels(quiet.draw_pile)
    assert quiet.draw(1, 0) == []
    assert _labels(quiet.draw_pile) == before


def test_a_draw_told_as_a_hand_changed_takes_the_cards_at_once_and_tells_it_once() -> None:
    quiet, loud, _ = _games(11)
    changed: list[dict[str, Any]] = []
    told = Game(quiet.variant, 2, 11, listeners=[lambda g, name, data: changed.append(data)],
                listen_to=["hand_changed"])
    got = told.draw(1, 4)
    assert _labels(got) == _labels(loud.draw(1, 4)) == _labels(quiet.draw(1, 4))
    assert changed == [{"player": 1, "size": 11}]
    assert _labels(told.hands[1]) == _labels(loud.hands[1])
