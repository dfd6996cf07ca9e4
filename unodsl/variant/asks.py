"""The questions a variant's file can put to a player, read from its text (after its
`extends:` and the options it was loaded with): for the lab's coverage, for the RL
environment, whose fixed action space needs to know before a game which numbers a
`choose_number` can offer, and for the web table, which shows a button for a question
only where the variant asks it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..engine.primitives.choices import MOST_NUMBERS
from ..errors import UnoDslError
from ..lang import ast
from ..lang.static import static_int
from ..lang.walk import calls
from ..model import Variant
from .expressions import parse_once
from .options import apply_patches, choose, declare
from .resolve import load_tree

PROGRAM_KEYS = frozenset({"on_play", "do", "setup", "first_dealer", "next_dealer"})
# The choices that each ask one kind of decision, by function (`ask` is named by its question).
CHOICES = {"choose_color": "color", "choose_player": "player", "choose_card": "card",
           "choose_number": "int", "jump_in": "jump"}


def _programs(data: Any) -> Iterator[str]:
    """Every effect program's text in a merged variant file."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in PROGRAM_KEYS and isinstance(value, str):
                yield value
            else:
                yield from _programs(value)
    elif isinstance(data, list):
        for item in data:
            yield from _programs(item)


def choice_calls(variant: Variant) -> list[ast.Call]:
    """Every call of a choice (CHOICES, or `ask`) in the variant's effect programs, as its
    file says them with the options it was loaded with (none if the file cannot be read)."""
    try:
        src = load_tree(variant.file)
        declared, _ = declare(src)
        merged = apply_patches(src, choose(src, declared, {o.name: o.value for o in variant.options}))
        texts = list(_programs({k: v for k, v in merged.data.items() if k != "options"}))  # patches of options off
    except (UnoDslError, OSError):
        texts = []
    found = []
    for text in texts:
        try:
            tree = parse_once(text)
        except UnoDslError:
            continue
        found += [c for c in calls(tree) if c.func in CHOICES or c.func == "ask"]
    return found


def numbers_offered(variant: Variant) -> int:
    """How many numbers the widest `choose_number` of the variant can offer: 0 if it has
    none, the widest range when every one's bounds are known before a game (numbers and
    options), else MOST_NUMBERS (the most a range may hold)."""
    options = {o.name: o.value for o in variant.options}
    widest = 0
    for call in choice_calls(variant):
        if call.func != "choose_number":
            continue
        given = dict(zip(("lo", "hi"), call.args, strict=False)) | dict(call.kwargs)
        lo, hi = (static_int(given[k], options) if k in given else None for k in ("lo", "hi"))
        if lo is None or hi is None:
            return MOST_NUMBERS
        widest = max(widest, min(hi - lo + 1, MOST_NUMBERS))
    return widest


def questions_asked(variant: Variant) -> frozenset[str] | None:
    """The questions the variant's `ask` calls put, by their names ("call_uno",
    "challenge"); None when one names its question with anything but a text (then any
    question may be asked)."""
    found = set()
    for call in choice_calls(variant):
        if call.func != "ask":
            continue
        given = dict(zip(("who", "question"), call.args, strict=False)) | dict(call.kwargs)
        question = given.get("question")
        if not (isinstance(question, ast.Literal) and isinstance(question.value, str)):
            return None
        found.add(question.value)
    return frozenset(found)
