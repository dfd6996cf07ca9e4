"""The `unodsl replay` command: re-play a logged game and check it comes out the same."""

from __future__ import annotations

import sys

import click
from rich.markup import escape

from ..engine.game import Listener
from ..errors import VariantError
from ..players.narrator import Narrator
from ..tools import replay as lib
from ..tools.replay import Log, LogError, ReplayResult
from ..tools.save import write_save
from .common import EXIT_INVALID, EXIT_OK, Console, OutputPath, print_diagnostics


@click.command()
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False))
@click.option("--variant", "variant", metavar="PATH",
              help="Replay with this variant file instead of the one the log names (a moved or edited copy).")
@click.option("--until", type=click.IntRange(1), metavar="N",
              help="Stop after N events and show the position then.")
@click.option("-v", "--verbose", count=True,
              help="Tell the game as `unodsl run` does; -vv tells every turn.")
@click.option("--save", "save_file", type=OutputPath(), metavar="FILE",
              help="Write a save of the replayed game (with --until: the answers given up to event N) to FILE; "
              "`unodsl run --resume FILE` goes on from there.")
def replay(log_file: str, variant: str | None, until: int | None, verbose: int, save_file: str | None) -> None:
    """Re-play the game in LOG (written by `run --log` or `play --log`) and check it.

    The variant the log names is loaded with its options, every decision is
    answered as the log says, and each event is compared with the logged one.
    Exit status: 0 identical, 1 a difference (or a log or variant that cannot be
    replayed), 2 usage error. With --save, the game as replayed is saved (also
    after a difference: the answers that were replayed), so that a position can
    be handed on: `unodsl run --resume FILE` plays on from the first decision after it.
    """
    console = Console(highlight=False)
    errors = Console(stderr=True, highlight=False)
    try:
        log = lib.load_log(log_file)
        listeners: list[Listener] = []
        if verbose:
            listeners.append(Narrator(log.names(), console.print, verbose > 1))
        console.print(_title(log), soft_wrap=True)
        result = lib.replay(log, variant, until, listeners)
    except VariantError as err:
        print_diagnostics(err.diagnostics, errors)
        sys.exit(EXIT_INVALID)
    except LogError as err:
        errors.print(f"[red]error:[/] {escape(str(err))}", soft_wrap=True)
        sys.exit(EXIT_INVALID)
    _verdict(result, console)
    if save_file is not None and result.game is not None:
        write_save(save_file, result.game, result.log.agents, result.log.agent_seed)
        console.print(f"saved to {escape(save_file)} ({len(result.game.actions)} answers); "
                      f"go on with: unodsl run --resume {escape(save_file)}", soft_wrap=True)
    sys.exit(EXIT_OK if result.identical else EXIT_INVALID)


def _title(log: Log) -> str:
    h = log.header
    on = [*log.options, *(f"{k}={v}" for k, v in log.option_values.items())]
    return (f"replaying [bold]{escape(str(h.get('variant', '?')))}[/] — {log.players} players, seed {log.seed}"
            + (f", options: {escape(', '.join(on))}" if on else ""))


def _verdict(result: ReplayResult, console: Console) -> None:
    for note in result.notes:
        console.print(f"[yellow]note:[/] {escape(note)}", soft_wrap=True)
    if result.problem is not None:
        console.print(f"[red]cannot replay:[/] {escape(result.problem)}", soft_wrap=True)
        console.print("  the variant or the engine has changed since the log was written, or the log was edited",
                      soft_wrap=True, markup=False)
        return
    d = result.difference
    if d is not None:
        console.print(f"[red]event {d.number} differs[/] ({escape(d.where)}; "
                      f"the first {result.matched} events are identical)", soft_wrap=True)
        console.print(f"  log:    {d.logged if d.logged is not None else '(the log ends here)'}",
                      markup=False, soft_wrap=True)
        console.print(f"  replay: {d.live if d.live is not None else '(the replayed game is over)'}",
                      markup=False, soft_wrap=True)
        return
    if result.stopped and result.game is not None:
        line = result.log.lines[result.matched - 1]
        console.print(f"\n[bold]after event {result.matched}[/]: {escape(line)}", soft_wrap=True)
        for line in lib.state_lines(result.game, result.log.names()):
            console.print(f"  {line}", markup=False, soft_wrap=True)
    total = len(result.log.events)
    so_far = f" so far (stopped by --until; the log has {total})" if result.stopped else ""
    console.print(f"[green]replayed {result.matched} events: identical to the log[/]{so_far}", soft_wrap=True)
