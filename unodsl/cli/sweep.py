"""The `unodsl sweep` command: `simulate` over a grid of rules, line-ups and table sizes."""

from __future__ import annotations

import csv
import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from ..errors import UnoDslError, VariantError, shown
from ..tools import plots
from ..tools import sweep as lib
from ..tools.comparison import TestResult
from ..tools.plots import PlotUnavailable
from ..tools.simulate import default_players
from ..variant.load import load_variant
from .common import (
    EXIT_INVALID,
    Console,
    OutputPath,
    agent_names,
    allow_option,
    cluster_option,
    num,
    open_cluster,
    parse_options,
    pct,
    print_diagnostics,
    progress_bars,
    pvalue,
    report_table,
    runaway_option,
    test_value,
    workers_option,
)

TEST_SHORT = {"two-proportion z-test": "z", "Welch's t-test": "t", "Mann–Whitney U test": "U",
              "Fisher's exact test": "F"}


@click.command(name="sweep")
@click.argument("variants", nargs=-1, required=True, metavar="VARIANT...")
@click.option("-n", "--games", type=click.IntRange(1), help="Play N whole games in each cell (default: 100).")
@click.option("--rounds", type=click.IntRange(1), help="Play N single rounds in each cell instead of games.")
@click.option("-p", "--players", "players_text", metavar="COUNTS",
              help="Player counts: 4, 2-6 or 2,4,6 (default: 4, or the nearest the first variant allows).")
@click.option("-a", "--agents", "lineups", multiple=True, metavar="LIST",
              help="An agent line-up, comma-separated and cycled to fill the table; repeat for more "
              "line-ups (default: greedy,random). The table turns one seat per game, as in simulate.")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch or set an option in every cell (NAME, NAME=off, NAME=300); repeatable.")
@click.option("-g", "--grid", "grid", multiple=True, metavar="option=NAME:V1,V2",
              help="Sweep an option over values: option=NAME:on,off (a switch) or option=NAME:300,500 "
              "(a number option); repeatable. Its first value is the base.")
@click.option("--fixed-seats", is_flag=True, help="Keep the agents in the same seats in every game.")
@click.option("-s", "--seed", type=int, help="Master seed, the same in every cell (default: random, printed).")
@click.option("--agent-seed", type=int, metavar="N", help="The agents' master seed, as in simulate.")
@workers_option
@cluster_option
@runaway_option
@click.option("--max-failures", type=click.IntRange(1), metavar="N", help="Stop a cell after N failed games.")
@click.option("--json", "as_json", is_flag=True, help="Print every cell's figures and tests as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print one CSV row per cell.")
@click.option("--plot", "plot_dir", type=OutputPath(folder=True), metavar="DIR",
              help="Write heat maps of first-seat advantage and round length to DIR (needs matplotlib).")
@allow_option
def sweep(variants: tuple[str, ...], games: int | None, rounds: int | None, players_text: str | None,
          lineups: tuple[str, ...], option: tuple[str, ...], grid: tuple[str, ...], fixed_seats: bool,
          seed: int | None, agent_seed: int | None, workers: int | None, cluster: str | None, max_turns: int,
          max_failures: int | None,
          as_json: bool, as_csv: bool, plot_dir: str | None, allow: tuple[str, ...]) -> None:
    """Simulate every cell of a grid of VARIANT files, options, agent line-ups and
    player counts, and test each cell against its base.

    Each cell plays the same seeds and reports the figures of `simulate`. The
    base cell of a cell is the one at the same player count with every other
    axis at its first value (the first VARIANT, each --grid option's first value,
    the first --agents); the differences are tested (two-proportion z-test,
    Welch's t-test, Mann–Whitney U, Fisher's exact test) and Holm-corrected over
    all the sweep's tests together (α = 0.05).
    """
    if games is not None and rounds is not None:
        raise click.UsageError("give --games or --rounds, not both")
    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    count = rounds or games or 100
    err_console = Console(stderr=True, highlight=False)
    try:
        gridded = tuple(lib.parse_grid(g) for g in grid)
        players = lib.parse_players(players_text) if players_text else None
    except lib.GridError as err:
        raise click.UsageError(str(err)) from err
    fixed = parse_options(option)
    teams = tuple(tuple(agent_names(a)) for a in lineups) or (("greedy", "random"),)
    if plot_dir is not None:
        try:
            plots.check_plot()
        except PlotUnavailable as err:
            raise click.ClickException(str(err)) from err
    try:
        if players is None:
            players = (default_players(load_variant(variants[0], fixed, allow)),)
        the_grid = lib.Grid(variants, players, teams, gridded, tuple(fixed.items()))
        lib.load_cells(the_grid, allow)
    except VariantError as err:
        print_diagnostics(err.diagnostics, err_console)
        sys.exit(EXIT_INVALID)
    except lib.GridError as err:
        raise click.UsageError(str(err)) from err
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    cells = the_grid.cells()
    unit = "rounds" if rounds else "games"
    try:
        with open_cluster(cluster, workers) as on, progress_bars(err_console, unit) as track:
            advance = track(f"sweep of {len(cells)} cells", len(cells) * count)
            result = lib.sweep(the_grid, count, seed=seed, rounds_only=rounds is not None, max_turns=max_turns,
                               fixed_seats=fixed_seats, max_failures=max_failures, agent_seed=agent_seed,
                               workers=1 if workers is None else workers, allow=allow,
                               progress=lambda cell: advance, cluster=on)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
    except UnoDslError as err:
        err_console.print(f"[red]error:[/] {escape(str(err))}")
        sys.exit(EXIT_INVALID)
    figs = result.figures()
    failed = any(c["summary"]["failed"] for c in figs["cells"])
    charts = plots.sweep_charts(figs, plot_dir) if plot_dir is not None else []
    if as_json:
        click.echo(json.dumps(figs, indent=2, allow_nan=False))
    elif as_csv:
        click.echo(to_csv(figs), nl=False)
    else:
        console = Console(highlight=False)
        if not console.is_terminal:  # piped: plain text, tables fitted to 80 columns
            console = Console(highlight=False, width=80, soft_wrap=True)
        report(console, result, figs, unit, seed)
        for path in charts:
            console.print(f"chart: {escape(str(path))}")
    if failed:
        sys.exit(EXIT_INVALID)


