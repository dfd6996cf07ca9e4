"""The registry every primitive is declared in, with the types their modules share.

Functions receive the game first, then their evaluated arguments; a lambda
argument arrives as a Python callable of one value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...errors import RuntimeFault
from ...lang.signature import Registry
from ..cards import Card

REGISTRY = Registry()
Env = dict[str, Any]
Pred = Callable[[Any], Any]
AT = "str{top|bottom}"  # where cards go on a zone: the type of every `at:` parameter


def word(value: str, words: tuple[str, ...], param: str) -> str:
    """`value` of a parameter that takes only `words` (checked when the game starts for a
    text written in the call; a text known only in play is checked here)."""
    if value not in words:
        raise RuntimeFault(f"{param}: must be {' or '.join(repr(w) for w in words)}, not {value!r}")
    return value


def place(zone: list[Card], cards: Sequence[Card], at: str) -> None:
    """Put `cards` (in order, the last one ending topmost) on the top or at the bottom of `zone`."""
    if word(at, ("top", "bottom"), "at") == "top":
        zone.extend(cards)
    else:
        zone[:0] = cards
