"""Chance: effects that draw from the game's seeded generator (`random`, `random_pick`).

They are effects, not queries, although they change nothing on the table: each
call moves the generator on, so a condition (`legal_if`, `match`, a rule's
`if:`) that used one would answer differently each time it is asked, and the
checker refuses effects in conditions. The same seed gives the same numbers;
a resampled game's generator is reseeded, so its numbers are unknown.

Each docstring is the function's entry in the generated language reference.
"""

from __future__ import annotations

from math import floor
from typing import Any

from ...errors import RuntimeFault
from ...lang.signature import Says
from ..reach import Game
from .registry import REGISTRY

effect = REGISTRY.effect


@effect("low: int, high: int", returns="int",
        says=Says(noun="a random number from {low} to {high}", act=("", "draw a random number from {low} to {high}")))
def random(g: Game, low: int, high: int) -> int:
    """A whole number from `low` to `high`, both included, each as likely, from the
    game's seeded generator (`draw(next, random(0, 6))`). Not allowed in conditions."""
    if low > high:
        raise RuntimeFault(f"random({low}, {high}): the low end is above the high end")
    return low + floor(g.rng.random() * (high - low + 1))


@effect("items: any", returns="any", elem="element", none=True,
        says=Says(noun="{items:one_of} picked at random", act=("", "pick {items:one_of} at random")))
def random_pick(g: Game, items: list[Any]) -> Any:
    """One of `items` (cards or players), each as likely, from the game's seeded
    generator; none if there are none. Not allowed in conditions."""
    if not items:
        return None
    return items[floor(g.rng.random() * len(items))]
