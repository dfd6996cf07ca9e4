"""The bots make the plays a variant declares (`turn: plays:`, issue 41): greedy sheds
the most cards, expert weighs a several-card play against its one-card plays, ISMCTS
searches them, on arranged positions of house/doubles and of a test variant with a
declared row and two plays a turn (the "another play" decision)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import game, labels, pending
from unodsl import PASS, Game, load_variant
from unodsl.engine.actions import Lay, Play
from unodsl.engine.view import outward
from unodsl.players.bots import ExpertAgent, GreedyAgent, RandomAgent, make_agents
from unodsl.players.ismcts import ISMCTSAgent, action_key

ROW = Path(__file__).resolve().parents[1] / "property" / "row_plays.yaml"  # a declared row, two plays a turn


def choice(agent: Any, g: Game) -> Any:
    d = g.decision
    assert d is not None
    return agent.choose(g, d)


def doubles(hands: dict[int, list[str]], discard: list[str], draw: list[str] | None = None) -> Game:
    g = game("house/doubles")
    g.arrange(hands, discard=discard, draw=draw or [], current=0)
    return g


def test_greedy_makes_the_doubles_play_of_most_cards() -> None:
    g = doubles({0: ["red 7", "blue 7", "blue 7", "red 9"], 1: ["green 2", "green 4"]}, ["red 3"])
    made = choice(GreedyAgent(), g)
    assert isinstance(made, Lay) and made.way == "doubles"
    assert labels(list(made.cards)) == ["red 7", "blue 7", "blue 7"]


def test_greedy_sheds_more_cards_before_more_points() -> None:
    # three 1s (3 points) before a draw two (20 points): the most cards first
    g = doubles({0: ["red 1", "blue 1", "green 1", "red draw two"], 1: ["green 2", "green 4"]}, ["red 3"])
    made = choice(GreedyAgent(), g)
    assert isinstance(made, Lay) and sorted(labels(list(made.cards))) == ["blue 1", "green 1", "red 1"]
    g.apply(made)
    assert labels(g.hands[0]) == ["red draw two"]


def test_greedy_keeps_its_one_card_choice_without_a_declared_play() -> None:
    g = doubles({0: ["red 7", "red 9", "blue 2"], 1: ["green 2", "green 4"]}, ["red 3"])
    made = choice(GreedyAgent(), g)
    assert made == Play(g.hands[0][1])  # the heaviest card, as ever


def test_greedy_makes_another_play_when_a_turn_holds_two() -> None:
    # the row (filled at the turn's start from the draw pile): red 1, blue 9; two plays a turn
    g = Game(load_variant(ROW), 2, 0)
    g.arrange({0: ["red 7", "red 5", "blue 2", "blue 3", "green 8"], 1: ["green 2", "green 4"]},
              discard=["green 3"], draw=["red 1", "blue 9", "yellow 4", "green 5"], current=0)
    assert labels(g.places["center_row"]) == ["red 1", "blue 9"]
    first = choice(GreedyAgent(), g)  # two red cards (12 points) before two blue ones (5)
    assert isinstance(first, Lay) and labels(list(first.cards)) == ["red 7", "red 5"]
    assert first.target.label == "red 1"
    g.apply(first)
    assert pending(g) == (0, "turn", "another play")
    d = g.decision
    assert d is not None and PASS in d.options
    second = choice(GreedyAgent(), g)
    assert isinstance(second, Lay) and labels(list(second.cards)) == ["blue 2", "blue 3"]
    assert second.target.label == "blue 9"
    g.apply(second)
    assert labels(g.hands[0]) == ["green 8"] and labels(g.aside) == ["red 7", "red 5", "blue 2", "blue 3"]
    assert g.decision is not None and g.decision.player == 1  # two plays: the turn is over


def test_expert_makes_a_doubles_play_over_a_low_card() -> None:
    g = doubles({0: ["red 7", "blue 7", "red 5", "green 4", "yellow 6"], 1: ["green 2", "green 4", "blue 1"]},
                ["red 3"])
    made = choice(ExpertAgent(), g)
    assert isinstance(made, Lay) and labels(list(made.cards)) == ["red 7", "blue 7"]


def test_expert_plays_an_action_card_with_a_follow_up_over_a_pair() -> None:
    # red skip with a red follow-up scores 20 * -0.1 + 5 = 3.0; the pair of 7s -0.7 + 3 = 2.3
    g = doubles({0: ["red 7", "blue 7", "red skip", "red 5", "yellow 6"], 1: ["green 2", "green 4", "blue 1"]},
                ["red 3"])
    made = choice(ExpertAgent(), g)
    assert isinstance(made, Play) and made.card.label == "red skip"


def test_an_ismcts_key_of_a_declared_play_is_hashable_and_knows_cards_by_face() -> None:
    g = doubles({0: ["red 7", "blue 7", "blue 7"], 1: ["green 2", "green 4"]}, ["red 3"])
    d = g.decision
    assert d is not None
    lays = [o for o in d.options if isinstance(o, Lay)]
    keys = {action_key(o) for o in lays}
    assert len(keys) == len(lays) == 2
    red, blue, other_blue = g.hands[0]
    top = g.discard_pile[-1]
    assert ("lay", "doubles", (("red 7", outward(red)), ("blue 7", outward(blue))), ("red 3", outward(top))) in keys
    # a blue 7 is known by its faces: the other one makes the same key
    assert action_key(Lay("doubles", (red, other_blue), top)) == action_key(Lay("doubles", (red, blue), top))


def test_ismcts_goes_out_with_the_doubles_play() -> None:
    # red 7 alone leaves blue 7, and the opponent goes out on the red 7 with red 9;
    # red 7 + blue 7 empties the hand now
    g = doubles({0: ["red 7", "blue 7"], 1: ["red 9"]}, ["red 3"])
    made = choice(ISMCTSAgent(1, rollout=GreedyAgent, iterations=60), g)
    assert isinstance(made, Lay) and labels(list(made.cards)) == ["red 7", "blue 7"]


@pytest.mark.parametrize(("name", "players", "seed"), [("house/doubles", 2, 5), ("house/doubles", 3, 5), ("dos", 3, 1)])
def test_ismcts_completes_rounds_making_declared_plays(name: str, players: int, seed: int) -> None:
    made: list[Any] = []

    class Noting(ISMCTSAgent):
        def choose(self, game: Game, decision: Any) -> Any:
            answer = super().choose(game, decision)
            made.append(answer)
            return answer

    g = Game(load_variant(name), players, seed)
    agents = [Noting(7, rollout=GreedyAgent, iterations=8, rollout_turns=10),
              *make_agents(["greedy", "expert"], players - 1, seed)]
    g.autoplay(agents, rounds=1)
    assert len(g.round_turns) == 1 and max(g.scores) > 0  # a round played to its winner, scored
    assert any(isinstance(a, Lay) for a in made)


@pytest.mark.slow  # (about 3 s: rounds of it run by default above)
def test_ismcts_completes_a_game_of_doubles() -> None:
    g = Game(game("house/doubles").variant, 2, 3)
    g.autoplay([ISMCTSAgent(3, rollout=GreedyAgent, iterations=8, rollout_turns=10), RandomAgent(3)])
    assert g.over and g.winner is not None


def test_ismcts_answers_the_another_play_decision_of_a_row_variant() -> None:
    asked: list[str] = []

    class Noting(ISMCTSAgent):
        def choose(self, game: Game, decision: Any) -> Any:
            asked.append(decision.prompt)
            return super().choose(game, decision)

    g = Game(load_variant(ROW), 2, 1)
    g.autoplay([Noting(4, rollout=GreedyAgent, iterations=8, rollout_turns=10), GreedyAgent()], rounds=1)
    assert len(g.round_turns) == 1 and "another play" in asked
