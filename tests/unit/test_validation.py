"""Static checks beyond the schema, one test (or more) each: names, deck and table
arithmetic, conditions that can never be true, choices with nothing to choose,
counts that would stall a game, and input that must not crash or hang the loader."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from unodsl import load_variant, validate_file
from unodsl.variant.load import check_source
from unodsl.variant.source import MAX_DEPTH, parse_source

ROOT = Path(__file__).resolve().parents[2]
MINI = (ROOT / "tests" / "bad_variants" / "bases" / "mini.yaml").read_text()
CLASSIC = (ROOT / "variants" / "classic.yaml").read_text()


def variant(tmp_path: Path, old: str = "", new: str = "", base: str = MINI) -> Path:
    assert base.count(old) == 1 or not old, old
    path = tmp_path / "v.yaml"
    path.write_text(base.replace(old, new, 1) if old else base)
    return path


def found(tmp_path: Path, old: str, new: str, base: str = MINI) -> list[str]:
    """The diagnostics, with the file name shortened to `v.yaml`."""
    path = variant(tmp_path, old, new, base)
    return [str(d).replace(str(path), "v.yaml") for d in validate_file(path)]


def cond(tmp_path: Path, expression: str) -> list[str]:
    """Diagnostics for `expression` as the UNO rule's condition (line 34, from col 9)."""
    return found(tmp_path, "    if: size == 1\n", f"    if: {expression}\n")


def test_the_mini_base_is_valid() -> None:
    assert validate_file(ROOT / "tests" / "bad_variants" / "bases" / "mini.yaml") == []


# -- names, with "did you mean" ---------------------------------------------------------
def test_unknown_kind_in_an_in_list(tmp_path: Path) -> None:
    assert cond(tmp_path, 'top.kind in ["skip", "wyld"]') == [
        "v.yaml:34:30: error: unknown card kind 'wyld'\n  hint: did you mean 'wild'?"]


def test_unknown_colour_compared_with_a_colour_name(tmp_path: Path) -> None:
    assert cond(tmp_path, 'current_color == "rde"') == [
        "v.yaml:34:26: error: unknown colour 'rde'\n  hint: did you mean 'red'?"]


def test_unknown_colour_given_to_a_function(tmp_path: Path) -> None:
    assert found(tmp_path, "set_color(choose_color())", 'set_color("bleu")') == [
        "v.yaml:20:24: error: unknown colour 'bleu'\n  hint: did you mean 'blue'?"]


def test_unknown_attribute(tmp_path: Path) -> None:
    assert cond(tmp_path, "size == 1 and top.colr == current_color") == [
        "v.yaml:34:27: error: a card has no attribute 'colr'\n  hint: did you mean 'color'?"]


def test_unknown_event(tmp_path: Path) -> None:
    assert found(tmp_path, "on: hand_changed", "on: hand_chaged") == [
        "v.yaml:33:9: error: unknown event 'hand_chaged'\n  hint: did you mean 'hand_changed'?"]


def test_unknown_event_is_reported_once_not_with_its_fields(tmp_path: Path) -> None:
    # `size` is a field of hand_changed: with the event misspelt, it is not reported too.
    assert len(found(tmp_path, "on: hand_changed", "on: hand_chaged")) == 1


def test_unknown_primitive(tmp_path: Path) -> None:
    assert found(tmp_path, "on_play: skip()", "on_play: skiq()") == [
        "v.yaml:16:14: error: unknown function 'skiq'\n  hint: did you mean 'skip'?"]


# -- deck and table ------------------------------------------------------------------------
def test_kind_defined_but_never_in_the_deck_is_a_warning(tmp_path: Path) -> None:
    path = variant(tmp_path, "  wild:\n", "  spare:\n    points: 5\n  wild:\n")
    assert [str(d) for d in validate_file(path)] == [
        f"{path}:17:3: warning: card kind 'spare' is defined but never in the deck"]
    load_variant(path)  # a warning does not stop a game


