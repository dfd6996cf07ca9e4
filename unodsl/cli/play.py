"""The `unodsl play` command: a person plays a variant against bots in the terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click
from click.core import ParameterSource
from rich.markup import escape

from ..engine.game import MAX_TURNS, Chooser, Game
from ..errors import UnoDslError
from ..players.bots import is_agent, make_agents
from ..players.human import HumanAgent, PlayNarrator, Quit
from ..tools.log import EventLog, log_header, write_log
from ..tools.save import Save, catch_up, position, restore, write_save
from .common import (
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


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("variant", required=False)
@click.option("--seat", type=click.IntRange(0), default=0, show_default=True,
              help="Your seat, counted from 0: seat 0 is P1.")
@click.option("-p", "--players", type=click.IntRange(1, 100), help="Number of players, you included "
              "(default: 4, or the nearest the variant allows).")
@click.option("-a", "--agents", default="greedy,random", show_default=True,
              help="Comma-separated bots, repeated over the other seats: random, greedy, expert, "
                   "ismcts (docs/bots.md).")
@agent_seed_option
@click.option("-s", "--seed", type=int, help="Random seed; the same seed and the same answers play the same "
              "game (default: random, printed).")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch a variant option on (NAME, NAME=off) or set a number option (NAME=300); "
              "repeatable. `unodsl options VARIANT` lists them.")
@click.option("--log", "log_file", type=OutputPath(),
              help="Write the full event log to this file as JSON Lines (also when you quit).")
@click.option("--save", "save_file", type=OutputPath(), metavar="FILE",
              help="Write a save of the game to FILE when you quit (or when it ends); "
              "`unodsl play --resume FILE` goes on with it.")
@click.option("--resume", "resume_file", type=click.Path(exists=True, dir_okay=False), metavar="SAVE",
              help="Go on with the game saved in SAVE, at the seat you had (VARIANT, if given, replaces the "
              "save's variant file; -a and --agent-seed change the bots).")
@allow_option
def play(variant: str | None, seat: int, players: int | None, agents: str, agent_seed: int | None,
         seed: int | None, option: tuple[str, ...], log_file: str | None, save_file: str | None,
         resume_file: str | None, allow: tuple[str, ...]) -> None:
    """Play VARIANT yourself against bots, in the terminal.

    The bots' play is told as it happens. When you have a decision to make you
    see your hand, the top card, the colour to match, the other players' hand
    sizes and the scores, and the legal options, numbered: answer with a number
    or an option's text ("red 7", "draw", "yes"). '?' explains the decision,
    'q' (or Ctrl-D, Ctrl-C) ends the game; with --save it is saved first, and
    --resume SAVE goes on with it later (VARIANT may then be left out).
    """
    console = Console(highlight=False)
    ctx = click.get_current_context()
    given = {name for name in ("players", "seed", "option", "agents", "seat")
             if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT}
    saved: Save | None = None
    max_turns = MAX_TURNS
    if resume_file is not None:
        fixed = sorted(given & {"players", "seed", "option"})
        if fixed:
            flags = {"players": "-p", "seed": "-s", "option": "-o"}
            raise click.UsageError(f"--resume takes the players, seed and options from the save; "
                                   f"leave out {', '.join(flags[f] for f in fixed)}")
        saved, v = load_saved(resume_file, variant)
        n, seed, max_turns = saved.players, saved.seed, saved.max_turns
        if "seat" not in given and HumanAgent.name in saved.agents:
            seat = saved.agents.index(HumanAgent.name)
        agent_seed = saved.agent_seed if agent_seed is None else agent_seed
    else:
        if variant is None:
            raise click.UsageError("give VARIANT (a shipped name or a file), or --resume SAVE")
        v, n, seed = game_setup(variant, option, players, seed, allow)
        agent_seed = seed if agent_seed is None else agent_seed
    if seat >= n:
        more = f"; -p sets the number of players (up to {v.max_players})" if v.max_players > n else ""
        raise click.UsageError(f"--seat {seat}: with {n} players the seats are 0–{n - 1} (seat 0 is P1){more}")
    bot_names = _saved_bots(saved, seat) if saved is not None and "agents" not in given else agent_names(agents)

    bots = make_agents(bot_names, n - 1, agent_seed)  # cycled over the other seats, in seat order
    kinds = [*(b.name for b in bots[:seat]), HumanAgent.name, *(b.name for b in bots[seat:])]
    names = [f"P{p + 1} (you)" if p == seat else f"P{p + 1} ({kind})" for p, kind in enumerate(kinds)]
    human = HumanAgent(names, console.print, _reader(console))
    table: list[Chooser] = [*bots[:seat], human, *bots[seat:]]
    on = chosen_options(v)
    console.print(f"[bold]{escape(v.name)}[/] — {n} players, seed {seed}"
                  + (f", options: {', '.join(on)}" if on else "")
                  + f". You are [bold]P{seat + 1}[/]; answer by number or text, '?' for help, "
                    "'q' to quit.")

    narrator = PlayNarrator(names, console.print, seat, human)
    events = EventLog()
    game: Game | None = None
    quit_reason: str | None = None
    try:
        if saved is None:
            game = Game(v, n, seed, listeners=[narrator, *([events] if log_file else [])])
        else:
            game = restore(saved, v)
            catch_up(saved, v, [*bots[:seat], None, *bots[seat:]])
            console.print(escape(position(game, names)))
            game.watch(narrator)
            if log_file:
                game.watch(events)
        game.autoplay(table)
    except Quit:
        quit_reason = "You quit the game."
    except KeyboardInterrupt:
        quit_reason = "Interrupted: the game ends here."
    except UnoDslError as err:
        console.print(f"[red]error:[/] {escape(str(err))}")
        sys.exit(EXIT_INVALID)
    finally:
        if log_file is not None:
            with open(log_file, "w", encoding="utf-8") as out:  # the person's seat's agent is "human"
                header = log_header(v, n, seed, kinds, max_turns, agent_seed)
                if saved is not None:  # the log starts at the save: replay answers these first
                    header["start_actions"] = list(saved.actions)
                write_log(out, header, events.lines, over=game is not None and game.over)
    if save_file is not None and game is not None:
        write_save(save_file, game, kinds, agent_seed)
    if game is None:  # interrupted while the first deal was made
        console.print(f"\n[bold]{quit_reason}[/]")
        return
    if quit_reason is not None:
        console.print(f"\n[bold]{quit_reason}[/] Round {game.round}, after {sum(game.round_turns) + game.turns} "
                      "turns.")
        print_scores(console, game, names, "Scores so far")
        if save_file is not None:
            console.print(f"saved to {escape(save_file)}; go on with: unodsl play --resume {escape(save_file)}",
                          soft_wrap=True)
    else:
        print_scores(console, game, names, "Final scores")
        console.print(f"{winners_text(game, names)} after {game.round} round(s) and {sum(game.round_turns)} turns."
                      + (" [bold]You win![/]" if seat in game.winners and len({game.team(p) for p in game.winners}) == 1
                         else ""))
    if log_file:
        console.print(f"event log: {escape(log_file)}")


def _saved_bots(saved: Save, seat: int) -> list[str]:
    """The save's agents at the seats other than the person's, in seat order."""
    names = [a for p, a in enumerate(saved.agents) if p != seat]
    for name in names:
        if not is_agent(name):
            raise click.UsageError(f"the save seats {name!r} at a seat other than yours (P{seat + 1}): "
                                   "choose your seat with --seat, or the bots with -a")
    return names or ["random"]


def _reader(console: Console) -> Callable[[str], str]:
    """Read a line after a (markup) prompt; piped input is echoed, so that the
    transcript shows each answer."""
    echo = not sys.stdin.isatty()

    def read(prompt: str) -> str:
        text = console.input(prompt)
        if echo:
            console.print(text, markup=False)
        return text

    return read
