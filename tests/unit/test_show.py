"""An expression shown in a message (lang/show.py) keeps the brackets its meaning needs:
`1000 * (count(hand) - 2)` was shown as `1000 * count(hand) - 2`, a different expression,
and two different tests shared one key of what they narrow."""

from __future__ import annotations

import re

import pytest

from unodsl.lang.parse import parse
from unodsl.lang.show import source_text


def tree(text: str) -> str:
    """The expression's tree, without the places of its parts."""
    return re.sub(r"at=\(\d+, \d+\), ", "", repr(parse(text)))


@pytest.mark.parametrize(("text", "shown"), [
    ("1000 * (count(hand) - 2)", "1000 * (count(hand) - 2)"),
    ("(1 + 2) * 3", "(1 + 2) * 3"),
    ("1 - (2 - 3)", "1 - (2 - 3)"),
    ("(1 - 2) - 3", "1 - 2 - 3"),          # (the brackets it does not need are left out)
    ("-(1 - 2)", "-(1 - 2)"),
    ("(a or b) and c", "(a or b) and c"),
    ("a or (b and c)", "a or b and c"),
    ("not (a and b)", "not (a and b)"),
    ("(not a) and b", "not a and b"),
    ("(a == b) == c", "(a == b) == c"),
    ("count(hand) > 0 and (top.rank == 7 or top.wild)", "count(hand) > 0 and (top.rank == 7 or top.wild)"),
    ("2 * -3", "2 * -3"),
])
def test_an_expression_is_shown_with_the_brackets_its_meaning_needs(text: str, shown: str) -> None:
    assert source_text(parse(text)) == shown
    assert tree(shown) == tree(text)  # read back, the same expression


def test_two_expressions_that_differ_are_shown_differently() -> None:
    assert source_text(parse("(a or b) and c")) != source_text(parse("a or (b and c)"))
