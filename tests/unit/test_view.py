"""A player's view holds what a person at the table sees, and no more."""

from __future__ import annotations

from tests.helpers import game


def test_view_of_a_one_sided_game_hides_opponents_cards() -> None:
    g = game("classic", 3)
    g.arrange({0: ["red 1", "red 2", "blue 3"], 1: ["green 4", "wild"], 2: ["yellow 5"]}, discard=["red 9"])
    seen = g.view(0)
    assert sorted(c.label for c in seen.hand) == ["blue 3", "red 1", "red 2"]
    assert [(o.seat, o.hand_size, o.backs) for o in seen.opponents] == [(1, 2, ()), (2, 1, ())]
    assert seen.top == "red 9" and seen.current_color == "red"
    assert seen.draw_pile_back is None
    assert seen.draw_pile_size == 108 - 7


def test_view_of_a_two_sided_game_shows_the_outward_faces() -> None:
    g = game("flip", 2, seed=0)
    seen = g.view(0)
    other = seen.opponents[0]
    assert other.backs == tuple(sorted(c.back.label for c in g.hands[1] if c.back))
    assert len(other.backs) == other.hand_size
    assert seen.draw_pile_back == g.draw_pile[-1].back.label
    assert seen.side == "light"
    # What the opponent holds face up is not in the view.
    assert all(not hasattr(o, "hand") for o in seen.opponents)
