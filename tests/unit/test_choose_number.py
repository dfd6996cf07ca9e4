"""choose_number(lo, hi): a whole number a player picks (issue 41, item 3), and every
generic handler of a decision kind that must know the kind "int": the engine's answer
check, the bots, the person at the terminal, the narrator, the web table, the RL
environment, saves and both backends."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.helpers import answer
from unodsl import Game, load_variant, make_agents
from unodsl.engine.actions import KINDS, Decision, decode_answer, encode_answer
from unodsl.errors import IllegalAction, VariantRuntimeError
from unodsl.players.bots import ExpertAgent, GreedyAgent, RandomAgent
from unodsl.players.human import HumanAgent, forced_text, matches, parse_answer, question, render_prompt
from unodsl.players.ismcts import ISMCTSAgent
from unodsl.players.narrator import Narrator
from unodsl.variant.asks import numbers_offered
from unodsl.web.frames import decision_data

SEVENS = """extends: classic
name: sevens name a number
rules:
  - name: sevens
    on: card_played
    if: card.rank == 7
    do: "n = choose_number({lo}, {hi}); draw(next, n)"
"""


def sevens(tmp_path: Path, lo: str = "0", hi: str = "3", backend: str = "compiled") -> Game:
    path = tmp_path / "sevens.yaml"
    path.write_text(SEVENS.format(lo=lo, hi=hi))
    g = Game(load_variant(path, backend=backend), 2, record=True)
    g.arrange({0: ["red 7", "blue 1", "green 1", "yellow 2"], 1: ["blue 5", "blue 6"]},
              discard=["red 3"], draw=["green 5", "green 6", "green 8", "green 9"])
    return g


def at_number(g: Game) -> Decision:
    answer(g, "play red 7")
    d = g.decision
    assert d is not None
    return d


@pytest.mark.parametrize("backend", ["closures", "compiled"])
def test_choose_number_offers_each_whole_number_of_the_range_and_the_answer_is_the_number(
        tmp_path: Path, backend: str) -> None:
    g = sevens(tmp_path, backend=backend)
    d = at_number(g)
    assert (d.player, d.kind, d.options, d.prompt) == (0, "int", (0, 1, 2, 3), "pick a number")
    answer(g, 2)
    assert g.events is not None
    at = g.events.index(("choice", {"player": 0, "kind": "int", "value": 2, "prompt": "pick a number"}))
    after = g.events[at + 1:]
    drawn = [d["card"].label for e, d in after[:[e for e, _ in after].index("turn_start")] if e == "card_drawn"]
    assert drawn == ["green 5", "green 6"]  # the next player draws the number picked


def test_a_number_answer_must_be_an_int_of_the_range_and_a_refusal_changes_nothing(tmp_path: Path) -> None:
    g = sevens(tmp_path)
    d = at_number(g)
    before = (len(g.actions), [list(h) for h in g.hands])
    for wrong in (True, False, 4, -1, 2.0, "2"):
        with pytest.raises(IllegalAction):
            g.apply(wrong)
    assert g.decision == d and (len(g.actions), [list(h) for h in g.hands]) == before


@pytest.mark.parametrize("backend", ["closures", "compiled"])
@pytest.mark.parametrize(("lo", "hi", "message"), [
    ("3", "2 - count(hand)", "choose_number(3, -1) has no number to choose: -1 is below 3"),
    ("0", "1000 * count(hand)", "choose_number(0, 3000) offers 3,001 numbers; at most 1,000 can be offered"),
])
def test_an_empty_or_absurd_range_is_a_runtime_error_at_the_call(tmp_path: Path, backend: str, lo: str, hi: str,
                                                                  message: str) -> None:
    g = sevens(tmp_path, lo, hi, backend)
    with pytest.raises(VariantRuntimeError) as err:
        answer(g, "play red 7")
    text = str(err.value)
    assert message in text
    assert text.startswith(f"{tmp_path / 'sevens.yaml'}:7:")  # the rule's `do:` line


def test_a_range_of_exactly_a_thousand_numbers_is_offered(tmp_path: Path) -> None:
    g = sevens(tmp_path, "1", "1000 * (count(hand) - 2)")  # three cards left: 1 … 1000
    assert at_number(g).options == tuple(range(1, 1001))


def test_the_kind_int_is_declared_with_help_and_int_answers() -> None:
    kind = KINDS["int"]
    assert kind.answers == frozenset({int}) and not kind.plays and "number" in kind.help


def test_bots_answer_a_number_from_the_range(tmp_path: Path) -> None:
    g = sevens(tmp_path)
    d = at_number(g)  # player 0 holds blue 1, green 1, yellow 2
    assert GreedyAgent().choose(g, d) == 1 and ExpertAgent().choose(g, d) == 1  # the rank held most
    picks = {RandomAgent(random.Random(s)).choose(g, d) for s in range(40)}
    assert picks == {0, 1, 2, 3}
    assert ISMCTSAgent(random.Random(1), rollout=GreedyAgent, iterations=30).choose(g, d) in d.options


def test_greedy_names_the_lowest_number_when_it_holds_no_rank_of_the_range() -> None:
    d = Decision(0, "int", (4, 5, 6), "pick a number")

    table = SimpleNamespace(hands=[[]])  # holds no card
    assert GreedyAgent().choose(table, d) == 4  # type: ignore[arg-type]


def test_a_person_types_the_number_itself_not_its_position(tmp_path: Path) -> None:
    g = sevens(tmp_path)
    d = at_number(g)
    assert parse_answer("2", d) == 2 and parse_answer(" 3 ", d) == 3
    assert matches("4", d) == [] and matches("-1", d) == [] and matches("two", d) == []
    assert question(d) == "Pick a number from 0 to 3."
    said: list[str] = []
    typed = iter(["9", "x", "1"])
    person = HumanAgent(["Ann", "Bob"], said.append, lambda prompt: said.append(prompt) or next(typed))
    assert person.choose(g, d) == 1
    assert any("0–3" in line for line in said)
    assert sum("is not a number you can pick: type one from 0–3" in line for line in said) == 2
    assert "type a number from [bold]0[/] to [bold]3[/]" in render_prompt(g.view(0), d, ["Ann", "Bob"])
    assert forced_text("int", 5) == "only one number can be picked: 5"


def test_the_narrator_tells_the_number_picked(tmp_path: Path) -> None:
    said: list[str] = []
    narrator = Narrator(["Ann", "Bob"], said.append)
    g = sevens(tmp_path)
    narrator.game = g
    narrator(g, "choice", {"player": 0, "kind": "int", "value": 2, "prompt": "pick a number"})
    assert said == ["    [bold]Ann[/] picks the number 2"]


def test_the_web_table_offers_each_number_as_a_number(tmp_path: Path) -> None:
    g = sevens(tmp_path)
    data = decision_data(at_number(g), "d1", ["Ann", "Bob"], 0)
    assert data["kind"] == "int" and data["question"] == "Pick a number from 0 to 3."
    assert data["options"] == [{"what": "int", "text": str(n), "value": n} for n in range(4)]


def test_a_number_answer_is_saved_as_itself_and_a_game_replays_from_its_answers(tmp_path: Path) -> None:
    d = at_number(sevens(tmp_path))
    assert encode_answer(3) == 3 and decode_answer(d, 3) == 3 and decode_answer(d, True) is True
    variant = load_variant(tmp_path / "sevens.yaml")
    g = Game(variant, 3, 5, record=True)
    g.autoplay(make_agents(["greedy", "random"], 3, 5), rounds=1)
    assert g.events is not None and any(e == "choice" and d["kind"] == "int" for e, d in g.events)
    again = Game.from_actions(variant, 3, 5, g.actions, record=True)
    assert again.events == g.events


def test_the_rl_action_space_holds_the_widest_range_a_file_can_offer(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo")
    from unodsl.rl import UnoEnv

    path = tmp_path / "sevens.yaml"
    path.write_text(SEVENS.format(lo="2", hi="option.hand_size + 3"))  # 2 … 10 with Classic's 7 cards
    variant = load_variant(path)
    assert numbers_offered(variant) == 9 and numbers_offered(load_variant("classic")) == 0
    table = UnoEnv(variant, 2)
    assert table.num_actions == 54 + 4 + 2 + 5 + 9
    assert table.action_names[table.number_base:] == [f"number lo+{k}" for k in range(9)]
    d = Decision(0, "int", tuple(range(2, 11)), "pick a number")
    assert table.legal_actions(d) == {table.number_base + k: 2 + k for k in range(9)}
    path.write_text(SEVENS.format(lo="0", hi="count(hand)"))  # known only in play: room for the most
    assert numbers_offered(load_variant(path)) == 1_000


EVERY_TURN = """extends: classic
name: a number every turn
rules:
  - name: number
    on: turn_start
    do: "n = choose_number(1, 5); if n == 5 then flag(player, \\"five\\")"
"""


def test_pettingzoo_api_test_passes_with_numbers_to_pick_and_they_are_picked(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np
    from pettingzoo.test import api_test, seed_test

    from unodsl.rl import env

    path = tmp_path / "every_turn.yaml"
    path.write_text(EVERY_TURN)
    api_test(env(str(path), players=3, seed=1), num_cycles=40)
    seed_test(lambda: env(str(path), players=3, seed=1), num_cycles=40)
    table = env(str(path), players=2, seed=3)
    table.reset()
    rng = np.random.default_rng(0)
    picked = []
    for _ in table.agent_iter(200):
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        if action >= table.number_base:
            picked.append(action - table.number_base + 1)
        table.step(action)
    assert table.numbers == 5 and set(picked) == {1, 2, 3, 4, 5}
