"""`unodsl list`: the shipped variants."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import VariantError
from ..variant.load import load_variant
from ..variant.resolve import resolve, shipped_names


@click.command(name="list")
def list_command() -> None:
    """List the shipped variants (`unodsl options NAME` lists a variant's options)."""
    for name in shipped_names():
        try:
            v = load_variant(name)
            click.echo(f"{name:<14} {v.name} ({v.min_players}–{v.max_players} players) {resolve(name)}")
        except VariantError:
            click.echo(f"{name:<14} (invalid: run `unodsl validate {Path(resolve(name))}`)")
