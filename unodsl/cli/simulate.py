"""The `unodsl simulate` command: many games with bots, statistics, comparison, charts."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from ..errors import UnoDslError, VariantError
from ..tools import plots
from ..tools import simulate as lib
from ..tools.comparison import ALPHA, Comparison, TestResult, compare
from ..tools.plots import PlotUnavailable
from ..tools.simulation import Simulation
from ..variant.load import load_variant
from .common import (
    EXIT_INVALID,
    Console,
    OutputPath,
    agent_names,
    allow_option,
    cluster_option,
    open_cluster,
    parse_options,
    print_diagnostics,
    pvalue,
    runaway_option,
    test_value,
    workers_option,
)
from .common import num as _num
from .common import pct as _pct
from .common import progress_bars as _progress
from .common import report_table as _table


@click.command(name="simulate")
@click.argument("variant")
@click.option("-n", "--games", type=click.IntRange(1), help="Play N whole games (default: 100).")
@click.option("--rounds", type=click.IntRange(1), help="Play N single rounds instead of whole games.")
@click.option("-p", "--players", type=click.IntRange(1, 100), help="Number of players (default: 4, "
              "or the nearest the variant allows).")
@click.option("-a", "--agents", default="greedy,random", show_default=True,
              help="Comma-separated agents, repeated to fill the table: random, greedy, expert, ismcts. "
              "The table turns one seat per game, so every agent holds every seat equally often (see --fixed-seats).")
@click.option("--fixed-seats", is_flag=True, help="Keep the agents in the same seats in every game (P1 the "
              "first agent, P2 the next, ...): the per-agent and per-seat figures then mix agent and seat.")
@click.option("-s", "--seed", type=int, help="Master seed; game i plays with a seed derived from it and i "
              "(default: random, printed).")
@click.option("--agent-seed", type=int, metavar="N",
              help="The agents' master seed: game i's bots draw from a seed derived from it and i "
              "(default: each game's bots use the game's own seed). The deals do not depend on it.")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch an option of VARIANT on (NAME, NAME=off) or set a number option (NAME=300); "
              "repeatable.")
@workers_option
@cluster_option
@runaway_option
@click.option("--max-failures", type=click.IntRange(1), metavar="N",
              help="Stop after N games have failed (default: play them all). A failed game is counted, its "
              "seed, first error and a replay command are reported, and the figures are of the other games.")
@click.option("--compare", "other", metavar="OTHER",
              help="Also play OTHER (a variant) on the same seeds and seatings and test every difference.")
@click.option("--compare-option", "other_option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch or set an option of the --compare variant; repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--plot", "plot_dir", type=OutputPath(folder=True), metavar="DIR",
              help="Write PNG charts to DIR (needs matplotlib: pip install matplotlib).")
@allow_option
def simulate(variant: str, games: int | None, rounds: int | None, players: int | None, agents: str,
             fixed_seats: bool, seed: int | None, agent_seed: int | None, option: tuple[str, ...],
             workers: int | None, cluster: str | None, max_turns: int,
             max_failures: int | None, other: str | None, other_option: tuple[str, ...], as_json: bool,
             plot_dir: str | None, allow: tuple[str, ...]) -> None:
    """Play many games of VARIANT with bots and report statistics.

    Win rates per seat (also counted from the dealer) and per agent, rounds per
    game, turns and points per round, reshuffles, card kinds played and runaway
    rounds, with 95% confidence intervals. Game i turns the table by i seats
    (unless --fixed-seats), so every agent holds every seat equally often and
    seat and agent figures do not mix. With --compare, both variants play the
    same seeds and seatings and every difference is tested (Holm-corrected,
    α = 0.05). A game that fails is reported with a replay command, and the
    command then exits with status 1 after printing the figures.
    """
    if games is not None and rounds is not None:
        raise click.UsageError("give --games or --rounds, not both")
    if other_option and other is None:
        raise click.UsageError("--compare-option needs --compare")
    count = rounds or games or 100
    seats = agent_names(agents)
    chosen, other_chosen = parse_options(option), parse_options(other_option)
    if plot_dir is not None:
        try:
            plots.check_plot()
        except PlotUnavailable as err:
            raise click.ClickException(str(err)) from err
    err_console = Console(stderr=True, highlight=False)
    try:
        va = load_variant(variant, chosen, allow)
        vb = load_variant(other, other_chosen, allow) if other is not None else None
    except VariantError as err:
        print_diagnostics(err.diagnostics, err_console)
        sys.exit(EXIT_INVALID)
    n = players or lib.default_players(va)
    for v in (va, vb):
        if v is not None and not v.min_players <= n <= v.max_players:
            raise click.UsageError(f"{v.name} is for {v.min_players}–{v.max_players} players, not {n}")
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    unit = "rounds" if rounds else "games"
    runs: list[Simulation] = []
    try:
        with open_cluster(cluster, workers) as on, _progress(err_console, unit) as track:
            for v, label in ((va, "A"), (vb, "B")):
                if v is None:
                    continue
                name = v.name + (f" ({label})" if vb is not None else "")
                runs.append(lib.simulate(v, count, players=n, agents=seats, seed=seed,
                                         workers=1 if workers is None else workers, cluster=on,
                                         rounds_only=rounds is not None, max_turns=max_turns,
                                         fixed_seats=fixed_seats, max_failures=max_failures, agent_seed=agent_seed,
                                         progress=track(name, count)))
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
    except UnoDslError as err:
        err_console.print(f"[red]error:[/] {escape(str(err))}")
        sys.exit(EXIT_INVALID)
    failed = any(r.tally.failed for r in runs)
    comparison = compare(runs[0], runs[1]) if len(runs) == 2 else None
    figs = [r.figures() for r in runs]
    charts = []
    if plot_dir is not None:
        charts = plots.plot(figs, plot_dir, [r.label for r in runs])
    if as_json:
        if comparison is None:
            click.echo(json.dumps(figs[0], indent=2, allow_nan=False))
        else:
            click.echo(json.dumps({"a": figs[0], "b": figs[1], "comparison": comparison.as_dict()}, indent=2,
                              allow_nan=False))
        sys.exit(EXIT_INVALID if failed else 0)
    console = Console(highlight=False)
    if not console.is_terminal:  # piped: plain text, tables fitted to 80 columns
        console = Console(highlight=False, width=80, soft_wrap=True)  # prose lines are not cut
    report(console, runs, figs, comparison)
    for path in charts:
        console.print(f"chart: {escape(str(path))}")
    if failed:
        sys.exit(EXIT_INVALID)


# --------------------------------------------------------------------------
# The report


def _mean(d: dict[str, Any]) -> str:
    ci = d["ci95"]
    return _num(d["mean"]) + (f" ({_num(ci[0])}–{_num(ci[1])})" if ci else "")


def _median(d: dict[str, Any]) -> str:
    lo, hi = d["median_ci95"]
    return _num(d["median"]) + (f" ({_num(lo)}–{_num(hi)})" if lo != hi else "")


def _seats(f: dict[str, Any]) -> str:
    """Who sits where: each seat's agent, or the table and how it turns."""
    if f["seating"] == "fixed":
        return ", ".join(f"P{p + 1} {a}" for p, a in enumerate(f["agents"])) + "; fixed seats"
    return f"{', '.join(f['agents'])}; seats rotate each game"


