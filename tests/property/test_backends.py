"""The compiled backend (engine/codegen.py, the default) plays every shipped variant
and house overlay (house/doubles: several-card plays) and a test variant with a declared
row zone (row_plays.yaml) exactly as the reference closure interpreter does.

Two views of the same games: the recorded event logs, and unrecorded games compared by
every decision put to a player and the state at the end. Both run the same generated
code (listening never changes which code runs)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from unodsl import Game, load_variant, make_agents
from unodsl.engine.actions import Decision, encode_answer
from unodsl.engine.backends import backend_of
from unodsl.engine.cards import Card
from unodsl.errors import RunawayRound
from unodsl.model import Variant

ROOT = Path(__file__).resolve().parents[2] / "variants"
FILES = sorted(ROOT.glob("*.yaml")) + sorted((ROOT / "house").glob("*.yaml"))
MIRROR = Path(__file__).resolve().parents[1] / "benchmarks" / "rlcard_mirror.yaml"
ROW = Path(__file__).resolve().parent / "row_plays.yaml"  # a declared row zone, plays onto it, `then:`
ALL = [*FILES, MIRROR, ROW]


@cache
def both(path: Path) -> tuple[Variant, Variant]:
    return load_variant(path, backend="closures"), load_variant(path, backend="compiled")


def plain(value: Any) -> Any:
    """An event field as data that compares across backends (cards by id and label)."""
    if isinstance(value, Card):
        return (value.id, value.label)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class Watcher:
    """An agent that answers as `inner` does and notes every decision it is asked."""

    def __init__(self, inner: Any, seen: list[Any]) -> None:
        self.inner, self.seen = inner, seen

    def choose(self, game: Game, d: Decision) -> Any:
        answer = self.inner.choose(game, d)
        self.seen.append((d.player, d.kind, d.prompt, [encode_answer(o) for o in d.options],
                          encode_answer(answer), game.turns, game.round))
        return answer


def table(variant: Variant, seed: int) -> tuple[int, list[str]]:
    players = max(variant.min_players, min(variant.max_players, 2 + seed % 3))
    if variant.teams == "opposite" and players % 2:
        players += 1
    return players, ["greedy", "random"] if seed % 2 else ["random", "greedy"]


def played(g: Game, agents: list[Any]) -> str:
    """Two rounds of `g`; how they ended: "" or a runaway's message (a grid's variant may
    stall: no one can play or draw; both backends must stall alike)."""
    try:
        g.autoplay(agents, rounds=2)
    except RunawayRound as err:
        return str(err)
    return ""


def logged(variant: Variant, seed: int) -> list[Any]:
    players, names = table(variant, seed)
    g = Game(variant, players, seed, record=True, max_turns=3_000)
    ended = played(g, make_agents(names, players, seed))
    assert g.events is not None
    return [*((name, plain(data)) for name, data in g.events), ended]


def decided(variant: Variant, seed: int) -> tuple[list[Any], Any]:
    players, names = table(variant, seed)
    seen: list[Any] = []
    g = Game(variant, players, seed, max_turns=3_000)
    ended = played(g, [Watcher(a, seen) for a in make_agents(names, players, seed)])
    end = (g.scores, g.round_turns, g.winner, g.actions, g.current, g.direction, g.current_color,
           [plain(h) for h in g.hands], plain(g.discard_pile), plain(g.draw_pile), [sorted(f) for f in g.flags],
           {name: plain(z) for name, z in g.places.items()},
           {name: [plain(z) for z in zs] for name, zs in g.seat_places.items()}, plain(g.aside), ended)
    return seen, end


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_compiled_logs_the_same_events_as_the_interpreter(path: Path) -> None:
    closures, compiled = both(path)
    for seed in range(4):
        assert logged(compiled, seed) == logged(closures, seed), f"seed {seed}"


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_compiled_turn_loop_decides_as_the_interpreter(path: Path) -> None:
    closures, compiled = both(path)
    assert backend_of(compiled).name == "compiled" and backend_of(closures).name == "closures"
    for seed in range(6):
        assert decided(compiled, seed) == decided(closures, seed), f"seed {seed}"


@pytest.mark.parametrize("path", [ROOT / "house" / "doubles.yaml", ROW], ids=lambda p: p.stem)
def test_the_compared_games_make_declared_plays(path: Path) -> None:
    """The comparisons above cover several-card plays (and, for the row, plays onto a
    declared zone, two a turn, with their `then:`): such plays are made in the games compared."""
    _, compiled = both(path)
    laid = [seen for seed in range(6) for seen in decided(compiled, seed)[0] if isinstance(seen[4], list)]
    assert len({len(seen[4][1]) for seen in laid}) >= 2  # plays of one and of more cards, or of 2 and more
    if path == ROW:
        assert any(seen[2] == "another play" for seen in laid)  # a second play in a turn
        places = [decided(compiled, seed)[1][11]["center_row"] for seed in range(6)]
        assert all(1 <= len(row) <= 3 for row in places)


@pytest.mark.slow
@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_compiled_matches_the_interpreter_on_many_seeds(path: Path) -> None:
    closures, compiled = both(path)
    for seed in range(6, 80):
        assert decided(compiled, seed) == decided(closures, seed), f"seed {seed}"
        if seed % 4 == 0:
            assert logged(compiled, seed) == logged(closures, seed), f"seed {seed}"


def test_the_generated_code_is_the_code_that_runs() -> None:
    """The comparison above means something only if the compiled game runs the generated
    code — the flow of rounds and turns included — and a wrong runner shows: here one
    that turns the direction of play once, as the game begins."""
    closures, compiled = both(ROOT / "classic.yaml")
    game_program = compiled.flow[0]
    runners = backend_of(compiled).runs
    real = runners[id(game_program)]
    calls: list[int] = []

    def wrong(game: Game, env: dict[str, Any], leave: int = 0, start: int = 0) -> bool:
        if not calls:
            game.direction = -game.direction
        calls.append(game.round)
        return real(game, env, leave, start)  # type: ignore[no-any-return]
    runners[id(game_program)] = wrong  # type: ignore[index]
    try:
        changed = decided(compiled, 4)
    finally:
        runners[id(game_program)] = real  # type: ignore[index]
    assert calls, "the compiled game never ran the generated flow"
    assert changed != decided(closures, 4)
    assert decided(compiled, 4) == decided(closures, 4)
