"""Saves and the agents' seed on the command line: `run --rounds/--save/--resume`,
`play --save/--resume`, `replay --until N --save`, `--agent-seed`, and every way a
save can be wrong (a clear message, never a traceback)."""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Iterable
from itertools import cycle
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.helpers import classic_with
from unodsl import Game, load_variant
from unodsl.cli import main
from unodsl.players.bots import make_agents
from unodsl.tools.save import SAVE_VERSION, SaveError, load_save, parse_save, restore

SKIP = "on_play: skip()                            # CL-9"


def cli(*args: str | Path, input: str | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def final(output: str) -> str:
    """The end of a run's story: the final scores and the winner."""
    assert "Final scores" in output, output
    end = output.index("\n", output.index(" wins after "))
    return output[output.index("Final scores"):end]


def event_lines(log: Path) -> list[str]:
    return log.read_text().splitlines()[1:-1]


# -- the agents' seed ------------------------------------------------------------------
def test_the_log_header_records_both_seeds(tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    assert cli("run", "classic", "-p", "3", "-s", "6", "--log", log).exit_code == 0
    assert json.loads(log.read_text().splitlines()[0])["agent_seed"] == 6  # by default the game's
    assert cli("run", "classic", "-p", "3", "-s", "6", "--agent-seed", "9", "--log", log).exit_code == 0
    header = json.loads(log.read_text().splitlines()[0])
    assert (header["seed"], header["agent_seed"]) == (6, 9)
    assert cli("replay", log).exit_code == 0


@pytest.mark.slow
def test_the_agent_seed_changes_the_bots_choices_not_the_deal(tmp_path: Path) -> None:
    logs = []
    for agent_seed in ("1", "2"):
        log = tmp_path / f"{agent_seed}.jsonl"
        assert cli("run", "classic", "-p", "3", "-s", "6", "-a", "random", "--agent-seed", agent_seed,
                   "--log", log).exit_code == 0
        logs.append(event_lines(log))
    first_choice = next(i for i, line in enumerate(logs[0]) if '"event":"choice"' in line)
    assert logs[0][:first_choice] == logs[1][:first_choice]  # the same deal
    assert logs[0] != logs[1]  # other choices


def failing_variant(tmp_path: Path) -> Path:
    """Classic whose skip card fails in round 2: when depends on how round 1 went."""
    return classic_with(tmp_path, SKIP, "on_play: skip(10 / (round_number - 2))")


def headline(output: str) -> str:
    return next(line for line in output.splitlines() if "runtime error" in line)


def replay_args(output: str) -> list[str]:
    command = next(line for line in output.splitlines() if line.strip().startswith("replay: "))
    parts = shlex.split(command.split("replay: ", 1)[1])
    assert parts[:2] == ["unodsl", "run"]
    return parts[1:]


def test_the_replay_command_of_a_runtime_error_names_the_agent_seed_and_replays_it(tmp_path: Path) -> None:
    path = failing_variant(tmp_path)
    failed = cli("run", path, "-p", "3", "-s", "3", "-a", "random", "--agent-seed", "8")
    assert failed.exit_code == 1
    args = replay_args(failed.output)
    assert "--agent-seed 8" in " ".join(args)
    again = cli(*args)
    assert again.exit_code == 1 and headline(again.output) == headline(failed.output)
    # the agent seed matters here: without it, the same game seed fails elsewhere
    other = cli(*[a for a in args if a not in ("--agent-seed", "8")])
    assert headline(other.output) != headline(failed.output)
    # and the default agent seed (the game's) is not named
    plain = cli("run", path, "-p", "3", "-s", "3", "-a", "random")
    assert "--agent-seed" not in plain.output


def test_a_simulate_failure_replays_with_its_agent_seed(tmp_path: Path) -> None:
    path = failing_variant(tmp_path)
    result = cli("simulate", path, "-n", "2", "-p", "3", "-a", "random", "-s", "1", "--agent-seed", "4", "--json")
    failures = json.loads(result.output)["failures"]["games"]
    assert failures, result.output
    failure = failures[0]
    assert "--agent-seed" in failure["replay"]
    args = shlex.split(failure["replay"])[1:]
    again = cli(*args)
    assert again.exit_code == 1
    assert headline(again.output).endswith(failure["error"].split("runtime error: ", 1)[1])


# -- run --rounds / --save / --resume -----------------------------------------------------
@pytest.mark.parametrize("variant", ["classic", "flip", "duo"])
def test_a_resumed_run_ends_as_the_uninterrupted_one(tmp_path: Path, variant: str) -> None:
    players = "2" if variant == "duo" else "3"
    common = [variant, "-p", players, "-s", "5", "-a", "random,greedy"]
    whole_log, part_log = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    whole = cli("run", *common, "--log", whole_log)
    save = tmp_path / "game.json"
    stopped = cli("run", *common, "--rounds", "1", "--save", save)
    assert stopped.exit_code == 0, stopped.output
    assert f"saved to {save}; go on with: unodsl run --resume {save}" in stopped.output
    assert "Stopped after 1 round(s)" in stopped.output and "Final scores" not in stopped.output
    doc = json.loads(save.read_text())
    assert doc["unodsl_save"] == SAVE_VERSION and doc["seed"] == 5 and doc["agent_seed"] == 5
    resumed = cli("run", "--resume", save, "--log", part_log)
    assert resumed.exit_code == 0, resumed.output
    assert re.search(r"resumed at round 2, .*; P\d \(\w+\) to choose a \w+", resumed.output)
    assert final(resumed.output) == final(whole.output)
    tail = event_lines(part_log)
    assert 0 < len(tail) < len(event_lines(whole_log))
    assert event_lines(whole_log)[-len(tail):] == tail
    # the resumed game's log starts at the save, and replays
    assert json.loads(part_log.read_text().splitlines()[0])["start_actions"] == doc["actions"]
    assert cli("replay", part_log).exit_code == 0


def test_a_run_stopped_with_ctrl_c_is_saved_and_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    common = ["classic", "-p", "3", "-s", "2", "-a", "random"]
    whole = cli("run", *common)

    def interrupting(names: list[str], players: int, seed: int = 0) -> list[Any]:
        bots = make_agents(names, players, seed)
        asked = iter(range(40))

        class Interrupting:
            def __init__(self, bot: Any) -> None:
                self.bot, self.name = bot, bot.name

            def choose(self, game: Game, d: Any) -> Any:
                if next(asked, None) is None:
                    raise KeyboardInterrupt
                return self.bot.choose(game, d)

        return [Interrupting(b) for b in bots]

    save = tmp_path / "s.json"
    with monkeypatch.context() as patch:
        patch.setattr(sys.modules["unodsl.cli.run"], "make_agents", interrupting)  # the module, not the command
        stopped = cli("run", *common, "--save", save)
    assert stopped.exit_code == 130, stopped.output
    assert "Interrupted" in stopped.output and f"go on with: unodsl run --resume {save}" in stopped.output
    assert len(json.loads(save.read_text())["actions"]) == 40
    resumed = cli("run", "--resume", save)
    assert resumed.exit_code == 0, resumed.output
    assert final(resumed.output) == final(whole.output)


def test_a_save_of_an_ended_game_resumes_to_its_end(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    whole = cli("run", "duo", "-s", "3", "--save", save)
    assert whole.exit_code == 0 and f"saved to {save}" in whole.output
    resumed = cli("run", "--resume", save)
    assert resumed.exit_code == 0, resumed.output
    assert "the saved game is over" in resumed.output and final(resumed.output) == final(whole.output)


def test_resume_keeps_the_saved_table_unless_told(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    assert cli("run", "classic", "-p", "3", "-s", "4", "-a", "random", "--rounds", "1", "--save", save).exit_code == 0
    again = cli("run", "--resume", save, "-a", "greedy", "--agent-seed", "3", "--rounds", "1", "--save", save)
    assert again.exit_code == 0, again.output
    assert "P1 (greedy)" in again.output and "agent seed 3" in again.output
    doc = json.loads(save.read_text())
    assert doc["agents"] == ["greedy"] * 3 and doc["agent_seed"] == 3 and doc["seed"] == 4


@pytest.mark.parametrize(("args", "message"), [
    (["run"], "give VARIANT"),
    (["run", "--resume", "{save}", "-p", "2"], "leave out -p"),
    (["run", "--resume", "{save}", "-s", "1", "-o", "stacking"], "leave out -o, -s"),
])
def test_resume_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    save = tmp_path / "s.json"
    assert cli("run", "duo", "-s", "1", "--rounds", "1", "--save", save).exit_code == 0
    result = cli(*[a.replace("{save}", str(save)) for a in args])
    assert result.exit_code == 2 and message in result.output, result.output


# -- a save that cannot be resumed ---------------------------------------------------------
def a_save(tmp_path: Path) -> dict[str, Any]:
    save = tmp_path / "good.json"
    assert cli("run", "classic", "-p", "3", "-s", "4", "--rounds", "1", "--save", save).exit_code == 0
    doc: dict[str, Any] = json.loads(save.read_text())
    return doc


@pytest.mark.parametrize(("edit", "message"), [
    (lambda doc: "{not json", "line 1, column 2: not valid JSON"),
    (lambda doc: json.dumps([1, 2]), "not a unodsl save"),
    (lambda doc: json.dumps({**doc, "unodsl_save": 7}), "save format 7 is not one this unodsl reads (1)"),
    (lambda doc: json.dumps({**doc, "seed": "x"}), "the save's 'seed' should be a number, not \"x\""),
    (lambda doc: json.dumps({**doc, "actions": [{"a": 1}]}), "the save's answer 1 ({\"a\": 1}) is not an answer"),
    (lambda doc: json.dumps({**doc, "actions": [*doc["actions"][:3], 9999, *doc["actions"][4:]]}),
     "the save's answer 4 does not fit the game: 9999 is not a legal choice"),
    (lambda doc: json.dumps({**doc, "actions": doc["actions"] * 40}), "does not fit the game"),
    (lambda doc: json.dumps({**doc, "players": 11}), "UNO Classic is for 2–10 players, not the save's 11"),
])
def test_a_bad_save_is_a_clear_error(tmp_path: Path, edit: Any, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(edit(a_save(tmp_path)))
    result = cli("run", "--resume", bad)
    assert result.exit_code == 1, result.output
    assert f"{bad}: " in result.output and message in result.output, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)


def test_a_missing_variant_file_is_positioned_and_can_be_given(tmp_path: Path) -> None:
    doc = a_save(tmp_path)
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps({**doc, "file": str(tmp_path / "gone.yaml")}))
    result = cli("run", "--resume", moved)
    assert result.exit_code == 1 and "gone.yaml:1:1: error: the variant file the save" in result.output
    result = cli("run", "classic", "--resume", moved)
    assert result.exit_code == 0 and "Final scores" in result.output


def test_load_and_restore_as_a_library(tmp_path: Path) -> None:
    doc = a_save(tmp_path)
    save = parse_save(json.dumps(doc))
    game = restore(save, load_variant("classic"))
    assert game.actions == doc["actions"] and game.decision is not None and game.round == 2
    with pytest.raises(SaveError, match="cannot read the save"):
        load_save(tmp_path / "none.json")


# -- replay --until N --save ---------------------------------------------------------------
@pytest.mark.slow
def test_replay_until_saves_the_position_and_run_resumes_it(tmp_path: Path) -> None:
    log, whole_save, part_save = tmp_path / "g.jsonl", tmp_path / "whole.json", tmp_path / "part.json"
    whole = cli("run", "classic", "-p", "3", "-s", "7", "-a", "random", "--log", log)
    assert cli("replay", log, "--save", whole_save).exit_code == 0
    stopped = cli("replay", log, "--until", "300", "--save", part_save)
    assert stopped.exit_code == 0, stopped.output
    assert f"go on with: unodsl run --resume {part_save}" in stopped.output
    all_answers, part = json.loads(whole_save.read_text())["actions"], json.loads(part_save.read_text())
    assert 0 < len(part["actions"]) < len(all_answers) and all_answers[:len(part["actions"])] == part["actions"]
    assert (part["seed"], part["agent_seed"], part["agents"]) == (7, 7, ["random"] * 3)
    resumed = cli("run", "--resume", part_save)
    assert resumed.exit_code == 0, resumed.output
    assert final(resumed.output) == final(whole.output)


# -- play --save / --resume ------------------------------------------------------------------
def play(args: list[str], answers: Iterable[str], limit: int = 4_000) -> Result:
    lines = "".join(f"{a}\n" for a, _ in zip(cycle(answers), range(limit), strict=False))
    return CliRunner().invoke(main, ["play", *args], input=lines)


def test_play_saves_when_the_person_quits_and_resumes(tmp_path: Path) -> None:
    common = ["classic", "-p", "3", "--seat", "1", "-s", "4", "-a", "random"]
    whole = play(common, ["1"])
    assert whole.exit_code == 0, whole.output
    save = tmp_path / "s.json"
    quit_ = play([*common, "--save", str(save)], ["1"] * 10 + ["q"], limit=11)
    assert quit_.exit_code == 0, quit_.output
    assert f"saved to {save}; go on with: unodsl play --resume {save}" in quit_.output
    doc = json.loads(save.read_text())
    assert doc["agents"] == ["random", "human", "random"] and doc["agent_seed"] == 4
    resumed = play(["--resume", str(save)], ["1"])
    assert resumed.exit_code == 0, resumed.output
    assert "You are P2;" in resumed.output and "resumed at round 1" in resumed.output
    assert final(resumed.output) == final(whole.output)
    # a bot cannot take over the person's seat unless told which bots play
    taken = cli("run", "--resume", save)
    assert taken.exit_code == 2 and "'human' at P2" in taken.output
    assert cli("run", "--resume", save, "-a", "greedy").exit_code == 0
