"""The ISMCTS bot: seeded and deterministic, usable by name, and it searches every
kind of decision (each on an arranged position where one answer is clearly best)."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from tests.helpers import answer, game, pending
from unodsl import Game
from unodsl.cli import main
from unodsl.engine.actions import KEEP, Play
from unodsl.players.bots import AgentSpecError, GreedyAgent, agent_specs, make_agents, parse_agent
from unodsl.players.ismcts import ISMCTSAgent


def bot(iterations: int = 150, seed: int = 1) -> ISMCTSAgent:
    return ISMCTSAgent(seed, rollout=GreedyAgent, iterations=iterations)


def searched(g: Game, agent: ISMCTSAgent | None = None) -> Any:
    agent = agent or bot()
    d = g.decision
    assert d is not None
    return agent.choose(g, d)


# -- every kind of decision ----------------------------------------------------
def test_turn_plays_the_only_winning_card() -> None:
    g = game("classic")
    g.arrange({0: ["blue 3", "red 5"], 1: ["red 9"]}, discard=["red 1"], current=0)
    # red 5 leaves blue 3, which nothing lets P1 stop; blue 3 cannot go; drawing helps P1
    choice = searched(g)
    assert isinstance(choice, Play) and choice.card.label == "red 5"


def test_drawn_card_is_played_when_keeping_it_loses() -> None:
    g = game("classic")
    # P1 goes out with red 9 on anything red; the drawn wild is the only way to change colour
    g.arrange({0: ["blue 3"], 1: ["red 9"]}, discard=["red 1"], draw=["wild"], current=0)
    # blue 3 cannot go: drawing is the only option, taken without asking
    assert pending(g)[:2] == (0, "drawn")
    choice = searched(g)
    assert choice is not KEEP and choice.card.label == "wild"


def test_colour_named_is_not_the_one_the_opponent_goes_out_on() -> None:
    g = game("classic")
    g.arrange({0: ["wild", "blue 3", "green 4"], 1: ["red 9"]}, discard=["red 1"], current=0)
    answer(g, "play wild")
    assert pending(g)[:2] == (0, "color")
    assert searched(g) != "red"


def test_ask_says_uno() -> None:
    # (300 iterations of the tree alone do not separate yes from no, a few points of
    # win rate apart; the rollout policy's yes carries it through the prior of 8)
    g = game("classic")
    g.arrange({0: ["blue 5", "green 4"], 1: ["red 9", "red 8", "green 2"]},
              discard=["blue 1"], current=0)
    answer(g, "play blue 5")
    d = g.decision
    assert d is not None and d.kind == "ask" and d.player == 0
    assert searched(g, bot(300)) is True


def test_player_targets_the_opponent_about_to_go_out() -> None:
    g = game("all_wild", players=3)
    g.arrange({0: ["wild targeted draw two", "wild", "wild"], 1: ["wild"], 2: ["wild"] * 6},
              discard=["wild"], current=0)
    answer(g, "play wild targeted draw two")
    assert pending(g)[:2] == (0, "player")
    assert searched(g) == 1


def test_card_given_away_is_the_one_that_cannot_be_played() -> None:
    g = game("pocket_pizza")
    g.arrange({0: ["wild deep into the deck", "red 5"], 1: ["green 9", "green 8"]},
              discard=["red 1"], draw=["blue 2"], current=0)
    answer(g, "play wild deep into the deck", "yes", "red")
    assert pending(g)[:2] == (0, "card")
    assert searched(g).label == "blue 2"


# -- seeded, deterministic -------------------------------------------------------
def _round(seed: int, agent_seed: int, spec: str = "ismcts:iterations=20") -> list[Any]:
    g = Game(game("classic").variant, 2, seed)
    g.autoplay(make_agents([spec, "greedy"], 2, agent_seed), rounds=1)
    return g.actions


def test_same_seed_same_game() -> None:
    assert _round(3, 5) == _round(3, 5)


def test_another_agent_seed_can_change_the_search() -> None:
    # without the prior: with it, 20 iterations rarely overrule the rollout policy's choice
    spec = "ismcts:iterations=20:prior=0"
    assert _round(3, 5, spec) == _round(3, 5, spec)
    assert any(_round(3, 5, spec) != _round(3, s, spec) for s in (6, 7, 8))


def test_search_inside_autoplay_sees_the_settled_game() -> None:
    """An agent asked inside autoplay searches the same position as one driven by apply."""
    v = game("classic").variant
    by_autoplay = Game(v, 2, 4)
    by_autoplay.autoplay(make_agents(["ismcts:iterations=15"], 2, 2), rounds=1)
    by_apply = Game(v, 2, 4)
    bots = make_agents(["ismcts:iterations=15"], 2, 2)
    while by_apply.decision is not None and not by_apply.round_turns:
        d = by_apply.decision
        by_apply.apply(bots[d.player].choose(by_apply, d))
    assert by_autoplay.actions == by_apply.actions


# -- agent specs ---------------------------------------------------------------------
def test_specs_parse_with_colons_or_continued_by_commas() -> None:
    assert agent_specs("ismcts:iterations=40,rollout=random,greedy") == [
        "ismcts:iterations=40:rollout=random", "greedy"]
    name, params = parse_agent("ismcts:iterations=40:c=0.5")
    assert (name, params) == ("ismcts", {"iterations": 40, "c": 0.5})


@pytest.mark.parametrize(("spec", "message"), [
    ("ismcts:iterations=0", "iterations must be at least 1, not 0"),
    ("ismcts:iterations=many", "iterations must be a whole number, not 'many'"),
    ("ismcts:iteration=4", "has no parameter 'iteration' (did you mean 'iterations'?)"),
    ("ismcts:rollout=smart", "unknown rollout policy 'smart'"),
    ("ismcts:seconds=-1", "seconds must be more than 0"),
    ("ismcts:iterations", "needs a value"),
    ("greedy:iterations=4", "agent 'greedy' takes no parameters"),
    ("ismtcs", "unknown agent 'ismtcs' (did you mean 'ismcts'?)"),
])
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        parse_agent(spec)


def test_cli_reports_a_bad_parameter_without_a_traceback() -> None:
    result = CliRunner().invoke(main, ["run", "classic", "--seed", "1", "--agents", "ismcts:iterations=zero"])
    assert result.exit_code == 2
    assert "iterations must be a whole number, not 'zero'" in result.output
    assert "Traceback" not in result.output


def test_cli_runs_a_round_with_ismcts() -> None:
    result = CliRunner().invoke(main, ["run", "duo", "--seed", "1", "--rounds", "1",
                                       "--agents", "ismcts:iterations=5,greedy"])
    assert result.exit_code == 0, result.output
    assert "P1 (ismcts)" in result.output
