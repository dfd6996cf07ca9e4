"""The rulebook: English for every primitive, golden Markdown of the shipped variants, HTML in a browser."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.helpers import TEXT_PLACES, text_at
from unodsl.cli import main
from unodsl.engine.events import EVENTS
from unodsl.engine.primitives import REGISTRY
from unodsl.errors import VariantError
from unodsl.lang import ast
from unodsl.lang.parse import parse
from unodsl.lang.signature import Says
from unodsl.tools import clauses, english, wording
from unodsl.tools.english import English, is_fallback
from unodsl.tools.phrases import mistakes
from unodsl.tools.rulebook import CHROMIUM_FLAGS, build, golden_name, html_page, markdown, render, shipped_files
from unodsl.variant.load import load_variant

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "docs" / "rulebooks"
KINDS = frozenset({"wild", "draw_two"})


def _sample(typ: str) -> ast.Node:
    """An argument of a parameter's type, for rendering a call to each primitive."""
    text = {"player": "next", "players": "opponents", "int": "2", "fn": "c -> c.wild", "cards": "hand",
            "zone": "hand", "card": "top", "color": "current_color", "str": '"challenge"', "bool": "false",
            "any": "hand", "none": "top"}[typ]
    return parse(text)


def _call(name: str) -> ast.Call:
    prim = REGISTRY.primitives[name]
    return ast.Call((1, 1), name, tuple(_sample(p.type) for p in prim.params), ())


@pytest.mark.parametrize("name", sorted(REGISTRY.primitives))
def test_every_primitive_has_english(name: str) -> None:
    says = REGISTRY.primitives[name].says
    assert says is not None, f"declare the phrase of {name}() with says= where it is registered"
    assert mistakes(name, says) == []
    call = _call(name)
    e = English(KINDS)
    said = " ".join(clauses.finish(e.stmt(call))) if REGISTRY.primitives[name].kind != "query" else e.value(call)
    assert said and not is_fallback(said), f"{name}: {said}"


def test_a_phrase_with_an_unknown_slot_form_or_shape_is_caught() -> None:
    bad = Says(clause=("{whom}", "draw{s} {count:heaps} {s:amount}"), cases=(("count:many", Says(noun="x")),
                                                                          ("cout=1", Says(noun="{count}"))))
    assert mistakes("draw", bad) == [
        "draw: unknown shape 'count:many'", "draw: unknown shape 'cout=1'",
        "draw: unknown slot {whom} in '{whom}'",
        "draw: unknown slot {count:heaps} in 'draw{s} {count:heaps} {s:amount}'",
        "draw: unknown slot {s:amount} in 'draw{s} {count:heaps} {s:amount}'"]


@pytest.mark.parametrize(("source", "want"), [
    ("reveal(draw(next, 2)); skip()",
     ["The next player draws 2 cards, face up for everyone to see and loses their turn."]),
    ("play(top, effect: false)", ["You play the top card without its effect."]),
    ("eliminate(next, out_of: \"game\", at: \"top\", to: discard_pile)",
     ["The next player is out of the game, their cards going onto the discard pile."]),
    ("move(draw_pile, hand, 3); move(draw_pile, next.hand)",
     ["Put the top 3 cards of the draw pile into your hand and put the top card of the draw pile into the next "
      "player's hand."]),
])
def test_a_phrase_chooses_the_case_its_arguments_fit(source: str, want: list[str]) -> None:
    assert English(KINDS).program(source) == want


def test_every_event_and_name_has_english() -> None:
    assert set(EVENTS) <= set(english.EVENT_PHRASES)
    assert [name for name, builtin in REGISTRY.names.items() if not builtin.says] == []


