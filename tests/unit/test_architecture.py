"""The layout holds: no import circles in unodsl/, layers import downwards, and what
the engine emits is what `engine/events.py` declares."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, VARIANTS, classic_with
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.engine import machine, scores, table
from unodsl.engine.cards import Card
from unodsl.engine.events import EVENTS, EVERYONE, visible_to
from unodsl.engine.state import State
from unodsl.engine.template import TEMPLATES
from unodsl.players.narrator import Narrator

PACKAGE = ROOT / "unodsl"
SHIPPED = sorted(VARIANTS.glob("*.yaml")) + sorted((VARIANTS / "house").glob("*.yaml"))


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module → the unodsl modules it imports, anywhere in its body (lazy imports count)."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        package = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                target = ".".join(base + (node.module.split(".") if node.module else []))
                targets = [target, *(f"{target}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            graph[mod] |= {t for t in targets if t in modules and t != mod and not mod.startswith(t + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


MAX_MODULE_LINES = 600  # one job per module: a module past this holds more than one


def long_modules(package: Path, limit: int = MAX_MODULE_LINES) -> dict[str, int]:
    """The Python modules under `package` longer than `limit` lines, with their lengths."""
    lengths = {str(p.relative_to(package.parent)): len(p.read_text(encoding="utf-8").splitlines())
               for p in sorted(package.rglob("*.py"))}
    return {name: n for name, n in lengths.items() if n > limit}


def test_no_module_in_the_package_is_over_600_lines() -> None:
    assert long_modules(PACKAGE) == {}, "split the module by job (one job per module)"


def test_a_module_over_600_lines_is_found(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * 600, encoding="utf-8")
    (tmp_path / "pkg" / "sub" / "long.py").write_text("x = 1\n" * 601, encoding="utf-8")
    assert long_modules(tmp_path / "pkg") == {str(Path("pkg/sub/long.py")): 601}


def test_no_import_circles_anywhere_in_the_package() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_planted_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


# Lower layers never import higher ones: the language knows nothing of variants or
# the engine, the engine nothing of tools, players or the CLI, and so on.
LAYERS = ["errors", "lang", "model", "engine", "variant", "players", "tools", "web", "cli", "rl"]
ALLOWED = {  # a layer → the layers it may import (besides itself)
    "errors": set(),
    "lang": {"errors"},
    "model": {"errors", "lang"},  # the checked variant: what the front end makes and the engine plays
    "engine": {"errors", "lang", "model"},
    "variant": {"errors", "lang", "model", "engine"},
    "players": {"errors", "model", "engine", "variant"},
    "tools": {"errors", "lang", "model", "engine", "variant", "players"},
    "web": {"errors", "model", "engine", "variant", "players", "tools"},  # the web table (optional [web])
    "cli": {"errors", "lang", "model", "engine", "variant", "players", "tools", "web"},
    "rl": {"errors", "model", "engine", "variant"},  # the PettingZoo environment: the engine's public contract
}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_layers_import_only_downwards() -> None:
    wrong = []
    for mod, targets in import_graph().items():
        layer = _layer(mod)
        if layer not in ALLOWED:
            continue
        for t in targets:
            there = _layer(t)
            rest = t.split(".", 1)[1] if "." in t else ""
            if there and there != layer and not any(rest == a or rest.startswith(a + ".") for a in ALLOWED[layer]):
                wrong.append(f"{mod} imports {t}")
    assert wrong == []


def test_the_rl_environment_imports_only_downwards_and_nothing_imports_it() -> None:
    graph = import_graph()
    assert "unodsl.rl" in graph
    assert graph["unodsl.rl"], "unodsl.rl imports nothing of unodsl"
    assert {_layer(t) for t in graph["unodsl.rl"]} <= ALLOWED["rl"]
    assert not [m for m, ts in graph.items() if "unodsl.rl" in ts]  # an optional extra: no one needs it


def test_only_the_serve_command_imports_the_web_table_and_only_server_py_imports_starlette() -> None:
    graph = import_graph()
    users = {m for m, ts in graph.items() if any(_layer(t) == "web" for t in ts) and _layer(m) != "web"}
    assert users == {"unodsl.cli.serve"}
    for path in (PACKAGE / "web").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "server.py":
            assert "starlette" not in text.replace("Starlette", "") and "import uvicorn" not in text, path.name


def test_no_package_circles() -> None:
    """Packages import each other one way only: the engine plays the model the front end
    (variant) makes, and the front end checks with the engine's primitives; the players
    (and the narrator) never import the tools built on them."""
    graph = import_graph()
    packages: dict[str, set[str]] = {}
    for mod, targets in graph.items():
        packages.setdefault(_layer(mod), set()).update(_layer(t) for t in targets if _layer(t) != _layer(mod))
    assert cycles({p: {t for t in ts if t in packages} for p, ts in packages.items()}) == []


def test_no_command_module_imports_another_command() -> None:
    graph = import_graph()
    commands = {m for m in graph if m.startswith("unodsl.cli.") and m != "unodsl.cli.common"}
    for mod in commands:
        assert not (graph[mod] & commands), f"{mod} imports another command"
        assert "unodsl.cli" not in graph[mod], f"{mod} imports the group back"


# -- events: what is emitted is what is declared --------------------------------

def _emit_calls() -> Iterator[tuple[str, ast.Call]]:
    """Every `emit(…)` of the engine: in its modules (a game's `g.emit(name, data)`, or the
    machine's function `emit(g, name, data)` called directly), and in its templates' #emit lines."""
    for path in (PACKAGE / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "emit"):
                yield f"{path.name}:{node.lineno}", node
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "emit":
                yield f"{path.name}:{node.lineno}", ast.Call(node.func, node.args[1:], node.keywords)
    for template in TEMPLATES.values():
        for event, data in template.events():
            told = ast.parse(f"g.emit({event!r}, {data.replace('$', '').replace('@', '')})").body[0]
            assert isinstance(told, ast.Expr) and isinstance(told.value, ast.Call)
            yield f"template {template.name}", told.value


def test_every_emit_in_the_engine_names_a_declared_event_with_exactly_its_fields() -> None:
    seen = 0
    for where, call in _emit_calls():
        name, data = call.args
        assert isinstance(name, ast.Constant), f"{where}: emit's event name should be a literal"
        assert name.value in EVENTS, f"{where}: {name.value!r} is not declared in events.py"
        assert isinstance(data, ast.Dict), f"{where}: emit's fields should be a dict literal"
        keys = {k.value for k in data.keys if isinstance(k, ast.Constant)}
        assert keys == set(EVENTS[name.value].fields), f"{where}: {name.value} sends {sorted(keys)}"
        seen += 1
    assert seen >= 20


def _type_ok(kind: str, value: Any, game: Game) -> bool:
    match kind:
        case "player":
            return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < game.n
        case "int":
            return isinstance(value, int) and not isinstance(value, bool)
        case "card":
            return isinstance(value, Card)
        case "color":
            return isinstance(value, str) and any(value in s.colors for s in game.variant.sides)
        case "str":
            return isinstance(value, str)
        case "players":
            return isinstance(value, list) and all(_type_ok("player", v, game) for v in value)
        case "cards":
            return isinstance(value, list) and all(isinstance(v, Card) for v in value)
        case "answer":  # a card, a colour, a seat, true or false, an action word, or a declared play's cards
            return isinstance(value, Card | str | int) or _type_ok("cards", value, game)
    return kind == "any"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_emitted_events_match_their_declaration(path: Path) -> None:
    variant = load_variant(path)
    emitted: set[str] = set()
    for seed in range(6):
        players = max(variant.min_players, min(variant.max_players, 2 + seed % 3))
        problems: list[str] = []

        def check(game: Game, name: str, data: dict[str, Any], problems: list[str] = problems) -> None:
            emitted.add(name)
            declared = EVENTS[name].fields
            if set(data) != set(declared):
                problems.append(f"{name} sends {sorted(data)}, declares {sorted(declared)}")
            problems.extend(f"{name}.{k} = {v!r} is not {declared[k].type}"
                            for k, v in data.items() if k in declared and not _type_ok(declared[k].type, v, game))

        game = Game(variant, players, seed, listeners=[check])
        play_game(game, make_agents(["greedy", "random"], players))
        assert problems == []
    assert emitted, "no event was emitted"


def test_every_declared_event_is_emitted_somewhere_in_the_engine_or_reserved() -> None:
    sent = {call.args[0].value for _, call in _emit_calls() if isinstance(call.args[0], ast.Constant)}
    never = {name for name, e in EVENTS.items() if name not in sent and not e.reserved}
    assert never == set(), f"declared but never emitted (mark them reserved, with a reason): {sorted(never)}"


def test_visibility_hides_a_drawn_card_from_the_other_players() -> None:
    card = object()
    data = {"player": 1, "card": card}
    assert visible_to("card_drawn", data, 1) == data
    assert visible_to("card_drawn", data, 0) == {"player": 1}
    given = {"player": 0, "other": 2, "card": card}
    assert visible_to("card_given", given, 2) == given
    assert visible_to("card_given", given, 1) == {"player": 0, "other": 2}


def test_every_field_that_is_not_public_names_seat_or_zone_fields_of_its_event() -> None:
    for name, event in EVENTS.items():
        for fname, f in event.fields.items():
            if f.seen_by != EVERYONE:
                assert all(event.fields[s].type == "player" or event.fields[s].zone for s in f.seen_by), \
                    f"{name}.{fname}"


def test_the_narrator_tells_only_declared_events() -> None:
    assert set(Narrator.told_events()) <= set(EVENTS)


def test_a_rule_can_read_the_prompt_of_a_choice(tmp_path: Path) -> None:
    """The `choice` event's `prompt` is declared, so a rule may test it."""
    rule = ('rules:\n  - name: count the UNO calls\n    on: choice\n'
            '    if: prompt == "call_uno" and value == true\n    do: flag(player, "called")\n')
    variant = load_variant(classic_with(tmp_path, "rules:\n", rule))
    called: list[int] = []
    game = Game(variant, 2, 3, listeners=[
        lambda g, name, data: called.append(data["player"]) if name == "flagged" else None])
    play_game(game, make_agents(["greedy"], 2))
    assert called, "no UNO call was flagged by the rule"


def test_game_is_the_top_of_the_engine() -> None:
    """The public contract (engine/game.py) stands above the rest of the engine: the
    primitives reach a game through engine/reach.py, and no module of the engine
    imports game.py."""
    graph = import_graph()
    assert "unodsl.engine.game" in graph["unodsl"]  # (the graph sees this import)
    assert sorted(m for m, ts in graph.items() if "unodsl.engine.game" in ts and m.startswith("unodsl.engine")) == []


def test_game_is_composed_of_its_machine_and_table_not_a_chain_of_classes() -> None:
    """Game's one base is its state (state.State: the fields, no behaviour). Its machine and
    its table are modules of functions of the state, not classes a game descends from:
    game.py binds each operation it offers by name, the function itself (no second body),
    and no class of the engine's parts extends the state."""
    assert Game.__mro__ == (Game, State, object)
    assert [k for k, v in vars(State).items() if callable(v) and not k.startswith("__")] == []
    parts = {m.__name__: m for m in (machine, table, scores)}
    bound = {name: getattr(member, "__func__", member) for name, member in vars(Game).items()}
    bound = {name: fn for name, fn in bound.items() if getattr(fn, "__module__", None) in parts}
    assert {"emit", "run", "ask", "play", "draw", "playable", "fits", "advance", "score_round"} <= set(bound)
    for name, fn in bound.items():
        assert getattr(parts[fn.__module__], fn.__name__) is fn, f"Game.{name} is not its part's own function"
    for module in parts.values():
        assert not [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, State) and c is not State]


def test_primitives_reach_a_game_through_its_interface_alone() -> None:
    """A primitive module imports the engine's value types (cards, actions), its registry and
    engine/reach.py (the interface of what a primitive may touch), and no other module of
    the engine: not the table, the machine or the flow it runs over."""
    graph = import_graph()
    allowed = {"unodsl.engine.reach", "unodsl.engine.cards", "unodsl.engine.actions"}
    for mod, targets in graph.items():
        if mod.startswith("unodsl.engine.primitives."):
            engine = {t for t in targets
                      if t.startswith("unodsl.engine.") and not t.startswith("unodsl.engine.primitives")}
            assert engine <= allowed, f"{mod} imports {sorted(engine - allowed)}"
