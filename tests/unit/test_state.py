"""The state of a game is declared once (engine/state.py): every attribute of a game, new,
played, cloned or loaded from a pickle, is in the declaration, and the declaration names
nothing a game lacks."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

from unodsl import Game, load_variant, make_agents
from unodsl.engine.state import FIELDS, STEADY


def test_every_field_of_a_game_is_declared_once() -> None:
    variant = load_variant("flip")
    games = [Game(variant, 3, 1), Game(variant, 3, 2, record=True), Game(load_variant("classic"), 4, 3)]
    played = Game(variant, 3, 4)
    played.autoplay(make_agents(["random"] * 3, 3, 4), rounds=1)
    games += [played, played.clone(), pickle.loads(pickle.dumps(played))]
    for game in games:
        assert set(vars(game)) == set(FIELDS), (set(vars(game)) ^ set(FIELDS))


def test_steady_fields_are_bound_only_when_a_game_is_made() -> None:
    """Generated loops read a steady field once (envvars.steadied): so nothing in the
    package may bind one again after a game is made or loaded."""
    package = Path(__file__).resolve().parents[2] / "unodsl"
    bound: set[tuple[str, str, str]] = set()
    for path in package.rglob("*.py"):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                targets = (node.targets if isinstance(node, ast.Assign)
                           else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
                for target in targets:
                    for el in target.elts if isinstance(target, ast.Tuple) else [target]:
                        # (`self` is the game in the engine's classes; elsewhere, another object)
                        if isinstance(el, ast.Attribute) and el.attr in STEADY and (
                                ast.unparse(el.value) != "self" or path.parent.name == "engine"):
                            bound.add((path.name, fn.name, el.attr))
    assert bound == {("game.py", "__init__", "draw_pile"), ("game.py", "__init__", "discard_pile"),
                     ("game.py", "__init__", "aside"), ("game.py", "__init__", "hands"),
                     ("game.py", "_first_start", "n"), ("game.py", "_derive", "_memo")}
