"""`unodsl list`: the shipped variants."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import VariantError, shown
from ..variant.load import load_variant
from ..variant.resolve import resolve, shipped_names


@click.command(name="list")
def list_command() -> None:
    """List the shipped variants and house rules (`unodsl options NAME` lists a variant's options).

    Each is run by the name in the first column: `unodsl run house/seven_zero`."""
    names = shipped_names()
    width = max((len(n) for n in names), default=0) + 1
    for name in names:
        try:
            v = load_variant(name)
            click.echo(shown(f"{name:<{width}} {v.name} ({v.min_players}–{v.max_players} players) {resolve(name)}"))
        except VariantError:
            click.echo(shown(f"{name:<{width}} (invalid: run `unodsl validate {Path(resolve(name))}`)"))
