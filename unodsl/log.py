"""The event log as JSON Lines: one header line, then one line per event."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from .engine.actions import Play
from .engine.cards import Card


def plain(value: Any) -> Any:
    """An event field as JSON data (cards by id and visible face)."""
    if isinstance(value, Card):
        return {"id": value.id, "face": value.label}
    if isinstance(value, Play):
        return {"play": plain(value.card)}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def event_line(name: str, data: dict[str, Any]) -> str:
    return json.dumps({"event": name, **plain(data)}, separators=(",", ":"), sort_keys=False)


def write_log(out: IO[str], header: dict[str, Any], events: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Write a header line and every event as one JSON object per line."""
    out.write(json.dumps({"unodsl_log": 1, **header}) + "\n")
    for name, data in events:
        out.write(event_line(name, data) + "\n")


def read_log(path: str | Path) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """The header and the events of a log file."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0]) if lines else {}
    return header, (json.loads(line) for line in lines[1:] if line.strip())
