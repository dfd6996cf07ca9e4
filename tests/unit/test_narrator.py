"""The narration of `unodsl run`: every card played, every draw with its cause,
penalties, challenges, the rules that fire (-v), and one "dealt" line per deal."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.helpers import ROOT, classic_with
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.cli import main
from unodsl.engine.events import EVENTS
from unodsl.errors import VariantError
from unodsl.players.narrator import Narrator

HOUSE = ROOT / "variants" / "house"


def told(variant: str | Path, seed: int, players: int = 3, verbose: bool = False,
         options: dict[str, bool] | None = None) -> tuple[list[str], list[tuple[str, dict[str, Any]]]]:
    """The narration of a seeded game (plain text) and the events it was told from."""
    v = load_variant(variant, options)
    lines: list[str] = []
    names = [f"P{p + 1}" for p in range(players)]
    narrator = Narrator(names, lambda m: lines.extend(re.sub(r"\[/?[a-z_ ]*\]", "", m).splitlines()), verbose)
    events: list[tuple[str, dict[str, Any]]] = []
    game = Game(v, players, seed, listeners=[narrator, lambda g, n, d: events.append((n, d))],
                listen_to=narrator.listen_to())
    play_game(game, make_agents(["greedy", "random"], players, seed))
    return lines, events


@pytest.mark.parametrize("variant", ["classic", "flip", "pocket_pizza"])
def test_every_card_played_is_told(variant: str) -> None:
    lines, events = told(variant, seed=2)
    plays = [d for n, d in events if n == "card_played"]
    assert any(d["card"].rank is not None for d in plays) and any(d["card"].rank is None for d in plays)
    assert len([line for line in lines if re.match(r"\s+P\d plays ", line)]) == len(plays)


@pytest.mark.parametrize("variant", ["classic", "duo", "flip"])
def test_every_draw_is_told_once_with_its_count(variant: str) -> None:
    lines, events = told(variant, seed=4, players=2 if variant == "duo" else 3)
    drawn = sum(1 for n, _ in events if n == "card_drawn")
    counted = sum(int(m[1]) for line in lines if (m := re.match(r"\s+P\d draws (\d+) \(", line)))
    assert drawn > 0 and counted == drawn


def test_a_draw_names_the_card_that_caused_it() -> None:
    lines, _ = told("classic", seed=7)
    assert any(re.search(r"P\d draws 2 \(\d+ cards\): P\d's \w+ draw two$", line) for line in lines)
    assert any(re.search(r"P\d draws 4 \(\d+ cards\): P\d's wild draw four$", line) for line in lines)
    own = [line for line in lines if re.fullmatch(r"  P\d draws 1 \(\d+ cards\)", line)]
    assert own, "a turn's own draw is told without a cause"


def test_a_caught_uno_says_why_the_player_draws() -> None:
    caught = [line for seed in range(1, 11) for line in told("classic", seed)[0] if "caught not calling UNO" in line]
    assert caught and all(re.search(r"P\d draws 2 \(\d+ cards\): caught not calling UNO", c) for c in caught)


def test_a_penalty_taken_is_told_with_the_draw() -> None:
    lines, events = told(HOUSE / "draw_two_stacking.yaml", seed=3)
    taken = [d for n, d in events if n == "penalty_taken"]
    told_taken = [line for line in lines if line.endswith("takes the draw penalty")]
    assert taken and len(told_taken) == len(taken)
    assert not any("takes the penalty: draws" in line for line in lines)  # not told twice


def test_challenge_outcomes_are_told() -> None:
    outcomes: set[str] = set()
    for seed in range(1, 7):
        lines, _ = told("classic", seed, options={"wild_draw_four_challenge": True})
        outcomes |= {m[1] for line in lines if (m := re.search(r"draws \d+ \(\d+ cards\): (the challenge \w+)",
                                                              line))}
    assert outcomes == {"the challenge succeeds", "the challenge fails"}


def test_verbose_names_each_rule_that_fires_and_quiet_does_not() -> None:
    lines, events = told("classic", seed=3, verbose=True)
    fired = [d for n, d in events if n == "rule_fired"]
    said = [line for line in lines if "fires (on " in line]
    assert fired and len(said) == len(fired)
    assert "    rule “COM-2: say UNO when one card is left” fires (on hand_changed)" in lines
    lines, events = told("classic", seed=3)
    assert not any(n == "rule_fired" for n, _ in events)
    assert not any("fires (on " in line for line in lines)


@pytest.mark.parametrize("verbose", [False, True])
def test_dealt_is_told_once_per_deal(verbose: bool) -> None:
    lines, events = told("classic", seed=5, verbose=verbose)
    rounds = sum(1 for n, _ in events if n == "round_start")
    assert rounds > 1 and sum(1 for line in lines if "dealt: hands of" in line) == rounds


# -- the rule_fired event -------------------------------------------------------------------------
@pytest.mark.parametrize("path", [ROOT / "variants" / "classic.yaml", HOUSE / "seven_zero.yaml",
                                  ROOT / "variants" / "pocket_pizza.yaml"], ids=lambda p: p.stem)
def test_rule_fired_adds_events_and_changes_nothing_else(path: Path) -> None:
    v = load_variant(path)

    def play(listen_to: list[str] | None) -> list[tuple[str, str]]:
        seen: list[tuple[str, str]] = []
        g = Game(v, 3, 11, listeners=[lambda g, n, d: seen.append((n, repr(sorted(d.items()))))],
                 listen_to=listen_to)
        play_game(g, make_agents(["greedy", "random"], 3))
        return seen

    plain = play(None)
    told_rules = play(list(EVENTS))
    assert "rule_fired" not in {n for n, _ in plain}
    assert [e for e in told_rules if e[0] != "rule_fired"] == plain
    if v.rules:
        fired = [e for e in told_rules if e[0] == "rule_fired"]
        assert fired and all(f"('rule', {r.name!r})" in e[1] for e in fired for r in v.rules if r.name in e[1])


def test_rule_fired_is_not_in_the_event_log_and_the_log_replays(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["run", "classic", "-p", "3", "-s", "3", "-v", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "fires (on " in result.output
    assert not any(json.loads(line).get("event") == "rule_fired" for line in log.read_text().splitlines())
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_a_rule_cannot_wait_for_rule_fired(tmp_path: Path) -> None:
    path = classic_with(tmp_path, "    on: turn_start\n", "    on: rule_fired\n")
    with pytest.raises(VariantError) as err:
        load_variant(path)
    assert "'rule_fired' is told to tools only" in str(err.value)
    assert re.search(r"v\.yaml:\d+:\d+", str(err.value))


def test_calling_uno_is_not_the_cause_of_the_next_draw() -> None:
    """Playing a draw card down to one card: the UNO call comes first, the draw is the card's."""
    lines = [line for seed in range(1, 9) for line in told("classic", seed)[0]]
    assert not [line for line in lines if "calls UNO" in line and "draws" in line]
    after_call = [b for a, b in pairwise(lines)
                  if a.endswith("calls UNO") and b.startswith("    ") and " draws " in b]
    assert after_call and all(re.search(r"draws \d \(\d+ cards\): P\d's \w+ draw two$", b) for b in after_call)


