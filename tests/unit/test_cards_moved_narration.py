"""The narration of cards moved between zones names the player and, where the reader may
know them, the cards (issue 41, item 6): `cards_moved` carries its cards, seen by everyone
when they leave or reach a face-up zone, else only by the players whose hands they leave
or reach; what a seat may not know stays out of its narration and its information state."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tests.helpers import answer, events
from unodsl import Game, load_variant
from unodsl.engine.events import visible_to, who_sees
from unodsl.players.narrator import Narrator
from unodsl.web.narration import SeatNarrator

SEVENS = """extends: classic
name: sevens move cards
rules:
  - name: sevens
    on: card_played
    if: card.rank == 7
    do: {do}
"""


def sevens(tmp_path: Path, effect: str, players: int = 3, backend: str = "compiled", zones: str = "") -> Game:
    path = tmp_path / "sevens.yaml"
    path.write_text(SEVENS.format(do=json.dumps(effect)) + zones)
    g = Game(load_variant(path, backend=backend), players, record=True)
    g.arrange({0: ["red 7", "blue 5", "red 3", "green 1"], 1: ["blue 6", "yellow 2"], 2: ["green 4", "green 9"]},
              discard=["red 8"], draw=["yellow 5", "yellow 6", "yellow 8", "yellow 9"])
    answer(g, "play red 7")
    return g


def moved(g: Game) -> list[dict[str, object]]:
    return [{**d, "cards": [c.label for c in d["cards"]]} for d in events(g, "cards_moved")]


def told(g: Game, seat: int = -1) -> list[str]:
    """What a verbose narrator of `seat`'s view says of the game's cards_moved events."""
    lines: list[str] = []
    narrator = Narrator(["Ann", "Bob", "Cy"], lambda m: lines.append(re.sub(r"\[/?[a-z_ ]*\]", "", m).strip()),
                        verbose=True)
    narrator.viewer = seat
    assert g.events is not None
    for name, data in g.events:
        if name == "cards_moved":
            narrator(g, name, data)
    return lines


@pytest.mark.parametrize("backend", ["closures", "compiled"])
def test_cards_moved_to_the_discard_pile_are_named_with_the_player_and_their_hand(tmp_path: Path,
                                                                                  backend: str) -> None:
    g = sevens(tmp_path, "move(hand, discard_pile, 2)", backend=backend)
    assert moved(g) == [{"player": 0, "source": "hand 0", "target": "discard_pile", "count": 2,
                         "cards": ["green 1", "red 3"]}]
    assert told(g) == ["Ann moves green 1 and red 3 from their hand to the discard pile"]


def test_cards_moved_from_a_hand_to_the_draw_pile_are_named_only_to_their_owner(tmp_path: Path) -> None:
    g = sevens(tmp_path, "move(hand, draw_pile, 1)")
    data = events(g, "cards_moved")[0]
    assert [c.label for c in visible_to("cards_moved", data, 0)["cards"]] == ["green 1"]
    assert "cards" not in visible_to("cards_moved", data, 1) and "cards" not in visible_to("cards_moved", data, -1)
    assert told(g) == ["Ann moves 1 card from their hand to the draw pile"]
    assert told(g, 0) == ["Ann moves green 1 from their hand to the draw pile"]
    assert told(g, 2) == ["Ann moves 1 card from their hand to the draw pile"]


def test_cards_moved_from_hand_to_hand_are_seen_by_both_hands_and_no_one_else(tmp_path: Path) -> None:
    g = sevens(tmp_path, "move(hand, next.hand, 2)")
    data = events(g, "cards_moved")[0]
    assert (data["source"], data["target"]) == ("hand 0", "hand 1")
    assert ["cards" in visible_to("cards_moved", data, seat) for seat in (-1, 0, 1, 2)] == [False, True, True, False]
    assert told(g, 1) == ["Ann moves green 1 and red 3 from their hand to Bob's hand"]
    assert told(g, 2) == ["Ann moves 2 cards from their hand to Bob's hand"]


def test_cards_turned_from_the_draw_pile_to_the_face_up_aside_are_seen_by_everyone(tmp_path: Path) -> None:
    g = sevens(tmp_path, "move(draw_pile, aside, 2)")
    assert told(g) == ["Ann moves yellow 5 and yellow 6 from the draw pile to the cards set aside"]


def test_cards_put_from_several_zones_are_told_zone_by_zone_with_their_own_cards(tmp_path: Path) -> None:
    g = sevens(tmp_path, "put_all([top_of(next.hand), top_of(draw_pile)], discard_pile)")
    assert [(d["source"], d["count"], d["cards"]) for d in moved(g)] == [  # (in the table's order of zones)
        ("draw_pile", 1, ["yellow 5"]), ("hand 1", 1, ["yellow 2"])]
    assert told(g) == ["Ann moves yellow 5 from the draw pile to the discard pile",
                       "Ann moves yellow 2 from Bob's hand to the discard pile"]


def test_a_seat_information_state_holds_only_the_moved_cards_it_may_know(tmp_path: Path) -> None:
    g = sevens(tmp_path, "move(hand, draw_pile, 1)")

    def seen(seat: int) -> list[object]:
        return [dict(d) for name, d in g.information_state(seat)[0] if name == "cards_moved"]
    assert seen(0) == [{"cards": ("green 1",), "count": 1, "player": 0, "source": "hand 0", "target": "draw_pile"}]
    assert seen(1) == seen(2) == [{"count": 1, "player": 0, "source": "hand 0", "target": "draw_pile"}]
    # what seat 1 cannot know is dealt again: the card moved into the draw pile is among it
    assert "green 1" in [c.label for c in g.draw_pile]
    places = [[c.label for c in g.resample(1, random.Random(seed)).hands[2]] for seed in range(30)]
    assert any("green 1" in hand for hand in places)


def test_a_web_seat_is_told_the_cards_it_moved_and_a_spectator_only_their_number(tmp_path: Path) -> None:
    g = sevens(tmp_path, "move(hand, draw_pile, 1)")
    data = events(g, "cards_moved")[0]
    said = {}
    for seat in (0, None):
        narrator = SeatNarrator(["P1", "P2", "P3"], seat)
        narrator.verbose = True
        narrator(g, "cards_moved", data)
        said[seat] = re.sub(r"\[/?[a-z_ ]*\]", "", narrator.lines[-1]).strip()
    assert said == {0: "P1 moves green 1 from their hand to the draw pile",
                    None: "P1 moves 1 card from their hand to the draw pile"}


def test_the_reference_says_who_sees_the_cards_moved() -> None:
    assert who_sees("cards_moved", "cards") == "whoever sees source or target"
    assert who_sees("card_given", "card") == "player and other" and who_sees("cards_moved", "count") is None


# -- a declared zone is said as the rulebook says it ("the matched row"), never by its bare name -------------
def dos_moves() -> Game:
    """A DOS turn: P1 matches blue 10 with blue 10 (a colour match: the row's card goes to
    `bonus`) and yellow 4 with red 4 (to `matched`); the turn ends, both rows are emptied
    onto the discard pile and the Center Row is filled up."""
    g = Game(load_variant("dos"), 3, record=True)
    g.arrange({0: ["blue 10", "red 4", "green 8", "blue 1", "green 9"], 1: ["red 1", "red 7"], 2: ["red 3", "red 10"]},
              zones={"center_row": ["blue 10", "yellow 4"]}, draw=["yellow 1", "green 3"])
    answer(g, "single_match: blue 10 on blue 10", "single_match: red 4 on yellow 4")
    return g


def test_the_narration_says_each_declared_zone_as_the_rulebook_does() -> None:
    assert told(dos_moves()) == ["Ann moves blue 10 from the center row to the bonus row",
                                 "Ann moves yellow 4 from the center row to the matched row",
                                 "Ann moves yellow 4, red 4 and blue 10 from the matched row to the discard pile",
                                 "Ann moves blue 10 from the bonus row to the discard pile",
                                 "Ann moves yellow 1 from the draw pile to the center row",
                                 "Ann moves green 3 from the draw pile to the center row"]


def test_a_web_seat_says_a_declared_zone_as_the_terminal_does() -> None:
    g = dos_moves()
    assert g.events is not None
    for seat in (None, 1):
        narrator = SeatNarrator(["Ann", "Bob", "Cy"], seat)
        narrator.verbose = True
        for name, data in g.events:
            if name == "cards_moved":
                narrator(g, name, data)
        lines = [re.sub(r"\[/?[a-z_ ]*\]", "", line).strip() for line in narrator.lines]
        assert lines == told(g, -1 if seat is None else seat)
        assert lines[1] == "Ann moves yellow 4 from the center row to the matched row"


def test_a_players_zone_and_a_zone_whose_name_is_no_place_word(tmp_path: Path) -> None:
    g = sevens(tmp_path, "move(hand, stock, 1); move(hand, lost_cards, 1); move(hand, center_row, 1)",
               zones="zones:\n  stock: {owner: player}\n  lost_cards: {}\n  center_row: {shape: row}\n")
    answer(g, "yes")  # (UNO, with one card left after the second move)
    assert told(g) == ["Ann moves green 1 from their hand to Ann's stock",
                       "Ann moves red 3 from their hand to the lost cards pile",
                       "Ann moves blue 5 from their hand to the center row"]
