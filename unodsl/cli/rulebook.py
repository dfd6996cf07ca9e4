"""`unodsl rulebook`: the rules of a variant, generated from its file, as Markdown or HTML."""

from __future__ import annotations

from pathlib import Path

import click

from ..tools.rulebook import render_variant
from .common import OutputPath, game_setup


@click.command()
@click.argument("variant")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=on|off]",
              help="Switch a variant option on (or off); repeatable.")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="Markdown, or one self-contained printable HTML page.")
@click.option("--output", type=OutputPath(), help="Write to this file.")
def rulebook(variant: str, option: tuple[str, ...], fmt: str, output: str | None) -> None:
    """Write the rulebook of VARIANT (cards, set-up, turn, effects, rules, scoring, options)."""
    text = render_variant(game_setup(variant, option, None, 0)[0], fmt)
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")
