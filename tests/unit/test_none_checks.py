"""The checker knows which values may be none: it refuses them where none fails at
run time, unless a test guards the use (flow-sensitive, by expression text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from unodsl import validate_file

MINI = (Path(__file__).resolve().parents[1] / "bad_variants" / "bases" / "mini.yaml").read_text()


def diagnostics(tmp_path: Path, on_play: str, kind: str = "skip") -> list[str]:
    """Messages for the skip card (or the number card) doing `on_play`."""
    text = MINI.replace("    on_play: skip()", f"    on_play: {on_play}") if kind == "skip" else \
        MINI.replace("    points: rank\n", f"    points: rank\n    on_play: {on_play}\n")
    path = tmp_path / "v.yaml"
    path.write_text(text)
    return [f"{d.severity}: {d.message}" for d in validate_file(path)]


@pytest.mark.parametrize("guarded", [
    "if top.rank != none then draw(next, top.rank % 7)",
    "if top.rank == none then skip() else draw(next, top.rank % 7)",
    "if not (top.rank == none) then skip(top.rank)",
    "if top.rank != none and top.rank > 3 then skip()",
    "if top.rank == none or top.rank > 3 then skip()",
    "if top != none and top.rank == 5 then skip()",
    "if top.rank != none and top.rank > 3 and top.rank < 9 then skip()",
    "x = top.rank; if x != none then repeat x do reverse()",
    "if previous_top.rank != none then skip(previous_top.rank - 1)",
    "t = choose_player(opponents); draw(t, 2)",  # opponents is never empty
    "if top.rank == 7 then skip(top.rank)",  # equal to a number: not none
    "n = 0; while top.rank != none and n < top.rank do n = n + 1",
])
def test_a_guarded_use_is_accepted(tmp_path: Path, guarded: str) -> None:
    assert diagnostics(tmp_path, guarded) == []


def test_the_rank_of_a_numbered_card_is_never_none(tmp_path: Path) -> None:
    assert diagnostics(tmp_path, "skip(card.rank - 1)", kind="number") == []
    assert diagnostics(tmp_path, "skip(card.rank - 1)") != []  # a skip card has no rank


@pytest.mark.parametrize(("unguarded", "message"), [
    ("draw(next, top.rank % 7)", "top.rank may be none here, so it can't be used in arithmetic ('%')"),
    ("if top.rank > 3 then skip()", "top.rank may be none here, so it can't be compared with '>'"),
    ("skip(card.rank)", "card.rank may be none here, so it can't be skip()'s count 'count'"),
    ("repeat previous_top.rank do skip()", "previous_top.rank may be none here, so it can't be a count of repeats"),
    ("if top.rank == none then skip(top.rank)", "top.rank may be none here"),
    ("if top.rank != none or true then skip(top.rank)", "top.rank may be none here"),
    ("x = top.rank; skip(-x)", "x may be none here, so it can't be negated"),
    ("if top != none then skip(top.rank)", "top.rank may be none here"),  # a card without a rank
    ("t = choose_player(filter(opponents, p -> p.score > 9)); skip(count(t.hand))",
     "t may be none here, so it can't be asked for .hand"),
    ("skip(2 % 0)", "2 % 0 divides by zero"),
    ("flip()", "flip() turns the cards over, but this variant's cards have one side"),
    ("set_color(none)", "set_color() can't take none for 'color'"),
])
def test_an_unguarded_use_is_refused(tmp_path: Path, unguarded: str, message: str) -> None:
    found = diagnostics(tmp_path, unguarded)
    assert any(message in d and d.startswith("error") for d in found), found


def test_a_test_of_two_literals_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(MINI.replace("    if: size == 1", "    if: 3 == 4"))
    assert [(d.severity, d.message) for d in validate_file(path)] == [("warning", "3 == 4 is always false")]
