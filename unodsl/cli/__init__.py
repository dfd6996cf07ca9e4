"""The `unodsl` command: a click group; each command is a module of this package."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

import click

from .analyze import analyze_command
from .common import CONTEXT, EXIT_INVALID, EXIT_OK, EXIT_USAGE
from .compile import compile_command
from .explain import explain
from .listing import list_command
from .lsp import lsp
from .options import options_command
from .play import play
from .replay import replay
from .rulebook import rulebook
from .run import run
from .schema import schema_command
from .serve import serve
from .simulate import simulate
from .sweep import sweep
from .tune import tune_command
from .validate import validate

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "main"]


class _Group(click.Group):
    """The command group; a reader that stops early (`unodsl run … | head`) ends the
    command quietly, with exit code 0 and no traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as err:
            if not isinstance(err, BrokenPipeError) and err.errno != errno.EPIPE:
                raise
            # Python flushes stdout once more at exit: point it at /dev/null first.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(0)


@click.group(cls=_Group, context_settings=CONTEXT)
@click.version_option(package_name="unodsl")
def main() -> None:
    """unodsl: write UNO-family card games as data, check them, and play them.

    A variant is one YAML file (see `unodsl schema` and `unodsl explain`).
    A shipped variant can be named instead of given as a path (see `unodsl list`).
    """


for command in (run, play, replay, simulate, sweep, analyze_command, tune_command, validate,
                compile_command, schema_command,
                explain, list_command, options_command, rulebook, lsp, serve):
    main.add_command(command)


if __name__ == "__main__":  # pragma: no cover
    main()
