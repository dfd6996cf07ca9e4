"""Nothing secret is sent to a page.

By construction (the property test): every shipped variant is played with seeded
bots, and at random points what a seat cannot know is dealt again (`Game.resample`:
the other hands and the draw pile; with two-sided cards also the backs of its own
cards, swapped with the draw pile's; and the seed). The frames made for that seat
and for a spectator must not change by one byte, and no frame holds the seed or the
server's games folder. Leaks planted on purpose (the seed in a notice, a back of one's
own card, one card of another hand) must each make it fail.

By observation: during whole games of Classic and Flip, every WebSocket frame each
seat (and a spectator) receives is read and checked against where the cards were when
it was made: no card of another hand, nor of the draw pile, is in it, and its hand is
the seat's own."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import unodsl.web.table as table_module
from tests.helpers import VARIANTS
from unodsl.engine.actions import Play
from unodsl.engine.backends import backend_of
from unodsl.engine.cards import Card, face_table
from unodsl.engine.game import Game
from unodsl.variant.load import load_variant
from unodsl.web.hub import Hub
from unodsl.web.knowledge import Knowledge, SeenCard
from unodsl.web.knowledge import knowledge as known
from unodsl.web.table import Table

from .clients import play
from .serving import Recorder, frame_problems, serving, snapshot

SHIPPED = sorted(p.relative_to(VARIANTS).with_suffix("").as_posix()
                 for p in [*VARIANTS.glob("*.yaml"), *(VARIANTS / "house").glob("*.yaml")])


# -- the property: frames are a function of what the seat knows -----------------------------------
def frame_text(t: Table, seat: int | None) -> str:
    """Everything a page at `seat` is sent now: the state frame (the host's, for P1) and
    the whole narration it has been told."""
    narrator = t.narrators[-1 if seat is None else seat]
    return json.dumps(t.frame(seat, host=seat == 0), sort_keys=True) + json.dumps(narrator.since(0))


def swap_own_backs(game: Game, seat: int, rng: random.Random) -> None:
    """The backs of `seat`'s cards, which it cannot see, dealt again among them and the
    draw pile's hidden cards (all but the top one, whose back shows): new cards, same fronts."""
    pile = game.draw_pile
    places = [(game.hands[seat], i) for i in range(len(game.hands[seat]))] + [(pile, i) for i in range(len(pile) - 1)]
    cards = [zone[i] for zone, i in places]
    if not cards or cards[0].back is None:
        return
    backs = [c.faces[1 - c.side] for c in cards]
    rng.shuffle(backs)
    faces = face_table(game.variant, backend_of(game.variant))
    for (zone, i), card, back in zip(places, cards, backs, strict=True):
        new = list(card.faces)
        new[1 - card.side] = back
        zone[i] = Card(card.id, tuple(new), card.side, faces, Play)


def resample_problems(t: Table, seat: int | None, rng: random.Random, resamples: int) -> list[str]:
    """Frames for `seat` and a spectator that change when what `seat` cannot know is dealt again."""
    game, seed = t.game, t.seed
    assert game is not None
    real, watched = frame_text(t, seat), frame_text(t, None)
    who = "a spectator" if seat is None else f"P{seat + 1}"
    try:
        for _ in range(resamples):
            t.game = game.resample(-1 if seat is None else seat, rng)
            t.game.seed = t.seed = rng.randrange(10**9, 10**10)
            if frame_text(t, seat) != real:
                return [f"{who}'s frame changed when the cards it cannot see were dealt again"]
            if seat is not None and frame_text(t, None) != watched:
                return [f"a spectator's frame changed when the cards {who} cannot see were dealt again"]
            if seat is not None:
                swap_own_backs(t.game, seat, rng)
                if frame_text(t, seat) != real:
                    return [f"{who}'s frame changed when the backs of its own cards were dealt again"]
    finally:
        t.game, t.seed = game, seed
    return []


def carried_problems(t: Table, seat: int | None) -> list[str]:
    """A seed or the server's games folder in what a page is sent."""
    text = frame_text(t, seat)
    found = []
    if re.search(rf"(?<!\d){t.seed}(?!\d)", text):
        found.append(f"the seed {t.seed} is in a frame for {'a spectator' if seat is None else f'P{seat + 1}'}")
    if str(t.games_dir) in text or t.games_dir.name in text:
        found.append("the server's games folder is in a frame")
    return found


def play_and_check(name: str, seed: int, games: Path, decisions: int, checks: float, resamples: int,
                   save_at: int = 40) -> tuple[list[str], int]:
    """Play `name` for up to `decisions` answers (random bots; P1 a person, with a turn
    timer, who answers as its bot would); before each, with probability `checks` (and
    every 40th, and at the end), check a random page's frames. The problems, and the
    checks made."""
    v = load_variant(name)
    players = min(max(3, v.min_players), v.max_players)
    t = Table("p", v, players, seed, ["random"], games, turn_seconds=30, clock=lambda: 0.0)  # (time stands still)
    t.take(0, "Ann")
    rng = random.Random(seed)
    t.start()
    problems: list[str] = []
    made = 0
    for step in range(decisions):
        if step == save_at:
            t.save()  # a save's notice names no path
        if rng.random() < checks or step % 40 == 0 or t.status != "playing":
            seat = rng.choice([None, *range(players)])
            problems += carried_problems(t, seat) + resample_problems(t, seat, rng, resamples)
            made += 1
        game = t.game
        if problems or t.status != "playing" or game is None or game.decision is None:
            break
        d = game.decision
        choice = t.seats[d.player].agent.choose(game, d)
        if t.bot_move() is None:  # P1's person
            t.answer(d.player, t.decision_id or "", d.options.index(choice))
        else:
            assert t.apply_bot(game, t.version, choice)
    return problems, made


@pytest.mark.parametrize("name", SHIPPED)
def test_frames_change_with_nothing_a_seat_cannot_know(name: str, tmp_path: Path) -> None:
    problems, made = play_and_check(name, 10**8 + 7, tmp_path, decisions=250, checks=0.05, resamples=3)
    assert problems == []
    assert made >= 5


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_frames_change_with_nothing_a_seat_cannot_know_many_games(name: str, tmp_path: Path) -> None:
    for k in range(6):
        problems, _ = play_and_check(name, 10**8 + 1000 * k, tmp_path, decisions=1500, checks=0.05, resamples=4)
        assert problems == [], (name, k)


def test_the_property_finds_the_seed_in_a_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = Table.start

    def telling(self: Table, seed: int | None = None) -> None:
        started(self, seed)
        self.tell("start", f"game {self.number} started, seed {self.seed}")  # leak 1 of issue 42

    monkeypatch.setattr(Table, "start", telling)
    problems, _ = play_and_check("classic", 10**8 + 7, tmp_path, decisions=60, checks=0.2, resamples=2)
    assert any("the seed" in p for p in problems)


def test_the_property_finds_a_back_of_ones_own_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def with_own_backs(game: Game, seat: int | None) -> Knowledge:  # leak 2 of issue 42: you.hand[].back
        k = known(game, seat)
        if seat is None:
            return k
        own = sorted(game.hands[seat], key=lambda c: c.label)
        hand = tuple(SeenCard(c.label, c.color or "", c.wild, None) for c in own)
        backs = tuple(c.back.label if c.back is not None else "" for c in own)
        return dataclasses.replace(k, hand=hand, aside=k.aside + backs)

    monkeypatch.setattr(table_module, "knowledge", with_own_backs)
    problems, _ = play_and_check("flip", 10**8 + 7, tmp_path, decisions=60, checks=0.2, resamples=2)
    assert any("backs of its own cards" in p for p in problems)


def test_the_property_finds_a_card_of_another_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def with_a_card(game: Game, seat: int | None) -> Knowledge:
        k = known(game, seat)
        other = game.hands[1 if seat == 0 else 0]
        return dataclasses.replace(k, aside=(*k.aside, other[0].label)) if other else k

    monkeypatch.setattr(table_module, "knowledge", with_a_card)
    problems, _ = play_and_check("classic", 10**8 + 7, tmp_path, decisions=60, checks=0.2, resamples=2)
    assert any("cannot see were dealt again" in p for p in problems)


def test_the_property_finds_a_server_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = Table.save

    def telling(self: Table) -> Path:
        path = saved(self)
        self.tell("save", f"saved: {path}")  # leak 3 of issue 42
        return path

    monkeypatch.setattr(Table, "save", telling)
    problems, _ = play_and_check("classic", 10**8 + 7, tmp_path, decisions=80, checks=0.5, resamples=1, save_at=5)
    assert any("games folder" in p for p in problems)


# -- by observation: the frames of whole games through the server ------------------------------------


def flip_to(tmp_path: Path, target: int) -> Path:
    """Flip with an agreed lower target, so that a whole game is short."""
    path = tmp_path / "short_flip.yaml"
    path.write_text(f"unodsl: 1\nextends: flip\nname: UNO Flip to {target}\nscoring:\n  target: {target}\n",
                    encoding="utf-8")
    return path


async def _game(base: str, t: Table, persons: int, host_key: str) -> list[Any]:
    pages = [play(base, t.id, p, t.seats[p].token, host=host_key if p == 0 else "", persons=persons,
                  seed=p, start_seed=t.seed) for p in range(persons)]
    return list(await asyncio.gather(*pages, play(base, t.id, None)))


@pytest.mark.parametrize(("name", "players", "persons"), [("classic", 3, 2), ("flip", 4, 3)])
def test_every_frame_of_whole_games_holds_no_card_of_another_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, players: int, persons: int) -> None:
    source = flip_to(tmp_path, 150) if name == "flip" else VARIANTS / "classic.yaml"
    options = {"target": 150} if name == "classic" else {}
    hub = Hub(rate=10_000, burst=10_000)  # the scripted pages answer at machine speed
    seed = 100_000_021  # (long: found in a frame only if the frame carries it)
    t = hub.add(Table(hub.new_id(), load_variant(source, options), players, seed, ["greedy"], tmp_path / "games"))
    recorder = Recorder()
    recorder.install(monkeypatch, t)
    with serving(hub, tmp_path / "games") as base:
        pages = asyncio.run(_game(base, t, persons, hub.host_key))
    assert t.status == "over", t.message
    assert all(page.last["status"] == "over" for page in pages)
    assert sum(page.answers for page in pages) > 20
    problems = [p for page in pages for p in recorder.problems(-1 if page.seat is None else page.seat, page.received)]
    problems += [f"the seed in {text[:80]}" for page in pages for text in page.received if str(seed) in text]
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
    base: dict[str, Any] = {"type": "state", "table": None, "lines": [],
            "you": {"hand": [{"label": c} for c in snap.hands[0]]}}
    assert frame_problems(json.dumps(base), 0, snap, set()) == []
    leaked = {**base, "lines": [[[f"P2 draws {hidden[0]}", ""]]]}
    assert frame_problems(json.dumps(leaked), 0, snap, set())
    wrong_hand = {**base, "you": {"hand": [{"label": c} for c in snap.hands[1]]}}
    assert frame_problems(json.dumps(wrong_hand), 0, snap, set())
