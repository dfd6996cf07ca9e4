"""What an expression may use where it stands in a variant file (a checker's Context),
and the few limits every check shares."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import ast
from .functions import Function
from .narrow import KindFields
from .signature import Registry

ELEMENT = {"cards": "card", "zone": "card", "players": "player"}

# Counts in effects and `repeat` are refused above this: no game needs more, and
# a huge literal (`skip(1000000000)`) would stall a game instead of failing it.
MAX_COUNT = 10_000

@dataclass
class Context:
    """What an expression may use where it stands in the variant file."""

    registry: Registry
    env: Mapping[str, str]  # names the engine binds here (player, card, event fields)
    kinds: frozenset[str]
    colors: frozenset[str]
    effects: bool  # effects and choices allowed (an effect program), or a condition
    types: dict[int, str] = field(default_factory=dict)
    options: Mapping[str, bool | int] = field(default_factory=dict)  # option.NAME: the variant's option values
    sides: int = 1  # sides of the deck: flip() needs two
    known: frozenset[str] = frozenset()  # expressions never none here (`card.rank` of a numbered kind)
    # The only values some expressions can take, for `x == literal` that never holds (a warning):
    # "card.NAME" for attribute NAME of any card, or an event field's name; each maps to
    # (what it is, for the message: "`kind` of a choice", its values in the order to show them).
    domains: Mapping[str, tuple[str, tuple[Any, ...]]] = field(default_factory=dict)
    warnings: list[tuple[ast.At, str, str | None]] = field(default_factory=list)
    kind_fields: KindFields = field(default_factory=dict)  # what a kind test guarantees (narrow.py)
    functions: Mapping[str, Function | None] = field(default_factory=dict)  # `define:` (None: in error)
    expansions: dict[int, ast.Node] = field(default_factory=dict)  # a call of a function → its body put in place
    zones: Mapping[str, bool] = field(default_factory=dict)  # the zones of `zones:` → one per player?
    nullable: bool = False  # after check(): the expression's value may be none