def test_a_player_out_and_a_team_scoring_are_told() -> None:
    from tests.helpers import answer, game
    from tests.scenario.test_mercy import FULL
    lines: list[str] = []
    g = game("house/mercy", 3)
    g.watch(Narrator(["P1", "P2", "P3"], lines.append))
    g.arrange({0: ["red draw two", "red 5", "red 6"], 1: FULL[:24], 2: ["red 1", "blue 2"]},
              discard=["red 3"], draw=["blue 7", "blue 8"])
    answer(g, "play red draw two")
    assert any(re.sub(r"\[/?[a-z ]*\]", "", line) == "    P2 is out of the round (26 cards to the draw pile)"
               for line in lines), lines
    lines.clear()
    g = game("house/partners", 4)
    g.watch(Narrator(["P1", "P2", "P3", "P4"], lines.append))
    g.arrange({0: ["red 5"], 1: ["blue 9", "wild"], 2: ["green 7", "green 8"], 3: ["yellow 2"]},
              discard=["red 3"], dealer=3)
    answer(g, "play red 5")
    plain = [re.sub(r"\[/?[a-z ]*\]", "", line) for line in lines]
    assert any(re.fullmatch(r"  P1 goes out after \d+ turns: team P1 & P3 scores 61", line) for line in plain), lines


def test_the_declared_narration_is_told_from_public_fields_only() -> None:
    """The narrator tells each event by its declaration (engine/events.py), never a field some
    player may not see: a card given is "a card" (the terminal's and the web's narrators name it
    to the two players in their own handlers)."""
    from tests.helpers import game
    g = game("classic", 3)
    lines: list[str] = []
    narrator = Narrator(["P1", "P2", "P3"], lambda m: lines.append(re.sub(r"\[/?[a-z_ ]*\]", "", m)))
    card = g.hands[0][0]
    narrator(g, "card_given", {"player": 0, "other": 2, "card": card})
    narrator(g, "cards_moved", {"player": 0, "source": "hand 1", "target": "discard_pile", "count": 2})
    narrator(g, "hands_passed", {"player": 0, "direction": -1})
    narrator(g, "turn_end", {"player": 0})  # told never: the account's layout shows it
    assert lines == ["    P1 gives a card to P3", "    every hand is passed to the right"]
    narrator.verbose = True
    narrator(g, "cards_moved", {"player": 0, "source": "hand 1", "target": "discard_pile", "count": 2})
    assert lines[-1] == "    P1 moves 2 cards from P2's hand to the discard pile"
