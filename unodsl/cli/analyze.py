"""The `unodsl analyze` command: the balance lab — is the variant fair, tense, and what is each card worth."""

from __future__ import annotations

import json
import random
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..errors import UnoDslError, VariantError, shown
from ..tools.analyze import Analysis, Budget, analyze, figures, report
from ..tools.analyze.compare import Difference, Sprt, compare, power_table, sequential
from ..tools.analyze.coverage import coverage_lines
from ..tools.analyze.estimates import Figure, number, with_interval
from ..tools.analyze.lab import growing
from ..tools.analyze.page import page
from ..tools.analyze.verdict import ABOUT, oriented
from ..tools.simulate import default_players
from ..variant.load import load_variant
from .common import (
    EXIT_INTERRUPTED,
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
    report_table,
    runaway_option,
    workers_option,
)
from .common import progress_bars as _progress


def _safe(text: str) -> str:
    """Text from a variant file, for rich: control characters escaped, markup escaped."""
    return escape(shown(text))


def _power_ask(text: str) -> tuple[str, float]:
    name, eq, value = text.partition("=")
    try:
        delta = float(value)
    except ValueError:
        delta = 0.0
    if not eq or not name.strip() or delta <= 0:
        raise click.BadParameter(f"{text!r}: use FIGURE=DIFFERENCE, e.g. first_seat_advantage=0.02",
                                 param_hint="--power")
    return name.strip(), delta


@click.command(name="analyze")
@click.argument("variant")
@click.option("-p", "--players", type=click.IntRange(1, 100), help="Number of players (default: 4, or the nearest "
              "the variant allows).")
@click.option("-a", "--agents", default="greedy", show_default=True,
              help="Comma-separated agents, repeated to fill the table (random, greedy, expert, ismcts); the "
              "table turns one seat per round.")
@click.option("-s", "--seed", type=int, help="Master seed (default: random, printed). The same seed gives the "
              "same figures with any number of workers.")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch an option of VARIANT on (NAME, NAME=off) or set a number option; repeatable.")
@click.option("-r", "--rounds", type=int, default=1_000, show_default=True,
              help="Single rounds of the main pass (outcome, duration, tension, downtime, coverage).")
@click.option("-g", "--games", type=int, default=100, show_default=True,
              help="Whole games (completion, timeouts, ties, rounds per game); 0 skips them.")
@click.option("--power-rounds", type=int, metavar="N", help="Rounds of restricted play per card kind and "
              "way (default: --rounds; 0 skips card power).")
@click.option("--train-rounds", type=int, metavar="N", help="Rounds that fit the evaluator (default: half "
              "of --rounds, at least 200).")
@click.option("--explore-rounds", type=int, metavar="N", help="Rounds for coverage whose agents try every "
              "answer (yes/no questions at random, one other decision in 5 at random), so that a bot's habit is "
              "not read as the variant's (default: half of --rounds; 0 skips them).")
@click.option("--ladder", is_flag=True, help="Also climb the skill ladder: random → greedy → expert → ISMCTS "
              "at two budgets (slow: see docs/analyze.md for its cost).")
@click.option("--ladder-rounds", type=int, default=100, show_default=True, help="Rounds per rung and table size.")
@workers_option
@cluster_option
@runaway_option
@click.option("--compare", "other", metavar="OTHER", help="Also analyse OTHER (a variant) on the same seeds "
              "and show every figure side by side with the difference (Holm-corrected).")
@click.option("--compare-option", "other_option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch or set an option of the --compare variant; repeatable.")
@click.option("--until-significant", "sprt_figure", metavar="FIGURE", help="With --compare: play rounds in "
              "steps and stop as soon as a sequential test (SPRT) settles FIGURE's difference, at most --rounds.")
@click.option("--delta", type=float, help="The difference the sequential test looks for, in FIGURE's --json "
              "units (a share as a fraction: 0.02 is 2 points).")
@click.option("--step", type=click.IntRange(1), default=200, show_default=True,
              help="Rounds per step of the sequential test.")
@click.option("--power", "power_asks", multiple=True, metavar="FIGURE=DIFF",
              help="How many rounds it takes to detect a difference DIFF in FIGURE (α 0.05, 80% power), in "
              "its --json units; repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print everything as JSON.")
@click.option("--html", "html_file", type=OutputPath(), metavar="FILE",
              help="Write one self-contained HTML page: the verdict, the figures and the plots (inline SVG).")
