"""`unodsl lsp`: the language server for variant files, over standard input and output."""

from __future__ import annotations

import importlib.util

import click

from .common import EXIT_USAGE


@click.command()
def lsp() -> None:
    """Run the language server (diagnostics, hover, completion, go to definition, outline).

    An editor starts it and talks the Language Server Protocol over stdin and
    stdout; see docs/editors.md. Needs the `lsp` extra: pip install 'unodsl[lsp]'.
    """
    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        click.echo("unodsl lsp needs pygls, which is not installed; install the extra: pip install 'unodsl[lsp]'",
                   err=True)
        raise SystemExit(EXIT_USAGE)
    from ..tools.lsp.server import serve  # pygls is imported only when the server runs

    serve()
