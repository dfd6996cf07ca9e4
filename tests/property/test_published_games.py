"""The two published games (UNO Show 'Em No Mercy, UNO Attack!) played many times at every table
size from 2 to 6: no runaway round, and the cards conserved (COM-3) after every event.

The default run plays a few games per table size; the slow run plays UNODSL_PUBLISHED_GAMES games
per table size (default 40). The figures behind the closing note of issue 26 came from

    UNODSL_PUBLISHED_GAMES=500 pytest -m slow tests/property/test_published_games.py -s

Attack is not played by a table of random bots only. Pressing the launcher is always allowed
(AT-6, the sheet's reneging), and the random bot presses as often as it plays any one card: a
press gives 1.6 cards on average, so at a table of random bots the hands do not shrink, and 6 of
125 such games at 2 players (10 of 125 at 6) ran past the runaway guard (5,000 turns in a round).
That is the bot, not the rules: one greedy player at the table ends every round.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest

from tests.helpers import assert_conserved, variant
from unodsl import Game, make_agents, play_game
from unodsl.errors import RunawayRound

GAMES = ("no_mercy", "attack")
SIZES = range(2, 7)
MIXES = {"no_mercy": (["greedy"], ["random"], ["greedy", "random"], ["random", "greedy", "greedy"]),
         "attack": (["greedy"], ["random", "greedy"], ["greedy", "random"], ["random", "greedy", "greedy"])}


@dataclass
class Tally:
    games: int = 0
    runaways: int = 0
    turns: int = 0
    rounds: int = 0
    events: int = 0


def play_many(name: str, players: int, games: int) -> Tally:
    tally = Tally()

    def check(g: Game, event: str, data: object) -> None:
        tally.events += 1
        assert_conserved(g, f"{name}, {players} players, seed {g.seed}: COM-3 broken at {event}")

    for seed in range(games):
        g = Game(variant(name), players, seed, listeners=[check])
        try:
            play_game(g, make_agents(MIXES[name][seed % len(MIXES[name])], players, seed))
        except RunawayRound:
            tally.runaways += 1
            continue
        assert g.over and g.winners and not set(g.winners) & g.out
        tally.games += 1
        tally.turns += g.turns
        tally.rounds += g.round
    return tally


def report(name: str, players: int, games: int, t: Tally) -> str:
    played = max(t.games, 1)
    return (f"{name} {players}p: {games} games, {t.runaways} runaways, {t.turns / played:.1f} turns and "
            f"{t.rounds / played:.2f} rounds a game, conservation checked after {t.events} events")


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("name", GAMES)
def test_published_games_play_out_with_cards_conserved(name: str, players: int) -> None:
    t = play_many(name, players, 3)
    assert t.runaways == 0 and t.games == 3 and t.events > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("name", GAMES)
def test_many_published_games_no_runaways(name: str, players: int) -> None:
    games = int(os.environ.get("UNODSL_PUBLISHED_GAMES", "40"))
    t = play_many(name, players, games)
    print(report(name, players, games, t))
    assert t.runaways == 0 and t.games == games
