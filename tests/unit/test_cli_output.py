"""The commands' output when piped: a reader that stops early, tables within 80
columns, and plots in the units of the tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl.cli import main
from unodsl.tools.plots import bars
from unodsl.tools.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "variants" / "classic.yaml"
COMMANDS = [["run", "classic", "-p", "3", "-s", "7", "-v"], ["simulate", "classic", "-n", "20", "-s", "1"],
            ["validate", str(CLASSIC)]]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_reader_that_stops_early_ends_the_command_quietly(args: list[str]) -> None:
    """`unodsl run … | head -1`: exit code 0, and nothing on stderr (no traceback)."""
    proc = subprocess.Popen([sys.executable, "-c", "from unodsl.cli import main; main()", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()  # the first line, then the reader goes away
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0, err.decode()
    assert err == b""


def test_piped_simulate_tables_fit_80_columns() -> None:
    result = CliRunner().invoke(main, ["simulate", "classic", "-n", "8", "-s", "2", "--compare", "classic"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    table_lines = [line for line in lines if line.startswith(" ") and not line.startswith("  played")]
    assert any("─" in line for line in table_lines), "no table in the output"
    assert max(len(line) for line in table_lines) <= 80
    assert "…" not in result.output  # folded, not cut short
    assert "\x1b[" not in result.output


def test_plotted_win_rates_are_percentages_like_the_tables() -> None:
    figs = simulate(CLASSIC, 6, players=3, agents=["greedy", "random"], seed=3).figures()
    rows = figs["wins"]["game_by_seat"]
    rates, (below, above) = bars(rows)
    shown = CliRunner().invoke(main, ["simulate", str(CLASSIC), "-n", "6", "-p", "3", "-a", "greedy,random",
                                      "-s", "3"]).output
    for rate, lo, hi in zip(rates, below, above, strict=True):
        assert f"{rate:.1f}% ({rate - lo:.1f}–{rate + hi:.1f})" in shown
    assert 99.9 < sum(rates) < 100.1


def test_docs_install_from_a_checkout_while_unodsl_is_unpublished() -> None:
    """unodsl is not on PyPI: no doc says `pip install unodsl`, and the pre-commit
    snippets pin a commit sha, not an invented release."""
    import re

    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / ".pre-commit-hooks.yaml"]
    for path in docs:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"pip install ['\"]?unodsl\b", text), path.name
        for rev in re.findall(r"^[#\s-]*rev:\s*(\S+)", text, re.MULTILINE):
            assert rev == "<commit-sha>", f"{path.name}: rev: {rev} (no release is tagged yet)"
