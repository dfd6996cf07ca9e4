"""The loader and checker on broken files: exact, positioned messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import classic_with
from unodsl.errors import VariantError
from unodsl.variant.load import load_variant, validate_file


def broken(tmp_path: Path, old: str, new: str) -> Path:
    return classic_with(tmp_path, old, new, "broken.yaml")


def messages(path: Path) -> list[str]:
    return [str(d) for d in validate_file(path)]


def test_valid_classic_has_no_diagnostics() -> None:
    assert validate_file(Path(__file__).resolve().parents[2] / "variants" / "classic.yaml") == []


def test_missing_required_key(tmp_path: Path) -> None:
    path = broken(tmp_path, "name: UNO Classic\n", "")
    assert messages(path) == [f"{path}:5:1: error: the file: missing required key 'name'\n"
                              "  hint: name: The variant's display name."]


def test_wrong_type(tmp_path: Path) -> None:
    path = broken(tmp_path, "players: {min: 2, max: 10}", "players: {min: two, max: 10}")
    assert messages(path) == [f"{path}:8:16: error: players.min should be a whole number, not a string"]


def test_unknown_key_with_near_miss(tmp_path: Path) -> None:
    path = broken(tmp_path, "deck_size: 108", "deck_sise: 108")
    assert messages(path) == [f"{path}:11:1: error: the file: unknown key 'deck_sise'\n"
                              "  hint: did you mean 'deck_size'?"]


def test_unknown_card_kind_in_deck(tmp_path: Path) -> None:
    path = broken(tmp_path, "[skip, reverse, draw_two], per_color", "[skip, reverse, draw_too], per_color")
    assert messages(path) == [f"{path}:15:28: error: unknown card kind 'draw_too'\n"
                              "  hint: did you mean 'draw_two'?"]


def test_unknown_card_kind_in_expression(tmp_path: Path) -> None:
    path = broken(tmp_path, 'if top.kind == "reverse"', 'if top.kind == "revers"')
    assert messages(path) == [f"{path}:52:20: error: unknown card kind 'revers'\n"
                              "  hint: did you mean 'reverse'?"]


def test_expression_syntax_error_is_positioned_inside_the_line(tmp_path: Path) -> None:
    path = broken(tmp_path, "on_play: draw(next, 2); skip()", "on_play: draw(next, 2; skip()")
    assert messages(path) == [f"{path}:30:26: error: syntax error: unexpected ';'\n  hint: expected ')', ','"]


def test_expression_syntax_error_in_block_scalar(tmp_path: Path) -> None:
    path = broken(tmp_path, "    deal(option.hand_size);\n", "    deal(7));\n")
    assert messages(path) == [f"{path}:48:12: error: syntax error: unmatched closing parenthesis ')'"]


def test_unknown_primitive(tmp_path: Path) -> None:
    path = broken(tmp_path, "on_play: skip()                            # CL-9", "on_play: skp()")
    assert messages(path) == [f"{path}:23:14: error: unknown function 'skp'\n  hint: did you mean 'skip'?"]


def test_wrong_arity(tmp_path: Path) -> None:
    path = broken(tmp_path, "    deal(option.hand_size);\n", "    deal(7, 8);\n")
    assert messages(path) == [f"{path}:48:5: error: deal() takes at most 1 argument(s), got 2\n"
                              "  hint: usage: deal(count)"]


def test_unknown_attribute(tmp_path: Path) -> None:
    old = "c -> c.color == current_color)\n    on_play"
    path = broken(tmp_path, old, old.replace("c.color", "c.colour"))
    assert messages(path) == [f"{path}:40:36: error: a card has no attribute 'colour'\n"
                              "  hint: did you mean 'color'?"]


def test_effect_in_a_condition_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "legal_if: not any(hand, c -> c.color == current_color)", "legal_if: skip()")
    assert messages(path) == [f"{path}:40:15: error: skip() changes the game or asks a player; "
                              "it can't be used in a condition"]


def test_deck_size_mismatch_gives_both_numbers(tmp_path: Path) -> None:
    path = broken(tmp_path, "deck_size: 108", "deck_size: 110")
    assert messages(path) == [f"{path}:11:12: error: deck_size says 110 cards, but the deck lists 108\n"
                              "  hint: fix the counts or the declared size"]


def test_duplicate_keys_name_both_lines(tmp_path: Path) -> None:
    path = broken(tmp_path, "deck_size: 108", "deck_size: 108\ndeck_size: 108")
    assert messages(path) == [f"{path}:12:1: error: duplicate key 'deck_size' (first defined at line 11)\n"
                              "  hint: remove one of the two; YAML would silently keep only the last"]


def test_python_tags_are_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "name: UNO Classic", "name: !!python/object/apply:os.system ['true']")
    assert messages(path) == [
        f"{path}:6:7: error: YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed\n"
        "  hint: variant files are plain data: maps, lists, strings, numbers and booleans"]


def test_unknown_option_on_load() -> None:
    with pytest.raises(VariantError, match="unknown option 'draw_until_playabel'") as err:
        load_variant("classic", {"draw_until_playabel": True})
    assert "did you mean 'draw_until_playable'?" in str(err.value)


def test_errors_inside_an_option_patch_are_found(tmp_path: Path) -> None:
    path = broken(tmp_path, "guilty = any(hand, c -> c.color == current_color);",
                  "guilty = any(hand, c -> c.color == current_colr);")
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "current_colr" in text)
    assert messages(path) == [f"{path}:{line}:48: error: unknown name 'current_colr'\n"
                              "  hint: did you mean 'current_color'?"]


def test_missing_file() -> None:
    assert [str(d) for d in validate_file("nope/missing.yaml")] == ["nope/missing.yaml:1:1: error: no such file"]
