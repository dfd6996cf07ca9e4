"""Every shipped variant, random games: the invariants hold after every event.

COM-3 (cards are conserved), every card's change of zone declared by its event
(engine/events.py: MovesDeclared), a valid current player, rounds that end, scores
that are non-negative and equal the points of the cards the scoring counts, and
determinism (the same seed gives the same event log).

Deterministic bots can lock a round into a cycle (8 greedy players in Flip,
seed 2672: every Wild Draw Colour is challenged and drawn back, round after
round of the same moves). The engine's guard ends that round with a
RunawayRound; the invariants still hold up to it, and it must happen again,
identically, with the same seed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import MovesDeclared, assert_conserved
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.errors import RunawayRound
from unodsl.tools.log import event_line

ROOT = Path(__file__).resolve().parents[2] / "variants"
VARIANTS = sorted(ROOT.glob("*.yaml")) + sorted((ROOT / "house").glob("*.yaml"))  # the games and the house rules
AGENT_MIXES = [["random"], ["greedy"], ["random", "greedy"], ["greedy", "random", "random"]]


class Invariants:
    """A listener that checks the game state after every event."""

    def __init__(self) -> None:
        self.events = 0
        self.moves = MovesDeclared()

    def __call__(self, g: Game, name: str, data: dict[str, Any]) -> None:
        self.events += 1
        assert_conserved(g, f"COM-3 broken at {name}")
        self.moves(g, name, data)
        assert 0 <= g.current < g.n
        assert all(not g.hands[p] for p in g.out), "a player out holds no cards"
        assert len(g.out) < g.n, "someone is always left in the round"
        assert all(s >= 0 for s in g.scores)
        if name == "round_end":
            held = [sum(c.points for c in h) for h in g.hands]
            winner = data["player"]
            team = g.team  # each player is a team of one without `teams:`
            assert data["team"] == team(winner) and winner not in g.out
            # One winner: they went out, or every other team is out of the round.
            rivals_in = [p for p in range(g.n) if team(p) != team(winner) and p not in g.out]
            assert not g.hands[winner] or not rivals_in or g.variant.scoring.round == "each_scores_own"
            if g.variant.scoring.round == "winner_scores_others":
                won = sum(held[p] for p in range(g.n) if team(p) != team(winner))
                expected = [won if team(p) == team(winner) else 0 for p in range(g.n)]
            else:
                expected = [0 if team(p) == team(winner) else sum(held[q] for q in range(g.n) if team(q) == team(p))
                            for p in range(g.n)]
            assert data["points"] == expected
        if name == "game_end":
            assert data["team"] == g.team(data["player"])
            assert all(g.scores[p] == g.scores[q] for p in range(g.n) for q in range(g.n) if g.team(p) == g.team(q))


def play(path: Path, players: int, seed: int, mix: list[str]) -> tuple[Game, list[str]]:
    """Play one game; a runaway round ends it (the log then ends with "runaway")."""
    variant = load_variant(path)
    lines: list[str] = []
    check = Invariants()
    game = Game(variant, players, seed, max_turns=20_000,
                listeners=[lambda g, n, d: lines.append(event_line(n, d)), check])
    try:
        play_game(game, make_agents(mix, players, seed))
    except RunawayRound:
        lines.append("runaway")
    else:
        assert game.over and game.winner is not None
        if variant.scoring.game_over is None:  # otherwise the game may end below any target, or have none
            assert variant.scoring.target is not None and max(game.scores) >= variant.scoring.target
    assert check.events > 0
    return game, lines


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: str(p.relative_to(ROOT).with_suffix("")))
@given(data=st.data())
def test_random_games_keep_invariants_and_are_deterministic(path: Path, data: st.DataObject) -> None:
    variant = load_variant(path)
    players = data.draw(st.integers(variant.min_players, min(variant.max_players, 10)), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    mix = data.draw(st.sampled_from(AGENT_MIXES), label="agents")
    _, first = play(path, players, seed, mix)
    _, again = play(path, players, seed, mix)
    assert first == again, "the same seed must give the same event log"


@pytest.mark.slow
@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: str(p.relative_to(ROOT).with_suffix("")))
@pytest.mark.parametrize("players", [2, 3, 4, 6, 10])
def test_many_seeds_every_table_size(path: Path, players: int) -> None:
    variant = load_variant(path)
    if not variant.min_players <= players <= variant.max_players:
        pytest.skip("table size outside the variant's range")
    for seed in range(10):
        play(path, players, seed, AGENT_MIXES[seed % len(AGENT_MIXES)])


@pytest.mark.parametrize("players", [3, 5])
def test_invariants_hold_when_players_are_out_often(tmp_path: Path, players: int) -> None:
    """Mercy at 10 cards (Classic with the mercy rule's threshold lowered): eliminations
    in most rounds, and every invariant still holds, game after game."""
    from tests.helpers import classic_with
    path = classic_with(tmp_path, "rules:\n", "rules:\n  - name: out at 10\n    on: hand_changed\n"
                        "    if: size >= 10\n    do: eliminate(player)\n")
    out = 0
    for seed in range(4):
        _, lines = play(path, players, seed, AGENT_MIXES[seed % len(AGENT_MIXES)])
        out += sum(line.startswith('{"event":"eliminated"') for line in lines)
    assert out > 0
