"""Events say what they mean, once (engine/events.py): each event's English, narration and the
cards it moves are declared, and the readers (the move checks, ISMCTS's inference, the
narrator) read the declarations. A card-moving event that does not declare its moves fails
here: every effect of the language is run in a game watched by MovesDeclared, and a primitive
planted at test time, `discard_hand(who)`, shows what adding one takes and what it breaks
when its event's moves are left out."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import MovesDeclared
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.engine.events import (
    EVENTS,
    Event,
    Field,
    Move,
    arrivals,
    forgotten,
    hand,
    hand_zone,
    narrate,
    pile,
    slots,
    zone_seat,
    zone_words,
    zones_moved,
)
from unodsl.engine.primitives.registry import REGISTRY, place
from unodsl.errors import GameError, RunawayRound
from unodsl.lang.signature import Registry
from unodsl.players.bots import RandomAgent
from unodsl.players.ismcts import _Observer

# An argument of each type for a call written into a rule `on: card_played` (the player who
# played is `player`, their hand `hand`): zones are the player's hand and the next one's, and
# two players are the player and the next one.
ARGS = {"players": "opponents", "int": "2", "fn": "c -> true", "cards": "hand", "card": "top_of(hand)",
        "color": '"red"', "bool": "true", "str": '"marked"'}
PLAYERS = ("player", "next")
ZONES = {"source": "hand", "target": "next.hand", "zone": "next.hand"}
CALLS = {"cut": "cut(c -> c.points)",  # (a cut's value is a number)
         "redeal": "redeal(player, discard_pile)"}  # (a pile gathered too)
SKIP = {"random_pick": "takes any value", "apply": "runs a card's effect (the effects are tested one by one)",
        "jump_in": "asks other players to play (play is tested)"}
BASE = {"flip": "flip"}  # effects that need a variant of their own (two-sided cards)


def call_of(name: str) -> str:
    """A call of the effect `name` with an argument for each parameter without a default."""
    if name in CALLS:
        return CALLS[name]
    args, players = [], iter(PLAYERS)
    for p in REGISTRY.primitives[name].params:
        if p.default is None:
            kind = p.type.split("{")[0]
            args.append(next(players) if kind == "player" else ZONES[p.name] if kind == "zone" else ARGS[kind])
    return f"{name}({', '.join(args)})"


def planted_variant(tmp_path: Path, call: str, base: str = "classic") -> Path:
    path = tmp_path / "planted.yaml"
    path.write_text(f"extends: {base}\nname: Planted\nrules:\n  - name: planted\n    on: card_played\n"
                    f"    do: {json.dumps(call)}\n")
    return path


def play_watched(path: Path, seeds: int = 2, players: int = 3) -> int:
    """Games of the variant at `path` under MovesDeclared; the events it checked."""
    checked = 0
    v = load_variant(path)
    for seed in range(seeds):
        moves = MovesDeclared()
        g = Game(v, players, seed, max_turns=150, max_rounds=3, listeners=[moves])
        with contextlib.suppress(RunawayRound, GameError):  # a rule this odd may never end a game
            play_game(g, make_agents(["random"], players, seed))
        checked += moves.events
    return checked


EFFECTS = sorted(n for n, p in REGISTRY.primitives.items() if p.kind == "effect" and n not in SKIP)


@pytest.mark.parametrize("name", EFFECTS)
def test_every_effect_declares_the_cards_its_events_move(tmp_path: Path, name: str) -> None:
    assert play_watched(planted_variant(tmp_path, call_of(name), BASE.get(name, "classic"))) > 0


# -- the declarations themselves ---------------------------------------------------------------
def test_every_event_has_its_english_and_a_narration_naming_only_its_fields() -> None:
    for name, e in EVENTS.items():
        assert e.english and e.narration, name
        for template in e.narration:
            assert set(slots(template)) <= set(e.fields), (name, template)
        for m in e.moves:
            for place_ in (m.source, m.target):
                if place_.kind in ("hand", "named"):
                    assert place_.name in e.fields, (name, place_)
                if place_.kind == "named":
                    assert e.fields[place_.name].zone, (name, place_)
            assert m.count is None or isinstance(m.count, int) or e.fields[m.count].type == "int", name


def test_hands_are_named_as_the_table_names_them() -> None:
    g = Game(load_variant("classic"), 3, 0)
    assert [g.zone_name(h) for h in g.hands] == [hand_zone(p) for p in range(3)]
    assert [zone_seat(hand_zone(p)) for p in range(3)] == [0, 1, 2]
    assert zone_seat("draw_pile") is None and zone_seat("handy 2") is None


def words(kind: str, value: Any) -> str:
    if kind == "player":
        return f"P{value + 1}"
    if kind == "zone":
        return zone_words(value, lambda p: f"P{p + 1}")
    if kind == "cards":
        return " and ".join(f"<{c}>" for c in value)
    return f"<{value}>" if kind == "card" else str(value)


def test_a_narration_names_the_player_and_the_cards_in_words() -> None:
    assert narrate("cards_moved", {"player": 0, "source": "hand 1", "target": "discard_pile", "count": 2},
                   words) == "P1 moves 2 cards from P2's hand to the discard pile"
    assert narrate("cards_moved", {"player": 0, "source": "draw_pile", "target": "aside", "count": 1},
                   words) == "P1 moves 1 card from the draw pile to the cards set aside"
    # the cards, when the reader sees them; the player's own hand is "their hand"
    assert narrate("cards_moved", {"player": 1, "source": "hand 1", "target": "discard_pile", "count": 2,
                                   "cards": ["red 3", "blue 5"]},
                   words) == "P2 moves <red 3> and <blue 5> from their hand to the discard pile"
    assert narrate("hands_passed", {"player": 0, "direction": -1}, words) == "every hand is passed to the right"
    assert narrate("hands_passed", {"player": 0, "direction": 2}, words) == "every hand is passed 2 seats along"
    # What a seat may not see picks the template without it.
    assert narrate("card_drawn", {"player": 1, "card": "red 5"}, words) == "P2 draws <red 5>"
    assert narrate("card_drawn", {"player": 1}, words) == "P2 draws a card"


def test_what_events_move_is_read_per_emitted_event() -> None:
    names = [*(hand_zone(p) for p in range(3)), "draw_pile", "discard_pile", "aside"]
    assert zones_moved("card_played", {"player": 2}, names) == {"hand 2", "discard_pile"}
    assert zones_moved("hands_passed", {"player": 0, "direction": 1}, names) == {"hand 0", "hand 1", "hand 2"}
    assert zones_moved("skipped", {"player": 0}, names) == set()
    moved = {"player": 0, "source": "draw_pile", "target": "hand 2", "count": 3}
    assert arrivals("cards_moved", moved, 3) == [(2, 3)] and forgotten("cards_moved", moved, 3) == set()
    assert arrivals("card_given", {"player": 0, "other": 1}, 3) == [(1, 1)]
    assert forgotten("hands_swapped", {"player": 0, "other": 2}, 3) == {0, 2}
    assert forgotten("flipped", {"player": 0, "side": "dark"}, 3) == {0, 1, 2}
    assert forgotten("dealt", {"player": 1, "count": 7}, 3) == {1}  # the deal does not tell what it gave


# -- a planted primitive: discard_hand(who) ------------------------------------------------------
def discard_hand(g: Game, who: int) -> None:
    """`who` puts their whole hand under the discard pile."""
    held = g.hands[who]
    count = len(held)
    place(g.discard_pile, held[::-1], "bottom")
    held.clear()
    g.took_from_hand(who)
    if g.watching("hand_discarded"):
        g.emit("hand_discarded", {"player": who, "count": count})
    if g.watching("hand_changed"):
        g.emit("hand_changed", {"player": who, "size": 0})


# What adding it takes: the function with its phrase (a primitives module) and its event (events.py).
HAND_DISCARDED = Event("a player puts their whole hand under the discard pile (discard_hand)",
                       {"player": Field("player", "the player"), "count": Field("int", "the cards they held")},
                       english="a player discards their hand",
                       narration=("{player} discards their hand ({count} {count|card|cards})",),
                       moves=(Move(hand(), pile("discard_pile"), "count", whole=True),))


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    scratch = Registry()
    scratch.effect("who: player", says=("{who}", "discard{s} {their} hand"))(discard_hand)
    monkeypatch.setitem(REGISTRY.primitives, "discard_hand", scratch.primitives["discard_hand"])
    monkeypatch.setitem(EVENTS, "hand_discarded", HAND_DISCARDED)
    yield


@pytest.mark.usefixtures("planted")
def test_a_planted_discard_hand_with_its_moves_declared_passes_the_move_checks(tmp_path: Path) -> None:
    path = planted_variant(tmp_path, "if count(next.hand) > 3 then discard_hand(next)")
    assert play_watched(path) > 0
    assert narrate("hand_discarded", {"player": 1, "count": 4}, words) == "P2 discards their hand (4 cards)"


@pytest.mark.usefixtures("planted")
def test_a_planted_event_that_moves_cards_undeclared_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EVENTS, "hand_discarded", dataclasses.replace(HAND_DISCARDED, moves=()))
    path = planted_variant(tmp_path, "if count(next.hand) > 3 then discard_hand(next)")
    with pytest.raises(AssertionError, match=r"no event up to hand_discarded declares it"):
        play_watched(path)


def test_an_undeclared_move_of_a_shipped_event_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The check is not vacuous: take card_played's declaration away and a game fails it."""
    monkeypatch.setitem(EVENTS, "card_played", dataclasses.replace(EVENTS["card_played"], moves=()))
    with pytest.raises(AssertionError, match="card_played"):
        play_watched(planted_variant(tmp_path, "skip()"), seeds=1)


