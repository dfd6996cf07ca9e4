"""The game is a value (issue 14): clone, pickle, from_actions, resample and
information states hold at random decision points of every shipped variant and
house overlay.

A game is driven by `answers`: a list of numbers, each picking an option of the
pending decision by index (modulo the number of options), so two games in the
same state given the same list take the same answers.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import assert_conserved
from unodsl import Game, load_variant
from unodsl.engine.information import observed
from unodsl.errors import RunawayRound
from unodsl.tools.log import event_line

ROOT = Path(__file__).resolve().parents[2] / "variants"
FILES = sorted(ROOT.glob("*.yaml")) + sorted((ROOT / "house").glob("*.yaml"))


def drive(game: Game, answers: list[int]) -> list[int]:
    """Answer with `answers` (option indices) until they run out or the game ends;
    the answers not used."""
    left = list(answers)
    while left and game.decision is not None:
        options = game.decision.options
        game.apply(options[left.pop(0) % len(options)])
    return left


def events(game: Game, since: int = 0) -> list[str]:
    assert game.events is not None
    return [event_line(n, d) for n, d in game.events[since:]]


def state(game: Game) -> tuple[Any, ...]:
    """What a game is now, as data comparable across games (cards by id and face)."""
    def zone(cards: list[Any]) -> list[tuple[int, str]]:
        return [(c.id, c.label) for c in cards]
    d = game.decision
    decision = None if d is None else (d.player, d.kind, d.prompt, [str(o) for o in d.options])
    return (decision, [zone(h) for h in game.hands], zone(game.draw_pile), zone(game.discard_pile),
            zone(game.aside), game.scores, game.current, game.direction, game.current_color, game.side,
            game.round, game.turns, game.penalty, [sorted(f) for f in game.flags], game.winner, game.actions)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Path, int, int, list[int]]:
    path = draw(st.sampled_from(FILES), label="variant")
    variant = load_variant(path)
    players = draw(st.integers(variant.min_players, min(variant.max_players, 5)), label="players")
    seed = draw(st.integers(0, 2**16), label="seed")
    before = draw(st.lists(st.integers(0, 50), min_size=0, max_size=120), label="answers before")
    return path, players, seed, before


def start(path: Path, players: int, seed: int, before: list[int], **kw: Any) -> Game:
    game = Game(load_variant(path), players, seed, max_turns=3_000, **kw)
    drive(game, before)
    return game


def go_on(game: Game, after: list[int]) -> Any:
    """Drive on; a runaway round is an outcome like any other (compared as such)."""
    try:
        drive(game, after)
    except RunawayRound as err:
        return str(err)
    return None


@given(position=positions(), after=st.lists(st.integers(0, 50), max_size=150))
def test_a_clone_goes_on_as_the_original_would(position: tuple[Path, int, int, list[int]],
                                               after: list[int]) -> None:
    game = start(*position, record=True)
    mark = len(game.events or ())
    clone = game.clone()
    assert state(clone) == state(game)
    ends = go_on(game, after), go_on(clone, after)
    assert ends[0] == ends[1]
    assert events(clone, mark) == events(game, mark)
    assert state(clone) == state(game)


@given(position=positions(), after=st.lists(st.integers(0, 50), max_size=60))
def test_a_clone_is_independent_of_the_original(position: tuple[Path, int, int, list[int]],
                                                after: list[int]) -> None:
    game = start(*position)
    before = state(game)
    clone = game.clone()
    go_on(clone, after)  # the clone plays on: the original has not moved
    assert state(game) == before
    assert_conserved(game, "the original after its clone played")
    assert_conserved(clone, "the clone")


@given(position=positions(), after=st.lists(st.integers(0, 50), max_size=100))
def test_a_pickled_game_goes_on_as_the_original_would(position: tuple[Path, int, int, list[int]],
                                                      after: list[int]) -> None:
    game = start(*position, record=True)
    mark = len(game.events or ())
    again = pickle.loads(pickle.dumps(game))
    assert state(again) == state(game)
    assert go_on(again, after) == go_on(game, after)
    assert events(again, mark) == events(game, mark)
    assert state(again) == state(game)


@given(position=positions())
def test_from_actions_makes_the_same_game(position: tuple[Path, int, int, list[int]]) -> None:
    path, players, seed, before = position
    game = start(path, players, seed, before, record=True)
    again = Game.from_actions(game.variant, players, seed, game.actions, max_turns=3_000, record=True)
    assert state(again) == state(game)
    assert events(again) == events(game)


@given(position=positions(), pick=st.integers(0, 9), after=st.lists(st.integers(0, 50), max_size=60),
       seed=st.integers(0, 2**16))
def test_resample_keeps_what_the_player_sees_and_every_card(position: tuple[Path, int, int, list[int]],
                                                            pick: int, after: list[int], seed: int) -> None:
    game = start(*position)
    if game.decision is None:
        return
    p = game.decision.player if pick % 2 else pick % game.n
    other = game.resample(p, random.Random(seed))
    assert observed(other.view(p)) == observed(game.view(p))
    assert [len(h) for h in other.hands] == [len(h) for h in game.hands]
    assert_conserved(other, "after resample")
    hidden = sorted(c.id for q, h in enumerate(game.hands) if q != p for c in h)
    hidden_after = sorted(c.id for q, h in enumerate(other.hands) if q != p for c in h)
    pile_and_hidden = sorted(hidden + [c.id for c in game.draw_pile])
    assert sorted(hidden_after + [c.id for c in other.draw_pile]) == pile_and_hidden
    go_on(other, after)  # the resampled game plays on (its pending decision fits its hands)
    assert_conserved(other, "a resampled game played on")


@given(position=positions())
def test_the_information_state_of_a_recorded_game_is_the_replayed_one(
        position: tuple[Path, int, int, list[int]]) -> None:
    recorded = start(*position, record=True)
    plain = start(*position)
    for p in range(recorded.n):
        assert recorded.information_state(p) == plain.information_state(p)
    hash(recorded.information_state(0))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_state_pickles_without_the_variant_and_loads_it_again(path: Path) -> None:
    game = start(path, load_variant(path).min_players, 3, [1, 2, 3, 4, 5, 6, 7])
    data = pickle.dumps(game)
    assert b"on_play" not in data and b"lambda" not in data  # code is referred to, never written
    assert len(data) < 20_000