def report(console: Console, runs: Sequence[Simulation], figs: Sequence[dict[str, Any]],
           comparison: Comparison | None) -> None:
    """Print the figures of one run, or of two side by side with the tests."""
    tags = ["A", "B"] if len(runs) == 2 else [""]
    for tag, run, f in zip(tags, runs, figs, strict=True):
        games = f["mode"] == "games"
        seats = _seats(f)
        opts = f", options: {escape(', '.join(f['variant']['options']))}" if f["variant"]["options"] else ""
        lead = f"[bold]{tag}[/] = " if tag else ""
        console.print(f"{lead}[bold]{escape(run.name)}[/]{opts} — {f['count']:,} {f['mode']}, {f['players']} players "
                      f"({seats}), seed {f['seed']}")
        t = f["timing"]
        console.print(f"  played in {t['seconds']:.1f} s with {t['workers']} worker(s): "
                      f"{_num(t['per_second'], 1)} {f['mode']}/s, {_num(t['turns_per_second'])} turns/s")
        rw = f["rounds"]["runaway"]
        line = f"  {f['rounds']['completed']:,} rounds completed; runaway rounds (over {f['max_turns']:,} turns): "
        line += f"{rw['count']:,}" + (f" = {_pct(rw)}" if rw["count"] else "")
        if games and rw["count"]:
            line += f"; {f['games']['abandoned']:,} game(s) abandoned and left out of the game figures"
        console.print(line)
        tied = f["games"]["tied"] if games else None
        if tied and tied["count"]:
            console.print(f"  games tied (no one's win): {tied['count']:,} = {_pct(tied)}")
        _report_failures(console, f)
    console.print()
    many = len(runs) == 2

    def row(name: str, tag: str, *cells: str) -> tuple[str, ...]:
        return (name, tag, *cells) if many else (name, *cells)

    table = _table("Lengths and points", *row("figure", "run", "mean (95% CI)", "median (95% CI)", "p95", "max"))
    for key, name in (("rounds_per_game", "rounds per game"), ("turns_per_round", "turns per round"),
                      ("points_per_round", "points per round"), ("reshuffles_per_round", "reshuffles per round")):
        for tag, f in zip(tags, figs, strict=True):
            d = f.get(key)
            if d is None:
                continue
            cells = [_mean(d), _median(d), _num(d["p95"]), _num(d["max"])]
            table.add_row(*row(name, tag, *cells))
    for tag, f in zip(tags, figs, strict=True):
        table.add_row(*row("rounds with a reshuffle", tag, _pct(f["rounds_with_reshuffle"]), "", "", ""))
    console.print(table)

    games = all(f["mode"] == "games" for f in figs)
    heads = [f"{what} {tag}".strip() for tag in tags for what in (["game wins", "round wins"] if games
                                                                  else ["round wins"])]
    fixed = all(f["seating"] == "fixed" for f in figs)
    seating = "fixed seats" if fixed else "seats rotating"
    table = _table(f"Wins by seat (95% CI), {seating}", "seat", *heads)
    for p in range(figs[0]["players"]):
        cells = []
        for f in figs:
            if games:
                cells.append(_pct(f["wins"]["game_by_seat"][p]))
            cells.append(_pct(f["wins"]["round_by_seat"][p]))
        table.add_row(f"P{p + 1}" + (f" {escape(figs[0]['agents'][p])}" if fixed else ""), *cells)
    console.print(table)
    mixed = len(set(figs[0]["agents"])) > 1
    if fixed and mixed:
        console.print("  [dim]fixed seats: a seat's wins include the strength of its agent[/]\n")
    if any(f["teams"] for f in figs):
        console.print("  [dim]with teams, a seat wins when its team does (each team's seats add up)[/]\n")

    heads = [f"{what} {tag}".strip() for tag in tags for what in
             (["games, from round 1's dealer", "rounds, from that round's dealer"] if games
              else ["rounds, from the dealer"])]
    table = _table("Wins by seat counted from the dealer (95% CI)", "seat", *heads)
    for k in range(figs[0]["players"]):
        cells = []
        for f in figs:
            if games:
                cells.append(_pct(f["wins"]["game_by_seat_from_first_dealer"][k]))
            cells.append(_pct(f["wins"]["round_by_seat_from_dealer"][k]))
        table.add_row(figs[0]["wins"]["round_by_seat_from_dealer"][k]["label"], *cells)
    console.print(table)

    if mixed:
        heads = [f"{what} {tag}".strip() for tag in tags for what in (["games won", "rounds won"] if games
                                                                      else ["rounds won"])]
        table = _table(f"Wins by agent (95% CI), {seating}", "agent", "seats (fair share)", *heads)
        for i, agent in enumerate(figs[0]["wins"]["by_agent"]):
            cells = []
            for f in figs:
                mine = f["wins"]["by_agent"][i]
                if games:
                    cells.append(_pct(mine["games"]))
                cells.append(_pct(mine["rounds"]))
            table.add_row(escape(agent["agent"]), f"{agent['seats']} of {figs[0]['players']} "
                                          f"({100 * agent['fair_share']:.1f}%)", *cells)
        console.print(table)
        if fixed:
            console.print("  [dim]fixed seats: an agent's wins include the advantage of the seats it holds[/]\n")

    table = _by_name("Cards played by kind", "kind", tags, figs, ("cards_played", "by_kind"),
                     ("share", lambda k: f"{100 * k['share']:.1f}%"))
    table.add_row("all", *[c for f in figs for c in ("100%", _num(f["cards_played"]["per_round"]))])
    console.print(table)
    _report_plays_made(console, tags, figs)

    if comparison is not None:
        _report_comparison(console, comparison)


