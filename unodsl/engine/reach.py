"""What the language's primitives reach of a game.

`Game` here is the table's operations and the stack machine's (table.Table: cards, seats,
legality, scores, emit, run, call), not engine/game.py, which stands above the
primitives as the public contract (decision, apply, clone …) and is imported by none of
them. It is one name, so that narrowing it to a Protocol of the members the primitives
use changes this module alone.
"""

from __future__ import annotations

from typing import TypeAlias

from .table import Table

Game: TypeAlias = Table
