"""The rulebook of a declared table: its zones (`zones:`) and its plays (`turn: plays:`) in English."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl.cli import main
from unodsl.model import Zone
from unodsl.tools.english import English, field_phrases
from unodsl.tools.rulebook import Heading, Items, build, markdown

ROOT = Path(__file__).resolve().parents[2]
ROW = ROOT / "tests" / "table_variants" / "center_row.yaml"
PLAYED = {"cards": "the cards played", "target": "the card played onto"}


def _section(blocks: list[object], title: str) -> list[str]:
    at = next(i for i, b in enumerate(blocks) if isinstance(b, Heading) and b.text == title)
    items = blocks[at + 1] if isinstance(blocks[at + 1], Items) else blocks[at + 2]
    assert isinstance(items, Items)
    return list(items.items)


def test_the_table_section_says_each_declared_zone() -> None:
    assert _section(build(ROW), "The table") == [
        "**Center Row** (`center_row`): the cards in the middle of the table. A row on the table, face up for "
        "everyone; its cards lie side by side, and each can be played onto. It holds at most 2 cards: a card "
        "moved to it when it is full stays where it was.",
        "**Vault** (`vault`): three cards put away at the start. A pile on the table, face down: everyone sees "
        "only how many cards it holds.",
        "**Stock** (`stock`): one pile for each player, seen only by its player: the others see how many cards "
        "it holds. It holds at most 3 cards: a card moved to it when it is full stays where it was."]


def test_a_variant_without_zones_has_no_table_section() -> None:
    assert not any(isinstance(b, Heading) and b.text == "The table" for b in build("classic"))


def test_declared_zones_are_named_in_english_in_expressions() -> None:
    text = markdown(build(ROW))
    assert "put the top 2 cards of the draw pile onto the center row and put the top 3 cards of the draw pile " \
        "onto the vault pile." in text
    assert "put the top card of the draw pile onto p's stock." in text
    assert "center_row`" not in text.split("## Set-up")[1]  # no name left as code after the table section


def test_a_turn_of_declared_plays_only_says_each_play_and_no_one_card_play() -> None:
    lines = _section(build(ROW), "A turn")
    assert lines[:4] == [
        "You play in one of the ways below; there is no other play.",
        "**Single**: you may play one card from your hand onto a card of the center row, if your card's number is "
        "that card's number or your card's colour is that card's colour. The card then goes onto the discard pile "
        "as if played alone (its colour, its effect). After the play, put that card under the discard pile without "
        "playing it and put the top card of the draw pile onto the center row.",
        "**Pair**: you may play two cards at once from your hand onto a card of the center row, if that card has "
        "a number, every card played has a number and the number of every card played is less than that card's "
        "number and the first card's colour is that card's colour. The cards then go onto the discard pile one "
        "after another, in the order you choose, each as if played alone (its colour, its effect); the last one "
        "down is the new top card. After the play, the next player draws 1 card. Put that card under the discard "
        "pile without playing it and put the top card of the draw pile onto the center row. *The variant says:* "
        "Two cards lower than the card played onto, the first of its colour.",
        "A turn may hold up to 2 of these plays, each onto another card or pile; after each one you may stop."]
    text = " ".join(lines)
    assert "a card from your hand if" not in text and "never" not in text and "always" not in text
    assert "Some cards have a further condition" not in text


def test_doubles_is_said_beside_the_one_card_play() -> None:
    lines = _section(build("house/doubles"), "A turn")
    assert lines[0].startswith("You may play a card from your hand if it is wild")
    assert lines[1] == (
        "**Doubles**: instead, you may play two to four cards of one number at once from your hand onto the "
        "discard pile, if the first card's colour is the current colour or the first card's number is the top "
        "card's number. The cards go down one after another, in the order you choose, each as if played alone "
        "(its colour, its effect); the last one down is the new top card. *The variant says:* Two to four cards "
        "of one number at once, the first matching the top card.")


def test_sum_and_first_of_the_cards_played_read_as_english() -> None:
    e = English(frozenset(), fields=PLAYED)
    assert e.condition("sum(cards, c -> c.rank) == target.rank") == (
        "the sum of the numbers of the cards played is the number of the card played onto")
    assert e.condition("sum(hand, c -> c.points) > 10") == "the sum of the points of the cards in your hand is " \
        "more than 10"
    assert e.value_of("sum(hand, c -> if c.wild then 50 else 1)") == (
        "the sum of the cards in your hand, each counting 50 if it is wild, otherwise 1")
    assert e.condition("all(cards, c -> c.rank == first(cards).rank)") == (
        "the number of every card played is the first card's number")
    assert e.condition("any(cards, c -> c.wild)") == "some card played is wild"
    assert e.value_of("first(hand)") == "the first of your hand"


def test_a_declared_zone_is_named_in_a_rules_english() -> None:
    e = English(frozenset(), zones={"center_row": Zone("center_row", shape="row"),
                                    "stock": Zone("stock", owner="player", shows="owner")})
    assert e.program("move(draw_pile, center_row, 2); move(stock, next.stock)") == [
        "Put the top 2 cards of the draw pile onto the center row and put the top card of your stock onto the "
        "next player's stock."]


def test_a_card_drawn_at_a_table_of_declared_plays_only_is_said_to_join_a_play(tmp_path: Path) -> None:
    variant = tmp_path / "row_may_play.yaml"
    variant.write_text(ROW.read_text(encoding="utf-8").replace("then: keep", "then: may_play"), encoding="utf-8")
    lines = _section(build(variant), "A turn")
    assert lines[-1] == ("If a play above can be made with the card drawn, you may make one that uses it at once; "
                         "otherwise your turn ends.")
    assert not any("can be played, you may play it" in line for line in lines)


def test_the_rulebook_command_writes_a_declared_table(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["rulebook", str(ROW), "--format", "html"])
    assert result.exit_code == 0, result.output
    assert "<h2>The table</h2>" in result.output and "<strong>Center Row</strong>" in result.output


def test_a_declared_zone_without_a_place_word_is_said_with_its_shape() -> None:
    e = English(frozenset(), zones={"bonus": Zone("bonus", shape="row"), "vault": Zone("vault"),
                                    "center_row": Zone("center_row", shape="row")})
    assert e.program("move(draw_pile, bonus); move(vault, center_row)") == [
        "Put the top card of the draw pile onto the bonus row and put the top card of the vault pile onto the "
        "center row."]


@pytest.mark.parametrize(("source", "want"), [
    ("if c.rank == none then 1 else c.rank", "1 if c has no number, otherwise c's number"),
    ("if top.color != none then 1 else 2", "1 if the top card has a colour, otherwise 2"),
    ("(if c.rank == none then 1 else 2) + 3", "(1 if c has no number, otherwise 2) plus 3"),
])
def test_none_tests_of_a_cards_field_and_arithmetic_read_as_english(source: str, want: str) -> None:
    e = English(frozenset(), vars={"c": "c"})
    assert e.value_of(source) == want


def test_a_cut_by_a_value_written_out_and_a_sum_of_a_function_parameter_read_as_english() -> None:
    e = English(frozenset(), player="the dealer")
    assert e.value_of("cut(c -> if c.wild or c.rank == none then 0 else c.rank)") == (
        "the player who cuts the highest value, each card counting 0 if it is wild or it has no number, otherwise "
        "its number (each player cuts a card; ties cut again)")
    e.vars["cards"] = "`cards`"  # a function's parameter named cards is not the cards played
    assert e.value_of("sum(cards, c -> if c.rank == none then 1 else c.rank)") == (
        "the sum of `cards`, each counting 1 if it has no number, otherwise its number")
    assert e.condition("all(cards, c -> c.wild)") == "`cards` holds only wild cards"


def test_a_variable_of_a_letter_or_two_is_named_without_an_article() -> None:
    e = English(frozenset())
    assert e.program("c = top; na = c.rank; draw(next, na)") == [
        "Note the top card (“c”).", "Note c's number (“na”).", "The next player draws na cards."]


def test_a_rule_on_a_declared_play_names_its_cards_and_the_card_played_onto() -> None:
    e = English(frozenset(), player="the player", fields=field_phrases("cards_played"))
    assert e.condition("count(cards) == 2 and target.color == first(cards).color") == (
        "the number of cards in the cards played is 2 and the colour of the card played onto is the first card's "
        "colour")


def test_plays_that_stay_in_their_row_or_go_onto_a_declared_pile(tmp_path: Path) -> None:
    variant = tmp_path / "row_and_pile.yaml"
    text = ROW.read_text(encoding="utf-8")
    head = text[:text.index("turn:")]
    variant.write_text(head + "turn:\n  plays:\n"
                       "    - name: lay_down\n      cards: {min: 1, max: 2}\n      onto: center_row\n"
                       "    - name: bury\n      onto: vault\n      legal: first(cards).color == target.color\n"
                       "  draw: {count: 1, then: keep}\n"
                       "scoring:\n  round: winner_scores_others\n  target: 50\n", encoding="utf-8")
    lines = _section(build(variant), "A turn")
    assert lines[1:3] == [
        "**Lay Down**: you may play one or two cards at once from your hand onto a card of the center row. The "
        "cards join the center row.",
        "**Bury**: you may play one card from your hand onto the vault pile, if your card's colour is the colour "
        "of the top card of the vault pile."]
