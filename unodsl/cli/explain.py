"""`unodsl explain`: the language reference, whole or one entry."""

from __future__ import annotations

import click

from ..errors import did_you_mean
from ..tools.reference import entry, markdown, topics


@click.command()
@click.argument("name", required=False)
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the whole reference as Markdown.")
def explain(name: str | None, as_markdown: bool) -> None:
    """Explain a function, name or event of the language (or list them all)."""
    if name is None or as_markdown:
        click.echo(markdown(), nl=False)
        return
    text = entry(name)
    if text is None:
        hint = did_you_mean(name, topics())
        raise click.UsageError(f"nothing called {name!r} in the language" + (f"; {hint}" if hint else ""))
    click.echo(text)
