"""The frames of a game's continuation: where the game stands when a player must be asked.

The whole game is programs — the variant's own (a card's `on_play`, a rule's `do:`, the
set-up) and the flow of rounds and turns built from its `round:` and `turn:` settings
(flow.py) — so a frame only ever names a program or one of its loop steps, a place in
it, and the variables it runs with. Frames are plain records: the stack machine
(machine.py) runs them, top down, and `Bind`, the one frame that waits, takes the
answer to the pending decision first.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..lang.program import Program, Step
from .actions import Decision

Env = dict[str, Any]


class Run(NamedTuple):
    """Run `program` from step `pc`; `leave`: finishing it ends a level of nesting."""

    program: Program
    pc: int
    env: Env
    leave: int


class For(NamedTuple):
    """A for loop's iterations from item `k`."""

    step: Step
    items: tuple[Any, ...]
    k: int
    env: Env


class While(NamedTuple):
    """A while loop (at most `left` more iterations), or the flow's unguarded loop (`left` None)."""

    step: Step
    env: Env
    left: int | None


class Repeat(NamedTuple):
    """A repeat loop's `left` more iterations."""

    step: Step
    env: Env
    left: int


class Drain(NamedTuple):
    """The rules queued by events, each run in turn."""


class Ask(NamedTuple):
    """A program's choice, put once the rules queued before it have run."""

    var: str
    decision: Decision
    env: Env


class Bind(NamedTuple):
    """Waiting: the answer to `decision` is bound to the variable `var`."""

    var: str
    env: Env
    decision: Decision


Frame = Run | For | While | Repeat | Drain | Ask | Bind
DRAIN = Drain()


def copy_frame(frame: Frame, copy_env: Any) -> Frame:
    """`frame` for a clone: the same, with its variables copied by `copy_env(env)` (frames
    that share an env share its copy)."""
    if type(frame) in (Drain,):
        return frame
    return type(frame)(*(copy_env(x) if type(x) is dict else x for x in frame))  # type: ignore[arg-type]
