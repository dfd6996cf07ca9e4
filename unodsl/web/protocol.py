"""What a page may send, parsed and checked before anything else looks at it.

Every message is one JSON object with a "type":

    {"type": "hello", "seat": 0, "token": "…", "host": "…", "name": "Ann", "takeover": false}
    {"type": "answer", "decision": "…", "option": 2}
    {"type": "seat", "action": "bot" | "back"}          (a person's own seat)
    {"type": "name", "name": "Ann"}
    {"type": "uno", "action": "call" | "catch"}        (the UNO button: yes to the seat's UNO question)
    {"type": "again"}                                   (a player asks for another game; the host starts it)
    {"type": "host", "action": "start" | "restart" | "undo" | "save" | "bot" | "person",
     "seat": 1, "seed": 7}

What the server sends (state frames, notes) is described in docs/serve.md, "The protocol".

Anything else is a `Refused` with a message that says what is wrong; the caller sends
it back to that connection alone, and nothing changes.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE = 16_384  # characters in one message; a page's largest is far smaller
MAX_NAME = 24  # characters in a player's name
HOST_ACTIONS = ("start", "restart", "undo", "save", "bot", "person")
SEAT_ACTIONS = ("bot", "back")
UNO_ACTIONS = ("call", "catch")


class Refused(Exception):
    """A message, or what it asks for, is refused: `str(self)` says why (sent to its sender)."""


class Taken(Refused):
    """The seat is open in another window (the page may offer to move it)."""


@dataclass(frozen=True)
class Hello:
    seat: int | None  # None: a spectator
    token: str
    host: str
    name: str
    takeover: bool


@dataclass(frozen=True)
class Answer:
    decision: str
    option: int


@dataclass(frozen=True)
class SeatAction:
    action: str


@dataclass(frozen=True)
class Rename:
    name: str


@dataclass(frozen=True)
class HostAction:
    action: str
    seat: int | None
    seed: int | None


@dataclass(frozen=True)
class Uno:
    action: str  # call, catch


@dataclass(frozen=True)
class Again:
    pass


Message = Hello | Answer | SeatAction | Rename | HostAction | Uno | Again


def parse(text: str | bytes) -> Message:
    """One message from a page; Refused if it is not a well-formed one."""
    if isinstance(text, bytes):
        raise Refused("messages are JSON text, not binary frames")
    if len(text) > MAX_MESSAGE:
        raise Refused(f"message too long ({len(text):,} characters; at most {MAX_MESSAGE:,}): ignored")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("not a JSON message: each message is one JSON object with a \"type\"") from None
    if not isinstance(doc, dict):
        raise Refused("a message is a JSON object with a \"type\"")
    kind = doc.get("type")
    if kind == "hello":
        seat = _seat(doc, "seat", optional=True)
        return Hello(seat, _text(doc, "token", 100), _text(doc, "host", 100), clean_name(_text(doc, "name", 200)),
                     doc.get("takeover") is True)
    if kind == "answer":
        option = doc.get("option")
        if type(option) is not int or not 0 <= option < 10_000:
            raise Refused("an answer's \"option\" is the number of one of the options offered (from 0)")
        decision = _text(doc, "decision", 64)
        if not decision:
            raise Refused("an answer names the \"decision\" it answers (its id, as sent with it)")
        return Answer(decision, option)
    if kind == "seat":
        return SeatAction(_choice(doc, "action", SEAT_ACTIONS))
    if kind == "name":
        return Rename(clean_name(_text(doc, "name", 200)))
    if kind == "uno":
        return Uno(_choice(doc, "action", UNO_ACTIONS))
    if kind == "again":
        return Again()
    if kind == "host":
        seed = doc.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise Refused("a seed is a whole number from 0")
        return HostAction(_choice(doc, "action", HOST_ACTIONS), _seat(doc, "seat", optional=True), seed)
    shown = json.dumps(kind)[:40]
    raise Refused(f"unknown message type {shown}: hello, answer, seat, name, uno, again or host")


def _text(doc: dict[str, Any], key: str, most: int) -> str:
    value = doc.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > most:
        raise Refused(f"{key!r} should be text of at most {most} characters")
    return value


def _seat(doc: dict[str, Any], key: str, optional: bool) -> int | None:
    value = doc.get(key)
    if value is None and optional:
        return None
    if type(value) is not int or not 0 <= value < 100:
        raise Refused(f"{key!r} should be a seat number, counted from 0")
    return value


def _choice(doc: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    value = doc.get(key)
    if value not in allowed:
        raise Refused(f"{key!r} should be one of {', '.join(allowed)}")
    return str(value)


def clean_name(text: str) -> str:
    """A player's name as shown: printable characters only (no controls, no bidi
    overrides or other invisible formatting), spaces collapsed, at most MAX_NAME long."""
    kept = "".join(c for c in text if unicodedata.category(c)[0] not in "CZ" or c == " ")
    return " ".join(kept.split())[:MAX_NAME]
