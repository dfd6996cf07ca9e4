"""What a primitive may be declared as, as data, so that how it runs and how generated code
writes it are both made from one declaration (never a second body as Python text):

- Reads: a built-in name, or a query, that reads a field of the game (`top`, `hand`,
  `current_color`, `flagged`): its function and its text are made here, side by side;
- Fold: a function over items and a test (`any`, `all`, `count`, `filter`): its function
  and the comprehension written where the test is a lambda written in the call
  (lang/nodes/lambdas.py declares the four and writes them).
"""

from __future__ import annotations

import keyword
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..program import Fn
from .base import literal


def _name(text: str) -> str:
    """A field, variable or parameter name of a declaration: a plain Python name."""
    if not text.isidentifier() or keyword.iskeyword(text):
        raise ValueError(f"not a name a declaration may read: {text!r}")
    return text


@dataclass(frozen=True, slots=True)
class Reads:
    """A field of the game a built-in name or a query reads:

        Reads("current_color")                       g.current_color
        Reads("hands", at="player")                  g.hands[e['player']]  (a name: `at` is a
                                                     variable; a query: one of its parameters)
        Reads("discard_pile", last=True)             its last item, or none when it is empty
        Reads("seats_from", at="player", call=True)  g.seats_from(e['player']): a method called,
                                                     its result as a list (as it is, where only iterated)
        Reads("flags", at="who", has="flag")         a query: whether its parameter `flag` is in
                                                     g.flags[who]
    """

    field: str
    at: str | None = None
    last: bool = False
    call: bool = False
    has: str | None = None

    def __post_init__(self) -> None:
        for text in (self.field, self.at, self.has):
            if text is not None:
                _name(text)
        if ((self.call or self.has) and self.at is None) or (self.last and (self.at or self.call or self.has)):
            raise ValueError(f"not a shape Reads declares: {self}")

    # -- how it runs --------------------------------------------------------
    def getter(self) -> Fn:
        """A name's function (game, env) -> value."""
        get, at = operator.attrgetter(self.field), self.at
        if self.last:
            def last(g: Any, e: dict[str, Any]) -> Any:
                items = get(g)
                return items[-1] if items else None
            return last
        if at is None:
            return lambda g, e: get(g)
        if self.call:
            return lambda g, e: list(get(g)(e[at]))
        if self.has is not None:
            raise ValueError(f"a name reads no parameter `has`: {self}")
        return lambda g, e: get(g)[e[at]]

    def query(self, params: tuple[str, ...]) -> Callable[..., Any]:
        """A query's function (game, *arguments) -> value; `params`: its parameters in order,
        `at` and `has` among them (the only shape a query declares: `has` in the field at `at`)."""
        if self.has is None or self.at is None or self.call or sorted(params) != sorted((self.at, self.has)):
            raise ValueError(f"a query reads a field by its parameters: {self}, {params}")
        get = operator.attrgetter(self.field)
        if params[0] == self.at:
            return lambda g, at, has: has in get(g)[at]
        return lambda g, has, at: has in get(g)[at]

    # -- how it is written ----------------------------------------------------
    def text(self, at: str | None = None, has: str | None = None, items: bool = False) -> str:
        """Python over `g` (and `e`) meaning what getter or query computes: `at` and `has` are
        the texts of a query's arguments (a name's `at` reads its variable); `items`: the
        value is only iterated over (a method's result as it is)."""
        field = f"g.{self.field}"
        if self.last:
            return f"({field}[-1] if {field} else None)"
        if self.at is None:
            return field
        key = at if at is not None else f"e[{literal(self.at)}]"
        if self.call:
            return f"{field}({key})" if items else f"list({field}({key}))"
        if self.has is not None:
            return f"{has} in {field}[{key}]"
        return f"{field}[{key}]"


class Fold(NamedTuple):
    """A function over items and a test, one of `any`, `all`, `count`, `filter`: `run` is the
    function the interpreter calls (game, items, test), `text` the comprehension generated
    code writes where the test is a lambda written in the call, over {items}, {var} (the
    lambda's parameter) and {body} (its body)."""

    run: Callable[..., Any]
    text: str