def test_deal_must_fit_the_deck_at_the_largest_table(tmp_path: Path) -> None:
    assert found(tmp_path, "players: {min: 2, max: 4}", "players: {min: 2, max: 8}") == [
        "v.yaml:4:24: error: the deck has 40 cards, but dealing 5 to each of 8 players and turning up 1 "
        "takes 41\n  hint: lower players.max to 7, deal fewer cards, or add cards to the deck"]


def test_deal_that_exactly_fits_is_fine(tmp_path: Path) -> None:
    # 5 × 7 + 1 = 36 of 40 cards; 13 × 3 + 1 = 40 of 40.
    assert found(tmp_path, "players: {min: 2, max: 4}", "players: {min: 2, max: 7}") == []
    assert found(tmp_path, "    deal(5);", "    deal(13);",
                 base=MINI.replace("players: {min: 2, max: 4}", "players: {min: 2, max: 3}")) == []


def test_deal_counts_repeats_and_both_branches_of_an_if(tmp_path: Path) -> None:
    assert found(tmp_path, "    deal(5);", "    repeat 2 do deal(5);") == [
        "v.yaml:4:24: error: the deck has 40 cards, but dealing 10 to each of 4 players and turning up 1 "
        "takes 41\n  hint: lower players.max to 3, deal fewer cards, or add cards to the deck"]
    # Only what every path deals counts: 3 here, whichever branch runs.
    assert found(tmp_path, "    deal(5);", "    if player_count == 2 then deal(12) else deal(3);") == []


def test_deal_inside_loops_over_players_is_not_guessed(tmp_path: Path) -> None:
    assert found(tmp_path, "    deal(5);", "    for p in players do deal(20);") == []


def test_deal_with_no_fitting_table(tmp_path: Path) -> None:
    assert found(tmp_path, "    deal(5);", "    deal(40);") == [
        "v.yaml:4:24: error: the deck has 40 cards, but dealing 40 to each of 4 players and turning up 1 "
        "takes 161\n  hint: deal fewer cards, or add cards to the deck"]


def test_a_cut_needs_a_card_for_each_player(tmp_path: Path) -> None:
    small = (MINI.replace("deck_size: 40\n", "").replace("  - {kind: number, ranks: 1-9, per_color: 2}\n", "")
             .replace("  - {kind: skip, per_color: 1}\n", "").replace("    deal(5);\n", "")
             .replace("  number:\n    points: rank\n  skip:\n    points: 20\n    on_play: skip()\n", ""))
    assert found(tmp_path, "round:\n", "round:\n  first_dealer: cut(c -> c.points)\n", base=small) == [
        "v.yaml:4:24: error: the deck has 2 cards, but cut() draws one for each of 4 players\n"
        "  hint: lower players.max to 2, or add cards to the deck"]


SKIPS_ONLY = """unodsl: 1
name: Skips
players: {min: 2, max: 4}
colors: [red, blue]
deck:
  - {kind: skip, per_color: 5}
cards:
  skip: {points: 20, on_play: skip()}
round:
  first_dealer: CUT
  setup: shuffle(draw_pile); deal(2); turn_up()
scoring: {round: winner_scores_others, target: 100}
"""


@pytest.mark.parametrize(("cut", "value"), [("cut(c -> c.points)", "20"), ("cut(c -> 1)", "1"),
                                             ("cut(c -> c.rank)", "0")])
def test_a_cut_where_every_card_ties_is_refused(tmp_path: Path, cut: str, value: str) -> None:
    assert found(tmp_path, "CUT", cut, base=SKIPS_ONLY) == [
        f"v.yaml:10:17: error: {cut} can never choose: every card in the deck gives {value}, so every cut "
        "is a tie\n  hint: cut by something that differs between cards"]
    assert found(tmp_path, "CUT", 'cut(c -> c.color == "red")', base=SKIPS_ONLY) == []


def test_a_cut_needs_a_number(tmp_path: Path) -> None:
    assert found(tmp_path, "CUT", "cut(c -> c.color)", base=SKIPS_ONLY) == [
        "v.yaml:10:17: error: cut(c -> c.color) needs a number for each card, but c.color is a colour\n"
        "  hint: for example cut(c -> c.rank)"]