@allow_option
def analyze_command(variant: str, players: int | None, agents: str, seed: int | None, option: tuple[str, ...],
                    rounds: int, games: int, power_rounds: int | None, train_rounds: int | None,
                    explore_rounds: int | None, ladder: bool,
                    ladder_rounds: int, workers: int | None, cluster: str | None, max_turns: int, other: str | None,
                    other_option: tuple[str, ...], sprt_figure: str | None, delta: float | None, step: int,
                    power_asks: tuple[str, ...], as_json: bool, html_file: str | None,
                    allow: tuple[str, ...]) -> None:
    """A designer's report on VARIANT: outcome, duration, tension, downtime and
    aggression, card power, coverage and (with --ladder) skill depth, every figure
    with its 95% interval and what it means (docs/analyze.md defines each)."""
    if rounds < 1:
        raise click.BadParameter("analyse at least one round", param_hint="--rounds")
    for name, value in (("--games", games), ("--power-rounds", power_rounds), ("--train-rounds", train_rounds),
                        ("--explore-rounds", explore_rounds),
                        ("--ladder-rounds", ladder_rounds)):
        if value is not None and value < 0:
            raise click.BadParameter(f"cannot be negative, not {value}", param_hint=name)
    if train_rounds == 0:
        raise click.BadParameter("the evaluator needs at least one training round", param_hint="--train-rounds")
    if other_option and other is None:
        raise click.UsageError("--compare-option needs --compare")
    if sprt_figure is not None and (other is None or delta is None or delta <= 0):
        raise click.UsageError("--until-significant needs --compare OTHER and a positive --delta")
    asks = [_power_ask(t) for t in power_asks]
    seats = agent_names(agents)
    err_console = Console(stderr=True, highlight=False)
    try:
        va = load_variant(variant, parse_options(option), allow)
        vb = load_variant(other, parse_options(other_option), allow) if other is not None else None
    except VariantError as err:
        print_diagnostics(err.diagnostics, err_console)
        sys.exit(EXIT_INVALID)
    for v in (va, vb):
        n = players or default_players(va)
        if v is not None and not v.min_players <= n <= v.max_players:
            raise click.UsageError(f"{v.name} is for {v.min_players}–{v.max_players} players, not {n}")
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    budget = Budget(rounds=rounds, games=games, train=train_rounds, power=power_rounds, ladder=ladder,
                    ladder_rounds=ladder_rounds, explore=explore_rounds)
    runs: list[Analysis] = []
    test: Sprt | None = None
    try:
        with open_cluster(cluster, workers) as on, _progress(err_console, "rounds") as track:
            w = 1 if workers is None else workers
            if sprt_figure is not None and vb is not None and delta is not None:
                test = Sprt(sprt_figure, delta)
                batches = ((r, pair[0], pair[1]) for r, pair in growing(
                    [(va, None), (vb, None)], players=players, agents=seats, seed=seed, step=step, most=rounds,
                    train_rounds=budget.train_rounds, workers=w, cluster=on, max_turns=max_turns, progress=track))
                last = sequential(test, batches)
                if last is not None:
                    runs = list(last)
            else:
                for v, tag in ((va, "A: "), (vb, "B: ")):
                    if v is None:
                        continue
                    runs.append(analyze(v, players=players, agents=seats, seed=seed, budget=budget, workers=w,
                                        cluster=on, max_turns=max_turns,
                                        progress=_prefixed(track, tag if vb is not None else "")))
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except UnoDslError as err:
        err_console.print(f"[red]error:[/] {_safe(str(err))}", soft_wrap=True)
        sys.exit(EXIT_INVALID)
    if test is not None and sprt_figure not in figures(runs[0]):
        err_console.print(f"[red]error:[/] no figure named {_safe(sprt_figure or '')}; figures: "
                          f"{_safe(', '.join(figures(runs[0])))}", soft_wrap=True)
        sys.exit(EXIT_INVALID)
    unknown = [name for name, _ in asks if name not in figures(runs[0])]
    if unknown:
        err_console.print(f"[red]error:[/] --power: no figure named {_safe(', '.join(unknown))}; figures: "
                          f"{_safe(', '.join(figures(runs[0])))}", soft_wrap=True)
        sys.exit(EXIT_INVALID)
    diffs = compare(runs[0], runs[1]) if len(runs) == 2 else None
    power = power_table(asks, runs[0], runs[1] if len(runs) == 2 else None) if asks else None
    docs = [report(r) for r in runs]
    extra: dict[str, Any] = {}
    if diffs is not None:
        extra["comparison"] = {"alpha": 0.05, "correction": "Holm–Bonferroni over all figures",
                               "differences": [d.as_dict() for d in diffs]}
    if test is not None:
        extra["sequential"] = test.as_dict()
    if power is not None:
        extra["power"] = power
    if html_file is not None:
        Path(html_file).write_text(page(runs, docs, diffs, extra), encoding="utf-8")
    failed = any(r.sim.failed for r in runs)
    if as_json:
        out = docs[0] if len(docs) == 1 else {"a": docs[0], "b": docs[1]}
        click.echo(json.dumps({**out, **extra}, indent=2, allow_nan=False))
        sys.exit(EXIT_INVALID if failed else 0)
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=80, soft_wrap=False)
    show(console, runs, docs, diffs, test, power)
    if html_file is not None:
        console.print(f"page: {_safe(html_file)}")
    if failed:
        sys.exit(EXIT_INVALID)


