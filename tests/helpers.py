"""Helpers for scenario tests: load variants once, answer decisions by name."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from unodsl import Game, load_variant, make_agents, play_game
from unodsl.engine.actions import Play
from unodsl.engine.events import EVENTS, zones_moved
from unodsl.model import Variant

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "variants"


@cache
def variant(name: str, **options: bool | int) -> Variant:
    """A shipped variant by file stem (cached), with options switched on or off or set."""
    return load_variant(VARIANTS / f"{name}.yaml", options)


def game(name: str, players: int = 2, *, seed: int = 0, options: dict[str, bool | int] | None = None,
         stacked: list[str] | None = None) -> Game:
    """A recorded game of a shipped variant."""
    return Game(variant(name, **(options or {})), players, seed, record=True, stacked=stacked)


def option_text(option: Any) -> str:
    if isinstance(option, Play):
        return f"play {option.card.label}"
    return str(option).lower() if isinstance(option, bool) else str(option)


def answer(g: Game, *choices: Any) -> None:
    """Answer the pending decisions in order. A choice may be given as the option
    itself or as its text: "play red 7", "draw", "keep", "red", "yes"/"no" for a
    question, a card label for a card choice, or a seat number for a player choice."""
    for want in choices:
        d = g.decision
        assert d is not None, f"no decision pending for {want!r}"
        if want in ("yes", "no") and d.kind == "ask":
            g.apply(want == "yes")
            continue
        for option in d.options:
            text = option.label if d.kind == "card" else option_text(option)
            if option is want or (not isinstance(want, bool) and (text == want or option == want)):
                g.apply(option)
                break
        else:
            raise AssertionError(f"{want!r} is not an option of {d}: {[option_text(o) for o in d.options]}")


def labels(cards: list[Any]) -> list[str]:
    return [c.label for c in cards]


def hand(g: Game, p: int) -> list[str]:
    return sorted(c.label for c in g.hands[p])


def events(g: Game, name: str) -> list[dict[str, Any]]:
    assert g.events is not None
    return [data for ev, data in g.events if ev == name]


def pending(g: Game) -> tuple[int, str, str]:
    """(player, kind, prompt) of the pending decision."""
    d = g.decision
    assert d is not None
    return d.player, d.kind, d.prompt


def deal_order(hands: list[list[str]], dealer: int) -> list[str]:
    """The stacked deck order that deals `hands` (one card at a time from the
    dealer's left), for games whose setup deals before anything else is drawn."""
    n = len(hands)
    order = []
    for i in range(max(len(h) for h in hands)):
        for k in range(1, n + 1):
            p = (dealer + k) % n
            if i < len(hands[p]):
                order.append(hands[p][i])
    return order


def assert_conserved(g: Game, where: str = "") -> None:
    """COM-3: every card of the deck is in exactly one zone."""
    zones = g.zones().values()  # (the zones a variant declares too)
    assert sorted(c.id for z in zones for c in z) == list(range(len(g.cards))), where


class MovesDeclared:
    """A listener that checks every card's change of zone against the events' declarations
    (engine/events.py, `Event.moves`): each zone whose cards changed since the last event
    must be one that this event, or the run of card-moving events it begins (a deal tells
    each hand in turn, a put from several zones each zone), says it moved; an event that
    moves nothing finds nothing left to explain. Cards count by id (a shuffle or a flip
    moves nothing). Given from a game's start (`listeners=`), it begins with every card in
    the draw pile; watching a game already under way, give it the game."""

    def __init__(self, game: Game | None = None) -> None:
        self.before = None if game is None else self.snapshot(game)
        self.unexplained: set[str] = set()
        self.events = 0  # events checked

    @staticmethod
    def snapshot(game: Game) -> dict[str, frozenset[int]]:
        return {name: frozenset(c.id for c in zone) for name, zone in game.zones().items()}

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        now = self.snapshot(game)
        before = self.before if self.before is not None else {"draw_pile": frozenset(c.id for c in game.cards)}
        self.unexplained |= {z for z in now if now[z] != before.get(z, frozenset())}
        self.unexplained -= zones_moved(name, data, list(now))
        self.before = now
        self.events += 1
        assert not self.unexplained or EVENTS[name].moves_cards, (
            f"cards left or entered {sorted(self.unexplained)} and no event up to {name} declares it "
            "(declare the move in engine/events.py)")


def played_out(name: str, players: int, seed: int, agents: list[str],
               options: dict[str, bool] | None = None) -> Game:
    """A whole game with bots, COM-3 checked after every event from the first, and every
    card's change of zone declared by its event (MovesDeclared)."""
    g = Game(variant(name, **(options or {})), players, seed,
             listeners=[lambda game_, event, data: assert_conserved(game_, event), MovesDeclared()])
    play_game(g, make_agents(agents, players, seed))
    assert g.over
    return g


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Turn a hang into a failure (POSIX; elsewhere the block just runs)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds}s: a hang")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def assert_classic_coloured_cards(per_label: Mapping[str, int]) -> None:
    """CL-1's coloured cards: per colour one 0, two each of 1-9, Skip, Reverse, Draw Two."""
    for color in ("red", "yellow", "green", "blue"):
        assert per_label[f"{color} 0"] == 1
        for r in range(1, 10):
            assert per_label[f"{color} {r}"] == 2
        for action in ("skip", "reverse", "draw two"):
            assert per_label[f"{color} {action}"] == 2


def classic_with(tmp_path: Path, old: str, new: str, name: str = "v.yaml") -> Path:
    """A copy of variants/classic.yaml with one edit (which must apply), in tmp_path."""
    text = (VARIANTS / "classic.yaml").read_text()
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


# The places a variant file holds text of its author's (the hostile-text tests put any string there).
TEXT_PLACES = ("name", "description", "source", "card", "option", "rule", "flag", "zone", "play")


def text_at(place: str, text: str) -> str:
    """A variant file: Classic with `text` (any string, JSON-quoted) at `place` of TEXT_PLACES."""
    q = json.dumps(text)
    body = {
        "name": f"name: {q}", "description": f"description: {q}", "source": f"source: {q}",
        "card": f"cards: {{skip: {{description: {q}}}}}",
        "option": f"options: {{draw_until_playable: {{description: {q}}}}}",
        "rule": f"rules:\n  - name: {q}\n    on: card_played\n    do: flag(player, \"seen\")",
        "flag": "rules:\n  - name: marked\n    on: card_played\n    do: " + json.dumps(f"flag(player, {q})"),
        "zone": f"zones: {{lost_cards: {{description: {q}}}}}",
        "play": f"turn: {{plays: [{{name: twin, cards: 2, same: card.rank, description: {q}}}]}}",
    }[place]
    return f"extends: {(VARIANTS / 'classic.yaml').as_posix()}\n{body}\n"
