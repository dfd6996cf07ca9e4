"""What a backend is, and which backend each variant has (see the package's docstring)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...lang.program import Program, Step
from ...model import Variant

Env = dict[str, Any]
Perform = Callable[[Any, Program, Env, int, int], bool]


@dataclass(eq=False)
class Backend:
    """How a variant's programs run, and what its games share (see the package's docstring)."""

    name: str  # "closures" (the interpreter) or "compiled"
    perform: Perform  # (game, program, env, start, leave) → True if a player must be asked
    resume_for: Callable[[Any, Step, tuple[Any, ...], int, Env], bool]  # (game, step, items, k, env)
    resume_while: Callable[[Any, Step, Env, int | None, int], bool]  # (game, step, env, iterations left, pc)
    resume_repeat: Callable[[Any, Step, Env, int], bool]  # (game, step, env, iterations left)
    fires: Mapping[str, Callable[[Any, dict[str, Any]], None]]  # each event's rules: queue those that hold
    runs: Mapping[int, Callable[..., bool]] = field(default_factory=dict)  # a card kind's on_play, by id: as code
    cache: dict[str, Any] = field(default_factory=dict)  # the tables its games share (deck, faces, starts …)
    source: str = ""  # the generated module's text (compiled)
    generated: tuple[Any, ...] = ()  # what the generated module made (compiled: pickles refer to it)
    place: Callable[[BaseException], Any] = lambda err: None  # where a fault unplaced came from (compiled)


_BACKENDS: dict[int, Backend] = {}  # by the variant's id, while it lives


def attach(variant: Variant, backend: Backend) -> None:
    """`variant`'s games run on `backend` from now on."""
    key = id(variant)
    if key not in _BACKENDS:
        weakref.finalize(variant, _BACKENDS.pop, key, None)
    _BACKENDS[key] = backend


def attached(variant: Variant) -> Backend | None:
    """The backend attached to `variant`, if any."""
    return _BACKENDS.get(id(variant))
