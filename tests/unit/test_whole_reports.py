"""A kind test narrows the fields it guarantees, and every error of an expression is
reported, each at its own file:line:col with its hint (issue 41, item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl import validate_file
from unodsl.cli import main

MINI = (Path(__file__).resolve().parents[1] / "bad_variants" / "bases" / "mini.yaml").read_text()


def with_rule(tmp_path: Path, condition: str) -> Path:
    """Mini with one more rule on card_played whose `if:` is `condition` (on line 38)."""
    path = tmp_path / "v.yaml"
    path.write_text(MINI + f"  - name: probe\n    on: card_played\n    if: '{condition}'\n    do: skip()\n")
    return path


def errors(path: Path) -> list[str]:
    return [f"{d.pos.line}:{d.pos.col}: {d.message}" for d in validate_file(path) if d.severity == "error"]


@pytest.mark.parametrize("condition", [
    'any(hand, c -> c.kind == "skip" or c.kind == "wild" or c.rank >= 2)',
    'any(hand, c -> c.kind in ["skip", "wild"] or c.rank >= 2)',
    'any(hand, c -> c.kind != "number" or c.rank >= 2)',
    'any(hand, c -> c.kind == "number" and c.rank >= 2)',
    'any(hand, c -> not (c.kind != "number") and c.rank + 1 > 2)',
    'if card.kind == "number" then card.rank > 3 else false',
])
def test_a_kind_test_narrows_the_fields_every_such_kind_has(tmp_path: Path, condition: str) -> None:
    assert errors(with_rule(tmp_path, condition)) == []


@pytest.mark.parametrize("condition", [
    'any(hand, c -> c.kind == "skip" or c.rank >= 2)',  # a wild has no rank
    'any(hand, c -> c.kind != "skip" and c.rank >= 2)',
    'any(hand, c -> c.kind == "number" or c.rank >= 2)',  # the other side of the test
    'top.kind != "skip" and top.kind != "wild" and top.rank > 2',  # top may be none: so may its kind
])
def test_a_kind_test_that_leaves_a_rankless_kind_is_refused(tmp_path: Path, condition: str) -> None:
    assert [e.split(": ", 1)[1] for e in errors(with_rule(tmp_path, condition))] == [
        f"{'top' if condition.startswith('top') else 'c'}.rank may be none here, so it can't be compared with '>"
        f"{'' if condition.startswith('top') else '='}'"]


THREE = 'top.rank > 1 and card.colr == "red" and count(hand, 3) > 0'


def test_every_error_of_an_expression_is_reported_at_its_place(tmp_path: Path) -> None:
    path = with_rule(tmp_path, THREE)
    assert errors(path) == [
        "38:10: top.rank may be none here, so it can't be compared with '>'",
        "38:32: a card has no attribute 'colr'",
        "38:62: count() wants a lambda for 'test'",
    ]


def test_validate_prints_all_three_with_their_hints(tmp_path: Path) -> None:
    path = with_rule(tmp_path, THREE)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    located = [line.split(": error: ")[0].rsplit(":", 2)[1:] for line in lines if ": error: " in line]
    assert located == [["38", "10"], ["38", "32"], ["38", "62"]]
    hints = [line.strip() for line in lines if line.strip().startswith("hint:")]
    assert hints[:2] == ["hint: test it first: if top.rank != none then …, or top.rank != none and …",
                         "hint: did you mean 'color'?"]
    assert len(hints) == 3


def test_a_kind_test_narrows_in_a_function_and_in_a_cards_own_condition(tmp_path: Path) -> None:
    text = MINI.replace("cards:\n", "define:\n  high:\n    params: {c: card}\n"
                        "    is: c.kind != \"number\" or c.rank >= 5\n"
                        "cards:\n", 1).replace("    points: 20\n    on_play: skip()",
                                               "    points: 20\n    legal_if: all(hand, c -> c.kind in "
                                               "[\"skip\", \"wild\"] or c.rank > 3)\n    on_play: skip()")
    path = tmp_path / "v.yaml"
    path.write_text(text.replace("  match: card.wild", "  match: high(card) and card.wild"))
    assert errors(path) == []
    path.write_text(text.replace("c.kind != \"number\" or", "c.kind != \"skip\" or"))
    assert [e.split(": ", 1)[1] for e in errors(path)] == [
        "c.rank may be none here, so it can't be compared with '>='"]
