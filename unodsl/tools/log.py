"""The event log as JSON Lines: a header line, one line per event, an end line.

Each event is written as it happens (`EventLog` is a listener), so a card shows
the face it showed then, even after a flip has turned it over. The end line says
whether the game was over and how many events were written, so that a log cut
short can be told from a game left unfinished.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from ..engine.actions import Play
from ..engine.cards import Card
from ..engine.events import EVENTS
from ..variant.model import Variant

# 2: events written as they happen, bots drawing from the game's generator, an end line.
# 3: bots draw from their own generator, not the game's.
LOG_VERSION = 4  # 4: a choice's value is the card played or the action's word; game_end names every winner


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


class EventLog:
    """A listener that keeps every event as its JSON line, made when it happens."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, game: Any, name: str, data: dict[str, Any]) -> None:
        if not EVENTS[name].for_tools:  # commentary (rule_fired) is no part of the game's record
            self.lines.append(event_line(name, data))


def log_header(variant: Variant, players: int, seed: int, agents: list[str], max_turns: int,
               agent_seed: int | None = None) -> dict[str, Any]:
    """What a replay needs besides the choices: the variant file and its options (the
    switches that are on, and every number option's value), the table, the seed, the
    seats' agents and the turn guard. The agents' own seed (`agent_seed`, by default
    the game's) is recorded too, so that `unodsl run` can play the game again; the
    replay itself needs only the logged choices."""
    return {"variant": variant.name, "file": variant.file, "players": players, "seed": seed,
            "agent_seed": seed if agent_seed is None else agent_seed,
            "agents": agents, "options": [o.name for o in variant.options if o.enabled],
            "option_values": {o.name: o.value for o in variant.options if o.type != "bool"}, "max_turns": max_turns}


def write_log(out: IO[str], header: dict[str, Any], lines: Iterable[str], *, over: bool) -> None:
    """Write the header, the event lines and the end line (`over`: the game had ended)."""
    out.write(json.dumps({"unodsl_log": LOG_VERSION, **header}) + "\n")
    count = 0
    for line in lines:
        out.write(line + "\n")
        count += 1
    out.write(json.dumps({"end": "game over" if over else "unfinished", "events": count}) + "\n")
