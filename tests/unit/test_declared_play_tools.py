"""The tools at a declared table: narration of a declared play (`cards_played`), and a
person at the terminal who sees the declared zones and makes several-card plays."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.text import Text

from tests.helpers import deal_order
from unodsl import Game, load_variant
from unodsl.cli.play import play
from unodsl.engine.actions import PASS, Lay
from unodsl.players.human import HumanAgent, PlayNarrator, forced_text, help_text, option_text, parse_answer
from unodsl.players.narrator import Narrator
from unodsl.variant.load import Chosen

ROOT = Path(__file__).resolve().parents[2]
ROW = ROOT / "tests" / "table_variants" / "center_row.yaml"
NAMES = ["Ann", "Bob"]
# Bob (seat 1) plays first: the Center Row is red 3, blue 4; the vault holds three red 5s;
# Ann's stock is blue 1, Bob's red 4; the next card drawn is red 6.
ANN = ["blue 1", "blue 2", "blue 3", "blue 5", "blue 6"]
BOB = ["red 3", "blue 6", "blue 6", "blue 5", "blue 5"]
REST = ["red 3", "blue 4", "red 5", "red 5", "red 5", "blue 1", "red 4", "red 6"]


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def row_game(*listeners: object, bob: list[str] = BOB) -> Game:
    return Game(load_variant(ROW), 2, 1, stacked=deal_order([ANN, bob], 0) + REST, listeners=list(listeners))


def _listening(names: list[str]) -> tuple[Narrator, list[str]]:
    lines: list[str] = []
    return Narrator(names, lambda m: lines.extend(plain(m).splitlines())), lines


def _lay(g: Game, text: str) -> Lay:
    assert g.decision is not None
    return next(o for o in g.decision.options if isinstance(o, Lay) and option_text(o, g.decision) == text)


def doubles(options: Chosen | None = None) -> Game:
    return Game(load_variant("house/doubles", options), 2, 1)


# -- narration --------------------------------------------------------------------------
def test_a_doubles_play_is_told_once_with_its_cards_target_play_and_cards_left() -> None:
    narrator, lines = _listening(NAMES)
    g = Game(load_variant("house/doubles"), 2, 1, listeners=[narrator], listen_to=narrator.listen_to())
    g.arrange({0: ["red 5", "yellow 5", "blue 2", "green skip"], 1: ["green 1", "green 2"]}, discard=["red 9"],
              draw=["blue 9"])
    lines.clear()
    g.apply(_lay(g, "doubles: red 5 + yellow 5 on red 9"))
    assert lines[0] == "  Ann plays red 5 and yellow 5 on red 9 (doubles, 2 left)"
    assert not any(re.search(r"plays (red|yellow) 5 \(", line) for line in lines)  # each card not told again
    assert [c.label for c in g.discard_pile[-3:]] == ["red 9", "red 5", "yellow 5"]


def test_the_effects_of_each_card_of_a_play_are_told_with_the_play_as_their_cause(tmp_path: Path) -> None:
    twin = tmp_path / "twin.yaml"
    twin.write_text("extends: classic\nname: Twin draws\nturn:\n  plays:\n    - name: twin_draws\n"
                    "      cards: 2\n      same: card.symbol\n      legal: first(cards).color == current_color\n")
    narrator, lines = _listening(NAMES)
    g = Game(load_variant(twin), 2, 1, listeners=[narrator], listen_to=narrator.listen_to())
    g.arrange({0: ["red draw two", "blue draw two", "green 1", "green 4"], 1: ["green 2", "green 3"]},
              discard=["red 9"], draw=["yellow 1", "yellow 2", "yellow 3", "yellow 4"])
    lines.clear()
    g.apply(_lay(g, "twin draws: red draw two + blue draw two on red 9"))
    assert lines[:3] == ["  Ann plays red draw two and blue draw two on red 9 (twin draws, 2 left)",
                         "    Bob draws 2 (4 cards): Ann's twin draws", "    Bob draws 2 (6 cards): Ann's twin draws"]
    assert [c.label for c in g.discard_pile[-2:]] == ["red draw two", "blue draw two"]


def test_a_play_onto_a_row_is_told_with_the_card_played_onto() -> None:
    narrator, lines = _listening(NAMES)
    g = row_game(narrator, bob=["blue 1", "blue 2", "red 6", "red 6", "red 6"])
    lines.clear()
    g.apply(_lay(g, "pair: blue 2 + blue 1 on blue 4"))
    assert lines[:2] == ["  Bob plays blue 2 and blue 1 on blue 4 (pair, 3 left)",
                         "    Ann draws 1 (6 cards): Bob's pair"]


# -- a person at the terminal --------------------------------------------------------------
def test_the_prompt_shows_the_declared_zones_as_the_person_may_see_them() -> None:
    g = row_game()
    said: list[str] = []
    assert g.decision is not None
    HumanAgent(NAMES, lambda m: said.append(plain(m)), lambda prompt: "1").choose(g, g.decision)
    lines = said[0].splitlines()
    assert lines[2:6] == ["  center row: red 3, blue 4", "  vault: 3 cards (face down)",
                          "  Ann's stock: 1 card (only they see them)", "  your stock: red 4"]
    assert "red 5" not in said[0] and "blue 1" not in said[0]  # the vault's cards, Ann's stock and hand


def test_the_plays_are_listed_readably_and_picked_by_number_or_text() -> None:
    g = row_game()
    d = g.decision
    assert d is not None
    said: list[str] = []
    HumanAgent(NAMES, lambda m: said.append(plain(m)), lambda prompt: "1").choose(g, d)
    assert said[0].splitlines()[-5:] == [
        "Your turn. What do you play?", "  1. single: red 3 on red 3", "  2. single: blue 6 on blue 4",
        "  3. single: blue 5 on blue 4", "  4. draw"]
    assert parse_answer("single: blue 5 on blue 4", d) is d.options[2]
    assert parse_answer("single: r", d) is d.options[0]
    assert parse_answer("single: blue", d) is None  # two plays begin so: the person is asked again


def test_another_play_is_offered_with_pass_after_a_play() -> None:
    g = row_game()
    said: list[str] = []
    answers = iter(["single: red 3", "4"])
    human = HumanAgent(NAMES, lambda m: said.append(plain(m)), lambda prompt: next(answers))
    assert g.decision is not None
    g.apply(human.choose(g, g.decision))
    d = g.decision
    assert d is not None and d.player == 1 and d.prompt == "another play"
    assert [option_text(o, d) for o in d.options] == [  # red 3 left the row, and red 6 took its place
        "single: blue 6 on blue 4", "single: blue 5 on blue 4", "single: blue 6 on red 6", "pass"]
    said.clear()
    assert human.choose(g, d) is PASS
    assert "Another play? Make one of these, or pass to end your turn." in said[0]
    assert "center row: blue 4, red 6" in said[0]
    assert said[0].splitlines()[-2:] == ["  3. single: blue 6 on red 6", "  4. pass (end your turn)"]
    assert plain(help_text(d)).splitlines()[0] == (
        "You may make one more play, onto a card or pile not played onto yet this turn (after a draw: one with the "
        "card drawn), or pass to end your turn.")


def test_a_play_made_for_the_person_is_told_by_its_cards() -> None:
    g = row_game()
    assert g.decision is not None
    cards = list(_lay(g, "single: blue 5 on blue 4").cards)
    assert plain(forced_text("turn", cards)) == "your only move: you have to play blue 5"


def test_the_person_hears_a_play_told_once() -> None:
    said: list[str] = []
    human = HumanAgent(NAMES, lambda m: said.append(plain(m)), lambda prompt: "1")
    narrator = PlayNarrator(NAMES, lambda m: said.append(plain(m)), 0, human)
    g = Game(load_variant("house/doubles"), 2, 1, listeners=[narrator])
    g.arrange({0: ["blue 1"], 1: ["red 5", "yellow 5", "green 7"]}, discard=["red 9"], current=1)
    said.clear()
    g.apply(_lay(g, "doubles: red 5 + yellow 5 on red 9"))
    assert said[0] == "  Bob plays red 5 and yellow 5 on red 9 (doubles, 1 left)"
    assert not any("plays red 5 (" in s or "plays yellow 5 (" in s for s in said)


@pytest.mark.parametrize("answer", ["1", "2"])
def test_a_whole_game_at_a_declared_table_through_the_command(answer: str) -> None:
    lines = "".join(f"{answer}\n" for _ in range(3000))
    result = CliRunner().invoke(play, [str(ROW), "-p", "2", "-s", "3", "-a", "random"], input=lines)
    assert result.exit_code == 0, result.output
    assert "center row: " in result.output and "vault: 3 cards (face down)" in result.output
    assert re.search(r"P1 \(you\) plays [a-z0-9 ]+ on [a-z]+ \d \((single|pair), \d+ left\)", result.output)
    assert "Final scores" in result.output


def test_plays_onto_two_alike_cards_of_a_row_say_which() -> None:
    bob = ["blue 5", "red 6", "red 6", "red 6", "red 5"]
    g = Game(load_variant(ROW), 2, 1, stacked=[*deal_order([ANN, bob], 0), "blue 3", "blue 3", *REST[2:]])
    d = g.decision
    assert d is not None
    assert [option_text(o, d) for o in d.options] == [
        "single: blue 5 on blue 3 (1st blue 3 from the left)", "single: blue 5 on blue 3 (2nd blue 3 from the left)",
        "draw"]
    assert [o.target for o in d.options[:2] if isinstance(o, Lay)] == g.places["center_row"]
