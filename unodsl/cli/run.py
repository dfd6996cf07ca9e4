"""`unodsl run`: play a whole game with bots and tell what happens."""

from __future__ import annotations

import sys

import click
from rich.markup import escape

from ..engine.game import Game
from ..errors import UnoDslError, VariantRuntimeError
from ..players.bots import make_agents, play_game
from ..tools.log import EventLog, log_header, write_log
from ..tools.narrator import Narrator
from .common import EXIT_INVALID, Console, agent_names, allow_option, chosen_options, game_setup


@click.command()
@click.argument("variant")
@click.option("-p", "--players", type=click.IntRange(1, 100), help="Number of players (default: 4, "
              "or the nearest the variant allows).")
@click.option("-s", "--seed", type=int, help="Random seed; the same seed plays the same game (default: random).")
@click.option("-a", "--agents", default="greedy,random", show_default=True,
              help="Comma-separated agents, one per seat, repeated to fill the table: random, greedy.")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch a variant option on (NAME, NAME=off) or set a number option (NAME=300); "
              "repeatable. `unodsl options VARIANT` lists them.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the full event log to this file as JSON Lines.")
@click.option("-v", "--verbose", is_flag=True, help="Also tell each rule that fires (by its name:), the answers "
              "\"no\" and cards moved between zones.")
@click.option("--max-turns", type=click.IntRange(1), default=5_000, show_default=True,
              help="End a round that runs longer than this with an error.")
@allow_option
def run(variant: str, players: int | None, seed: int | None, agents: str, option: tuple[str, ...],
        log_file: str | None, verbose: bool, max_turns: int, allow: tuple[str, ...]) -> None:
    """Play a whole game of VARIANT with bots and tell what happens."""
    console = Console(highlight=False, soft_wrap=True)  # a line of the story is never cut in two
    v, n, seed = game_setup(variant, option, players, seed, allow)
    bots = make_agents(agent_names(agents), n)
    names = [f"P{p + 1} ({bots[p].name})" for p in range(n)]
    on = chosen_options(v)
    console.print(f"[bold]{v.name}[/] — {n} players, seed {seed}"
                  + (f", options: {', '.join(on)}" if on else ""))
    narrator = Narrator(names, console.print, verbose)
    events = EventLog()
    game: Game | None = None
    try:
        game = Game(v, n, seed, max_turns=max_turns, listeners=[narrator, *([events] if log_file else [])],
                    listen_to=narrator.listen_to())
        play_game(game, bots)
    except VariantRuntimeError as err:
        err_console = Console(stderr=True, highlight=False)
        err.with_agents(b.name for b in bots)
        err_console.print(f"[bold]{escape(err.headline())}[/]", soft_wrap=True)
        err_console.print(f"  replay: {err.replay}", markup=False, soft_wrap=True)
        sys.exit(EXIT_INVALID)
    except UnoDslError as err:
        console.print(f"[red]error:[/] {escape(str(err))}")
        sys.exit(EXIT_INVALID)
    finally:
        if log_file is not None:
            with open(log_file, "w", encoding="utf-8") as out:
                header = log_header(v, n, seed, [b.name for b in bots], max_turns)
                write_log(out, header, events.lines, over=game is not None and game.over)
    winner = game.winner
    assert winner is not None
    console.print("\n[bold]Final scores[/]")
    ranking = sorted(range(n), key=lambda p: game.scores[p], reverse=v.scoring.winner == "highest")
    for place, p in enumerate(ranking, 1):
        console.print(f"  {place}. {names[p]:<16} {game.scores[p]:>5}")
    console.print(f"[bold green]{names[winner]} wins[/] after {game.round} round(s) "
                  f"and {sum(game.round_turns)} turns.")
    if log_file:
        console.print(f"event log: {log_file}")
