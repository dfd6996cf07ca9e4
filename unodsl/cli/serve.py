"""`unodsl serve`: a web table where people play a variant in their browsers, bots in
the other seats (the optional [web] extra; docs/serve.md)."""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from ..errors import UnoDslError, shown
from ..tools.save import SaveError
from .common import Console, agent_names, allow_option, game_setup, load_saved

WEB_MISSING = ("`unodsl serve` needs the [web] extra (Starlette and uvicorn): from a checkout, "
               "pip install '.[web]'")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("variants", metavar="VARIANT...", nargs=-1)
@click.option("--seats", type=click.IntRange(1, 100), help="Seats at each table, people and bots together "
              "(default: 4, or the nearest the variant allows).")
@click.option("--bots", default="greedy", show_default=True, metavar="SPEC",
              help="The bots that play the seats nobody takes, comma-separated and cycled over the seats: "
                   "random, greedy, expert, ismcts (with parameters, as in ismcts:iterations=200).")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="Switch a variant option on (NAME, NAME=off) or set a number option (NAME=300); repeatable.")
@click.option("-s", "--seed", type=int, help="The first game's seed (default: random, printed).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: 127.0.0.1 lets only this computer in; 0.0.0.0 lets in "
                   "the local network (anyone who has a seat's link can then play it).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--games", "games_dir", type=click.Path(file_okay=False, path_type=Path), default="unodsl-games",
              show_default=True, help="The folder for the games' event logs and saves.")
@click.option("--bot-delay", type=click.FloatRange(0, 10), default=0.7, show_default=True, metavar="SECONDS",
              help="How long a bot waits before it moves, so that people can follow.")
@click.option("--turn-seconds", type=click.FloatRange(1, 3600), metavar="SECONDS",
              help="A person who has not answered within SECONDS gets their seat's bot's answer, and "
                   "everyone is told (default: no time limit).")
@click.option("--resume", "resume_file", type=click.Path(exists=True, dir_okay=False), metavar="SAVE",
              help="Open a table that goes on with a saved game (a web table's save, or `unodsl run/play "
                   "--save`'s): its seats saved as \"human\" wait for a person.")
@click.option("--url", "base_url", metavar="URL",
              help="The address the links start with (default: http://HOST:PORT), e.g. this computer's "
                   "address on the local network.")
@allow_option
def serve(variants: tuple[str, ...], seats: int | None, bots: str, option: tuple[str, ...], seed: int | None,
          host: str, port: int, games_dir: Path, bot_delay: float, turn_seconds: float | None,
          resume_file: str | None, base_url: str | None, allow: tuple[str, ...]) -> None:
    """Open a web table for each VARIANT (a shipped name or a file) and print the links.

    Each seat has its own link, with a secret key: give one to each person. Seats
    nobody takes are played by bots when the host starts the game. P1's link also
    holds the host's controls (start, a new game, undo, save); the host's page
    lists every table and opens new ones. Each game's event log is written to
    --games as it is played (`unodsl replay` checks it). Ctrl-C stops the server.
    """
    try:
        from ..web.hub import Hub
        from ..web.server import Settings, host_link, make_app, run, seat_link, watch_link
        from ..web.table import Table
    except ImportError:
        raise click.ClickException(WEB_MISSING) from None
    console = Console(highlight=False)
    _log_to_stderr()
    specs = agent_names(bots)
    hub = Hub()
    if resume_file is not None:
        saved, v = load_saved(resume_file, variants[0] if variants else None)
        saved_bots = [a for a in saved.agents if a != "human"]
        table = Table(hub.new_id(), v, saved.players, saved.seed, saved_bots or specs, games_dir,
                      agent_seed=saved.agent_seed, max_turns=saved.max_turns, bot_delay=bot_delay,
                      turn_seconds=turn_seconds)
        try:
            table.resume(saved)
        except (SaveError, UnoDslError) as err:
            raise click.ClickException(str(err)) from None
        hub.add(table)
    elif not variants:
        raise click.UsageError("give a VARIANT (a shipped name: `unodsl list` shows them; or a file), "
                               "or --resume SAVE")
    for name in variants if resume_file is None else ():
        v, n, game_seed = game_setup(name, option, seats, seed, allow)
        hub.add(Table(hub.new_id(), v, n, game_seed, specs, games_dir, bot_delay=bot_delay,
                      turn_seconds=turn_seconds))
    sock = _listen(host, port)
    url = (base_url or _base(host, sock.getsockname()[1])).rstrip("/")
    shipped = _choices(variants)
    app = make_app(hub, Settings(games_dir=games_dir, variants=shipped, bot_delay=bot_delay, base_url=url,
                                 turn_seconds=turn_seconds))
    for table in hub.tables.values():
        _print_table(console, table, url, hub.host_key, seat_link, watch_link)
    console.print(f"\n[bold]host's page[/] (every table, and new ones): {host_link(url, hub)}", soft_wrap=True)
    console.print(f"event logs and saves go to {escape(shown(str(games_dir)))}/ · Ctrl-C stops the server",
                  soft_wrap=True)
    try:
        asyncio.run(run(app, sock))
    except KeyboardInterrupt:
        pass
    finally:
        for table in hub.tables.values():
            table.close()
    console.print("server stopped")


def _print_table(console: Console, table: Any, url: str, host_key: str, seat_link: Any, watch_link: Any) -> None:
    console.print(f"\n[bold]{escape(table.variant.name)}[/] — {table.players} seats, seed {table.seed}, "
                  f"bots: {escape(', '.join(dict.fromkeys(s.bot for s in table.seats)))}", soft_wrap=True)
    for s in table.seats:
        extra = "   (also the host's controls: start, new game, undo, save)" if s.index == 0 else ""
        link = seat_link(url, table, s.index, host_key if s.index == 0 else None)
        console.print(f"  P{s.index + 1}: {link}{extra}", soft_wrap=True, markup=False)
    console.print(f"  spectators: {watch_link(url, table)}", soft_wrap=True, markup=False)


def _log_to_stderr() -> None:
    """The server's log (each game's seed, saves, failures with their details) on stderr:
    what the pages are never told."""
    log = logging.getLogger("unodsl.web")
    if not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)


def _listen(host: str, port: int) -> socket.socket:
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        return socket.create_server((host, port), family=family, reuse_port=False)
    except OSError as err:
        raise click.ClickException(f"cannot listen on {shown(host)} port {port}: {shown(str(err.strerror or err))}"
                                   + (" (is another server using it? --port 0 picks a free one)"
                                      if err.errno == 98 else "")) from None
    except (UnicodeError, TypeError):  # the socket module's "encoding of hostname failed" (IDNA)
        raise click.ClickException(f"cannot listen on {shown(host)}: not a host name or an address "
                                   "(--host 127.0.0.1, the default, or 0.0.0.0 for every interface)") from None


def _base(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _choices(variants: tuple[str, ...]) -> dict[str, str]:
    """What the host's page may open: the variants given here, and every shipped one."""
    from ..variant.resolve import shipped_names

    choices = {name: name for name in shipped_names()}
    for v in variants:
        choices.setdefault(Path(v).stem if v.endswith((".yaml", ".yml")) else v, v)
    return choices
