"""Same seed, same game, whoever listens (issue 26, 10b): every shipped variant and house
rule plays the same recorded or not, with or without listeners on any event.

Listening used to change which code ran (and, for rules queued by a taken penalty,
when they ran), so this compares whole games: every answer given, each round's
turns, the scores, and where every card ends."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unodsl import Game, load_variant, make_agents, play_game
from unodsl.errors import RunawayRound

ROOT = Path(__file__).resolve().parents[2] / "variants"
VARIANTS = sorted(ROOT.glob("*.yaml")) + sorted((ROOT / "house").glob("*.yaml"))
WAYS: dict[str, dict[str, Any]] = {
    "bare": {},
    "recorded": {"record": True},
    "all events to a listener": {"listeners": [lambda g, n, d: None]},
    "turn events to a listener": {"listeners": [lambda g, n, d: None], "listen_to": ["turn_start", "turn_end"]},
    "round_end to a listener": {"listeners": [lambda g, n, d: None], "listen_to": ["round_end"]},
}


def outcome(path: Path, players: int, seed: int, agents: list[str], **how: Any) -> tuple[Any, ...]:
    variant = load_variant(path)
    game = Game(variant, players, seed, max_turns=400, **how)
    with contextlib.suppress(RunawayRound):  # a deterministic loop: it must loop alike whoever listens
        play_game(game, make_agents(agents, players, seed))
    zones = tuple(tuple(c.id for c in z) for z in (*game.hands, game.draw_pile, game.discard_pile, game.aside))
    return tuple(game.actions), tuple(game.round_turns), tuple(game.scores), game.winners, zones


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
@given(seed=st.integers(0, 10_000), agents=st.sampled_from([["random"], ["greedy", "random"]]))
def test_listening_never_changes_a_game(path: Path, seed: int, agents: list[str]) -> None:
    variant = load_variant(path)
    players = variant.min_players + seed % (min(variant.max_players, 5) - variant.min_players + 1)
    seats = (agents * players)[:players]
    games = {way: outcome(path, players, seed, seats, **how) for way, how in WAYS.items()}
    bare = games.pop("bare")
    for way, game in games.items():
        assert game == bare, f"{path.stem}, {players} players, seed {seed}: {way} plays another game"