# --------------------------------------------------------------------------
# The report


def _ci(d: dict[str, Any] | None, digits: int = 2) -> str:
    if not d or d["mean"] is None:
        return "–"
    ci = d["ci95"]
    return num(d["mean"], digits) + (f" ({num(ci[0], digits)}–{num(ci[1], digits)})" if ci else "")


def _pp(fs: dict[str, Any]) -> str:
    if fs["advantage_pp"] is None:
        return "–"
    lo, hi = fs["advantage_ci95"]
    return f"{fs['advantage_pp']:+.1f} ({lo:+.1f}–{hi:+.1f})"


def report(console: Console, result: lib.Sweep, figs: dict[str, Any], unit: str, seed: int) -> None:
    """The cells, their figures, and the tests against the base cells."""
    cells = figs["cells"]
    console.print(f"[bold]Sweep[/] of {len(cells)} cells, {cells[0]['figures']['count']:,} {unit} each, seed {seed} "
                  "(the same seeds in every cell)")
    fixed = figs["grid"]["fixed_options"]
    if fixed:
        console.print(f"  in every cell: {', '.join(f'{k}={v}' for k, v in fixed.items())}", markup=False)
    table = report_table("Cells (base: the first value of every axis, at each player count)",
                         "#", "variant and options", "agents", "players", "base")
    for c in cells:
        rules = _short(c["variant"]) + "".join(f" {k}={v}" for k, v in c["options"].items())
        table.add_row(str(c["cell"]), escape(shown(rules)), escape(",".join(c["agents"])), str(c["players"]),
                      "base" if c["base"] is None else f"#{c['base']}")
    console.print(table)

    table = report_table("First seat and round length (95% CI)", "#", "first seat wins",
                         "advantage, pp", "turns per round", "median")
    for c in cells:
        s = c["summary"]
        t = s["turns_per_round"]
        median = "–" if t is None else f"{t['median']:g}"
        table.add_row(str(c["cell"]), pct(s["first_seat"]), _pp(s["first_seat"]), _ci(t, 1), median)
    console.print(table)
    console.print("  [dim]first seat: the player after the dealer; advantage: its round-win rate minus a fair "
                  "share (100/players), in percentage points[/]\n")

    games = cells[0]["figures"]["mode"] == "games"
    heads = ["points per round", "reshuffles per round", "runaway rounds"] + (["rounds per game"] if games else [])
    table = report_table("Points, reshuffles and runaway rounds (95% CI)", "#", *heads)
    for c in cells:
        s = c["summary"]
        row = [_ci(s["points_per_round"], 1), _ci(s["reshuffles_per_round"]),
               pct(s["runaway"]) if s["runaway"]["count"] else "0"]
        if games:
            row.append(_ci(s["rounds_per_game"]))
        table.add_row(str(c["cell"]), *row)
    console.print(table)

    most = max(c["players"] for c in cells)
    labels = ["dealer"] + [f"+{k}" for k in range(1, most)]
    table = report_table("Round wins by seat from the dealer, % (95% CI)", "#", *labels)
    for c in cells:
        seats = c["summary"]["seats_from_dealer"]
        row = [_two_lines(r) for r in seats] + [""] * (most - len(seats))
        table.add_row(str(c["cell"]), *row)
    console.print(table)

    if any(len(c["summary"]["agents"]) > 1 for c in cells):
        what = "games" if games else "rounds"
        table = report_table(f"Wins by agent ({what}, 95% CI)", "#", "agent", "seats", "win rate")
        for c in cells:
            for a, row in zip(c["figures"]["wins"]["by_agent"], c["summary"]["agents"], strict=True):
                table.add_row(str(c["cell"]), escape(a["agent"]), f"{a['seats']} of {c['players']}", pct(row))
        console.print(table)

    for c in cells:
        _report_failures(console, c)

    if not result.tests:
        console.print("No comparisons: every cell is a base cell (grid only player counts to compare nothing).")
        return
    table = report_table(f"Differences from the base cell (α = {figs['alpha']}, Holm-corrected over "
                         f"{result.tested} tests)", "#", "vs", "figure", "base", "cell", "test", "p (Holm)", "signif.")
    for t in result.tests:
        r = t.result
        table.add_row(str(t.cell), f"#{t.base}", r.metric, _value(r, r.a), _value(r, r.b),
                      TEST_SHORT.get(r.test, r.test), pvalue(r.p_holm), "[bold red]yes[/]" if r.significant else "no")
    console.print(table)
    console.print("tests: " + ", ".join(f"{short} = {name}" for name, short in TEST_SHORT.items()))
    sig = [t for t in result.tests if t.result.significant]
    console.print(f"[bold]{len(sig)} significant difference(s)[/] of {result.tested} tests." if sig else
                  "[bold]No significant difference[/] from the base cells at this sample size.")


