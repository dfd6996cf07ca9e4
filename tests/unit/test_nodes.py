"""Each expression node's meaning in one place (lang/nodes/), and the primitives declared as
data (lang/nodes/forms.py): the function a form makes and the text it writes agree."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from tests.helpers import variant
from unodsl import Game
from unodsl.engine.primitives import REGISTRY
from unodsl.lang import ast
from unodsl.lang.nodes.forms import Fold, Reads
from unodsl.lang.nodes.table import EMIT, RUN
from unodsl.lang.signature import BuiltinName, Primitive

EXPRESSIONS = {ast.Literal, ast.Name, ast.Attr, ast.Call, ast.ListExpr, ast.Lambda, ast.Unary, ast.Binary, ast.If}


def test_every_expression_node_runs_and_is_written_by_its_family() -> None:
    assert set(RUN) == set(EMIT) == EXPRESSIONS
    for node in EXPRESSIONS:  # run and emit of one node sit in one module
        assert RUN[node].__module__ == EMIT[node].__module__, node


def test_a_primitive_has_no_second_body_as_text() -> None:
    fields = {f.name for f in dataclasses.fields(Primitive)} | {f.name for f in dataclasses.fields(BuiltinName)}
    assert not fields & {"inline", "items"}
    folds = {p.name for p in REGISTRY.primitives.values() if p.fold is not None}
    assert folds == {"any", "all", "count", "sum", "filter"}
    assert all(p.impl is p.fold.run for p in REGISTRY.primitives.values() if p.fold is not None)
    hot = {"top", "current_color", "hand", "players", "draw_pile", "discard_pile"}
    assert hot <= {n.name for n in REGISTRY.names.values() if n.reads is not None}


@pytest.mark.parametrize("bad", ["a.b", "x[0]", "__import__('os')", "class", ""])
def test_a_declaration_reads_only_plain_names(bad: str) -> None:
    with pytest.raises(ValueError, match="not a name"):
        Reads(bad)
    with pytest.raises(ValueError, match="not a name"):
        Reads("hands", at=bad)


def test_a_declaration_has_one_of_the_shapes_it_knows() -> None:
    for shape in ({"call": True}, {"has": "flag"}, {"last": True, "at": "player"}):
        with pytest.raises(ValueError, match="not a shape"):
            Reads("hands", **shape)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="by its parameters"):
        Reads("flags", at="who", has="flag").query(("who", "other"))
    assert isinstance(REGISTRY.primitives["any"].fold, Fold)


def _positions(name: str, players: int, seed: int) -> list[Game]:
    """Clones of a game at each of its decisions, answered at random."""
    g, rng = Game(variant(name), players, seed), random.Random(seed)
    out: list[Game] = []
    while g.decision is not None and len(out) < 150:
        out.append(g.clone())
        g.apply(rng.choice(g.decision.options))
    return out


def _run_text(text: str, g: Game, env: dict[str, Any]) -> Any:
    return eval(compile(text, "<text>", "eval"), {"__builtins__": {}, "list": list, "g": g, "e": env})


@pytest.mark.parametrize("name", ["classic", "flip", "partners"])
def test_a_field_read_in_place_means_what_its_function_gives(name: str) -> None:
    """Each name declared as a field of the game: its getter and the text generated code
    writes for it give the same value at every decision of a game, as a value and, where
    it is only iterated, as items."""
    reads = [n for n in REGISTRY.names.values() if n.reads is not None]
    flagged = REGISTRY.primitives["flagged"]
    assert flagged.reads is not None
    compared = 0
    for g in _positions(name if name != "partners" else "house/partners", 4, 7):
        for p in range(g.n):
            if p % 2:
                g.flags[p].add("seen")
            env = {"player": p}
            for n in reads:
                assert n.reads is not None
                value = n.getter(g, env)
                assert _run_text(n.reads.text(), g, env) == value, n.name
                if n.type in ("players", "zone"):
                    assert list(_run_text(n.reads.text(items=True), g, env)) == list(value), n.name
                compared += 1
            for flag in ("seen", "other"):
                text = flagged.reads.text(at=repr(p), has=repr(flag))
                assert _run_text(text, g, env) == flagged.impl(g, p, flag) == (flag in g.flags[p])
    assert compared > 100
