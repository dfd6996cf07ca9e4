"""Plays counted by card kind and by declared play (issue 41): each card of a declared
play counts for its kind wherever it goes (the discard pile or another zone), each play
once by its name; `simulate` and `analyze` show both."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from tests.helpers import labels
from unodsl import Game, load_variant, make_agents
from unodsl.cli import main
from unodsl.engine.actions import Lay
from unodsl.tools.analyze import Budget, analyze, report
from unodsl.tools.analyze.coverage import coverage_lines
from unodsl.tools.analyze.passes import RUSH, Restricted
from unodsl.tools.analyze.watch import answer_label
from unodsl.tools.simulate import simulate

ROW = Path(__file__).resolve().parents[1] / "property" / "row_plays.yaml"


def lay(g: Game, *cards: str, onto: str | None = None) -> Lay:
    """The declared play of the pending decision with these cards (in order), onto `onto`."""
    d = g.decision
    assert d is not None
    for o in d.options:
        if isinstance(o, Lay) and labels(list(o.cards)) == list(cards) and onto in (None, o.target.label):
            return o
    raise AssertionError(f"no play of {cards} onto {onto}: {[str(o) for o in d.options]}")


def test_each_card_of_a_doubles_play_counts_for_its_kind_and_the_play_once() -> None:
    g = Game(load_variant("house/doubles"), 2, 0, count_plays=True)
    g.arrange({0: ["red 7", "blue 7", "blue 7", "red skip"], 1: ["green 2", "green 4"]}, discard=["red 3"])
    before = g.plays_by_kind()
    g.apply(lay(g, "red 7", "blue 7", "blue 7"))
    assert g.plays_by_kind() == {**before, "number": before.get("number", 0) + 3}
    assert g.plays_by_way() == {"doubles": 1}


def test_cards_laid_onto_a_row_count_for_their_kind_though_not_played_onto_the_discard_pile() -> None:
    g = Game(load_variant(ROW), 2, 0, count_plays=True)
    # the row is filled at the turn's start from the draw pile: red 1, red 9
    g.arrange({0: ["red 7", "red draw two", "blue 2"], 1: ["green 2", "green 4"]}, discard=["green 3"],
              draw=["red 1", "red 9", "yellow 4"])
    assert labels(g.places["center_row"]) == ["red 1", "red 9"]
    before, pile = g.plays_by_kind(), labels(g.discard_pile)
    g.apply(lay(g, "red 7", "red draw two", onto="red 9"))
    assert labels(g.aside) == ["red 7", "red draw two"] and labels(g.discard_pile) == pile
    assert labels(g.places["center_row"]) == ["red 1", "red 9", "yellow 4"]  # then: one more from the draw pile
    assert g.plays_by_kind() == {**before, "number": before.get("number", 0) + 1,
                                 "draw_two": before.get("draw_two", 0) + 1}
    assert g.plays_by_way() == {"lay_on_row": 1}


def test_a_game_that_counts_no_plays_says_so_for_plays_by_way_too() -> None:
    g = Game(load_variant("house/doubles"), 2, 0)
    try:
        g.plays_by_way()
    except Exception as err:
        assert "count_plays=True" in str(err)
    else:
        raise AssertionError("plays_by_way of a game that counts none")


def test_simulate_counts_every_card_of_a_declared_play_and_each_play_by_name() -> None:
    sim = simulate(ROW, 6, players=3, agents=["greedy", "random"], seed=1)
    figs = sim.figures()
    made = figs["plays_made"]
    assert set(made["by_play"]) == {"lay_on_row"} and made["by_play"]["lay_on_row"]["count"] == made["total"] > 0
    assert sim.tally.plays_made == {"lay_on_row": made["total"]}
    assert Game(load_variant(ROW), 3, 1, count_plays=True).plays_by_way() == {}  # none made yet
    doubles = simulate("house/doubles", 6, players=3, agents=["greedy"], seed=2).figures()
    assert doubles["plays_made"]["by_play"]["doubles"]["count"] > 0
    plain = simulate("classic", 2, players=2, seed=2).figures()
    assert plain["plays_made"] == {"total": 0, "per_round": 0.0, "by_play": {}}


def test_simulate_prints_the_declared_plays_made() -> None:
    result = CliRunner().invoke(main, ["simulate", str(ROW), "-n", "4", "-p", "3", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "Declared plays made" in result.output and "lay_on_row" in result.output
    as_json = CliRunner().invoke(main, ["simulate", str(ROW), "-n", "4", "-p", "3", "--seed", "1", "--json"])
    doc = json.loads(as_json.output)
    assert doc["plays_made"]["by_play"]["lay_on_row"]["count"] > 0
    plain = CliRunner().invoke(main, ["simulate", "classic", "-n", "2", "-p", "2"])
    assert plain.exit_code == 0 and "Declared plays made" not in plain.output


def test_analyze_counts_declared_plays_and_cards_laid_onto_a_row() -> None:
    a = analyze(ROW, players=3, agents=["greedy"], seed=3, budget=Budget(rounds=40, games=0, power=0, train=40))
    cov = report(a)["sections"]["coverage"]
    assert cov["plays"]["lay_on_row"] > 0 and cov["plays_never_made"] == []
    assert cov["kinds"]["number"] > 0
    assert any(k.endswith("declared play lay_on_row") for k in a.lab.chosen), sorted(a.lab.chosen)
    lines = [line for _, group in coverage_lines(cov, "greedy") for line in group]
    assert not any("declared play never made" in line for line in lines)


def test_coverage_lists_a_declared_play_never_made(tmp_path: Path) -> None:
    never = tmp_path / "never.yaml"
    never.write_text(ROW.read_text().replace("legal: first(cards).color == target.color",
                                              "legal: first(cards).color == target.color and player_count > 9"))
    a = analyze(never, players=3, agents=["greedy"], seed=3, budget=Budget(rounds=20, games=0, power=0, train=20))
    cov = report(a)["sections"]["coverage"]
    assert cov["plays"] == {"lay_on_row": 0} and [p["name"] for p in cov["plays_never_made"]] == ["lay_on_row"]
    lines = [line for _, group in coverage_lines(cov, "greedy") for line in group]
    assert any(line.startswith("declared play never made: lay_on_row") for line in lines)


def test_a_declared_play_is_an_answer_of_its_own_and_plays_the_kinds_of_its_cards() -> None:
    g = Game(load_variant("house/doubles"), 2, 0)
    g.arrange({0: ["red 7", "blue 7", "red skip"], 1: ["green 2", "green 4"]}, discard=["red 3"])
    d = g.decision
    assert d is not None
    pair = lay(g, "red 7", "blue 7")
    assert answer_label(d, pair, 2) == "declared play doubles"
    # rushing number cards offers the options that play one, a declared play of them included
    offered: list[Any] = []

    class Seen:
        name = "seen"

        def choose(self, game: Any, decision: Any) -> Any:
            offered.extend(decision.options)
            return decision.options[0]

    Restricted(Seen(), "number", RUSH).choose(g, d)
    assert pair in offered and "draw" not in [str(o) for o in offered]
    assert {o.card.kind for o in offered if not isinstance(o, Lay)} == {"number"}


def test_the_counts_of_a_round_are_its_plays_events_by_kind_and_by_play() -> None:
    """Over whole rounds of the row variant (plays onto the discard pile and onto the row):
    the kinds counted are those of every card_played plus every card of a declared play
    put elsewhere, and the plays counted are the cards_played events by name."""
    seen: list[tuple[dict[str, int], dict[str, int], Counter[str], Counter[str]]] = []
    kinds: Counter[str] = Counter()
    ways: Counter[str] = Counter()

    def listen(game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "card_played":
            kinds[data["card"].kind] += 1
        elif name == "cards_played":
            ways[data["play"]] += 1
            if data["to"] != "discard_pile":
                kinds.update(c.kind for c in data["cards"])
        elif name == "round_end":
            seen.append((game.plays_by_kind(), game.plays_by_way(), kinds.copy(), ways.copy()))
            kinds.clear()
            ways.clear()

    g = Game(load_variant(ROW), 3, 2, count_plays=True, listeners=[listen],
             listen_to=("card_played", "cards_played", "round_end"))
    g.autoplay(make_agents(["greedy", "random"], 3, 2), rounds=3)
    assert len(seen) == 3
    for by_kind, by_way, want_kinds, want_ways in seen:
        assert by_kind == dict(want_kinds) and by_way == dict(want_ways) and by_way
