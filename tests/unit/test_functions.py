"""Functions a variant defines (`define:`, issue 41 item 4): checked once where they are
defined, each call checked for the number and types of its arguments at its own place,
recursion refused, overlays merging them by name, and the rulebook showing them by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from unodsl import load_variant, validate_file
from unodsl.tools.rulebook import render_variant

MINI = (Path(__file__).resolve().parents[1] / "bad_variants" / "bases" / "mini.yaml").read_text()
DEFINE = """define:
  same_number:
    params: {a: card, b: card}
    is: a.rank != none and a.rank == b.rank
"""


def mini(tmp_path: Path, define: str = DEFINE, match: str | None = None, name: str = "v.yaml") -> Path:
    """Mini with `define` before its cards (`define:` starts on line 10) and the turn's match."""
    text = MINI.replace("cards:\n", define + "cards:\n", 1)
    if match is not None:
        text = text.replace("  match: card.wild or card.color == current_color or card.symbol == top.symbol",
                            f"  match: {match}")
    path = tmp_path / name
    path.write_text(text)
    return path


def errors(path: Path) -> list[str]:
    return [f"{d.pos.line}:{d.pos.col}: {d.message} | {d.hint}" for d in validate_file(path) if d.severity == "error"]


def match_line(path: Path) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.startswith("  match:"))


def test_a_function_checks_and_plays(tmp_path: Path) -> None:
    path = mini(tmp_path, match="card.wild or top != none and same_number(card, top)")
    assert errors(path) == []
    assert [f.name for f in load_variant(path).functions] == ["same_number"]


@pytest.mark.parametrize(("call", "at", "message"), [
    ("same_number(card)", "same_number", "same_number() takes 2 argument(s), got 1"),
    ("same_number(card, card, card)", "same_number", "same_number() takes 2 argument(s), got 3"),
    ("same_number(card, b= card)", "same_number", "same_number() takes 2 argument(s), got 1 and 1 by name"),
    ("same_number(card, 3)", "3", "same_number() wants a card for 'b', got a number"),
    ("same_number(card, hand)", "hand", "same_number() wants a card for 'b', got a list of cards"),
    ("same_number(card, c -> c)", "c ->", "same_number() wants a card for 'b', got a lambda"),
    ("same_number(card, top)", "top", "top may be none here, so it can't be same_number()'s argument 'b'"),
])
def test_a_wrong_call_is_an_error_at_the_call_with_the_usage(tmp_path: Path, call: str, at: str,
                                                              message: str) -> None:
    written = call.replace("b= ", "b: ")
    path = mini(tmp_path, match=f'"card.wild or {written}"')
    line = match_line(path)
    text = path.read_text().splitlines()[line - 1]
    col = text.index(at, text.index("same_number") + (len("same_number(card, ") if at != "same_number" else 0)) + 1
    hint = ("test it first: if top != none then …, or top != none and …" if "may be none" in message
            else "usage: same_number(a: card, b: card)")
    assert errors(path) == [f"{line}:{col}: {message} | {hint}"]


def test_a_function_body_is_checked_once_where_it_is_written(tmp_path: Path) -> None:
    bad = DEFINE.replace("a.rank == b.rank", "a.rnk == b.rank")
    assert errors(mini(tmp_path, bad, match="card.wild or top != none and same_number(card, top)")) == [
        "14:30: a card has no attribute 'rnk' | did you mean 'rank'?",
        "31:39: same_number() has an error where it is defined | see the error reported under `define:`",
    ]


def test_a_function_whose_value_may_be_none_is_guarded_like_any_value(tmp_path: Path) -> None:
    define = "define:\n  rank_of:\n    params: {c: card}\n    is: c.rank\n"
    path = mini(tmp_path, define, match="card.wild or rank_of(card) > 3")
    assert [e.split(" | ")[0] for e in errors(path)] == [
        f"{match_line(path)}:23: rank_of(card) may be none here, so it can't be compared with '>'"]
    assert errors(mini(tmp_path, define, match="card.wild or rank_of(card) != none and rank_of(card) > 3")) \
        == []


def test_recursion_is_refused_direct_or_mutual(tmp_path: Path) -> None:
    define = """define:
  loops:
    params: {c: card}
    is: c.wild or loops(c)
  ping:
    params: {n: int}
    is: n > 0 and pong(n - 1)
  pong:
    params: {n: int}
    is: n > 0 and ping(n - 1)
"""
    found = errors(mini(tmp_path, define))
    assert found == [
        "14:19: loops() calls itself: a function can't be recursive | say it without the call: a loop over a "
        "list (any, count, filter) or a `while` in an effect",
        "17:19: ping() calls itself through pong(): a function can't be recursive | say it without the call: "
        "a loop over a list (any, count, filter) or a `while` in an effect",
        "20:19: pong() calls itself through ping(): a function can't be recursive | say it without the call: "
        "a loop over a list (any, count, filter) or a `while` in an effect",
    ]


