"""The state of a game is declared once (engine/state.py): every attribute of a game, new,
played, cloned or loaded from a pickle, is in the declaration, and the declaration names
nothing a game lacks."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path
from typing import Any

import pytest

from unodsl import Game, load_variant, make_agents
from unodsl.engine import snapshot, state
from unodsl.engine.backends import backend_of
from unodsl.engine.state import FIELDS, STEADY, STILL
from unodsl.errors import UnoDslError


def test_every_field_of_a_game_is_declared_once() -> None:
    variant = load_variant("flip")
    games = [Game(variant, 3, 1), Game(variant, 3, 2, record=True), Game(load_variant("classic"), 4, 3)]
    played = Game(variant, 3, 4)
    played.autoplay(make_agents(["random"] * 3, 3, 4), rounds=1)
    games += [played, played.clone(), pickle.loads(pickle.dumps(played))]
    for game in games:
        assert len(state.read_state(game)) == len(FIELDS)  # every field is set (a slot left empty raises)
        assert not hasattr(game, "__dict__")  # and a game has nothing else


def test_steady_fields_are_bound_only_when_a_game_is_made() -> None:
    """Generated loops read a steady field once (a template's %name: engine/template.py): so nothing in the
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
                     ("game.py", "_first_start", "n"), ("game.py", "_derive", "_memo"),
                     ("game.py", "__init__", "_queue"), ("game.py", "__init__", "played"),
                     ("game.py", "_first_start", "played"),
                     ("table.py", "_apply", "played"), ("table.py", "start", "played")}  # (web/table.py: a seat's)


def _binders(fields: tuple[str, ...]) -> set[tuple[str, str, str]]:
    """(module, function, field) for each assignment of one of `fields` to an attribute in the package."""
    package = Path(__file__).resolve().parents[2] / "unodsl"
    bound: set[tuple[str, str, str]] = set()
    for path in package.rglob("*.py"):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, ast.FunctionDef):
                for node in ast.walk(fn):
                    targets = (node.targets if isinstance(node, ast.Assign)
                               else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
                    for target in targets:
                        for el in target.elts if isinstance(target, ast.Tuple) else [target]:
                            if isinstance(el, ast.Attribute) and el.attr in fields:
                                bound.add((path.name, fn.name, el.attr))
    return bound


def test_still_fields_are_bound_only_where_no_game_runs() -> None:
    """Generated loops read a still field once too (state.STILL): it is bound only when a game is made,
    cloned or watched (watch is refused while the game runs), and by a search on its own copy before it
    runs it (the flags themselves are set together by Game._rewatch)."""
    assert _binders(STILL) == {("game.py", "__init__", "max_turns"), ("game.py", "__init__", "_watch"),
                               ("game.py", "__init__", "listeners"),
                               ("game.py", "_first_start", "_watch"), ("game.py", "clone", "_watch"),
                               ("game.py", "watch", "_watch"), ("ismcts.py", "_rollout", "max_turns"),
                               ("rl.py", "__init__", "max_turns"),  # (the env's own setting, not a game's)
                               *(("game.py", "_rewatch", flag) for flag in
                                 ("_loud_turn", "_tell_play", "_loud_play", "_loud_draw"))}


def test_a_listener_cannot_be_attached_while_the_game_runs() -> None:
    """An agent asked inside autoplay that attaches a listener is refused: its decision stays pending,
    and who listens is what it was (a generated loop has read it once)."""
    class Watcher:  # (autoplay asks the first decision where the game has stopped: the next, inside it)
        asked = 0

        def choose(self, game: Any, decision: Any) -> Any:
            Watcher.asked += 1
            if Watcher.asked == 2:
                game.watch(lambda g, name, data: None)
            return decision.options[0]

    game = Game(load_variant("classic"), 2, 5)
    watch, flags = game._watch, (game._loud_turn, game._loud_play, game._loud_draw)
    with pytest.raises(UnoDslError, match="cannot watch a game in the middle of a step"):
        game.autoplay([Watcher(), Watcher()])
    assert Watcher.asked == 2 and game.decision is not None
    assert game._watch is watch and not game.listeners and (game._loud_turn, game._loud_play, game._loud_draw) == flags


def test_the_start_a_new_game_copies_is_the_same_whoever_made_the_first_game() -> None:
    """The first game of a table keeps its start for the next (state.START), whether it
    was made bare, recorded, listened to or counting its plays; a game made after it
    plays the same game as one made first."""
    def play(game: Game) -> tuple[object, ...]:
        game.autoplay(make_agents(["random"], 4, 7), rounds=1)
        return (game.round_turns, game.scores, [[c.id for c in h] for h in game.hands], game._loud_play,
                game._loud_turn)

    made_first = {}
    for options in ({}, {"record": True}, {"count_plays": True}, {"listeners": [lambda g, n, d: None]},
                    {"listeners": [lambda g, n, d: None], "listen_to": ["round_end"]}):
        variant = load_variant("classic")  # a fresh cache
        first = Game(variant, 4, 11, **options)
        assert "start 4" in backend_of(variant).cache
        made_first[repr(options)] = (play(first), play(Game(variant, 4, 12)), play(Game(variant, 4, 12, **options)))
    bare_first = made_first["{}"]
    for key, (first, bare, again) in made_first.items():
        assert bare == bare_first[1], key  # a bare game after it is a bare game
        assert again[:3] == bare_first[1][:3], key  # the same game, listened to or not
        assert first[3:] == again[3:], key  # and the same flags as the first one made so


def test_a_game_pickled_by_an_engine_with_another_state_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pickle records how the state is laid out; an engine that lays it out otherwise
    (another field, or a field that holds something else) says so instead of loading
    a game it would misread. So does one pickled before the layout was recorded."""
    game = Game(load_variant("classic"), 4, 1)
    data = pickle.dumps(game)
    assert [[c.id for c in h] for h in pickle.loads(data).hands] == [[c.id for c in h] for h in game.hands]
    reduced: Any = game.__reduce__()
    restore, (variant, pairing, check, payload) = reduced
    with pytest.raises(UnoDslError, match="pickled by another version of unodsl"):
        restore(variant, pairing, check[:2], payload)  # as an older engine recorded it
    monkeypatch.setattr(snapshot, "LAYOUT", "another layout")
    with pytest.raises(UnoDslError, match=r"pickled by another version of unodsl.*from its log"):
        pickle.loads(data)


def test_the_layout_changes_with_any_field_and_with_the_version() -> None:
    same = state.layout(dict(FIELDS), state.STATE_VERSION)
    assert same == state.LAYOUT
    others = [state.layout({**FIELDS, "tokens": "table"}, state.STATE_VERSION),
              state.layout({k: v for k, v in FIELDS.items() if k != "played"}, state.STATE_VERSION),
              state.layout({**FIELDS, "played": "start"}, state.STATE_VERSION),
              state.layout(FIELDS, state.STATE_VERSION + 1)]
    assert len({same, *others}) == 5
