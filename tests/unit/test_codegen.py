"""The generated module of a variant (engine/codegen.py, lang/emit.py): hostile names
and strings stay data, the module reaches only what it is given, its pieces name
their place in the variant file, and `unodsl compile` prints it."""

from __future__ import annotations

import ast as pyast
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.helpers import VARIANTS, classic_with
from tests.property.test_backends import decided
from unodsl import load_variant
from unodsl.cli import main
from unodsl.engine.backends import backend_of
from unodsl.engine.state import STEADY, STILL
from unodsl.errors import VariantRuntimeError
from unodsl.lang.emit import EmitError, literal
from unodsl.lang.signature import CARD_ATTRS

# The names the emitter writes: its locals, the builtins and objects it is given,
# and names it makes (o<n>_…, l_<language name>, temporaries, its functions).
FIXED = {
    "g", "e", "data", "x", "at", "err", "asked", "queue", "hands", "pile", "runners", "n", "memo", "max_turns",
    "env", "plays", "turns", "p", "hand", "face", "by_color", "faces", "options", "c", "test", "d", "agents",
    "agent", "action", "card", "paused", "draw_pile", "got", "drawn", "offer", "answer", "program", "run", "leave",
    "answered", "resume", "choosers", "a", "ran", "start", "items", "k",
    "bool", "dict", "type", "tuple", "list", "len", "id", "any", "all", "sum", "range", "Exception", "RecursionError",
    "PAUSED", "ASK", "Decision", "DRAW", "KEEP", "PASS", "decision", "TURN_TYPES", "illegal", "VariantRuntimeError",
    "RunawayRound", "Ask", "DRAIN", "new_for", "new_while", "new_repeat", "new_bind", "new_run", "ANSWER_TYPES", "int",
    "keep",
}
# (i<n>_…: the locals of a template put in place of a call: engine/template.py)
MADE = re.compile(r"^(o\d+_\w*|E_\w+|l_\w+|i\d+_\w+|t\d+|fn\d+|k\d+|items\d+|times\d+"
                  r"|(cond|run|resume|loop|lam|fire)_\d+"
                  r"|G_(" + "|".join((*STEADY, *STILL, "_quiet")) + "))$")  # (a field of the game a loop reads once)

HOSTILE_EFFECT = (
    "__import__ = 1; e = __import__ + 1; g = e; __builtins__ = \"'); import os; ('\\\\{0}}\"; "
    "if any(hand, __class__ -> flagged(player, \"red'{}\") and __class__.points == g) "
    "then flag(player, __builtins__) else unflag(player, \"x\"); skip()")
HOSTILE_RULE = '''
  - name: "x\\n'\'\'\\nimport os  # {0}"
    on: turn_end
    if: any(players, __dict__ -> flagged(__dict__, "\'\'\'{0}\\"))
    do: unflag(player, "__class__")
'''


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("hostile")
    path = classic_with(tmp, "on_play: skip()                            # CL-9", "on_play: |\n      " + HOSTILE_EFFECT)
    text = path.read_text().replace("rules:\n", "rules:" + HOSTILE_RULE, 1)
    text = text.replace("name: UNO Classic", 'name: "UNO\\nimport os\\u2028x = 1  # {0}"', 1)
    path.write_text(text)
    return path


def names_and_attributes(source: str) -> tuple[set[str], set[str]]:
    tree = pyast.parse(source)
    names = {node.id for node in pyast.walk(tree) if isinstance(node, pyast.Name)}
    names |= {node.name for node in pyast.walk(tree) if isinstance(node, pyast.FunctionDef)}
    names |= {a.arg for node in pyast.walk(tree) if isinstance(node, pyast.FunctionDef) for a in node.args.args}
    attrs = {node.attr for node in pyast.walk(tree) if isinstance(node, pyast.Attribute)}
    return names, attrs


def test_hostile_names_and_strings_stay_data(hostile: Path) -> None:
    v = load_variant(hostile)
    names, attrs = names_and_attributes(backend_of(v).source)
    strange = {n for n in names if n not in FIXED and not MADE.match(n)}
    assert not strange, f"names the emitter did not make: {strange}"
    assert not {a for a in attrs if a.startswith("__")}, attrs
    assert "__import__" not in names and "__builtins__" not in names - {"__builtins__"}
    assert "l___class__" in names  # a lambda's parameter: mangled, a local of its own function
    assert "e['__import__']" in backend_of(v).source  # a variable: a key of the variables, never a Python name
    for line in backend_of(v).source.splitlines():  # the rule's name is a literal or a one-line comment
        assert not line.strip().startswith("import"), line
    # The module has no builtins of its own: it reaches only what the namespace holds.
    runner = next(iter(backend_of(v).runs.values()))
    assert runner.__globals__["__builtins__"] == {}
    # … and it plays as the interpreter does.
    reference = load_variant(hostile, backend="closures")
    for seed in range(3):
        assert decided(v, seed) == decided(reference, seed)