@pytest.mark.usefixtures("planted")
def test_ismcts_forgets_what_it_inferred_of_a_hand_discarded_whole() -> None:
    """The bug a planted discard_hand showed: the search kept its inferences about a hand
    that no longer exists. The observer forgets by the event's declared moves."""
    g = Game(load_variant("classic"), 3, 1)
    seen = _Observer(g)
    assert "hand_discarded" in seen.events  # a new card-moving event is watched without being named
    seen.draws.clear()  # (what the copy saw of the game's start)
    seen.received = [0, 0, 0]
    top = g.discard_pile[-1]
    for q in (1, 2):  # two opponents begin their turns by drawing: each held nothing playable
        seen(g, "turn_start", {"player": q})
        seen(g, "card_drawn", {"player": q, "card": top})
    assert [d[0] for d in seen.draws] == [1, 2]
    seen(g, "hand_discarded", {"player": 1, "count": 8})
    assert [d[0] for d in seen.draws] == [2]  # what was learned of P2's hand is gone; P3's holds
    seen(g, "cards_moved", {"player": 0, "source": "draw_pile", "target": "hand 2", "count": 3})
    assert seen.received == [0, 1, 4]  # cards moved into a hand count as received


@pytest.mark.usefixtures("planted")
def test_ismcts_plays_a_variant_with_the_planted_primitive(tmp_path: Path) -> None:
    from unodsl.players.ismcts import ISMCTSAgent
    v = load_variant(planted_variant(tmp_path, "if count(next.hand) > 3 then discard_hand(next)"))
    g = Game(v, 2, 3)
    agent = ISMCTSAgent(1, rollout=lambda rng: RandomAgent(rng), iterations=8)
    other = RandomAgent(random.Random(2))
    for _ in range(40):
        d = g.decision
        if d is None:
            break
        g.apply((agent if d.player == 0 else other).choose(g, d))
    assert g.turns > 1
