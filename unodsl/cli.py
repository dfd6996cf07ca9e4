"""The `unodsl` command: run · validate · schema · explain."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from .account import Narrator
from .agents import AGENTS, make_agents, play_game
from .engine.game import Game
from .errors import Diagnostic, UnoDslError, VariantError
from .lang.check import did_you_mean
from .load import load_variant, resolve, shipped_names, validate_file
from .log import EventLog, log_header, write_log
from .model import Variant
from .reference import entry, markdown
from .schema import overlay_schema, schema
from .simulate import default_players

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="unodsl")
def main() -> None:
    """unodsl: write UNO-family card games as data, check them, and play them.

    A variant is one YAML file (see `unodsl schema` and `unodsl explain`).
    A shipped variant can be named instead of given as a path (see `unodsl list`).
    """


def _options(pairs: tuple[str, ...]) -> dict[str, bool]:
    chosen = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if value.lower() not in ("", "on", "true", "yes", "1", "off", "false", "no", "0"):
            raise click.BadParameter(f"{pair!r}: use NAME, NAME=on or NAME=off", param_hint="--option")
        chosen[name] = value.lower() not in ("off", "false", "no", "0")
    return chosen


def _agents(text: str) -> list[str]:
    names = [a.strip() for a in text.split(",") if a.strip()]
    for name in names:
        if name not in AGENTS:
            hint = did_you_mean(name, AGENTS) or f"agents: {', '.join(AGENTS)}"
            raise click.BadParameter(f"unknown agent {name!r} ({hint})", param_hint="--agents")
    return names or ["random"]


@main.command()
@click.argument("variant")
@click.option("-p", "--players", type=click.IntRange(1, 100), help="Number of players (default: 4, "
              "or the nearest the variant allows).")
@click.option("-s", "--seed", type=int, help="Random seed; the same seed plays the same game (default: random).")
@click.option("-a", "--agents", default="greedy,random", show_default=True,
              help="Comma-separated agents, one per seat, repeated to fill the table: random, greedy.")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=on|off]",
              help="Switch a variant option on (or off); repeatable.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the full event log to this file as JSON Lines.")
@click.option("-v", "--verbose", is_flag=True, help="Tell every turn, not only the notable events.")
@click.option("--max-turns", type=click.IntRange(1), default=5_000, show_default=True,
              help="End a round that runs longer than this with an error.")
def run(variant: str, players: int | None, seed: int | None, agents: str, option: tuple[str, ...],
        log_file: str | None, verbose: bool, max_turns: int) -> None:
    """Play a whole game of VARIANT with bots and tell what happens."""
    console = Console(highlight=False)
    v, n, seed = _table(variant, option, players, seed)
    bots = make_agents(_agents(agents), n)
    names = [f"P{p + 1} ({bots[p].name})" for p in range(n)]
    on = [o.name for o in v.options if o.enabled]
    console.print(f"[bold]{v.name}[/] — {n} players, seed {seed}"
                  + (f", options: {', '.join(on)}" if on else ""))
    narrator = Narrator(names, console.print, verbose)
    events = EventLog()
    game: Game | None = None
    try:
        game = Game(v, n, seed, max_turns=max_turns, listeners=[narrator, *([events] if log_file else [])])
        play_game(game, bots)
    except UnoDslError as err:
        console.print(f"[red]error:[/] {err}")
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


def _table(variant: str, option: tuple[str, ...], players: int | None, seed: int | None
           ) -> tuple[Variant, int, int]:
    """The variant with its options (an invalid one is reported, and the command exits),
    the table size (default: 4, or the nearest the variant allows) and the seed."""
    try:
        v = load_variant(variant, _options(option))
    except VariantError as err:
        _print_diagnostics(err.diagnostics, Console(stderr=True, highlight=False))
        sys.exit(EXIT_INVALID)
    n = players or default_players(v)
    if not v.min_players <= n <= v.max_players:
        raise click.UsageError(f"{v.name} is for {v.min_players}–{v.max_players} players, not {n}")
    return v, n, random.SystemRandom().randrange(1_000_000) if seed is None else seed


def _print_diagnostics(diags: list[Diagnostic], console: Console) -> None:
    for d in diags:
        color = "red" if d.severity == "error" else "yellow"
        console.print(f"[bold]{escape(str(d.pos))}[/]: [{color}]{d.severity}[/]: {escape(d.message)}",
                      markup=True, highlight=False, soft_wrap=True)
        if d.hint:
            console.print(f"  hint: {d.hint}", soft_wrap=True, markup=False)


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text",
              show_default=True, help="text for people, json for tools, github for Actions annotations.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def validate(files: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Check variant FILES; print every problem as file:line:col.

    A file may be a path or a shipped variant's name; a file that `extends:`
    another is checked merged with it, and each option of a variant is checked
    switched on too. Exit status: 0 all valid, 1 some file is invalid (or has
    warnings, with --strict), 2 usage error (no files, an unknown --format).
    """
    everything: list[Diagnostic] = []
    bad = 0
    console = Console(highlight=False)
    for name in files:
        diags = validate_file(name)
        new = [d for d in diags if d not in everything]  # a base shared by several files: once
        everything += new
        failing = [d for d in diags if d.severity == "error" or strict]
        bad += bool(failing)
        if fmt == "text":
            _print_diagnostics(new, console)
            if not diags:
                click.echo(f"{name}: ok")
            elif not new:
                click.echo(f"{name}: {'invalid' if failing else 'warnings'}: see above (in a file it extends)")
    if fmt == "json":
        click.echo(json.dumps([{"file": d.pos.file, "line": d.pos.line, "column": d.pos.col,
                                "severity": d.severity, "message": d.message, "hint": d.hint}
                               for d in everything], indent=2))
    elif fmt == "github":
        for d in everything:
            level = "error" if d.severity == "error" or strict else "warning"
            text = d.message + (f"\nhint: {d.hint}" if d.hint else "")
            click.echo(f"::{level} file={_gh(d.pos.file, True)},line={d.pos.line},col={d.pos.col},"
                       f"title=unodsl::{_gh(text)}")
    sys.exit(EXIT_INVALID if bad else EXIT_OK)


