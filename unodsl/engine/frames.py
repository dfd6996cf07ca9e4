"""The frames of a game's continuation: where the game stands when a player must be asked.

The whole game is programs — the variant's own (a card's `on_play`, a rule's `do:`, the
set-up) and the flow of rounds and turns built from its `round:` and `turn:` settings
(flow.py) — so a frame only ever names a program or one of its loop steps, a place in
it, and the variables it runs with. Frames are plain records: the stack machine
(machine.py) runs them, top down, and `Bind`, the one frame that waits, takes the
answer to the pending decision first.

The engine makes a frame with `new_run((…))` and its kin, which build it in C (a
NamedTuple's own constructor is a Python function): a pause makes several, and a
search pauses at every decision it plays.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple, TypeVar

from ..lang.program import Program, Step
from .actions import Decision

Env = dict[str, Any]
F = TypeVar("F")


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
    """A while loop (at most `left` more iterations), or the flow's unguarded loop (`left` None);
    `pc`: the step of its body the iteration it stopped in goes on from (0: its test is next)."""

    step: Step
    env: Env
    left: int | None
    pc: int


class Repeat(NamedTuple):
    """A repeat loop's `left` more iterations."""

    step: Step
    env: Env
    left: int


class Drain(NamedTuple):
    """The rules queued by events, each run in turn: `rules` first, the ones of a batch
    left when one of them paused (see machine.drain), then those queued since."""

    rules: tuple[tuple[Any, Env], ...] = ()


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


# Which fields of each kind of frame hold what the game made (variables, a loop's items,
# a decision), and which its variables: the others name the variant's program or step.
_KINDS: tuple[Any, ...] = (Run, For, While, Repeat, Drain, Ask, Bind)
_HELD: dict[type, tuple[int, ...]] = {
    kind: tuple(i for i, field in enumerate(kind._fields) if field not in ("program", "step", "var", "pc", "k",
                                                                            "leave", "left"))
    for kind in _KINDS}
_ENV: dict[type, int] = {kind: kind._fields.index("env") for kind in _KINDS if "env" in kind._fields}


def copy_stack(stack: list[Frame], copy_env: Callable[[Env], Env]) -> list[Frame]:
    """The frames of `stack` for a clone: the same, with their variables copied by
    `copy_env(env)`. Frames that share an env share its copy: the flow's frames, one
    above the other, hold the same one, so a run of them asks copy_env once."""
    out: list[Frame] = []
    keep, new, where = out.append, tuple.__new__, _ENV.get
    last: Env | None = None
    copy: Env = {}
    for frame in stack:
        kind = type(frame)
        at = where(kind)
        if at is None:
            if kind is Drain and frame.rules:  # type: ignore[union-attr]
                frame = Drain(tuple((body, copy_env(env)) for body, env in frame.rules))  # type: ignore[union-attr]
            keep(frame)
            continue
        env: Env = frame[at]  # type: ignore[assignment]
        if env is not last:
            last, copy = env, copy_env(env)
        fields = list(frame)
        fields[at] = copy
        keep(new(kind, fields))
    return out


def held(frame: Frame) -> tuple[Any, ...]:
    """What `frame` holds that the game made (its variables, a loop's items, a decision),
    without the program or step it names."""
    if type(frame) is Drain:
        return tuple(env for _, env in frame.rules)  # type: ignore[union-attr]
    return tuple(frame[i] for i in _HELD[type(frame)])


FRAMES = frozenset(_HELD)


def _maker(kind: type[F]) -> Callable[[tuple[Any, ...]], F]:
    return partial(tuple.__new__, kind)  # type: ignore[arg-type,type-var]


new_run, new_bind, new_for, new_while, new_repeat = (
    _maker(Run), _maker(Bind), _maker(For), _maker(While), _maker(Repeat))