def _report_plays_made(console: Console, tags: list[str], figs: Sequence[dict[str, Any]]) -> None:
    """The declared plays (`turn: plays:`) made, by name, when a variant declares any."""
    if any(f["plays_made"]["by_play"] for f in figs):
        console.print(_by_name("Declared plays made", "play", tags, figs, ("plays_made", "by_play"),
                               ("times", lambda k: f"{k['count']:,}")))


def _by_name(title: str, label: str, tags: list[str], figs: Sequence[dict[str, Any]], where: tuple[str, str],
             first: tuple[str, Callable[[dict[str, Any]], str]]) -> Table:
    """A table of counts by name (`figs[i][where[0]][where[1]][name]`), a run's two columns
    each: `first` (its heading, its cell) and the count per round with its interval."""
    part, by = where
    heads = [f"{what} {tag}".strip() for tag in tags for what in (first[0], "per round (95% CI)")]
    table = _table(title, label, *heads)
    for name in dict.fromkeys(k for f in figs for k in f[part][by]):
        cells = []
        for f in figs:
            k = f[part][by].get(name)
            if k is None:
                cells += ["–", "–"]
                continue
            ci = k["per_round_ci95"]
            cells += [first[1](k), _num(k["per_round"]) + (f" ({ci[0]:.2f}–{ci[1]:.2f})" if ci else "")]
        table.add_row(escape(name), *cells)
    return table


