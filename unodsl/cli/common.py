"""What the commands share: exit codes, option parsing, loading a game's set-up, printing diagnostics,
progress bars and report tables.

Imports no command module: each command imports from here, never from another command.
"""

from __future__ import annotations

import errno
import random
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import rich.console
from rich import box
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..engine.game import Game
from ..errors import Diagnostic, VariantError, shown, shown_lines
from ..model import Variant
from ..players.bots import AgentSpecError, agent_specs
from ..tools.cluster import Cluster, ClusterUnavailable, check_cluster
from ..tools.save import Save, SaveError, load_save, load_saved_variant
from ..tools.simulate import default_players
from ..variant.load import load_variant

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # stopped by Ctrl-C (128 + SIGINT), as shells report it


class Console(rich.console.Console):
    """rich's Console, but every text it prints passes through the one sanitiser of
    terminal text (errors.shown: no control character or escape from a file reaches
    the terminal), `:name:` is never an emoji, and a reader that stops early (`unodsl
    run … | head`) raises BrokenPipeError, which the command group turns into a quiet
    exit 0 (rich's own handler exits 1). Text from a file is escaped (`escape`) where
    it is put into markup, or printed with markup=False."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    def print(self, *objects: Any, **kwargs: Any) -> None:
        super().print(*(shown_lines(o) if isinstance(o, str) else o for o in objects), **kwargs)

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "the reader of the output has gone")

CONTEXT = {"help_option_names": ["-h", "--help"]}


class OutputPath(click.ParamType):  # type: ignore[type-arg]  # (generic only in newer click)
    """A file (or, with `folder`, a folder) a command will write: tried when the command
    starts, so that a path that cannot be written is a usage error, not a traceback after
    the work is done. A folder is made then; a new file is made and removed again."""

    name = "path"

    def __init__(self, folder: bool = False) -> None:
        self.folder = folder

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        path = Path(value)
        try:
            if self.folder:
                path.mkdir(parents=True, exist_ok=True)
                with tempfile.NamedTemporaryFile(dir=path):  # can a file be made in it?
                    pass
            elif path.is_dir():
                self.fail(f"{shown(value)} is a folder, not a file to write", param, ctx)
            elif not path.parent.is_dir():
                self.fail(f"cannot write {shown(value)}: the folder {shown(str(path.parent))} "
                          "does not exist", param, ctx)
            elif path.exists():
                with path.open("a"):
                    pass
            else:
                path.touch(exist_ok=False)
                path.unlink()
        except OSError as err:
            why = err.strerror or type(err).__name__
            self.fail(f"cannot write {shown(value)}: {why.lower()}", param, ctx)
        return str(value)


allow_option = click.option(
    "--allow", "allow", multiple=True, metavar="DIR", type=click.Path(file_okay=False),
    help="A folder whose files `extends:` may name, besides shipped variants and the folder of "
         "the variant file itself; repeatable.")

agent_seed_option = click.option(
    "--agent-seed", type=int, metavar="N",
    help="Seed of the bots' own generator (default: the game's seed). The deals and shuffles "
         "depend only on --seed; this changes only the random bots' choices.")


cluster_option = click.option(
    "--cluster", metavar="ADDRESS",
    help="Play on a dask.distributed cluster: the address of a running scheduler (tcp://host:8786), or "
         "'local' to start one on this machine with --workers processes (default: one per CPU). The figures "
         "are those of a local run. Needs the [cluster] extra.")


def parse_options(pairs: tuple[str, ...]) -> dict[str, bool | str]:
    """`-o NAME` → {name: True}; `-o NAME=VALUE` → {name: VALUE} (the variant checks it fits the option)."""
    chosen: dict[str, bool | str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not name or (eq and not value.strip()):
            raise click.BadParameter(f"{pair!r}: use NAME (a switch), NAME=on|off or NAME=VALUE",
                                     param_hint="--option")
        chosen[name] = value.strip() if eq else True
    return chosen


def chosen_options(v: Variant) -> list[str]:
    """The options a game's header names: the switches that are on, the numbers not at their default."""
    return [o.label for o in v.options if o.is_set]


def agent_names(text: str) -> list[str]:
    """`--agents greedy,random` or `--agents ismcts:iterations=400,greedy` → the
    agents' specs, each checked (see players.bots.parse_agent)."""
    try:
        names = agent_specs(text)
    except AgentSpecError as err:
        raise click.BadParameter(str(err), param_hint="--agents") from None
    return names or ["random"]


def game_setup(variant: str, option: tuple[str, ...], players: int | None, seed: int | None,
               allow: tuple[str, ...] = ()) -> tuple[Variant, int, int]:
    """The variant with its options (an invalid one is reported, and the command exits),
    the number of players (default: 4, or the nearest the variant allows) and the seed."""
    try:
        v = load_variant(variant, parse_options(option), allow)
    except VariantError as err:
        print_diagnostics(err.diagnostics, Console(stderr=True, highlight=False))
        sys.exit(EXIT_INVALID)
    n = players or default_players(v)
    if not v.min_players <= n <= v.max_players:
        raise click.UsageError(f"{shown(v.name)} is for {v.min_players}–{v.max_players} players, not {n}")
    return v, n, random.SystemRandom().randrange(1_000_000) if seed is None else seed


