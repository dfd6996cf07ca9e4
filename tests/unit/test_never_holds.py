"""A test that compares a value with a literal it never takes never holds: a warning at the
comparison that says what the value can be. Only `==` (a `!=` that always holds is no mistake)."""

from __future__ import annotations

from pathlib import Path

import pytest

from unodsl import validate_file

ROOT = Path(__file__).resolve().parents[2]
MINI = (ROOT / "tests" / "bad_variants" / "bases" / "mini.yaml").read_text()
SHIPPED = sorted((ROOT / "variants").glob("*.yaml")) + sorted((ROOT / "variants" / "house").glob("*.yaml"))


def rule(tmp_path: Path, event: str, condition: str, base: str = MINI, do: str | None = None) -> list[str]:
    """Diagnostics when the UNO rule (line 34) waits for `event` and tests `condition`."""
    text = base.replace("    on: hand_changed\n", f"    on: {event}\n").replace(
        "    if: size == 1\n", f"    if: {condition}\n")
    if do is not None:
        text = text.replace('    do: if not ask(player, "call_uno") then draw(player, 2)\n', f"    do: {do}\n")
    path = tmp_path / "v.yaml"
    path.write_text(text)
    return [str(d).replace(str(path), "v.yaml") for d in validate_file(path)]


@pytest.mark.parametrize(("event", "condition", "expected"), [
    ("choice", 'kind == "colour"',
     'v.yaml:34:9: warning: kind == "colour" never holds: `kind` of a choice is one of: turn, drawn, jump, color, '
     "player, card, ask, int\n  hint: did you mean 'color'?"),
    ("choice", "'\"cards\" == kind'",  # quoted for YAML: the expression starts at column 10
     'v.yaml:34:10: warning: "cards" == kind never holds: `kind` of a choice is one of: turn, drawn, jump, color, '
     "player, card, ask, int\n  hint: did you mean 'card'?"),
    ("card_played", "card.rank == 0",
     "v.yaml:34:9: warning: card.rank == 0 never holds: `rank` of a card in this deck is one of: 1-9, none\n"
     "  hint: compare it with one of these"),
    ("card_played", "count(hand) > 2 and top.rank == 10",
     "v.yaml:34:29: warning: top.rank == 10 never holds: `rank` of a card in this deck is one of: 1-9, none\n"
     "  hint: compare it with one of these"),
    ("turn_start", "any(hand, c -> c.rank == 10)",
     "v.yaml:34:24: warning: c.rank == 10 never holds: `rank` of a card in this deck is one of: 1-9, none\n"
     "  hint: compare it with one of these"),
])
def test_a_comparison_with_a_value_never_taken_is_a_warning(tmp_path: Path, event: str, condition: str,
                                                             expected: str) -> None:
    assert rule(tmp_path, event, condition) == [expected]


def test_in_a_rule_s_effect_too(tmp_path: Path) -> None:
    do = 'if kind == "ask" or kind == "asks" then draw(player, 1)'
    assert rule(tmp_path, "choice", "count(hand) >= 0", do=do) == [
        'v.yaml:35:29: warning: kind == "asks" never holds: `kind` of a choice is one of: turn, drawn, jump, color, '
        "player, card, ask, int\n  hint: did you mean 'ask'?"]


def test_a_colour_no_card_has_and_a_kind_in_no_deck_group(tmp_path: Path) -> None:
    base = MINI.replace("colors: [red, blue]", "colors: [red, blue, green]").replace(
        "per_color: 2}", "per_color: 2, colors: [red, blue]}").replace(
        "per_color: 1}", "per_color: 1, colors: [red, blue]}").replace(
        "  wild:\n", "  spare:\n    points: 5\n  wild:\n")
    found = rule(tmp_path, "card_played", 'card.color == "green" or card.kind == "spare"', base)
    assert [d for d in found if "never holds" in d] == [
        'v.yaml:36:9: warning: card.color == "green" never holds: `color` of a card in this deck is one of: '
        "red, blue, none\n  hint: compare it with one of these",
        'v.yaml:36:34: warning: card.kind == "spare" never holds: `kind` of a card in this deck is one of: '
        "number, skip, wild\n  hint: compare it with one of these"]


@pytest.mark.parametrize(("event", "condition"), [
    ("choice", 'kind == "color"'),
    ("choice", 'kind != "colour"'),          # always true: not a mistake worth a warning
    ("card_played", "card.rank == 9"),
    ("card_played", "card.rank == none"),     # the skip and the wild have no rank
    ("card_played", "card.color == none"),    # the wild has no colour
    ("card_played", 'card.kind == "wild"'),
    ("card_played", "card.rank != 0"),
    ("card_played", "card.points == 7"),      # points are not checked against the deck
    ("choice", 'prompt == "anything"'),       # prompts are not known before the game
])
def test_values_that_can_occur_are_not_warned(tmp_path: Path, event: str, condition: str) -> None:
    assert rule(tmp_path, event, condition) == []


def test_no_warning_when_an_option_changes_the_deck(tmp_path: Path) -> None:
    """Under the default options no card has rank 0, but with `zeros` switched on some do."""
    base = MINI.replace("deck_size: 40\n", "").replace("rules:", "options:\n  zeros:\n    set:\n      deck:\n"
                        "        replace:\n"
                        "        - {kind: number, ranks: 0-9, per_color: 2}\n"
                        "        - {kind: skip, per_color: 1}\n        - {kind: wild, count: 2}\nrules:")
    assert rule(tmp_path, "card_played", "card.rank == 0", base) == []
    assert rule(tmp_path, "card_played", "card.rank == 10", base) == []  # unknown for every choice: no claim


def test_a_side_no_deck_side_is_named(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nextends: flip\nrules:\n  - name: dark flip\n    on: flipped\n"
                    "    if: side == \"light\" or side == \"drk\"\n    do: draw(player, 1)\n")
    found = [str(d).replace(str(path), "v.yaml") for d in validate_file(path, allow=[ROOT / "variants"])]
    assert found == ['v.yaml:6:28: warning: side == "drk" never holds: `side` of a flipped event (a side\'s '
                     "name) is one of: light, dark\n  hint: did you mean 'dark'?"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_no_shipped_variant_has_a_test_that_never_holds(path: Path) -> None:
    assert [str(d) for d in validate_file(path) if "never holds" in d.message] == []