def _report_failures(console: Console, f: dict[str, Any]) -> None:
    """The games that stopped with an error: how many, and the first few with a replay command."""
    fails = f["failures"]
    if not fails["count"]:
        return
    stopped = " (the run stopped there: --max-failures)" if fails["stopped_early"] else ""
    console.print(f"  [bold red]{fails['count']:,} game(s) failed[/]{stopped} and are left out of the figures; "
                  f"{f['games']['started']:,} {f['mode']} started", soft_wrap=True)
    for g in fails["games"]:
        console.print(f"    game {g['game']} (seed {g['seed']}): {g['error']}", markup=False, soft_wrap=True)
        console.print(f"      replay: {g['replay']}", markup=False, soft_wrap=True)
    if fails["count"] > len(fails["games"]):
        console.print(f"    … and {fails['count'] - len(fails['games']):,} more", markup=False)


def _report_comparison(console: Console, comparison: Comparison) -> None:
    table = _table(f"A vs B: which differences are significant (α = {ALPHA}, Holm-corrected over "
                   f"{sum(t.p is not None for t in comparison.tests)} tests)",
                   "figure", "A", "B", "test", "stat", "p", "p (Holm)", "signif.")
    for t in comparison.tests:
        stat = "–" if t.statistic is None else f"{t.statistic:.3g}" + (f" {t.note}" if t.note.startswith("df") else "")
        table.add_row(t.metric, _value(t, t.a), _value(t, t.b), t.test, stat, pvalue(t.p), pvalue(t.p_holm),
                      "[bold red]yes[/]" if t.significant else "no")
    console.print(table)
    # the tests' names whole, as a narrow table may wrap them
    console.print(f"tests: {', '.join(dict.fromkeys(t.test for t in comparison.tests))}")
    sig = comparison.significant
    if sig:
        console.print(f"[bold]{len(sig)} significant difference(s)[/] (A vs B, test, Holm-corrected p):")
        for t in sig:
            console.print(f"  {t.metric}: {_value(t, t.a)} vs {_value(t, t.b)}, {t.test}, p = {pvalue(t.p_holm)}")
    else:
        console.print("[bold]No significant difference[/] between A and B at this sample size.")


def _value(t: TestResult, x: float | None) -> str:
    return test_value(t, x, 3)