def print_diagnostics(diags: list[Diagnostic], console: Console) -> None:
    """Each diagnostic as `file:line:col: severity: message`, with its hint below."""
    for d in diags:
        color = "red" if d.severity == "error" else "yellow"
        console.print(f"[bold]{escape(shown(str(d.pos)))}[/]: [{color}]{d.severity}[/]: {escape(d.message)}",
                      markup=True, highlight=False, soft_wrap=True)
        if d.hint:
            console.print(f"  hint: {d.hint}", soft_wrap=True, markup=False)


def load_saved(resume_file: str, variant: str | None) -> tuple[Save, Variant]:
    """The save in `resume_file` and its variant (`variant`, if given, in place of the
    file the save names); a fault of either is reported, and the command exits."""
    try:
        saved = load_save(resume_file)
        return saved, load_saved_variant(saved, variant)
    except SaveError as err:
        Console(stderr=True, highlight=False).print(f"[red]error:[/] {escape(str(err))}", soft_wrap=True)
    except VariantError as err:
        print_diagnostics(err.diagnostics, Console(stderr=True, highlight=False))
    sys.exit(EXIT_INVALID)


# --------------------------------------------------------------------------
# Progress and tables of the simulating commands


class Speed(ProgressColumn):
    """Games (or rounds) per second."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} {self.unit}/s", style="progress.data.speed")


@contextmanager
def progress_bars(console: Console, unit: str) -> Iterator[Callable[[str, int], Callable[[int], None] | None]]:
    """A rich progress bar on a terminal; nothing when output is piped. A task's name may
    hold text from a file (a variant's name): it is shown as written, never read as rich
    markup, and passed through the one sanitiser of terminal text."""
    if not console.is_terminal:
        yield lambda name, total: None
        return
    columns = (TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(), Speed(unit),
               TextColumn("eta"), TimeRemainingColumn(), TextColumn("elapsed"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        def track(name: str, total: int) -> Callable[[int], None]:
            task = progress.add_task(shown(name), total=total)
            return lambda k: progress.advance(task, k)
        yield track


def pct(p: dict[str, Any] | None) -> str:
    if not p or p.get("rate") is None:
        return "–"
    lo, hi = p["ci95"]
    return f"{100 * p['rate']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def num(x: float | None, digits: int = 2) -> str:
    if x is None:
        return "–"
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


workers_option = click.option(
    "-w", "--workers", type=click.IntRange(0),
    help="Worker processes (0: one per CPU; default 1, or one per CPU with --cluster local). The "
    "figures do not depend on it.")
runaway_option = click.option(
    "--max-turns", type=click.IntRange(1), default=5_000, show_default=True,
    help="A round longer than this is a runaway: counted, and its game abandoned.")


def test_value(t: Any, x: float | None, digits: int = 2) -> str:
    """One side of a test's comparison: a rate as a percentage, else a number."""
    if x is None:
        return "–"
    return f"{100 * x:.2f}%" if t.rate else num(x, digits)


def pvalue(p: float | None) -> str:
    """A p-value as a table shows it."""
    if p is None:
        return "–"
    return "< 1e-300" if p < 1e-300 else f"{p:.3g}"


def report_table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 0 else "right", overflow="fold")  # never cut short
    return table


@contextmanager
def open_cluster(address: str | None, workers: int | None) -> Iterator[Cluster | None]:
    """The cluster of `--cluster` (None without it), closed at the end; `workers` is the
    LocalCluster's size for "local" (None or 0: one per CPU)."""
    if address is None:
        yield None
        return
    try:
        check_cluster()
    except ClusterUnavailable as err:
        raise click.ClickException(str(err)) from err
    with Cluster(address, workers=workers or 0) as cluster:
        yield cluster


# -- the end of a game, told ---------------------------------------------------------
def print_scores(console: Console, game: Game, names: Sequence[str], title: str) -> None:
    """The standings: each player, or with teams each team (its players together), best first:
    the winners, then by score, a side that is out after the others on the same score."""
    console.print(f"\n[bold]{title}[/]")
    sides = [tuple(range(game.n))[p:p + 1] for p in range(game.n)] if game.team_of is None else list(game.teams)
    sides = [side for side in sides if side]
    sign = -1 if game.variant.scoring.winner == "highest" else 1
    winners = set(game.winners)  # (empty until the game is over)
    # the game's winners first, then by score; on the same score, a side that is out last
    ranking = sorted(sides, key=lambda side: (not winners.intersection(side), sign * game.scores[side[0]],
                                              all(p in game.out for p in side)))
    for place, side in enumerate(ranking, 1):
        who = " & ".join(escape(names[p]) for p in side)
        out = " (out)" if all(p in game.out for p in side) else ""
        console.print(f"  {place}. {who:<16} {game.scores[side[0]]:>5}{out}")


def winners_text(game: Game, names: Sequence[str]) -> str:
    """Who won the game, in words: a player, a team, or a tie between several."""
    winners = game.winners
    teams = list(dict.fromkeys(game.team(p) for p in winners))
    groups = [" & ".join(escape(names[p]) for p in winners if game.team(p) == t) for t in teams]
    if len(groups) > 1:
        return f"[bold yellow]a tie[/] between {', '.join(groups[:-1])} and {groups[-1]}"
    return f"[bold green]{groups[0]} win{'s' if len(winners) == 1 else ''}[/]"