def test_a_setup_that_deals_no_cards_is_refused(tmp_path: Path) -> None:
    assert found(tmp_path, "    deal(5);\n", "") == [
        "v.yaml:22:10: error: round.setup gives the players no cards (it never deals, draws or moves cards), "
        "so every round would be over before its first turn\n"
        "  hint: for example: shuffle(draw_pile); deal(7); turn_up()"]
    assert found(tmp_path, "    deal(5);\n", "    for p in players do move(draw_pile, p.hand, 5);\n") == []


def test_declared_deck_size_must_match(tmp_path: Path) -> None:
    assert found(tmp_path, "deck_size: 40", "deck_size: 41") == [
        "v.yaml:6:12: error: deck_size says 41 cards, but the deck lists 40\n"
        "  hint: fix the counts or the declared size"]


def test_player_range_must_not_be_reversed(tmp_path: Path) -> None:
    assert found(tmp_path, "players: {min: 2, max: 4}", "players: {min: 3, max: 2}") == [
        "v.yaml:4:16: error: players: min (3) is more than max (2)\n  hint: swap the two numbers"]


def test_a_huge_ranks_range_is_refused_without_building_it(tmp_path: Path) -> None:
    assert found(tmp_path, "ranks: 1-9", "ranks: 1-99999999999999") == [
        "v.yaml:8:5: error: this group makes 399,999,999,999,996 cards; a deck may have at most 100,000\n"
        "  hint: check the counts and the ranks range"]


def test_a_deck_of_many_large_groups_is_refused(tmp_path: Path) -> None:
    groups = "".join("  - {kind: wild, count: 9000}\n" for _ in range(12))
    assert found(tmp_path, "  - {kind: wild, count: 2}\n", groups)[0].startswith(
        "v.yaml:8:3: error: the deck has more than 100,000 cards")


# -- conditions that can never be true --------------------------------------------------
@pytest.mark.parametrize(("expression", "message"), [
    ('top.rank == "red"', 'top.rank == "red" is never true: top.rank is a number and "red" is a string\n'
                          '  hint: did you mean top.color == "red"?'),
    ("top.wild == 3", "top.wild == 3 is never true: top.wild is true or false and 3 is a number\n"
                      "  hint: test it directly: top.wild (or not top.wild)"),
    ("top == 3", "top == 3 is never true: top is a card and 3 is a number\n"
                 "  hint: compare one of its attributes, e.g. card.kind, card.color or card.rank"),
    ('top.rank != "7"', 'top.rank != "7" is always true: top.rank is a number and "7" is a string\n'
                        "  hint: write the number without quotes: 7"),
    ("top.symbol == 7", 'top.symbol == 7 is never true: top.symbol is a string and 7 is a number\n'
                        '  hint: a symbol is text: write "7", or compare top.rank == 7'),
    ("current_color == 2", "current_color == 2 is never true: current_color is a colour and 2 is a number\n"
                           '  hint: write the text in quotes: "2"'),
    ("hand == player", "hand == player is never true: hand is a list of cards and player is a player"),
    ("player in hand", "player in hand is never true: hand holds cards and player is a player\n"
                       "  hint: look for a card among cards, or a player among players"),
])
def test_comparisons_of_incompatible_types_are_refused(tmp_path: Path, expression: str, message: str) -> None:
    assert cond(tmp_path, expression) == [f"v.yaml:34:9: error: {message}"]


def test_an_in_list_item_of_another_type_is_pointed_at(tmp_path: Path) -> None:
    assert cond(tmp_path, 'top.rank in [1, 2, "3"]') == [
        'v.yaml:34:28: error: top.rank is a number, so it is never "3" (a string)\n'
        "  hint: write the number without quotes: 3"]


