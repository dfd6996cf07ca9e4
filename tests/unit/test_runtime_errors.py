"""A variant's expression that fails while a game runs is a positioned runtime error
(file:line:col, round, turn, seed and a replay command), never a traceback; runaway
effects end at the turn's work budget or the integer cap."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.helpers import classic_with
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.cli import main
from unodsl.errors import VariantRuntimeError

SKIP = "on_play: skip()                            # CL-9"


def line_col(path: Path, needle: str) -> tuple[int, int]:
    """1-based line and column of `needle` in the file."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def fail(path: Path, players: int = 3) -> VariantRuntimeError:
    """The runtime error of the first of a few seeded games that fails."""
    for seed in range(10):
        g = None
        try:
            g = Game(load_variant(path), players, seed)
            play_game(g, make_agents(["greedy", "random"], players))
        except VariantRuntimeError as err:
            return err
    raise AssertionError("no game failed")


# Faults the checker cannot see before the game (it refuses the literal forms: `1 / 0`,
# `skip(top.rank)`, `flip()` in a one-sided deck …).
@pytest.mark.parametrize(("effect", "at", "message"), [
    ("skip(10 / (player_count - player_count))", "skip(10 /", "division by zero"),
    ("skip(10 % (player_count - player_count))", "skip(10 %", "modulo by zero"),
    ("x = 2; repeat 100 do x = x * x", "x = x * x", "a number grew past 1,000,000,000,000"),
    ("repeat 10000 do repeat 10000 do reverse()", "repeat 10000 do reverse", "more than 1,000,000 steps"),
    ("repeat player_count * 5000 do reverse()", "repeat player_count", "more than the 10,000 a loop may run"),
    ("n = 0; while n < 1 do reverse()", "while n < 1", "its condition never became false"),
])
def test_a_failing_effect_is_reported_at_its_statement(tmp_path: Path, effect: str, at: str, message: str) -> None:
    path = classic_with(tmp_path, SKIP, f"on_play: {effect}")
    err = fail(path)
    line, col = line_col(path, at)
    assert err.pos is not None and (err.pos.line, err.pos.col) == (line, col), str(err)
    assert message in err.message
    text = str(err)
    assert text.startswith(f"{path}:{line}:{col}: runtime error: ")
    assert f"seed {err.seed}" in text and f"round {err.round}, turn {err.turn}" in text
    assert f"replay: unodsl run {path} --seed {err.seed} -p 3" in text


def test_a_failing_condition_is_reported_at_the_condition(tmp_path: Path) -> None:
    path = classic_with(tmp_path, SKIP, f"{SKIP}\n    legal_if: 5 % (player_count - player_count) == 0")
    err = fail(path)
    assert err.pos is not None and (err.pos.line, err.pos.col) == line_col(path, "5 % (player")
    assert "modulo by zero" in err.message


def test_a_failing_rule_condition_is_reported_at_the_rule(tmp_path: Path) -> None:
    path = classic_with(tmp_path, "rules:\n", "rules:\n  - on: card_played\n"
                        "    if: player_count / (player_count - player_count) > 1\n    do: reverse()\n")
    err = fail(path)
    assert err.pos is not None and (err.pos.line, err.pos.col) == line_col(path, "player_count / (")
    assert "division by zero" in err.message


def test_a_none_the_checker_cannot_foresee_is_reported_at_its_statement(tmp_path: Path) -> None:
    # the colour to match is none until the first card is turned
    path = classic_with(tmp_path, "rules:\n", "rules:\n  - on: round_start\n    do: set_color(current_color)\n")
    err = fail(path)
    assert err.pos is not None and (err.pos.line, err.pos.col) == line_col(path, "set_color(current_color)")
    assert "set_color() was given none" in err.message and (err.round, err.turn) == (1, 0)


def test_a_failing_setup_is_reported_in_round_one_turn_zero(tmp_path: Path) -> None:
    path = classic_with(tmp_path, "    deal(option.hand_size);\n", "    deal(7);\n    skip(1 / (player_count - 3));\n")
    with pytest.raises(VariantRuntimeError) as info:
        Game(load_variant(path), 3, 0)
    assert (info.value.round, info.value.turn) == (1, 0)
    assert info.value.pos is not None and info.value.pos.line == line_col(path, "skip(1 /")[0]


def test_unodsl_run_prints_the_error_and_its_replay_and_exits_1(tmp_path: Path) -> None:
    path = classic_with(tmp_path, SKIP, "on_play: skip(1 / (player_count - 3))")
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "3", "-p", "3"])
    assert result.exit_code == 1
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    line, col = line_col(path, "skip(1 / (player_count")
    head = f"{path}:{line}:{col}: runtime error:"
    assert head in result.output
    replay = next(x for x in result.output.splitlines() if "replay: " in x).split("replay: ")[1].split()
    assert replay[:2] == ["unodsl", "run"] and "-a" in replay
    again = CliRunner().invoke(main, replay[1:])  # the replay command fails the same way
    assert again.exit_code == 1, (replay, again.output)
    assert [x for x in again.output.splitlines() if head in x] == [x for x in result.output.splitlines()
                                                                  if head in x]
