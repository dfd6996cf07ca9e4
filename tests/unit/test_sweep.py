"""`unodsl sweep` and unodsl.tools.sweep: grids, figures per cell, tests against the base cells."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from unodsl.cli import main
from unodsl.tools import comparison
from unodsl.tools.comparison import holm
from unodsl.tools.simulate import simulate
from unodsl.tools.stats import fisher_exact
from unodsl.tools.sweep import Grid, GridError, parse_grid, parse_players, sweep

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "variants" / "classic.yaml"
STACKING = ROOT / "variants" / "house" / "draw_two_stacking.yaml"


def without_timing(f: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in f.items() if k != "timing"}


# -- the grid's text -------------------------------------------------------------------


def test_grid_text_is_parsed() -> None:
    assert parse_grid("option=draw_until_playable:on,off") == ("draw_until_playable", ("on", "off"))
    assert parse_grid("option= target : 300, 500") == ("target", ("300", "500"))
    assert parse_players("2-4,6") == (2, 3, 4, 6)
    assert parse_players("5") == (5,)


@pytest.mark.parametrize(("text", "message"), [
    ("draw_until_playable", "use option=NAME:on,off"),
    ("players=2-6", "player counts are --players 2-6"),
    ("agents=greedy", "line-ups are --agents, repeated"),
    ("option=:on,off", "the option's name is missing"),
    ("option=target", "give the values after a colon"),
    ("option=target:300,", "give the values after a colon"),
    ("option=target:300,300", "300 given twice"),
])
def test_grid_errors_say_what_to_write(text: str, message: str) -> None:
    with pytest.raises(GridError, match=message):
        parse_grid(text)


@pytest.mark.parametrize(("text", "message"), [
    ("two", "use a count"), ("6-2", "not a range"), ("0", "not a range"), ("2-4,3", "3 given twice"),
])
def test_player_count_errors(text: str, message: str) -> None:
    with pytest.raises(GridError, match=message):
        parse_players(text)


def test_a_grid_refuses_an_option_both_set_and_gridded_or_gridded_twice() -> None:
    with pytest.raises(GridError, match="both set"):
        Grid(("classic",), (4,), options=(("target", ("300",)),), fixed=(("target", "500"),))
    with pytest.raises(GridError, match="gridded twice"):
        Grid(("classic",), (4,), options=(("target", ("300",)), ("target", ("400",))))
    with pytest.raises(GridError, match="players named twice"):
        Grid(("classic",), (4, 4))


def test_cells_and_their_base_cells() -> None:
    grid = Grid(("classic", "other"), (2, 3), (("greedy",), ("random",)), (("stack", ("off", "on")),))
    cells = grid.cells()
    assert len(cells) == 2 * 2 * 2 * 2
    bases = {c.index: grid.base_of(c, cells) for c in cells}
    for cell in cells:
        base = bases[cell.index]
        if base is None:
            assert cell.variant == "classic" and cell.options == (("stack", "off"),) and cell.agents == ("greedy",)
        else:
            assert base.players == cell.players and grid.is_base(base)
    assert sum(b is None for b in bases.values()) == 2  # one base cell per player count


# -- the CLI's errors ----------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["--grid", "draw_until_playable"], "use option=NAME:on,off"),
    (["-p", "2-x"], "use a count (4), a range (2-6)"),
    (["-p", "1-3"], "is for 2–10 players, not 1"),
    (["-o", "target=300", "--grid", "option=target:300,400"], "both set (-o) and gridded"),
    (["-a", "greedy,randon"], "unknown agent 'randon'"),
])
def test_cli_grid_errors_are_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["sweep", "classic", "--rounds", "2", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_cli_unknown_gridded_option_is_a_positioned_diagnostic() -> None:
    result = CliRunner().invoke(main, ["sweep", "classic", "--rounds", "2", "--grid", "option=stackin:on,off"])
    assert result.exit_code == 1, result.output
    assert "stackin" in result.output and "classic.yaml" in result.output and "Traceback" not in result.output


# -- figures ------------------------------------------------------------------------


def test_a_one_cell_grid_gives_simulates_figures() -> None:
    grid = Grid((str(CLASSIC),), (3,), (("greedy", "random"),), (("draw_until_playable", ("on",)),))
    result = sweep(grid, 6, seed=3, agent_seed=2)
    alone = simulate(CLASSIC, 6, players=3, agents=["greedy", "random"], seed=3, agent_seed=2,
                     options={"draw_until_playable": True})
    assert without_timing(result.runs[0].figures()) == without_timing(alone.figures())
    assert result.tests == []
    cell = result.figures()["cells"][0]
    assert without_timing(cell["figures"]) == without_timing(alone.figures())
    assert cell["summary"]["first_seat"]["rate"] == alone.figures()["wins"]["round_by_seat_from_dealer"][1]["rate"]


def test_holm_over_a_known_family() -> None:
    tests = [comparison.TestResult(str(i), "t", None, None, None, p)
             for i, p in enumerate([0.01, 0.04, 0.03, 0.005])]
    holm(tests)
    assert [t.p_holm for t in tests] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [t.significant for t in tests] == [True, False, False, True]


def test_the_sweeps_tests_are_corrected_together_over_every_cell() -> None:
    grid = Grid((str(CLASSIC), str(STACKING)), (2, 3), (("greedy", "random"),))
    result = sweep(grid, 30, seed=1, rounds_only=True)
    assert {t.cell for t in result.tests} == {2, 3} and {t.base for t in result.tests} == {0, 1}
    raw = sorted((t.result.p, t.result.p_holm) for t in result.tests if t.result.p is not None)
    m = len(raw)
    assert m == result.tested and m > 12  # both cells' tests form one family
    running = 0.0
    for i, (p, p_holm) in enumerate(raw):
        running = max(running, min(1.0, (m - i) * p))
        assert p_holm == pytest.approx(running)
    names = {t.result.test for t in result.tests}
    assert names == {"two-proportion z-test", "Welch's t-test", "Mann–Whitney U test", "Fisher's exact test"}


def test_a_difference_is_found_when_there_is_one() -> None:
    """Random against greedy bots: the line-up changes who wins, and the sweep says so."""
    grid = Grid((str(CLASSIC),), (2,), (("greedy", "random"), ("random",)))
    result = sweep(grid, 120, seed=2, rounds_only=True)
    lengths = [t.result for t in result.tests if t.result.metric == "turns per round (mean)"]
    assert lengths and lengths[0].significant and lengths[0].p_holm is not None and lengths[0].p_holm < 0.05


def _fisher_by_enumeration(ka: int, na: int, kb: int, nb: int) -> float:
    k, n = ka + kb, na + nb
    pmf = {x: math.comb(na, x) * math.comb(nb, k - x) / math.comb(n, k) for x in range(max(0, k - nb), min(k, na) + 1)}
    return sum(p for p in pmf.values() if p <= pmf[ka] * (1 + 1e-9))


@pytest.mark.parametrize("table", [(1, 10, 5, 10), (3, 1000, 12, 1000), (995, 1000, 980, 1000), (0, 50, 0, 60),
                                   (7, 7, 0, 9)])
def test_fisher_exact(table: tuple[int, int, int, int]) -> None:
    assert fisher_exact(*table) == pytest.approx(_fisher_by_enumeration(*table), rel=1e-9)
    assert fisher_exact(1, 10, 5, 10) == pytest.approx(0.1408668730650)  # scipy's value


# -- output -------------------------------------------------------------------------


SWEEP = ["sweep", str(CLASSIC), str(STACKING), "--rounds", "12", "-p", "2-3", "-s", "4"]


def test_cli_table_json_and_csv() -> None:
    runner = CliRunner()
    text = runner.invoke(main, SWEEP)
    assert text.exit_code == 0, text.output
    assert all(len(line) <= 80 for line in text.output.splitlines() if not line.startswith(("tests:", "  ")))
    for heading in ("Cells", "First seat and round length", "Round wins by seat from the dealer",
                    "Differences from the base cell", "Holm-corrected over"):
        assert heading in text.output
    data = json.loads(runner.invoke(main, [*SWEEP, "--json"]).output)
    assert [c["base"] for c in data["cells"]] == [None, None, 0, 1]
    assert data["cells"][2]["tests"] and data["cells"][0]["tests"] == []
    rows = list(csv.DictReader(io.StringIO(runner.invoke(main, [*SWEEP, "--csv"]).output)))
    assert len(rows) == 4 and rows[2]["base"] == "0"
    assert float(rows[1]["first_seat_rate"]) == data["cells"][1]["summary"]["first_seat"]["rate"]
    assert rows[0]["seat_dealer+2_rate"] == ""  # two players: no third seat


def test_failed_games_are_reported_by_cell_with_their_seeds(tmp_path: Path) -> None:
    from tests.unit.test_simulate import faulty
    path = faulty(tmp_path)
    result = CliRunner().invoke(main, ["sweep", str(path), "-n", "6", "-p", "2", "-a", "greedy", "-s", "5"])
    assert result.exit_code == 1, result.output
    assert "cell #0:" in result.output and "game(s) failed" in result.output
    assert "(seed " in result.output and "replay: unodsl run" in result.output


def test_plot_writes_heat_maps(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(main, [*SWEEP, "--plot", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for name in ("first_seat_advantage.png", "turns_per_round.png"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"