def _short(variant: str) -> str:
    """A variant file by its name (the JSON keeps the path as given)."""
    return Path(variant).stem if variant.endswith((".yaml", ".yml")) else variant


def _two_lines(r: dict[str, Any]) -> str:
    if r["rate"] is None:
        return "–"
    lo, hi = r["ci95"]
    return f"{100 * r['rate']:.1f}\n{100 * lo:.1f}–{100 * hi:.1f}"


def _report_failures(console: Console, c: dict[str, Any]) -> None:
    fails = c["figures"]["failures"]
    if not fails["count"]:
        return
    console.print(f"[bold red]cell #{c['cell']}: {fails['count']:,} game(s) failed[/] and are left out of its "
                  "figures", soft_wrap=True)
    for g in fails["games"]:
        console.print(f"    game {g['game']} (seed {g['seed']}): {g['error']}", markup=False, soft_wrap=True)
        console.print(f"      replay: {g['replay']}", markup=False, soft_wrap=True)
    if fails["count"] > len(fails["games"]):
        console.print(f"    … and {fails['count'] - len(fails['games']):,} more", markup=False)


def _value(t: TestResult, x: float | None) -> str:
    return test_value(t, x, 2)


# --------------------------------------------------------------------------
# CSV


def to_csv(figs: dict[str, Any]) -> str:
    """One row per cell: its axes, its headline figures with their intervals, and each test's
    Holm-corrected p-value against its base cell."""
    cells = figs["cells"]
    most = max(c["players"] for c in cells)
    metrics = list(dict.fromkeys(t["metric"] for c in cells for t in c["tests"]))
    agents = list(dict.fromkeys(a["agent"] for c in cells for a in c["summary"]["agents"]))
    head = ["cell", "variant", "options", "agents", "players", "base", "games_started", "rounds_completed",
            "failed", "first_seat_rate", "first_seat_lo", "first_seat_hi", "first_seat_advantage_pp",
            "first_seat_advantage_lo", "first_seat_advantage_hi"]
    for key in ("turns_per_round", "points_per_round", "reshuffles_per_round", "rounds_per_game"):
        head += [f"{key}_mean", f"{key}_lo", f"{key}_hi", f"{key}_median"]
    head += ["runaway_rate", "runaway_lo", "runaway_hi"]
    head += [f"seat_dealer+{k}_rate" if k else "seat_dealer_rate" for k in range(most)]
    head += [f"agent_{a}_win_rate" for a in agents]
    head += [f"{m} p_holm" for m in metrics]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    for c in cells:
        s = c["summary"]
        fs = s["first_seat"]
        row: list[Any] = [c["cell"], c["variant"], " ".join(f"{k}={v}" for k, v in c["options"].items()),
                          ",".join(c["agents"]), c["players"], "" if c["base"] is None else c["base"],
                          s["games"]["started"], s["rounds"], s["failed"], fs["rate"], *(fs["ci95"] or ["", ""]),
                          fs["advantage_pp"], *(fs["advantage_ci95"] or ["", ""])]
        for key in ("turns_per_round", "points_per_round", "reshuffles_per_round", "rounds_per_game"):
            d = s[key]
            row += ["", "", "", ""] if d is None else [d["mean"], *(d["ci95"] or ["", ""]), d["median"]]
        row += [s["runaway"]["rate"], *(s["runaway"]["ci95"] or ["", ""])]
        seats = [r["rate"] for r in s["seats_from_dealer"]]
        row += seats + [""] * (most - len(seats))
        mine = {a["agent"]: a["rate"] for a in s["agents"]}
        row += [mine.get(a, "") for a in agents]
        tests = {t["metric"]: t["p_holm"] for t in c["tests"]}
        row += [tests.get(m, "") for m in metrics]
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()
