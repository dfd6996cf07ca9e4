"""`unodsl options`: the options a table can choose for a variant (`-o NAME`, `-o NAME=VALUE`)."""

from __future__ import annotations

import sys

import click

from ..errors import VariantError, shown_lines
from ..model import Option, Variant
from ..variant.load import load_variant
from ..variant.resolve import shipped_names
from .common import CONTEXT, EXIT_INVALID, Console, print_diagnostics


@click.command(name="options", context_settings=CONTEXT)
@click.argument("variants", nargs=-1)
def options_command(variants: tuple[str, ...]) -> None:
    """List the options of each VARIANT (a path or a shipped name; default: every shipped variant).

    A switch is turned on with `-o NAME` (off with `-o NAME=off`); a number is set
    with `-o NAME=VALUE` (for example `unodsl run VARIANT -o target=300`).
    """
    names = list(variants) or shipped_names()
    failed = False
    for i, name in enumerate(names):
        try:
            v = load_variant(name)
        except VariantError as err:
            print_diagnostics(err.diagnostics, Console(stderr=True, highlight=False))
            failed = True
            continue
        click.echo(("\n" if i else "") + shown_lines(describe(name, v)))
    if failed:
        sys.exit(EXIT_INVALID)


def describe(name: str, v: Variant) -> str:
    """A variant's options, one paragraph each."""
    lines = [f"{name} ({v.name})" + ("" if v.options else ": no options")]
    for o in v.options:
        lines.append(f"  -o {o.name}{'' if o.type == 'bool' else '=N'}: {_values(o)}")
        if o.description:
            lines.append(f"      {o.description}")
    return "\n".join(lines)


def _values(o: Option) -> str:
    if o.type == "bool":
        return f"on or off (default {'on' if o.default else 'off'})"
    return f"{o.type_text} (default {o.default})"
