"""The event log as JSON Lines: a header line, one line per event, an end line.

Each event is written as it happens (`EventLog` is a listener), so a card shows
the face it showed then, even after a flip has turned it over. The end line says
whether the game was over and how many events were written, so that a log cut
short can be told from a game left unfinished.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import IO, Any

from ..engine.actions import Play
from ..engine.cards import Card
from ..engine.events import EVENTS
from ..model import Variant

# 2: events written as they happen, bots drawing from the game's generator, an end line.
# 3: bots draw from their own generator, not the game's.
# 4: a choice's value is the card played or the action's word; game_end names every winner.
LOG_VERSION = 5  # 5: cards_moved names its cards; a choice may be of the kind int (choose_number)

# What a log or a save written by unodsl never exceeds, checked before the data is used:
# nesting (an event is an object of lists of cards: 4 deep), digits of a number (seeds,
# counts, ids), and players at a table (the schema's most for `players.max`).
MOST_DEPTH = 16
MOST_DIGITS = 30
MOST_PLAYERS = 100
_NESTING = re.compile(r'"(?:\\.|[^"\\])*"|[\[\]{}]')


class TooLarge(ValueError):
    """A log or save line beyond the limits above; the message says which."""


def read_json(text: str) -> Any:
    """One JSON document of a log or a save, within the limits (TooLarge says which is
    passed; json.JSONDecodeError for text that is not JSON)."""
    if text.count("[") + text.count("{") > MOST_DEPTH:
        depth = 0
        for m in _NESTING.finditer(text):
            token = m.group()
            if token in "[{":
                depth += 1
                if depth > MOST_DEPTH:
                    raise TooLarge(f"JSON nested more than {MOST_DEPTH} deep (at character {m.start() + 1})")
            elif token in "]}":
                depth -= 1

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > MOST_DIGITS:
            raise TooLarge(f"a number of {len(digits.lstrip('-')):,} digits (at most {MOST_DIGITS})")
        return int(digits)

    def constant(name: str) -> Any:
        raise TooLarge(f"{name} is not a number a log or save holds")

    try:
        return json.loads(text, parse_int=whole, parse_constant=constant)
    except RecursionError:  # nesting hidden from the count above (it cannot be, but never a traceback)
        raise TooLarge(f"JSON nested more than {MOST_DEPTH} deep") from None


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
