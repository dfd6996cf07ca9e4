"""Backends: how the programs of a variant run, as a strategy its games hold.

A `Backend` is what is built from a variant for its games: how a program runs from a
step (`perform`), how a loop paused in a frame goes on (`resume_for`, `resume_while`,
`resume_repeat`), how the rules of an event are queued (`fires`, by event), and the
tables made once for every game of the variant (`cache`: the deck, the faces, the start
of a table, the match's memo). Two are made: the interpreter (interpreted.py, the
reference) and the generated code (compiled.py, over engine/codegen.py's module). The
`Variant` is a plain value and names neither: `backend_of(variant)` gives the backend a
variant was loaded with (the interpreter for one that was never compiled).
"""

from __future__ import annotations

from ...model import Variant
from .base import Backend, attach, attached
from .interpreted import interpreter

__all__ = ["Backend", "attach", "backend_of"]


def backend_of(variant: Variant) -> Backend:
    """The backend `variant` was loaded with; the interpreter for a variant never compiled."""
    backend = attached(variant)
    if backend is None:
        backend = interpreter(variant)
        attach(variant, backend)
    return backend
