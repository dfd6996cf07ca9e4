"""The `unodsl tune` command: search what a variant's `design: vary:` declares for values
that meet the targets of its `design:` section, and write the winner as an overlay."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import click
from rich.markup import escape

from ..errors import UnoDslError, VariantError, shown
from ..tools.plots import PlotUnavailable, check_plot
from ..tools.tune import Effort, Trial, Tuned, tune, words
from ..tools.tune.page import page
from ..tools.tune.rank import ranked
from ..tools.tune.search import optuna, stored
from ..variant.resolve import resolve, shipped_dir
from .common import (
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    Console,
    OutputPath,
    agent_names,
    cluster_option,
    parse_options,
    print_diagnostics,
    runaway_option,
    workers_option,
)

SHOWN = 5  # best candidates listed


def _safe(text: str) -> str:
    return escape(shown(text))


def default_output(variant: str) -> Path:
    """`NAME.tuned.yaml`: next to the variant file, or here for a shipped variant."""
    try:
        path = resolve(variant).resolve()
    except VariantError:
        return Path(f"{Path(variant).stem}.tuned.yaml")
    if path.is_relative_to(shipped_dir().resolve()):
        return Path(f"{path.stem}.tuned.yaml")
    return path.with_name(f"{path.stem}.tuned.yaml")


@click.command(name="tune")
@click.argument("variant")
@click.option("-n", "--trials", type=click.IntRange(1), default=30, show_default=True,
              help="Distinct candidates to try (a proposal tried before is told its result again and not "
              "counted, up to 4 proposals per candidate; a resumed run counts those it found).")
@click.option("-p", "--players", type=click.IntRange(1, 100), help="Number of players (default: 4, or the nearest "
              "the variant allows).")
@click.option("-a", "--agents", default="greedy", show_default=True,
              help="Comma-separated agents, repeated to fill the table; the table turns one seat per round.")
@click.option("-s", "--seed", type=int, help="Master seed (default: random, printed). The same seed gives the same "
              "candidates, figures and winner with any number of workers and on a cluster.")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Fix an option of VARIANT while tuning (written into the overlay too); repeatable.")
@click.option("--vary", multiple=True, metavar="NAME[=LO..HI]",
              help="What may change, merged over design: vary: a number option (hand_size=5..9), a switch "
              "(NAME), count.KIND=LO..HI, or deal=LO..HI; repeatable.")
@click.option("-r", "--rounds", type=click.IntRange(1), default=1_000, show_default=True,
              help="Most rounds a candidate is played (it stops sooner once every target is settled).")
@click.option("--step", type=click.IntRange(1), default=200, show_default=True,
              help="Rounds played at a time before the targets are judged again.")
@click.option("--train-rounds", type=click.IntRange(1), default=200, show_default=True,
              help="Rounds that fit the evaluator when a tension figure is a target.")
@workers_option
@cluster_option
@runaway_option
@click.option("--storage", metavar="FILE|URL",
              help="Where the trials are kept: a SQLite file, or a database URL (default: unodsl/tune.db in the "
              "user's cache folder, $XDG_CACHE_HOME or ~/.cache). The same command resumes its study.")
@click.option("--output", "output", type=OutputPath(), metavar="FILE",
              help="Where the winner's overlay is written if it meets every target on fresh seeds (default: "
              "NAME.tuned.yaml next to the variant, or here for a shipped one); else it is the closest found, "
              "written as NAME.closest.yaml.")
@click.option("--force", is_flag=True, help="Replace the overlay or the report if the file exists.")
@click.option("--no-check", "no_check", is_flag=True, help="Skip playing the winner again on fresh seeds.")
@click.option("--report", "report_file", type=OutputPath(), metavar="FILE.html",
              help="Write the search history and the front as one self-contained HTML page (needs matplotlib).")
@click.option("--json", "as_json", is_flag=True, help="Print everything as JSON.")
def tune_command(variant: str, trials: int, players: int | None, agents: str, seed: int | None,
                 option: tuple[str, ...], vary: tuple[str, ...], rounds: int, step: int, train_rounds: int,
                 workers: int | None, cluster: str | None, max_turns: int, storage: str | None, output: str | None,
                 force: bool, no_check: bool, report_file: str | None, as_json: bool) -> None:
    """Tune VARIANT toward the targets of its design: section, changing only what
    design: vary: (or --vary) declares, with Optuna (TPE; NSGA-II for several
    targets). Each candidate is played until its intervals settle every target, or
    --rounds; the winner is written as an overlay (docs/tune.md)."""
    if step > rounds:
        raise click.BadParameter(f"a step of {step} rounds is more than the budget of {rounds}", param_hint="--step")
    try:
        optuna()
        if report_file is not None:
            check_plot()
    except (UnoDslError, PlotUnavailable) as err:
        raise click.ClickException(str(err)) from err
    err_console = Console(stderr=True, highlight=False)
    if report_file is not None and not force and Path(report_file).exists():
        err_console.print(f"[red]error:[/] {_safe(report_file)} exists: pass --force to replace it, or choose "
                          "another --report", soft_wrap=True)
        sys.exit(EXIT_INVALID)
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    out = Path(output) if output is not None else default_output(variant)
    try:
        _, place = stored(storage)
    except UnoDslError as err:
        raise click.ClickException(str(err)) from err
    if not as_json:
        err_console.print(f"tuning {_safe(variant)} with seed {seed}: {trials} candidates, at most {rounds:,} "
                          f"rounds each; the trials are kept in {_safe(place)}", soft_wrap=True)

    def told(t: Trial, tried: int, total: int) -> None:
        err_console.print(progress_line(t, tried, total), markup=False, soft_wrap=True)

    try:
        result = tune(variant, trials=trials, players=players, agents=agent_names(agents), seed=seed,
                      options=parse_options(option), vary=vary, workers=1 if workers is None else workers,
                      effort=Effort(step, rounds, train_rounds, max_turns), cluster=cluster, storage=storage,
                      check=not no_check, progress=told, output=out, force=force)
    except VariantError as err:
        print_diagnostics(err.diagnostics, err_console)
        sys.exit(EXIT_INVALID)
    except KeyboardInterrupt:
        err_console.print(f"interrupted: the candidates tried are kept in {_safe(place)}; the same command "
                          "goes on from there", soft_wrap=True)
        sys.exit(EXIT_INTERRUPTED)
    except UnoDslError as err:
        err_console.print(f"[red]error:[/] {_safe(str(err))}", soft_wrap=True)
        sys.exit(EXIT_INVALID)
    if report_file is not None:
        Path(report_file).write_text(page(result), encoding="utf-8")
    if as_json:
        click.echo(json.dumps(result.as_dict(), indent=2, allow_nan=False))
    else:
        console = Console(highlight=False)
        show(console, result)
        if report_file is not None:
            console.print(f"report: {_safe(report_file)}")
    if result.winner is None:
        sys.exit(EXIT_INVALID)


def progress_line(t: Trial, tried: int, total: int) -> str:
    values = ", ".join(f"{k}={v}" for k, v in t.values.items())
    if t.state != "complete":
        why = t.result.get("error", "")
        return shown(f"trial {t.number + 1} ({tried}/{total}): {values}: could not be played: {why}")
    again = f" (as trial {t.result['same_as']})" if "same_as" in t.result else ""
    judged = "; ".join(words.line(j) for j in t.result.get("judged", []))
    return shown(f"trial {t.number + 1} ({tried}/{total}): {values}{again}: {judged} "
                 f"[{t.result.get('rounds', 0):,} rounds]")


def show(console: Console, r: Tuned) -> None:
    agents = ", ".join(dict.fromkeys(r.agents))
    console.print(f"[bold]{_safe(r.name)}[/] ({_safe(r.variant)}) — {r.players} players ({_safe(agents)}), "
                  f"seed {r.seed}, {r.sampler}: {len(r.trials)} trials, "
                  f"{sum('same_as' not in t.result for t in r.trials)} distinct candidates"
                  + (f" ({r.resumed} from the storage)" if r.resumed else "") + f" in {r.elapsed:.1f} s")
    console.print("targets: " + _safe("; ".join(words.targets(r.targets, r.trials))))
    console.print("varied: " + _safe("; ".join(f"{t.name} {t.lo} to {t.hi}" for t in r.space)))
    failed = [t for t in r.trials if t.state != "complete"]
    if failed:
        console.print(f"{len(failed)} candidate(s) could not be played (see the progress lines)")
    console.print()
    _list(console, "best candidates", ranked(r.trials)[:SHOWN])
    if len(r.targets) > 1:
        _list(console, f"Pareto front ({len(r.front)} candidate(s): none is better on every target)", r.front)
    if r.winner is None:
        console.print("[red]no candidate could be played[/]")
        return
    w = r.winner
    console.print(f"[bold]winner[/]: trial {w.number + 1}, {_safe(_values(w.values))} — meets "
                  f"{w.meets} of {len(r.targets)} target(s) with its whole interval, {w.meets_by_value} by its value")
    if r.check is not None:
        c = r.check
        console.print(f"checked on fresh seeds ({c['rounds']:,} rounds): meets {c['meets']} of {len(r.targets)} "
                      f"with its whole interval, {c['meets_by_value']} by its value")
        for j in c["judged"]:
            console.print("  " + _safe(words.line(j)))
    where = ("on fresh seeds" if r.check is not None
             else "on the search's seeds (not checked on fresh seeds: --no-check)")
    if r.outcome == "meets":
        console.print(f"[green]it meets every target {where}[/]: written as the result")
    else:
        console.print(f"[yellow]the closest found, not a result[/]: it does not meet every target {where}. "
                      "To try:")
        for text in r.advice:
            console.print(f"  - {_safe(text)}")
    if r.written is not None:
        console.print(f"written: {_safe(r.written)} (unodsl run {_safe(r.written)})", soft_wrap=True)
    console.print(f"trials stored in {_safe(r.storage)} (the same command resumes from there)", soft_wrap=True)


def _values(values: Mapping[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _list(console: Console, title: str, trials: Sequence[Trial]) -> None:
    console.print(f"[bold]{_safe(title)}[/]")
    for t in trials:
        console.print(f"  trial {t.number + 1:>3}  {_safe(_values(t.values))}  [{t.result.get('rounds', 0):,} rounds]")
        for j in t.result.get("judged", []):
            console.print("        " + _safe(words.line(j)))
    console.print()