def _gh(text: str, prop: bool = False) -> str:
    """Escape text for a GitHub Actions workflow command (data, or a property value)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


@main.command(name="schema")
@click.option("--overlay", is_flag=True, help="The schema of a file that `extends:` another "
              "(no key required, null removes a key).")
def schema_cmd(overlay: bool) -> None:
    """Print the JSON Schema of variant files (for editors and other tools)."""
    click.echo(json.dumps(overlay_schema() if overlay else schema(), indent=2, ensure_ascii=False))


@main.command()
@click.argument("name", required=False)
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the whole reference as Markdown.")
def explain(name: str | None, as_markdown: bool) -> None:
    """Explain a function, name or event of the language (or list them all)."""
    if name is None or as_markdown:
        click.echo(markdown(), nl=False)
        return
    text = entry(name)
    if text is None:
        from .engine.events import EVENTS
        from .engine.ops import REGISTRY
        hint = did_you_mean(name, [*REGISTRY.primitives, *REGISTRY.names, *EVENTS])
        raise click.UsageError(f"nothing called {name!r} in the language" + (f"; {hint}" if hint else ""))
    click.echo(text)


@main.command()
@click.argument("variant")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=on|off]",
              help="Switch a variant option on (or off); repeatable.")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="Markdown, or one self-contained printable HTML page.")
@click.option("--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
def rulebook(variant: str, option: tuple[str, ...], fmt: str, output: str | None) -> None:
    """Write the rulebook of VARIANT (cards, set-up, turn, effects, rules, scoring, options)."""
    from .tools.rulebook import render_variant
    text = render_variant(_table(variant, option, None, 0)[0], fmt)
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")


@main.command(name="list")
def list_cmd() -> None:
    """List the shipped variants."""
    for name in shipped_names():
        try:
            v = load_variant(name)
            click.echo(f"{name:<14} {v.name} ({v.min_players}–{v.max_players} players) {resolve(name)}")
        except VariantError:
            click.echo(f"{name:<14} (invalid: run `unodsl validate {Path(resolve(name))}`)")


from .play_cli import play  # noqa: E402  (last: these commands use this module's helpers)
from .replay_cli import replay  # noqa: E402
from .simulate_cli import simulate  # noqa: E402

main.add_command(simulate)
main.add_command(play)
main.add_command(replay)


if __name__ == "__main__":  # pragma: no cover
    main()
