"""Nothing secret is sent to a page: during whole games of Classic and Flip, every
WebSocket frame each seat (and a spectator) receives is read and checked against
where the cards were when it was made: no card of another hand, nor of the draw
pile, is in it, and its hand is the seat's own."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.helpers import VARIANTS
from unodsl.variant.load import load_variant
from unodsl.web.hub import Hub
from unodsl.web.table import Table

from .clients import play
from .serving import Recorder, frame_problems, serving, snapshot


def flip_to(tmp_path: Path, target: int) -> Path:
    """Flip with an agreed lower target, so that a whole game is short."""
    path = tmp_path / "short_flip.yaml"
    path.write_text(f"unodsl: 1\nextends: flip\nname: UNO Flip to {target}\nscoring:\n  target: {target}\n",
                    encoding="utf-8")
    return path


async def _game(base: str, t: Table, persons: int, host_key: str) -> list:
    pages = [play(base, t.id, p, t.seats[p].token, host=host_key if p == 0 else "", persons=persons,
                  seed=p, start_seed=t.seed) for p in range(persons)]
    return list(await asyncio.gather(*pages, play(base, t.id, None)))


@pytest.mark.parametrize(("name", "players", "persons"), [("classic", 3, 2), ("flip", 4, 3)])
def test_every_frame_of_whole_games_holds_no_card_of_another_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, players: int, persons: int) -> None:
    source = flip_to(tmp_path, 150) if name == "flip" else VARIANTS / "classic.yaml"
    options = {"target": 150} if name == "classic" else {}
    hub = Hub(rate=10_000, burst=10_000)  # the scripted pages answer at machine speed
    t = hub.add(Table(hub.new_id(), load_variant(source, options), players, 21, ["greedy"], tmp_path / "games"))
    recorder = Recorder()
    recorder.install(monkeypatch, t)
    with serving(hub, tmp_path / "games") as base:
        pages = asyncio.run(_game(base, t, persons, hub.host_key))
    assert t.status == "over", t.message
    assert all(page.last["status"] == "over" for page in pages)
    assert sum(page.answers for page in pages) > 20
    problems = [p for page in pages for p in recorder.problems(-1 if page.seat is None else page.seat, page.received)]
    assert problems == []
    checked = sum(len(f) for f in recorder.frames.values())
    assert checked > 100, checked


def test_the_checker_finds_a_card_of_another_hand(tmp_path: Path) -> None:
    """A planted leak: seat 0's frame with a card of seat 1's hand that seat 0 cannot know."""
    hub = Hub()
    t = hub.add(Table(hub.new_id(), load_variant("classic"), 3, 4, ["greedy"], tmp_path))
    t.start()
    snap = snapshot(t)
    assert snap is not None and t.game is not None
    hidden = sorted(set(snap.hands[1]) - set(snap.hands[0]) - snap.public)
    assert hidden
    base = {"type": "state", "table": None, "lines": [],
            "you": {"hand": [{"label": c} for c in snap.hands[0]]}}
    assert frame_problems(json.dumps(base), 0, snap, set()) == []
    leaked = {**base, "lines": [[[f"P2 draws {hidden[0]}", ""]]]}
    assert frame_problems(json.dumps(leaked), 0, snap, set())
    wrong_hand = {**base, "you": {"hand": [{"label": c} for c in snap.hands[1]]}}
    assert frame_problems(json.dumps(wrong_hand), 0, snap, set())