def test_only_plain_literals_are_written() -> None:
    assert literal(-3) == "(-3)" and literal("a'\"\n") == repr("a'\"\n") and literal(None) == "None"
    for bad in (1.5, b"x", object(), [1], ("a",)):
        with pytest.raises(EmitError):
            literal(bad)


def test_card_attributes_are_the_fixed_table() -> None:
    _, attrs = names_and_attributes(backend_of(load_variant("flip")).source)
    game = {a for a in attrs if a not in CARD_ATTRS}
    assert all(a.isidentifier() and not a.startswith("__") for a in game)


def test_each_piece_names_its_place_in_the_file() -> None:
    v = load_variant("classic")
    lines = backend_of(v).source.splitlines()
    heads = [lines[k + 1] for k, line in enumerate(lines) if line.startswith(("def cond_", "def run_", "def resume_"))]
    placed = [h for h in heads if h != "    # (the flow)"]  # rounds and turns come from no one place
    assert len(placed) > len(heads) / 2 and all(re.match(r"    # .*classic\.yaml:\d+:\d+: ", h) for h in placed), \
        placed[:3]
    assert "# /" in backend_of(v).source or "classic.yaml:22:" in backend_of(v).source


def test_a_fault_in_generated_code_is_placed_in_the_variant_file(tmp_path: Path) -> None:
    path = classic_with(tmp_path, "on_play: skip()                            # CL-9",
                        "on_play: skip(10 / (player_count - player_count))")
    for backend in ("compiled", "closures"):
        with pytest.raises(VariantRuntimeError) as err:
            for seed in range(10):
                decided(load_variant(path, backend=backend), seed)
        assert "division by zero" in str(err.value) and f"{path.name}:" in str(err.value), str(err.value)


def test_compile_prints_the_module() -> None:
    result = CliRunner().invoke(main, ["compile", "duo"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Generated by unodsl") and "def run_" in result.output
    assert "    # (the flow)" in result.output and "g.turns += 1" in result.output  # the turn's own steps, in place
    compile(result.output, "duo", "exec")  # it is Python
    bad = CliRunner().invoke(main, ["compile", "no_such_variant"])
    assert bad.exit_code != 0 and "no variant file or shipped variant" in bad.output


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="backend must be one of"):
        load_variant("classic", backend="fast")


# What Python reads as an encoding declaration in the first two lines (PEP 263).
COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.IGNORECASE)
COOKIE_NAMES = [
    'coding:unicode_escape \\\\x0a    pass\\\\x0adef f(a=__import__(\\"os\\").system(\\"id>MU\\")):#',
    "coding:utf-7",
    "-*- coding: latin-1 -*-",
    "vim: set fileencoding=utf-16 :",
]


@pytest.mark.parametrize("name", COOKIE_NAMES)
def test_the_printed_module_is_the_same_code_when_saved_and_run(name: str, tmp_path: Path) -> None:
    """`unodsl compile v.yaml > m.py; python m.py` (issue 31, 1): a name, a rule's name or a file
    name with a coding declaration never puts one in the module's comments."""
    folder = tmp_path / "coding:utf-7"  # the file's name is in the module too
    folder.mkdir()
    path = classic_with(folder, "name: UNO Classic", f'name: "{name}"')
    text = path.read_text().replace('  - name: "COM-2: say UNO when one card is left"', f'  - name: "{name}"', 1)
    assert text != path.read_text()
    path.write_text(text)
    out = CliRunner().invoke(main, ["compile", str(path)])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert not any(name[:12] in line for line in lines[:2]), lines[:2]
    assert [line for line in lines if line.lstrip().startswith("#") and COOKIE.match(line)] == []
    module = tmp_path / "m.py"
    module.write_text(out.output, encoding="utf-8")
    assert tokenize.detect_encoding(io.BytesIO(module.read_bytes()).readline)[0] == "utf-8"
    run = subprocess.run([sys.executable, str(module)], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         check=False)
    assert run.returncode == 0, run.stderr
    assert not (tmp_path / "MU").exists()
    saved = compile(module.read_text(encoding="utf-8"), "m", "exec")
    assert saved.co_names == compile(out.output, "m", "exec").co_names


