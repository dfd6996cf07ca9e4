"""`unodsl explain`: the language reference, whole or one entry."""

from __future__ import annotations

import re

import click
from rich.console import Console
from rich.markdown import Markdown

from ..errors import did_you_mean
from ..tools.reference import entry, markdown, topics
from ..tools.topics import TOPICS


@click.command(help="Explain a function, name, event, attribute or topic of the language (or print the "
               "whole reference). Topics: " + ", ".join(TOPICS) + ". The designer's guide is docs/guide.md.")
@click.argument("name", required=False)
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the whole reference as Markdown.")
def explain(name: str | None, as_markdown: bool) -> None:
    """The reference entry of `name`, or the whole reference (its help names every topic)."""
    if name is None or as_markdown:
        click.echo(markdown(), nl=False)
        return
    text = entry(name)
    if text is None:
        hint = did_you_mean(name, topics())
        raise click.UsageError(f"nothing called {name!r} in the language" + (f"; {hint}" if hint else ""))
    show(text)


def show(text: str) -> None:
    """Markdown rendered by rich on a terminal; the text itself (plain) when piped."""
    text = re.sub(r"^```(\S+)[^\n]*$", r"```\1", text, flags=re.MULTILINE)  # the test marks (at=…) go
    console = Console(highlight=False)
    if console.is_terminal:
        console.print(Markdown(text, code_theme="ansi_dark"))
    else:
        click.echo(text)