@pytest.mark.parametrize("expression", [
    "top.rank == none", "player == 0", 'current_color == "red"', 'top.color != "blue"',
    "dealer == next", "top.kind in [\"skip\", \"wild\"]", "top in hand", "next in opponents",
    "size == 1 and [1] == [1]", "top.back == none",
])
def test_comparisons_that_can_be_true_are_accepted(tmp_path: Path, expression: str) -> None:
    assert cond(tmp_path, expression) == []


def test_a_constant_comparison_inside_a_program_is_refused_too(tmp_path: Path) -> None:
    assert found(tmp_path, "on_play: skip()", 'on_play: if card.rank == "7" then skip()') == [
        'v.yaml:16:17: error: card.rank == "7" is never true: card.rank is a number and "7" is a string\n'
        "  hint: write the number without quotes: 7"]


def test_a_condition_must_be_true_or_false(tmp_path: Path) -> None:
    assert cond(tmp_path, "count(hand)") == [
        "v.yaml:34:9: error: rules.0.if is a condition, but count(hand) is a number\n"
        "  hint: compare it, e.g. count(hand) > 0 or card.rank == 7"]


def test_a_dealer_expression_must_give_a_player(tmp_path: Path) -> None:
    assert found(tmp_path, "round:\n", "round:\n  next_dealer: current_color\n") == [
        "v.yaml:22:16: error: round.next_dealer should give a player, but current_color is a colour\n"
        "  hint: for example left_of(dealer)"]
    assert found(tmp_path, "round:\n", "round:\n  next_dealer: '0'\n") == []  # a seat number is fine


def test_a_single_equals_in_a_condition_is_explained(tmp_path: Path) -> None:
    assert cond(tmp_path, "size = 1") == [
        "v.yaml:34:9: error: '=' gives a variable a value; to compare, write '=='\n  hint: write size == 1"]


# -- choices with nothing to choose ------------------------------------------------------
def test_choose_player_from_an_empty_list(tmp_path: Path) -> None:
    assert found(tmp_path, "on_play: skip()", "on_play: swap_hands(player, choose_player([]))") == [
        "v.yaml:16:47: error: choose_player() is given an empty list, so there is nothing to choose\n"
        "  hint: give the players or cards to choose from, e.g. opponents or hand"]


def test_choose_card_from_an_empty_list(tmp_path: Path) -> None:
    assert found(tmp_path, "on_play: skip()", "on_play: play(choose_card([]))") == [
        "v.yaml:16:31: error: choose_card() is given an empty list, so there is nothing to choose\n"
        "  hint: give the players or cards to choose from, e.g. opponents or hand"]


def test_choose_color_in_a_colourless_variant(tmp_path: Path) -> None:
    colourless = (MINI.replace("colors: [red, blue]", "colors: []").replace("deck_size: 40\n", "")
                  .replace("per_color: 2", "count: 4").replace("  - {kind: skip, per_color: 1}\n", "")
                  .replace("  skip:\n    points: 20\n    on_play: skip()\n", ""))
    assert found(tmp_path, "", "", base=colourless) == [
        "v.yaml:15:24: error: choose_color() asks for a colour, but this variant has no colours\n"
        "  hint: add colours under `colors:`, or remove the choice"]


def test_choose_color_with_colours_on_one_side_only_is_fine() -> None:
    for name in ("flip", "all_wild"):  # flip: both sides coloured; all_wild: never asks
        assert validate_file(ROOT / "variants" / f"{name}.yaml") == []


# -- counts that would stall a game ---------------------------------------------------------
def test_repeat_with_a_huge_count(tmp_path: Path) -> None:
    assert found(tmp_path, "on_play: skip()", "on_play: repeat 20000 do skip()") == [
        "v.yaml:16:21: error: repeat 20000 is more than 10,000 times\n"
        "  hint: use a while loop with a condition that ends it"]


def test_effect_with_a_huge_count(tmp_path: Path) -> None:
    assert found(tmp_path, "on_play: skip()", "on_play: skip(10001)") == [
        "v.yaml:16:19: error: skip(): 10001 is more than 10,000\n  hint: counts in effects are limited to 10,000"]


