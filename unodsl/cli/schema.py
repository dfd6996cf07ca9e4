"""`unodsl schema`: print the JSON Schema of variant files, or write it where an editor looks."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import click

from ..errors import Diagnostic, Pos
from ..variant.schema import OVERLAY_SCHEMA_FILE, SCHEMA_FILE, overlay_schema, schema, schema_text
from .common import EXIT_INVALID
from .common import printable as _shown

# The first line of a variant that points yaml-language-server (and editors using it) at a schema.
HEADER = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)")
_EXTENDS = re.compile(r"^extends\s*:", re.MULTILINE)


class WriteError(Exception):
    """A schema file that can't be written where it was asked for."""

    def __init__(self, pos: Pos, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(pos, message, hint)


@click.command(name="schema")
@click.option("--overlay", is_flag=True, help="The schema of a file that `extends:` another "
              "(no key required, null removes a key).")
@click.option("--write", "targets", multiple=True, metavar="PATH", type=click.Path(),
              help="Write the schema to a file instead of printing it; repeatable. PATH is a .json file "
                   "(the overlay schema with --overlay), a folder (both schemas, as variant.schema.json and "
                   "overlay.schema.json), or a variant file: the schema its `$schema=` header names, or, with "
                   "no header, a schema next to it and the header line to add.")
def schema_command(overlay: bool, targets: tuple[str, ...]) -> None:
    """Print the JSON Schema of variant files (for editors and other tools), or write it.

    The shipped variants start with `# yaml-language-server: $schema=schemas/variant.schema.json`
    (a path relative to the variant, where the schema ships next to them). For your own
    variants, `unodsl schema --write my_variant.yaml` writes the schema its header names,
    so that an editor finds it; see docs/editors.md.
    """
    if not targets:
        click.echo(json.dumps(overlay_schema() if overlay else schema(), indent=2, ensure_ascii=False))
        return
    failed = False
    for target in targets:
        try:
            for path, note in _writes(Path(target), overlay):
                _write(path, _text(path, overlay))
                click.echo(f"wrote {_shown(os.path.normpath(path))}" + (f" ({note})" if note else ""))
        except WriteError as err:
            click.echo(str(err.diagnostic), err=True)
            failed = True
    if failed:
        sys.exit(EXIT_INVALID)


def _writes(target: Path, overlay: bool) -> list[tuple[Path, str]]:
    """The schema files to write for one PATH, each with a note for the user."""
    if target.suffix in (".yaml", ".yml"):
        return [_for_variant(target)]
    if str(target).endswith(("/", "\\")) or _is_dir(target):
        return [(target / SCHEMA_FILE, ""), (target / OVERLAY_SCHEMA_FILE, "")]
    return [(target, "")]


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long for the system, …: not a folder; writing it reports why
        return False


def _for_variant(variant: Path) -> tuple[Path, str]:
    """The file a variant's `$schema=` header names, or a schema next to it when it has none."""
    try:
        text = variant.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise WriteError(Pos(str(variant), 1, 1), "no such file") from None
    except UnicodeDecodeError:
        raise WriteError(Pos(str(variant), 1, 1), "can't be read as UTF-8 text") from None
    except OSError as err:
        raise WriteError(Pos(str(variant), 1, 1), f"can't be read: {err.strerror or err}") from None
    overlay = bool(_EXTENDS.search(text))
    first = text.split("\n", 1)[0]
    match = HEADER.fullmatch(first.strip())
    if match is None:
        name = OVERLAY_SCHEMA_FILE if overlay else SCHEMA_FILE
        return variant.parent / name, f"make this the first line of {_shown(str(variant))}: " \
                                      f"# yaml-language-server: $schema={name}"
    named = match.group(1)
    pos = Pos(str(variant), 1, first.index(named) + 1)
    if "://" in named:
        raise WriteError(pos, "the $schema header names a URL, not a file", "name a file, e.g. $schema="
                         + (OVERLAY_SCHEMA_FILE if overlay else SCHEMA_FILE))
    path = variant.parent / named
    expected = OVERLAY_SCHEMA_FILE if overlay else SCHEMA_FILE
    if path.name not in (SCHEMA_FILE, OVERLAY_SCHEMA_FILE):
        raise WriteError(pos, f"the $schema header names {_shown(named)}; unodsl writes only files named "
                         f"{SCHEMA_FILE} or {OVERLAY_SCHEMA_FILE}", f"name …/{expected}")
    if path.name != expected:
        what = "extends another, so it needs" if overlay else "does not extend another, so it needs"
        raise WriteError(pos, f"this file {what} {expected}, but its header names {path.name}",
                         f"name …/{expected}")
    return path, ""


def _text(path: Path, overlay: bool) -> str:
    if path.name in (SCHEMA_FILE, OVERLAY_SCHEMA_FILE):
        return schema_text(overlay=path.name == OVERLAY_SCHEMA_FILE)
    return schema_text(overlay=overlay)


def _write(path: Path, text: str) -> None:
    """Write a schema, never over a file that is not one of unodsl's schemas."""
    pos = Pos(str(path), 1, 1)
    if path.suffix != ".json":
        raise WriteError(pos, "a schema file's name ends in .json", f"for example {SCHEMA_FILE}")
    try:
        _replace(path, text, pos)
    except OSError as err:
        raise WriteError(pos, f"can't write the file: {err.strerror or err}") from None


def _replace(path: Path, text: str, pos: Pos) -> None:
    if not path.parent.is_dir():
        raise WriteError(pos, f"no folder {_shown(str(path.parent))}", "create it first")
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            old = None
        if not (isinstance(old, dict) and old.get("$id") in (schema()["$id"], overlay_schema()["$id"])):
            raise WriteError(pos, "the file exists and is not a unodsl schema; not overwritten",
                             "remove it, or write the schema elsewhere")
    path.write_text(text, encoding="utf-8")

