"""The variants that declare their table (issue 41: DOS, doubles) played many times at every
table size they allow: no runaway round, and the cards conserved (COM-3) after every event, the
declared zones counted.

The default run plays a few games per table size; the slow run plays UNODSL_DECLARED_GAMES
games per size (default 40). The figures in the closing note of issue 41 came from

    UNODSL_DECLARED_GAMES=500 pytest -m slow tests/property/test_declared_tables.py -s
"""

from __future__ import annotations

import os

import pytest

from tests.helpers import assert_conserved, variant
from unodsl import Game, make_agents, play_game
from unodsl.errors import RunawayRound

SIZES = {"dos": range(2, 5), "house/doubles": range(2, 11)}
MIXES = (["greedy"], ["random"], ["greedy", "random"], ["random", "greedy", "greedy"])
CASES = [(name, n) for name, sizes in SIZES.items() for n in sizes]


def play_many(name: str, players: int, games: int) -> tuple[int, int, int]:
    """(games played out, runaways, events checked)."""
    done = runaways = events = 0

    def check(g: Game, event: str, data: object) -> None:
        nonlocal events
        events += 1
        assert_conserved(g, f"{name}, {players} players, seed {g.seed}: COM-3 broken at {event}")

    for seed in range(games):
        g = Game(variant(name), players, seed, listeners=[check])
        try:
            play_game(g, make_agents(MIXES[seed % len(MIXES)], players, seed))
        except RunawayRound:
            runaways += 1
            continue
        assert g.over and g.winners
        done += 1
    return done, runaways, events


@pytest.mark.parametrize(("name", "players"), CASES)
def test_declared_tables_play_out_with_cards_conserved(name: str, players: int) -> None:
    done, runaways, events = play_many(name, players, 2)
    assert (done, runaways) == (2, 0) and events > 0


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
def test_many_declared_table_games_no_runaways(name: str, players: int) -> None:
    games = int(os.environ.get("UNODSL_DECLARED_GAMES", "40"))
    done, runaways, events = play_many(name, players, games)
    print(f"\n{name} {players}p: {games} games, {runaways} runaways, conservation checked after {events:,} events")
    assert runaways == 0 and done == games