@pytest.mark.parametrize(("source", "want"), [
    ("draw(next, 2); skip()", ["The next player draws 2 cards and loses their turn."]),
    ("draw(next, 1)", ["The next player draws 1 card."]),
    ("skip(2)", ["The next 2 players lose their turn."]),
    ("set_color(choose_color()); draw(next, 4); skip()",
     ["You name the colour to play.", "The next player draws 4 cards and loses their turn."]),
    ("if player_count == 2 then skip() else reverse()",
     ["If the number of players is 2, the next player loses their turn.", "Otherwise, play changes direction."]),
    ("swap_hands(player, choose_player(opponents))", ["You swap hands with an opponent of your choice."]),
    ("pending_draw(2, c -> c.kind == \"draw_two\")",
     ["The next player must draw 2 cards unless they answer with a Draw Two, which passes the growing total "
      "on; whoever takes the draw ends their turn."]),
    ("pending_draw(4, c -> c.kind in [\"draw_two\", \"wild\"])",
     ["The next player must draw 4 cards unless they answer with a Draw Two or a Wild, which passes the "
      "growing total on; whoever takes the draw ends their turn."]),
    ("draw(next, random(1, 8))", ["The next player draws a random number of cards from 1 to 8."]),
    ("draw(next, if random(1, 100) <= option.odds then random(option.low, 3) else 0)",
     ["The next player draws a random number of cards from Low (option `low`) to 3 if a random number from 1 "
      "to 100 is at most Odds (option `odds`), otherwise no cards."]),
    ("named_color = choose_color(by: next); set_color(named_color)",
     ["The next player names a colour (“named colour”).", "The colour to play becomes the named colour."]),
    ("add_score(player, 250 * count(seats, s -> is_out(s)))",
     ["You score 250 points times the number of players at the table who are out of the round."]),
])
def test_effects_in_english(source: str, want: list[str]) -> None:
    assert English(KINDS).program(source) == want


@pytest.mark.parametrize(("source", "want"), [
    ("not any(hand, c -> c.color == current_color)", "you hold no card of the current colour"),
    ("any(hand, c -> c.wild or c.kind == \"draw_two\")", "you hold a wild card or a Draw Two"),
    ("count(hand) == 0", "you hold no cards"),
    ("top.kind == \"wild\" and not flagged(next, \"uno\")",
     "the top card is a Wild and the next player is not marked “uno”"),
    ("all(hand, c -> c.kind == \"wild\")", "you hold only Wilds"),
])
def test_conditions_in_english(source: str, want: str) -> None:
    assert English(KINDS).condition(source) == want


def test_a_construct_without_words_is_quoted_not_invented() -> None:
    assert English(KINDS).condition("any(hand, is_red)") == "you hold a card passing `is_red`"
    assert English(KINDS).value(parse("c -> c.wild")) == "`c -> c.wild`"
    assert English(KINDS).program("mystery") == ["Do `mystery`."]


def test_kind_names_are_humanised_from_data() -> None:
    assert wording.humanise("wild_deep_into_the_deck") == "Wild Deep Into The Deck"
    assert wording.article("Ace") == "an Ace"


@pytest.mark.parametrize("path", shipped_files(), ids=lambda p: golden_name(p))
def test_golden_rulebooks(path: Path) -> None:
    """docs/rulebooks/*.md; after a change: python -m unodsl.tools.rulebook --regenerate (or UPDATE_GOLDEN=1)."""
    target = GOLDEN / golden_name(path)
    current = render(path)
    if os.environ.get("UPDATE_GOLDEN"):
        target.write_text(current, encoding="utf-8")
    assert target.exists(), "run: python -m unodsl.tools.rulebook --regenerate"
    assert current == target.read_text(encoding="utf-8"), "run: python -m unodsl.tools.rulebook --regenerate"


def test_no_golden_rulebook_for_a_variant_that_is_gone() -> None:
    assert sorted(p.name for p in GOLDEN.glob("*.md")) == sorted(golden_name(p) for p in shipped_files())


@pytest.mark.parametrize("path", shipped_files(), ids=lambda p: golden_name(p))
def test_shipped_rulebooks_quote_nothing(path: Path) -> None:
    """Every condition and effect of the shipped variants has words (code spans are only file and option names)."""
    text = render(path)
    quoted = [m for m in re.findall(r"`([^`]+)`", text)
              if not m.endswith(".yaml") and not m.startswith(("unodsl", "-o")) and not re.fullmatch(r"[a-z_]+", m)]
    assert quoted == []