def _prefixed(track: Callable[[str, int], Callable[[int], None] | None],
              prefix: str) -> Callable[[str, int], Callable[[int], None] | None]:
    return lambda name, total: track(prefix + name, total)


# --------------------------------------------------------------------------
# The report


def _table(title: str, *heads: str) -> Table:
    table = report_table(title, *heads)
    for col in table.columns[1:]:
        col.no_wrap = True  # a number is never broken across lines
    return table


NAME, VALUE, INTERVAL = 30, 9, 24  # columns of a figure's line: 63 characters, so it fits 80


def _named(name: str, rest: str) -> Text:
    """A figure's line: its name (on a line of its own when it is too long for its column),
    then `rest`; each sanitised before the line break is put in."""
    name = shown(name)
    head = name.ljust(NAME) if len(name) < NAME else name + "\n" + " " * NAME
    return Text(head + shown(rest))


def _figures(console: Console, title: str, figs: Sequence[Figure], about: str = "") -> None:
    """Each figure on a line of its own (name, value, interval: never broken), its meaning
    below it, wrapped at words."""
    console.print(f"[bold]{escape(title)}[/]")
    if about:
        _say(console, about, 0, "dim")
    console.print(f"[dim]{'figure'.ljust(NAME)}{'value'.rjust(VALUE)}{'95% interval'.rjust(INTERVAL)}[/]")
    for f in figs:
        value, ci = f.text()
        console.print(_named(f.name, f"{value.rjust(VALUE)}{ci.rjust(INTERVAL)}"), no_wrap=True,
                      overflow="ignore", crop=False)
        _say(console, f.meaning, 4, "dim")
    console.print()


def show(console: Console, runs: Sequence[Analysis], docs: Sequence[dict[str, Any]],
         diffs: list[Difference] | None, test: Sprt | None, power: list[dict[str, Any]] | None) -> None:
    for tag, a, doc in zip(("A", "B") if len(runs) == 2 else ("",), runs, docs, strict=True):
        lead = f"[bold]{tag}[/] = " if tag else ""
        opts = f" + {', '.join(a.options_on)}" if a.options_on else ""
        console.print(f"{lead}[bold]{_safe(a.name + opts)}[/] — {a.players} players "
                      f"({_safe(', '.join(dict.fromkeys(a.agents)))}), seed {a.seed}")
        timing = {k: v for k, v in doc["timing"].items() if k != "workers"}
        took = f"; took {sum(timing.values()):.1f} s ({', '.join(f'{k} {v:.1f}' for k, v in timing.items())}) " \
               f"with {doc['timing']['workers']} worker(s)" if timing else ""
        _say(console, f"{a.rounds:,} rounds, {a.game_count:,} games, card power on {a.power_rounds:,} rounds"
             f"{took}", 2)
        for f in doc["failures"][:5]:
            console.print(f"  failed: game {f['game']} (seed {f['seed']}): {shown(f['error'])}", markup=False)
            console.print(f"    replay: {shown(f['replay'])}", markup=False)
        if doc.get("verdict"):
            console.print()
            console.print(Text(f"Verdict{' on ' + tag if tag else ''}", style="bold"))
            for sentence in doc["verdict"]:
                _say(console, sentence, 2)
    console.print()
    if diffs is None:
        _one(console, runs[0], docs[0])
    else:
        _two(console, diffs)
    if test is not None:
        _sequential(console, test, _percent(docs[0], test.figure))
    if power:
        table = _table("Rounds needed to detect a difference (α = 0.05, two-sided, 80% power)", "figure",
                       "difference", "sd of one", "rounds per variant")
        for row in power:
            p = _percent(docs[0], row["figure"])
            table.add_row(row["figure"], number(row["difference"], p), "–" if row["sd"] is None else
                          number(row["sd"], p), "–" if row["per_variant"] is None else f"{row['per_variant']:,}")
        console.print(table)


