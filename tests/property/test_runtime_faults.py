"""Variants with runtime faults: Classic's effects mutated with the fault classes
that once ended a game with a raw traceback (arithmetic on a value that may be
none, division by zero, a number that grows without end, nested loops, a flip in a
one-sided deck, set_color(none), …), each placed in one card's on_play.

Each mutated file either fails validation with positioned diagnostics, or, if it
validates, its seeded games end normally, at the round guard, or with a
VariantRuntimeError positioned in the file — never another exception, nor a hang.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import deadline
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.errors import RunawayRound, VariantError, VariantRuntimeError

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = (ROOT / "variants" / "classic.yaml").read_text(encoding="utf-8")

# The on_play lines of Classic a fault may replace or follow.
PLACES = [line for line in CLASSIC.splitlines() if line.strip().startswith("on_play:") and line.strip() != "on_play: |"]

# {x} is filled with a number-valued expression, maybe one that may be none.
NUMBERS = ["top.rank", "card.rank", "previous_top.rank", "player_count - player_count", "player_count",
           "count(hand) - 7", "0", "1"]
TEMPLATES = [
    "skip({x})", "draw(next, {x})", "skip(3 / ({x}))", "skip(5 % ({x}))", "repeat {x} do reverse()",
    "repeat ({x}) - 1 do reverse()", "draw(next, {x} % 7)", "x = {x} + 2; repeat 60 do x = x * x",
    "repeat 10000 do repeat 10000 do skip()", "flip()", "set_color(none)", "skip({x} * 1000000)",
    "if {x} > 2 then skip() else reverse()", "n = 0; while n < {x} + 3 do n = n + 1",
]


@st.composite
def faulty_classic(draw: st.DrawFn) -> str:
    place = draw(st.sampled_from(PLACES))
    fault = draw(st.sampled_from(TEMPLATES)).replace("{x}", draw(st.sampled_from(NUMBERS)))
    indent = place[: len(place) - len(place.lstrip())]
    if draw(st.booleans()):
        new = f"{indent}on_play: {fault}"
    else:  # after the card's own effect
        effect = place.strip().removeprefix("on_play:").split("#")[0].strip()
        new = f"{indent}on_play: {effect}; {fault}"
    return CLASSIC.replace(place, new, 1)


@settings(max_examples=settings().max_examples, deadline=None)
@given(faulty_classic(), st.integers(0, 2**16))
def test_a_runtime_fault_is_refused_or_reported_at_its_place(text: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "faulty.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            variant = load_variant(path)
        except VariantError as err:
            assert err.diagnostics and all(d.pos.file == str(path) and d.pos.line > 0 for d in err.diagnostics)
            return
        for players in (2, 4):
            try:
                with deadline(60):
                    game = Game(variant, players, seed, max_turns=1_000)
                    play_game(game, make_agents(["greedy", "random"], players))
            except VariantRuntimeError as err:
                assert err.pos is not None and err.pos.file == str(path) and err.pos.line > 0, str(err)
                assert f"seed {seed}" in str(err) and "replay: unodsl run" in str(err)
            except RunawayRound:
                pass  # the round guard: a clear error, by design
