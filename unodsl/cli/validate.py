"""`unodsl validate`: check variant files and print every problem as file:line:col."""

from __future__ import annotations

import json
import sys

import click

from ..errors import Diagnostic, shown
from ..variant.load import validate_file
from .common import EXIT_INVALID, EXIT_OK, Console, allow_option, print_diagnostics


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text",
              show_default=True, help="text for people, json for tools, github for Actions annotations.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@allow_option
def validate(files: tuple[str, ...], fmt: str, strict: bool, allow: tuple[str, ...]) -> None:
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
        diags = validate_file(name, allow)
        new = [d for d in diags if d not in everything]  # a base shared by several files: once
        everything += new
        failing = [d for d in diags if d.severity == "error" or strict]
        bad += bool(failing)
        if fmt == "text":
            print_diagnostics(new, console)
            if not diags:
                click.echo(f"{shown(name)}: ok")
            elif not new:
                click.echo(f"{shown(name)}: {'invalid' if failing else 'warnings'}: see above (in a file it extends)")
    if fmt == "json":
        click.echo(json.dumps([{"file": d.pos.file, "line": d.pos.line, "column": d.pos.col,
                                "severity": d.severity, "message": d.message, "hint": d.hint}
                               for d in everything], indent=2))
    elif fmt == "github":
        for d in everything:
            level = "error" if d.severity == "error" or strict else "warning"
            text = d.message + (f"\nhint: {d.hint}" if d.hint else "")
            click.echo(shown(f"::{level} file={_gh(d.pos.file, True)},line={d.pos.line},col={d.pos.col},"
                             f"title=unodsl::{_gh(text)}"))
    sys.exit(EXIT_INVALID if bad else EXIT_OK)


def _gh(text: str, prop: bool = False) -> str:
    """Escape text for a GitHub Actions workflow command (data, or a property value)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text
