"""The `unodsl play` command: a person plays a variant against bots in the terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import click
from rich.markup import escape

from ..engine.game import MAX_TURNS, Chooser, Game
from ..errors import UnoDslError
from ..players.bots import make_agents
from ..players.human import HumanAgent, PlayNarrator, Quit
from ..tools.log import EventLog, log_header, write_log
from ..variant.model import Variant
from .common import EXIT_INVALID, Console, agent_names, allow_option, chosen_options, game_setup


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("variant")
@click.option("--seat", type=click.IntRange(0), default=0, show_default=True,
              help="Your seat, counted from 0: seat 0 is P1.")
@click.option("-p", "--players", type=click.IntRange(1, 100), help="Number of players, you included "
              "(default: 4, or the nearest the variant allows).")
@click.option("-a", "--agents", default="greedy,random", show_default=True,
              help="Comma-separated bots, repeated over the other seats: random, greedy.")
@click.option("-s", "--seed", type=int, help="Random seed; the same seed and the same answers play the same "
              "game (default: random, printed).")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch a variant option on (NAME, NAME=off) or set a number option (NAME=300); "
              "repeatable. `unodsl options VARIANT` lists them.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the full event log to this file as JSON Lines (also when you quit).")
@allow_option
def play(variant: str, seat: int, players: int | None, agents: str, seed: int | None,
         option: tuple[str, ...], log_file: str | None, allow: tuple[str, ...]) -> None:
    """Play VARIANT yourself against bots, in the terminal.

    The bots' play is told as it happens. When you have a decision to make you
    see your hand, the top card, the colour to match, the other players' hand
    sizes and the scores, and the legal options, numbered: answer with a number
    or an option's text ("red 7", "draw", "yes"). '?' explains the decision,
    'q' (or Ctrl-D, Ctrl-C) ends the game.
    """
    console = Console(highlight=False)
    v, n, seed = game_setup(variant, option, players, seed, allow)
    if seat >= n:
        more = f"; -p sets the number of players (up to {v.max_players})" if v.max_players > n else ""
        raise click.UsageError(f"--seat {seat}: with {n} players the seats are 0–{n - 1} (seat 0 is P1){more}")
    bot_names = agent_names(agents)

    bots = make_agents(bot_names, n - 1)  # cycled over the other seats, in seat order
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
        game = Game(v, n, seed, listeners=[narrator, *([events] if log_file else [])])
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
                write_log(out, log_header(v, n, seed, kinds, MAX_TURNS), events.lines,
                          over=game is not None and game.over)
    if game is None:  # interrupted while the first deal was made
        console.print(f"\n[bold]{quit_reason}[/]")
        return
    if quit_reason is not None:
        console.print(f"\n[bold]{quit_reason}[/] Round {game.round}, after {sum(game.round_turns) + game.turns} "
                      "turns.")
        _scores(console, v, game, names, "Scores so far")
    else:
        winner = game.winner
        assert winner is not None
        _scores(console, v, game, names, "Final scores")
        console.print(f"[bold green]{escape(names[winner])} wins[/] after {game.round} round(s) "
                      f"and {sum(game.round_turns)} turns." + (" [bold]You win![/]" if winner == seat else ""))
    if log_file:
        console.print(f"event log: {escape(log_file)}")


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


def _scores(console: Console, v: Variant, game: Game, names: Sequence[str], title: str) -> None:
    console.print(f"\n[bold]{title}[/]")
    ranking = sorted(range(game.n), key=lambda p: game.scores[p], reverse=v.scoring.winner == "highest")
    for place, p in enumerate(ranking, 1):
        console.print(f"  {place}. {escape(names[p]):<16} {game.scores[p]:>5}")
