"""The table a variant declares (issue 41): zones of `zones:` and plays of `turn: plays:`.

Zones: names in expressions, checked; held in the game's state, cloned, pickled, seen
by each seat as `shows:` says, resampled where a seat cannot see; capacity honoured.
Plays: checked; their options found within a stated bound; an illegal one refused.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from tests.helpers import VARIANTS, answer, assert_conserved
from unodsl import Game, IllegalAction, load_variant
from unodsl.engine.actions import Lay
from unodsl.engine.information import resample
from unodsl.engine.plays import MAX_TRIES
from unodsl.errors import VariantError, VariantRuntimeError
from unodsl.variant.load import validate_file

TABLE = """\
extends: {classic}
name: a declared table
zones:
  center_row: {shape: row}
  stock: {owner: player, shows: owner}
  vault: {shows: none, capacity: 3}
round:
  setup: |
    shuffle(draw_pile);
    deal(5);
    move(draw_pile, center_row, 2);
    for p in players do move(draw_pile, p.stock, 2);
    move(draw_pile, vault, 5);
    turn_up()
"""


def write(tmp_path: Path, text: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text.replace("{classic}", str(VARIANTS / "classic.yaml")))
    return path


def table_game(tmp_path: Path, players: int = 3, seed: int = 1) -> Game:
    return Game(load_variant(write(tmp_path, TABLE)), players, seed, record=True)


def messages(path: Path) -> list[str]:
    return [d.message for d in validate_file(path) if d.severity == "error"]


# -- zones ---------------------------------------------------------------------------
def test_declared_zones_are_filled_by_the_setup_and_every_card_is_somewhere(tmp_path: Path) -> None:
    g = table_game(tmp_path)
    assert len(g.places["center_row"]) == 2
    assert [len(z) for z in g.seat_places["stock"]] == [2, 2, 2]
    assert_conserved(g)


def test_a_capacity_stops_a_move_when_the_zone_is_full(tmp_path: Path) -> None:
    g = table_game(tmp_path)
    assert len(g.places["vault"]) == 3  # move(draw_pile, vault, 5): room for three


def test_a_players_zone_is_read_as_theirs_and_as_another_players(tmp_path: Path) -> None:
    text = TABLE + """\
rules:
  - name: stock to hand
    on: turn_start
    if: count(stock) > 0 and count(next.stock) == 2
    do: move(stock, hand)
