"""choose_card(options, by, for: "…"): a card choice that says what the card is for (issue
41, item 3), in the prompt a person reads at the terminal and on the web, in the narration
and in the rulebook; text from the file stays data there; calls without it are unchanged."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.helpers import answer
from unodsl import Game, load_variant
from unodsl.cli.common import Console
from unodsl.errors import VariantError
from unodsl.players.human import question
from unodsl.players.narrator import Narrator
from unodsl.tools.rulebook import render
from unodsl.web.frames import decision_data

ZEROS = """extends: classic
name: zeros give a card away
rules:
  - name: zeros
    on: card_played
    if: card.rank == 0
    do: {do}
"""


def zeros(tmp_path: Path, call: str, backend: str = "compiled") -> Game:
    path = tmp_path / "zeros.yaml"
    path.write_text(ZEROS.format(do=json.dumps(f"c = {call}; give(player, next, c)")))
    g = Game(load_variant(path, backend=backend), 2, record=True)
    g.arrange({0: ["red 0", "blue 1", "green 2"], 1: ["blue 5", "blue 6"]},
              discard=["red 3"], draw=["green 5", "green 6", "green 8"])
    answer(g, "play red 0")
    return g


@pytest.mark.parametrize("backend", ["closures", "compiled"])
@pytest.mark.parametrize(("call", "prompt"), [
    ('choose_card(hand, player, for: "to give away")', "pick a card to give away"),
    ('choose_card(hand, player, "to give away")', "pick a card to give away"),
    ('choose_card(hand, for: "to give away")', "pick a card to give away"),
    ("choose_card(hand)", "pick a card"),
    ("choose_card(hand, player)", "pick a card"),
])
def test_the_prompt_says_what_the_card_is_for_and_old_calls_say_pick_a_card(
        tmp_path: Path, backend: str, call: str, prompt: str) -> None:
    g = zeros(tmp_path, call, backend)
    d = g.decision
    assert d is not None and (d.player, d.kind, d.prompt) == (0, "card", prompt)
    answer(g, "green 2")
    assert sorted(c.label for c in g.hands[1]) == ["blue 5", "blue 6", "green 2"]


def test_what_it_is_for_must_be_text(tmp_path: Path) -> None:
    path = tmp_path / "zeros.yaml"
    path.write_text(ZEROS.format(do='"c = choose_card(hand, for: 3); give(player, next, c)"'))
    with pytest.raises(VariantError, match="choose_card\\(\\) wants str for 'for', got int"):
        load_variant(path)


def test_a_person_reads_the_purpose_at_the_terminal_and_on_the_web(tmp_path: Path) -> None:
    d = zeros(tmp_path, 'choose_card(hand, for: "to give to Bob")').decision
    assert d is not None
    assert question(d) == "Pick a card to give to Bob."  # (the file's capitals kept)
    assert decision_data(d, "d1", ["Ann", "Bob"], 0)["question"] == "Pick a card to give to Bob."


HOSTILE = "to [bold red]give[/] a\u200bway <script>x</script>"  # markup, an invisible character, HTML


def test_text_from_the_file_stays_data_where_it_is_printed(tmp_path: Path) -> None:
    d = zeros(tmp_path, f'choose_card(hand, for: "{HOSTILE}")').decision
    assert d is not None
    web = decision_data(d, "d1", ["Ann", "Bob"], 0)["question"]  # (the page sets it as textContent)
    assert web == "Pick a card " + HOSTILE + "."
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system=None, width=200)
    console.print(question(d))
    printed = out.getvalue()
    assert "[bold red]give[/]" in printed and "\u200b" not in printed and "a\\u200bway" in printed
    said: list[str] = []
    Narrator(["Ann", "Bob"], said.append)(Game(load_variant("classic"), 2), "choice",
                                          {"player": 0, "kind": "card", "value": d.options[0], "prompt": d.prompt})
    assert said == [f"    [bold]Ann[/] picks a card {HOSTILE.replace('[', chr(92) + '[')}"]


def test_the_narration_tells_what_a_card_is_picked_for_but_not_a_card_picked_for_nothing() -> None:
    said: list[str] = []
    narrator = Narrator(["Ann", "Bob"], said.append)
    g = Game(load_variant("classic"), 2)
    narrator(g, "choice", {"player": 1, "kind": "card", "value": g.hands[1][0], "prompt": "pick a card to give away"})
    narrator(g, "choice", {"player": 1, "kind": "card", "value": g.hands[1][0], "prompt": "pick a card"})
    assert said == ["    [bold]Bob[/] picks a card to give away"]


def test_the_rulebook_says_what_the_card_is_chosen_for(tmp_path: Path) -> None:
    zeros(tmp_path, 'choose_card(hand, for: "to give *away*")')
    text = render(tmp_path / "zeros.yaml")
    assert "chooses a card from the player's hand to give \\*away\\*" in text
    zeros(tmp_path, "choose_card(hand)")
    assert "chooses a card from the player's hand (“c”)" in render(tmp_path / "zeros.yaml")
