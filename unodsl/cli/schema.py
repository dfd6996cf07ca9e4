"""`unodsl schema`: print the JSON Schema of variant files."""

from __future__ import annotations

import json

import click

from ..variant.schema import overlay_schema, schema


@click.command(name="schema")
@click.option("--overlay", is_flag=True, help="The schema of a file that `extends:` another "
              "(no key required, null removes a key).")
def schema_command(overlay: bool) -> None:
    """Print the JSON Schema of variant files (for editors and other tools)."""
    click.echo(json.dumps(overlay_schema() if overlay else schema(), indent=2, ensure_ascii=False))