def test_the_rulebook_shows_every_part() -> None:
    text = render("classic", options={"wild_draw_four_challenge": True})
    for heading in ("# UNO Classic", "## Players", "## What you need", "## Set-up", "## A turn", "## The cards",
                    "## Rules", "## Scoring and the end of the game", "## Options"):
        assert heading in text
    assert "| Wild Draw Four | — | — | 4 | 50 | yes |" in text
    assert "COM-2: say UNO when one card is left" in text
    assert "(`wild_draw_four_challenge`, on)" in text
    assert "If the next player chooses to challenge" in text  # the option's on_play, not the base's
    assert "reaches 500 points; the player with the highest total wins" in text


def test_the_end_of_a_game_without_a_target_ties_and_players_out_are_told() -> None:
    text = render("no_mercy")
    assert "- The game is one round; the player with the highest total wins." in text
    assert ("- On a tie, the tied player with the lowest number of cards in their hand wins; if that ties too, they "
            "share the win.") in text
    assert "- A player out of the last round never wins the game." in text
    assert "None" not in text
    text = render("attack", options={"challenge": True})
    assert "- The game ends after a round when the number of players is 1; the player with the lowest" in text
    assert "- Players tied on the best total share the win." in text
    assert "When a round ends: for each player p in turn order, starting with the round's winner:" in text
    assert "never wins the game" not in render("attack")  # only the Challenge game puts players out


def test_a_draw_capped_by_an_expression_reads_as_a_sentence() -> None:
    text = render("no_mercy")
    assert ("draw one card at a time until you draw a card you can play or the draw pile runs out; you draw "
            "at most 25 minus the number of cards in your hand (counted as you begin).") in text


def test_a_card_description_is_shown_beside_the_generated_words() -> None:
    text = render("duo")
    assert "*The variant says:* DUO-6: the player who played it immediately plays again." in text
    assert "You take another turn." in text


def test_two_sided_deck_shows_both_faces() -> None:
    text = render("flip")
    assert "### The light side" in text and "### The dark side" in text
    assert "| Skip Everyone | pink, teal, orange, purple | — | 8 | 30 |  |" in text


def test_html_escapes_everything_from_the_variant(tmp_path: Path) -> None:
    evil = tmp_path / "evil.yaml"
    classic = (ROOT / "variants" / "classic.yaml").as_posix()
    evil.write_text(f'extends: {classic}\nname: "<script>alert(1)</script> & co"\n'
                    'description: "<img src=x onerror=alert(2)>"\n', encoding="utf-8")
    page = render(evil, "html")
    assert "<script>alert" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page


def test_cli_rulebook(tmp_path: Path) -> None:
    out = tmp_path / "book.html"
    result = CliRunner().invoke(main, ["rulebook", "classic", "--format", "html", "--output", str(out),
                                       "-o", "draw_until_playable"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "until you draw a card you can play" in page
    result = CliRunner().invoke(main, ["rulebook", "classic"])
    assert result.exit_code == 0 and result.output == (GOLDEN / "classic.md").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["rulebook", "classic", "-o", "no_such_option"])
    assert result.exit_code == 1


def test_markdown_and_html_come_from_one_document() -> None:
    from unodsl.tools.rulebook import build
    blocks = build("pocket_pizza")
    assert "Wild Deep Into The Deck" in markdown(blocks)
    assert "Wild Deep Into The Deck" in html_page(blocks)


# -- in a browser ----------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _chromium(page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
                              capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium); "
                    "the HTML rulebook is not checked in a browser")
@pytest.mark.parametrize("name", ["classic", "flip"])
def test_html_rulebook_in_a_browser(name: str, tmp_path: Path) -> None:
    page = tmp_path / f"{name}.html"
    page.write_text(render(name, "html"), encoding="utf-8")
    dom = _chromium(page, "--dump-dom").stdout
    assert '<pre id="errors"></pre>' in dom, "a script error was written into the page"
    v = load_variant(name)
    for kind in v.kinds:
        assert f"<td>{wording.humanise(kind)}</td>" in dom
    assert dom.count('class="swatch"') >= len(v.sides[0].colors)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_the_browser_check_sees_a_script_error(tmp_path: Path) -> None:
    """The check above can fail: a page whose script throws shows the error in its DOM."""
    page = tmp_path / "broken.html"
    page.write_text(render("classic", "html").replace("</body>", "<script>nothing_here();</script></body>"),
                    encoding="utf-8")
    assert '<pre id="errors"></pre>' not in _chromium(page, "--dump-dom").stdout


