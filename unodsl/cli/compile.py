"""`unodsl compile`: print the Python module generated from a variant (engine/codegen.py)."""

from __future__ import annotations

from pathlib import Path

import click

from ..engine.backends import backend_of
from .common import OutputPath, allow_option, game_setup


@click.command(name="compile")
@click.argument("variant")
@click.option("-o", "--option", "option", multiple=True, metavar="NAME[=on|off]",
              help="Switch a variant option on (or off); repeatable.")
@click.option("--output", type=OutputPath(), help="Write to this file.")
@allow_option
def compile_command(variant: str, option: tuple[str, ...], output: str | None, allow: tuple[str, ...]) -> None:
    """Print the Python module VARIANT compiles to: its conditions, a runner for each
    effect program, its rules by event and its turn loop, each function headed by the
    place in the variant file it comes from (so a profile or a runtime error points at
    the variant's text). Games run this code; `load_variant(..., backend="closures")`
    runs the reference interpreter instead."""
    text = backend_of(game_setup(variant, option, None, 0, allow)[0]).source
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")
