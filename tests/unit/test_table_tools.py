"""The tools at a table with teams, ties and outputs (issue 26, items 9 and 10): wins by
seat credit every partner, a tie is no one's win, standings list teams, and an output
path that cannot be written is refused before any game is played."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl.cli import main
from unodsl.tools.simulate import simulate
from unodsl.tools.simulation import figures
from unodsl.variant.load import load_variant


def test_a_team_win_counts_for_every_partner() -> None:
    sim = simulate("house/partners", 24, players=4, agents=["greedy", "random"], seed=3)
    wins = {row["seat"]: row["count"] for row in figures(sim)["wins"]["game_by_seat"]}
    assert wins[0] == wins[2] and wins[1] == wins[3] and wins[0] + wins[1] == 24


def test_a_tie_is_counted_as_a_tie_not_a_win(tmp_path: Path) -> None:
    path = tmp_path / "tie.yaml"
    path.write_text("extends: classic\nname: always a tie\nscoring: {target: null, game_over: 'true'}\n"
                    "rules:\n  - name: everyone back to 0\n    on: round_end\n    do: for p in players do "
                    "set_score(p, 0)\n", encoding="utf-8")
    sim = simulate(str(path), 6, players=3, agents=["random"], seed=1)
    f = figures(sim)
    assert f["games"]["tied"]["count"] == 6 and sum(r["count"] for r in f["wins"]["game_by_seat"]) == 0
    result = CliRunner().invoke(main, ["run", str(path), "-p", "3", "--seed", "1"])
    assert result.exit_code == 0 and "a tie between P1 (greedy), P2 (random) and P3 (greedy)" in result.output


def test_run_lists_teams_in_the_standings() -> None:
    result = CliRunner().invoke(main, ["run", "house/partners", "--seed", "3"])
    assert result.exit_code == 0, result.output
    standings = result.output.split("Final scores")[1]
    assert "1. P1 (greedy) & P3 (greedy)" in standings and "P1 (greedy) & P3 (greedy) win after" in standings


def test_the_winner_heads_the_standings_when_no_one_scores() -> None:
    # No Mercy scores nothing: every total is 0, and the last player standing comes first
    result = CliRunner().invoke(main, ["run", "no_mercy", "--players", "4", "--seed", "11"])
    assert result.exit_code == 0, result.output
    standings = result.output.split("Final scores")[1].splitlines()
    assert standings[1].split() == ["1.", "P3", "(greedy)", "0"] and standings[2].endswith("(out)")
    assert "P3 (greedy) wins after" in result.output


def test_teams_opposite_needs_four_players_or_more(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("extends: classic\nname: t\nplayers: {min: 2, max: 10}\nteams: opposite\n", encoding="utf-8")
    with pytest.raises(Exception) as err:
        load_variant(path)
    assert "at least 4" in str(err.value) and "set players: {min: 4, max: 4}" in str(err.value)


@pytest.mark.parametrize("args", [
    ["run", "classic", "--log", "{missing}/x.jsonl"],
    ["run", "classic", "--save", "{missing}/x.json"],
    ["run", "classic", "--save", "{folder}"],
    ["play", "classic", "--log", "{missing}/x.jsonl"],
    ["rulebook", "classic", "--output", "{missing}/rules.md"],
    ["compile", "classic", "--output", "{missing}/m.py"],
    ["simulate", "classic", "--games", "3", "--plot", "{file}/plots"],
    ["sweep", "classic", "--games", "3", "-p", "2", "--plot", "{file}/plots"],
])
def test_an_output_that_cannot_be_written_is_refused_before_the_work(tmp_path: Path, args: list[str]) -> None:
    file = tmp_path / "a_file"
    file.write_text("x")
    args = [a.format(missing=tmp_path / "no_such_folder", folder=tmp_path, file=file) for a in args]
    result = CliRunner().invoke(main, args, input="q\n")
    assert result.exit_code == 2, result.output
    assert "Invalid value for" in result.output and "Traceback" not in result.output
    assert "Round 1" not in result.output and "wins" not in result.output  # nothing was played
