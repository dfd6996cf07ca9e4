"""The primitives of the language: one short function each, by kind.

Importing this package registers every primitive in REGISTRY (the checker's
and the compiler's table, and the source of the generated reference).
"""

from __future__ import annotations

from . import chance, choices, effects, moves, names, naming, queries
from .registry import REGISTRY

__all__ = ["REGISTRY", "chance", "choices", "effects", "moves", "names", "naming", "queries"]
