"""The two backends agree on the whole grid of the turn's facts (issue 27).

The code generator folds each variant's turn settings into its turn (a `keep` draw has no
offer step, a pure match reads a memo, no rules means nothing is queued), so every
combination is a different generated turn. Each is compared with the closure
interpreter, which runs the flow's steps as they are written: the draw's `then`, its
`count` (a number or an expression), `until_playable` (with a `max`), `must_play_if_able`,
`allowed_if`, rules on each turn event (`turn_start`, `choice`, `card_drawn`, `turn_end`)
or none, the jump-in offer, and the plays a variant declares (issue 41): none, plays of
several cards of one number onto the discard pile (doubles), or a declared row zone whose
cards take one or two cards of their colour, two such plays a turn, each with a `then:`
effect. The default run covers every combination of the draw and must-play settings,
with rules, jump-in and declared plays in turn; the slow run every combination of the
others, with declared plays in turn, on more seeds."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import yaml

from unodsl import load_variant
from unodsl.model import Variant

from .test_backends import decided, logged

MIRROR = Path(__file__).resolve().parents[1] / "benchmarks" / "rlcard_mirror.yaml"

THEN = ("may_play", "must_play", "keep")
COUNT: tuple[Any, ...] = (1, 2, "2 - 1")
UNTIL = (False, True)
MUST = (False, True)
ALLOWED = (None, "count(hand) < 12")
RULES = (False, True)
JUMP = (False, True)
PLAYS = ("none", "doubles", "row")

TURN_RULES = [  # a rule on every event of the turn, each leaving a mark the comparison sees
    {"name": "turn start", "on": "turn_start", "do": "flag(player, \"started\")"},
    {"name": "choice", "on": "choice", "if": "kind == \"turn\"", "do": "flag(player, \"chose\")"},
    {"name": "drawn", "on": "card_drawn", "if": "card.wild", "do": "flag(player, \"drew a wild\")"},
    {"name": "turn end", "on": "turn_end", "if": "count(hand) == 2", "do": "unflag(player, \"started\")"},
]
JUMP_IN = {"name": "jump in", "on": "turn_end", "if": "previous_top != none",
           "do": "jump_in(c -> c.color == top.color and c.symbol == top.symbol)"}

# The declared plays of the grid: several cards of one number onto the discard pile (each
# played in turn); cards of a row card's colour onto it, set aside, the row topped up.
DOUBLES = {"plays": [{"name": "doubles", "cards": {"min": 2, "max": 4}, "same": "card.rank",
                      "legal": "first(cards).color == current_color or first(cards).rank == target.rank"}]}
ROW = {"plays_per_turn": 2,
       "plays": [{"name": "lay_on_row", "cards": {"min": 1, "max": 2}, "onto": "center_row", "to": "aside",
                  "same": "card.color", "legal": "first(cards).color == target.color",
                  "then": "move(draw_pile, center_row, 1); flag(player, \"laid\")"}]}
MATCH = "card.wild or card.color == current_color or card.symbol == top.symbol"  # (kept beside declared plays)
ROW_ZONES = {"center_row": {"shape": "row", "capacity": 3}}
FILL_ROW = {"name": "fill the row", "on": "turn_start", "if": "count(center_row) < 2",
            "do": "move(draw_pile, center_row, 2 - count(center_row))"}

Combo = tuple[str, Any, bool, bool, Any, bool, bool, str]


def variant_file(folder: Path, combo: Combo) -> Path:
    then, count, until, must, allowed, rules, jump, plays = combo
    data = yaml.safe_load(MIRROR.read_text())
    draw: dict[str, Any] = {"count": count, "then": then}
    if until:
        draw.update(until_playable=True, max=3)
    if allowed is not None:
        draw["allowed_if"] = allowed
    data["turn"] = {"must_play_if_able": must, "draw": draw, **{"none": {}, "doubles": DOUBLES, "row": ROW}[plays]}
    if plays != "none":  # declared plays switch off the one-card play unless `match:` is said
        data["turn"]["match"] = MATCH
    if plays == "row":
        data["zones"] = ROW_ZONES
    data["rules"] = [*(TURN_RULES if rules else []), *([JUMP_IN] if jump else []),
                     *([FILL_ROW] if plays == "row" else [])]
    if not data["rules"]:
        del data["rules"]
    data["scoring"]["target"] = 60  # games of a few rounds
    path = folder / ("grid_" + "_".join(str(x).replace(" ", "") for x in combo) + ".yaml")
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def both(path: Path) -> tuple[Variant, Variant]:
    return load_variant(path, backend="closures"), load_variant(path, backend="compiled")


def agree(path: Path, seeds: range) -> None:
    closures, compiled = both(path)
    for seed in seeds:
        assert decided(compiled, seed) == decided(closures, seed), f"{path.name}, seed {seed}"
    seed = seeds.start
    assert logged(compiled, seed) == logged(closures, seed), f"{path.name}, seed {seed} (events)"


TURN_GRID = list(itertools.product(THEN, COUNT, UNTIL, MUST, ALLOWED))


@pytest.mark.parametrize("k", range(len(TURN_GRID)))
def test_every_turn_setting_compiles_to_the_interpreters_games(k: int, tmp_path: Path) -> None:
    rules, jump = divmod(k % 4, 2)  # with rules and jump-in in turn
    plays = PLAYS[(k // 2) % 3]  # and declared plays: each with must-play on and off (k // 2 % 2), each `then`
    agree(variant_file(tmp_path, (*TURN_GRID[k], bool(rules), bool(jump), plays)), range(k % 3, k % 3 + 2))


def test_the_turn_grid_meets_each_declared_play_with_each_draw_and_must_play_setting() -> None:
    met = {(PLAYS[(k // 2) % 3], TURN_GRID[k][0], TURN_GRID[k][3]) for k in range(len(TURN_GRID))}
    assert met == set(itertools.product(PLAYS, THEN, MUST))


WHOLE = [(*c, PLAYS[i % 3]) for i, c in enumerate(itertools.product(THEN, COUNT, UNTIL, MUST, ALLOWED, RULES, JUMP))]


@pytest.mark.slow
@pytest.mark.parametrize("combo", WHOLE, ids=lambda c: "-".join(str(x) for x in c))
def test_the_whole_grid_on_many_seeds(combo: Combo, tmp_path: Path) -> None:
    agree(variant_file(tmp_path, combo), range(0, 8))


def test_the_grid_is_what_it_says(tmp_path: Path) -> None:
    """Each setting reaches the variant as written (so the grid is not one variant 72 times)."""
    v = load_variant(variant_file(tmp_path, ("keep", 2, True, True, "count(hand) < 12", True, True, "row")))
    draw = v.turn.draw
    settings = (draw.then, draw.count, draw.until_playable, draw.max, v.turn.must_play_if_able)
    assert settings == ("keep", 2, True, 3, True)
    assert draw.allowed_if is not None
    assert {r.event for r in v.rules} == {"turn_start", "choice", "card_drawn", "turn_end"}
    assert [(w.name, w.onto, w.to, w.row, w.least, w.most, bool(w.then)) for w in v.turn.plays] == [
        ("lay_on_row", "center_row", "aside", True, 1, 2, True)]
    assert v.turn.plays_per_turn == 2 and [z.name for z in v.zones if not z.builtin] == ["center_row"]
    plain = load_variant(variant_file(tmp_path, ("may_play", "2 - 1", False, False, None, False, False, "none")))
    assert not plain.rules and callable(plain.turn.draw.count) and plain.turn.draw.allowed_if is None
    assert not plain.turn.plays
    doubles = load_variant(variant_file(tmp_path, ("must_play", 1, False, False, None, False, False, "doubles")))
    assert [(w.name, w.onto, w.to, w.row, w.least, w.most) for w in doubles.turn.plays] == [
        ("doubles", "discard_pile", "discard_pile", False, 2, 4)]


CHOICE_RULES = [  # issue 41: a number named, and a card chosen for what its prompt says
    {"name": "sevens", "on": "card_played", "if": "card.rank == 7",
     "do": "n = choose_number(0, count(hand) % 4); repeat n do flag(player, \"named\"); draw(next, n)"},
    {"name": "zeros", "on": "card_played", "if": "card.rank == 0 and count(hand) > 1",
     "do": "c = choose_card(hand, player, for: \"to give away\"); give(player, next, c)"},
]


def test_the_backends_agree_on_numbers_named_and_cards_chosen_for_a_purpose(tmp_path: Path) -> None:
    data = yaml.safe_load(MIRROR.read_text())
    data["rules"] = CHOICE_RULES
    data["scoring"]["target"] = 60
    path = tmp_path / "choices.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    agree(path, range(0, 4))
    asked = {(kind, prompt) for seed in range(4) for _, kind, prompt, *_ in decided(load_variant(path), seed)[0]}
    assert {("int", "pick a number"), ("card", "pick a card to give away")} <= asked