def _percent(doc: dict[str, Any], name: str) -> bool:
    """Whether figure `name` is a share (shown as a percentage)."""
    return bool(doc["figures"].get(name, {}).get("percent"))


def _targets(console: Console, doc: dict[str, Any]) -> None:
    """The variant's `design:` targets, each a figure line and its verdict below it."""
    rows = doc["targets"]
    console.print("[bold]Design targets[/] (the variant's design:, judged by the whole 95% interval)")
    console.print(f"[dim]{'figure'.ljust(NAME)}{'value'.rjust(VALUE)}{'95% interval'.rjust(INTERVAL)}[/]")
    for row in rows:
        percent = bool(doc["figures"].get(row["figure"], {}).get("percent"))
        value, ci = Figure("", row["value"], None if row["ci95"] is None else tuple(row["ci95"]), 0, "",
                           percent=percent).text()
        console.print(_named(row["figure"], f"{value.rjust(VALUE)}{ci.rjust(INTERVAL)}"), no_wrap=True,
                      overflow="ignore", crop=False)
        said = f"goal: {row['target']}" if row["goal"] else f"{row['verdict']} {row['target']}"
        _say(console, said + (WHY.get(row["verdict"], "") if not row["goal"] else ""), 4)
    console.print()


WHY = {"unsettled": " (its interval crosses the bound: more rounds may settle it)"}


def _one(console: Console, a: Analysis, doc: dict[str, Any]) -> None:
    figs = figures(a)
    sections = doc["sections"]
    if doc.get("targets"):
        _targets(console, doc)
    titles = {"outcome": "Outcome", "duration": "Duration", "tension": "Tension (fair-information evaluator)",
              "downtime": "Downtime and aggression", "card_power": "Card power (restricted play)",
              "skill": "Skill depth"}
    for key, title in titles.items():
        names = [n for n in sections[key].get("figures", []) if not n.startswith(("card_power.", "card_rush."))
                 or n == "card_power.spread"]
        if names:
            _figures(console, title, [figs[n] for n in names], ABOUT.get(key, ""))
        if key == "tension":
            _calibration(console, sections[key])
        if key == "downtime":
            _by_seat(console, sections[key])
        if key == "card_power" and "kinds" in sections[key]:
            _power(console, a, sections[key])
        if key == "skill" and "chain" in sections[key]:
            console.print(f"  skill chain: {sections[key]['chain']} rung(s) whose upper agent wins clearly "
                          "more than its fair share at the table\n")
    _coverage(console, a, sections["coverage"])


def _calibration(console: Console, tension: dict[str, Any]) -> None:
    ev = tension["evaluator"]
    table = _table("Calibration: seats given each chance, and how often they won", "chance given",
                   "seat-positions", "on average", "won", "95% interval")
    for row in tension["calibration"]:
        if not row["positions"]:
            continue
        lo, hi = row["predicted"]
        won = Figure("", row["won"], tuple(row["won_ci95"]), row["positions"], "", percent=True).text()
        table.add_row(f"{100 * lo:.0f} to {100 * hi:.0f}%", f"{row['positions']:,}",
                      number(row["mean_predicted"], True), *won)
    console.print(table)
    _say(console, f"(on the rounds above, none of which it was fitted on: it learnt from {ev['training_rounds']:,} "
         "others. Where 'on average' and 'won' are close, its chances can be trusted: it is calibrated)", 4, "dim")
    console.print()


def _by_seat(console: Console, downtime: dict[str, Any]) -> None:
    table = _table("Per player and round, by seat from the first player (95% interval)", "seat", "forced draws",
                   "skips received")
    for row in downtime["by_seat_from_first"]:
        table.add_row(row["seat"], _mean_ci(row["forced_draws"]), _mean_ci(row["skips_received"]))
    console.print(table)
    table = _table("Where attacks land, by seat from the attacker in the direction of play", "seat",
                   "share of attacks (95% interval)")
    for seat, share in downtime["attacks_by_seat_from_attacker"].items():
        table.add_row(seat, with_interval(share["rate"], share["ci95"], True))
    console.print(table)


def _mean_ci(d: dict[str, Any] | None) -> str:
    return "–" if not d else with_interval(d["mean"], d["ci95"])


FLAGS = {"dominant": "dominant: playing it at once wins clearly more often",
         "useless": "useless: how it is played changes little",
         "never restricted": "never restricted: the rule never changed a choice"}