def test_a_card_that_applies_itself_forever(tmp_path: Path) -> None:
    assert found(tmp_path, "on_play: skip()", "on_play: skip(); repeat 2 do apply(card)") == [
        "v.yaml:16:34: error: apply(card) runs this on_play again, which runs apply(card) again, without end\n"
        "  hint: apply another card, or only under a condition"]
    assert found(tmp_path, "on_play: skip()", "on_play: if top.rank == 1 then apply(card)") == []


# -- flags ----------------------------------------------------------------------------------------
def test_a_flag_tested_but_never_set_is_a_warning(tmp_path: Path) -> None:
    old = 'if flagged(p, "uno_missed") then (\n          for o'
    assert found(tmp_path, old, old.replace("uno_missed", "uno_mised"), base=CLASSIC) == [
        "v.yaml:77:23: warning: flag 'uno_mised' is never set (no flag(…, 'uno_mised') anywhere)\n"
        "  hint: did you mean 'uno_missed'?"]


def test_a_flag_never_set_is_reported_once_at_its_first_use(tmp_path: Path) -> None:
    assert found(tmp_path, 'then flag(player, "uno_missed")', 'then flag(player, "uno_mist")', base=CLASSIC) == [
        "v.yaml:74:38: warning: flag 'uno_missed' is never set (no flag(…, 'uno_missed') anywhere); "
        "it is used 7 times\n  hint: did you mean 'uno_mist'?"]


def test_a_flag_set_only_by_an_option_is_not_reported(tmp_path: Path) -> None:
    text = MINI.replace("rules:", "options:\n  marked:\n    set:\n      cards: {skip: {on_play: "
                        "'flag(next, \"marked\"); skip()'}}\nrules:") + (
        "  - on: turn_start\n    if: flagged(player, \"marked\")\n    do: unflag(player, \"marked\")\n")
    assert found(tmp_path, "", "", base=text) == []


# -- input that must not crash or hang ------------------------------------------------------
def test_deeply_nested_expressions_are_refused_not_crashed(tmp_path: Path) -> None:
    assert cond(tmp_path, "(" * 500 + "true" + ")" * 500) == [
        "v.yaml:34:57: error: brackets are nested more than 48 levels deep\n"
        "  hint: split the expression using variables (x = …; …)"]
    assert cond(tmp_path, "not " * 2000 + "true") == [
        "v.yaml:34:9: error: the expression nests more than 48 levels deep\n"
        "  hint: split it using variables (x = …; …)"]
    assert cond(tmp_path, " and ".join(["true"] * 3000)) == [
        "v.yaml:34:9: error: the expression nests more than 48 levels deep\n"
        "  hint: split it using variables (x = …; …)"]


def test_a_deeply_nested_turn_match_is_refused_not_crashed(tmp_path: Path) -> None:
    assert found(tmp_path, "  match: card.wild", "  match: " + "not " * 2000 + "card.wild") == [
        "v.yaml:27:10: error: the expression nests more than 48 levels deep\n"
        "  hint: split it using variables (x = …; …)"]


def test_deeply_nested_yaml_is_refused_not_crashed(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("a: " + "{b: " * 5000 + "1" + "}" * 5000 + "\n")
    [d] = validate_file(path)
    assert d.message == f"maps and lists are nested more than {MAX_DEPTH} levels deep"


def test_chained_aliases_cannot_nest_past_the_limit(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 400)]
    path = tmp_path / "chain.yaml"
    path.write_text("\n".join(lines) + "\n")
    [d] = validate_file(path)
    assert d.message == f"maps and lists are nested more than {MAX_DEPTH} levels deep"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_is_not_read() -> None:
    assert [str(d) for d in validate_file("/dev/zero")] == ["/dev/zero:1:1: error: is not a regular file"]


def test_check_source_never_raises_on_data_of_the_wrong_shape() -> None:
    for text in ("[1, 2]", "42", "unodsl: 1\noptions: [1]\n", "unodsl: 1\nextends: 3\n"):
        variant, diags = check_source(parse_source(text, "x.yaml"))
        assert variant is None and diags
