"""What a player said a card counts as (name_number / name_color) is part of what every
seat sees of a declared zone: `PlayerView.zones` (ZoneView.said), the terminal's table,
the web table's frames; the view stays a plain value; a value said is forgotten where
the card no longer lies."""

from __future__ import annotations

import pickle

import pytest

from tests.helpers import answer
from tests.scenario.test_dos import dos
from tests.scenario.test_triple_play import tp
from unodsl import Game
from unodsl.engine import zones as zoning
from unodsl.engine.view import ZoneView
from unodsl.players.human import table_lines
from unodsl.web.frames import face_looks, public_data
from unodsl.web.knowledge import knowledge

ROWS = frozenset({"center_row", "matched", "bonus"})


def wild_number_said_seven() -> Game:
    """P1 matches blue 10 with a red wild number (said: 7) and a green 3, and may match again."""
    g = dos({0: ["red wild number", "green 3", "blue 4", "green 8", "blue 1"], 1: ["red 1", "red 7"],
             2: ["red 3", "red 10"]}, row=["blue 10", "yellow 4"])
    answer(g, "double_match: red wild number + green 3 on blue 10")
    assert g.decision is not None and g.decision.player == 0 and g.decision.kind == "turn"  # the turn goes on
    return g


def zone(g: Game, seat: int, name: str) -> ZoneView:
    return next(z for z in g.view(seat).zones if z.name == name)


def test_every_seat_sees_the_number_said_for_a_card_in_a_zone() -> None:
    g = wild_number_said_seven()
    for seat in range(3):
        matched = zone(g, seat, "matched")
        assert matched.cards == ("red wild number", "green 3", "blue 10")
        assert matched.said == ("7", "", "")
        assert matched.labels() == ("red wild number (7)", "green 3", "blue 10")
        row = zone(g, seat, "center_row")
        assert (row.cards, row.said) == (("yellow 4",), ("",))


def test_a_wild_shows_the_colour_said_for_it_on_its_pile() -> None:
    g = tp({0: ["wild", "blue 9", "yellow 9"], 1: ["green 2", "green 4", "yellow 7"], 2: ["red 7", "red 8"]},
           (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "left: wild on red 1", "green")
    left = zone(g, 1, "left")
    assert (left.cards, left.said, left.labels()) == (("red 1", "wild"), ("", "green"), ("red 1", "wild (green)"))


def test_a_value_said_is_not_shown_once_the_card_lies_elsewhere() -> None:
    g = wild_number_said_seven()
    wild = g.places["matched"][0]
    g.places["matched"].remove(wild)
    g.places["center_row"].append(wild)  # (moved by hand: the value was said in `matched`)
    assert zone(g, 1, "center_row").said == ("", "")
    assert zoning.said_of(g, wild, "matched") == "7" and zoning.said_of(g, wild, "center_row") == ""


def test_a_zone_nobody_said_anything_of_shows_no_value_and_a_hidden_zone_none() -> None:
    g = dos({0: ["red 5", "blue 7"], 1: ["red 1"], 2: ["red 3"]}, row=["yellow 5", "blue 9"])
    row = zone(g, 0, "center_row")
    assert row.said == ("", "") and row.labels() == row.cards == ("yellow 5", "blue 9")
    assert ZoneView("stock", 1, None, 2).labels() is None and ZoneView("stock", 1, None, 2).said is None


def test_the_view_with_a_value_said_is_still_a_plain_value() -> None:
    g = wild_number_said_seven()
    view = g.view(2)
    back = pickle.loads(pickle.dumps(view))
    assert back.zones == view.zones and [c.label for c in back.hand] == [c.label for c in view.hand]
    assert pickle.loads(pickle.dumps(g)).view(2).zones == view.zones
    assert g.clone().view(2) == view
    assert hash(view.zones) == hash(back.zones)


def test_the_terminal_shows_the_value_said() -> None:
    g = wild_number_said_seven()
    lines = table_lines(g.view(1), ["Ann", "Bob", "Cy"], ROWS)
    matched = next(line for line in lines if line.startswith("matched:"))
    assert "red wild number (7)" in matched and "green 3 (" not in matched


def test_the_web_table_sends_the_value_said_with_each_card_of_a_zone() -> None:
    g = wild_number_said_seven()
    for seat in (None, 0, 1):
        zones = public_data(knowledge(g, seat), face_looks(g.variant))["zones"]
        matched = next(z for z in zones if z["name"] == "matched")
        assert [(c["label"], c["said"]) for c in matched["cards"]] == [
            ("red wild number", "7"), ("green 3", ""), ("blue 10", "")]


def test_the_web_table_sends_the_value_said_of_a_piles_top_card() -> None:
    g = tp({0: ["wild", "blue 9", "yellow 9"], 1: ["green 2", "green 4", "yellow 7"], 2: ["red 7", "red 8"]},
           (["red 1"], ["yellow 2"], ["blue 3"]))
    answer(g, "left: wild on red 1", "green")
    zones = public_data(knowledge(g, 2), face_looks(g.variant))["zones"]
    left = next(z for z in zones if z["name"] == "left")
    assert left["cards"] == [{"label": "wild", "color": "", "wild": True, "said": "green"}]


def test_the_rl_observation_counts_the_cards_of_a_zone_by_the_value_said() -> None:
    pytest.importorskip("pettingzoo")
    from unodsl.rl import env

    e = env("dos", players=3, seed=1)
    assert e.game is not None
    e.game.arrange({0: ["red wild number", "green 3", "blue 4", "green 8", "blue 1"], 1: ["red 1", "red 7"],
                    2: ["red 3", "red 10"]}, zones={"center_row": ["blue 10", "yellow 4"]})
    answer(e.game, "double_match: red wild number + green 3 on blue 10")
    width = len(e.colors) + len(e.said_numbers)  # each place: the colours said, then the numbers 1 … 10
    assert (list(e.said_numbers), width) == (list(range(1, 11)), 14)
    for agent in e.possible_agents:
        said = e.observe(agent)["observation"][e.layout["zone_said"]]
        blocks = [{k: int(v) for k, v in enumerate(said[i * width:(i + 1) * width]) if v} for i in range(3)]
        assert blocks == [{}, {len(e.colors) + 7 - 1: 1}, {}]  # center_row, matched (one card said 7), bonus

    e = env("triple_play", players=3, seed=1)
    assert e.game is not None
    e.game.arrange({0: ["wild", "blue 9", "yellow 9"], 1: ["green 2", "green 4", "yellow 7"], 2: ["red 7", "red 8"]},
                   zones={"left": ["red 1"], "middle": ["yellow 2"], "right": ["blue 3"]})
    assert e.game.decision is not None  # (which piles are lit is chance: the wild goes on the first it may)
    wild = next(str(o) for o in e.game.decision.options if ": wild on " in str(o))
    pile = ["left", "middle", "right"].index(wild.split(":")[0])
    answer(e.game, wild, "green")
    width = len(e.colors) + len(e.said_numbers)
    said = e.observe("player_2")["observation"][e.layout["zone_said"]]
    blocks = [[int(v) for v in said[i * width:(i + 1) * width]] for i in range(3)]
    green = [int(c == "green") for c in e.colors] + [0] * len(e.said_numbers)
    assert blocks == [green if i == pile else [0] * width for i in range(3)]