def _power(console: Console, a: Analysis, power: dict[str, Any]) -> None:
    """Each kind, strongest first: what never playing it costs and what playing it at once
    gains (or loses), each a figure line whose value reads with its verb."""
    figs = figures(a)
    console.print(f"[bold]Card power by kind[/], strongest first: one seat restricted, the same "
                  f"{power['rounds']:,} rounds")
    console.print(f"[dim]{'kind, and a way of playing it'.ljust(NAME)}{'value'.rjust(VALUE)}"
                  f"{'95% interval'.rjust(INTERVAL)}[/]")
    for row in power["kinds"]:
        kind = row["kind"]
        flag = FLAGS.get(row["flag"], row["flag"])
        console.print(Text(shown(kind) + (f" — {flag}" if flag else ""), style="bold"))
        for name, up, down, way in ((f"card_power.{kind}", "costs", "gains", "never playing it"),
                                    (f"card_rush.{kind}", "gains", "loses", "playing it at once")):
            verb, f = oriented(figs[name], up, down)
            value, ci = f.text()
            console.print(Text(f"  {way} {verb}".ljust(NAME) + f"{value.rjust(VALUE)}{ci.rjust(INTERVAL)}"),
                          no_wrap=True, overflow="ignore", crop=False)
    _say(console, "in points of win rate; never playing a common kind costs much: it is most of a hand", 4, "dim")
    console.print()


def _coverage(console: Console, a: Analysis, cov: dict[str, Any]) -> None:
    if not cov:
        return
    agents = ", ".join(dict.fromkeys(a.agents))
    rounds = f"{cov['rounds']:,} rounds of {agents}"
    if "exploring" in cov:
        rounds += f" and {cov['exploring']['rounds']:,} rounds exploring"
    console.print(Text("Coverage", style="bold") + Text(f" over {shown(rounds)}"))
    if "exploring" in cov:
        _say(console, f"(exploring: {cov['exploring']['agents']})", 4, "dim")
    for head, lines in coverage_lines(cov, agents):
        _say(console, head + (":" if lines else ""), 2)
        for line in lines:
            _say(console, line, 4)
    console.print()


def _say(console: Console, text: str, indent: int, style: str = "") -> None:
    """Text (from a variant file too: sanitised, never markup) wrapped at words to the
    console's width, its lines after the first indented two more."""
    lines = textwrap.wrap(shown(text), width=max(40, console.width - 1), initial_indent=" " * indent,
                          subsequent_indent=" " * (indent + 2), break_on_hyphens=False)
    console.print(Text("\n".join(lines), style=style), no_wrap=True, overflow="ignore", crop=False)


def _two(console: Console, diffs: list[Difference]) -> None:
    """Each figure on a line (A, B, Holm-corrected p), the difference and its interval below."""
    tested = sum(d.test.p is not None for d in diffs)
    console.print(f"[bold]A vs B: every figure, and B − A with its 95% interval[/] (z-tests, Holm-corrected over "
                  f"{tested} tests, α = 0.05; * significant)")
    console.print(f"[dim]{'figure'.ljust(NAME)}{'A'.rjust(VALUE)}{'B'.rjust(VALUE + 2)}{'p (Holm)'.rjust(14)}[/]")
    for d in diffs:
        a, _ = d.a.text()
        b, _ = d.b.text()
        p = pvalue(d.test.p_holm) + (" *" if d.test.significant else "  ")
        console.print(_named(d.name, f"{a.rjust(VALUE)}{b.rjust(VALUE + 2)}{p.rjust(14)}"), no_wrap=True,
                      overflow="ignore", crop=False)
        if d.diff is not None and d.ci95 is not None:
            value, ci = Figure("", d.diff, d.ci95, 0, "", percent=d.a.percent).text()
            console.print(Text(f"    B − A: {value} ({ci})", style="dim"), no_wrap=True, overflow="ignore",
                          crop=False)
    sig = [d for d in diffs if d.test.significant]
    console.print(f"\n[bold]{len(sig)} significant difference(s)[/] (marked *)" if sig
                  else "\n[bold]No significant difference[/] at this sample size.")


def _sequential(console: Console, test: Sprt, percent: bool) -> None:
    lower, upper = test.bounds
    console.print(f"\n[bold]Sequential test[/] (SPRT) of {_safe(test.figure)}, B − A, looking for "
                  f"±{number(test.delta, percent)} "
                  f"(α = {test.alpha}, β = {test.beta}; stop when a log-likelihood ratio leaves "
                  f"{lower:.2f} to {upper:.2f})", soft_wrap=True)
    table = _table("", "rounds each", "B − A", "LLR up", "LLR down")
    for s in test.steps:
        table.add_row(f"{s['rounds']:,}", number(s["difference"], percent, signed=True), f"{s['llr_up']:.2f}",
                      f"{s['llr_down']:.2f}")
    console.print(table)
    console.print(f"decision: {_safe(test.decision)}")
