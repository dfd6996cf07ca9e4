"""Scripted pages for the web tests: a WebSocket client per seat (the `websockets`
library, which uvicorn serves WebSockets with) that answers its decisions at random."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from .serving import uvicorn  # noqa: F401  (the skip, or CI's failure, without the [web] extra)

websockets = pytest.importorskip("websockets")


def ws_url(base: str, table: str) -> str:
    return base.replace("http://", "ws://") + f"/t/{table}/ws"


@dataclass
class Page:
    """What one scripted page did: every frame it received, in order."""

    seat: int | None
    received: list[str] = field(default_factory=list)
    answers: int = 0
    last: dict[str, Any] = field(default_factory=dict)


async def play(base: str, table: str, seat: int | None, token: str = "", host: str = "", persons: int = 0,
               seed: int = 0, start_seed: int | None = None, timeout: float = 120) -> Page:
    """Open a page at `seat` (None: a spectator) and answer every decision of it at
    random until the game ends. The host (with `host`) starts the game once `persons`
    seats have a person connected."""
    page = Page(seat)
    rng = random.Random(seed)
    answered: set[str] = set()
    started = False
    async with websockets.connect(ws_url(base, table), max_size=None) as ws:
        hello: dict[str, Any] = {"type": "hello", "token": token, "host": host}
        if seat is not None:
            hello["seat"] = seat
        await ws.send(json.dumps(hello))
        while True:
            text = await asyncio.wait_for(ws.recv(), timeout)
            assert isinstance(text, str)
            page.received.append(text)
            msg = json.loads(text)
            if msg["type"] == "error":
                raise AssertionError(f"seat {seat} was refused: {msg['message']}")
            if msg["type"] != "state":
                continue
            page.last = msg
            if host and not started and msg["status"] == "lobby" and \
                    sum(s["connected"] for s in msg["seats"]) >= persons:
                started = True
                await ws.send(json.dumps({"type": "host", "action": "start", "seed": start_seed}))
            if msg["status"] in ("over", "failed"):
                return page
            d = (msg.get("you") or {}).get("decision")
            if d and d["id"] not in answered:
                answered.add(d["id"])
                page.answers += 1
                await ws.send(json.dumps({"type": "answer", "decision": d["id"],
                                          "option": rng.randrange(len(d["options"]))}))
