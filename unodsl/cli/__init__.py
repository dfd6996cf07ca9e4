"""The `unodsl` command: a click group; each command is a module of this package."""

from __future__ import annotations

import click

from .common import CONTEXT, EXIT_INVALID, EXIT_OK, EXIT_USAGE
from .explain import explain
from .listing import list_command
from .lsp import lsp
from .options import options_command
from .play import play
from .replay import replay
from .rulebook import rulebook
from .run import run
from .schema import schema_command
from .simulate import simulate
from .validate import validate

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "main"]


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="unodsl")
def main() -> None:
    """unodsl: write UNO-family card games as data, check them, and play them.

    A variant is one YAML file (see `unodsl schema` and `unodsl explain`).
    A shipped variant can be named instead of given as a path (see `unodsl list`).
    """


for command in (run, play, replay, simulate, validate, schema_command, explain, list_command, options_command,
                rulebook, lsp):
    main.add_command(command)


if __name__ == "__main__":  # pragma: no cover
    main()
