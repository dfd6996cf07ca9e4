"""`unodsl run`: play a whole game with bots and tell what happens."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
from click.core import ParameterSource
from rich.markup import escape

from ..engine.game import MAX_TURNS, Game
from ..errors import UnoDslError, VariantRuntimeError
from ..model import Variant
from ..players.bots import Agent, is_agent, make_agents
from ..players.narrator import Narrator
from ..tools.log import EventLog, log_header, write_log
from ..tools.save import Save, SaveError, catch_up, position, restore, write_save
from .common import (
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    Console,
    OutputPath,
    agent_names,
    agent_seed_option,
    allow_option,
    chosen_options,
    game_setup,
    load_saved,
    print_scores,
    winners_text,
)


@click.command()
@click.argument("variant", required=False)
@click.option("-p", "--players", type=click.IntRange(1, 100), help="Number of players (default: 4, "
              "or the nearest the variant allows).")
@click.option("-s", "--seed", type=int, help="Random seed; the same seed plays the same game (default: random).")
@click.option("-a", "--agents", default="greedy,random", show_default=True,
              help="Comma-separated agents, one per seat, repeated to fill the table: random, greedy, "
                   "expert, ismcts (docs/bots.md).")
@agent_seed_option
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch a variant option on (NAME, NAME=off) or set a number option (NAME=300); "
              "repeatable. `unodsl options VARIANT` lists them.")
@click.option("--log", "log_file", type=OutputPath(),
              help="Write the full event log to this file as JSON Lines.")
@click.option("-v", "--verbose", is_flag=True, help="Also tell each rule that fires (by its name:), the answers "
              "\"no\" and cards moved between zones.")
@click.option("--max-turns", type=click.IntRange(1), default=MAX_TURNS, show_default=True,
              help="End a round that runs longer than this with an error.")
@click.option("--rounds", type=click.IntRange(1), metavar="N",
              help="Stop after N rounds (the next round is dealt and waits for its first decision).")
@click.option("--save", "save_file", type=OutputPath(), metavar="FILE",
              help="Write a save of the game to FILE when it ends or stops (--rounds, Ctrl-C); "
              "`unodsl run --resume FILE` goes on with it.")
@click.option("--resume", "resume_file", type=click.Path(exists=True, dir_okay=False), metavar="SAVE",
              help="Go on with the game saved in SAVE: its variant, options, players, seed and agents "
              "(VARIANT, if given, replaces the save's variant file; -a and --agent-seed change the agents).")
@allow_option
def run(variant: str | None, players: int | None, seed: int | None, agents: str, agent_seed: int | None,
        option: tuple[str, ...], log_file: str | None, verbose: bool, max_turns: int, rounds: int | None,
        save_file: str | None, resume_file: str | None, allow: tuple[str, ...]) -> None:
    """Play a whole game of VARIANT with bots and tell what happens.

    With --resume SAVE, go on with a saved game instead (VARIANT may then be left
    out); the story and the event log start where the game was saved.
    """
    console = Console(highlight=False, soft_wrap=True)  # a line of the story is never cut in two
    ctx = click.get_current_context()
    given = {name for name in ("players", "seed", "option", "max_turns", "agents", "agent_seed")
             if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT}
    saved: Save | None = None
    if resume_file is not None:
        fixed = sorted(given & {"players", "seed", "option", "max_turns"})
        if fixed:
            flags = {"players": "-p", "seed": "-s", "option": "-o", "max_turns": "--max-turns"}
            raise click.UsageError(f"--resume takes the players, seed, options and turn guard from the save; "
                                   f"leave out {', '.join(flags[f] for f in fixed)}")
        saved, v = load_saved(resume_file, variant)
        n, seed, max_turns = saved.players, saved.seed, saved.max_turns
        seats = agent_names(agents) if "agents" in given else _saved_agents(saved)
        agent_seed = saved.agent_seed if agent_seed is None else agent_seed
    else:
        if variant is None:
            raise click.UsageError("give VARIANT (a shipped name or a file), or --resume SAVE")
        v, n, seed = game_setup(variant, option, players, seed, allow)
        seats = agent_names(agents)
        agent_seed = seed if agent_seed is None else agent_seed
    bots = make_agents(seats, n, agent_seed)
    table = [b.name for b in bots]
    names = [f"P{p + 1} ({table[p]})" for p in range(n)]
    on = chosen_options(v)
    console.print(f"[bold]{escape(v.name)}[/] — {n} players, seed {seed}"
                  + (f", agent seed {agent_seed}" if agent_seed != seed else "")
                  + (f", options: {escape(', '.join(on))}" if on else ""))
    narrator = Narrator(names, console.print, verbose)
    events = EventLog()
    game: Game | None = None
    interrupted = False
    try:
        if saved is None:
            game = Game(v, n, seed, max_turns=max_turns, listeners=[narrator, *([events] if log_file else [])],
                        listen_to=narrator.listen_to())
        else:
            game = _resume(saved, v, bots, console, names)
            game.watch(narrator, narrator.listen_to())
            if log_file:
                game.watch(events)
        game.autoplay(bots, rounds=rounds)
    except VariantRuntimeError as err:
        err_console = Console(stderr=True, highlight=False)
        err.with_agents(table, agent_seed)
        err_console.print(f"[bold]{escape(err.headline())}[/]", soft_wrap=True)
        err_console.print(f"  replay: {err.replay}", markup=False, soft_wrap=True)
        sys.exit(EXIT_INVALID)
    except SaveError as err:
        Console(stderr=True, highlight=False).print(f"[red]error:[/] {escape(str(err))}", soft_wrap=True)
        sys.exit(EXIT_INVALID)
    except UnoDslError as err:
        console.print(f"[red]error:[/] {escape(str(err))}")
        sys.exit(EXIT_INVALID)
    except KeyboardInterrupt:
        if save_file is None or game is None:
            raise
        interrupted = True
    finally:
        if log_file is not None:
            with open(log_file, "w", encoding="utf-8") as out:
                header = log_header(v, n, seed, table, max_turns, agent_seed)
                if saved is not None:  # the log starts at the save: replay answers these first
                    header["start_actions"] = list(saved.actions)
                write_log(out, header, events.lines, over=game is not None and game.over)
    if save_file is not None:
        write_save(save_file, game, table, agent_seed)
    if not game.over:
        why = "Interrupted" if interrupted else f"Stopped after {rounds} round(s)"
        console.print(f"\n[bold]{why}[/]: round {game.round} waits for its next decision.")
        print_scores(console, game, names, "Scores so far")
        if save_file is not None:
            console.print(f"saved to {escape(save_file)}; go on with: unodsl run --resume {escape(save_file)}")
        if log_file:
            console.print(f"event log: {escape(log_file)}")
        if interrupted:
            sys.exit(EXIT_INTERRUPTED)
        return
    print_scores(console, game, names, "Final scores")
    console.print(f"{winners_text(game, names)} after {game.round} round(s) and {sum(game.round_turns)} turns.")
    if save_file is not None:
        console.print(f"saved to {escape(save_file)}")
    if log_file:
        console.print(f"event log: {escape(log_file)}")


def _saved_agents(saved: Save) -> list[str]:
    """The save's agents, one per seat; a seat no bot can take (a person's) is a usage error."""
    seats = list(saved.agents) or ["random"]
    for p, name in enumerate(seats):
        if not is_agent(name):
            raise click.UsageError(f"the save seats {name!r} at P{p + 1}, which no bot can take over: "
                                   "give the agents with -a (or go on with `unodsl play --resume`)")
    return seats


def _resume(saved: Save, v: Variant, bots: Sequence[Agent], console: Console, names: Sequence[str]) -> Game:
    """The saved game rebuilt, its bots caught up, and a line saying where it stands."""
    game = restore(saved, v)
    catch_up(saved, v, bots)
    console.print(position(game, names), markup=False)
    return game
