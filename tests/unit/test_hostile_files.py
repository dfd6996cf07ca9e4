"""Hostile logs, saves, scores, links and schema targets (issue 31, 5, 6, 7, 7d): each gets a
clear error, checked before use; never a traceback, a hang or a memory blow-up."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.helpers import classic_with
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.cli import main
from unodsl.errors import GameError, VariantError
from unodsl.players.bots import MOST_ITERATIONS, AgentSpecError, parse_agent
from unodsl.tools.log import MOST_DEPTH, MOST_DIGITS, MOST_PLAYERS, TooLarge, read_json
from unodsl.variant.schema import schema

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], list[str]]:
    tmp = tmp_path_factory.mktemp("saved")
    assert cli("run", "classic", "--seed", "1", "--rounds", "1", "--save", tmp / "s.json",
               "--log", tmp / "g.jsonl").exit_code == 0
    return json.loads((tmp / "s.json").read_text()), (tmp / "g.jsonl").read_text().splitlines()


# -- 5: logs and saves -----------------------------------------------------------------

def test_the_limits_fit_what_unodsl_writes() -> None:
    assert schema()["properties"]["players"]["properties"]["max"]["maximum"] == MOST_PLAYERS
    assert read_json('{"a": [[{"id": 1, "face": "red 7"}]], "seed": ' + "9" * MOST_DIGITS + "}")["a"]
    with pytest.raises(TooLarge, match=f"nested more than {MOST_DEPTH} deep"):
        read_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(TooLarge, match="a number of 5,000 digits"):
        read_json('{"seed": ' + "7" * 5000 + "}")
    with pytest.raises(TooLarge, match="NaN is not a number"):
        read_json('{"seed": NaN}')


def _bad_saves(doc: dict[str, object]) -> dict[str, tuple[str, str]]:
    text = json.dumps(doc)
    return {
        "deep": ('{"unodsl_save": 1, "actions": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested more than"),
        "seed": (text.replace('"seed": 1,', '"seed": ' + "9" * 5000 + ","), "a number of 5,000 digits"),
        "players": (text.replace('"players": 4', '"players": 1000000000'), "a table has at most 100"),
        "agents": (json.dumps({**doc, "agents": ["ismcts:iterations=1000000000000"] * 4}),
                   "iterations must be at most 100,000"),
        "many agents": (json.dumps({**doc, "agents": ["random"] * 1000}), "seats 1,000 agents at 4 places"),
        "agent": (json.dumps({**doc, "agents": ["ismcts:iterations=" + "9" * 5000] * 4}),
                  "iterations must be a whole number"),
    }


@pytest.mark.parametrize("case", ["deep", "seed", "players", "agents", "many agents", "agent"])
def test_a_hostile_save_is_refused_before_use(case: str, saved: tuple[dict[str, object], list[str]],
                                              tmp_path: Path) -> None:
    text, message = _bad_saves(saved[0])[case]
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    for command in ("run", "play"):
        result = cli(command, "--resume", path)
        assert result.exit_code == 1, (command, result.output)
        assert message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("case", "message"), [
    ("deep", "line 2 is not an event unodsl writes: JSON nested more than"),
    ("seed", "line 1 is not a header unodsl writes: a number of 5,000 digits"),
    ("field", "line 2 is not an event unodsl writes: a number of 5,000 digits"),
    ("players", "the header's 'players' is 1,000,000,000; a table has 1 to 100"),
])
def test_a_hostile_log_is_refused_before_use(case: str, message: str, saved: tuple[dict[str, object], list[str]],
                                             tmp_path: Path) -> None:
    lines = list(saved[1])
    if case == "deep":
        lines.insert(1, '{"event": "x", "a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    elif case == "seed":
        lines[0] = lines[0].replace('"seed": 1,', '"seed": ' + "9" * 5000 + ",")
    elif case == "field":
        lines[1] = lines[1].replace('"player":0', '"player":' + "7" * 5000)
    else:
        lines[0] = lines[0].replace('"players": 4', '"players": 1000000000')
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = cli("replay", path)
    assert result.exit_code == 1 and message in result.output, result.output


@pytest.mark.parametrize(("spec", "message"), [
    (f"ismcts:iterations={MOST_ITERATIONS + 1}", "iterations must be at most 100,000"),
    ("ismcts:iterations=10000000000000000000000", "iterations must be a whole number"),
    ("ismcts:seconds=1e12", "seconds must be at most 3,600"),
    ("ismcts:rollout_turns=1000000000", "rollout_turns must be at most 10,000"),
])
def test_agent_parameters_have_a_ceiling(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        parse_agent(spec)
    assert message in cli("run", "classic", "--agents", spec).output


# -- 6: scores -----------------------------------------------------------------------

DOUBLING = "add_score(player, 1); repeat 200 do add_score(player, player.score)"


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_a_score_that_doubles_ends_the_game_with_a_clear_error(backend: str, tmp_path: Path) -> None:
    path = classic_with(tmp_path, "rules:\n", f"rules:\n  - name: doubling\n    on: card_played\n    do: {DOUBLING}\n")
    v = load_variant(path, backend=backend)
    game = Game(v, 2, 1)
    with pytest.raises(GameError, match=r"a score grew past 1,000,000,000,000 \(the most a game may count\)") as err:
        play_game(game, make_agents(["random", "random"], 2, 1))
    assert f"{path.name}:" in str(err.value)
    result = cli("run", path, "--seed", "1")
    assert result.exit_code == 1 and "a score grew past" in result.output


# -- 7: links ------------------------------------------------------------------------

def test_extends_through_a_loop_of_links(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    (tmp_path / "loop").symlink_to("loop")
    for ref in ("a.yaml", "loop/x.yaml"):
        path = tmp_path / "v.yaml"
        path.write_text(f"extends: {ref}\nname: x\n", encoding="utf-8")
        with pytest.raises(VariantError, match=r"can.t be used as a path \(Too many levels of symbolic links"):
            load_variant(path)
        result = cli("validate", path)
        assert result.exit_code == 1 and "symbolic links" in result.output


# -- 7d: schema --write -----------------------------------------------------------------

def _header(folder: Path, named: str) -> Path:
    path = folder / "v.yaml"
    path.write_text(f"# yaml-language-server: $schema={named}\nunodsl: 1\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("named", ["../outside/variant.schema.json", "{outside}/variant.schema.json",
                                   "sub/../../outside/variant.schema.json", "linked/variant.schema.json"])
def test_schema_write_stays_in_the_variants_folder(named: str, tmp_path: Path) -> None:
    home, outside = tmp_path / "home", tmp_path / "outside"
    home.mkdir()
    outside.mkdir()
    (home / "sub").mkdir()
    (home / "linked").symlink_to(outside)
    result = cli("schema", "--write", _header(home, named.format(outside=outside)))
    assert result.exit_code == 1 and "outside the variant's folder" in result.output, result.output
    assert list(outside.iterdir()) == []


def test_schema_write_never_writes_through_a_link_or_reads_a_device(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    (tmp_path / "variant.schema.json").symlink_to(target)  # dangling
    result = cli("schema", "--write", _header(tmp_path, "variant.schema.json"))
    assert result.exit_code == 1 and "symbolic link" in result.output and not target.exists()
    (tmp_path / "variant.schema.json").unlink()
    (tmp_path / "variant.schema.json").symlink_to("/dev/zero")
    assert "symbolic link" in cli("schema", "--write", _header(tmp_path, "variant.schema.json")).output
    (tmp_path / "variant.schema.json").unlink()
    os.mkfifo(tmp_path / "variant.schema.json")
    result = cli("schema", "--write", _header(tmp_path, "variant.schema.json"))
    assert result.exit_code == 1 and "not a unodsl schema" in result.output
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.yaml")
    for name in ("zero.yaml", "fifo.yaml"):
        result = cli("schema", "--write", tmp_path / name)
        assert result.exit_code == 1 and "not a regular file of at most 1 MB" in result.output
    ok = tmp_path / "ok"
    ok.mkdir()
    assert cli("schema", "--write", _header(ok, "variant.schema.json")).exit_code == 0
    assert json.loads((ok / "variant.schema.json").read_text())["$id"] == schema()["$id"]


# -- 7b: loops nested deep ----------------------------------------------------------------

def _nested(n: int, kinds: str = "rfw") -> str:
    body = "skip()"
    for i in range(n):
        kind = kinds[i % len(kinds)]
        body = {"r": f"repeat 1 do ({body})", "f": f"for p in [player] do ({body})",
                "w": f"while false do ({body})"}[kind]
    return body


@pytest.mark.parametrize("kinds", ["r", "f", "w", "rfw"])
def test_loops_as_deep_as_validate_accepts_compile_and_play(kinds: str, tmp_path: Path) -> None:
    from unodsl.variant.expressions import MAX_LOOPS
    deep = _nested(MAX_LOOPS, kinds)
    path = classic_with(tmp_path, "on_play: skip()                            # CL-9", f'on_play: "{deep}"')
    text = path.read_text().replace("rules:\n", f'rules:\n  - name: deep\n    on: turn_end\n    do: "{deep}"\n', 1)
    path.write_text(text)
    assert cli("validate", path).exit_code == 0
    for args in (["run", path, "--seed", "1"], ["compile", path], ["rulebook", path]):
        result = cli(*args)
        assert result.exit_code == 0, (args, result.output)
    path.write_text(text.replace(deep, _nested(MAX_LOOPS + 1, kinds), 1))
    result = cli("validate", path)
    assert result.exit_code == 1 and f"loops are nested more than {MAX_LOOPS} deep" in result.output
    for deeper in (12, 20):
        path.write_text(text.replace(deep, _nested(deeper, kinds)))
        for command in ("validate", "run", "compile", "rulebook"):
            result = cli(command, path)
            assert result.exit_code == 1 and "loops are nested more than" in result.output, (command, result.output)
            assert "SyntaxError" not in result.output
