"""The compiled form of the language, shared by the compiler, the model and the engine.

An expression compiles to a closure `Fn(game, env) -> value`. An effect program
compiles to a tuple of steps that the engine runs one by one, so that a step may
stop and wait for a player's decision. A step is a tuple whose first item is an
opcode:

    (DO, fn)                       evaluate fn for its effect
    (LET, name, fn)                bind a variable
    (CHOOSE, name, fn)             fn gives a Decision; its answer is bound to name
    (IF, test, then, orelse)       two sub-programs
    (FOR, var, items_fn, body)     body once per item
    (WHILE, test, body)            body while test holds (at most WHILE_GUARD times)
    (REPEAT, count_fn, body)       body count times
    (LOOP, test, body)             body while test holds, unguarded: the game's own
                                   flow (rounds, turns), which has guards of its own

A lambda given to a query is a Python callable of one value. One given to an
effect is a `Lambda`, plain data, since an effect may keep it in the game's state
(a stackable draw keeps the test of the cards that answer it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

Fn = Callable[[Any, dict[str, Any]], Any]

DO, LET, CHOOSE, IF, FOR, WHILE, REPEAT, LOOP = range(8)
Step = tuple[Any, ...]
Program = tuple[Step, ...]


class Lambda(NamedTuple):
    """`param -> body` as data: the body's closure (the variant's) and a copy of the
    variables it was written among. `Game.call` applies it to a value."""

    param: str
    body: Fn
    env: dict[str, Any]
