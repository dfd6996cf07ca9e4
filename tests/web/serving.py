"""A real server for the web tests: uvicorn on a free loopback port, in a thread, and
the checker that finds another seat's card in what a page was sent."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

try:
    import httpx  # noqa: F401  (the host API's tests: tests/web/test_server.py takes it from here)
    import starlette  # noqa: F401
    import uvicorn
except ImportError:
    if os.environ.get("UNODSL_REQUIRE_BROWSER"):  # set by .ci/run: CI runs these tests, never skips them
        raise
    pytest.skip("the web tests need the [web] extra: pip install '.[webtest]'", allow_module_level=True)

from unodsl.engine.cards import Card
from unodsl.engine.events import visible_to
from unodsl.web.hub import Connection, Hub
from unodsl.web.server import MAX_FRAME, Settings, make_app
from unodsl.web.table import Table


@contextmanager
def serving(hub: Hub, games: Path, variants: dict[str, str] | None = None) -> Iterator[str]:
    """Serve `hub` on 127.0.0.1 (a free port) while the block runs; gives the base URL."""
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = make_app(hub, Settings(games_dir=games, variants=variants or {"classic": "classic"}))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, ws_max_size=MAX_FRAME))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


# -- what each page was sent, checked against the game as it stood ---------------------------
@dataclass
class Snapshot:
    """The places of the cards when a frame was made (labels of the faces in play)."""

    hands: list[list[str]]
    draw: list[str]
    public: set[str]  # labels any seat may see now: discard pile, aside, every back showing
    backs: list[list[str]]
    told: set[str] = field(default_factory=set)  # labels the events so far showed this seat


class Told:
    """A listener: the labels of the cards each seat has been shown by an event's fields
    (engine/events.py: a cut card, a card turned up or played, its own drawn cards …)."""

    def __init__(self, players: int) -> None:
        self.by_seat: dict[int, set[str]] = {p: set() for p in range(-1, players)}

    def __call__(self, game: Any, name: str, data: dict[str, Any]) -> None:
        for seat, labels in self.by_seat.items():
            for value in visible_to(name, data, seat).values():
                if isinstance(value, Card):
                    labels.add(value.label)


def snapshot(table: Table, seat: int | None = None) -> Snapshot | None:
    game = table.game
    if game is None:
        return None
    backs = [[c.back.label for c in h if c.back is not None] for h in game.hands]
    public = {c.label for c in game.discard_pile} | {c.label for c in game.aside}
    public |= {b for bs in backs for b in bs}
    if game.draw_pile and game.draw_pile[-1].back is not None:
        public.add(game.draw_pile[-1].back.label)
    told = next((set(t.by_seat[-1 if seat is None else seat]) for t in table.listeners if isinstance(t, Told)), set())
    return Snapshot([[c.label for c in h] for h in game.hands], [c.label for c in game.draw_pile], public, backs, told)


@dataclass
class Recorder:
    """Every frame the hub made, per seat (-1: spectators), with the cards' places then."""

    frames: dict[int, list[tuple[str, Snapshot | None]]] = field(default_factory=dict)
    by_connection: dict[int, list[list[str]]] = field(default_factory=dict)  # per seat: each connection's frames
    connections: dict[int, list[str]] = field(default_factory=dict)
    seen: dict[int, set[str]] = field(default_factory=dict)  # labels ever public or ever in the seat's hand

    def install(self, monkeypatch: pytest.MonkeyPatch, *tables: Table) -> None:
        for table in tables:
            table.listeners.append(Told(table.players))
        made = Hub.frame

        def recording(hub: Hub, page: Connection) -> str | None:
            text = made(hub, page)
            if text is not None and page.table is not None:
                seat = -1 if page.seat is None else page.seat
                self.frames.setdefault(seat, []).append((text, snapshot(page.table, page.seat)))
                if id(page) not in self.connections:
                    self.connections[id(page)] = []
                    self.by_connection.setdefault(seat, []).append(self.connections[id(page)])
                self.connections[id(page)].append(text)
            return text

        monkeypatch.setattr(Hub, "frame", recording)

    def problems(self, seat: int, *received: list[str]) -> list[str]:
        """What is wrong with the frames `seat` received (a list per connection, in the
        order they were opened): not the frames the server made for that connection, or
        a card of another hand (or of the draw pile) in one of them."""
        found = []
        made = self.by_connection.get(seat, [])
        if len(made) != len(received):
            found.append(f"seat {seat}: {len(received)} connections, the server saw {len(made)}")
        for got, sent in zip(received, made, strict=False):
            states = [text for text in got if json.loads(text)["type"] == "state"]
            if not states or states != sent[: len(states)]:  # (frames made after a page stopped reading: unread)
                found.append(f"seat {seat}: received {len(states)} frames, the server made {len(sent)}; they differ")
        known: set[str] = set()
        for text, snap in self.frames.get(seat, []):
            found += frame_problems(text, None if seat < 0 else seat, snap, known)
        return found


def frame_problems(text: str, seat: int | None, snap: Snapshot | None, known: set[str]) -> list[str]:
    """A card `seat` may not know in the frame `text`, made when the cards were as `snap`
    says. `known` gathers what the seat has seen so far (frame after frame)."""
    frame = json.loads(text)
    problems = []
    you = frame.get("you")
    if snap is None:
        return ["a game frame without a game"] if frame.get("table") else []
    known |= snap.public | snap.told
    if seat is None:
        if you is not None:
            problems.append("a spectator was sent a seat's part")
    else:
        known |= set(snap.hands[seat])
        mine = sorted(c["label"] for c in you["hand"]) if you else None
        if mine != sorted(snap.hands[seat]):
            problems.append(f"P{seat + 1} was sent a hand that is not theirs: {mine}")
    for s in (frame.get("table") or {}).get("seats", []):
        if set(s) != {"seat", "size", "score", "out", "backs", "shown", "flags"}:
            problems.append(f"a seat's public part has {sorted(s)}")
    others = [c for p, h in enumerate(snap.hands) if p != seat for c in h] + snap.draw
    secret = set(others) - known
    if not secret:
        return problems
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(label)}(?![\w-])"
                                  for label in sorted(secret, key=len, reverse=True)))
    shown = sorted(known, key=len, reverse=True)
    for word in _strings(frame):
        if pattern.search(word) is None:
            continue
        for label in shown:  # known labels masked first: "wild" is not found in "wild draw four"
            word = word.replace(label, "\x00")
        for hit in pattern.finditer(word):
            problems.append(f"{'spectator' if seat is None else f'P{seat + 1}'} was sent {hit.group()!r}, "
                            "a card of another hand or of the draw pile")
    return problems


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