"""
    g = Game(load_variant(write(tmp_path, text)), 3, 1, record=True)
    mover = g.events[-1][1]["player"] if g.events else None  # type: ignore[index]
    assert any(len(z) == 1 for z in g.seat_places["stock"]), mover


@pytest.mark.parametrize(("zones", "wanted"), [
    ("  hand: {}", "zones: 'hand' is a built-in zone"),
    ("  top: {}", "zones: 'top' is a name of the language"),
    ("  score: {owner: player}", "zones: 'score' is a player's attribute"),
])
def test_a_zone_may_not_take_a_name_already_taken(tmp_path: Path, zones: str, wanted: str) -> None:
    path = write(tmp_path, "extends: {classic}\nname: x\nzones:\n" + zones + "\n")
    assert wanted in messages(path)


def test_a_zone_is_not_a_variable(tmp_path: Path) -> None:
    path = write(tmp_path, TABLE + "cards:\n  skip:\n    on_play: center_row = hand\n")
    assert any("'center_row' is a zone of this variant and can't be assigned" in m for m in messages(path))


def test_a_misspelt_zone_is_named_with_a_hint(tmp_path: Path) -> None:
    path = write(tmp_path, TABLE + "cards:\n  skip:\n    on_play: move(center_rwo, hand)\n")
    diags = [d for d in validate_file(path) if d.severity == "error"]
    assert diags and diags[0].message == "unknown name 'center_rwo'" and "center_row" in (diags[0].hint or "")


def test_a_clone_has_its_own_declared_zones_with_the_same_cards(tmp_path: Path) -> None:
    g = table_game(tmp_path)
    c = g.clone()
    assert c.places["center_row"] == g.places["center_row"] and c.places["center_row"] is not g.places["center_row"]
    assert all(a is not b for a, b in zip(c.seat_places["stock"], g.seat_places["stock"], strict=True))
    c.places["center_row"].clear()
    assert len(g.places["center_row"]) == 2


def test_a_pickled_game_keeps_its_declared_zones(tmp_path: Path) -> None:
    g = table_game(tmp_path)
    back = pickle.loads(pickle.dumps(g))
    assert [c.label for c in back.places["vault"]] == [c.label for c in g.places["vault"]]
    assert back.view(1) == g.view(1)


def test_each_seat_sees_a_declared_zone_as_its_shows_says(tmp_path: Path) -> None:
    g = table_game(tmp_path)
    seen = {(z.name, z.seat): z for z in g.view(1).zones}
    assert seen[("center_row", None)].cards == tuple(c.label for c in g.places["center_row"])
    assert seen[("vault", None)].cards is None and seen[("vault", None)].size == 3
    assert seen[("stock", 1)].cards == tuple(c.label for c in g.seat_places["stock"][1])
    assert seen[("stock", 0)].cards is None and seen[("stock", 0)].size == 2


def test_a_resample_deals_again_what_a_seat_cannot_see_of_the_declared_zones(tmp_path: Path) -> None:
    g = table_game(tmp_path)
    hidden_before = sorted(c.id for c in [*g.places["vault"], *g.seat_places["stock"][0],
                                          *g.seat_places["stock"][2], *g.hands[0], *g.hands[2], *g.draw_pile])
    changed = False
    for seed in range(20):
        r = resample(g, 1, random.Random(seed))
        assert r.view(1) == g.view(1)  # what seat 1 sees does not change
        assert r.places["center_row"] == g.places["center_row"]
        assert r.seat_places["stock"][1] == g.seat_places["stock"][1]
        after = sorted(c.id for c in [*r.places["vault"], *r.seat_places["stock"][0], *r.seat_places["stock"][2],
                                      *r.hands[0], *r.hands[2], *r.draw_pile])
        assert after == hidden_before
        changed |= r.places["vault"] != g.places["vault"]
        assert_conserved(r)
    assert changed


# -- plays ---------------------------------------------------------------------------
PLAYS = """\
extends: {classic}
name: declared plays
turn:
  plays:
{plays}
"""


def test_plays_are_checked(tmp_path: Path) -> None:
    plays = """\
    - {name: a, cards: {min: 3, max: 2}, onto: center_rwo}
    - {name: a, onto: hand}
    - {name: b, legal: cards + 1}"""
    found = messages(write(tmp_path, PLAYS.replace("{plays}", plays)))
    assert "play a: cards min (3) is more than max (2)" in found
    assert "unknown zone 'center_rwo'" in found
    assert "turn.plays: two plays are named 'a'" in found
    assert "hand is one zone per player: a play goes onto a zone of the table" in found
    assert len(found) == 5


def test_a_play_offers_each_distinct_set_once(tmp_path: Path) -> None:
    plays = "    - {name: pairs, cards: 2, same: card.rank, to: aside, onto: discard_pile}"
    g = Game(load_variant(write(tmp_path, PLAYS.replace("{plays}", plays))), 2, 0, record=True)
    g.arrange({0: ["red 5", "red 5", "blue 5", "green 7"], 1: ["blue 1"]}, discard=["red 9"])
    lays = sorted(str(o) for o in g.decision.options if isinstance(o, Lay))  # type: ignore[union-attr]
    assert lays == ["pairs: red 5 + blue 5 on red 9", "pairs: red 5 + red 5 on red 9"]


def test_the_search_for_plays_is_bounded_and_says_how_to_narrow_it(tmp_path: Path) -> None:
    plays = "    - {name: fours, cards: 4, to: aside, legal: 'sum(cards, c -> c.points) == 1000'}"
    v = load_variant(write(tmp_path, PLAYS.replace("{plays}", plays)))
    g = Game(v, 2, 0)
    deck = [c.label for c in g.cards]
    with pytest.raises(VariantRuntimeError) as err:
        g.arrange({0: deck[:60], 1: deck[60:70]}, discard=[deck[70]])
    assert f"more than {MAX_TRIES:,} sets of cards" in str(err.value) and "same:" in str(err.value)
    assert "runtime error: the plays of one turn" in str(err.value)
    assert err.value.pos is not None and err.value.pos.line == 5  # the play's `legal:`


def test_with_same_a_thirty_card_hand_stays_well_under_the_bound(tmp_path: Path) -> None:
    g = Game(load_variant(VARIANTS / "house" / "doubles.yaml"), 2, 0)
    numbers = [f"{c} {r}" for c in ("red", "yellow", "green", "blue") for r in range(1, 10)]
    g.arrange({0: numbers[:30], 1: ["red 0"]}, discard=["red 9"])  # (would raise past MAX_TRIES)
    assert g.decision is not None and sum(isinstance(o, Lay) for o in g.decision.options) > 10


def test_an_illegal_play_is_refused_and_changes_nothing() -> None:
    g = Game(load_variant(VARIANTS / "house" / "doubles.yaml"), 3, 0, record=True)
    g.arrange({0: ["red 5", "blue 5", "green 3"], 1: ["blue 1"], 2: ["blue 2"]}, discard=["red 9"])
    hand = list(g.hands[0])
    green3 = hand[2]
    with pytest.raises(IllegalAction):
        g.apply(Lay("doubles", (hand[0], green3), g.discard_pile[-1]))
    assert g.hands[0] == hand and len(g.discard_pile) == 1
    answer(g, "doubles: red 5 + blue 5 on red 9")
    assert [c.label for c in g.hands[0]] == ["green 3"]


def test_a_game_of_plays_replays_from_its_answers() -> None:
    v = load_variant(VARIANTS / "dos.yaml")
    from unodsl import make_agents, play_game
    g = play_game(Game(v, 3, 7, record=True), make_agents(["random", "random", "random"], 3, seed=7))
    again = Game.from_actions(v, 3, 7, g.actions, record=True)
    assert again.events == g.events


def test_a_variant_error_in_a_declared_zone_is_positioned(tmp_path: Path) -> None:
    with pytest.raises(VariantError):
        load_variant(write(tmp_path, "extends: {classic}\nname: x\nzones:\n  hand: {}\n"))


# -- rules on one event ----------------------------------------------------------------
@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_rules_on_one_event_run_in_the_order_written(tmp_path: Path, backend: str) -> None:
    rules = """\
rules:
  - name: a
    on: turn_end
    do: n = 1; flag(player, "a"); repeat n do flag(player, "a2")
  - name: b
    on: turn_end
    do: flag(player, "b")
"""
    v = load_variant(write(tmp_path, "extends: {classic}\nname: order\n" + rules), backend=backend)
    g = Game(v, 2, 0, record=True)
    g.arrange({0: ["red 1", "red 2", "red 3"], 1: ["blue 1", "blue 2"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert g.events is not None
    flagged = [d["flag"] for name, d in g.events if name == "flagged"]
    assert flagged == ["a", "a2", "b"]


def test_sum_refuses_a_number_that_may_be_none(tmp_path: Path) -> None:
    plays = "    - {name: tens, cards: 2, to: aside, legal: 'sum(cards, c -> c.rank) == 10'}"
    found = messages(write(tmp_path, PLAYS.replace("{plays}", plays)))
    assert found == ["c.rank may be none here, so it can't be added up"]
    plays = ("    - {name: tens, cards: 2, to: aside, "
             "legal: 'sum(cards, c -> if c.rank == none then 0 else c.rank) == 10'}")
    assert messages(write(tmp_path, PLAYS.replace("{plays}", plays))) == []
