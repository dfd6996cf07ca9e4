"""The expert heuristic, and ISMCTS deals that fit what the opponents' draws showed."""

from __future__ import annotations

import random

from tests.helpers import game
from unodsl import Game
from unodsl.engine.actions import KEEP, Play
from unodsl.players.bots import ExpertAgent, GreedyAgent, parse_agent
from unodsl.players.ismcts import ISMCTSAgent, _fit_deal


def _expert_choice(g: Game) -> object:
    d = g.decision
    assert d is not None
    return ExpertAgent().choose(g, d)


# -- the expert heuristic ------------------------------------------------------------
def test_expert_keeps_its_wild_while_a_coloured_card_can_go() -> None:
    g = game("classic")
    g.arrange({0: ["wild", "red 5", "blue 3", "green 4"], 1: ["red 9", "blue 8", "green 2", "yellow 1"]},
              discard=["red 1"], current=0)
    choice = _expert_choice(g)
    assert isinstance(choice, Play) and choice.card.label == "red 5"
    greedy = GreedyAgent().choose(g, g.decision)  # type: ignore[arg-type]
    assert greedy.card.label == "wild"  # (what the expert does differently)


def test_expert_plays_its_heaviest_card_when_the_opponent_is_about_to_go_out() -> None:
    g = game("classic")
    g.arrange({0: ["wild", "red 5", "blue 3", "green 4"], 1: ["yellow 1"]}, discard=["red 1"], current=0)
    choice = _expert_choice(g)
    assert isinstance(choice, Play) and choice.card.label == "wild"


def test_expert_prefers_an_action_card_with_a_follow_up() -> None:
    g = game("classic")
    g.arrange({0: ["red 9", "red skip", "red 2", "blue 3"], 1: ["green 9", "blue 8", "green 2", "yellow 1"]},
              discard=["red 1"], current=0)
    choice = _expert_choice(g)
    assert isinstance(choice, Play) and choice.card.label == "red skip"


def test_expert_keeps_a_drawn_wild_for_later() -> None:
    g = game("classic")
    g.arrange({0: ["blue 3", "green 4", "yellow 7", "blue 9"], 1: ["red 9", "red 8", "green 2"]},
              discard=["red 1"], draw=["wild"], current=0)
    # nothing goes on red 1: the draw is forced, and the wild is offered
    assert g.decision is not None and g.decision.kind == "drawn"
    assert _expert_choice(g) is KEEP


def test_expert_is_named_and_takes_no_parameters() -> None:
    assert parse_agent("expert") == ("expert", {})
    assert parse_agent("ismcts:rollout=expert:infer=no") == ("ismcts", {"rollout": ExpertAgent, "infer": False})


# -- deals that fit the opponents' draws ---------------------------------------------------
def _after_an_opponent_draw() -> tuple[Game, int]:
    """A classic heads-up game played by greedy bots until P2 has begun a turn by
    drawing with four cards or more and P1 is to choose (the first such seed)."""
    v = game("classic").variant
    for seed in range(50):
        g = Game(v, 2, seed, listen_to=["turn_start", "card_drawn", "card_played"], listeners=[])
        turn: list[int | None] = [None]
        drew = [False]

        def listen(game: Game, name: str, data: dict[str, object], turn: list[int | None] = turn,
                   drew: list[bool] = drew) -> None:
            if name == "turn_start":
                turn[0] = data["player"] if not game.penalty else None  # type: ignore[assignment]
            elif name == "card_drawn" and data["player"] == turn[0] == 1 and len(game.hands[1]) >= 5:
                drew[0] = True
            elif name in ("card_drawn", "card_played"):
                turn[0] = None

        g.listeners.append(listen)
        bots = [GreedyAgent(), GreedyAgent()]
        while g.decision is not None and not g.round_turns:
            d = g.decision
            if drew[0] and d.player == 0 and d.kind == "turn" and len(d.options) > 1:
                return g, seed
            g.apply(bots[d.player].choose(g, d))
    raise AssertionError("no seed gives an opponent's draw")


def test_an_opponents_draw_becomes_a_constraint_the_true_hand_meets() -> None:
    g, _ = _after_an_opponent_draw()
    agent = ISMCTSAgent(1, rollout=GreedyAgent, iterations=5)
    fits = agent._constraints(g, 0)
    assert fits and all(f.player == 1 for f in fits)
    for f in fits:  # greedy draws only when it cannot play: its real hand fits
        assert sum(f.fits(c) for c in g.hands[1]) >= f.need


def test_fitted_deals_meet_every_constraint_and_uniform_ones_often_do_not() -> None:
    g, _ = _after_an_opponent_draw()
    fits = ISMCTSAgent(1, rollout=GreedyAgent, iterations=5)._constraints(g, 0)
    rng = random.Random(4)

    def met(d: Game) -> bool:
        return all(sum(f.fits(c) for c in d.hands[1]) >= f.need for f in fits)

    uniform = [g.resample(0, rng) for _ in range(40)]
    assert not all(met(d) for d in uniform)
    for d in uniform:
        sizes = (len(d.hands[1]), len(d.draw_pile))
        _fit_deal(d, fits, rng)
        assert met(d) and (len(d.hands[1]), len(d.draw_pile)) == sizes
        assert d.hands[0] == g.hands[0]


def test_no_constraints_for_an_arranged_game() -> None:
    g = game("classic")
    g.arrange({0: ["red 5", "blue 3"], 1: ["red 9", "green 2"]}, discard=["red 1"], current=0)
    assert ISMCTSAgent(1, rollout=GreedyAgent, iterations=5)._constraints(g, 0) == []


# -- the opponents' policy in rollouts ---------------------------------------------------
def test_opponents_policy_plays_the_other_seats_of_the_rollouts() -> None:
    g = game("classic")
    g.arrange({0: ["red 5", "blue 3"], 1: ["red 9", "green 2"]}, discard=["red 1"], current=0)
    agent = ISMCTSAgent(1, rollout=ExpertAgent, opponents=GreedyAgent, iterations=3)
    d = g.decision
    assert d is not None
    agent.choose(g, d)
    assert [type(a) for a in agent._rollout_agents] == [ExpertAgent, GreedyAgent]
    plain = ISMCTSAgent(1, rollout=ExpertAgent, iterations=3)
    plain.choose(g, d)
    assert [type(a) for a in plain._rollout_agents] == [ExpertAgent, ExpertAgent]
    assert parse_agent("ismcts:opponents=greedy") == ("ismcts", {"opponents": GreedyAgent})
