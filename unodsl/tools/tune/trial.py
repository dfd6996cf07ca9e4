"""One candidate the tuner tried: its values, its judged figures or why it failed (a
module of its own, so that ranking and wording read it without importing the search)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Trial:
    """One candidate tried: its values, its figures judged, or why it could not be played."""

    number: int
    values: dict[str, int]
    state: str                     # "complete" or "failed"
    result: dict[str, Any]         # judged targets, rounds, games (complete) or error (failed)
    objectives: list[float] | None
    overlay: str

    @property
    def meets(self) -> int:
        """Targets met with the whole interval."""
        return int(self.result.get("meets", 0))

    @property
    def meets_by_value(self) -> int:
        """Targets met by the value."""
        return int(self.result.get("meets_by_value", 0))