def test_an_event_with_rules_reaches_a_listener_appended_by_hand() -> None:
    """The generated code sends an event with rules straight to them only while no log
    is kept and no listener attached (template.py's #emit; a loop reads that once, as %_quiet:
    listeners change only between decisions): a listener put in `game.listeners` mid-game hears
    the events the rules watch from then on."""
    from unodsl import Game, make_agents

    variant = load_variant("classic")  # its UNO rules hear turn_start
    source = backend_of(variant).source
    assert "fire_" in source and "G__quiet = (g.events is None and not g.listeners)" in source
    assert " if G__quiet else g.emit(" in source
    game = Game(variant, 2, 3)
    heard: list[str] = []
    game.listeners.append(lambda g, name, data: heard.append(name))
    game.autoplay(make_agents(["greedy"] * 2, 2, 3), rounds=1)
    # every turn of the round but the first (begun when the game was made, before the
    # listener), and the next round's first, set up by autoplay before it stops
    assert heard.count("turn_start") >= game.round_turns[0] - 1 > 0


@pytest.mark.parametrize(("text", "facts", "expected"), [
    ("len($o) == 1 and not loud_turn", {"loud_turn": None}, "len($o) == 1 and not %_loud_turn"),
    ("len($o) == 1 and not loud_turn", {"loud_turn": True}, False),
    ("len($o) == 1 and loud_turn", {"loud_turn": True}, "len($o) == 1"),
    ("len($o) == 1 or loud_turn", {"loud_turn": True}, True),
    ("len($o) == 1 or not loud_turn", {"loud_turn": True}, "len($o) == 1"),
    ("not loud_turn and len($o) == 1", {"loud_turn": None}, "(not %_loud_turn) and len($o) == 1"),
    ("a and b or loud_turn", {"loud_turn": None}, "a and b or loud_turn"),  # (and/or in REST: Python)
])
def test_a_directive_condition_folds_a_fact_first_or_last(text: str, facts: dict[str, bool | None],
                                                          expected: str | bool) -> None:
    """A template's condition names a fact before or after the Python it joins: the facts
    the variant fixes fold it; an open fact is read from the game, after the cheaper test."""
    from unodsl.engine.template import Render

    assert Render(facts).cond(text) == expected


def test_a_drawn_card_is_matched_against_the_faces_the_turn_found() -> None:
    """Without rules nothing can change the top card or the colour between the turn's
    choice and its draw: the drawn card is matched against the faces turn_choice found
    (the variable `_faces`), not looked up again; with rules, it is looked up again."""
    mirror = backend_of(load_variant(Path(__file__).parents[1] / "benchmarks" / "rlcard_mirror.yaml")).source
    turn = mirror[mirror.index("(the flow: turn_choice)"):mirror.index("(the flow: act)")]
    assert turn.count("G__memo[") == 1 and "in E__faces" in turn
    classic = backend_of(load_variant("classic")).source  # (UNO rules: a rule may change the colour)
    assert "_faces'" not in classic and "E__faces" not in classic


def test_a_choice_drains_after_asking_only_when_a_rule_hears_choice(tmp_path: Path) -> None:
    """A choice drains the rules queued so far before it asks; after the answer, only the
    asking can have queued one (a rule on `choice`). Classic's turn choice always asks (its
    rules hear turn_start): one drain, before the question; with a rule on `choice`, two."""
    def turn(source: str) -> str:
        return source[source.index("(the flow: turn_choice)"):source.index("(the flow: is_draw)")]

    classic = backend_of(load_variant("classic")).source
    assert turn(classic).count("g.drain()") == 1
    rule = "\n  - name: told\n    on: choice\n    do: flag(player, \"chose\")\n"
    path = classic_with(tmp_path, "rules:\n", "rules:" + rule)
    assert turn(backend_of(load_variant(path)).source).count("g.drain()") == 2


# The templates the flow's steps call (engine/table.py): put in place, unless the lines
# would pass the six levels a generated function may have (then called, silently).
FLOW_CALLS = re.compile(r"\bg\.(play|draw|draw_one|fits|advance|advance_bent)\(")


@pytest.mark.parametrize("name", [*sorted(p.stem for p in VARIANTS.glob("*.yaml")),
                                  *(f"house/{p.stem}" for p in sorted((VARIANTS / "house").glob("*.yaml"))),
                                  "rlcard_mirror"])
def test_every_shipped_variant_has_its_turn_in_place(name: str) -> None:
    """A template nested one level deeper can push a step's lines past the depth limit:
    the turn then calls `g.play(…)` instead of putting it in place, and nothing else
    fails. Every shipped variant's module (and the benchmarks' mirror) puts the flow's
    plays, draws and moves in place."""
    path = Path(__file__).parents[1] / "benchmarks" / "rlcard_mirror.yaml" if name == "rlcard_mirror" else name
    source = backend_of(load_variant(path)).source
    assert not FLOW_CALLS.findall(source), FLOW_CALLS.findall(source)