def test_a_call_of_a_function_in_error_says_so_once(tmp_path: Path) -> None:
    define = "define:\n  loops:\n    params: {c: card}\n    is: loops(c)\n"
    path = mini(tmp_path, define, match="card.wild or loops(card)")
    assert [e.split(" | ")[0] for e in errors(path)] == [
        "14:9: loops() calls itself: a function can't be recursive",
        f"{match_line(path)}:23: loops() has an error where it is defined"]


@pytest.mark.parametrize(("define", "message"), [
    ("define:\n  draw:\n    is: 'true'\n", "12:3: define: 'draw' is a name of the language | give your function "
     "another name"),
    ("define:\n  f:\n    params: {top: card}\n    is: 'true'\n", "13:14: define: f's parameter 'top' is a name of the "
     "language | give the parameter another name"),
    ("define:\n  f:\n    params: {c: card}\n    says: '{d} holds'\n    is: 'true'\n",
     "14:11: define: f's words name {d}, which is not a parameter | its parameters: c"),
    ("define:\n  f:\n    params: {c: card}\n    is: 'draw(next, 2)'\n",
     "14:10: draw() changes the game or asks a player; it can't be used in a condition | None"),
    ("define:\n  f:\n    params: {c: cart}\n    is: 'true'\n", "13:17: define.f.params.c must be one of card, "
     "cards, player, players, color, int, bool, str; got 'cart' | did you mean 'card'?"),
])
def test_a_wrong_definition_is_an_error_at_its_place(tmp_path: Path, define: str, message: str) -> None:
    assert errors(mini(tmp_path, define)) == [message]


def test_a_choice_is_not_an_argument(tmp_path: Path) -> None:
    path = mini(tmp_path)
    path.write_text(path.read_text().replace("    on_play: skip()", "    on_play: if same_number(card, "
                                                "choose_card(hand)) then skip()"))
    assert [e.split(" | ")[0].split(": ", 1)[1] for e in errors(path)] == [
        "choose_card() asks a player, so it can't be an argument of same_number()"]


def test_an_overlay_replaces_a_function_by_name(tmp_path: Path) -> None:
    base = mini(tmp_path, match="card.wild or top != none and same_number(card, top)", name="base.yaml")
    over = tmp_path / "over.yaml"
    over.write_text("extends: base.yaml\nname: Over\ndefine:\n  same_number:\n    params: {x: card, y: card}\n"
                    "    is: x.color == y.color\n  other:\n    params: {p: player}\n    is: count(p.hand) > 1\n")
    assert errors(over) == []
    v = load_variant(over)
    assert [(f.name, f.params, f.text) for f in v.functions] == [
        ("same_number", ("x", "y"), "x.color == y.color"), ("other", ("p",), "count(p.hand) > 1")]
    assert base.exists()


def test_the_rulebook_shows_a_function_by_name_and_defines_it(tmp_path: Path) -> None:
    define = DEFINE + "  pairs:\n    params: {cs: cards, t: card}\n    is: count(cs, c -> same_number(c, t))\n" \
        "    says: how many of {cs} have the number of {t}\n"
    path = mini(tmp_path, define, match="card.wild or top != none and same_number(card, top) "
                                        "or pairs(hand, card) > 2")
    book = render_variant(load_variant(path))
    assert "- same number(`a`, `b`) holds when `a` has a number and `a`'s number is `b`'s number." in book
    assert "- pairs(`cs`, `t`) is the number of cards such that same number(it, `t`) in `cs`." in book
    assert ("if it is wild, there is a top card and same number(it, the top card) or how many of your hand have "
            "the number of it is "
            "more than 2") in book


def test_a_chain_of_functions_that_doubles_at_each_step_is_bounded(tmp_path: Path) -> None:
    define = "define:\n  f0:\n    params: {x: int}\n    is: x + x\n"
    for i in range(1, 12):
        define += f"  f{i}:\n    params: {{x: int}}\n    is: f{i - 1}(x) + f{i - 1}(x)\n"
    found = errors(mini(tmp_path, define, match="card.wild or f11(1) > 3"))
    assert found[0] == ("41:9: f9() is too big with the functions it calls put in place (2,047 parts, 11 deep; "
                        "at most 2,000 and 48) | call fewer functions from it, or split it in two")
    assert all("f9() has an error" in e or "f10() has an error" in e or "f11() has an error" in e for e in found[1:])
