"""Game.autoplay: agents answer inside the engine's loop, and it is the same game
as answering every decision with apply."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import VARIANTS
from unodsl import Decision, Game, IllegalAction, UnoDslError, load_variant, make_agents
from unodsl.tools.log import event_line

SHIPPED = sorted(VARIANTS.glob("*.yaml")) + sorted((VARIANTS / "house").glob("*.yaml"))


def by_apply(game: Game, agents: list[Any]) -> None:
    while game.decision is not None:
        d = game.decision
        game.apply(agents[d.player].choose(game, d))


def log(game: Game) -> list[str]:
    return [event_line(name, data) for name, data in game.events or ()]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_autoplay_is_the_same_game_as_apply(path: Any) -> None:
    variant = load_variant(path)
    for seed in range(3):
        players = min(variant.min_players + seed % 2, variant.max_players)
        mix = ["random", "greedy"] if seed % 2 else ["greedy", "random", "random"]
        logs, states = [], []
        for drive in (by_apply, lambda g, a: g.autoplay(a)):
            g = Game(variant, players, seed, record=True)
            drive(g, make_agents(mix, players, seed))
            logs.append(log(g))
            states.append((g.scores, g.round_turns, g.winner))
        assert logs[0] == logs[1]
        assert states[0] == states[1]
        assert states[0][2] is not None


def test_autoplay_unrecorded_is_the_same_game_too() -> None:
    variant = load_variant(VARIANTS / "classic.yaml")
    finals = []
    for drive in (by_apply, lambda g, a: g.autoplay(a)):
        g = Game(variant, 4, 11)
        drive(g, make_agents(["random", "greedy"], 4, 11))
        finals.append((g.scores, g.round_turns, [[c.id for c in h] for h in g.hands]))
    assert finals[0] == finals[1]


def test_autoplay_rounds_stops_at_the_next_rounds_first_decision() -> None:
    g = Game(load_variant(VARIANTS / "classic.yaml"), 3, 5)
    g.autoplay(make_agents(["greedy"], 3, 5), rounds=1)
    assert len(g.round_turns) == 1 and g.round == 2
    assert g.decision is not None and not g.over
    g.autoplay(make_agents(["greedy"], 3, 5), rounds=2)
    assert len(g.round_turns) == 3 or g.over


class Failing:
    """Answers like a random bot, then fails at its `fail_at`-th decision."""

    def __init__(self, fail_at: int, how: str) -> None:
        self.count, self.fail_at, self.how = 0, fail_at, how

    def choose(self, game: Game, decision: Decision) -> Any:
        self.count += 1
        if self.count == self.fail_at:
            if self.how == "raise":
                raise RuntimeError("the agent broke")
            return "not an option"
        return decision.options[0]


@pytest.mark.parametrize(("how", "error"), [("raise", RuntimeError), ("illegal", IllegalAction)])
def test_a_failing_agent_leaves_its_decision_pending_and_nothing_changed(how: str, error: type) -> None:
    variant = load_variant(VARIANTS / "classic.yaml")
    g = Game(variant, 2, 3, record=True)
    bad = Failing(6, how)
    with pytest.raises(error):
        g.autoplay([bad, bad])
    d = g.decision
    assert d is not None
    events = len(g.events or ())
    # the same position, reached by apply, asks the same question
    ref = Game(variant, 2, 3, record=True)
    good = Failing(0, how)
    for _ in range(5):
        assert ref.decision is not None
        ref.apply(good.choose(ref, ref.decision))
    assert ref.decision == d and len(ref.events or ()) == events
    # and the game goes on from there
    g.autoplay(make_agents(["greedy"], 2, 3))
    assert g.over


def test_autoplay_wants_one_agent_per_seat() -> None:
    g = Game(load_variant(VARIANTS / "classic.yaml"), 3, 1)
    with pytest.raises(UnoDslError, match="3 players need 3 agents, not 2"):
        g.autoplay(make_agents(["random"], 2, 1))