# -- hostile text in the Markdown (issue 31, 2) ----------------------------------------

PAYLOADS = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "<svg onload=alert(3)>",
    "[click](javascript:alert(4))", "![x](javascript:alert(5))", "<https://evil.example/>",
    "see https://evil.example and www.evil.example or mail@evil.example", "&lt;script&gt; &#60;b&#62;",
    "**bold** _it_ ~~gone~~ `code` $x^2$", "x\n# heading\n- item\n\n| a | b |\n|---|---|\n<div>",
    "1. first", "- dash", "+ plus", "> quoted", "back\\`tick\\", "`` double `` ```fence```", "[ref]: https://evil.example",
    "a | b | c", "ends with #", "<!-- comment -->", "\u2028line\u2029separators",
]
PLACES = TEXT_PLACES


def _hostile_variant(tmp_path: Path, place: str, text: str) -> Path:
    path = tmp_path / f"{place}.yaml"
    path.write_text(text_at(place, text), encoding="utf-8")
    return path


def _rendered(md: str) -> list[Any]:
    from markdown_it import MarkdownIt
    tokens = MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(md)
    return [*tokens, *(c for t in tokens for c in (t.children or []))]


@pytest.mark.parametrize("place", PLACES)
def test_markdown_keeps_hostile_text_as_text(place: str, tmp_path: Path) -> None:
    """Raw HTML, links, emphasis and line breaks in any text of the file reach the .md as text:
    the same headings, paragraphs and table rows as the plain rulebook, and no HTML or link."""
    plain = [t.type for t in _rendered(render(_hostile_variant(tmp_path, place, "plain words")))]
    refused = []
    for text in PAYLOADS:
        if place == "flag" and ('"' in text or "\\" in text):
            continue  # not a string of the language
        try:
            md = render(_hostile_variant(tmp_path, place, text))
        except VariantError as err:
            refused.append((place, text, str(err)))
            continue
        tokens = _rendered(md)
        kinds = [t.type for t in tokens]
        assert not {"html_block", "html_inline", "link_open", "image"} & set(kinds), (place, text, md)
        for kind in ("heading_open", "tr_open", "paragraph_open", "list_item_open", "em_open", "strong_open",
                     "s_open", "code_inline", "hr", "blockquote_open", "code_block", "fence"):
            assert kinds.count(kind) == plain.count(kind), (place, text, kind, md)
        assert not re.search(r"(?<!\\)(:(?=//)|\bwww\.|@)", md), (place, text)  # no bare link for GitHub
        html_out = render(_hostile_variant(tmp_path, place, text), "html")
        assert "<script>alert" not in html_out and "<img" not in html_out and "<svg" not in html_out
    assert refused == [], refused


# -- issue 26: what the rulebook says of the new table rules ------------------------------
def test_the_rulebook_tells_a_one_round_game_its_tie_break_and_an_expression_draw(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("extends: classic\nname: t\nscoring: {target: null, game_over: 'true', tie_break: -count(hand)}\n"
                    "turn: {draw: {count: 'random(0, 6)', then: keep}}\n", encoding="utf-8")
    book = markdown(build(str(path)))
    assert "The game is one round; the player with the highest total wins." in book
    assert "On a tie, the tied player with the lowest number of cards in their hand wins" in book
    assert "If you do not play, draw a random number of cards from 0 to 6." in book


def test_the_rulebook_says_ties_are_shared_and_players_out_never_win() -> None:
    book = markdown(build("house/mercy"))
    assert "Players tied on the best total share the win." in book
    assert "A player out of the last round never wins the game." in book
